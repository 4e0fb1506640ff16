"""Cost of the user judge's counterfactual replay (figures for docs/users.md; not a test).

Run: python benchmarks/bench_counterfactual.py [--suites demo,nominal,ui] [--every 1]
Plays the oracle with the scripted user on every ``--every``-th scenario of each suite and prints,
per suite, the mean time of one episode and of its replay (mmtsb_env.users.counterfactual.replay),
and any episode whose replay was not clean (a changed turn, diverged, or an error).
"""

from __future__ import annotations

import argparse
import time

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.users.counterfactual import replay


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--suites", default="demo,nominal,ui")
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args()
    for suite in args.suites.split(","):
        scenarios = mmtsb_env.load_suite(suite)[:: args.every]
        agent = OracleAgent(scenarios)
        played = replayed = 0.0
        for scenario in scenarios:
            env = mmtsb_env.make_env(scenarios=[scenario])
            start = time.perf_counter()
            obs, info = env.reset(seed=0)
            while not env.episode.done:
                obs, _, _, _, info = env.step(agent.act(obs, info))
            middle = time.perf_counter()
            result = replay(env.episode, env.user)
            played, replayed = played + middle - start, replayed + time.perf_counter() - middle
            if result.difference or result.diverged or result.error:
                print(f"  {scenario.id}: {result.to_json()}")
        n = max(len(scenarios), 1)
        print(f"{suite:10s} n={len(scenarios):4d} episode={1000 * played / n:7.1f} ms  replay={1000 * replayed / n:6.1f} ms",
              flush=True)


if __name__ == "__main__":
    main()
