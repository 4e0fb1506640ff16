"""Screenshots of the simulated phone's own apps, drawn with the UI renderer's primitives.

A screen is a list of blocks laid out top to bottom (:class:`Screen`); every block measures
itself before anything is drawn, so cards get their height from their contents and no two
texts can land on each other. Levels (the spec's difficulty) shrink the type, add on-screen
clutter (banners, tab bars, badges), switch to a low-contrast dark theme (level 2) and shrink
the screenshot and re-encode it as JPEG (levels 2-3), as a forwarded screenshot looks. The families
add look-alike neighbours at levels 2-3 (other rows with near amounts, times, dates, numbers).
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import Callable

import cv2
import numpy as np
from PIL import Image

from ..canvas import Canvas
from ._common import Ctx, TextDraw, jpeg
from ._family import Family

WIDTH = 540  # logical px; the screenshot is drawn at 2x and downsampled


@dataclass(frozen=True)
class Look:
    type_scale: float
    dark: bool
    clutter: int
    shrink: float  # final downscale (1 = none)
    quality: int | None  # JPEG re-encode quality (None = PNG-clean)


LOOKS = {
    0: Look(1.0, False, 0, 1.0, None),
    1: Look(0.92, False, 2, 1.0, None),
    2: Look(0.76, True, 3, 0.72, 80),  # dark theme, muted greys, forwarded a little smaller
    3: Look(0.72, False, 4, 0.63, 88),  # small and re-compressed: a 2x zoom brings it back
}

@dataclass(frozen=True)
class Chrome:
    """One of the screens' three layouts (chosen by the seed, :func:`chrome`): the margin beside
    the cards, the gap between them, the app bar's height under the status bar, the cards' corner
    radius and outline, and how the title sits (``left`` in the bar, ``large`` under a slim bar,
    ``centre`` in a bar of the app's colour)."""

    name: str
    pad: float
    gap: float
    bar: float
    radius: float
    outline: bool
    title: str

    @property
    def top(self) -> float:
        """Where the content starts: under the status bar (40 px) and the app bar."""
        return 40 + self.bar


CHROMES = (Chrome("material", 16, 12, 52, 12, True, "left"), Chrome("grouped", 20, 18, 96, 10, False, "large"),
           Chrome("edge", 6, 8, 56, 0, True, "centre"))


def chrome(ctx: Ctx) -> Chrome:
    """The screen's layout, drawn from the seed alone (the same at every level)."""
    return CHROMES[ctx.rng("template").randrange(len(CHROMES))]


LIGHT = {"bg": (243, 244, 248), "card": (255, 255, 255), "text": (31, 35, 48), "muted": (107, 114, 128),
         "line": (226, 229, 234), "bar": (255, 255, 255)}
DARK = {"bg": (18, 18, 22), "card": (34, 35, 41), "text": (214, 216, 222), "muted": (128, 132, 142),
        "line": (52, 54, 62), "bar": (28, 28, 33)}

Block = Callable[["Screen", float, float, float, bool], float]  # (screen, x, y, width, draw) -> height


class Screen:
    """One app screen: ``add`` blocks, then :meth:`finish` lays them out and draws them."""

    def __init__(self, ctx: Ctx, accent: tuple[int, int, int]) -> None:
        self.ctx, self.look = ctx, LOOKS[ctx.difficulty]
        self.colors = DARK if self.look.dark else LIGHT
        self.accent = accent
        self.blocks: list[Block] = []
        self.measure = _measure()
        self.chrome = chrome(ctx)
        self.canvas = None  # set while drawing

    # ---- text helpers (logical px; sizes already scaled by the level)
    def size(self, base: float) -> float:
        return round(base * self.look.type_scale, 1)

    def lines(self, text: str, style: str, size: float, width: float) -> list[str]:
        return self.measure.wrap(text, style, size, width)

    def width(self, text: str, style: str, size: float) -> float:
        return self.measure.width(text, style, size)

    def text(self, x: float, y: float, text: str, style: str, base: float, color, width: float, draw: bool,
             align: str = "left") -> float:
        """Wrapped text in ``width``; returns its height."""
        size = self.size(base)
        lh = self.measure.line_height(size)
        rows = self.lines(text, style, size, width)
        if draw:
            for k, row in enumerate(rows):
                dx = width - self.width(row, style, size) if align == "right" else 0
                self.canvas.text((x + dx, y + k * lh), row, style, size, color)
        return lh * len(rows)

    def pair(self, x: float, y: float, left: str, right: str, width: float, draw: bool, style: str = "sans",
             base: float = 15, color=None, right_style: str | None = None) -> float:
        """``left`` wrapped in what ``right`` (right-aligned, one line) leaves free."""
        color = color or self.colors["text"]
        rs = right_style or style
        rw = self.width(right, rs, self.size(base))
        h = self.text(x, y, left, style, base, color, width - rw - 14, draw)
        if draw:
            self.canvas.text((x + width - rw, y), right, rs, self.size(base), color)
        return max(h, self.measure.line_height(self.size(base)))

    def icon(self, name: str, x: float, y: float, size: float, color) -> None:
        from ..icons import draw_icon

        draw_icon(self.canvas, name, x, y, size, color)

    # ---- blocks
    def add(self, block: Block) -> None:
        self.blocks.append(block)

    def card(self, *rows: Block, pad: float = 14, gap: float = 8) -> None:
        """A rounded card holding ``rows`` one under the other."""

        def block(s: Screen, x: float, y: float, w: float, draw: bool) -> float:
            inner = w - 2 * pad
            hs = [r(s, x + pad, 0, inner, False) for r in rows]
            h = sum(hs) + gap * (len(rows) - 1) + 2 * pad
            if draw:
                ch = s.chrome
                s.canvas.rect((x, y, x + w, y + h), fill=s.colors["card"], outline=s.colors["line"] if ch.outline else None,
                              radius=ch.radius)
                yy = y + pad
                for r, rh in zip(rows, hs):
                    r(s, x + pad, yy, inner, True)
                    yy += rh + gap
            return h

        self.add(block)

    def finish(self, title: str, back: bool = True, tabs: list[str] | None = None) -> Image.Image:
        """Lay the blocks out under a status bar and a title bar; the screenshot image."""
        c, ch = self.colors, self.chrome
        pad, gap, top = ch.pad, ch.gap, ch.top
        w = WIDTH - 2 * pad
        heights = [b(self, pad, 0, w, False) for b in self.blocks]
        tab_h = 58 if tabs else 0
        H = int(top + 10 + sum(heights) + gap * len(heights) + tab_h + 24)
        canvas = self.canvas = _Surface(WIDTH, H, c["bg"])
        self._status_bar(c)
        self._title_bar(title, back)
        y = top + 10
        for b, h in zip(self.blocks, heights):
            b(self, pad, y, w, True)
            y += h + gap
        if tabs:
            ty = H - tab_h - 14
            canvas.rect((0, ty, WIDTH, H), fill=c["bar"])
            canvas.line([(0, ty), (WIDTH, ty)], c["line"], 1)
            cell = WIDTH / len(tabs)
            for i, name in enumerate(tabs):
                col = self.accent if i == 0 else c["muted"]
                self.icon(name, cell * i + cell / 2 - 12, ty + 8, 24, col)
        canvas.rect((WIDTH / 2 - 60, H - 10, WIDTH / 2 + 60, H - 6), fill=c["muted"], radius=2)
        self.canvas = None
        return self._camera(canvas.pixels, (WIDTH, H))

    def _title_bar(self, title: str, back: bool) -> None:
        """The app bar under the status bar, as the chrome says."""
        c, ch, cv, m = self.colors, self.chrome, self.canvas, 16
        filled = ch.title == "centre"
        fg = (255, 255, 255) if filled else c["text"]
        cv.rect((0, 40, WIDTH, ch.top), fill=self.accent if filled else c["bar"])
        cv.line([(0, ch.top), (WIDTH, ch.top)], c["line"], 1)
        bar_h = 52 if ch.title != "large" else 44
        if back:
            self.icon("arrow_back", m, 40 + (bar_h - 24) / 2, 24, self.accent if ch.title == "large" else fg)
        self.icon("more_vert", WIDTH - m - 24, 40 + (bar_h - 24) / 2, 24, fg if filled else c["muted"])
        size = self.size(28 if ch.title == "large" else 20)
        tx = m if ch.title == "large" or not back else m + 36
        room = WIDTH - 2 * (m + 40) if filled else WIDTH - tx - m - (0 if ch.title == "large" else 40)
        shown = title
        while self.width(shown, "sans-bold", size) > room and len(shown) > 4:
            shown = shown[:-2].rstrip() + "…"
        if ch.title == "large":
            cv.text((tx, 40 + bar_h + (ch.bar - bar_h - size * 1.32) / 2), shown, "sans-bold", size, fg)
        elif filled:
            cv.text(((WIDTH - self.width(shown, "sans-bold", size)) / 2, 40 + (bar_h - size * 1.32) / 2), shown, "sans-bold", size, fg)
        else:
            cv.text((tx, 40 + (bar_h - size * 1.32) / 2), shown, "sans-bold", size, fg)

    def _status_bar(self, c: dict) -> None:
        cv = self.canvas
        r = self.ctx.rng("clock")  # the time the screenshot was taken (every screenshot its own)
        cv.text((22, 11), f"{r.randint(7, 22)}:{r.randint(0, 59):02d}", "sans-bold", 14, c["text"])
        right = WIDTH - 20
        cv.rect((right - 26, 13, right - 3, 25), outline=c["text"], width=1.4, radius=3)
        cv.rect((right - 24, 15, right - 9, 23), fill=c["text"], radius=1.5)
        for i in range(4):
            bh = 4 + 3 * i
            cv.rect((right - 70 + i * 5, 25 - bh, right - 67 + i * 5, 25), fill=c["text"], radius=1)

    def _camera(self, pixels: np.ndarray, size: tuple[int, int]) -> Image.Image:
        """The screenshot of ``size`` delivered from the 2x canvas's RGBX ``pixels``: shrunk and
        re-compressed as the look says.

        The last step is a 2x2 box average (OpenCV's area resize at exactly half: the bytes of
        Pillow's ``reduce(2)``) on the four channels drawn into. A shrunk look first resamples the 2x
        canvas bilinearly to twice its output size (OpenCV; with the box average after it about 60 %
        of the cost of the box average and Pillow's antialiasing bilinear filter at 1x, and it keeps
        the thin strokes that a bilinear step at 1x would alias). The JPEG is encoded from the four-channel
        array, with no RGB image made before it."""
        look = self.look
        w, h = (int(size[0] * look.shrink), int(size[1] * look.shrink)) if look.shrink < 1 else size
        if look.shrink < 1:
            pixels = cv2.resize(pixels, (2 * w, 2 * h), interpolation=cv2.INTER_LINEAR)
        screen = cv2.resize(pixels, (w, h), interpolation=cv2.INTER_AREA)
        if look.quality:
            return jpeg(screen, look.quality)
        return Image.frombuffer("RGBX", (w, h), screen, "raw", "RGBX", 0, 1).convert("RGB")


class _Surface(Canvas):
    """The screens' 2x ``Canvas`` drawn into a four-channel (RGBX) array, ``pixels`` (Pillow draws
    on RGBX exactly as on RGB), with :class:`TextDraw` for the text (labels recur on every screen:
    their rasterised lines are remembered)."""

    def __init__(self, width: int, height: int, background: tuple[int, int, int]) -> None:
        super().__init__(width, height, background, 2)
        self.draw = TextDraw(self.image)

    def _bitmap(self, size: tuple[int, int], background: tuple[int, int, int]) -> Image.Image:
        w, h = size
        self.pixels = np.empty((h, w, 4), np.uint8)
        self.pixels.view(np.uint32).fill(int.from_bytes(bytes((*background, 255)), sys.byteorder))
        image = Image.frombuffer("RGBX", size, self.pixels, "raw", "RGBX", 0, 1)
        image.readonly = 0  # drawn on in place: the strokes land in ``pixels``
        return image


@functools.lru_cache(maxsize=1)
def _measure():
    """The screens' text metrics (``vision.canvas.TextMeasure`` at 2x) with every width remembered: a
    screen measures each label in its layout pass and again when it draws it, wrapping measures
    each growing line, and the same labels recur on every screen of an app. A text that fits on
    one line is wrapped with one measurement."""
    from ..canvas import TextMeasure

    class Remembered(TextMeasure):
        @functools.lru_cache(maxsize=16384)
        def width(self, text: str, style: str, size: float) -> float:
            return super().width(text, style, size)

        def wrap(self, text: str, style: str, size: float, max_width: float) -> list[str]:
            # a one-line text that fits is its own wrap (each shorter start of it fits too): one
            # measurement instead of one per word
            if "\n" not in text and "  " not in text and not text.startswith(" ") and self.width(text, style, size) <= max_width:
                return [text]
            return super().wrap(text, style, size, max_width)

    return Remembered(2)


def record(ctx: Ctx, family: Family) -> dict:
    """The facts the flat ``family`` reports for this content and seed (a draft pass: cheap),
    without where its own picture lay (``doc_box``, ``frame``: the screen shows the record, not
    the picture)."""
    from ._common import draft
    from ._scene import flat

    with draft():
        facts = family.draw(flat(ctx, family.kind))[1]
    return {k: v for k, v in facts.items() if k not in ("doc_box", "frame")}
