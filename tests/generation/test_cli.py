"""``mmtsb generate`` writes loadable suite files and a report."""

from __future__ import annotations

from typer.testing import CliRunner

from mmtsb_env.cli import app
from mmtsb_env.scenario.suites import LazySuite, load_suite


def test_generate_writes_a_loadable_folder(tmp_path):
    out = tmp_path / "gen"
    result = CliRunner().invoke(app, ["generate", "--n", "3", "--seed", "4", "--out", str(out), "--verify", "static",
                                      "--flow", "compute", "--flow", "filter"])
    assert result.exit_code == 0, result.output
    assert '"written": 3' in result.output
    names = sorted(p.name for p in out.iterdir())
    assert names == ["gen_4-0000.json", "gen_4-0001.json", "gen_4-0002.json", "generation_report.md", "suite.index"]
    suite = load_suite(out)
    assert len(suite) == 3 and all(s.id.startswith("gen/4-") for s in suite)
    assert "3 scenarios" in (out / "generation_report.md").read_text()


def test_by_flow_writes_one_list_per_flow(tmp_path):
    import json

    result = CliRunner().invoke(app, ["generate", "--n", "2", "--seed", "1", "--out", str(tmp_path), "--verify", "none",
                                      "--flow", "validate", "--by-flow", "--numbered", "--id-prefix", "mine"])
    assert result.exit_code == 0, result.output
    items = json.loads((tmp_path / "validate.json").read_text())
    assert [x["id"] for x in items] == ["mine/0000", "mine/0001"]


def test_generate_rejects_bad_options(tmp_path):
    result = CliRunner().invoke(app, ["generate", "--n", "1", "--out", str(tmp_path), "--verify", "maybe"])
    assert result.exit_code != 0 and "--verify must be" in result.output
    result = CliRunner().invoke(app, ["generate", "--n", "1", "--out", str(tmp_path), "--flow", "summarise"])
    assert result.exit_code != 0 and "unknown flow" in result.output


def test_workers_write_the_same_files(tmp_path):
    texts = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        result = CliRunner().invoke(app, ["generate", "--n", "3", "--seed", "8", "--out", str(out), "--verify", "tool",
                                          "--workers", workers])
        assert result.exit_code == 0, result.output
        texts.append({p.name: p.read_text() for p in out.glob("*.json")})
    assert len(texts[0]) == 3 and texts[0] == texts[1]
    # the built-in suites' layout (one gzip list per flow, numbered ids): same files, same suite.index order
    layouts = []
    for workers in ("1", "2"):
        out = tmp_path / f"suite{workers}"
        result = CliRunner().invoke(app, ["generate", "--n", "4", "--seed", "8", "--id-prefix", "x", "--numbered", "--by-flow",
                                          "--gzip", "--out", str(out), "--verify", "tool", "--workers", workers])
        assert result.exit_code == 0, result.output
        layouts.append({p.name: p.read_bytes() for p in out.iterdir() if p.name != "generation_report.md"})
    assert "suite.index" in layouts[0] and layouts[0] == layouts[1]
    assert LazySuite(tmp_path / "suite1", "x").ids == [s.id for s in load_suite(tmp_path / "suite1")]
    result = CliRunner().invoke(app, ["generate", "--n", "1", "--out", str(tmp_path / "x"), "--workers", "0"])
    assert result.exit_code != 0 and "--workers" in result.output
