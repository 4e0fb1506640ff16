"""Shared pieces of the desktop-application screenshots (``mail_client``, ``file_manager``, ``ide_screen``):
the window's chrome, a list's rows and column heads, the grid a pane beside the list follows, a
navigation tree.

A desktop screen is 1,920 x 1,080 px with 11-12 px interface text (:data:`TYPE`); the levels follow
``spreadsheet_screen``'s: 0 the light theme as PNG, 1 the same with more on screen (a second
account, more rows, badges), 2 the dark theme, 3 a 2,560 x 1,440 screen (its chrome scaled, its
text not) forwarded at 1,920 x 1,080 and re-encoded as JPEG, so its text lands at about 8 px.
Boxes in facts are in the delivered image's pixels (:meth:`Desktop.box`).
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ._common import TextDraw, jpeg
from ..fonts import get_font

SIZES = {0: (1920, 1080), 1: (1920, 1080), 2: (1920, 1080), 3: (2560, 1440)}
# interface text, px: 12 at level 0 (the easy level: tesseract reads 97 % of the needed values of a full
# screen as delivered, 68-88 % at 11 px), 11 after (the level-3 screen shrinks it to about 8 px)
TYPE = {0: 12, 1: 11, 2: 11, 3: 11}
SHRINK = {3: 0.75}
QUALITY = {3: 82}
LIGHT = {"bg": (255, 255, 255), "chrome": (240, 242, 245), "side": (246, 247, 249), "line": (216, 219, 224),
         "text": (30, 32, 36), "muted": (100, 104, 112), "accent": (0, 103, 192), "select": (204, 228, 247),
         "hover": (236, 243, 250), "page": (255, 255, 255), "desk": (222, 224, 228)}
DARK = {"bg": (31, 31, 33), "chrome": (43, 43, 46), "side": (37, 37, 40), "line": (66, 67, 72),
        "text": (226, 228, 232), "muted": (150, 154, 162), "accent": (96, 165, 250), "select": (38, 67, 104),
        "hover": (46, 50, 58), "page": (248, 248, 246), "desk": (52, 53, 57)}


def clip(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut to fit ``width`` px, ending in an ellipsis when cut (as a list column does)."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "...") > width:
        text = text[:-1]
    return text.rstrip() + "..."


class Desktop:
    """One desktop screenshot at ``level``: its size, scale, palette and fonts, and how it is sent."""

    def __init__(self, level: int) -> None:
        self.level = level
        self.W, self.H = SIZES[level]
        self.k = self.H / 1080  # the larger screen's chrome scales with it; its text does not
        self.pal = DARK if level == 2 else LIGHT
        size = TYPE[level]
        self.font = get_font("sans", size)
        self.bold = get_font("sans-bold", size)
        self.small = get_font("sans", size - 1)
        self.row_h = round(size * 2.0)
        self.z = SHRINK.get(level, 1.0)

    def px(self, v: float) -> int:
        """``v`` chrome pixels at this screen's scale."""
        return round(v * self.k)

    def box(self, b) -> list[int]:
        """A box in the drawn screen's pixels, in the delivered image's."""
        return [round(v * self.z) for v in b]

    @property
    def frame(self) -> list[int]:
        return [round(self.W * self.z), round(self.H * self.z)]

    def canvas(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        img = Image.new("RGB", (self.W, self.H), self.pal["bg"])
        return img, TextDraw(img)  # folder names, columns, dates and labels recur: their lines rasterised once

    def title_bar(self, d: ImageDraw.ImageDraw, title: str) -> int:
        """The window's title bar with its three buttons; returns its height."""
        h, p = self.px(30), self.pal
        d.rectangle((0, 0, self.W, h), fill=p["chrome"])
        d.line((0, h, self.W, h), fill=p["line"])
        d.text((self.W / 2, h / 2), title, font=self.small, fill=p["muted"], anchor="mm")
        for i, sign in enumerate(["x", "[]", "_"]):
            cx = self.W - self.px(24 + 44 * i)
            d.text((cx, h / 2), sign, font=self.small, fill=p["muted"], anchor="mm")
        return h

    def button(self, d: ImageDraw.ImageDraw, x: float, y: float, h: float, label: str, glyph: bool = True) -> float:
        """A toolbar button (a small glyph and its label); returns its right edge."""
        p = self.pal
        w = self.small.getlength(label) + self.px(18) + (self.px(18) if glyph else 0)
        d.rounded_rectangle((x, y, x + w, y + h), radius=4, outline=p["line"])
        tx = x + self.px(9)
        if glyph:
            d.rectangle((tx, y + h / 2 - self.px(5), tx + self.px(10), y + h / 2 + self.px(5)), outline=p["muted"], width=1)
            tx += self.px(18)
        d.text((tx, y + h / 2), label, font=self.small, fill=p["text"], anchor="lm")
        return x + w

    def row_boxes(self, x0: float, x1: float, top: float, n: int) -> list[list[float]]:
        """The boxes of ``n`` list rows between ``x0`` and ``x1`` from ``top`` down."""
        return [[x0, top + i * self.row_h, x1, top + (i + 1) * self.row_h] for i in range(n)]

    def on_rows(self, top: float):
        """The middle of the ``i``-th list row from ``top`` as a function of ``i``: a pane beside the
        list sets its lines on the list's rows (one grid for a reader's eye, and OCR, to follow)."""
        return lambda i: top + (i + 0.5) * self.row_h

    def column_heads(self, d: ImageDraw.ImageDraw, y: float, heads) -> None:
        """A list's column heads, (label, x, anchor) each, centred on ``y``."""
        for label, cx, anchor in heads:
            d.text((cx, y), label, font=self.small, fill=self.pal["muted"], anchor=anchor)

    def tree(self, d: ImageDraw.ImageDraw, rows, x0: float, y: float, lh: int, left: int, indent: int,
             band: tuple[float, float, int, int], fit: tuple[float, int] | None = None) -> float:
        """A navigation tree's ``rows`` ((depth, label, selected) each) from ``y``, ``lh`` apart, each
        ``left + indent * depth`` chrome px in from ``x0``; a selected row on a band from ``band[0]``
        to ``band[1]`` across, ``band[2]`` chrome px above its text and ``band[3]`` short of the next
        row. With ``fit`` (a width, a margin) a label is cut to the width less ``margin + indent * depth``
        chrome px. Returns the ``y`` after the last row."""
        px = self.px
        for depth, label, selected in rows:
            if selected:
                d.rectangle((band[0], y - px(band[2]), band[1], y + lh - px(band[3])), fill=self.pal["select"])
            if fit is not None:
                label = clip(label, self.font, fit[0] - px(fit[1] + indent * depth))
            d.text((x0 + px(left + indent * depth), y), label, font=self.font, fill=self.pal["text"])
            y += lh
        return y

    def status_bar(self, d: ImageDraw.ImageDraw, left: str, right: str) -> int:
        h, p = self.px(24), self.pal
        d.rectangle((0, self.H - h, self.W, self.H), fill=p["chrome"])
        d.line((0, self.H - h, self.W, self.H - h), fill=p["line"])
        d.text((self.px(12), self.H - h / 2), left, font=self.small, fill=p["muted"], anchor="lm")
        d.text((self.W - self.px(12), self.H - h / 2), right, font=self.small, fill=p["muted"], anchor="rm")
        return h

    def send(self, img: Image.Image) -> Image.Image:
        """The screenshot as delivered: shrunk and re-encoded at level 3 (area averaging)."""
        if self.level in SHRINK:
            small = cv2.resize(np.asarray(img), tuple(self.frame), interpolation=cv2.INTER_AREA)
            img = Image.fromarray(small)
        if self.level in QUALITY:
            img = jpeg(img, QUALITY[self.level])
        return img
