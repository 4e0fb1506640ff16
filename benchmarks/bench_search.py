"""App text searches and tool discovery: milliseconds per call, and how they grow with the table.

Run: python benchmarks/bench_search.py
Each search is a real tool call through ``invoke`` on a nominal episode's world; outside the timing
it is checked to have succeeded and found something. The sweep adds N extra songs to the live
layer (copies of base songs with new ids) and times ``spotify_search_songs`` again.
Saved to ``benchmarks/results/search.json``.
"""

from __future__ import annotations

import json

import mmtsb_env
from common import check, load, median_s, save
from mmtsb_env.tools import invoke

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
    sweep = {len(songs): per_call.get("spotify_search_songs")}
    added = 0
    for extra in (1000, 4000):
        for i in range(added, extra):
            row = dict(songs[i % len(songs)])
            row["id"] = world.new_id("spotify.songs")
            world.insert("spotify.songs", row)
        added = extra
        n = len(list(world.rows("spotify.songs")))
        sweep[n] = timed_call(world, *CALLS[0], n=10)
        print(f"spotify_search_songs over {n:5d} songs: {sweep[n]:7.2f} ms")
    save("search", {"per_call_ms": per_call, "songs_ms": sweep})


if __name__ == "__main__":
    main()
