"""User-seat overhead (figures for docs/users.md; never used as timed tests).

Run: python benchmarks/bench_user.py
Prints medians: the one-off checkpoint replay of a scenario (cold cache), and one scripted-user
decision after a "Done." that did nothing (world diff + checkpoint matching).
"""

from __future__ import annotations

import statistics
import time

import mmtsb_env
from mmtsb_env.episode.engine import Episode, forget_scenario
from mmtsb_env.users.checkpoints import round_checkpoints
from mmtsb_env.users.rules import decide
from mmtsb_env.users.scripted import ScriptedUser


def replay_cost(suite: str, n: int = 40) -> float:
    scenarios = mmtsb_env.load_suite(suite)[:n]
    for s in scenarios:  # warm the shared world layers, not the checkpoints
        Episode(s).close()
    times = []
    for s in scenarios:
        forget_scenario(s)
        t = time.perf_counter()
        round_checkpoints(s)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def decision_cost(n: int = 300) -> float:
    scenario = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/note_from_receipt")
    ep = Episode(scenario)
    ep.act(ep.USER, ScriptedUser().act(ep))
    ep.act(ep.ASSISTANT, "Done.")
    decide(ep)  # warm the checkpoint cache
    times = []
    for _ in range(n):
        t = time.perf_counter()
        decide(ep)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


if __name__ == "__main__":
    for suite in ("demo", "nominal", "ui"):
        print(f"checkpoint replay, {suite}: {replay_cost(suite) * 1e3:.1f} ms median per scenario")
    print(f"scripted decision after an empty 'Done.': {decision_cost() * 1e6:.0f} us median")
