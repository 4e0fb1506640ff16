"""User-seat overhead (figures for docs/users.md; never used as timed tests).

Run: python benchmarks/bench_user.py
Prints the median cost of one scripted-user decision (reading the round's assistant messages and
choosing the move) after a stall and after a report.
"""

from __future__ import annotations

import statistics
import time

import mmtsb_env
from mmtsb_env.episode.engine import Episode
from mmtsb_env.users.rules import decide
from mmtsb_env.users.scripted import ScriptedUser


def decision_cost(reply: str, n: int = 300) -> float:
    scenario = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/note_from_receipt")
    ep = Episode(scenario)
    ep.act(ep.USER, ScriptedUser().act(ep))
    ep.act(ep.ASSISTANT, reply)
    decide(ep)
    times = []
    for _ in range(n):
        t = time.perf_counter()
        decide(ep)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


if __name__ == "__main__":
    for reply in ("Let me check the receipt.", "Done: I saved the note 'Lunch expense' with Blue Door Cafe, total $13.48."):
        print(f"scripted decision after {reply[:30]!r}: {decision_cost(reply) * 1e6:.0f} us median")
