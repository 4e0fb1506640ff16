"""Records without images (results.json), image restoration, `mmtsb export`, export_run."""

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from mmtsb_env.cli import app
from mmtsb_env.export import episode_rows, export_run, read_parquet, read_table, restore_scenario_images


def _without_images(record):
    return dataclasses.replace(record, images=[])


def test_missing_images_error_restore_drop(demo_records):
    rec = _without_images(demo_records[0])
    with pytest.raises(ValueError, match=r"demo/compare_receipts \(assistant\): the messages show image 0 but the record holds no PNG"):
        episode_rows(rec)
    restored = episode_rows(rec, missing_images="restore")[0]
    assert [i["bytes"] for i in restored["images"]] == [demo_records[0].images[i] for i in restored["image_ids"]]
    dropped = episode_rows(rec, missing_images="drop")[0]
    assert dropped["images"] == [] and dropped["image_ids"] == []
    texts = [p["text"] for m in dropped["messages"] for p in m["content"]]
    assert "[image 0 not stored]" in texts and "[image 1 not stored]" in texts


def test_restoring_scenario_images_reproduces_the_captured_pngs(demo_records):
    for rec in demo_records:
        restored = restore_scenario_images(rec.scenario_id)
        assert restored and all(restored[i] == rec.images[i] for i in restored), rec.scenario_id
    assert restore_scenario_images("nowhere/nothing") == {}


def test_cli_export_from_results_json(demo_records, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text(json.dumps({"summary": {}, "episodes": [r.to_json() for r in demo_records]}))
    out = tmp_path / "t.parquet"
    result = CliRunner().invoke(app, ["export", str(run), "--out", str(out), "--steps", str(tmp_path / "s.parquet"),
                                      "--row-group-size", "5"])
    assert result.exit_code == 0, result.output
    assert "wrote 12 episodes (24 rows)" in result.output
    back = read_parquet(out)
    for original, restored in zip(demo_records, back):
        assert restored.images == original.images  # scenario images re-rendered byte for byte
        assert dataclasses.asdict(restored) == dataclasses.asdict(original)
    assert read_table(tmp_path / "s.parquet").num_rows == sum(len(r.rewards) for r in demo_records)


def test_cli_export_options_and_errors(demo_records, tmp_path):
    paths = export_run(demo_records[:3], tmp_path / "run")
    assert set(paths) == {"trajectories", "steps"} and all(p.exists() for p in paths.values())
    out = tmp_path / "a.parquet"
    result = CliRunner().invoke(app, ["export", str(tmp_path / "run"), "--out", str(out), "--seats", "assistant"])
    assert result.exit_code == 0, result.output
    assert read_table(out, columns=["seat"]).column(0).to_pylist() == ["assistant"] * 3
    missing = CliRunner().invoke(app, ["export", str(tmp_path / "nothing"), "--out", str(out)])
    assert missing.exit_code == 2 and "no trajectories.parquet or results.json" in missing.output
    bad_seat = CliRunner().invoke(app, ["export", str(tmp_path / "run"), "--out", str(tmp_path / "b.parquet"), "--seats", "judge"])
    assert bad_seat.exit_code == 2 and "unknown seat(s) ['judge']" in bad_seat.output
    assert not (tmp_path / "b.parquet").exists()
