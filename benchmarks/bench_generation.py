"""Speed of the scenario generator, full verification of a suite, and the OCR legibility figure.

Usage:
  python benchmarks/bench_generation.py [--n 40] [--seed 0] [--json]       # scenarios/second per verification level
  python benchmarks/bench_generation.py --batch 1000 [--workers 1 2]        # verified scenarios per minute, generate()
  python benchmarks/bench_generation.py --suite nominal                     # verify (and draw) every scenario of a suite
  python benchmarks/bench_generation.py --ocr [--per-category 2]            # tesseract legibility (needs tesseract-ocr)

Per level, the median seconds per scenario over ``--n`` scenarios (one ``generate_one`` call
each, cells visited round-robin, after a warm-up) and the resulting scenarios/second:
``compose`` (no checks), ``static`` (structure, render specs validated without drawing,
image-value necessity), ``tool`` (+ oracle episode in tool mode), ``full`` (+ code mode when the
sandbox works; the default). ``--batch`` times whole ``generate(n, verify=True)`` calls from a
fresh process per worker count (start-up included) and checks they return the same scenarios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmtsb_env.generation import cells, check_distribution, generate_one, verify  # noqa: E402
from mmtsb_env.generation.verify import release, sandbox_status  # noqa: E402


def speed(n: int, seed: int) -> dict[str, dict[str, float]]:
    grid = cells()
    out = {}
    for k in range(10):  # build the base world, its index and the tool registry; warm the caches
        generate_one(seed + 10_000 + k, *grid[k], verify=True)
    for level in (False, "static", "tool", True):
        times = []
        for k in range(n):
            f, c, a = grid[(k * 37) % len(grid)]
            t = time.perf_counter()
            generate_one(seed + k, f, c, a, verify=level)
            times.append(time.perf_counter() - t)
        med = statistics.median(times)
        name = {False: "compose", "static": "static", "tool": "tool", True: "full"}[level]
        out[name] = {"median_s": round(med, 4), "scenarios_per_second": round(1 / med, 2) if med else 0.0,
                     "mean_scenarios_per_second": round(n / sum(times), 2)}
    return out


def batch(n: int, seed: int, workers: list[int]) -> dict:
    import subprocess

    out = {}
    digests = set()
    for w in workers:
        code = (f"import time, hashlib, json, gc\n"
                f"from mmtsb_env.generation import generate\n"
                f"from mmtsb_env.generation.world_index import world_index\n"
                f"if __name__ == '__main__':\n"
                f"    t = time.perf_counter(); world_index(0); gc.collect(); gc.freeze()\n"
                f"    out = generate({n}, seed={seed}, verify=True, workers={w})\n"
                f"    dt = time.perf_counter() - t\n"
                f"    digest = hashlib.sha256(json.dumps([s.to_dict() for s in out], sort_keys=True, default=str).encode()).hexdigest()\n"
                f"    print(json.dumps({{'seconds': dt, 'digest': digest}}))\n")
        res = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
        digests.add(res["digest"])
        out[f"workers={w}"] = {"seconds": round(res["seconds"], 1), "scenarios_per_minute": round(60 * n / res["seconds"])}
    return {"n": n, "same_scenarios": len(digests) == 1, **out}


def verify_suite(name: str) -> dict:
    import mmtsb_env

    suite = mmtsb_env.load_suite(name)
    problems: Counter = Counter()
    failed = []
    code_mode = Counter()
    t = time.perf_counter()
    for s in suite:
        r = verify(s, render_images=True)
        release(s)
        code_mode[r.code_mode] += 1
        if not r.ok:
            failed.append(s.id)
            for p in r.problems:
                problems[p[:120]] += 1
    dist = check_distribution(suite, min_per_cell=2)
    return {"suite": name, "scenarios": len(suite), "verified": len(suite) - len(failed), "failed": failed[:20],
            "problems": dict(problems.most_common(20)), "code_mode": dict(code_mode), "seconds": round(time.perf_counter() - t, 1),
            "cells_covered": dist.cells_covered, "min_per_cell": dist.min_per_cell, "distribution_ok": dist.ok,
            "distribution": dist.counts}


def ocr(per_category: int, seed: int) -> dict:
    from mmtsb_env.generation.legibility import legibility
    from mmtsb_env.generation.ocr import tesseract_available

    if not tesseract_available():
        return {"skipped": "tesseract not installed (apt-get install -y tesseract-ocr)"}
    r = legibility(n_scenarios=per_category, seed=seed)
    return {"images": r.images, "facts": r.facts, "recovered": r.recovered, "share": round(r.share, 3),
            "by_category": r.by_category, "examples_missed": r.misses[:10]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--suite", help="verify every scenario of this suite instead")
    ap.add_argument("--ocr", action="store_true", help="measure OCR legibility instead")
    ap.add_argument("--per-category", type=int, default=2)
    ap.add_argument("--batch", type=int, help="time generate(BATCH, verify=True) instead")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.batch:
        result = batch(args.batch, args.seed, args.workers)
    elif args.suite:
        result = verify_suite(args.suite)
    elif args.ocr:
        result = ocr(args.per_category, args.seed)
    else:
        result = {"n": args.n, "sandbox": sandbox_status(), "levels": speed(args.n, args.seed)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    if "levels" in result:
        print(f"generator speed over {result['n']} scenarios (sandbox: {result['sandbox']})")
        for name, v in result["levels"].items():
            print(f"  {name:8s} median {v['median_s'] * 1000:8.1f} ms/scenario  = {v['scenarios_per_second']:6.2f} scenarios/s "
                  f"(mean {v['mean_scenarios_per_second']:.2f}/s)")
    else:
        print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
