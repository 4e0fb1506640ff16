"""Agent SR and User SR of the oracle and the behaviour zoo under the current user rules
(figures for docs/users.md; not a test).

Run: python benchmarks/user_scores.py [--suites demo,nominal] [--mode tool] [--json OUT]
Prints, per agent: episodes, Agent SR (the rubric verdict), User SR (the deterministic user
judge), the give-up rate and mean redirects/nudges per episode, and the zoo's expected verdicts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict

import mmtsb_env
from mmtsb_env.baselines.oracle import OracleAgent
from mmtsb_env.baselines.zoo import ZOO
from mmtsb_env.runner import run_episode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--suites", default="demo,nominal")
    ap.add_argument("--mode", default="tool")
    ap.add_argument("--json", default="")
    ap.add_argument("--agents", default="")
    args = ap.parse_args()
    scenarios = [s for name in args.suites.split(",") for s in mmtsb_env.load_suite(name)]
    agents = [("oracle", lambda: OracleAgent(scenarios, mode=args.mode), lambda s: True, True)]
    agents += [(cls.name, (lambda c=cls: c(scenarios, mode=args.mode)), cls.applies, cls.should_pass) for cls in ZOO]
    if args.agents:
        keep = set(args.agents.split(","))
        agents = [a for a in agents if a[0] in keep]
    rows = {}
    for name, make, applies, should_pass in agents:
        agg = defaultdict(float)
        failing_user: list[str] = []
        for s in scenarios:
            if not applies(s):
                continue
            rec = run_episode(s, make(), env_kwargs={"mode": args.mode})
            dyn = rec.user_dynamics or {}
            agg["n"] += 1
            agg["agent_pass"] += bool(rec.passed)
            agg["user_pass"] += bool(rec.user_verdict.get("pass"))
            agg["gave_up"] += bool(dyn.get("gave_up"))
            agg["redirects"] += dyn.get("redirects", 0)
            agg["nudges"] += dyn.get("nudges", 0)
            if not rec.user_verdict.get("pass"):
                failing_user.append(s.id)
        n = max(agg["n"], 1)
        rows[name] = {"episodes": int(agg["n"]), "should_pass": should_pass,
                      "agent_sr": round(agg["agent_pass"] / n, 3), "user_sr": round(agg["user_pass"] / n, 3),
                      "give_up_rate": round(agg["gave_up"] / n, 3), "redirects": round(agg["redirects"] / n, 2),
                      "nudges": round(agg["nudges"] / n, 2), "user_failed": failing_user[:10]}
        r = rows[name]
        print(f"{name:22s} n={r['episodes']:4d} agent_sr={r['agent_sr']:.3f} user_sr={r['user_sr']:.3f} "
              f"give_up={r['give_up_rate']:.3f} nudges={r['nudges']:.2f} redirects={r['redirects']:.2f} "
              f"user_failed={r['user_failed'][:3]}", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())
