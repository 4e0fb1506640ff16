"""Environment overhead benchmarks (figures for the README; never used as timed tests).

Run: python benchmarks/bench_env.py
Prints medians: a cheap tool-call step (call 1 vs call 40 of an episode), reset, memory per live
env on top of the shared base world, and scripted steps per second on one core.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

CHEAP = '{"name": "get_wifi_status", "arguments": {}}'
SCENARIO = "demo/note_from_receipt"


def step_costs(n_episodes: int = 30, calls: int = 40) -> tuple[float, float, float]:
    env = mmtsb_env.make_env(suite="demo", max_messages=1000)
    first, fortieth, all_calls = [], [], []
    for _ in range(n_episodes):
        env.reset(seed=0, options={"scenario": SCENARIO})
        for i in range(calls):
            t = time.perf_counter()
            env.step(CHEAP)
            dt = time.perf_counter() - t
            all_calls.append(dt)
            if i == 0:
                first.append(dt)
            if i == calls - 1:
                fortieth.append(dt)
    return statistics.median(all_calls), statistics.median(first), statistics.median(fortieth)


def reset_cost(n: int = 200) -> float:
    env = mmtsb_env.make_env(suite="demo")
    env.reset(seed=0, options={"scenario": SCENARIO})
    times = []
    for _ in range(n):
        t = time.perf_counter()
        env.reset(seed=0, options={"scenario": SCENARIO})
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def memory_per_env(n: int = 1000) -> float:
    mmtsb_env.make_env(suite="demo").reset(seed=0, options={"scenario": SCENARIO})  # warm shared caches
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for _ in range(n):
        env = mmtsb_env.make_env(suite="demo")
        env.reset(seed=0, options={"scenario": SCENARIO})
        env.step(CHEAP)
        envs.append(env)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n


def scripted_steps_per_second(seconds: float = 3.0) -> float:
    demo = mmtsb_env.load_suite("demo")
    env = mmtsb_env.make_env(suite="demo")
    agent = OracleAgent(demo)
    for scenario in demo:  # warm the shared render/encoding caches first
        env.reset(seed=0, options={"scenario": scenario.id})
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for scenario in demo:
            obs, info = env.reset(seed=0, options={"scenario": scenario.id})
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                steps += 1
                done = terminated or truncated
    return steps / (time.perf_counter() - start)


if __name__ == "__main__":
    median, first, fortieth = step_costs()
    print(f"cheap tool step: median {median * 1e6:.0f} us (call 1: {first * 1e6:.0f} us, call 40: {fortieth * 1e6:.0f} us)")
    print(f"reset: median {reset_cost() * 1e3:.2f} ms")
    print(f"memory per live env (1,000 envs): {memory_per_env() / 1024:.0f} KiB")
    print(f"oracle steps/s on one core (demo suite, incl. user turns and scoring): {scripted_steps_per_second():.0f}")
