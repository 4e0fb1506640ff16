"""Timing of the image side: render families (cold and cached), letterbox, encoding and tool calls.

Usage: python benchmarks/bench_vision.py [--repeat N] [--difficulty D ...] [--kinds K ...] [--clock cpu] [--json] [--save]

Medians in milliseconds. "cold" renders a new spec each time (no cache) and reads ``.image``, so
the REAL pixels are drawn (degradations included; the script checks the pixels came out and are
not a blank draft stand-in); "facts" is the draft pass alone (what ``render(spec).facts`` costs);
"cached" repeats one spec (a cache hit: hash of the spec + a copy of the facts). Each family's
row also gives its image size and group (the paper's Table 12). ``--clock cpu`` times with the
process's CPU clock instead of the wall clock: on a shared, loaded machine the wall clock also
counts the time other processes hold the core, the CPU clock much less so. The load average is
printed before and after. ``--save`` also writes the figures to ``benchmarks/results/vision.json``.
Before/after comparisons of two checkouts: ``benchmarks/compare_vision.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402

from common import save  # noqa: E402
from mmtsb_env.tools.calling import invoke  # noqa: E402
from mmtsb_env.vision import ImageStore, letterbox, to_data_url  # noqa: E402
from mmtsb_env.vision.render import clear_cache, kinds, render  # noqa: E402
from mmtsb_env.vision.render._common import TEXTURES, _surface_tile  # noqa: E402
from mmtsb_env.vision.render.groups import group_of  # noqa: E402
from mmtsb_env.world import Layer, World  # noqa: E402


CLOCK = time.perf_counter


def median_ms(fn, repeat: int) -> float:
    times = []
    for i in range(repeat):
        t = CLOCK()
        fn(i)
        times.append((CLOCK() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--difficulty", type=int, nargs="*", default=[0, 1, 2, 3])
    ap.add_argument("--kinds", nargs="*", default=None, help="families to time (default: all)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="wall clock (default) or this process's CPU time")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    ap.add_argument("--save", action="store_true", help="also write benchmarks/results/vision.json")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    n = args.repeat
    out: dict[str, object] = {"repeat": n, "clock": args.clock, "load_before": os.getloadavg()[0]}

    chosen = args.kinds or kinds()
    unknown = sorted(set(chosen) - set(kinds()))
    if unknown:
        ap.error(f"unknown families {unknown}; valid: {', '.join(kinds())}")
    # warm imports, fonts and every cached surface tile once (a tile is drawn once per process, ~40 ms
    # each, on the first photo of that surface; six of them), so "cold" measures rendering
    for surface in TEXTURES:
        if surface != "paper":
            _surface_tile(surface, None)
    for kind in chosen:
        for d in args.difficulty:
            render({"kind": kind, "seed": 10**6, "difficulty": d}, use_cache=False).image

    def cold_ms(kind: str, d: int) -> float:
        """Median time of drawing ``n`` new specs; each is checked for real pixels after its timing
        (the check -- a standard deviation over ~3 M values, ~6 ms -- was once inside it)."""
        times = []
        for i in range(n):
            spec = {"kind": kind, "seed": 1000 + i, "difficulty": d}
            t = CLOCK()
            image = render(spec, use_cache=False).image
            times.append((CLOCK() - t) * 1000)
            assert np.asarray(image).std() > 1.0, f"{kind}: the pixels look like a blank stand-in"
        return statistics.median(times)

    families = {}
    for kind in chosen:
        row: dict[str, object] = {"group": group_of(kind)}
        for d in args.difficulty:
            row[f"cold_d{d}"] = cold_ms(kind, d)
        row["facts"] = median_ms(lambda i: render({"kind": kind, "seed": 2000 + i}, use_cache=False).facts, n)
        row["size"] = "x".join(map(str, render({"kind": kind, "seed": 1}).image.size))
        clear_cache()
        spec = {"kind": kind, "seed": 1}
        render(spec)
        row["cached"] = median_ms(lambda i: render(spec), max(n, 50))
        families[kind] = row
    out["render_ms"] = families

    img = Image.fromarray(np.random.default_rng(0).integers(0, 255, (768, 1024, 3), dtype=np.uint8))
    out["letterbox_1024x768_to_448x448_ms"] = median_ms(lambda i: letterbox(img, 448, 448), max(n, 30))
    doc = render({"kind": "invoice", "seed": 1}).image
    out["to_data_url_invoice_ms"] = median_ms(lambda i: to_data_url(doc), n)

    world = World(Layer(), services={"images": ImageStore([img])})
    box = {"image_id": 0, "left": 100, "upper": 150, "right": 800, "lower": 900}
    out["crop_tool_call_ms"] = median_ms(lambda i: invoke(world, "crop_image", box), max(n, 30))
    out["draw_bbox_tool_call_ms"] = median_ms(lambda i: invoke(world, "draw_bbox", box), max(n, 30))
    out["plot_bar_tool_call_ms"] = median_ms(
        lambda i: invoke(world, "plot", {"type": "bar", "heights": [1, 2, 3 + i], "categories": ["a", "b", "c"]}), n)

    out["load_after"] = os.getloadavg()[0]
    if args.save:
        save("vision", out)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    cols = [f"cold_d{d}" for d in args.difficulty] + ["facts", "cached"]
    print(f"surface tiles drawn before timing (once per process): {len(TEXTURES) - 1}")
    print(f"render medians in ms ({args.clock} clock) over {n} runs (cached over {max(n, 50)}); cold = real pixels drawn; "
          f"load average {out['load_before']:.2f} before, {out['load_after']:.2f} after")
    print(f"{'family':18s}{'group':>19s}{'size':>11s}" + "".join(f"{c:>10s}" for c in cols))
    for kind, row in families.items():
        print(f"{kind:18s}{row['group']:>19s}{row['size']:>11s}" + "".join(f"{row[c]:10.2f}" for c in cols))
    for key, value in out.items():
        if key.endswith("_ms") and not isinstance(value, dict):
            print(f"{key:40s} {value:8.3f}")


if __name__ == "__main__":
    main()
