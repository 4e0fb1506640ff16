"""Rollout benchmarks (figures for docs/export.md; never used as timed tests).

Run: python benchmarks/bench_rollout.py [--no-ray]
Prints:
* env steps/s with a scripted agent (the oracle) in one process: a plain loop, and BatchedRollout
  with 8 and 32 envs stepped from a thread pool;
* memory per env with 1,000 envs alive at once (each reset and stepped once);
* episodes/s with Ray for 1 and 2 workers (local cluster, actor start-up included and excluded).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
import tracemalloc

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.rollout import BatchedRollout, PerEpisodeAgents

SMALL = {"suite": "demo", "image_size": (112, 112)}
CHEAP = '{"name": "view_image", "arguments": {"image_id": 0}}'


def sequential_steps_per_second(demo, rounds: int = 5) -> float:
    env = mmtsb_env.make_env(**SMALL)
    agent = OracleAgent(demo)
    for s in demo:  # warm shared caches
        env.reset(seed=0, options={"scenario": s.id})
    rates = []
    for _ in range(rounds):
        steps, start = 0, time.perf_counter()
        for s in demo:
            obs, info = env.reset(seed=0, options={"scenario": s.id})
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                steps += 1
                done = terminated or truncated
        rates.append(steps / (time.perf_counter() - start))
    return statistics.median(rates)


def batched_steps_per_second(demo, n_envs: int, rounds: int = 3) -> tuple[float, float]:
    units = [(demo[i % len(demo)].id, i // len(demo)) for i in range(4 * n_envs)]
    rates, batch = [], 0.0
    for _ in range(rounds):
        envs = [mmtsb_env.make_env(**SMALL) for _ in range(n_envs)]
        rollout = BatchedRollout(envs, PerEpisodeAgents(lambda: OracleAgent(demo)), max_workers=n_envs)
        start = time.perf_counter()
        records = rollout.run(units)
        rates.append(sum(r.steps for r in records) / (time.perf_counter() - start))
        batch = statistics.mean(rollout.batch_sizes)
    return statistics.median(rates), batch


def memory_per_env(n: int = 1000) -> tuple[float, float]:
    import psutil

    proc = psutil.Process(os.getpid())
    warm = mmtsb_env.make_env(**SMALL)
    warm.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    gc.collect()
    rss_before = proc.memory_info().rss
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for i in range(n):
        env = mmtsb_env.make_env(**SMALL)
        env.reset(seed=i, options={"scenario": "demo/note_from_receipt"})
        env.step(CHEAP)
        envs.append(env)
    gc.collect()
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    rss = proc.memory_info().rss - rss_before
    del envs
    return traced / n, rss / n


def ray_episodes_per_second(demo, workers: int, seeds: int = 4) -> tuple[float, float]:
    """(episodes/s of run_distributed incl. actor start-up, episodes/s on warm actors)."""
    import ray
    from ray.util import ActorPool

    from mmtsb_env.distributed import EpisodeWorker, run_distributed

    units = [(i, s) for i in range(len(demo)) for s in range(seeds)]
    start = time.perf_counter()
    run_distributed(demo, "oracle", num_workers=workers, seeds=list(range(seeds)))
    with_startup = len(units) / (time.perf_counter() - start)
    remote = ray.remote(num_cpus=1)(EpisodeWorker)
    actors = [remote.remote(demo, "oracle") for _ in range(workers)]
    ray.get([a.play_many.remote([(i, 0) for i in range(len(demo))]) for a in actors])  # warm up
    start = time.perf_counter()
    list(ActorPool(actors).map(lambda a, u: a.play.remote(*u), units))
    warm = len(units) / (time.perf_counter() - start)
    for a in actors:
        ray.kill(a)
    return with_startup, warm


def main(with_ray: bool) -> None:
    demo = mmtsb_env.load_suite("demo")
    print(f"env steps/s, oracle, one process, plain loop: {sequential_steps_per_second(demo):.0f}")
    for n in (8, 32):
        rate, batch = batched_steps_per_second(demo, n)
        print(f"env steps/s, oracle, BatchedRollout {n:2d} envs in threads: {rate:.0f} (mean policy batch {batch:.1f})")
    traced, rss = memory_per_env()
    print(f"memory per env, 1,000 live envs: {traced / 1024:.0f} KiB traced by Python, {rss / 1024:.0f} KiB of RSS")
    if with_ray:
        import ray

        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            for w in (1, 2):
                with_startup, steady = ray_episodes_per_second(demo, w)
                print(f"Ray, {w} worker(s): {with_startup:.1f} episodes/s incl. actor start-up, {steady:.1f} on warm actors")
        finally:
            ray.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-ray", action="store_true")
    main(not parser.parse_args().no_ray)
