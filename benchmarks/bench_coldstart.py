"""Cold start: a fresh Python process to the first observation (figure for the README).

Run: python benchmarks/bench_coldstart.py [--runs 5]
Each run is a new interpreter that imports mmtsb_env, makes the demo env and resets it; the child
checks the observation is real (text from the user, one drawn image) before reporting. Bytecode
caching is on in the children (a normal install), and one untimed run first writes the .pyc
files and the on-disk base world. Also prints the floor: python + numpy + gymnasium alone.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from common import check, load, save

CHILD = r"""
import time
t0 = time.perf_counter()
import mmtsb_env
env = mmtsb_env.make_env(suite="demo")
obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
dt = time.perf_counter() - t0
assert "User:" in obs["text"] and obs["image_count"] == 1 and obs["images"][0].any(), "not a real observation"
print(dt)
"""
FLOOR = "import time; t0 = time.perf_counter(); import numpy, gymnasium; print(time.perf_counter() - t0)"


def _run(code: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    check(out.returncode == 0, f"child failed: {out.stderr.strip()[-300:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    _run(CHILD, env)  # writes bytecode and the on-disk base world
    first = statistics.median(_run(CHILD, env) for _ in range(args.runs))
    floor = statistics.median(_run(FLOOR, env) for _ in range(args.runs))
    print(f"({load()})")
    print(f"cold start to the first observation: {first:.3f} s (python+numpy+gymnasium floor {floor:.3f} s)")
    save("coldstart", {"first_observation_s": first, "floor_s": floor})


if __name__ == "__main__":
    main()
