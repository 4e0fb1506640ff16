"""Run the behaviour zoo and print its confusion matrix (the table in docs/evaluation.md).

    python scripts/zoo_matrix.py --suite demo --mode tool --mode code
    python scripts/zoo_matrix.py --suite nominal --sample 40 --mode tool

Rows: what a correct judge must say (``pass`` or the expected primary failure class); columns:
what the rubric judge said. Also prints accuracy (pass/fail right) and taxonomy agreement (on the
should-fail agents, the primary class right), overall and per behaviour.
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

import mmtsb_env
from mmtsb_env.baselines.zoo import ZOO
from mmtsb_env.evaluation.taxonomy import FAILURE_CLASSES, classify
from mmtsb_env.runner import run_episode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="demo")
    ap.add_argument("--sample", type=int, default=0, help="every k-th scenario so that about this many are run (0: all)")
    ap.add_argument("--mode", action="append", choices=["tool", "code"])
    ap.add_argument("--only", action="append", help="run only these behaviours (by name)")
    ap.add_argument("--show", action="store_true", help="print every episode the judge got wrong, with its failed criteria")
    args = ap.parse_args()
    scenarios = mmtsb_env.load_suite(args.suite)
    if args.sample:
        scenarios = scenarios[::max(1, len(scenarios) // args.sample)][:args.sample]
    matrix: Counter[tuple[str, str]] = Counter()
    per: dict[str, list[tuple[bool, bool | None]]] = defaultdict(list)
    for mode in args.mode or ["tool"]:
        for cls in [c for c in ZOO if not args.only or c.name in args.only]:
            for s in scenarios:
                if not cls.applies(s):
                    continue
                rec = run_episode(s, cls(scenarios, mode=mode), env_kwargs={"mode": mode})
                primary, _ = classify(rec.verdict)
                want = "pass" if cls.should_pass else cls.expected_category(s)
                got = "errored" if rec.error else ("pass" if rec.passed else primary)
                matrix[(want, got)] += 1
                if args.show and want != got:
                    print(f"{cls.name} {s.id} ({mode}): expected {want}, judged {got}",
                          [(c["criterion"], c.get("kind"), c["reason"][:200]) for c in rec.verdict["criteria"] if not c["pass"]])
                per[cls.name].append((rec.passed == cls.should_pass, None if cls.should_pass else got == want))
    labels = ["pass", *FAILURE_CLASSES, "errored"]
    rows = [lab for lab in labels if any(matrix[(lab, c)] for c in labels)]
    print("| expected \\ judged | " + " | ".join(labels) + " |")
    print("|" + "---|" * (len(labels) + 1))
    for r in rows:
        print(f"| {r} | " + " | ".join(str(matrix[(r, c)]) for c in labels) + " |")
    runs = [x for v in per.values() for x in v]
    fails = [t for _, t in runs if t is not None]
    print(f"\nepisodes {len(runs)}, accuracy {sum(a for a, _ in runs) / len(runs):.3f}, "
          f"taxonomy agreement {sum(fails) / len(fails):.3f}")
    for name, v in per.items():
        f = [t for _, t in v if t is not None]
        print(f"  {name}: {len(v)} episodes, accuracy {sum(a for a, _ in v) / len(v):.3f}"
              + (f", agreement {sum(f) / len(f):.3f}" if f else ""))


if __name__ == "__main__":
    main()
