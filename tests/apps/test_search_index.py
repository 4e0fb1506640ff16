"""The indexed catalog searches return exactly what the linear scan returns.

``spotify_search_songs`` and ``amazon_search_products`` look base rows up in a shared inverted
index and score only the rows a scenario or episode changed. Each property runs the real tool
twice on the same world -- once as shipped, once with ``rank_table`` replaced by the linear scan
it replaces -- over random queries (catalog words, prefixes, case changes, unicode, empty) and
random edits (inserted, updated, deleted rows, renamed albums/artists, a scenario layer).
"""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmtsb_env.apps import _common
from mmtsb_env.apps.amazon import tables as amazon
from mmtsb_env.apps.spotify import tables as spotify
from mmtsb_env.apps.amazon.tools import catalog as amazon_catalog
from mmtsb_env.apps.spotify.tools import catalog as spotify_catalog
from mmtsb_env.apps._common import rank_table
from mmtsb_env.tools.calling import invoke
from mmtsb_env.world.base import base_world
from mmtsb_env.world.store import Layer, World
from search_oracle import linear_rank_table, vocab_of

BASE = base_world(0)


SONG_WORDS = vocab_of(BASE, spotify.SONGS, ("title",)) + vocab_of(BASE, spotify.ALBUMS, ("title",)) + vocab_of(BASE, spotify.ARTISTS, ("name",))
PRODUCT_WORDS = vocab_of(BASE, amazon.PRODUCTS, ("name", "description", "product_type", "color"))


def query_words(vocab):
    word = st.sampled_from(vocab)
    variant = st.one_of(
        word,
        word.map(lambda w: w[: max(1, len(w) // 2)]),  # a prefix
        word.map(str.upper),
        word.map(str.title),
        st.text(alphabet="aeiouäöüßéçñ漢字ΩЖ-_' 0123456789", min_size=1, max_size=6),
    )
    return st.lists(variant, max_size=4).map(" ".join) | st.sampled_from(["", "   ", "!!", "a", "e"])


def _edit_songs(world: World, data, n: int) -> None:
    keys = list(BASE.layer.tables[spotify.SONGS])
    for _ in range(n):
        op = data.draw(st.sampled_from(["insert", "retitle", "delete", "album", "artist_rename", "album_rename"]))
        live = [s for s in world.rows(spotify.SONGS)]
        if op == "insert":
            row = dict(data.draw(st.sampled_from(live)))
            row["id"] = world.new_id(spotify.SONGS)
            row["title"] = " ".join(data.draw(st.lists(st.sampled_from(SONG_WORDS), min_size=1, max_size=3)))
            world.insert(spotify.SONGS, row)
        elif op == "retitle":
            song = data.draw(st.sampled_from(live))
            world.update(spotify.SONGS, song["id"], title=data.draw(query_words(SONG_WORDS)) or "x")
        elif op == "delete":
            key = data.draw(st.sampled_from(keys))
            if world.exists(spotify.SONGS, key):
                world.delete(spotify.SONGS, key)
        elif op == "album":
            song = data.draw(st.sampled_from(live))
            album = data.draw(st.sampled_from(list(world.rows(spotify.ALBUMS))))
            world.update(spotify.SONGS, song["id"], album_id=album["id"])
        elif op == "artist_rename":
            artist = data.draw(st.sampled_from(list(world.rows(spotify.ARTISTS))))
            world.update(spotify.ARTISTS, artist["id"], name=data.draw(query_words(SONG_WORDS)) or "y")
        else:
            album = data.draw(st.sampled_from(list(world.rows(spotify.ALBUMS))))
            world.update(spotify.ALBUMS, album["id"], title=data.draw(query_words(SONG_WORDS)) or "z")


def _edit_products(world: World, data, n: int) -> None:
    keys = list(BASE.layer.tables[amazon.PRODUCTS])
    for _ in range(n):
        op = data.draw(st.sampled_from(["insert", "rename", "delete", "reprice"]))
        live = list(world.rows(amazon.PRODUCTS))
        if op == "insert":
            row = dict(data.draw(st.sampled_from(live)))
            row["id"] = world.new_id(amazon.PRODUCTS)
            row["name"] = " ".join(data.draw(st.lists(st.sampled_from(PRODUCT_WORDS), min_size=1, max_size=3)))
            world.insert(amazon.PRODUCTS, row)
        elif op == "rename":
            p = data.draw(st.sampled_from(live))
            world.update(amazon.PRODUCTS, p["id"], name=data.draw(query_words(PRODUCT_WORDS)) or "x",
                         description=data.draw(query_words(PRODUCT_WORDS)))
        elif op == "delete":
            key = data.draw(st.sampled_from(keys))
            if world.exists(amazon.PRODUCTS, key):
                world.delete(amazon.PRODUCTS, key)
        else:
            p = data.draw(st.sampled_from(live))
            world.update(amazon.PRODUCTS, p["id"], price=data.draw(st.floats(1, 500)))


def _scenario_layer(data, table: str, vocab) -> Layer | None:
    """Sometimes a scenario layer that renames a few base rows and adds one."""
    if not data.draw(st.booleans()):
        return None
    base = BASE.layer.tables[table]
    picked = data.draw(st.lists(st.sampled_from(list(base)), max_size=3, unique=True))
    rows = {k: {**base[k], "name" if table == amazon.PRODUCTS else "title": data.draw(st.sampled_from(vocab))} for k in picked}
    new = {**base[next(iter(base))], "id": max(base) + 1000}
    rows[new["id"]] = new
    return Layer({table: rows})


def _same_both_ways(world: World, module, name: str, args: dict) -> None:
    indexed = invoke(world, name, args)
    with mock.patch.object(module, "rank_table", linear_rank_table):
        linear = invoke(world, name, args)
    assert indexed.ok, indexed.text  # every drawn call is valid: the comparison is of real results
    assert indexed.text == linear.text, (args, indexed.text[:300], linear.text[:300])


SEARCHES = {  # tool -> (its module, table, words, random edits, sort keys, a filter and its values)
    "spotify_search_songs": (spotify_catalog, spotify.SONGS, SONG_WORDS, _edit_songs, ["title", "-rating", "play_count"],
                             ("min_rating", [1.0, 2.5, 4.0])),
    "amazon_search_products": (amazon_catalog, amazon.PRODUCTS, PRODUCT_WORDS, _edit_products, ["price", "-rating", "name"],
                               ("max_price", [20.0, 100.0, 400.0])),
}


@pytest.mark.parametrize("tool", sorted(SEARCHES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_search_indexed_equals_linear(tool, data):
    module, table, vocab, edit, sorts, (filter_name, filter_values) = SEARCHES[tool]
    world = World(BASE.layer, _scenario_layer(data, table, vocab), user_id=BASE.supervisor_id)
    edit(world, data, data.draw(st.integers(0, 6)))
    for _ in range(3):
        args = {"query": data.draw(query_words(vocab)), "page_limit": 20, "page_index": data.draw(st.integers(0, 2))}
        if data.draw(st.booleans()):
            args["sort_by"] = data.draw(st.sampled_from(sorts))
        if data.draw(st.booleans()):
            args[filter_name] = data.draw(st.sampled_from(filter_values))
        _same_both_ways(world, module, tool, args)


def test_whole_ranking_equal_and_index_used():
    """Every matching row in the same order (not just one page), through the index itself."""
    world = World(BASE.layer, user_id=BASE.supervisor_id)
    song = next(iter(world.rows(spotify.SONGS)))
    world.update(spotify.SONGS, song["id"], title="zzyzx ballad")
    world.delete(spotify.SONGS, list(BASE.layer.tables[spotify.SONGS])[1])
    cat = spotify.Catalog(world)
    for query in ["zzyzx", "love", "the a", "LOVE ZZ", "", "ballad the"]:
        got = rank_table(world, spotify.SONGS, query, cat.search_text, name="spotify.song_text",
                         depends=(spotify.ALBUMS, spotify.ARTISTS))
        want = linear_rank_table(world, spotify.SONGS, query, cat.search_text, name="")
        assert [r["id"] for r in got] == [r["id"] for r in want]
    assert any(key[:2] == ("spotify.song_text", spotify.SONGS) for key in _common._INDEXES)
    assert rank_table(world, spotify.SONGS, "zzyzx", cat.search_text, name="spotify.song_text")[0]["id"] == song["id"]
