"""World: layered copy-on-write rows, diffs, transactions, ids, external changes."""

import pytest

from mmtsb_env.world import Layer, RowNotFound, SchemaError, World, build_layer, define_table

define_table("test.items", columns={"id": None, "name": "", "tags": []}, auto_columns=("created_at",))


def make(rows=None):
    base = Layer({"test.items": {i: {"id": i, "name": f"n{i}", "tags": []} for i in range(1, 6)}})
    initial = build_layer({"test.items": rows or []}, below=base)
    return base, World(base, initial)


def test_writes_never_touch_shared_layers():
    base, w = make()
    w.update("test.items", 1, name="changed")
    w.insert("test.items", {"id": 99, "name": "new"})
    w.delete("test.items", 2)
    assert base.tables["test.items"][1]["name"] == "n1" and 2 in base.tables["test.items"]
    fresh = World(base)
    assert fresh.get("test.items", 1)["name"] == "n1" and fresh.get("test.items", 99) is None


def test_new_world_copies_nothing_from_base():
    base = Layer({"big": {i: {"id": i} for i in range(100_000)}})
    w = World(base)
    assert w._live == {} and w._base is base.tables  # creation is O(1) in the world's size


def test_diff_reports_created_updated_deleted_and_ignores_reverted():
    _, w = make()
    w.insert("test.items", {"id": 10, "name": "x"})
    w.update("test.items", 3, name="y")
    w.delete("test.items", 4)
    w.update("test.items", 5, name="tmp")
    w.update("test.items", 5, name="n5")  # back to the initial value
    d = w.diff()["test.items"]
    assert [r["id"] for r in d.created] == [10]
    assert [(b["name"], a["name"]) for b, a in d.updated] == [("n3", "y")]
    assert [r["id"] for r in d.deleted] == [4]


def test_insert_then_delete_is_no_change():
    _, w = make()
    w.insert("test.items", {"id": 11})
    w.delete("test.items", 11)
    assert w.diff() == {}


def test_a_created_row_a_cascade_removes_is_carried_off_not_a_change():
    import copy
    import pickle

    _, w = make()
    w.insert("test.items", {"id": 98, "name": "mine"})
    w.insert("test.items", {"id": 99, "name": "also mine"})
    w.delete("test.items", 98, cascade=True)  # went with its parent
    w.delete("test.items", 99)  # deleted on its own
    w.delete("test.items", 3, cascade=True)  # a staged row: a deletion, as always
    d = w.diff()["test.items"]
    assert [r["id"] for r in d.carried_off] == [98] and [r["id"] for r in d.deleted] == [3] and not d.created
    assert d.to_json()["carried_off"] == [{"id": 98, "name": "mine", "tags": []}]
    twin = copy.deepcopy(w)  # a copied world keeps its deletions (the marker survives copying) and carried-off rows
    assert twin.diff() == w.diff() and twin.get("test.items", 3) is None
    assert pickle.loads(pickle.dumps(w.diff())) == w.diff()  # a pickled diff (a worker's record) too
    with pytest.raises(RuntimeError):
        with w.transaction():
            w.insert("test.items", {"id": 97, "name": "x"})
            w.delete("test.items", 97, cascade=True)
            raise RuntimeError("the tool failed")
    assert [r["id"] for r in w.diff()["test.items"].carried_off] == [98]  # the failed call left nothing behind
    _, fresh = make()
    fresh.insert("test.items", {"id": 98, "name": "mine"})
    fresh.delete("test.items", 98, cascade=True)
    assert not fresh.diff()["test.items"] and fresh.changed_tables() == set()  # nothing changed in the final world


def test_transaction_rolls_back_every_write():
    _, w = make()
    version = w.version
    with pytest.raises(ValueError):
        with w.transaction():
            w.update("test.items", 1, name="a")
            w.insert("test.items", {"id": 50})
            w.new_id("test.items")
            raise ValueError("boom")
    assert w.diff() == {} and w.version == version and w.new_id("test.items") == 6


def test_schema_errors_and_missing_rows():
    _, w = make()
    with pytest.raises(SchemaError, match="unknown column"):
        w.insert("test.items", {"id": 20, "colour": "red"})
    with pytest.raises(SchemaError, match="already exists"):
        w.insert("test.items", {"id": 1})
    with pytest.raises(RowNotFound):
        w.update("test.items", 404, name="x")
    with pytest.raises(RowNotFound):
        w.delete("test.items", 404)


def test_get_returns_detached_copies():
    _, w = make()
    row = w.get("test.items", 1)
    row["tags"].append("mutated")
    assert w.get("test.items", 1)["tags"] == []


def test_initial_layer_overrides_and_deletes_base_rows():
    _, w = make([{"id": 1, "name": "scenario"}, {"id": 2, "__deleted__": True}, {"id": 7, "name": "added"}])
    assert w.get("test.items", 1)["name"] == "scenario" and w.get("test.items", 2) is None
    assert sorted(r["id"] for r in w.rows("test.items")) == [1, 3, 4, 5, 7]
    assert w.diff() == {}


def test_external_changes_are_baseline_not_agent_changes():
    _, w = make()
    w.apply_external("update", "test.items", key=1, fields={"name": "by user"})
    w.apply_external("insert", "test.items", row={"id": 30, "name": "user row"})
    assert w.get("test.items", 1)["name"] == "by user" and w.diff() == {}
    w.update("test.items", 1, name="by agent")
    assert w.diff()["test.items"].updated[0][0]["name"] == "by user"


def test_ids_are_deterministic():
    _, a = make()
    _, b = make()
    assert [a.new_id("test.items") for _ in range(3)] == [b.new_id("test.items") for _ in range(3)] == [6, 7, 8]
    assert a.new_token("event") == "event_1"
