"""Runs a researcher can trust, through the real `mmtsb` entry point: nothing lost (a run folder is
never replaced or rewritten silently, export keeps every image), failures loud (one line, a
non-zero exit when every episode errored, Ctrl-C says how to resume), one meaning of "steps"."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

MMTSB = str(Path(sys.executable).with_name("mmtsb"))
SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "demo" / "note_from_receipt.json"


def mmtsb(*args: str, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([MMTSB, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def one_line_error(result: subprocess.CompletedProcess) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("runs") / "demo"
    result = mmtsb("eval", "--suite", "demo", "--limit", "2", "--out", str(folder), "-q")
    assert result.returncode == 0, result.stderr
    return folder


# ------------------------------------------------------------------ nothing lost

def test_out_onto_a_run_is_refused_unless_resume_or_overwrite(run, tmp_path):
    before = snapshot(run)
    result = mmtsb("eval", "--suite", "demo", "--limit", "1", "--out", str(run), "-q")
    assert result.returncode == 2
    line = one_line_error(result)
    assert "already holds a finished run" in line and "--resume" in line and "--overwrite" in line
    assert snapshot(run) == before
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "episodes.jsonl").write_text((run / "episodes.jsonl").read_text().splitlines()[0] + "\n")
    (copy / "notes.txt").write_text("mine")
    partial = mmtsb("eval", "--suite", "demo", "--limit", "1", "--out", str(copy), "-q")
    assert partial.returncode == 2 and "a partial run of 1 episode(s)" in one_line_error(partial)
    replaced = mmtsb("eval", "--suite", "demo", "--limit", "1", "--out", str(copy), "--overwrite", "-q", "--no-report")
    assert replaced.returncode == 0, replaced.stderr
    assert len((copy / "episodes.jsonl").read_text().splitlines()) == 1 and (copy / "notes.txt").read_text() == "mine"


def test_an_unwritable_out_is_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = mmtsb("eval", "--suite", "demo", "--limit", "1", "--out", str(blocker / "run"), "-q")
    assert result.returncode == 2 and "cannot write there" in one_line_error(result)


def test_export_keeps_every_image_whichever_path_is_given(run, tmp_path):
    counts = []
    for source in (run, run / "results.json"):
        target = tmp_path / f"{len(counts)}.parquet"
        result = mmtsb("export", str(source), "--out", str(target), "-q")
        assert result.returncode == 0, result.stderr
        table = pq.read_table(target, columns=["images"]).to_pylist()
        counts.append(sum(len(row["images"] or []) for row in table))
    assert counts[0] == counts[1] > 0


def test_report_writes_only_under_out(run, tmp_path):
    before = snapshot(run)
    out = tmp_path / "report"
    result = mmtsb("report", str(run), "--out", str(out), "--no-plots")
    assert result.returncode == 0, result.stderr
    assert snapshot(run) == before
    assert {"report.md", "report.json", "viewer.html", "tables.md", "main.csv"} <= {p.name for p in out.iterdir()}
    refused = mmtsb("report", str(run), "--out", str(run))
    assert refused.returncode == 2 and "never writes into one" in one_line_error(refused)


# ------------------------------------------------------------------ failures loud

def test_an_eval_whose_episodes_all_errored_exits_non_zero_with_the_reasons(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    data = json.loads(SCENARIO.read_text())
    data["id"] = "mine/bad_image"
    data["images"][0] = {"render": {"kind": "receipt", "seed": 1, "content": {"items": "not a list"}}}  # fails at reset
    (suite / "bad_image.json").write_text(json.dumps(data))
    result = mmtsb("eval", "--suite", str(suite), "--out", str(tmp_path / "run"), "-q")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert "error: every episode errored" in result.stderr and "content.items must be a list" in result.stderr
    assert "   1 x scenario error: mine/bad_image: images[0].render" in result.stderr
    record = json.loads((tmp_path / "run" / "episodes.jsonl").read_text())
    assert record["error"].startswith("scenario error") and not record["passed"]


def test_a_suite_whose_image_files_are_missing_is_refused_before_the_first_episode(tmp_path):
    suite = tmp_path / "suite"
    suite.mkdir()
    data = json.loads(SCENARIO.read_text())
    data["id"] = "mine/missing_file"
    data["images"] = [{"path": "no/such/file.png"}]
    (suite / "missing.json").write_text(json.dumps(data))
    result = mmtsb("eval", "--suite", str(suite), "--out", str(tmp_path / "run"), "-q")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert one_line_error(result).startswith("error: image files not found under .: no 1 of 1 missing")
    assert not (tmp_path / "run").exists()


def test_an_unreachable_model_server_is_one_line_before_any_episode():
    result = mmtsb("eval", "--agent", "openai", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--limit", "1")
    assert result.returncode == 2
    assert "cannot reach the model server" in one_line_error(result)


def test_a_missing_model_folder_is_one_line(tmp_path):
    result = mmtsb("eval", "--agent", "hf", "--model", str(tmp_path / "no-model"), "--limit", "1")
    assert result.returncode == 2 and "no such folder" in one_line_error(result)


def test_vllm_without_its_environment_says_how_to_build_it(tmp_path):
    result = mmtsb("eval", "--agent", "vllm", "--model", str(tmp_path), "--limit", "1",
                   env={"MMTSB_VLLM_PYTHON": str(tmp_path / "no-python"), "HOME": str(tmp_path)})
    assert result.returncode == 2
    assert "scripts/setup_vllm_env.sh" in one_line_error(result)


def test_vllm_runs_the_command_in_the_vllm_environment(tmp_path):
    """With vLLM absent here, the command re-runs itself with the vLLM env's python (a stand-in
    that reports what it was given), this checkout first on the path."""
    try:
        import vllm  # noqa: F401
        pytest.skip("vLLM is importable here: nothing to hand over")
    except ImportError:
        pass
    stub = tmp_path / "python"
    stub.write_text('#!/bin/sh\necho "argv: $@"\necho "path: $PYTHONPATH"\n')
    stub.chmod(0o755)
    result = mmtsb("eval", "--agent", "vllm", "--model", str(tmp_path), "--limit", "1", env={"MMTSB_VLLM_PYTHON": str(stub)})
    assert result.returncode == 0, result.stderr
    assert f"argv: -m mmtsb_env.cli eval --agent vllm --model {tmp_path} --limit 1" in result.stdout
    assert f"path: {Path(__file__).resolve().parents[2]}" in result.stdout
    assert "running this command with the vLLM environment's python" in result.stderr


def test_ctrl_c_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([MMTSB, "eval", "--suite", "demo", "--out", str(out), "-q", "--no-report"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        jsonl = out / "episodes.jsonl"
        if jsonl.exists() and jsonl.read_text().strip():
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the run finished before the interrupt arrived")
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert f"continue with: mmtsb eval --suite demo --out {out} -q --no-report --resume" in stderr
    resumed = mmtsb("eval", "--suite", "demo", "--out", str(out), "-q", "--no-report", "--resume")
    assert resumed.returncode == 0, resumed.stderr


# ------------------------------------------------------------------ one meaning of "steps"

def test_steps_mean_the_same_in_jsonl_report_and_viewer(run):
    lines = [json.loads(line) for line in (run / "episodes.jsonl").read_text().splitlines()]
    report = json.loads((run / "report.json").read_text())
    viewer = (run / "viewer.html").read_text()
    for line, row in zip(lines, report["episodes"]):
        both = sum(1 for e in line["log"] if e["visible_to"] != ["environment"])
        assert line["steps"] == row["steps"] == both > line["assistant_steps"] == row["assistant_steps"] > 0
        assert f"{both} steps ({line['assistant_steps']} by the assistant)" in viewer
    summary = json.loads((run / "results.json").read_text())["summary"]
    assert summary["avg_steps"] == pytest.approx(sum(line["steps"] for line in lines) / len(lines))
    assert summary["avg_assistant_steps"] == pytest.approx(sum(line["assistant_steps"] for line in lines) / len(lines))


def test_every_printed_metric_has_a_legend(run):
    result = mmtsb("eval", "--suite", "demo", "--limit", "1", "-q")
    summary = json.loads(result.stdout[:result.stdout.index("\n}") + 2])
    for key in ("agent_sr", "mean_entity_f1", "avg_steps", "avg_assistant_steps", "user_sr", "errored"):
        assert key in summary and f"  {key}: " in result.stderr, key
    md = (run / "report.md").read_text()
    assert "- avg_steps: Avg. Steps (the paper's): messages of both seats" in md


# ------------------------------------------------------------------ the paper's tables

def test_report_gives_the_papers_tables_with_suite_harness_seeds_and_a_warning(run, tmp_path):
    import csv

    ui, rnd = tmp_path / "ui", tmp_path / "random"
    assert mmtsb("eval", "--suite", "ui", "--limit", "1", "--seeds", "0,1", "--out", str(ui), "-q", "--no-report").returncode == 0
    assert mmtsb("eval", "--suite", "demo", "--agent", "random", "--limit", "3", "--out", str(rnd), "-q",
                 "--no-report").returncode == 0
    out = tmp_path / "tables"
    result = mmtsb("report", str(run), str(ui), str(rnd), "--out", str(out), "--no-plots")
    assert result.returncode == 0, result.stderr
    assert f"warning: the runs differ in suite: demo: {run}, {rnd}; ui: {ui}" in result.stderr
    assert "**Warning:** the runs differ in suite" in (out / "tables.md").read_text()

    def table(name):
        with (out / f"{name}.csv").open() as fh:
            return list(csv.DictReader(fh))

    main = {(r["Model"], r["Suite"]): r for r in table("main")}
    assert main[("oracle", "ui")]["Seeds"] == "2" and main[("oracle", "ui")]["Agent SR ± (seeds)"] == "0.0"
    assert main[("oracle", "demo")]["Agent SR ± (seeds)"] == ""  # one seed: no spread
    assert float(main[("random", "demo")]["Avg. Steps"]) > float(main[("random", "demo")]["Assistant steps"])
    taxonomy = {(r["Model"], r["Suite"]): r for r in table("taxonomy")}
    shares = [float(v) for k, v in taxonomy[("random", "demo")].items() if k.endswith(" share")]
    assert int(taxonomy[("random", "demo")]["Failed"]) == 3 and sum(shares) == pytest.approx(1.0)
    assert [(r["Model"], r["Suite"], r["UI SR"]) for r in table("ui")] == [("oracle", "ui", "1.0")]
    assert {"discovery", "by_num_images", "by_image_category"} <= {p.stem for p in out.glob("*.csv")}
    assert "- failure shares: Table 3" in result.stdout
