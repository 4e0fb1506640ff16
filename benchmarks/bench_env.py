"""Environment overhead benchmarks (figures for the README; never used as timed tests).

Run: python benchmarks/bench_env.py
Prints medians: a cheap REAL tool-call step (``simple_note_show_profile``, offered by the scenario;
each call is checked to have succeeded) by call index along a 60-call episode, reset, memory per
live env on top of the shared base world, and oracle steps/s and episodes/s with DEFAULT options
on the demo and nominal suites (checked: pixels were drawn and every episode passed), for each
kind of pass: the first pass of a fresh process, a warm pass of the same process, and (nominal)
a fresh process whose image disk cache an earlier one filled (checked: it draws nothing).
The machine load is printed with the figures; the call-index curve is saved for docs/performance.md.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

import mmtsb_env
from common import check, load, save
from mmtsb_env.baselines import OracleAgent

CHEAP = '{"name": "simple_note_show_profile", "arguments": {}}'
SCENARIO = "demo/note_from_receipt"


def step_costs(n_episodes: int = 30, calls: int = 60) -> list[float]:
    """Median seconds of the i-th cheap call of an episode, i = 1..calls."""
    env = mmtsb_env.make_env(suite="demo", max_messages=1000)
    times: list[list[float]] = [[] for _ in range(calls)]
    for _ in range(n_episodes):
        env.reset(seed=0, options={"scenario": SCENARIO})
        for i in range(calls):
            t = time.perf_counter()
            _, _, _, _, info = env.step(CHEAP)
            times[i].append(time.perf_counter() - t)
            check(info["action_error"] is None and info["messages"][-1]["role"] == "tool"
                  and '"first_name"' in info["messages"][-1]["content"], f"call {i + 1} did not succeed: {info['action_error']}")
    curve = [statistics.median(t) for t in times]
    # flat along the episode: the last ten calls cost no more than 1.5x the calls 2-11 (call 1
    # fills first-use caches); a cost that grew with the history would fail here
    early, late = statistics.median(curve[1:11]), statistics.median(curve[-10:])
    check(late <= 1.5 * early, f"the cheap step grows along the episode: {early * 1e6:.0f} us -> {late * 1e6:.0f} us")
    return curve


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


def oracle_rate(suite_name: str, passes: int = 2) -> dict[str, float]:
    """Oracle rates over a whole suite with DEFAULT options, per pass of the same process.

    ``first_pass``: a fresh process (nothing drawn yet; the disk cache, if on, is filled);
    ``warm_pass``: the best of ``passes`` later passes (products reused from memory). Also
    steps/s of the warm pass and the repeat-reset time. Checked outside the timing: every
    episode passed, and images were really drawn into tensors.
    """
    suite = mmtsb_env.load_suite(suite_name)
    env = mmtsb_env.make_env(suite=suite_name)
    agent = OracleAgent(suite)

    def run() -> tuple[int, int, float]:
        steps = episodes = 0
        ok, pixels = True, False
        start = time.perf_counter()
        for scenario in suite:
            obs, info = env.reset(seed=0, options={"scenario": scenario.id})
            pixels = pixels or bool(obs["image_count"] and obs["images"][0].any())
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                steps += 1
                done = terminated or truncated
            ok = ok and bool(info.get("verdict", {}).get("pass"))
            episodes += 1
        seconds = time.perf_counter() - start
        check(ok and pixels, f"{suite_name}: an oracle episode failed or no pixels were drawn")
        return steps, episodes, seconds

    first = run()
    steps, episodes, seconds = min((run() for _ in range(passes)), key=lambda r: r[2])
    reset = statistics.median(_timed(lambda: env.reset(seed=0, options={"scenario": suite[-1].id})) for _ in range(50))
    from mmtsb_env.vision import assets

    check(assets.PRODUCTS.nbytes <= assets.PRODUCTS.max_bytes and assets.PIXELS.nbytes <= assets.PIXELS.max_bytes,
          "an asset cache exceeds its budget")
    return {"first_pass_episodes_per_s": first[1] / first[2], "episodes_per_s": episodes / seconds,
            "steps_per_s": steps / seconds, "repeat_reset_ms": reset * 1e3,
            "products_mb": assets.PRODUCTS.nbytes / 2**20, "products": len(assets.PRODUCTS),
            "pixels_mb": assets.PIXELS.nbytes / 2**20}


def disk_warm_rate(suite_name: str, folder: str) -> float:
    """Episodes/s of one pass in a FRESH process whose image disk cache (``folder``) an earlier
    process filled: nothing is drawn that was drawn before (checked: the child counts drawings)."""
    import os
    import subprocess
    import sys

    child = f"""
import time, mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.vision import store
drawn = []
original = store._Recipe._draw
store._Recipe._draw = lambda self: drawn.append(1) or original(self)
suite = mmtsb_env.load_suite({suite_name!r})
env, agent = mmtsb_env.make_env(suite={suite_name!r}), OracleAgent(suite)
start, ok = time.perf_counter(), True
for s in suite:
    obs, info = env.reset(seed=0, options={{"scenario": s.id}})
    done = False
    while not done:
        obs, _, te, tr, info = env.step(agent.act(obs, info))
        done = te or tr
    ok = ok and bool(info.get("verdict", {{}}).get("pass"))
print(len(suite) / (time.perf_counter() - start), len(drawn), ok)
"""
    env = {**os.environ, "MMTSB_IMAGE_CACHE_DIR": folder}
    out = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, check=True).stdout.split()
    rate, drawn, ok = float(out[0]), int(out[1]), out[2] == "True"
    check(ok, f"{suite_name}: an oracle episode failed in the fresh process")
    check(drawn == 0, f"{suite_name}: the fresh process redrew {drawn} images despite the warm disk cache")
    return rate


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    print(f"({load()})")
    curve = step_costs()
    print(f"cheap real tool step: median {statistics.median(curve) * 1e6:.0f} us "
          f"(call 1: {curve[0] * 1e6:.0f} us, call 30: {curve[29] * 1e6:.0f} us, call 60: {curve[-1] * 1e6:.0f} us)")
    print(f"reset: median {reset_cost() * 1e3:.2f} ms")
    print(f"memory per live env (1,000 envs): {memory_per_env() / 1024:.0f} KiB")
    rates = {}
    import tempfile

    from mmtsb_env.vision import disk

    with tempfile.TemporaryDirectory() as folder:
        for name in ("demo", "nominal"):
            disk.use(folder if name == "nominal" else None)  # nominal: the first pass fills the disk cache
            rates[name] = oracle_rate(name)
            r = rates[name]
            print(f"oracle, {name} suite, default options: first pass of a fresh process {r['first_pass_episodes_per_s']:.1f} "
                  f"episodes/s; warm pass {r['episodes_per_s']:.1f} episodes/s ({r['steps_per_s']:.0f} steps/s); "
                  f"repeat reset {r['repeat_reset_ms']:.2f} ms; products cache {r['products']} entries, "
                  f"{r['products_mb']:.0f} MB, pixels {r['pixels_mb']:.0f} MB ({load()})")
        disk.use(None)
        rates["nominal"]["disk_warm_fresh_process_episodes_per_s"] = rate = disk_warm_rate("nominal", folder)
        print(f"oracle, nominal suite, default options, a fresh process with a warm image disk cache: {rate:.1f} episodes/s ({load()})")
    print(f"({load()})")
    save("env", {"step_us_by_call": [t * 1e6 for t in curve], "oracle": rates})
