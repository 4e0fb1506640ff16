"""Evaluator speed benchmarks (figures for docs/evaluation.md; never used as timed tests).

Run: python benchmarks/bench_evaluation.py
Prints medians (microseconds) of the entity-diff scorer on a real world:

- unchanged: ``EntityScorer.score`` when nothing was written since the last call (cached by version);
- typical:   2 expected creates, 3 changed rows, one new write before each score (incremental);
- large:     20 expected creates with text, 20 changed rows, one row rewritten before each score
             (incremental) and the same diff scored from scratch (``score_changes``);
- judge:     the deterministic rubric judge on a finished demo episode's evidence.
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime, timezone

from mmtsb_env.evaluation import EntityScorer, RubricJudge, score_changes
from mmtsb_env.scenario.model import ExpectedChange
from mmtsb_env.world import World
from mmtsb_env.world.base import base_world

NOTES = "simple_note.notes"
NOW = datetime(2026, 4, 16, 9, 0, tzinfo=timezone.utc)


def _world() -> World:
    base = base_world(0)
    return World(base.layer, now=NOW, user_id=base.supervisor_id)


def _text(i: int) -> str:
    return f"Receipt {i}: Sunrise Diner pancakes and coffee, total ${10 + i}.53 paid by card on 2026-04-{10 + i % 9:02d}"


def _median_us(fn, n: int) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def bench_unchanged(n: int = 2000) -> float:
    w = _world()
    scorer = EntityScorer([ExpectedChange("create", NOTES, row={"title": "a", "content": "b"})])
    w.insert(NOTES, {"id": w.new_id(NOTES), "user_id": 1, "title": "a", "content": "b"})
    scorer.score(w)
    return _median_us(lambda: scorer.score(w), n)


def bench_typical(n: int = 500) -> float:
    w = _world()
    expected = [ExpectedChange("create", NOTES, row={"title": f"Note {i}", "content": _text(i), "user_id": 1}) for i in range(2)]
    scorer = EntityScorer(expected)
    for i in range(3):
        w.insert(NOTES, {"id": w.new_id(NOTES), "user_id": 1, "title": f"Note {i}", "content": _text(i)})
    key = w.new_id(NOTES)
    w.insert(NOTES, {"id": key, "user_id": 1, "title": "scratch", "content": "x"})
    counter = iter(range(10**9))

    def step() -> None:
        w.update(NOTES, key, content=f"scratch {next(counter)}")
        scorer.score(w)

    return _median_us(step, n)


def bench_large(n: int = 200) -> tuple[float, float]:
    w = _world()
    expected = [ExpectedChange("create", NOTES, row={"title": f"Note {i}", "content": _text(i), "user_id": 1}) for i in range(20)]
    scorer = EntityScorer(expected)
    keys = []
    for i in range(20):
        k = w.new_id(NOTES)
        keys.append(k)
        w.insert(NOTES, {"id": k, "user_id": 1, "title": f"Note {i}", "content": _text(i) + (" (draft)" if i % 3 else "")})
    scorer.score(w)
    counter = iter(range(10**9))

    def step() -> None:
        i = next(counter)
        w.update(NOTES, keys[i % 20], content=_text(i % 20) + f" v{i}")
        scorer.score(w)

    incremental = _median_us(step, n)
    diff = w.diff()
    full = _median_us(lambda: score_changes(expected, diff), max(20, n // 4))
    return incremental, full


def bench_judge(n: int = 500) -> float:
    import mmtsb_env
    from mmtsb_env.baselines import OracleAgent

    suite = mmtsb_env.load_suite("demo")
    env = mmtsb_env.make_env(suite="demo")
    agent = OracleAgent(suite)
    obs, info = env.reset(seed=0, options={"scenario": "demo/expenses_late_images"})
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    evidence = env.episode.evidence()
    judge = RubricJudge()
    return _median_us(lambda: judge.evaluate(evidence), n)


def main() -> None:
    print(f"entity F1, nothing changed (cached):        {bench_unchanged():8.1f} us")
    print(f"entity F1, typical (2 expected, 3 rows):    {bench_typical():8.1f} us per write+score")
    inc, full = bench_large()
    print(f"entity F1, large (20 expected, 20 rows):    {inc:8.1f} us per write+score (incremental)")
    print(f"entity F1, large, from scratch:             {full:8.1f} us")
    print(f"rubric judge on a demo episode:             {bench_judge():8.1f} us")


if __name__ == "__main__":
    main()
