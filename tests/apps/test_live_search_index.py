"""The index of rows written during an episode gives exactly what scanning them gives.

``rank_table`` keeps, per world, an index of the rows the scenario or the episode wrote (the
overlay), grown as rows appear and pruned when stale entries pile up. These properties
interleave random writes (inserts, rewrites, deletes of base and written rows, rolled-back
transactions) with searches on the SAME world, so the index lives across many writes, and
compare every search with the linear scan: the same rows in the same order.
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmtsb_env.apps import _common
from mmtsb_env.apps.amazon import tables as amazon
from mmtsb_env.apps.contacts import tools as contacts_tools
from mmtsb_env.apps.phone import tables as phone
from mmtsb_env.apps.simple_note import tables as simple_note
from mmtsb_env.apps.simple_note import tools as simple_note_tools
from mmtsb_env.apps.spotify import tables as spotify
from mmtsb_env.apps._common import rank_table
from mmtsb_env.tools.calling import invoke
from mmtsb_env.world.base import base_world
from mmtsb_env.world.store import World
from search_oracle import linear_rank_table, vocab_of

BASE = base_world(0)
NOTES = simple_note.NOTES


TABLES = {  # table -> (text function, its index name, words to write and query)
    spotify.SONGS: (lambda r: [r.get("title")], "test.song_title", vocab_of(BASE, spotify.SONGS, ("title",), 300)),
    amazon.PRODUCTS: (lambda r: [r.get("name"), r.get("description")], "test.product_text",
                      vocab_of(BASE, amazon.PRODUCTS, ("name", "description"), 300)),
    NOTES: (simple_note_tools._note_texts, "test.note_text", vocab_of(BASE, NOTES, ("title", "content"), 300)),
}
TEXT_COLUMN = {spotify.SONGS: "title", amazon.PRODUCTS: "name", NOTES: "title"}


def _text(data, vocab) -> str:
    return " ".join(data.draw(st.lists(st.sampled_from(vocab + ["zq", "zqx", "Ünï", "漢字"]), min_size=1, max_size=4)))


def _query(data, vocab) -> str:
    word = st.sampled_from(vocab + ["zq", "ünï", "漢"])
    variant = st.one_of(word, word.map(lambda w: w[: max(1, len(w) // 2)]), word.map(str.upper))
    return data.draw(st.lists(variant, min_size=1, max_size=3).map(" ".join))


def _write(world: World, table: str, data, written: list) -> None:
    _, _, vocab = TABLES[table]
    column = TEXT_COLUMN[table]
    op = data.draw(st.sampled_from(["insert", "insert", "rewrite", "delete", "rollback", "burst"]))
    current = list(world.rows(table))
    if op in ("insert", "burst"):
        for _ in range(1 if op == "insert" else data.draw(st.integers(5, 40))):
            row = dict(data.draw(st.sampled_from(current)))
            row["id"] = world.new_id(table)
            row[column] = _text(data, vocab)
            world.insert(table, row)
            written.append(row["id"])
    elif op == "rewrite":
        key = data.draw(st.sampled_from(written)) if written and data.draw(st.booleans()) else data.draw(st.sampled_from(current))["id"]
        if world.exists(table, key):
            for _ in range(data.draw(st.integers(1, 30))):  # many versions of one row: stale entries
                world.update(table, key, **{column: _text(data, vocab)})
    elif op == "delete":
        key = data.draw(st.sampled_from(written)) if written and data.draw(st.booleans()) else data.draw(st.sampled_from(current))["id"]
        if world.exists(table, key):
            world.delete(table, key)
    else:  # writes undone by a failed transaction
        with pytest.raises(RuntimeError), world.transaction():
            row = dict(current[0])
            row["id"] = world.new_id(table)
            row[column] = _text(data, vocab)
            world.insert(table, row)
            world.update(table, current[-1]["id"], **{column: _text(data, vocab)})
            raise RuntimeError("undo")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), table=st.sampled_from(sorted(TABLES)))
def test_searches_between_writes_equal_the_scan(data, table):
    texts_of, name, vocab = TABLES[table]
    world = World(BASE.layer, user_id=BASE.supervisor_id)
    written: list = []
    for _ in range(data.draw(st.integers(1, 8))):
        for _ in range(data.draw(st.integers(0, 4))):
            _write(world, table, data, written)
        for _ in range(2):
            query = _query(data, vocab)
            keep = None
            if data.draw(st.booleans()):
                keep = lambda r: r["id"] % 3 != 0  # noqa: E731 - a filter like the apps' own
            got = rank_table(world, table, query, texts_of, name=name, keep=keep)
            want = linear_rank_table(world, table, query, texts_of, name="", keep=keep)
            assert [r["id"] for r in got] == [r["id"] for r in want], (query, table)
            assert all(a is b for a, b in zip(got, want))  # the current row objects themselves
    index = world.indexes[(name, table)]
    overlay = list(world.overlay_rows(table))
    assert len(index.rows) <= 2 * len(overlay) + 64 + 40  # stale entries are pruned (a burst may follow)


def test_a_written_row_is_found_through_the_index_and_a_deleted_one_is_not():
    world = World(BASE.layer, user_id=BASE.supervisor_id)
    texts_of, name, _ = TABLES[NOTES]
    row = dict(next(iter(world.rows(NOTES))), id=world.new_id(NOTES), title="Quokka census", content="count them")
    world.insert(NOTES, row)
    assert [r["id"] for r in rank_table(world, NOTES, "quok", texts_of, name=name)] == [row["id"]]
    index = world.indexes[(name, NOTES)]
    assert "quokka" in index.vocab and len(index.rows) == 1
    world.update(NOTES, row["id"], title="Wombat census")
    assert rank_table(world, NOTES, "quokka", texts_of, name=name) == []
    assert [r["title"] for r in rank_table(world, NOTES, "wombat", texts_of, name=name)] == ["Wombat census"]
    world.delete(NOTES, row["id"])
    assert rank_table(world, NOTES, "wombat census", texts_of, name=name) == []
    for i in range(200):  # one row rewritten many times: the index drops the stale versions
        world.update(NOTES, 1, title=f"draft {i}")
        rank_table(world, NOTES, "draft", texts_of, name=name)
    assert len(index.rows) <= 2 * len(list(world.overlay_rows(NOTES))) + 64


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_note_search_tool_between_writes_equals_the_scan(data):
    """The real ``simple_note_search_notes`` tool (filters, pinned-first order, pages)."""
    world = World(BASE.layer, user_id=BASE.supervisor_id)
    _, _, vocab = TABLES[NOTES]
    written: list = []
    for _ in range(data.draw(st.integers(1, 5))):
        _write(world, NOTES, data, written)
        args = {"query": _query(data, vocab), "page_limit": 20, "page_index": data.draw(st.integers(0, 1))}
        if data.draw(st.booleans()):
            args["pinned"] = data.draw(st.booleans())
        if data.draw(st.booleans()):
            args["sort_by"] = data.draw(st.sampled_from(["title", "-created_at"]))
        indexed = invoke(world, "simple_note_search_notes", args)
        with mock.patch.object(simple_note_tools, "rank_table", linear_rank_table):
            scanned = invoke(world, "simple_note_search_notes", args)
        assert indexed.ok, indexed.text
        assert indexed.text == scanned.text


def test_worlds_keep_their_own_overlay_index():
    a = World(BASE.layer, user_id=BASE.supervisor_id)
    b = World(BASE.layer, user_id=BASE.supervisor_id)
    texts_of, name, _ = TABLES[NOTES]
    a.insert(NOTES, dict(next(iter(a.rows(NOTES))), id=a.new_id(NOTES), title="only in a"))
    assert rank_table(a, NOTES, "only", texts_of, name=name)
    assert not any(r["title"] == "only in a" for r in rank_table(b, NOTES, "only", texts_of, name=name))
    assert _common._OverlayIndex  # the index class the worlds hold
    assert isinstance(a.indexes[(name, NOTES)], _common._OverlayIndex) and (name, NOTES) in b.indexes


def linear_score_table(world, table, query, texts_of, *, name, keep=None, depends=(), order_key=None):
    """The contacts search's scoring before the index: every row scored with ``text_score``."""
    rows = [r for r in world.rows(table) if keep is None or keep(r)]
    if order_key is not None:
        rows.sort(key=order_key)
    scored = [(_common.text_score(query, *texts_of(r)), r) for r in rows]
    scored = [pair for pair in scored if pair[0] > 0]
    scored.sort(key=lambda item: -item[0])
    return scored


CONTACT_WORDS = vocab_of(BASE, phone.CONTACTS, ("first_name", "last_name", "email", "home_address"), 300)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_contact_search_tool_between_writes_equals_the_scan(data):
    """The real ``contacts_search_contacts`` (name order, whole-name bonus, relationships, pages)."""
    world = World(BASE.layer, user_id=BASE.supervisor_id)
    own = [r for r in world.rows(phone.CONTACTS) if r["user_id"] == world.user_id]
    for _ in range(data.draw(st.integers(1, 5))):
        op = data.draw(st.sampled_from(["insert", "rename", "delete", "none"]))
        current = [r for r in world.rows(phone.CONTACTS) if r["user_id"] == world.user_id]
        if op == "insert":
            for _ in range(data.draw(st.integers(1, 20))):
                row = dict(data.draw(st.sampled_from(own)), id=world.new_id(phone.CONTACTS),
                           first_name=data.draw(st.sampled_from(CONTACT_WORDS)).title(),
                           email=f"x{world.new_id('tmp')}@example.com")
                world.insert(phone.CONTACTS, row)
        elif op == "rename" and current:
            world.update(phone.CONTACTS, data.draw(st.sampled_from(current))["id"],
                         last_name=data.draw(st.sampled_from(CONTACT_WORDS)).title())
        elif op == "delete" and current:
            world.delete(phone.CONTACTS, data.draw(st.sampled_from(current))["id"])
        args = {"query": data.draw(st.one_of(st.just(""), st.builds(" ".join, st.lists(
            st.sampled_from(CONTACT_WORDS).map(lambda w: w[: max(1, len(w) - data.draw(st.integers(0, 2)))]),
            min_size=1, max_size=3)))), "page_limit": 20, "page_index": data.draw(st.integers(0, 1))}
        if data.draw(st.booleans()):
            args["relationship"] = data.draw(st.sampled_from(["friend", "sibling", "coworker"]))
        indexed = invoke(world, "contacts_search_contacts", args)
        with mock.patch.object(contacts_tools, "score_table", linear_score_table):
            scanned = invoke(world, "contacts_search_contacts", args)
        assert indexed.ok, indexed.text
        assert indexed.text == scanned.text, args
