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
def test_lazy_builtin_suite_equals_eager_parse(name):
    lazy, eager = lazy_suite(name), load_suite(SCENARIOS / name)
    assert len(lazy) == len(eager) and lazy.ids == [s.id for s in eager]
    if name == "extended":  # 2,000 scenarios: every 37th, from both ends
        picks = sorted({*range(0, len(eager), 37), len(eager) - 1})
    else:
        picks = range(len(eager))
    assert [lazy[k].to_dict() for k in picks] == [eager[k].to_dict() for k in picks]
    assert lazy[-1].to_dict() == eager[-1].to_dict()
    assert lazy.find(eager[len(eager) // 2].id).to_dict() == eager[len(eager) // 2].to_dict()


def _counting_decode(monkeypatch):
    calls: list[str] = []
    real = index_mod.decode

    def decode(name, data):
        calls.append(name)
        return real(name, data)

    monkeypatch.setattr(suites, "decode", decode)
    return calls


def test_a_current_index_parses_only_the_file_read(monkeypatch):
    calls = _counting_decode(monkeypatch)
    suite = LazySuite(SCENARIOS / "nominal", "nominal")
    assert calls == [] and len(suite) == len(load_suite(SCENARIOS / "nominal"))
    entry = next(f for f in read_index(SCENARIOS / "nominal").values() if "nominal/0240" in f["ids"])
    assert suite.find("nominal/0240").id == "nominal/0240" and calls == [entry["name"]]
    neighbour = next(i for i in entry["ids"] if i != "nominal/0240")
    assert suite.find(neighbour).id == neighbour and calls == [entry["name"]]  # a file is parsed once
    other = next(f for f in read_index(SCENARIOS / "nominal").values() if f["name"] != entry["name"])
    assert suite.find(other["ids"][0]).id == other["ids"][0] and calls == [entry["name"], other["name"]]


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
    calls = _counting_decode(monkeypatch)
    suite = LazySuite(folder, "demo")
    assert calls == ["sum_receipts.json"]  # the stale entry alone is re-read
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
