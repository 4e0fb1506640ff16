"""Invalid scenario files fail with the path, the field and the reason."""

import json

import pytest

from mmtsb_env.scenario.model import Scenario, ScenarioError
from mmtsb_env.scenario.suites import load_scenario, load_suite

GOOD = {"id": "t/1", "images": [{"render": {"kind": "receipt"}}], "rounds": [{"query": "hi", "image_ids": [0]}]}


@pytest.mark.parametrize("patch, message", [
    ({"id": ""}, "id: must be a non-empty string"),
    ({"rounds": []}, "rounds: must be a non-empty list"),
    ({"rounds": [{"query": "hi", "image_ids": [3]}]}, "rounds[0].image_ids: id(s) [3] out of range"),
    ({"rounds": [{"query": "hi", "kind": "party"}]}, "rounds[0].kind: must be one of"),
    ({"expected_changes": [{"operation": "move", "table": "x"}]}, "expected_changes[0].operation"),
    ({"expected_changes": [{"operation": "update", "table": "x", "key": 1}]}, "expected_changes[0].fields"),
    ({"images": [{"render": {"kind": "receipt"}, "path": "a.png"}]}, "images[0]: give exactly one of"),
    ({"reference_time": "yesterday"}, "reference_time: cannot read"),
    ({"colour": "red"}, "unknown field(s) ['colour']"),
    ({"format_version": 9}, "unsupported version 9"),
])
def test_errors_name_field_and_reason(patch, message):
    with pytest.raises(ScenarioError) as err:
        Scenario.from_dict({**GOOD, **patch}, source="file.json")
    assert message in str(err.value) and str(err.value).startswith("file.json")


def test_file_errors(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ScenarioError, match="bad.json: not valid JSON"):
        load_scenario(bad)
    with pytest.raises(ScenarioError, match="no such file"):
        load_scenario(tmp_path / "missing.json")
    with pytest.raises(ScenarioError, match="unknown suite 'nope'"):
        load_suite("nope")


def test_round_trip(tmp_path):
    scenario = load_suite("demo")[0]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario.to_dict()))
    assert load_scenario(path) == scenario


def test_dict_round_trip_without_json():
    for scenario in load_suite("demo") + load_suite("ui"):
        assert Scenario.from_dict(scenario.to_dict()) == scenario


def test_folder_with_list_files(tmp_path):
    demo = load_suite("demo")
    (tmp_path / "a.json").write_text(json.dumps([s.to_dict() for s in demo[:3]]))
    (tmp_path / "b.json").write_text(json.dumps(demo[3].to_dict()))
    assert [s.id for s in load_suite(tmp_path)] == [s.id for s in demo[:4]]
    with pytest.raises(ScenarioError, match="holds 3 scenarios"):
        load_scenario(tmp_path / "a.json")


def test_asset_cache_is_bounded_by_bytes(monkeypatch):
    import mmtsb_env
    from mmtsb_env.episode import engine

    from collections import OrderedDict

    monkeypatch.setattr(engine, "ASSET_CACHE_BYTES", 3 * 2**20)
    monkeypatch.setattr(engine, "_asset_cache", OrderedDict())  # start empty: earlier tests filled it
    monkeypatch.setattr(engine, "_asset_bytes", 0)
    for scenario in load_suite("demo"):
        env = mmtsb_env.make_env(scenarios=[scenario])
        env.reset(seed=0)
    assert len(engine._asset_cache) > 1 and engine._asset_bytes <= 3 * 2**20
    assert engine._asset_bytes == sum(size for _, size in engine._asset_cache.values())
