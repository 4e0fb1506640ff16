"""``handwritten_note``: a note in a script-like hand (jittered glyphs, wavy lines) on paper."""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from contextvars import ContextVar

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import (DEGRADE, Choice, Color, Ctx, Scan, Str, TextDraw, clutter_count, degrade, drafting, lookup,
                      rgb, seed_int, shade, texture, texture_array)
from ._scene import drawing_on
from ..fonts import HANDS, get_font

NOTES = [
    ("Groceries", "eggs\nmilk (oat)\n2 lemons\nbread\ncoffee beans\ndish soap"),
    ("To do", "call the dentist - Tue 3:30\npay electric bill\nreturn library books\nbuy a birthday card for Sam"),
    ("", "Wifi password:\nsunflower42\nRouter is behind the TV"),
    ("Mom", "Dinner is in the fridge.\nHeat 4 min at 50%.\nBack by 9. Love you!"),
    ("Meeting notes", "budget review moved to Friday\nask Priya for Q3 numbers\nroom 4B at 10:15"),
    ("", "Gate code 4719\nParking spot #23\nKeys under the blue pot"),
    ("Recipe", "2 cups flour\n1 tsp baking soda\n3/4 cup sugar\n1 egg\nbake 350F for 25 min"),
]
PAPERS = ("lined", "plain", "sticky")
INKS = {"blue": (28, 50, 140), "black": (25, 25, 30), "red": (160, 25, 30), "green": (20, 100, 50), "pencil": (80, 80, 85)}

# what the scan does to the note at each level: the shared DEGRADE but for levels 2 and 3. Level 2
# is delivered at 0.8 of the note's size (0.64 of the pixels for the warp, light and JPEG, half the
# render's cost) and not blurred, the shrink's resampling softening it instead (plain OCR over
# seeds 0-8: 0.76 of the lines, as at full size and blurred; 0.92 at level 1). Level 3 is mostly
# *small* (under half size, a light turn, mild noise and JPEG): tesseract misses most lines as
# delivered and reads most after the tools' 2x zoom (tests/generation/test_ocr.py; the shared
# level 3 -- a 0.75 shrink, 8 degrees, noise 9, JPEG 50 -- left under half readable either way)
SCANS = {**DEGRADE, 2: dataclasses.replace(DEGRADE[2], scale=0.8, blur=0.0),
         3: Scan(3.0, blur=0.3, noise=3.0, quality=80, light=0.22, scale=0.43)}
# the writer's hand: DejaVu italics by default (tesseract, which calibrates the levels, reads 0-22 % of
# lines in the real handwriting faces even flat at level 0, the italics 93 %). A note whose content
# names a real ``hand`` (:data:`..fonts.HANDS`, Debian packages) is written in it at the levels of
# :data:`HAND_LEVELS`, where every one of its words passed the analysis-by-synthesis check of
# :mod:`..hand_check` (each glyph told from its most confusable neighbour at the delivered
# resolution), and in the italics elsewhere; the faces also write the number jotted in the corner
HAND_STYLES = ("sans-oblique", "serif-italic", "sans-oblique")
JOTTING = ("hand-dkg", "hand-script", "hand-print")
# the levels each face is written at: those where every line of the calibration notes passed
# (hand_check.calibrate over seeds 100-103, 13 lines a level; lines passed at levels 0/1/2/3: dkg
# 13/13/13/12, Dancing Script 13/13/11/4, Because We Mentor 13/13/13/13, Comic Neue 13/13/13/2)
HAND_LEVELS = {"hand-dkg": (0, 1, 2), "hand-script": (0, 1), "hand-print": (0, 1, 2, 3), "hand-casual": (0, 1, 2)}

# a variant of the note for :mod:`..hand_check`: (words by their index in writing order -> (the
# string written there instead, at the same place, and which time the hand writes it: 0 the written
# draws, k > 0 other ones, see :func:`_word_image_as`); whether the scan leaves out its noise, uneven
# light and JPEG -- the clean model the delivered image is matched to)
VARIANT: ContextVar[tuple[dict[int, tuple[str, int]], bool] | None] = ContextVar("note_variant", default=None)
# whether a content's ``hand`` is written at every level (how :func:`..hand_check.calibrate` measures
# the levels :data:`HAND_LEVELS` admits)
EVERY_LEVEL: ContextVar[bool] = ContextVar("hand_every_level", default=False)
PAPER_COLORS = {False: (253, 252, 246), True: (255, 238, 130)}  # plain or lined paper; a sticky note
WAVE = {0: 1.5, 1: 2.3, 2: 3.1, 3: 2.5}  # the hand's wobble, px, per level

FIELDS = {"text": Str(600), "title": Str(40, allow_empty=True), "paper": Choice(PAPERS), "ink": Choice(list(INKS)),
          "signature": Str(30, allow_empty=True), "ink_color": Color(), "hand": Choice(list(HANDS))}


def _rule(sheet: np.ndarray, rows, margin: int) -> None:
    """Rule lined paper (``sheet``, RGB, in place): a blue line under each of ``rows`` (from row + 3)
    and the red margin line at column ``margin``, each 2 px wide across the whole sheet -- the
    pixels of Pillow's 2-px lines along whole-pixel rows and columns (they cover that row or column
    and the next)."""
    for y in rows:
        sheet[y + 3:y + 5] = (170, 195, 230)
    sheet[:, margin:margin + 2] = (230, 140, 140)


def _word_image(word: str, size: int, style: str, rng, shape=None, drawn: str | None = None) -> Image.Image:
    """One word drawn glyph by glyph with jittered size, baseline, spacing and pressure, as its ink's
    coverage (an ``L`` mask: the note is one ink, so its words are masks laid in that ink at the end).

    For :mod:`..hand_check`: ``drawn`` (a string of the word's length) is written in the word's
    place, each glyph where the word's would be; with ``shape`` (another generator) each glyph's
    size (within 4 % of the written one's) and pressure are that one's draws -- the hand writing it
    another time. ``rng`` moves on
    as without either, and the word's spacing and baseline are its draws."""
    big = get_font(style, size * 1.15)
    w = int(big.getlength(word) * 1.15 + size)
    h = int(size * 2.2)
    sketch = drafting()  # the draft pass lays words out by their widths: the same draws, no glyph drawn
    img = None if sketch else Image.new("L", (w, h), 0)
    d = None if sketch else TextDraw(img, remember=False)  # Pillow's glyphs, without its per-call layout objects
    x = size * 0.25  # italic capitals (J, f) reach left of their origin
    drift = 0.0
    alpha = rng.randint(215, 255)
    other_alpha = alpha if shape is None else shape.randint(215, 255)
    for ch, glyph in zip(word, word if drawn is None else drawn):
        s = size * rng.uniform(0.93, 1.08)
        font = get_font(style, s)
        drift = max(-size * 0.12, min(size * 0.12, drift + rng.uniform(-0.05, 0.05) * size))
        a = max(150, min(255, alpha + rng.randint(-30, 15)))
        pen, ink = font, a
        if shape is not None:  # the glyph a little larger or smaller than written (+-4 %), pressed otherwise
            pen = get_font(style, s * shape.uniform(0.96, 1.04))
            ink = max(150, min(255, other_alpha + shape.randint(-30, 15)))
        if d is not None:
            d.text((x, h * 0.72 + drift), glyph, font=pen, fill=ink, anchor="ls")
        x += font.getlength(ch) * rng.uniform(0.92, 1.06)
    box = (0, 0, min(w, int(x + size * 0.12)), h)
    return Image.new("L", box[2:]) if img is None else img.crop(box)


def _word_image_as(word: str, instead: tuple[str, int] | None, size: int, style: str, rng) -> Image.Image:
    """:func:`_word_image` of ``word``, or, when ``instead`` is given as (a string of ``word``'s
    length, an instance), that string written in ``word``'s place with the same draws (instance 0)
    or the glyph draws of another time the hand writes it (instance k > 0). ``rng`` moves on as for
    ``word`` either way, so the note's layout stays that of ``word``."""
    if instead is None:
        return _word_image(word, size, style, rng)
    text, instance = instead
    shape = random.Random(seed_int("another time", instance)) if instance else None
    return _word_image(word, size, style, rng, shape, drawn=text)


def hand_style(ctx: Ctx) -> str:
    """The face a note is written in: its content's real ``hand`` at the levels that face passed
    the handwriting check (:data:`HAND_LEVELS`), else a DejaVu italic drawn from the seed."""
    italic = ctx.rng("hand").choice(HAND_STYLES)
    face = ctx.content.get("hand")
    admitted = EVERY_LEVEL.get() or ctx.difficulty in HAND_LEVELS.get(face, ())
    return face if face is not None and admitted else italic


def _tilted_size(size: tuple[int, int], angle: float) -> tuple[int, int]:
    """The canvas ``Image.rotate(angle, expand=True)`` gives an image of ``size``: whole pixels
    around its turned corners."""
    w, h = size
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = [((x - w / 2) * c + (y - h / 2) * s, (y - h / 2) * c - (x - w / 2) * s) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    nw = math.ceil(max(xs) + w / 2) - math.floor(min(xs) + w / 2)
    return nw, math.ceil(max(ys) + h / 2) - math.floor(min(ys) + h / 2)


def _tilted(word: Image.Image, angle: float) -> Image.Image:
    """``word`` (any mode of one to four bands) turned ``angle`` degrees counter-clockwise on a canvas
    grown to hold it (the size ``Image.rotate(expand=True)`` gives), bilinear: one OpenCV warp, a
    fraction of Pillow's cost."""
    return Image.fromarray(_turned(np.asarray(word), angle), word.mode)


def _turned(arr: np.ndarray, angle: float) -> np.ndarray:
    """:func:`_tilted` of an array (h x w, or h x w x bands)."""
    h, w = arr.shape[:2]
    nw, nh = _tilted_size((w, h), angle)
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    matrix[:, 2] += ((nw - w) / 2, (nh - h) / 2)
    return cv2.warpAffine(arr, matrix, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=(0, 0, 0, 0))


class _Ink:
    """The note's ink before it is laid on the sheet, as two uint8 planes: its coverage (the alpha
    an RGBA layer of it would have) and its tone, coverage times the share of the ink's colour a
    pixel carries. A word's tone is its coverage where it has ink -- except along a tilted word's
    edges, where bilinear resampling mixes the ink with the transparent black around it (as the
    RGBA layer did), which keeps the strokes as dark as they were drawn. In the draft pass it
    takes nothing (its pixels are never looked at)."""

    def __init__(self, size: tuple[int, int]) -> None:
        w, h = size
        self.cover, self.tone = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
        self.strokes: list[tuple] = []

    def stamp(self, word: Image.Image, pos: tuple[int, int], angle: float = 0.0) -> None:
        """Lay the word mask ``word`` with its top left at ``pos``, turned ``angle`` degrees on the
        canvas of :func:`_tilted_size` (clipped to the planes). Where words overlap, the upper one
        covers the lower as RGBA compositing does (within a grey level)."""
        if drafting():
            return
        cover = np.asarray(word)
        tone = cv2.threshold(cover, 0, 255, cv2.THRESH_BINARY)[1]  # the ink's colour wherever it has ink
        if angle:  # plane by plane: OpenCV's two-band warp rounds differently from its one- and four-band ones
            tone, cover = _turned(tone, angle), _turned(cover, angle)
        x, y = pos
        h, w = self.cover.shape
        x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + cover.shape[1]), min(h, y + cover.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m, t = cover[y0 - y:y1 - y, x0 - x:x1 - x], tone[y0 - y:y1 - y, x0 - x:x1 - x]
        under_c, under_t = self.cover[y0:y1, x0:x1], self.tone[y0:y1, x0:x1]
        ink = cv2.multiply(t, m, scale=1 / 255.0)  # the word's own tone: tone x coverage
        if not under_c.any():  # nothing there yet (nearly always): the word as it is
            under_c[:], under_t[:] = m, ink
            return
        keep = cv2.bitwise_not(m)  # over: what is under shows through (1 - coverage)
        under_t[:] = cv2.add(ink, cv2.multiply(under_t, keep, scale=1 / 255.0))
        under_c[:] = cv2.add(m, cv2.multiply(under_c, keep, scale=1 / 255.0))

    def line(self, points, fill: int, width: int) -> None:
        """A stroke of the ink (a crossing-out, a doodle) of opacity ``fill``: drawn by Pillow on
        both planes when :meth:`planes` is asked for (all strokes at once)."""
        if not drafting():
            self.strokes.append((points, fill, width))

    def planes(self) -> tuple[np.ndarray, np.ndarray]:
        """The coverage and tone planes with every stroke drawn."""
        if self.strokes:
            for name in ("cover", "tone"):
                img = Image.fromarray(getattr(self, name))
                draw = ImageDraw.Draw(img)
                for points, fill, width in self.strokes:
                    draw.line(points, fill=fill, width=width)
                setattr(self, name, np.array(img))
            self.strokes = []
        return self.cover, self.tone


def _wave(planes: list[np.ndarray], rng, amplitude: float, period: float) -> list[np.ndarray]:
    """Shift rows and columns of the ink's planes (the first its coverage) sinusoidally (a wobbly
    hand): one nearest-pixel remap (OpenCV) per plane over whole-pixel source coordinates, so every
    output pixel is a copy of a source pixel. Only the ink's bounding box grown by the largest
    shift is remapped: every pixel outside it would copy a pixel without ink (a shift moves a
    pixel by at most ``amplitude``)."""
    h, w = planes[0].shape
    phase_x, phase_y = rng.uniform(0, 6.28), rng.uniform(0, 6.28)
    out = [np.zeros_like(p) for p in planes]
    bx, by, bw, bh = cv2.boundingRect(planes[0])
    if not bw:
        return out
    m = int(amplitude) + 1
    x0, y0, x1, y1 = max(0, bx - m), max(0, by - m), min(w, bx + bw + m), min(h, by + bh + m)
    dx = (amplitude * np.sin(np.arange(y0, y1)[:, None] / period + phase_x)).astype(np.int16)  # a shift per row
    dy = (amplitude * 0.8 * np.sin(np.arange(x0, x1)[None, :] / (period * 1.7) + phase_y)).astype(np.int16)  # a column
    # (x, y) per pixel: OpenCV's fixed-point map with no fraction, written pair by pair in place; a
    # source beyond the sheet's edge is its edge pixel (the replicated border: a clip of each coordinate)
    src = np.empty((y1 - y0, x1 - x0, 2), np.int16)
    np.add(np.arange(x0, x1, dtype=np.int16)[None, :], dx, out=src[..., 0])
    np.add(np.arange(y0, y1, dtype=np.int16)[:, None], dy, out=src[..., 1])
    for plane, waved in zip(planes, out):
        cv2.remap(plane, src, None, cv2.INTER_NEAREST, dst=waved[y0:y1, x0:x1], borderMode=cv2.BORDER_REPLICATE)
    return out


def _ink_onto(arr: np.ndarray, cover: np.ndarray, tone: np.ndarray, ink: tuple[int, int, int]) -> None:
    """Lay ``ink`` on ``arr`` (RGB uint8, in place) through the ink's planes (see :class:`_Ink`):
    ``arr * (255 - cover) / 255 + ink * tone / 255``, each term rounded, over the ink's bounding box
    only, in OpenCV (Pillow's RGBA compositing of a full layer, or a masked paste of a colour over
    the whole sheet, costs several ms)."""
    x, y, w, h = cv2.boundingRect(cover)
    if not w:
        return
    region, c, t = arr[y:y + h, x:x + w], cover[y:y + h, x:x + w], tone[y:y + h, x:x + w]
    under = cv2.multiply(region, cv2.merge([cv2.bitwise_not(c)] * 3), scale=1 / 255.0)
    cv2.add(under, lookup(t, _ink_tables(tuple(ink))), dst=region)


@functools.lru_cache(maxsize=32)
def _ink_tables(ink: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per channel: coverage -> that channel of ``ink`` times the coverage, rounded (for :func:`lookup`)."""
    v = np.arange(256) / 255.0
    return tuple(np.rint(c * v).astype(np.uint8) for c in ink)


def _clear_spot(at: tuple[int, int], r: int, written: list[tuple[float, float, float, float]],
                size: tuple[int, int]) -> tuple[int, int]:
    """Where a mark of radius ``r`` drawn at ``at`` goes so that it covers no written word (the
    boxes ``written``): ``at`` itself if it is clear, else the clear spot nearest to it on a
    16-px grid over the sheet (``size``), else the spot covering the least of the words' area.
    The marks distract; they do not hide what the note says."""
    w, h = size
    if not written:
        return at
    boxes = np.array(written, np.float64)
    def covered(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:  # the words' area under each square (x +- r, y +- r)
        dx = np.clip(np.minimum(xs[:, None] + r, boxes[:, 2]) - np.maximum(xs[:, None] - r, boxes[:, 0]), 0, None)
        dy = np.clip(np.minimum(ys[:, None] + r, boxes[:, 3]) - np.maximum(ys[:, None] - r, boxes[:, 1]), 0, None)
        return (dx * dy).sum(1)
    if not covered(np.array([at[0]], np.float64), np.array([at[1]], np.float64))[0]:
        return at
    gy, gx = np.mgrid[r + 8:max(r + 9, h - r - 7):16, r + 8:max(r + 9, w - r - 7):16]
    xs, ys = gx.ravel().astype(np.float64), gy.ravel().astype(np.float64)
    best = np.lexsort(((xs - at[0]) ** 2 + (ys - at[1]) ** 2, covered(xs, ys)))[0]
    return int(xs[best]), int(ys[best])


def draw_handwritten_note(ctx: Ctx):
    """A handwritten note (lined, plain or sticky paper): optional title, lines of text, signature."""
    page, facts = note_page(ctx)
    scan = SCANS[ctx.difficulty]
    variant = VARIANT.get()
    if variant is not None and variant[1]:
        scan = dataclasses.replace(scan, noise=0.0, light=0.0, quality=None)
    return degrade(page, ctx, scan=scan), facts


FAMILY = Family("handwritten_note", FIELDS, draw_handwritten_note)


def note_page(ctx: Ctx) -> tuple[np.ndarray | Image.Image, dict]:
    """The note on its surface before the level's scan: (an RGB array -- a grey stand-in image in
    the draft pass --, the facts): :func:`note_sheet` laid on a rim of desk or wood (:func:`rim`)."""
    sheet, facts = note_sheet(ctx)
    margin = rim(ctx)
    W, H = sheet.size if isinstance(sheet, Image.Image) else (sheet.shape[1], sheet.shape[0])
    surface = ctx.rng("surface").choice(["desk", "wood"])
    if drafting():
        return texture(surface, (W + 2 * margin, H + 2 * margin), ctx.np_rng("surface")), facts
    # built as an array (the shadow darkens its own region in place), handed to degrade as is
    canvas = texture_array(surface, (W + 2 * margin, H + 2 * margin), ctx.np_rng("surface"))
    shade(canvas, (margin, margin, margin + W, margin + H), offset=8, blur=10, covered=True)
    canvas[margin:margin + H, margin:margin + W] = sheet
    return canvas, facts


def rim(ctx: Ctx) -> int:
    """The width of the surface around the sheet in :func:`note_page`, px: a narrow rim up to level
    1 (on a wide dark rim tesseract's page segmentation loses the whole note -- level 1, seeds 0-2:
    1 line in 13 read with a 90 px rim, 12 in 13 with 50)."""
    return 50 if ctx.difficulty <= 1 else 90


def note_sheet(ctx: Ctx) -> tuple[np.ndarray | Image.Image, dict]:
    """The written sheet alone: (an RGB array of the paper with its ink -- a grey stand-in image of
    its size in the draft pass --, the facts). :mod:`.note_photo` photographs it on the scene's own
    surface."""
    pick = ctx.rng("field:note").choice(NOTES)
    title = ctx.get("title", lambda r: pick[0])
    text = ctx.get("text", lambda r: pick[1])
    paper = ctx.get("paper", lambda r: r.choice(PAPERS))
    ink_name = ctx.get("ink", lambda r: r.choice(["blue", "blue", "black", "pencil"]))
    ink = rgb(ctx.content["ink_color"]) if "ink_color" in ctx.content else INKS[ink_name]
    signature = ctx.get("signature", lambda r: r.choice(["", "", "- J", "xo, A", "- Dad", "M."]))
    style = hand_style(ctx)
    hand = ctx.rng("jitter")
    swaps = (VARIANT.get() or ({}, False))[0]
    written_words = 0  # the index of the next word written (what a swap names)

    size = int(34 * ctx.scale)
    gap = int(size * 1.6)  # line pitch (= ruled line spacing)
    W = 820 if paper != "sticky" else 760
    margin_left = 110 if paper == "lined" else 60
    max_w = W - margin_left - 50
    # lay words out into lines
    lines_out: list[list[Image.Image]] = []
    wrapped_lines: list[str] = []
    paragraphs = ([title] if title else []) + text.split("\n")
    for p_index, para in enumerate(paragraphs):
        is_title = bool(title) and p_index == 0
        words = para.split()
        current: list[Image.Image] = []
        current_words: list[str] = []
        width = 0.0
        for word in words:
            img = _word_image_as(word, swaps.get(written_words), int(size * (1.15 if is_title else 1.0)), style, hand)
            written_words += 1
            space = size * hand.uniform(0.22, 0.36)
            if current and width + space + img.width > max_w:
                lines_out.append(current)
                wrapped_lines.append(" ".join(current_words))
                current, current_words, width = [], [], 0.0
            current.append(img)
            current_words.append(word)
            width += img.width + (space if len(current) > 1 else 0)
        lines_out.append(current)
        wrapped_lines.append(" ".join(current_words))
        if is_title:
            lines_out.append([])
            wrapped_lines.append("")
    if signature:
        lines_out.append([])
        wrapped_lines.append("")
        lines_out.append([_word_image_as(w, swaps.get(written_words + k), size, style, hand)
                          for k, w in enumerate(signature.split())])
        wrapped_lines.append(signature)
    top = 90
    H = max(top + gap * (len(lines_out) + 1) + 40, 600 if paper != "sticky" else W)
    if paper == "sticky":
        H = max(H, W)
    # the paper stays an array (no pixel of it is looked at in the draft pass): a trip through
    # Pillow and back for a few ruled lines cost about a millisecond
    sheet = None if drafting() else texture_array("paper", (W, H), ctx.np_rng("paper"), PAPER_COLORS[paper == "sticky"])
    if sheet is not None and paper == "lined":
        _rule(sheet, range(top + gap, H - 20, gap), margin_left - 25)
    layer = _Ink((W, H))  # laid on the sheet in the ink's colour at the end
    y = top
    slope = hand.uniform(-0.015, 0.015)
    written: list[tuple[float, float, float, float]] = []  # each written line's box (left, top, right, bottom)
    for words in ([] if drafting() else lines_out):  # placing the words is pixel work (no fact depends on it)
        x = margin_left + hand.uniform(-6, 10)
        for img in words:
            angle = hand.uniform(-2.5, 2.5)
            baseline = y + gap - int(img.height * 0.72) + int((x - margin_left) * slope)
            grown = _tilted_size(img.size, angle)[1] - img.height
            at = (int(x), max(0, int(baseline - grown / 2)))
            layer.stamp(img, at, angle)
            written.append((at[0], at[1], at[0] + img.width, at[1] + img.height + grown))
            x += img.width + size * hand.uniform(0.22, 0.36)
        y += gap
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        # a crossed-out word, a doodle and a stray number: distractors
        # at difficulty 1 only marks that stay clear of the text
        options = ["spiral", "number", "star"] if ctx.difficulty == 1 else ["crossed", "spiral", "number", "star", "ring"]
        for what in cr.sample(options, min(n_clutter, len(options))):
            if what == "crossed":
                word = cr.choice(["tomorow", "Friday", "milk", "9:30", "$40"])
                img = _word_image(word, size, style, hand)
                pos = (W - img.width - 40, H - gap - 20)
                layer.stamp(img, pos)
                layer.line((pos[0], pos[1] + img.height * 0.55, pos[0] + img.width, pos[1] + img.height * 0.5),
                           fill=255, width=4)
                ctx.distractors.append(word + " (crossed out)")
            elif what == "number":
                word = f"{cr.randint(100, 999)}-{cr.randint(1000, 9999)}"
                img = _word_image(word, int(size * 0.9), cr.choice(JOTTING), hand).rotate(cr.uniform(-20, 20), expand=True)
                layer.stamp(img, (W - img.width - 30, 20))
                ctx.distractors.append(word)
            elif what == "spiral":
                cx, cy = cr.randint(W - 200, W - 80), cr.randint(H // 2, H - 80)
                pts = [(cx + t * 2.2 * math.cos(t), cy + t * 2.2 * math.sin(t)) for t in np.linspace(0, 14, 120)]
                layer.line(pts, fill=230, width=3)
            elif what == "star":
                cx, cy, r = cr.randint(30, margin_left - 40 if margin_left > 80 else 60), cr.randint(top, H - 60), 18
                cx, cy = _clear_spot((cx, cy), r + 3, written, (W, H))
                pts = [(cx + r * (1 if k % 2 == 0 else 0.45) * math.cos(k * math.pi / 5 - math.pi / 2),
                        cy + r * (1 if k % 2 == 0 else 0.45) * math.sin(k * math.pi / 5 - math.pi / 2)) for k in range(11)]
                layer.line(pts, fill=230, width=3)
            else:  # coffee ring on the sheet itself
                cx, cy, r = cr.randint(100, W - 100), cr.randint(100, H - 100), cr.randint(60, 110)
                cx, cy = _clear_spot((cx, cy), r + 3, written, (W, H))
                if sheet is not None:
                    with drawing_on(sheet, (cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), mode=None) as (d, ox, oy):
                        d.ellipse((cx - r - ox, cy - r - oy, cx + r - ox, cy + r - oy), outline=(190, 150, 100), width=5)
    body_lines = [t for t in text.split("\n")]
    facts = {"title": title or None, "text": text, "lines": body_lines, "wrapped_lines": wrapped_lines,
             "signature": signature or None, "paper": paper, "ink": ink_name, "style": style}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts
    page = sheet
    _ink_onto(page, *_wave(list(layer.planes()), ctx.rng("wave"), amplitude=WAVE[ctx.difficulty], period=23.0), ink)
    return page, facts
