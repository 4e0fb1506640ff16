"""Importing the reference's scenario files (the 4 official ones) into format v1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmtsb_env.evaluation.entity_diff import score_changes
from mmtsb_env.generation.dryrun import play
from mmtsb_env.scenario.importer import _clarifications, import_reference, import_reference_dir, parse_round_script
from mmtsb_env.scenario.model import Round, Scenario

OFFICIAL = next((p for p in (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "official_scenarios",
                              Path("/work/shared/reference/official_scenarios")) if p.exists()),
                Path("/work/shared/reference/official_scenarios"))
FILES = sorted(OFFICIAL.glob("*/*.json"))
N_NOMINAL, N_UI = 3, 50  # the reference's files we have: a truncated copy cannot pass unnoticed
pytestmark = pytest.mark.skipif(not FILES, reason="the reference's official scenarios are not available here")


@pytest.fixture(scope="module")
def s0006():
    return import_reference(OFFICIAL / "nominal" / "scenario_0006.json")


def test_all_official_files_import_and_round_trip():
    assert (len(list(OFFICIAL.glob("nominal/*.json"))), len(list(OFFICIAL.glob("ui/*.json")))) == (N_NOMINAL, N_UI)
    for f in FILES:
        s, report = import_reference(f)
        assert Scenario.from_dict(s.to_dict()).to_dict() == s.to_dict()
        assert s.expected_changes and all(im.path for im in s.images)
        assert any("no image folder given" in i.detail for i in report.issues)  # no images here: stays paths, said so
        assert any(i.field == "rounds[*].solution" for i in report.issues)


def test_rounds_images_and_clarifications_of_0006(s0006):
    s, report = s0006
    assert s.id == "reference/nominal/scenario_0006" and len(s.rounds) == 5
    assert [list(r.image_ids) for r in s.rounds] == [[0, 1], [2], [3], [4], [5]]
    assert s.rounds[1].query.startswith("Here is another document.")
    assert "point it back to the image" in s.rounds[1].instructions
    alice = s.rounds[3].clarifications
    assert [c.answer for c in alice] == ["I mean Alice Carter, the archivist."] and "alice" in alice[0].keywords
    assert [c.answer for c in s.rounds[4].clarifications] == ["Please search the contacts for 'Archive Director'."]
    md = s.metadata
    assert (md["flow_type"], md["challenge_type"], md["image_arrival"], md["num_rounds"]) == ("cross_reference", "none", "progressive", 5)
    assert md["image_categories"] == ["document", "scene_text"]


def test_owner_entities_and_expectations_of_0006(s0006):
    s, report = s0006
    assert s.user_id == 50
    ents = s.initial_entities
    assert {r["id"] for r in ents["todoist.tasks"]} == set(range(6500, 6506))
    assert ents["calendar.calendars"] == [{"calendar_id": "calendar_events_calendar_100", "title": "Work"}]
    assert {"id": 50, "email": "brenda.webe@gmail.com"} in ents["gmail.users"]
    assert {"app": "gmail", "user_id": 50, "logged_in": True} in ents["device.app_sessions"]
    ops = sorted((c.operation, c.table) for c in s.expected_changes)
    assert ("delete", "todoist.projects") in ops and ("create", "calendar.events") in ops and len(ops) == 9
    assert {"calendar", "contacts", "gmail", "messages", "todoist"} <= set(s.domains)


def test_the_owner_really_acts_as_user_50(s0006):
    """Play two reference steps by hand: the email and the project deletion score as the specs expect."""
    s, _ = s0006
    solution = ({"name": "gmail_send_email", "arguments": {
                    "email_addresses": ["legal@archive.org"], "subject": "Case 2:13-cv-00170-EAS-EPD / EPA Scientists",
                    "body": "Hello, \n\nPlease note that the transcript mentions case 2:13-cv-00170-EAS-EPD and the following EPA "
                            "scientists: John Wheeler and Christa Rosa.\n\nBest,\nBrenda"}},
                {"name": "todoist_delete_project", "arguments": {"project_id": 400}})
    run = play([Round("x", solution=solution)], s.initial_entities, reference_time=s.reference_time, user_id=s.user_id)
    mine = [c for c in s.expected_changes if (c.table, c.operation) in (("gmail.emails", "create"), ("todoist.projects", "delete"))]
    score = score_changes(mine, run.world.diff())
    scored = {(g.table, g.operation): g.recall for g in score.groups}
    assert scored[("gmail.emails", "create")] == 1.0 and scored[("todoist.projects", "delete")] == 1.0


def test_goal_change_and_state_mutation_are_reported(s0006):
    s17, _ = import_reference(OFFICIAL / "nominal" / "scenario_0017.json")
    assert [r.kind for r in s17.rounds] == ["task", "goal_change"] and s17.user_id == 2
    s19, rep19 = import_reference(OFFICIAL / "nominal" / "scenario_0019.json")
    assert s19.user_id == 13 and [c.answer for c in s19.rounds[0].clarifications] == [
        "I want to update the one addressed to my coworker Glen."]
    assert any("state_mutation" in i.detail and i.severity == "missing" for i in rep19.issues)
    ui, rep_ui = import_reference(OFFICIAL / "ui" / "scenario_0017.json")
    assert ui.ui and ui.id == "reference/ui/scenario_0017"
    assert ui.rounds[0].ui is None and ui.rounds[1].ui.pick == {"cheapest": True}
    assert "structured interactive UI" in ui.rounds[1].ui.criterion
    assert any(i.field == "task_completion_criteria" for i in rep_ui.issues)


def test_unknown_columns_tables_and_specs_are_reported_not_dropped_silently(tmp_path):
    data = json.loads((OFFICIAL / "nominal" / "scenario_0019.json").read_text())
    data["appworld_entities"]["gmail.drafts"][0]["mood"] = "happy"
    data["appworld_entities"]["chess.games"] = [{"id": 1}]
    data["agentsandbox_entities"] = {"contact": [{"person_id": "p1", "name": "X"}], "setting": [{"device_id": 1, "wifi": False}]}
    data["entity_diff_specs"].append({"operation": "update", "source": "appworld", "table": "gmail.drafts"})
    path = tmp_path / "scenario_9999.json"
    path.write_text(json.dumps(data))
    s, report = import_reference(path, image_root=tmp_path)
    text = report.to_text()
    assert "column(s) ['mood'] do not exist in gmail.drafts" in text
    assert "no table 'chess.games' here" in text
    assert "native 'contact' namespace has no equivalent table" in text
    assert "entity_diff_specs[2]" in text
    assert any("chartmuseum/images/foodwaste_zs.png not found" in i.detail for i in report.issues)
    assert {"id": 1, "wifi": False} in s.initial_entities["setting.device"]  # device_id renamed to our key
    assert len(s.expected_changes) == 2


def test_round_script_parser_and_clarification_patterns():
    rounds, mapping, schedule = parse_round_script(
        "{{USER_INSTRUCTION}}ROUND 1\nQuery: Hi there.\nInstructions: Say hi.\n\nROUND 2 [provide: image_2, image_1]\n"
        "Query: Look.\nInstructions: When it asks, tell it you want the blue one.\n\nYou have 2 images\n"
        "  image_1.jpg -> image ID 0\n  image_2.jpg -> image ID 1\n## IMAGE DELIVERY\n  Round 2: call with image_ids='1,0' now")
    assert [r["query"] for r in rounds] == ["Hi there.", "Look."]
    assert rounds[1]["provide"] == ["image_2", "image_1"] and mapping == {"image_1": 0, "image_2": 1} and schedule == {2: [1, 0]}
    assert _clarifications(rounds[1]["instructions"]) == [{"answer": "I want the blue one.", "keywords": []}]
    assert _clarifications("Point it back to the image if it errs.") == []


def test_cli_writes_scenarios_and_reports(tmp_path):
    from typer.testing import CliRunner

    from mmtsb_env.cli import app

    result = CliRunner().invoke(app, ["import-reference", str(OFFICIAL), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert "reference_nominal_scenario_0006.json" in files and "import_report.md" in files and "import_report.jsonl" in files
    lines = (tmp_path / "out" / "import_report.jsonl").read_text().splitlines()
    assert len(lines) == len(FILES) and json.loads(lines[0])["scenario_id"].startswith("reference/")
    from mmtsb_env.scenario.suites import load_suite

    assert len(load_suite(tmp_path / "out")) == len(FILES)
    reports = import_reference_dir(OFFICIAL / "nominal" / "scenario_0017.json", tmp_path / "one")
    assert len(reports) == 1 and not reports[0].dropped
