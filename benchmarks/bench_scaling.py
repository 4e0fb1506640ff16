"""Scaling: oracle episodes/s with 1 and 2 worker processes, and 1 and 2 Ray actors (default options, nominal suite).

Run: python benchmarks/bench_scaling.py [--seconds 20] [--no-ray]
Each worker is a fresh process (spawn) that loads the suite, runs one untimed warm-up pass over
its share of the scenarios, waits for the others (a barrier, so the timed windows coincide), then
runs episodes for ``--seconds`` and reports how many passed. The Ray part plays the same
120 scenarios through ``mmtsb_env.distributed.EpisodeWorker`` actors (records sent back to the
driver), split between the actors, after a warm-up pass, three times over.
Start-up is reported separately, not mixed into the rate. The load printed before and after
says whether the cores were idle: on a shared machine the 2-process figure is a lower bound.
Saved to ``benchmarks/results/scaling.json``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time

from common import check, load, save


def worker(args: tuple[int, int, float, object]) -> tuple[int, int, float]:
    index, n_workers, seconds, barrier = args
    t0 = time.perf_counter()
    import mmtsb_env
    from mmtsb_env.baselines import OracleAgent

    suite = mmtsb_env.load_suite("nominal")
    mine = [s for i, s in enumerate(suite) if i % n_workers == index][:60]
    env = mmtsb_env.make_env(suite="nominal")
    agent = OracleAgent(suite)

    def episode(scenario) -> bool:
        obs, info = env.reset(seed=0, options={"scenario": scenario.id})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
        return bool(info.get("verdict", {}).get("pass"))

    for s in mine:  # warm-up: draws and encodes this worker's images once
        episode(s)
    startup = time.perf_counter() - t0
    barrier.wait()  # every worker's timed window starts together, after every warm-up
    done = passed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        passed += episode(mine[done % len(mine)])
        done += 1
    return done, passed, startup


def rate(n_workers: int, seconds: float) -> tuple[float, float]:
    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager, ctx.Pool(n_workers) as pool:
        barrier = manager.Barrier(n_workers)
        results = pool.map(worker, [(i, n_workers, seconds, barrier) for i in range(n_workers)])
    episodes = sum(r[0] for r in results)
    check(all(r[0] == r[1] for r in results), "an oracle episode did not pass")
    return episodes / seconds, max(r[2] for r in results)


def ray_rate(n_workers: int, passes: int = 3) -> float:
    """Episodes/s of ``n_workers`` warm Ray actors sharing the first 120 nominal scenarios."""
    import ray

    import mmtsb_env
    from mmtsb_env.distributed import EpisodeWorker

    suite = mmtsb_env.load_suite("nominal")[:120]
    remote = ray.remote(num_cpus=1)(EpisodeWorker)
    shares = [[s for i, s in enumerate(suite) if i % n_workers == w] for w in range(n_workers)]
    actors = [remote.remote(share, "oracle") for share in shares]
    units = [[(i, 0) for i in range(len(share))] for share in shares]
    ray.get([a.play_many.remote(u) for a, u in zip(actors, units)])  # warm-up: images drawn once
    start = time.perf_counter()
    records = ray.get([a.play_many.remote(u * passes) for a, u in zip(actors, units)])
    elapsed = time.perf_counter() - start
    for a in actors:
        ray.kill(a)
    played = [r for rs in records for r in rs]
    check(len(played) == passes * len(suite) and all(r.passed for r in played), "a Ray oracle episode did not pass")
    return len(played) / elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    before = load()
    one, start1 = rate(1, args.seconds)
    two, start2 = rate(2, args.seconds)
    results = {"episodes_per_s": {"1": one, "2": two}, "startup_s": {"1": start1, "2": start2}}
    print(f"1 process: {one:.1f} episodes/s; 2 processes: {two:.1f} episodes/s ({two / one:.2f}x); "
          f"worker start-up incl. warm-up {start1:.1f} s / {start2:.1f} s")
    if not args.no_ray:
        import ray

        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            ray1, ray2 = ray_rate(1), ray_rate(2)
        finally:
            ray.shutdown()
        results["ray_episodes_per_s"] = {"1": ray1, "2": ray2}
        print(f"1 Ray actor: {ray1:.1f} episodes/s; 2 Ray actors: {ray2:.1f} episodes/s ({ray2 / ray1:.2f}x)")
    after = load()
    print(f"({before} before, {after} after)")
    save("scaling", {"load_before": before, "load_after": after, **results})


if __name__ == "__main__":
    main()
