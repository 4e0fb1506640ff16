"""How much of what a suite's tasks read from images can plain OCR get, and how much the visual tools
bring back: tesseract over a sample of a suite's images, as delivered ("plain") and through the
views the agent's tools make ("assisted": turned upright, cropped to the document, zoomed 2x, then
with raised contrast; ``ocr.read_values``). The values are those of ``ocr.NEEDED`` for the image's
family (what the scenarios ask of it); a chart value read off its axis (no value printed) is no
OCR task and is counted apart, and so is a line of a note in a real handwriting face (tesseract
reads none of those; ``vision.hand_check`` judges them instead). Also prints the level mix and the
Table 12 group shares.

Usage: python benchmarks/ocr_suite_sample.py [--suite nominal] [--scenarios 30] [--seed 0]
About a second of tesseract per image on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmtsb_env.generation.ocr import NEEDED, NOT_TEXT, read_values  # noqa: E402
from mmtsb_env.scenario.suites import load_suite  # noqa: E402
from mmtsb_env.vision.fonts import HANDS  # noqa: E402
from mmtsb_env.vision.render import render  # noqa: E402
from mmtsb_env.vision.render.groups import GROUP_NAMES, group_of  # noqa: E402

# the paper's Table 12: share of its 258 scenarios with an image of each group
PAPER_GROUPS = {"natural_text_rich": 0.39, "natural_less_text": 0.28, "documents_charts": 0.47, "ui": 0.17}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default="nominal")
    ap.add_argument("--scenarios", type=int, default=30, help="scenarios sampled (every image of each is read)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    suite = load_suite(args.suite)
    images = [sp for s in suite for sp in s.images if sp.render]
    levels = Counter(sp.render["difficulty"] for sp in images)
    print(f"{args.suite}: {len(suite)} scenarios, {len(images)} images; levels "
          + ", ".join(f"{lv}: {levels[lv]} ({levels[lv] / len(images):.0%})" for lv in range(4))
          + f"; levels 2-3: {(levels[2] + levels[3]) / len(images):.1%}")
    groups = Counter(g for s in suite for g in {group_of(sp.render["kind"]) for sp in s.images if sp.render})
    for g in GROUP_NAMES:
        print(f"  group {g}: {groups[g]} scenarios ({groups[g] / len(suite):.1%}), paper {PAPER_GROUPS[g]:.0%}")
    sample = random.Random(args.seed).sample(suite, min(args.scenarios, len(suite)))
    per_level: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])  # values, plain, assisted
    off_axis = handwritten = 0
    for s in sample:
        for sp in s.images:
            kind = sp.render["kind"]
            if kind in NOT_TEXT or kind not in NEEDED:
                continue
            r = render(sp.render)
            values = NEEDED[kind](r.facts)
            if kind == "handwritten_note" and r.facts["style"] in HANDS:
                handwritten += len(values)  # a real hand: the handwriting check's, not tesseract's
                continue
            if kind == "chart_read" and not r.facts["value_labels"]:
                off_axis += len(values)  # read off the gridlines, not OCR
                values = list(r.facts["labels"])
            elif kind in ("bar_chart", "line_chart") and not r.facts["value_labels"]:
                off_axis += len(r.facts.get("values") or [])
            plain, helped = read_values(r, values)
            row = per_level[sp.render["difficulty"]]
            row[0] += len(values)
            row[1] += sum(plain)
            row[2] += sum(helped)
    total = [sum(per_level[lv][i] for lv in per_level) for i in range(3)]
    print(f"sample: {len(sample)} scenarios (seed {args.seed}); printed needed values, plain / assisted:")
    for lv in sorted(per_level):
        n, p, a = per_level[lv]
        print(f"  level {lv}: {n} values, {p / n:.1%} / {a / n:.1%}")
    print(f"  all: {total[0]} values, {total[1] / total[0]:.1%} / {total[2] / total[0]:.1%}")
    with_axis = total[0] + off_axis
    print(f"  counting the {off_axis} chart values read off an axis as OCR misses: "
          f"{total[1] / with_axis:.1%} / {total[2] / with_axis:.1%}")
    print(f"  not read by tesseract: {handwritten} lines of notes in a real handwriting face (vision.hand_check)")


if __name__ == "__main__":
    main()
