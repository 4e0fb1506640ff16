"""Cold start: a fresh Python process to the first observation (figure for the README).

Run: python benchmarks/bench_coldstart.py [--runs 5]
Each run is a new interpreter that imports mmtsb_env, makes the demo env (and, separately, the
default nominal env) and resets it; the child checks the observation is real (text from the user,
drawn images; for nominal also the offered tools and the messages' PNG data URLs) before
reporting wall and CPU time (CPU time is what a loaded shared machine distorts least). Bytecode
caching is on in the children (a normal install). The children share one cache folder of the
benchmark's own (``MMTSB_CACHE_DIR``: the base world and the tool schemas); one untimed run first
writes the .pyc files and fills it. The nominal env is also timed with caches empty: a folder
holding only the base world (the first process after a code change: every offered tool's
schema is parsed) and, in fewer runs, an empty folder (the first process ever: the base world is
built too); and with the opt-in image disk cache (``MMTSB_IMAGE_CACHE_DIR``) filled by an earlier
run, i.e. what is left when nothing is drawn. Also prints the floor: python + numpy + gymnasium alone.
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
IMAGE_CACHE_ENV = "MMTSB_IMAGE_CACHE_DIR"  # the opt-in disk cache of image products (mmtsb_env.vision.disk)

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
        schemas_empty = [_run(CHILD, {**env, CACHE_DIR_ENV: str(_seeded(root, warm))}, "nominal") for _ in range(args.runs)]
        results["nominal, schema cache empty"] = _medians(schemas_empty)
        first_ever = [_run(CHILD, {**env, CACHE_DIR_ENV: tempfile.mkdtemp(dir=root)}, "nominal")
                      for _ in range(max(1, args.runs // 2))]
        results["nominal, empty cache folder"] = _medians(first_ever)
        images = {**env, IMAGE_CACHE_ENV: str(root / "images")}  # opt-in: what is left when nothing is drawn
        _run(CHILD, images, "nominal")  # fills it
        results["nominal, image disk cache filled (opt-in)"] = _medians([_run(CHILD, images, "nominal") for _ in range(args.runs)])
    floor = _medians([_run(FLOOR, env) for _ in range(args.runs)])
    for suite, (wall, cpu) in results.items():
        print(f"cold start to the first observation, {suite}: {wall:.3f} s wall, {cpu:.3f} s CPU")
    print(f"python+numpy+gymnasium floor: {floor[0]:.3f} s wall, {floor[1]:.3f} s CPU")
    print(f"({load()})")
    save("coldstart", {"first_observation_s": results["demo"][0], "first_observation_cpu_s": results["demo"][1],
                       "nominal_first_observation_s": results["nominal"][0],
                       "nominal_first_observation_cpu_s": results["nominal"][1],
                       "nominal_schema_cache_empty_s": results["nominal, schema cache empty"][0],
                       "nominal_schema_cache_empty_cpu_s": results["nominal, schema cache empty"][1],
                       "nominal_empty_cache_s": results["nominal, empty cache folder"][0],
                       "nominal_empty_cache_cpu_s": results["nominal, empty cache folder"][1],
                       "nominal_image_cache_s": results["nominal, image disk cache filled (opt-in)"][0],
                       "nominal_image_cache_cpu_s": results["nominal, image disk cache filled (opt-in)"][1],
                       "floor_s": floor[0], "floor_cpu_s": floor[1]})


if __name__ == "__main__":
    main()
