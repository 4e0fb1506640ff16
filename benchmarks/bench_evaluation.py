"""Evaluator speed benchmarks (figures for docs/evaluation.md; never used as timed tests).

Run: python benchmarks/bench_evaluation.py
Prints medians (microseconds) of the entity-diff scorer on a real world:

- unchanged: ``EntityScorer.score`` when nothing was written since the last call (cached by version);
- typical:   2 expected creates, 3 changed rows, one new write before each score (incremental);
- large:     20 expected creates with text, 20 changed rows, one row rewritten before each score
             (incremental) and the same diff scored from scratch (``score_changes``);
- judge:     the deterministic rubric judge on a finished demo episode's evidence;
- sweep:     F1 vs rows -- k expected creates and k written rows (k = 1..1,000), one row
             rewritten before each score (incremental, per step) and the diff scored from scratch;
             plus a policy writing k junk rows against 20 expected ones. Saved to
             ``benchmarks/results/f1_sweep.json`` for ``docs/performance.md``.

Every figure is checked outside the timing: the score is the one expected for the case.
"""

from __future__ import annotations

import statistics
import time
from datetime import datetime, timezone

from common import check, load, median_s, save
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


def sweep_matched(k: int, steps: int) -> tuple[float, float]:
    """k expected creates, k rows written (a third differ a little): per-step and from-scratch ms."""
    w = _world()
    expected = [ExpectedChange("create", NOTES, row={"title": f"Note {i}", "content": _text(i)}) for i in range(k)]
    scorer = EntityScorer(expected)
    keys = []
    for i in range(k):
        keys.append(w.new_id(NOTES))
        w.insert(NOTES, {"id": keys[-1], "user_id": 1, "title": f"Note {i}", "content": _text(i) + (" (draft)" if i % 3 == 0 else "")})
    first = scorer.score(w)
    check(first.recall > 0.9 and first.precision > 0.9, f"k={k}: matched rows scored {first.f1}")
    counter = iter(range(10**9))

    def step() -> None:
        i = next(counter)
        w.update(NOTES, keys[i % k], content=_text(i % k) + f" v{i}")
        scorer.score(w)

    per_step = median_s(step, steps)
    check(scorer.score(w).recall > 0.9, f"k={k}: score after the steps")
    diff = w.diff()
    scratch = median_s(lambda: score_changes(expected, diff), 3 if k >= 300 else 5)
    return per_step * 1e3, scratch * 1e3


def sweep_junk(k: int, steps: int) -> float:
    """20 expected creates met exactly, then k junk rows: per-step ms (one junk row rewritten)."""
    w = _world()
    expected = [ExpectedChange("create", NOTES, row={"title": f"Note {i}", "content": _text(i)}) for i in range(20)]
    scorer = EntityScorer(expected)
    for i in range(20):
        w.insert(NOTES, {"id": w.new_id(NOTES), "user_id": 1, "title": f"Note {i}", "content": _text(i)})
    junk = []
    for i in range(k):
        junk.append(w.new_id(NOTES))
        w.insert(NOTES, {"id": junk[-1], "user_id": 1, "title": f"junk {i}", "content": f"spam {i} " * 5})
    scorer.score(w)
    counter = iter(range(10**9))

    def step() -> None:
        i = next(counter)
        w.update(NOTES, junk[i % k], content=f"spam again {i}")
        scorer.score(w)

    per_step = median_s(step, steps)
    s = scorer.score(w)
    check(s.recall == 1.0 and abs(s.precision - 20 / (20 + k)) < 1e-3, f"junk k={k}: {s.precision}, {s.recall}")
    return per_step * 1e3


def sweep() -> dict:
    rows = {}
    for k in (1, 10, 20, 100, 300, 1000):
        per_step, scratch = sweep_matched(k, 200 if k <= 100 else 30)
        rows[k] = {"per_step_ms": per_step, "scratch_ms": scratch}
        print(f"entity F1, {k:5d} matched rows: {per_step:8.3f} ms per write+score, {scratch:9.2f} ms from scratch")
    junk = {}
    for k in (10, 100, 1000, 5000):
        junk[k] = sweep_junk(k, 50)
        print(f"entity F1, 20 expected + {k:5d} junk rows: {junk[k]:8.3f} ms per write+score")
    return {"matched": rows, "junk": junk}


def main() -> None:
    print(f"({load()})")
    print(f"entity F1, nothing changed (cached):        {bench_unchanged():8.1f} us")
    print(f"entity F1, typical (2 expected, 3 rows):    {bench_typical():8.1f} us per write+score")
    inc, full = bench_large()
    print(f"entity F1, large (20 expected, 20 rows):    {inc:8.1f} us per write+score (incremental)")
    print(f"entity F1, large, from scratch:             {full:8.1f} us")
    print(f"rubric judge on a demo episode:             {bench_judge():8.1f} us")
    save("f1_sweep", sweep())


if __name__ == "__main__":
    main()
