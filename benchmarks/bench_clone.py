"""Cost of env.clone() mid-episode (figures only).

Run: python benchmarks/bench_clone.py
Tool mode: a default env after k cheap real calls (k = 1, 10, 40), median clone time and the
clone's first step (checked equal to the original's). Code mode: after k code steps that each
call a tool, the clone itself (cheap) and its first code step, which replays the k runs into a
fresh sandbox worker (checked: same output as the original's).
"""

from __future__ import annotations

import time

import mmtsb_env
from common import check, load, median_s, save

CHEAP = '{"name": "simple_note_show_profile", "arguments": {}}'
CODE = "```python\nx = simple_note_show_profile()\ntry:\n    n += 1\nexcept NameError:\n    n = 1\nprint(n)\n```"
SCENARIO = "demo/note_from_receipt"


def tool_mode(k: int) -> tuple[float, float]:
    env = mmtsb_env.make_env(suite="demo", max_messages=1000)
    env.reset(seed=0, options={"scenario": SCENARIO})
    for _ in range(k):
        env.step(CHEAP)
    clone_s = median_s(env.clone, 20)
    twin = env.clone()
    t = time.perf_counter()
    b = twin.step(CHEAP)
    first = time.perf_counter() - t
    check(env.step(CHEAP)[0]["text"] == b[0]["text"], "the clone's step differs")
    return clone_s, first


def code_mode(k: int) -> tuple[float, float]:
    env = mmtsb_env.make_env(suite="demo", mode="code", max_messages=1000)
    env.reset(seed=0, options={"scenario": SCENARIO})
    for _ in range(k):
        env.step(CODE)
    t = time.perf_counter()
    twin = env.clone()
    clone_s = time.perf_counter() - t
    t = time.perf_counter()
    b = twin.step(CODE)
    first = time.perf_counter() - t
    a = env.step(CODE)
    check(a[0]["text"] == b[0]["text"] and f"{k + 1}" in a[0]["text"], f"the clone's code step differs: {b[0]['text']!r}")
    env.close()
    twin.close()
    return clone_s, first


def main() -> None:
    print(f"env.clone() cost, {load()}")
    rows = {}
    for k in (1, 10, 40):
        c, f = tool_mode(k)
        rows[f"tool_{k}"] = {"clone_ms": 1000 * c, "first_step_ms": 1000 * f}
        print(f"  tool mode after {k:2d} calls: clone {1000 * c:6.2f} ms, clone's first step {1000 * f:6.2f} ms")
    for k in (1, 10):
        c, f = code_mode(k)
        rows[f"code_{k}"] = {"clone_ms": 1000 * c, "first_step_ms": 1000 * f}
        print(f"  code mode after {k:2d} runs:  clone {1000 * c:6.2f} ms, clone's first code step (replays {k}) {1000 * f:7.1f} ms")
    save("clone", rows)


if __name__ == "__main__":
    main()
