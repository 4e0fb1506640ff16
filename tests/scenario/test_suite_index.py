"""Suite indexes: the built-in ones are current, and lazy loading through them gives exactly the
scenarios an eager parse of the folder gives, parsing only the files it reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mmtsb_env.scenario import index as index_mod
from mmtsb_env.scenario import suites
from mmtsb_env.scenario.index import INDEX_NAME, build_index, read_index, write_index
from mmtsb_env.scenario.model import ScenarioError
from mmtsb_env.scenario.suites import BUILTIN_SUITES, LazySuite, lazy_suite, load_suite

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("name", BUILTIN_SUITES)
def test_builtin_index_is_current(name):
    folder = SCENARIOS / name
    on_disk = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
    assert on_disk == build_index(folder), f"stale index: run write_index('scenarios/{name}')"


@pytest.mark.parametrize("name", BUILTIN_SUITES)
def test_builtin_suites_are_this_checkouts(name):
    """``lazy_suite`` reads the folder the installed package maps ``mmtsb_env.suites`` to; an
    editable install of another checkout (another worktree's venv) reads that checkout's suites,
    and every lazy/eager comparison below would compare two different suites."""
    installed = Path(str(suites._suite_dir(name))).resolve()
    assert installed == (SCENARIOS / name).resolve(), \
        f"mmtsb_env.suites.{name} is {installed}, not this checkout's scenarios/{name}: run the tests with this checkout's venv"


@pytest.mark.parametrize("name", BUILTIN_SUITES)
def test_lazy_builtin_suite_equals_eager_parse(name):
    folder = Path(str(suites._suite_dir(name)))  # the folder lazy_suite reads, whichever checkout installed it
    lazy, eager = lazy_suite(name), load_suite(folder)
    assert len(lazy) == len(eager) and lazy.ids == [s.id for s in eager]
    if name == "extended":  # 2,000 scenarios: every 37th, from both ends
        picks = sorted({*range(0, len(eager), 37), len(eager) - 1})
    else:
        picks = range(len(eager))
    assert [lazy[k].to_dict() for k in picks] == [eager[k].to_dict() for k in picks]
    assert lazy[-1].to_dict() == eager[-1].to_dict()
    assert lazy.find(eager[len(eager) // 2].id).to_dict() == eager[len(eager) // 2].to_dict()


def _counting(monkeypatch):
    """Records the files whose text is read (``text_of``) and the JSON texts parsed, by length."""
    texts: list[str] = []
    parsed: list[int] = []
    real_text, real_loads = index_mod.text_of, json.loads

    def text_of(name, data):
        texts.append(name)
        return real_text(name, data)

    monkeypatch.setattr(suites, "text_of", text_of)
    monkeypatch.setattr(suites, "json", type("J", (), {"loads": staticmethod(lambda t: parsed.append(len(t)) or real_loads(t))}))
    return texts, parsed


def test_a_current_index_parses_only_the_scenario_read(monkeypatch):
    count = len(load_suite(SCENARIOS / "nominal"))
    texts, parsed = _counting(monkeypatch)
    suite = LazySuite(SCENARIOS / "nominal", "nominal")
    assert texts == [] and parsed == [] and len(suite) == count
    entry = next(f for f in read_index(SCENARIOS / "nominal").values() if "nominal/0240" in f["ids"])
    assert suite.find("nominal/0240").id == "nominal/0240" and texts == [entry["name"]]
    start, end = entry["spans"][entry["ids"].index("nominal/0240")]
    assert parsed == [end - start] and end - start < entry["bytes"] / 10  # that scenario's JSON alone
    neighbour = next(i for i in entry["ids"] if i != "nominal/0240")
    assert suite.find(neighbour).id == neighbour and texts == [entry["name"]]  # a file's text is read once
    other = next(f for f in read_index(SCENARIOS / "nominal").values() if f["name"] != entry["name"])
    assert suite.find(other["ids"][0]).id == other["ids"][0] and texts == [entry["name"], other["name"]]
    assert len(parsed) == 3


def test_spans_cut_each_element_out_of_any_json_list():
    from mmtsb_env.scenario.index import item_spans

    text = ' [ {"a": "x]", "b": [1, {"c": ","}]} ,\n\t{"é": "\\\\"}, 3, "s" ,[] ]\n'
    spans = item_spans(text)
    assert [json.loads(text[s:e]) for s, e in spans] == json.loads(text)
    assert item_spans("[]") == [] and item_spans(" [ ]") == []
    for bad in ('{"a": 1}', "[1 2]", "[1,"):
        with pytest.raises(ValueError):
            item_spans(bad)


def _copy(tmp_path, name="demo") -> Path:
    folder = tmp_path / name
    shutil.copytree(SCENARIOS / name, folder)
    return folder


def test_a_changed_file_is_parsed_not_trusted(tmp_path, monkeypatch):
    folder = _copy(tmp_path)
    path = folder / "sum_receipts.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["id"] = "demo/renamed_sum"
    data["description"] = "changed after the index was written"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    texts, _ = _counting(monkeypatch)
    suite = LazySuite(folder, "demo")
    assert texts == ["sum_receipts.json"]  # the stale entry alone is re-read
    assert "demo/sum_receipts" not in suite.ids
    assert suite.find("demo/renamed_sum").description == "changed after the index was written"
    assert [s.to_dict() for s in suite] == [s.to_dict() for s in load_suite(folder)]


def test_no_index_or_a_broken_one_parses_everything(tmp_path):
    folder = _copy(tmp_path)
    eager = [s.to_dict() for s in load_suite(folder)]
    (folder / INDEX_NAME).unlink()
    assert read_index(folder) == {}
    assert [s.to_dict() for s in LazySuite(folder, "demo")] == eager
    (folder / INDEX_NAME).write_text("{not json", encoding="utf-8")
    assert read_index(folder) == {}
    assert [s.to_dict() for s in LazySuite(folder, "demo")] == eager
    write_index(folder)
    assert read_index(folder) and [s.to_dict() for s in LazySuite(folder, "demo")] == eager


def test_duplicate_ids_are_refused_through_the_index(tmp_path):
    folder = _copy(tmp_path)
    shutil.copy(folder / "sum_receipts.json", folder / "sum_receipts_copy.json")
    write_index(folder)
    with pytest.raises(ScenarioError, match="duplicate scenario ids.*demo/sum_receipts"):
        LazySuite(folder, "demo")


def test_gzip_suites_written_by_the_generator_load_lazily(tmp_path):
    from mmtsb_env.generation.suite import write_scenarios

    picked = load_suite("nominal")[:12]
    out = tmp_path / "gen"
    write_scenarios(picked, out, compress=True)
    assert (out / INDEX_NAME).is_file() and read_index(out)
    lazy = LazySuite(out, "gen")
    assert sorted(lazy.ids) == sorted(s.id for s in picked)
    assert [s.to_dict() for s in lazy] == [s.to_dict() for s in load_suite(out)]


def test_wrong_spans_or_entries_in_a_matching_index_fall_back_to_the_file(tmp_path):
    folder = _copy(tmp_path, "ui")
    eager = [s.to_dict() for s in load_suite(folder)]
    index = json.loads((folder / INDEX_NAME).read_text(encoding="utf-8"))
    listed = next(f for f in index["files"] if f["list"])
    listed["spans"] = [[s + 3, e] for s, e in listed["spans"]]  # every span cut wrong
    broken = next(f for f in index["files"] if f is not listed)
    del broken["ids"]  # an entry without ids is not trusted
    (folder / INDEX_NAME).write_text(json.dumps(index), encoding="utf-8")
    assert broken["name"] not in read_index(folder)
    assert [s.to_dict() for s in LazySuite(folder, "ui")] == eager
