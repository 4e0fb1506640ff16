"""Audit: does any user turn depend on a hidden value or on the world? (figures for docs/users.md;
not a test).

Run: python benchmarks/audit_user_blindness.py [--suites nominal,ui] [--reference DIR] [--agents oracle,misreads]
``--reference DIR`` adds the scenario files of ``mmtsb import-reference ... --out DIR`` (played by the
reference oracle, with stand-in images for missing files).

Each episode (the scripted user; the oracle, and zoo agents that write and report wrong values) is
replayed verbatim by :func:`mmtsb_env.users.counterfactual.replay` against the same user on copies
of the scenario whose hidden fields changed: every hidden text a marker (``zqhidden0007``), every
number, date and flag another, the world rebuilt on another seed (the right world becomes a wrong
one), then every hidden list emptied or filled. It prints, per suite and agent, how many episodes
replayed with byte-identical user turns, and every one that did not (a changed turn with its round,
or an inconclusive replay), and whether a marker reached any user turn of a copy.
"""

from __future__ import annotations

import argparse
import glob
import os
from collections import Counter

import mmtsb_env
from mmtsb_env.baselines import OracleAgent, ReferenceOracleAgent
from mmtsb_env.baselines.zoo import ZOO
from mmtsb_env.scenario.suites import load_scenario
from mmtsb_env.users.counterfactual import replay


def _suites(names: str, reference: str) -> list[tuple[str, list]]:
    out = [(name, mmtsb_env.load_suite(name)) for name in names.split(",") if name]
    if reference:
        files = sorted(glob.glob(os.path.join(reference, "*.json")))
        out.append(("reference", [load_scenario(f) for f in files if not os.path.basename(f).startswith("import_")]))
    return out


def _agents(names: str, suite: str, scenarios: list) -> list[tuple[str, object, object]]:
    zoo = {cls.name: cls for cls in ZOO}
    out = []
    for name in names.split(","):
        if name == "oracle":
            make = (lambda: ReferenceOracleAgent(scenarios)) if suite == "reference" else (lambda: OracleAgent(scenarios))
            out.append((name, make, lambda s: True))
        elif name in zoo and suite != "reference":
            cls = zoo[name]
            out.append((name, (lambda c=cls: c(scenarios)), cls.applies))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--suites", default="nominal,ui")
    ap.add_argument("--reference", default="")
    ap.add_argument("--agents", default="oracle,misreads,wrong_number_in_reply,number_carpet")
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args()
    for suite, scenarios in _suites(args.suites, args.reference):
        scenarios = scenarios[:: args.every]
        for name, make, applies in _agents(args.agents, suite, scenarios):
            tally: Counter = Counter()
            for scenario in scenarios:
                if not applies(scenario):
                    continue
                env = mmtsb_env.make_env(scenarios=[scenario], stand_in_images=suite == "reference")
                agent = make()
                obs, info = env.reset(seed=0)
                while not env.episode.done:
                    obs, _, _, _, info = env.step(agent.act(obs, info))
                result = replay(env.episode, env.user)
                tally["episodes"] += 1
                tally["user_turns"] += result.turns
                if result.difference:
                    tally["changed"] += 1
                    print(f"  CHANGED {suite}/{name} {scenario.id}: {result.difference}", flush=True)
                elif result.diverged or result.error:
                    tally["inconclusive"] += 1
                    print(f"  INCONCLUSIVE {suite}/{name} {scenario.id}: {result.diverged or result.error}", flush=True)
                else:
                    tally["identical"] += 1
                tally["fed_recorded"] += bool(result.fed)
                env.close()
            print(f"{suite:10s} {name:22s} episodes={tally['episodes']:4d} identical={tally['identical']:4d} "
                  f"changed={tally['changed']} inconclusive={tally['inconclusive']} user_turns={tally['user_turns']} "
                  f"fed_recorded={tally['fed_recorded']}", flush=True)


if __name__ == "__main__":
    main()
