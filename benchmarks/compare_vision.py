"""Render timings of two checkouts side by side: alternated per family and level, so both see the same load.

Usage: python benchmarks/compare_vision.py BASE_DIR [--kinds K ...] [--difficulty D ...] [--repeat N] [--rounds R]

``BASE_DIR`` is another checkout of the project (e.g. ``git archive <commit> | tar -x -C /tmp/base``);
it is compared with this one. Each side runs in its own process (imports, fonts and surface tiles
warmed once); for every family and level the two draw the same specs (``--repeat`` seeds, real
pixels, uncached) one after the other, the order swapping each round, and each cell reports the
lowest of the ``--rounds`` medians (ms, this process's CPU clock): on a shared machine the minimum
is the figure least inflated by the other jobs. The load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def worker(root: str) -> None:
    """Serve ``kind level repeat`` requests on stdin with the median CPU ms of drawing them."""
    sys.path.insert(0, root)
    import mmtsb_env
    from mmtsb_env.vision.render import render
    from mmtsb_env.vision.render._common import TEXTURES, _surface_tile

    if not mmtsb_env.__file__.startswith(root):
        raise SystemExit(f"{root}: imported {mmtsb_env.__file__} instead")
    for surface in TEXTURES[1:]:
        _surface_tile(surface, None)
    print("ready", flush=True)
    for line in sys.stdin:
        kind, d, n = line.split()
        render({"kind": kind, "seed": 10**6, "difficulty": int(d)}, use_cache=False).image
        times = []
        for i in range(int(n)):
            t = time.process_time()
            image = render({"kind": kind, "seed": 1000 + i, "difficulty": int(d)}, use_cache=False).image
            times.append((time.process_time() - t) * 1000)
            if image.getextrema()[0][0] == image.getextrema()[0][1]:
                raise SystemExit(f"{kind}: a blank image")
        print(json.dumps(statistics.median(times)), flush=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        return worker(sys.argv[2])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base")
    ap.add_argument("--kinds", nargs="*", default=None, help="families (default: all of this checkout)")
    ap.add_argument("--difficulty", type=int, nargs="*", default=[0, 1, 2, 3])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", metavar="PATH", help="also write the figures there")
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from mmtsb_env.vision.render import kinds

    chosen = args.kinds or kinds()
    sides = {name: subprocess.Popen([sys.executable, __file__, "--worker", str(Path(root).resolve())], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, text=True)
             for name, root in (("base", args.base), ("this", str(HERE)))}
    for p in sides.values():
        if p.stdout.readline().strip() != "ready":
            raise SystemExit("a worker failed to start")
    medians: dict[tuple, list[float]] = {}
    loads = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for kind in chosen:
            for d in args.difficulty:
                for name in ("base", "this") if r % 2 == 0 else ("this", "base"):
                    p = sides[name]
                    p.stdin.write(f"{kind} {d} {args.repeat}\n")
                    p.stdin.flush()
                    medians.setdefault((kind, d, name), []).append(json.loads(p.stdout.readline()))
        loads.append(os.getloadavg()[0])
    for p in sides.values():
        p.stdin.close()
        p.wait()
    table = {kind: {f"d{d}": [round(min(medians[kind, d, "base"]), 1), round(min(medians[kind, d, "this"]), 1)]
                    for d in args.difficulty} for kind in chosen}
    print(f"ms, CPU clock, lowest of {args.rounds} medians of {args.repeat}; base -> this; "
          f"load average {min(loads):.1f}-{max(loads):.1f} on {os.cpu_count()} cores")
    for kind, row in table.items():
        print(f"{kind:18s}" + " | ".join(f"d{d} {row[f'd{d}'][0]:6.1f} -> {row[f'd{d}'][1]:6.1f}" for d in args.difficulty))
    if args.json:
        Path(args.json).write_text(json.dumps({"load": [min(loads), max(loads)], "base": args.base, "ms": table}, indent=1))


if __name__ == "__main__":
    main()
