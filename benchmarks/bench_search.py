"""App text searches and tool discovery: milliseconds per call, and how they grow with the table.

Run: python benchmarks/bench_search.py
Each search is a real tool call through ``invoke`` on a nominal episode's world; outside the timing
it is checked to have succeeded and found something. Two sweeps time ``spotify_search_songs``
again: over a base catalog grown to N songs (filler songs that do not match the query, so the
hits stay the same; the base layer is what the inverted index covers), and with N songs inserted in the episode (the live layer, which
is scored row by row on top of the index).
Saved to ``benchmarks/results/search.json``.
"""

from __future__ import annotations

import json

import mmtsb_env
from common import check, load, median_s, save
from mmtsb_env.tools import invoke
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
    # 2. songs written in the episode (the live layer, scored one by one on top of the index)
    live_sweep = {len(songs): per_call.get("spotify_search_songs")}  # keyed by songs in the table
    added = 0
    for extra in (100, 1000, 4000):
        for i in range(added, extra):
            row = dict(songs[i % len(songs)])
            row["id"] = world.new_id("spotify.songs")
            world.insert("spotify.songs", row)
        added = extra
        ms = live_sweep[len(songs) + extra] = timed_call(world, *CALLS[0], n=10)
        print(f"spotify_search_songs, {extra:6d} songs added live: {ms:7.2f} ms")
    save("search", {"per_call_ms": per_call, "base_songs_ms": base_sweep, "live_songs_ms": live_sweep})

if __name__ == "__main__":
    main()
