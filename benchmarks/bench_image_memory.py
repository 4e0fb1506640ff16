"""Host memory under image and argument floods, and a clone's replay (figures for docs/performance.md
and docs/security.md; never used as timed tests).

Run: python benchmarks/bench_image_memory.py
* code mode: steps of twelve ``resize_image(0, 4096, ~3800)`` + ``view_image`` pairs; the host's
  resident memory after each step and what the image store holds (``ImageStore.nbytes``,
  ``tool_bytes``);
* tool mode: 30 resize-then-view pairs, the same;
* a code step handing a 6-million-item list to a tool: the host's peak memory (VmHWM) before and
  after, and the step's time;
* a clone after four 2.3 s code steps: the clone's first code step's time and what it said.
"""

from __future__ import annotations

import gc
import json
import re
import time

from common import load, save

import mmtsb_env

SCENARIO = "demo/compare_receipts"


def status_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


def store_mb(env) -> dict[str, float]:
    images = env.unwrapped.episode.images
    return {"store_holds_mb": round(images.nbytes() / 2**20, 1), "tool_made_mb": round(images.tool_bytes() / 2**20, 1)}


def code_resizes(steps: int = 4) -> list[dict]:
    env = mmtsb_env.make_env(suite="demo", mode="code")
    env.reset(seed=0, options={"scenario": SCENARIO})
    rows = [{"step": "start", "rss_mb": round(status_mb("VmRSS"), 1)}]
    for s in range(steps):
        obs, *_ = env.step("```python\nfor i in range(12):\n"
                           f"    res = resize_image(0, 4096, 3800 - i - 100 * {s})\n    view_image(res['image_id'])\n```")
        refused = "over the cap" in obs["text"]
        rows.append({"step": s, "rss_mb": round(status_mb("VmRSS"), 1), "refused": refused, **store_mb(env)})
    env.close()
    return rows


def tool_resizes(pairs: int = 30) -> list[dict]:
    env = mmtsb_env.make_env(suite="demo", mode="tool")
    env.reset(seed=0, options={"scenario": SCENARIO})
    rows = [{"pair": "start", "rss_mb": round(status_mb("VmRSS"), 1)}]
    for i in range(pairs):
        obs, *_ = env.step(json.dumps({"name": "resize_image", "arguments": {"image_id": 0, "width": 4096, "height": 3900 - i}}))
        m = re.search(r'"image_id": (\d+)', obs["text"])
        if m:
            env.step(json.dumps({"name": "view_image", "arguments": {"image_id": int(m.group(1))}}))
        if i % 5 == 4:
            rows.append({"pair": i + 1, "rss_mb": round(status_mb("VmRSS"), 1), "refused": m is None, **store_mb(env)})
    env.close()
    return rows


def argument_flood() -> dict:
    env = mmtsb_env.make_env(suite="demo", mode="code")
    env.reset(seed=0, options={"scenario": SCENARIO})
    env.step("```python\nprint(1)\n```")
    gc.collect()
    before = status_mb("VmHWM")
    t = time.perf_counter()
    obs, *_ = env.step("```python\nx = [999] * 6_000_000\ntry:\n    simple_note_search_notes(x, x)\n"
                       "except Exception as e:\n    print(str(e)[:120])\n```")
    out = {"step_s": round(time.perf_counter() - t, 2), "peak_before_mb": round(before, 1),
           "peak_after_mb": round(status_mb("VmHWM"), 1), "said": obs["text"].splitlines()[-1][:120]}
    env.close()
    return out


def clone_replay() -> dict:
    env = mmtsb_env.make_env(suite="demo", mode="code")
    env.reset(seed=0, options={"scenario": SCENARIO})
    spin = "```python\nfor i in range(10_000_000):\n    pass\nprint('spun')\n```"
    steps = []
    for _ in range(4):
        t = time.perf_counter()
        env.step(spin)
        steps.append(round(time.perf_counter() - t, 2))
    twin = env.clone()
    t = time.perf_counter()
    obs, *_ = twin.step("```python\nprint(7)\n```")
    out = {"original_steps_s": steps, "clone_first_step_s": round(time.perf_counter() - t, 2),
           "said": obs["text"][:160]}
    twin.close()
    env.close()
    return out


def main() -> None:
    results = {"code_resizes": code_resizes(), "tool_resizes": tool_resizes(), "argument_flood": argument_flood(),
               "clone_replay": clone_replay()}
    print(f"host memory under image and argument floods ({load()})")
    for name, value in results.items():
        print(f"{name}:")
        for row in value if isinstance(value, list) else [value]:
            print("  " + ", ".join(f"{k} {v}" for k, v in row.items()))
    save("image_memory", results)


if __name__ == "__main__":
    main()
