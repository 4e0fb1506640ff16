"""Cold start: a fresh Python process to the first observation (figure for the README).

Run: python benchmarks/bench_coldstart.py [--runs 5]
Each run is a new interpreter that imports mmtsb_env, makes the demo env (and, separately, the
default nominal env) and resets it; the child checks the observation is real (text from the user,
drawn images; for nominal also the offered tools and the messages' PNG data URLs) before
reporting wall and CPU time (CPU time is what a loaded shared machine distorts least). Bytecode
caching is on in the children (a normal install). The children share one cache folder of the
benchmark's own (``MMTSB_CACHE_DIR``: the base world, the tool schemas and the image products);
one untimed run first writes the .pyc files and fills it -- the default path of every process
after the first. The nominal env is also timed with the image cache off (``MMTSB_IMAGE_CACHE_DIR=""``:
every image drawn), after a code change (a folder holding only the base world: schemas parsed and
images drawn again) and, in fewer runs, with an empty folder (the first process ever: the base
world is built too). Also prints the floor: python + numpy + gymnasium alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import check, load, save

CACHE_DIR_ENV = "MMTSB_CACHE_DIR"  # the base world and tool schemas (mmtsb_env.world.base, tools.schema_cache)
IMAGE_CACHE_ENV = "MMTSB_IMAGE_CACHE_DIR"  # the image products' folder, "" : off (default: under MMTSB_CACHE_DIR)

CHILD = r"""
import sys, time
t0, c0 = time.perf_counter(), time.process_time()
import mmtsb_env
if sys.argv[1] == "demo":
    env = mmtsb_env.make_env(suite="demo")
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert obs["image_count"] == 1 and obs["images"][0].any(), "no image drawn"
else:  # the default env of a generated suite: its first scenario
    env = mmtsb_env.make_env(suite=sys.argv[1])
    obs, info = env.reset(seed=0)
dt, cpu = time.perf_counter() - t0, time.process_time() - c0
assert "User:" in obs["text"], "not a real observation"
if sys.argv[1] != "demo":
    assert obs["image_count"] >= 1 and all(obs["images"][i].any() for i in range(obs["image_count"])), "no image drawn"
    assert len(info["tools"]) > 100 and all(t["function"]["description"] for t in info["tools"]), "no real tools"
    urls = [p["image_url"]["url"] for m in info["messages"] if isinstance(m["content"], list)
            for p in m["content"] if p["type"] == "image_url"]
    assert len(urls) == obs["image_count"] and all(u.startswith("data:image/png;base64,") and len(u) > 1000 for u in urls)
print(dt, cpu)
"""
FLOOR = ("import time; t0, c0 = time.perf_counter(), time.process_time(); import numpy, gymnasium; "
         "print(time.perf_counter() - t0, time.process_time() - c0)")


def _run(code: str, env: dict[str, str], *args: str) -> tuple[float, float]:
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, check=False)
    check(out.returncode == 0, f"child failed: {out.stderr.strip()[-300:]}")
    wall, cpu = out.stdout.strip().splitlines()[-1].split()
    return float(wall), float(cpu)


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def _seeded(root: Path, warm: Path) -> Path:
    """A fresh cache folder under ``root`` holding only the base world(s) of ``warm``."""
    folder = Path(tempfile.mkdtemp(dir=root))
    for path in warm.glob("base_world_*.pickle"):
        shutil.copy(path, folder / path.name)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", IMAGE_CACHE_ENV)}
    results = {}
    print(f"({load()})")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        warm = root / "warm"
        env[CACHE_DIR_ENV] = str(warm)
        for suite in ("demo", "nominal"):
            _run(CHILD, env, suite)  # writes bytecode, the base world and the schemas
            runs = []
            for _ in range(args.runs):  # interleaved with the floor: both see the same load
                runs.append(_run(CHILD, env, suite))
            results[suite] = _medians(runs)
        drawn = {**env, IMAGE_CACHE_ENV: ""}
        results["nominal, images drawn (image cache off)"] = _medians([_run(CHILD, drawn, "nominal") for _ in range(args.runs)])
        changed = [_run(CHILD, {**env, CACHE_DIR_ENV: str(_seeded(root, warm))}, "nominal") for _ in range(args.runs)]
        results["nominal, after a code change (schemas parsed, images drawn)"] = _medians(changed)
        first_ever = [_run(CHILD, {**env, CACHE_DIR_ENV: tempfile.mkdtemp(dir=root)}, "nominal")
                      for _ in range(max(1, args.runs // 2))]
        results["nominal, empty cache folder (first process ever)"] = _medians(first_ever)
    floor = _medians([_run(FLOOR, env) for _ in range(args.runs)])
    for suite, (wall, cpu) in results.items():
        print(f"cold start to the first observation, {suite}: {wall:.3f} s wall, {cpu:.3f} s CPU")
    print(f"python+numpy+gymnasium floor: {floor[0]:.3f} s wall, {floor[1]:.3f} s CPU")
    print(f"({load()})")
    save("coldstart", {"first_observation_s": results["demo"][0], "first_observation_cpu_s": results["demo"][1],
                       "nominal_first_observation_s": results["nominal"][0],
                       "nominal_first_observation_cpu_s": results["nominal"][1],
                       "nominal_images_drawn_s": results["nominal, images drawn (image cache off)"][0],
                       "nominal_images_drawn_cpu_s": results["nominal, images drawn (image cache off)"][1],
                       "nominal_after_code_change_s": results["nominal, after a code change (schemas parsed, images drawn)"][0],
                       "nominal_after_code_change_cpu_s": results["nominal, after a code change (schemas parsed, images drawn)"][1],
                       "nominal_empty_cache_s": results["nominal, empty cache folder (first process ever)"][0],
                       "nominal_empty_cache_cpu_s": results["nominal, empty cache folder (first process ever)"][1],
                       "floor_s": floor[0], "floor_cpu_s": floor[1]})


if __name__ == "__main__":
    main()
