"""`mmtsb eval`: options checked before anything runs, the paper harness, --seeds, --resume, metadata, report."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

import mmtsb_env
from mmtsb_env.cli import app

runner = CliRunner()


def _eval(*args: str):
    return runner.invoke(app, ["eval", *args])


@pytest.mark.parametrize("args, message", [
    (["--agent", "foo"], "error: --agent 'foo' is not known; choose one of: hf, openai, oracle, random, reference-oracle, vllm"),
    (["--toolbox", "huge"], "error: --toolbox 'huge' is not valid; choose one of: full, medium, compact, mini"),
    (["--max-messages", "0"], "error: --max-messages 0 is not valid; it must be an integer >= 1"),
    (["--judge-weight", "-1"], "error: --judge-weight -1.0 is not valid; it must be a number >= 0"),
    (["--harness", "papr"], "error: --harness 'papr' is not valid; choose one of: tool, search, search_code, code, paper"),
    (["--tool-universe", "all"], "error: --tool-universe 'all' is not valid; choose one of: scenario, toolbox"),
    (["--tool-ranker", "tfidf"], "error: --tool-ranker 'tfidf' is not valid; choose one of: bm25, keyword, hybrid"),
    (["--image-size", "22x"], "error: --image-size '22x' is not valid; give N or HxW"),
    (["--message-images", "png"], "error: --message-images 'png' is not valid; choose one of: url, id"),
    (["--time-limit", "0"], "error: --time-limit 0.0 is not valid; it must be a number > 0"),
    (["--code-timeout", "0"], "error: --code-timeout 0.0 is not valid"),
    (["--seeds", "0,a"], "error: --seeds '0,a' is not valid; give comma-separated integers"),
    (["--seeds", "1,1"], "error: --seeds '1,1' is not valid; give distinct"),
    (["--resume"], "error: --resume needs --out DIR"),
    (["--suite", "no-such-suite"], "error: --suite 'no-such-suite'"),
    (["--agent", "openai"], "error: --agent openai needs --model"),
    (["--user", "robot"], "error: --user must be 'scripted' or 'llm', got 'robot'"),
    (["--user", "llm", "--ray", "local"], "error: --user llm runs in this process only"),
    (["--verbose", "--quiet"], "error: --verbose and --quiet exclude each other"),
    (["--token-in"], "error: --token-in samples from a vLLM server: use it with --agent vllm, not --agent oracle"),
    (["--agent", "vllm", "--model", "http://127.0.0.1:9/v1", "--processor", "."], "error: --processor is only used with --token-in"),
    (["--agent", "vllm", "--model", "http://127.0.0.1:9/v1", "--token-in"], "error: --model http://127.0.0.1:9/v1: cannot reach the model server"),
])
def test_bad_options_fail_up_front_with_one_line(args, message):
    result = _eval(*args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(message), result.output
    assert "episodes" not in result.output and "Traceback" not in result.output


def test_entry_point_prints_type_errors_as_one_line():
    """Typer's own parse errors (a float that is not one) go through `mmtsb` as one line too."""
    proc = subprocess.run([sys.executable, "-m", "mmtsb_env.cli", "eval", "--judge-weight", "x"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith("error: Invalid value for '--judge-weight'") and len(proc.stderr.strip().splitlines()) == 1


def test_paper_harness_runs_the_oracle_with_full_registry_discovery(tmp_path):
    result = _eval("--suite", "demo", "--harness", "paper", "--agent", "oracle", "--out", str(tmp_path), "--no-report", "-q")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text())
    env = data["metadata"]["env"]
    assert (env["harness"], env["mode"], env["tool_search"], env["tool_universe"], env["max_steps"]) == \
        ("paper", "code", True, "toolbox", 100)
    assert data["summary"]["agent_sr"] == 1.0 and data["summary"]["surfaced_tool_recall"] == 1.0
    assert data["metrics"]["search_calls"]["total"] >= len(data["episodes"])
    for ep in data["episodes"]:
        searches = [c for c in ep["calls"] if c["name"] == "api_docs_search_api_docs"]
        assert searches and all(c["ok"] for c in ep["calls"] if c["seat"] == "assistant")
        first_use = {c["name"]: i for i, c in reversed(list(enumerate(ep["calls"])))}
        for tool in ep["reference_tools"]:  # every tool was searched for before its first call
            assert any(i < first_use[tool] and c["arguments"].get("query") == tool
                       for i, c in enumerate(ep["calls"]) if c["name"] == "api_docs_search_api_docs")


def test_quick_start_run_says_what_happened_and_what_next():
    result = _eval("--suite", "demo", "--limit", "1", "-q")
    assert result.exit_code == 0, result.output
    assert "Played 1 episode(s) of suite 'demo' with agent 'oracle'" in result.output
    assert "nothing was saved" in result.output and "--out" in result.output and "--harness paper" in result.output


def test_metadata_in_results_and_parquet(tmp_path):
    result = _eval("--suite", "demo", "--limit", "2", "--seeds", "3,4", "--toolbox", "medium", "--judge-weight", "0.5",
                   "--temperature", "0.2", "--out", str(tmp_path), "--no-report", "-q")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text())
    meta = data["metadata"]
    assert meta["version"] == mmtsb_env.__version__ and meta["package"] == "mmtsb_env"
    assert "git_commit" in meta and (meta["git_commit"] is None or len(meta["git_commit"]) >= 40)
    assert all(meta["libraries"][k] for k in ("Faker", "numpy", "Pillow"))
    assert len(meta["base_worlds"]["0"]) == 16 and meta["seeds"] == [3, 4] and meta["timestamp"].endswith("+00:00")
    assert meta["env"]["toolbox"] == "medium" and meta["env"]["judge_weight"] == 0.5
    assert meta["sampling"] == {"temperature": 0.2} and meta["judge"]["judge"] == "rubric"
    assert meta["agent"]["name"] == "oracle" and meta["agent"]["reads_images"] is False
    ids = [s.id for s in mmtsb_env.load_suite("demo")[:2]]
    assert [(e["scenario_id"], e["seed"]) for e in data["episodes"]] == [(i, s) for s in (3, 4) for i in ids]
    for name in ("trajectories.parquet", "steps.parquet"):
        stored = json.loads(pq.read_schema(tmp_path / name).metadata[b"mmtsb.run"])
        assert stored == json.loads(json.dumps(meta, default=str))
    assert json.loads((tmp_path / "run.json").read_text())["base_worlds"] == meta["base_worlds"]


def test_resume_skips_finished_episodes(tmp_path, monkeypatch):
    assert _eval("--suite", "demo", "--limit", "3", "--out", str(tmp_path), "--no-report", "-q").exit_code == 0
    lines = (tmp_path / "episodes.jsonl").read_text().splitlines()
    assert len(lines) == 3
    # interrupt after the first episode: only its line survives
    (tmp_path / "episodes.jsonl").write_text(lines[0] + "\n")
    (tmp_path / "results.json").unlink()
    played = []
    import mmtsb_env.runner as runner_module

    real = runner_module.run_episode

    def spy(scenario, agent, **kwargs):
        played.append(scenario.id)
        return real(scenario, agent, **kwargs)

    monkeypatch.setattr(runner_module, "run_episode", spy)
    result = _eval("--suite", "demo", "--limit", "3", "--out", str(tmp_path), "--no-report", "-q", "--resume")
    assert result.exit_code == 0, result.output
    first = json.loads(lines[0])["scenario_id"]
    assert first not in played and len(played) == 2
    data = json.loads((tmp_path / "results.json").read_text())
    assert [e["scenario_id"] for e in data["episodes"]] == [s.id for s in mmtsb_env.load_suite("demo")[:3]]
    assert data["summary"]["episodes"] == 3 and data["summary"]["agent_sr"] == 1.0
    kept = json.loads((tmp_path / "episodes.jsonl").read_text().splitlines()[0])
    assert kept == json.loads(lines[0])  # the finished episode is kept as it was
    # a third run with nothing left plays nothing
    played.clear()
    assert _eval("--suite", "demo", "--limit", "3", "--out", str(tmp_path), "--no-report", "-q", "--resume").exit_code == 0
    assert played == []


def test_resume_refuses_other_settings(tmp_path):
    assert _eval("--suite", "demo", "--limit", "1", "--out", str(tmp_path), "--no-report", "-q").exit_code == 0
    result = _eval("--suite", "demo", "--limit", "1", "--out", str(tmp_path), "--no-report", "-q", "--resume",
                   "--toolbox", "mini")
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: --resume: {tmp_path} was run with other settings (env differ); "
                                     "use the same options or another --out")


def test_agents_that_read_no_images_get_no_pixels_and_others_do(tmp_path):
    from mmtsb_env.runner import run_suite

    demo = mmtsb_env.load_suite("demo")[:1]
    seen = []

    class Blind:
        reads_images = False

        def act(self, obs, info):
            seen.append(("blind", obs["images"].shape[0], [p.get("type") for m in info["messages"]
                                                           if isinstance(m.get("content"), list) for p in m["content"]]))
            return "Done."

    class Looking(Blind):
        reads_images = True

        def act(self, obs, info):
            seen.append(("looking", obs["images"].shape[0], [p.get("type") for m in info["messages"]
                                                             if isinstance(m.get("content"), list) for p in m["content"]]))
            return "Done."

    run_suite(demo, Blind)
    run_suite(demo, Looking)
    blind = next(s for s in seen if s[0] == "blind")
    looking = next(s for s in seen if s[0] == "looking")
    assert blind[1] == 0 and "image_url" not in blind[2] and "image" in blind[2]
    assert looking[1] > 0 and "image_url" in looking[2]


def test_report_over_two_runs_prints_the_papers_tables(tmp_path):
    a, b = tmp_path / "tool", tmp_path / "paper"
    assert _eval("--suite", "demo", "--limit", "2", "--out", str(a), "--no-report", "-q").exit_code == 0
    assert _eval("--suite", "demo", "--limit", "2", "--harness", "paper", "--out", str(b), "--no-report", "-q").exit_code == 0
    result = runner.invoke(app, ["report", str(a), str(b), "--out", str(tmp_path / "tables")])
    assert result.exit_code == 0, result.output
    out = result.output
    assert ("| Model | Suite | Interface | Seeds | Episodes | Agent SR | Agent SR ± (seeds) | F1 | F1 ± (seeds) | "
            "Avg. Steps | Assistant steps | User SR |") in out
    assert "| oracle | demo | tool | 1 | 2 | 1.000 | — | 1.000 |" in out and "| oracle | demo | paper | 1 | 2 | 1.000 | — | 1.000 |" in out
    assert "| Model | Suite | Interface | Surfaced recall | Invoked recall | Search calls / scenario |" in out
    # recall only where discovery is on: the tool harness has none, the paper's oracle finds every tool
    assert "| oracle | demo | tool | — | — | 0.000 |" in out and "| oracle | demo | paper | 1.000 | 1.000 |" in out
    for key in ("image_arrival", "flow_type", "challenge_type", "image_category", "num_images"):
        assert (tmp_path / "tables" / f"by_{key}.csv").is_file(), key
    main = (tmp_path / "tables" / "main.csv").read_text().splitlines()
    header = main[0].split(",")
    assert header[:3] == ["Model", "Suite", "Interface"] and len(main) == 3
    assert (tmp_path / "tables" / "compare_main.png").read_bytes().startswith(b"\x89PNG")
    paper_steps = float(main[2].split(",")[header.index("Avg. Steps")])
    tool_steps = float(main[1].split(",")[header.index("Avg. Steps")])
    assert paper_steps > tool_steps  # searching costs steps


def test_eval_with_a_wrong_agent_under_the_paper_harness(tmp_path):
    """The random agent is wrong in every way; the run still completes and is scored, nothing raises."""
    result = _eval("--suite", "demo", "--limit", "2", "--harness", "paper", "--agent", "random", "--out", str(tmp_path),
                   "--no-report", "-q", "--max-steps", "12")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["summary"]["episodes"] == 2 and data["summary"]["agent_sr"] == 0.0
    assert all(ep["steps"] <= 12 for ep in data["episodes"])


def test_ray_run_resumes_and_matches_the_sequential_one(tmp_path):
    pytest.importorskip("ray")
    seq, dist = tmp_path / "seq", tmp_path / "ray"
    common = ["--suite", "demo", "--limit", "2", "--harness", "paper", "--no-report", "-q"]
    assert _eval(*common, "--out", str(seq)).exit_code == 0
    assert _eval(*common, "--out", str(dist), "--limit", "1").exit_code == 0
    result = _eval(*common, "--out", str(dist), "--resume", "--ray", "local", "--workers", "1")
    assert result.exit_code == 0, result.output
    a = json.loads((seq / "results.json").read_text())
    b = json.loads((dist / "results.json").read_text())
    assert [e["scenario_id"] for e in b["episodes"]] == [e["scenario_id"] for e in a["episodes"]]
    assert [e["calls"] for e in b["episodes"]] == [e["calls"] for e in a["episodes"]]
    assert len((dist / "episodes.jsonl").read_text().splitlines()) == 2


def test_the_llm_user_gets_its_own_backend(tmp_path, monkeypatch):
    import mmtsb_env.llm
    from mmtsb_env.llm.base import RecordedBackend

    made = []

    def make_backend(spec, model=None, *, base_url=None, **options):
        made.append((spec, model, base_url))
        return RecordedBackend([])  # every call fails: the LLM user falls back to its script

    monkeypatch.setattr(mmtsb_env.llm, "make_backend", make_backend)
    result = _eval("--suite", "demo", "--limit", "1", "--user", "llm", "--user-model", "openai",
                   "--user-base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path), "--no-report", "-q")
    assert result.exit_code == 0, result.output
    assert made == [("openai", None, "http://127.0.0.1:9/v1")]
    data = json.loads((tmp_path / "results.json").read_text())
    ep = data["episodes"][0]
    assert ep["user"] != "scripted" and ep["user_steps"] and all(s["source"] == "script" for s in ep["user_steps"])
    assert data["metadata"]["user"] == {"user": "llm", "model": "openai", "base_url": "http://127.0.0.1:9/v1"}


def test_world_fingerprint_and_comparable_settings():
    from mmtsb_env.provenance import comparable, run_metadata, world_fingerprint

    assert world_fingerprint(0) == world_fingerprint(0) != world_fingerprint(1)
    a = run_metadata(env_options={"toolbox": "full"}, seeds=[0])
    b = run_metadata(env_options={"toolbox": "full"}, seeds=[1, 2])  # other seeds and time: still one run
    assert comparable(a, b) == []
    c = run_metadata(env_options={"toolbox": "mini"}, sampling={"temperature": 0.7}, seeds=[0])
    assert comparable(a, c) == ["env", "sampling"]
