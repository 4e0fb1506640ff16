"""Gymnasium vector envs: AsyncVectorEnv against SyncVectorEnv on 4 envs, per step (figures only).

Run: python benchmarks/bench_vector.py [--steps 40] [--rounds 3] [--breakdown]
Both vector envs play the same 4 demo episodes with DEFAULT options (image_size 336, four image
slots, data URLs in messages): a reset, then ``--steps`` cheap real tool calls each (checked to
succeed), so the message history grows as in a long episode. Rounds alternate sync and async.
Prints the median milliseconds per vector step of each and the mean with the resets counted as
steps, their ratios, and the bytes one env's ``info`` costs to pickle after the reset and after
the last step (what AsyncVectorEnv sends through its pipe every step). The goal is async <= 1.5x
sync per step.

``--breakdown`` repeats the pair with what a user can set, to show where the rest goes:
``max_images=0`` (no image tensors: the pipe round trips and ``info`` alone), ``copy=False`` on
both vector envs (no copy of the returned batch), both, and a no-op env with the same spaces and
an empty ``info`` (the vector env's own transport, no env work).
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


def make(**env_kwargs):
    return mmtsb_env.make_env(suite="demo", max_messages=1000, **env_kwargs)


class NoOpEnv(gym.Env):
    """The same spaces, a step that does nothing and an empty ``info``: what the vector env's own
    transport costs (for async: the pipe round trips and the shared memory), with no env work."""

    def __init__(self, **env_kwargs) -> None:
        real = make(**env_kwargs)
        self.observation_space, self.action_space = real.observation_space, real.action_space
        real.close()
        from mmtsb_env.envs.observe import zero_images

        self._obs = lambda: {"text": "", "images": zero_images(self.observation_space["images"].shape), "image_count": 0}

    def reset(self, *, seed=None, options=None):
        return self._obs(), {"action_error": None}

    def step(self, action):
        return self._obs(), 0.0, False, False, {"action_error": None}


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


def pair(steps: int, rounds: int, env_kwargs: dict, venv_kwargs: dict, env=make) -> dict[str, float]:
    """Sync and async per-step times (median; mean with the resets) over alternating rounds."""
    fns = [partial(env, **env_kwargs) for _ in range(N)]
    sync, vec = gym.vector.SyncVectorEnv(fns, **venv_kwargs), gym.vector.AsyncVectorEnv(fns, **venv_kwargs)
    try:
        play(sync, 3), play(vec, 3)  # warm both (first draws, imports in the workers)
        s, a = [], []
        for _ in range(rounds):
            s += play(sync, steps)
            a += play(vec, steps)
    finally:
        vec.close()
        sync.close()
    out = {"sync_ms": 1000 * statistics.median(s), "async_ms": 1000 * statistics.median(a),
           "sync_mean_ms": 1000 * statistics.fmean(s), "async_mean_ms": 1000 * statistics.fmean(a)}
    out["ratio"] = out["async_ms"] / out["sync_ms"]
    return out


def show(label: str, r: dict[str, float]) -> None:
    print(f"  {label}")
    print(f"    SyncVectorEnv   median {r['sync_ms']:7.2f} ms/step, mean with resets {r['sync_mean_ms']:7.2f}")
    print(f"    AsyncVectorEnv  median {r['async_ms']:7.2f} ms/step ({r['ratio']:.2f}x sync), "
          f"mean with resets {r['async_mean_ms']:7.2f} ({r['async_mean_ms'] / r['sync_mean_ms']:.2f}x sync)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--breakdown", action="store_true", help="also max_images=0, copy=False, and both")
    args = parser.parse_args()
    cases = {"default": ({}, {}, make)}
    if args.breakdown:
        cases.update({"max_images=0": ({"max_images": 0}, {}, make), "copy=False": ({}, {"copy": False}, make),
                      "max_images=0, copy=False": ({"max_images": 0}, {"copy": False}, make),
                      "no-op env, same spaces (transport only)": ({}, {}, NoOpEnv)})
    print(f"4 envs, {args.steps} cheap calls per episode, {args.rounds} rounds, {load()}")
    results = {}
    for label, (env_kwargs, venv_kwargs, env) in cases.items():
        results[label] = pair(args.steps, args.rounds, env_kwargs, venv_kwargs, env)
        show(label, results[label])
    reset_b, last_b = info_bytes(args.steps)
    print(f"  pickled info of one env: {reset_b} B after reset, {last_b} B after step {args.steps}")
    save("vector", {"envs": N, "steps": args.steps, **results["default"], "info_bytes_reset": reset_b,
                    "info_bytes_last": last_b, "breakdown": {k: v for k, v in results.items() if k != "default"}})


if __name__ == "__main__":
    main()
