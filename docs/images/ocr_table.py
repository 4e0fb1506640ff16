"""Print the OCR calibration table of docs/images.md: every family of ``ocr.NEEDED``, each level's
share of the needed values tesseract reads as delivered / with the visual tools, pooled over the
calibration seeds (``ocr.CALIBRATION_SEEDS``, those the OCR test pools) unless ``--seeds``.

Usage: python docs/images/ocr_table.py [--seeds 0 1 2] [--kinds K ...] [--levels 2 3] [--workers 2]
The time is tesseract's (about 6 minutes for every family over seeds 0-9 on an idle 2-core machine).
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mmtsb_env.generation.ocr import CALIBRATION_SEEDS, NEEDED, level_reading  # noqa: E402

LEVELS = range(4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(CALIBRATION_SEEDS))
    ap.add_argument("--kinds", nargs="+", default=sorted(NEEDED), choices=sorted(NEEDED), metavar="KIND")
    ap.add_argument("--levels", type=int, nargs="+", default=list(LEVELS), choices=list(LEVELS))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    keys = [(kind, d) for kind in args.kinds for d in args.levels]
    with ThreadPoolExecutor(args.workers) as pool:  # tesseract runs in subprocesses
        readings = dict(zip(keys, pool.map(lambda key: level_reading(*key, seeds=args.seeds), keys)))
    print("| family | values read | " + " | ".join(f"level {d}" for d in args.levels) + " |")
    print("|---|---|" + "---|" * len(args.levels))
    for kind in args.kinds:
        cells = [f"{readings[kind, d].plain_share:.0%} / {readings[kind, d].assisted_share:.0%}" for d in args.levels]
        print(f"| `{kind}` | {readings[kind, args.levels[0]].facts} | " + " | ".join(cells).replace("%", " %") + " |")


if __name__ == "__main__":
    main()
