"""App text searches and tool discovery: milliseconds per call, and how they grow with the table.

Run: python benchmarks/bench_search.py
Each search is a real tool call through ``invoke`` on a nominal episode's world; outside the timing
it is checked to have succeeded and found something. Two sweeps time ``spotify_search_songs``
again: over a base catalog grown to N songs (filler songs that do not match the query, so the
hits stay the same; the base layer is what the inverted index covers); and, for songs, products
notes and contacts, with N rows written in the episode (the live layer, indexed per world as rows appear).
Saved to ``benchmarks/results/search.json``.
"""

from __future__ import annotations

import json

import mmtsb_env
from common import check, load, median_s, save
from mmtsb_env.tools.calling import invoke
from mmtsb_env.world.base import base_world
from mmtsb_env.world.store import Layer, World

CALLS = [
    ("spotify_search_songs", {"query": "love story"}),
    ("amazon_search_products", {"query": "wireless headphones"}),
    ("contacts_search_contacts", {"query": "smith"}),
    ("simple_note_search_notes", {"query": "meeting"}),
    ("api_docs_search_api_docs", {"query": "send money to a friend"}),
]


def timed_call(world, name: str, args: dict, n: int = 30) -> float:
    out = invoke(world, name, args, seat="assistant")
    check(out.ok and json.loads(out.text), f"{name}: {out.text[:120]}")
    return median_s(lambda: invoke(world, name, args, seat="assistant"), n) * 1e3


WRITTEN = [  # (table, search tool, its arguments, column rewritten)
    ("spotify.songs", "spotify_search_songs", None, "title"),
    ("amazon.products", "amazon_search_products", {"query": "wireless headphones"}, "name"),
    ("simple_note.notes", "simple_note_search_notes", {"query": "meeting"}, "title"),
    ("phone.contacts", "contacts_search_contacts", {"query": "smith"}, "last_name"),
]


def written_sweep(world) -> dict:
    """Search ms with 0 / 100 / 1,000 / 4,000 rows written in the episode (copies of existing
    rows, so about as many match as in the base): the search alone, and one row rewritten
    before each search (what a policy writing as it goes pays)."""
    out: dict[str, dict[int, dict[str, float]]] = {}
    for table, tool, args, column in WRITTEN:
        args = args or CALLS[0][1]
        source = [r for r in world.rows(table) if r.get("user_id", world.user_id) == world.user_id]
        check(bool(source), f"{table}: no rows of the device owner to copy")
        rows: dict[int, dict[str, float]] = {}
        added: list = []
        for n in (0, 100, 1000, 4000):
            while len(added) < n:
                row = dict(source[len(added) % len(source)], id=world.new_id(table))
                world.insert(table, row)
                added.append(row["id"])
            search = timed_call(world, tool, args, n=10)
            if added:
                counter = iter(range(10**9))

                def write_then_search() -> None:
                    i = next(counter)
                    world.update(table, added[i % len(added)], **{column: f"rewritten {i}"})
                    invoke(world, tool, args, seat="assistant")

                after_write = median_s(write_then_search, 10) * 1e3
                check(invoke(world, tool, args, seat="assistant").ok, f"{tool} after the writes")
            else:
                after_write = search
            rows[n] = {"search_ms": search, "write_then_search_ms": after_write}
            print(f"{tool:28s} {n:5d} rows written: {search:6.2f} ms per search, {after_write:6.2f} ms per write+search")
        out[tool] = rows
    return out


def main() -> None:
    print(f"({load()})")
    env = mmtsb_env.make_env(suite="nominal", tool_search=True)
    env.reset(seed=0)
    world = env.unwrapped.episode.world
    title = next(iter(world.rows("spotify.songs")))["title"]
    CALLS[0] = ("spotify_search_songs", {"query": title.split()[0]})  # a word the catalog holds
    per_call = {}
    for name, args in CALLS:
        try:
            per_call[name] = timed_call(world, name, args)
        except SystemExit as exc:  # a call the world cannot answer is reported, never timed
            print(f"{name}: skipped ({exc})")
            continue
        print(f"{name:28s} {per_call[name]:7.2f} ms per call")
    songs = list(world.rows("spotify.songs"))
    query = CALLS[0][1]
    # 1. a bigger base catalog (indexed): N songs in the shared base layer, the hits unchanged
    base = base_world(0)
    base_sweep = {}
    for extra in (0, 1000, 4000, 16000):
        table = dict(base.layer.tables["spotify.songs"])
        top = max(table)
        for i in range(extra):
            row = dict(songs[i % len(songs)])
            row.update(id=top + 1 + i, title=f"Filler {i}", album_id=None, artist_ids=[])  # never matches
            table[row["id"]] = row
        big = World(Layer({**base.layer.tables, "spotify.songs": table}), user_id=base.supervisor_id)
        n = len(table)
        base_sweep[n] = timed_call(big, "spotify_search_songs", query, n=10)
        print(f"spotify_search_songs, {n:6d} base songs:          {base_sweep[n]:7.2f} ms")
    # 2. rows written in the episode (the live layer, indexed per world as rows appear): N rows
    #    inserted, then the search alone and a write (one row rewritten) followed by the search
    live_sweep = written_sweep(world)
    save("search", {"per_call_ms": per_call, "base_songs_ms": base_sweep, "written_rows": live_sweep})

if __name__ == "__main__":
    main()
