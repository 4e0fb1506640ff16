"""`mmtsb eval --out` and `mmtsb report`: files, contents, plots, the LLM-judge wiring, and the HTML
viewer rendered in a real headless Chromium (skipped only when /usr/bin/chromium is missing)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

import mmtsb_env.llm
from mmtsb_env.cli import app
from mmtsb_env.evaluation import CRITERIA
from mmtsb_env.evaluation.report import load_results, write_report
from mmtsb_env.evaluation.viewer import PAGE_SIZE, render_viewer
from mmtsb_env.llm.base import RecordedBackend

CHROMIUM = "/usr/bin/chromium"
runner = CliRunner()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("run")
    result = runner.invoke(app, ["eval", "--suite", "demo", "--limit", "3", "--out", str(out), "--images"])
    assert result.exit_code == 0, result.output
    return out


def test_eval_writes_results_and_report(run_dir):
    data = json.loads((run_dir / "results.json").read_text())
    assert data["format"] == "mmtsb-results-1" and data["config"]["judge"] == "rubric"
    assert {k: data["summary"][k] for k in ("episodes", "errored", "agent_sr", "mean_entity_f1")} == \
        {"episodes": 3, "errored": 0, "agent_sr": 1.0, "mean_entity_f1": 1.0}
    ep = data["episodes"][0]
    assert ep["scenario_id"] == "demo/compare_receipts" and ep["reference_tools"] == ["simple_note_create_note"]
    assert ep["user_verdict"]["pass"] is True and ep["expected_changes"][0]["table"] == "simple_note.notes"
    assert "images" not in ep and len(ep["image_files"]) == 2  # each image stored once, as a file
    assert all((run_dir / f).read_bytes().startswith(b"\x89PNG") for f in ep["image_files"])
    for name in ("report.md", "report.json", "viewer.html", "plots/failures.png", "plots/breakdown_flow_type.png"):
        assert (run_dir / name).is_file(), name
    with Image.open(run_dir / "plots" / "breakdown_num_images.png") as img:
        assert img.format == "PNG" and img.size[0] >= 400
    md = (run_dir / "report.md").read_text()
    # no tool discovery in this run: tool recall is not reported
    assert "| Agent SR | 1.000 |" in md and "| invoked tool recall | — |" in md and "![failures](plots/failures.png)" in md
    # steps in the paper's unit (both roles): more than the oracle's 2 actions
    steps = re.search(r"\| 1 \| demo/compare_receipts \| pass \| 1.000 \| (\d+) \| pass \| — \| — \|  \|", md)
    assert steps and int(steps.group(1)) > 2


def test_report_command_rebuilds_and_lists_errored_episodes(run_dir, tmp_path):
    data = load_results(run_dir)
    broken = dict(data["episodes"][0], error="backend error: server went away", passed=False)
    data["episodes"].append(broken)
    run, out = tmp_path / "run", tmp_path / "out"
    run.mkdir()
    (run / "results.json").write_text(json.dumps(data))
    result = runner.invoke(app, ["report", str(run), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "markdown: " in result.output and "plots: 7 file(s)" in result.output
    assert sorted(p.name for p in run.iterdir()) == ["results.json"]  # the run folder is only read
    md = (out / "report.md").read_text()
    assert "| errored (excluded below) | 1 |" in md and "| demo/compare_receipts | backend error: server went away |" in md
    report = json.loads((out / "report.json").read_text())
    assert report["metrics"]["episodes"] == 4 and report["metrics"]["agent_sr"] == 1.0
    assert [e["errored"] for e in report["episodes"]] == [False, False, False, True]


def test_report_on_a_missing_folder(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "results.json does not exist" in result.output


def test_judge_llm_needs_a_backend_name():
    result = runner.invoke(app, ["eval", "--suite", "demo", "--limit", "1", "--judge", "llm"])
    assert result.exit_code != 0 and "--judge llm needs --judge-backend NAME" in result.output
    result = runner.invoke(app, ["eval", "--suite", "demo", "--limit", "1", "--judge", "gpt"])
    assert result.exit_code != 0 and "must be 'rubric' or 'llm'" in result.output


def test_judge_llm_through_the_backend_factory(tmp_path, monkeypatch):
    good = json.dumps({"criteria": {c: {"pass": True, "reason": "fine"} for c in CRITERIA}})
    made = []

    def make_backend(name):
        made.append(name)
        # episode 1: a usable verdict; episode 2: garbage three times -> errored
        return RecordedBackend([good, "???", "???", "???"])

    monkeypatch.setattr(mmtsb_env.llm, "make_backend", make_backend, raising=False)
    result = runner.invoke(app, ["eval", "--suite", "demo", "--limit", "2", "--judge", "llm", "--judge-backend", "fake",
                                 "--out", str(tmp_path), "--no-report"])
    assert result.exit_code == 0, result.output
    assert made == ["fake"]
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["summary"]["judge"] == "llm:fake" and data["summary"]["errored"] == 1
    first, second = data["episodes"]
    assert first["verdict"]["judge"] == "llm:recorded" and first["passed"] is True
    assert second["error"].startswith("judge error: llm:recorded: no usable verdict after 3 attempt(s)")
    assert len(list((tmp_path / "judge_cache").glob("*.json"))) == 1
    assert not (tmp_path / "viewer.html").exists()


def test_viewer_is_self_contained(run_dir):
    page = (run_dir / "viewer.html").read_text()
    assert "<link" not in page and "@import" not in page and "url(http" not in page
    srcs = re.findall(r'\ssrc="([^"]*)"', page)
    assert srcs and all(s.startswith("images/") and (run_dir / s).is_file() for s in srcs)
    assert 'loading="lazy"' in page
    assert not re.search(r'href="(?!#)', page)
    assert "World diff against expected" in page and "simple_note_create_note" in page and "Judge verdict" in page


def _chromium(*args: str, profile: Path, timeout: int = 90) -> subprocess.CompletedProcess:
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
           "--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def _console_errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line and ("Error" in line or "Uncaught" in line)]


needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason="/usr/bin/chromium is missing (apt-get install -y chromium; CI installs it)")


@needs_chromium
def test_error_detection_is_not_vacuous(run_dir, tmp_path):
    """A viewer with a broken script is caught both by the console log and by the page's own hook."""
    page = (run_dir / "viewer.html").read_text().replace("</body>", "<script>undefinedFunction();</script></body>")
    bad = tmp_path / "bad.html"
    bad.write_text(page)
    proc = _chromium("--dump-dom", bad.as_uri(), profile=tmp_path / "prof")
    assert any("undefinedFunction is not defined" in line for line in _console_errors(proc.stderr)), proc.stderr[-2000:]
    assert re.search(r'<html[^>]*data-js-errors="1"', proc.stdout)
    assert re.search(r'<ul id="js-errors"><li>[^<]*undefinedFunction is not defined', proc.stdout)


@needs_chromium
def test_viewer_renders_in_headless_chromium(run_dir, tmp_path):
    page = (run_dir / "viewer.html").read_text()
    proc = _chromium("--dump-dom", (run_dir / "viewer.html").as_uri(), profile=tmp_path / "prof")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert 'data-js="ok"' in dom                                   # the inline script ran to its end
    assert not re.search(r"<html[^>]*data-js-errors", dom) and '<ul id="js-errors"></ul>' in dom
    assert not _console_errors(proc.stderr), _console_errors(proc.stderr)
    assert '<span id="status">3 of 3 episode(s) shown</span>' in dom
    n_img = len(re.findall(r"<img ", page))
    assert n_img >= 3 and f'<span id="image-count">{n_img}</span>' in dom
    for text in ("demo/compare_receipts", "demo/connectivity_goal_change", "task_completion", "request_fidelity",
                 "Expected changes", "Actual changes", "simple_note_create_note"):
        assert text in dom, text
    shot = tmp_path / "shot.png"
    proc = _chromium("--hide-scrollbars", "--window-size=1200,1400", f"--screenshot={shot}", (run_dir / "viewer.html").as_uri(),
                     profile=tmp_path / "prof2")
    assert shot.is_file(), proc.stderr[-2000:]
    with Image.open(shot) as img:
        assert img.size == (1200, 1400)
        colors = img.convert("RGB").resize((60, 70)).getcolors(maxcolors=4096)
        assert colors is None or len(colors) > 20  # a rendered page, not a blank canvas


def _many_episodes(n: int) -> dict:
    return {"config": {}, "episodes": [{"scenario_id": f"synthetic/{i:03d}", "passed": i % 3 != 0, "entity_f1": 1.0,
                                        "steps": 2, "seed": 0, "log": [{"sender": "user", "recipient": "assistant",
                                                                        "kind": "message", "content": f"marker-{i:03d}"}]}
                                       for i in range(n)]}


@needs_chromium
@pytest.mark.parametrize("fragment, page, first, last", [("", 1, 0, PAGE_SIZE - 1), ("#ep-57", 3, 50, 59)])
def test_viewer_shows_one_page_and_follows_episode_links(tmp_path, fragment, page, first, last):
    """60 episodes: a page of 25 is laid out, the rest stay in inert templates; a link to #ep-57 opens page 3."""
    path = tmp_path / "viewer.html"
    path.write_text(render_viewer(_many_episodes(60)))
    proc = _chromium("--dump-dom", path.as_uri() + fragment, profile=tmp_path / "prof")
    dom = proc.stdout
    assert 'data-js="ok"' in dom and not _console_errors(proc.stderr), proc.stderr[-2000:]
    laid_out = sorted(int(i) for i in re.findall(r'<details class="episode"[^>]* id="ep-(\d+)"', dom))
    assert laid_out == list(range(first, last + 1))
    assert f'<span id="page">page {page} of 3</span>' in dom and '<span id="status">60 of 60 episode(s) shown</span>' in dom
    if fragment:
        assert re.search(r'<details class="episode" id="ep-57" open="">', dom)  # opened, not only laid out


@needs_chromium
def test_viewer_failed_filter_hides_passing_rows_of_the_index(tmp_path):
    """Clicking "Failed" (the real button, in Chromium) leaves only failed episodes, in the index
    table as in the episode list; "All" brings every row back."""
    page = render_viewer(_many_episodes(9))
    click = ("<script>document.querySelector(\"button[data-filter='fail']\").click();"
             "document.body.setAttribute('data-clicked','1');</script></body>")
    for name, extra in (("fail", click), ("all", click.replace("'fail'", "'all'"))):
        path = tmp_path / f"{name}.html"
        path.write_text(page.replace("</body>", extra))
        proc = _chromium("--dump-dom", path.as_uri(), profile=tmp_path / f"prof-{name}")
        dom = proc.stdout
        assert 'data-clicked="1"' in dom and not _console_errors(proc.stderr), proc.stderr[-2000:]
        rows = re.findall(r'<tr class="idx" data-status="(\w+)"( hidden="")?>', dom)
        assert len(rows) == 9
        visible = [status for status, hidden in rows if not hidden]
        if name == "fail":
            assert visible == ["fail"] * 3 and '<span id="status">3 of 9 episode(s) shown</span>' in dom
        else:
            assert len(visible) == 9


def test_write_report_without_plots_or_viewer(run_dir, tmp_path):
    data = load_results(run_dir)
    paths = write_report(tmp_path, results=data, plots=False, viewer=False)
    assert set(paths) == {"json", "markdown"} and not (tmp_path / "plots").exists()
