"""End-to-end cost of a full evaluation run: ``mmtsb eval --suite nominal --agent oracle --out DIR``.

Run: python benchmarks/bench_eval_run.py [--repeats 3] [--harness paper] [--cpu 0]
Each repeat is a fresh process pinned to one CPU (``taskset`` when available) writing a new run
folder; prints the median wall time, the peak resident memory and the size of the run folder
(results.json, Parquet, report, viewer), with the CPU time used and the machine's load (on a
shared machine the CPU time is the steadier figure). Figures for the README; never timed tests.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def folder_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def one_run(args: argparse.Namespace, out: Path) -> dict[str, float]:
    cmd = [sys.executable, "-m", "mmtsb_env.cli", "eval", "--suite", args.suite, "--agent", args.agent,
           "--out", str(out), "--quiet"]
    if args.harness:
        cmd += ["--harness", args.harness]
    if args.cpu is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(args.cpu), *cmd]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    before, cpu_before = usage.ru_maxrss, usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"eval failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_kb = usage.ru_maxrss  # peak over the children so far
    cpu = usage.ru_utime + usage.ru_stime - cpu_before
    summary = json.loads((out / "results.json").read_text())["summary"]
    return {"wall_s": wall, "cpu_s": cpu, "peak_rss_mb": max(rss_kb, before) / 1024, "output_mb": folder_size(out) / 2**20,
            "episodes": summary["episodes"], "agent_sr": summary["agent_sr"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="nominal")
    parser.add_argument("--agent", default="oracle")
    parser.add_argument("--harness", default=None)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=0, help="pin to this CPU (-1: no pinning)")
    args = parser.parse_args()
    if args.cpu is not None and args.cpu < 0:
        args.cpu = None
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.repeats):
            out = Path(tmp) / f"run{k}"
            runs.append(one_run(args, out))
            print(f"run {k + 1}: {runs[-1]}", file=sys.stderr)
    med = {key: statistics.median(r[key] for r in runs) for key in ("wall_s", "cpu_s", "peak_rss_mb", "output_mb")}
    print(json.dumps({"suite": args.suite, "agent": args.agent, "harness": args.harness, "repeats": args.repeats,
                      "cpus": os.cpu_count(), "episodes": runs[0]["episodes"], "agent_sr": runs[0]["agent_sr"],
                      "load_average_1min": round(os.getloadavg()[0], 1),
                      "median_wall_s": round(med["wall_s"], 1), "median_cpu_s": round(med["cpu_s"], 1), "median_peak_rss_mb": round(med["peak_rss_mb"]),
                      "median_output_mb": round(med["output_mb"], 1)}, indent=2))


if __name__ == "__main__":
    main()
