"""EntityScorer on a real world: incremental results equal from-scratch ones, no work without writes,
JSON round trips, and the reference ``entity_diff_specs`` converter (incl. the official files)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mmtsb_env.evaluation.reference_specs import is_ignored
from mmtsb_env.world.schema import TABLES


def _key(table: str) -> str:
    return TABLES[table].key if table in TABLES else "id"  # a table we lack (gmail threads): the reference's 'id'

import mmtsb_env.evaluation.entity_diff as ed
from mmtsb_env.evaluation import EntityScore, EntityScorer, from_reference_specs, score_changes
from mmtsb_env.evaluation.reference_specs import NAMESPACE_TABLES
from mmtsb_env.scenario.model import ExpectedChange

NOTES = "simple_note.notes"
OFFICIAL = Path("/work/shared/reference/official_scenarios")


def _expected():
    return [
        ExpectedChange("create", NOTES, row={"title": "Trip", "content": "Pack the tent and stove", "user_id": 1}),
        ExpectedChange("create", NOTES, row={"title": "Groceries", "content": "milk eggs bread", "tags": ["food"]}),
        ExpectedChange("update", "phone.alarms", key=1, fields={"enabled": False}),
    ]


def test_incremental_scores_equal_scratch_scores_over_random_writes(world):
    rng = random.Random(3)
    scorer = EntityScorer(_expected())
    keys: list[int] = []
    words = ["trip", "pack", "tent", "milk", "eggs", "bread", "stove", "groceries"]
    for step in range(80):
        action = rng.random()
        if action < 0.4 or not keys:
            k = world.new_id(NOTES)
            world.insert(NOTES, {"id": k, "user_id": rng.choice([1, 2]), "title": rng.choice(["Trip", "Groceries", "x"]),
                                 "content": " ".join(rng.sample(words, 4)), "tags": rng.sample(["food", "home"], rng.randint(0, 2))})
            keys.append(k)
        elif action < 0.7:
            world.update(NOTES, rng.choice(keys), content=" ".join(rng.sample(words, 3)))
        elif action < 0.8:
            world.update("phone.alarms", 1, enabled=rng.choice([True, False]), label=rng.choice(["a", "b"]))
        elif action < 0.9:
            world.delete(NOTES, keys.pop(rng.randrange(len(keys))))
        else:
            pass  # no write: the cached score must be returned
        got = scorer.score(world)
        want = score_changes(_expected(), world.diff())
        assert got.to_json() == want.to_json(), step


def test_no_work_when_the_world_did_not_change(world, monkeypatch):
    scorer = EntityScorer(_expected())
    world.insert(NOTES, {"id": world.new_id(NOTES), "user_id": 1, "title": "Trip", "content": "Pack the tent and stove"})
    first = scorer.score(world)
    calls = []
    monkeypatch.setattr(ed, "score_changes", lambda *a, **k: calls.append(1))
    assert scorer.score(world) is first and calls == []
    world.update("phone.alarms", 1, enabled=False)
    scorer.score(world)
    assert calls == [1]


def test_unchanged_groups_and_pairs_are_reused(world):
    scorer = EntityScorer(_expected())
    world.insert(NOTES, {"id": world.new_id(NOTES), "user_id": 1, "title": "Trip", "content": "Pack the tent and stove"})
    first = {g.table: g for g in scorer.score(world).groups}
    world.update("phone.alarms", 1, enabled=False)  # another table: the notes group is not re-matched
    score = scorer.score(world)
    now = {g.table: g for g in score.groups}
    assert now[NOTES] is first[NOTES] and now["phone.alarms"] is not first["phone.alarms"]
    # notes:create P = 1/1, R = 1/2; alarms:update P = R = 1 -> P = 1, R = .75
    assert (score.precision, score.recall) == (1.0, 0.75)


def test_entity_score_json_round_trip(world):
    world.insert(NOTES, {"id": world.new_id(NOTES), "user_id": 1, "title": "Trip", "content": "Pack tent"})
    world.update("phone.alarms", 1, label="changed")
    score = score_changes(_expected(), world.diff())
    again = EntityScore.from_json(json.loads(json.dumps(score.to_json())))
    assert again.to_json() == score.to_json()
    # alarms (sorted first): enabled not set and label changed unasked -> 0, unpaired; notes: 2nd create missing
    assert [(g.table, g.unpaired_expected) for g in again.groups] == [("phone.alarms", [0]), (NOTES, [1])]
    assert EntityScore.from_json({}).f1 == 0.0


def test_scoring_the_recorded_json_diff_equals_scoring_the_live_diff(world):
    world.insert(NOTES, {"id": world.new_id(NOTES), "user_id": 1, "title": "Trip", "content": "Pack tent"})
    world.update("phone.alarms", 1, enabled=False, label="x")
    world.delete(NOTES, next(r["id"] for r in world.rows(NOTES) if r["id"] != world.new_id(NOTES) - 1))
    live = score_changes(_expected(), world.diff())
    recorded = {t: d.to_json() for t, d in world.diff().items()}
    assert score_changes(_expected(), json.loads(json.dumps(recorded))).to_json() == live.to_json()


# ---------------------------------------------------------------------------------------------
# Reference specs
# ---------------------------------------------------------------------------------------------


def test_namespaces_map_to_our_tables():
    assert NAMESPACE_TABLES["CALENDAR_EVENTS"] == "calendar.events"
    assert NAMESPACE_TABLES["CALENDARS"] == "calendar.calendars"
    assert NAMESPACE_TABLES["REMINDER"] == "reminder.reminders"


def test_reference_create_update_delete_conversion():
    specs = [
        {"operation": "create", "source": "agentsandbox", "namespace": "CALENDAR_EVENTS",
         "entity_data": {"calendar_event_id": "x", "calendar_id": "c", "title": "Dentist", "start_datetime": "2026-05-02T10:00:00"},
         "column_similarity_measure": {"title": "column_rouge_l_similarity",
                                       "start_datetime": "column_datetime_naive_equal_similarity"}},
        {"operation": "update", "source": "appworld", "table": "gmail.drafts", "entity_id_column": "id", "entity_id_value": 700,
         "expected_fields": {"updated_at": "2026-04-16T10:00:00", "body": "Hello"},
         "column_similarity_measure": {"updated_at": "column_ignore_similarity", "body": "column_rouge_l_similarity",
                                       "id": "column_exact_match_similarity"}},
        {"operation": "delete", "source": "appworld", "table": "todoist.projects", "entity_id_column": "id", "entity_id_value": 4},
    ]
    create, update, delete = from_reference_specs(specs)
    assert (create.table, create.row["title"]) == ("calendar.events", "Dentist")
    assert create.measures == {"title": "column_rouge_l_similarity", "start_datetime": "column_datetime_naive_equal_similarity",
                               "calendar_event_id": "ignore", "calendar_id": "ignore"}
    assert (update.table, update.key, update.fields) == ("gmail.drafts", 700, {"updated_at": "2026-04-16T10:00:00", "body": "Hello"})
    assert "id" not in update.measures and update.measures["updated_at"] == "ignore"
    assert (delete.operation, delete.table, delete.key) == ("delete", "todoist.projects", 4)


def test_reference_table_map_and_column_map():
    spec = {"operation": "create", "source": "agentsandbox", "namespace": "NOTES", "entity_data": {"note_title": "A"}}
    with pytest.raises(ValueError, match=r"entity_diff_specs\[0\]: namespace 'NOTES' has no table here"):
        from_reference_specs([spec])
    (c,) = from_reference_specs([spec], {"NOTES": "simple_note.notes"}, column_map={"simple_note.notes": {"note_title": "title"}})
    assert (c.table, c.row) == ("simple_note.notes", {"title": "A"})


@pytest.mark.parametrize("spec, message", [
    ({"operation": "upsert", "table": "a.b"}, r"\[0\]\.operation: must be create, update or delete"),
    ({"operation": "create", "source": "appworld", "table": "a.b"}, r"\[0\]\.entity_data: a create needs"),
    ({"operation": "delete", "source": "appworld", "table": "todoist.projects"}, r"entity_id_value: an delete needs"),
    ({"operation": "update", "source": "appworld", "table": "todoist.projects", "entity_id_value": 1},
     r"expected_fields: an update needs"),
    ({"operation": "update", "source": "appworld", "table": "todoist.projects", "entity_id_column": "name",
      "entity_id_value": "x", "expected_fields": {"a": 1}}, r"identified by 'id', not 'name'"),
    ({"operation": "create", "source": "appworld", "table": "a.b", "entity_data": {"x": 1},
      "column_similarity_measure": {"x": "column_fuzzy"}}, r"column_similarity_measure\.x: unknown similarity measure"),
    ({"operation": "create", "source": "cloud", "table": "a.b", "entity_data": {"x": 1}}, r"source must be 'appworld'"),
])
def test_reference_spec_errors_name_the_field(spec, message):
    with pytest.raises(ValueError, match=message):
        from_reference_specs([spec])


@pytest.mark.skipif(not OFFICIAL.exists(), reason="the reference's official scenario files are not present")
def test_official_reference_specs_convert_and_score_perfectly_against_themselves():
    files = sorted(OFFICIAL.glob("*/*.json"))
    assert files
    for path in files:
        specs = json.loads(path.read_text())["entity_diff_specs"]
        changes = from_reference_specs(specs)
        assert len(changes) == len(specs)
        # an update that compares no column is met by the row's existence in the reference; the importer drops it
        changes = [c for c in changes if c.operation != "update" or not all(is_ignored(c.measures.get(k)) for k in c.fields)]
        diff: dict = {}
        for i, c in enumerate(changes):
            assert c.operation == "create" or c.key is not None
            if c.operation == "create":
                diff.setdefault(c.table, {"created": [], "updated": [], "deleted": []})["created"].append({"id": 10_000 + i, **c.row})
            elif c.operation == "delete":
                diff.setdefault(c.table, {"created": [], "updated": [], "deleted": []})["deleted"].append({_key(c.table): c.key})
            elif c.operation == "update":
                key = _key(c.table)
                before = {key: c.key, **{k: "old" for k in c.fields}}
                diff.setdefault(c.table, {"created": [], "updated": [], "deleted": []})["updated"].append(
                    {"before": before, "after": {key: c.key, **c.fields}})
        assert score_changes(changes, diff).f1 == 1.0, path.name
