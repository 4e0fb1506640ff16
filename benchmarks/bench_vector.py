"""Gymnasium vector envs: AsyncVectorEnv against SyncVectorEnv on 4 envs, per step (figures only).

Run: python benchmarks/bench_vector.py [--steps 40] [--rounds 3]
Both vector envs play the same 4 demo episodes with DEFAULT options (image_size 336, four image
slots, data URLs in messages): a reset, then ``--steps`` cheap real tool calls each (checked to
succeed), so the message history grows as in a long episode. Prints the median milliseconds
per vector step of each and the mean with the resets counted as steps, their ratios, and the bytes one env's ``info`` costs to pickle after the reset
and after the last step (what AsyncVectorEnv sends through its pipe every step). The goal is
async <= 1.5x sync per step.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from functools import partial

import gymnasium as gym

import mmtsb_env
from common import check, load, save

CHEAP = '{"name": "simple_note_show_profile", "arguments": {}}'
SCENARIO = "demo/note_from_receipt"
N = 4


def make():
    return mmtsb_env.make_env(suite="demo", max_messages=1000)


def play(venv, steps: int) -> list[float]:
    t = time.perf_counter()
    venv.reset(seed=list(range(N)), options={"scenario": SCENARIO})
    times = [time.perf_counter() - t]  # the reset counts as the episode's first step
    for _ in range(steps):
        t = time.perf_counter()
        _, _, terminated, truncated, info = venv.step((CHEAP,) * N)
        times.append(time.perf_counter() - t)
        check(not terminated.any() and not truncated.any(), "an episode ended early")
        check(all(e is None for e in info["action_error"]), f"a call failed: {info['action_error']}")
    return times


def info_bytes(steps: int) -> tuple[int, int]:
    env = make()
    _, info = env.reset(seed=0, options={"scenario": SCENARIO})
    at_reset = len(pickle.dumps(info))
    for _ in range(steps):
        _, _, _, _, info = env.step(CHEAP)
    return at_reset, len(pickle.dumps(info))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fns = [partial(make) for _ in range(N)]
    sync, vec = gym.vector.SyncVectorEnv(fns), gym.vector.AsyncVectorEnv(fns)
    try:
        play(sync, 3), play(vec, 3)  # warm both (first draws, imports in the workers)
        s, a = [], []
        for _ in range(args.rounds):
            s += play(sync, args.steps)
            a += play(vec, args.steps)
    finally:
        vec.close()
        sync.close()
    sync_ms, async_ms = 1000 * statistics.median(s), 1000 * statistics.median(a)
    sync_mean, async_mean = 1000 * statistics.fmean(s), 1000 * statistics.fmean(a)
    reset_b, last_b = info_bytes(args.steps)
    print(f"4 envs, {args.steps} cheap calls per episode, {load()}")
    print(f"  SyncVectorEnv   median {sync_ms:7.2f} ms/step, mean with resets {sync_mean:7.2f}")
    print(f"  AsyncVectorEnv  median {async_ms:7.2f} ms/step ({async_ms / sync_ms:.2f}x sync), "
          f"mean with resets {async_mean:7.2f} ({async_mean / sync_mean:.2f}x sync)")
    print(f"  pickled info of one env: {reset_b} B after reset, {last_b} B after step {args.steps}")
    save("vector", {"envs": N, "steps": args.steps, "sync_ms": sync_ms, "async_ms": async_ms,
                    "ratio": async_ms / sync_ms,
                    "sync_mean_ms": sync_mean, "async_mean_ms": async_mean, "info_bytes_reset": reset_b, "info_bytes_last": last_b})


if __name__ == "__main__":
    main()
