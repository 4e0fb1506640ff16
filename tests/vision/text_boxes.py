"""Text boxes of rendered images, recorded while a family draws (a test helper).

:func:`recorded_text` patches Pillow's ``ImageDraw.text`` and the render families' ``TextDraw.text``
(every family, the charts included, and the UI canvas draw text through one of them), and collects one
:class:`Sheet` per drawing target: the box of every non-blank text and the target's size.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Iterator

from PIL import ImageDraw

from mmtsb_env.vision.render._common import TextDraw


@dataclass
class Sheet:
    size: tuple[int, int]
    texts: list[tuple[tuple[float, float, float, float], str]] = field(default_factory=list)

    def overlaps(self, tolerance: float = 1.0) -> list[tuple[str, str]]:
        """Pairs of texts whose boxes intersect by more than ``tolerance`` px both ways (a text
        drawn twice a few px apart -- a drop shadow -- counts as one)."""
        out = []
        for i, (a, ta) in enumerate(self.texts):
            for j, (b, tb) in enumerate(self.texts[i + 1:], i + 1):
                if ta == tb and abs(a[0] - b[0]) <= 6 and abs(a[1] - b[1]) <= 6:
                    continue
                if j == i + 1 and len(ta) == len(tb) == 1:  # a word drawn glyph by glyph: letters may touch
                    continue
                w = min(a[2], b[2]) - max(a[0], b[0])
                h = min(a[3], b[3]) - max(a[1], b[1])
                if w > tolerance and h > tolerance:
                    out.append((ta, tb))
        return out

    def outside(self, tolerance: float = 1.0) -> list[str]:
        W, H = self.size
        return [t for (x0, y0, x1, y1), t in self.texts
                if x0 < -tolerance or y0 < -tolerance or x1 > W + tolerance or y1 > H + tolerance]


@contextlib.contextmanager
def recorded_text() -> Iterator[list[Sheet]]:
    sheets: dict[int, Sheet] = {}
    order: list[Sheet] = []
    keep: list[object] = []  # hold the targets so their ids are not reused while recording
    originals = {cls: cls.__dict__["text"] for cls in (ImageDraw.ImageDraw, TextDraw)}
    depth = [0]  # TextDraw hands some texts on to Pillow's text: record each text once

    def sheet_for(key_obj, size) -> Sheet:
        key = id(key_obj)
        if key not in sheets:
            keep.append(key_obj)
            sheets[key] = Sheet(tuple(size))
            order.append(sheets[key])
        return sheets[key]

    def recording(original):
        def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
            if isinstance(text, str) and text.strip() and not depth[0]:
                box = self.textbbox(xy, text, font=font, anchor=anchor, spacing=kwargs.get("spacing", 4),
                                    stroke_width=kwargs.get("stroke_width", 0))
                sheet_for(self.im, self.im.size).texts.append((box, text))
            depth[0] += 1
            try:
                return original(self, xy, text, fill, font, anchor, *args, **kwargs)
            finally:
                depth[0] -= 1
        return text

    for cls, original in originals.items():
        cls.text = recording(original)
    try:
        yield order
    finally:
        for cls, original in originals.items():
            cls.text = original


def broken_words(sheet: Sheet, words: set[str]) -> list[str]:
    """Words split across two consecutive lines ("NEIGHBORHOO" / "D"): the last token of one
    text and the first of the next join into a word of ``words`` that neither is alone."""
    out = []
    for (_, a), (_, b) in zip(sheet.texts, sheet.texts[1:]):
        if not a.split() or not b.split():
            continue
        tail, head = a.split()[-1], b.split()[0]
        joined = (tail + head).lower()
        if joined in words and tail.lower() not in words and head.lower() not in words:
            out.append(f"{tail} / {head}")
    return out
