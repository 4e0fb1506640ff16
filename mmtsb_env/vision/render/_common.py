"""Shared pieces of the render families: content validation, seeded randomness, text layout,
textures and the difficulty "degradations" (rotation, blur, noise, JPEG artifacts).

Every family receives a :class:`Ctx`: validated content plus seeded generators. Each content
field draws its default from its own generator, so giving one field never changes the default
of another, and the same spec always gives the same pixels.

While :func:`drafting` is on, the finishing steps that only shape pixels -- surface textures,
placement on a background, shadows, degradations, chart rasterisation -- return plain stand-ins
at once. A family run that way computes exactly the facts it would report when drawn (each of
those steps draws from its own named generator, so skipping them changes no other value); that
is how :func:`mmtsb_env.vision.render.render` reports facts without drawing.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import io
import math
import random
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable, Iterable, Iterator

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from ..fonts import get_font

cv2.setNumThreads(1)  # one image per core: renders run side by side in processes, not threads


def _keep_freed_pages() -> bool:
    """Ask glibc's allocator to keep the pages of freed image buffers for the next ones.

    A render takes and frees a few 1-9 MB buffers (pages, desks, warps, 2x screens). By default
    glibc serves such sizes by ``mmap`` (or trims the freed top of its heap) and gives the pages
    back on ``free``, so every new buffer is fresh memory the kernel faults in and zeroes page by
    page: 3,000-4,700 faults and 8-12 ms of a level-1 ``statement`` or ``event_poster`` on a busy
    machine. Served from the heap below a 32 MB mmap threshold, kept up to 256 MB of free top, they
    reuse the same pages (memory held: what the largest render had in use). No effect on pixels;
    a no-op where glibc's ``mallopt`` is missing. The setting is the whole process's: set
    ``MMTSB_KEEP_FREED_PAGES=0`` before the import to keep glibc's defaults."""
    import ctypes
    import ctypes.util
    import os
    import sys

    if not sys.platform.startswith("linux") or os.environ.get("MMTSB_KEEP_FREED_PAGES", "1") == "0":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's <malloc.h>
        return bool(libc.mallopt(m_mmap_threshold, 32 << 20) and libc.mallopt(m_trim_threshold, 256 << 20))
    except (OSError, AttributeError):
        return False


KEEPS_FREED_PAGES = _keep_freed_pages()

_DRAFT: contextvars.ContextVar[bool] = contextvars.ContextVar("mmtsb_render_draft", default=False)


def drafting() -> bool:
    """Whether pixel-only finishing steps are being skipped (see the module docs)."""
    return _DRAFT.get()


class _Sketch:
    """An ``ImageDraw`` for the draft pass: measures text like ``ImageDraw`` and draws nothing."""

    DRAWS = frozenset({"text", "multiline_text", "rectangle", "rounded_rectangle", "ellipse", "line", "polygon",
                       "regular_polygon", "pieslice", "arc", "chord", "point", "bitmap"})

    def __init__(self) -> None:
        self._measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))

    def __getattr__(self, name: str) -> Any:
        if name in self.DRAWS:
            return _nothing
        return getattr(self._measure, name)


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def drawer(image: Image.Image) -> Any:
    """An ``ImageDraw`` of ``image`` whose plain text is drawn from remembered glyph masks
    (:class:`TextDraw`), or in the draft pass a stand-in that only measures (no glyph is rasterised)."""
    return _Sketch() if drafting() else TextDraw(image)


class TextDraw(ImageDraw.ImageDraw):
    """``ImageDraw.Draw`` whose ``text`` remembers each rasterised line: a single line of plain
    text (no stroke, direction, features or colour glyphs) in a FreeType font is rasterised once
    per (font, text, anchor, sub-pixel start) per process and its mask pasted with the fill --
    the same calls Pillow makes, so the same pixels. Fixed words (labels, headers, terms) recur
    on every page; drawing them was most of a dense page's text cost. Anything else goes to Pillow.

    With ``remember=False`` (text that never recurs: handwriting drawn glyph by glyph at random
    sub-pixel offsets) the lines are rasterised each time, still without Pillow's per-call layout
    objects, and kept out of the shared cache."""

    def __init__(self, image: Image.Image, remember: bool = True) -> None:
        super().__init__(image)
        self._mask = _line_mask if remember else _fresh_mask

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):  # noqa: D102 (Pillow's)
        if (args or kwargs or not isinstance(text, str) or "\n" in text or self.fontmode != "L"
                or not isinstance(font, ImageFont.FreeTypeFont)):
            return super().text(xy, text, fill, font, anchor, *args, **kwargs)
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None:
            return None
        x, y = xy
        mask, (dx, dy) = self._mask(font, text, anchor or "la", (math.modf(x)[0], math.modf(y)[0]))
        self.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
        return None


def _fresh_mask(font: ImageFont.FreeTypeFont, text: str, anchor: str,
                start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """Pillow's grey mask of one line of ``text`` and its offset (``getmask2`` as ``ImageDraw.text`` calls it)."""
    return font.getmask2(text, "L", anchor=anchor, start=start)


_line_mask = functools.lru_cache(maxsize=4096)(_fresh_mask)  # remembered per (font, text, anchor, start)


@contextlib.contextmanager
def draft() -> Iterator[None]:
    """Within this block (in this thread or task) families skip pixel-only finishing steps."""
    token = _DRAFT.set(True)
    try:
        yield
    finally:
        _DRAFT.reset(token)


# ---------------------------------------------------------------------------- validation


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Check(ABC):
    """A validator for one content value: ``check(value, path)`` returns it normalised."""

    what = "a value"

    @abstractmethod
    def __call__(self, value: Any, path: str) -> Any:
        """``value`` normalised, or the ValueError of :meth:`fail`."""

    def fail(self, value: Any, path: str, what: str | None = None) -> ValueError:
        return ValueError(f"{path} must be {what or self.what}, got {type(value).__name__} {_short(value)}")


class Str(Check):
    def __init__(self, max_len: int = 400, allow_empty: bool = False) -> None:
        self.max_len, self.allow_empty = max_len, allow_empty
        self.what = "a string"

    def __call__(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(value, path)
        if not self.allow_empty and not value.strip():
            raise ValueError(f"{path} must not be empty")
        if len(value) > self.max_len:
            raise ValueError(f"{path} is too long ({len(value)} characters, at most {self.max_len})")
        return value


class Num(Check):
    def __init__(self, lo: float | None = None, hi: float | None = None) -> None:
        self.lo, self.hi = lo, hi
        self.what = "a number"

    def __call__(self, value: Any, path: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(value, path)
        if not math.isfinite(value):
            raise ValueError(f"{path} must be a finite number, got {value!r}")
        if self.lo is not None and value < self.lo:
            raise ValueError(f"{path} must be at least {self.lo}, got {value!r}")
        if self.hi is not None and value > self.hi:
            raise ValueError(f"{path} must be at most {self.hi}, got {value!r}")
        return float(value)


class Int(Num):
    def __init__(self, lo: int | None = None, hi: int | None = None) -> None:
        super().__init__(lo, hi)
        self.what = "an integer"

    def __call__(self, value: Any, path: str) -> int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(value, path)
        super().__call__(value, path)
        return value


class Bool(Check):
    what = "a boolean (true/false)"

    def __call__(self, value: Any, path: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(value, path)
        return value


class Choice(Check):
    def __init__(self, options: Iterable[str]) -> None:
        self.options = tuple(options)
        self.what = "one of " + ", ".join(repr(o) for o in self.options)

    def __call__(self, value: Any, path: str) -> str:
        if value not in self.options or not isinstance(value, str):
            raise self.fail(value, path)
        return value


class Date(Check):
    what = "an ISO date string YYYY-MM-DD"

    def __call__(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(value, path)
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            raise self.fail(value, path) from None


class Time(Check):
    what = "a time string HH:MM (24-hour)"

    def __call__(self, value: Any, path: str) -> str:
        m = re.fullmatch(r"(\d{1,2}):(\d{2})", value) if isinstance(value, str) else None
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise self.fail(value, path)
        return f"{int(m.group(1)):02d}:{m.group(2)}"


class Color(Check):
    what = "a colour name or #rrggbb string"

    def __call__(self, value: Any, path: str) -> str:
        from PIL import ImageColor

        if not isinstance(value, str):
            raise self.fail(value, path)
        try:
            ImageColor.getrgb(value)
        except ValueError:
            raise self.fail(value, path) from None
        return value


class ListOf(Check):
    def __init__(self, item: Check, min_len: int = 0, max_len: int = 100) -> None:
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.what = f"a list of {item.what.removeprefix('a ').removeprefix('an ')}s"

    def __call__(self, value: Any, path: str) -> list:
        if not isinstance(value, (list, tuple)):
            raise self.fail(value, path)
        if not self.min_len <= len(value) <= self.max_len:
            raise ValueError(f"{path} must have {self.min_len} to {self.max_len} entries, got {len(value)}")
        return [self.item(v, f"{path}[{i}]") for i, v in enumerate(value)]


class OneOf(Check):
    """The first of several checks that accepts the value."""

    def __init__(self, *options: Check) -> None:
        self.options = options
        self.what = " or ".join(o.what for o in options)

    def __call__(self, value: Any, path: str) -> Any:
        for option in self.options:
            try:
                return option(value, path)
            except ValueError:
                continue
        raise self.fail(value, path)


class Obj(Check):
    """A JSON object with known keys; ``required`` keys must be present."""

    def __init__(self, fields: dict[str, Check], required: Iterable[str] = ()) -> None:
        self.fields, self.required = fields, tuple(required)
        self.what = "an object"

    def __call__(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(value, path)
        unknown = [k for k in value if k not in self.fields]
        if unknown:
            raise ValueError(f"{path} has unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(self.fields)}")
        missing = [k for k in self.required if k not in value]
        if missing:
            raise ValueError(f"{path} is missing required field(s): {', '.join(missing)}")
        return {k: self.fields[k](v, f"{path}.{k}") for k, v in value.items() if v is not None}


class MapOf(Check):
    """A JSON object mapping names to values of one kind."""

    def __init__(self, item: Check, min_len: int = 1, max_len: int = 12) -> None:
        self.item, self.min_len, self.max_len = item, min_len, max_len
        self.what = "an object"

    def __call__(self, value: Any, path: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(value, path)
        if not self.min_len <= len(value) <= self.max_len:
            raise ValueError(f"{path} must have {self.min_len} to {self.max_len} entries, got {len(value)}")
        return {str(k): self.item(v, f"{path}.{k}") for k, v in value.items()}


# ---------------------------------------------------------------------------- seeds and context


def seed_int(*parts: Any) -> int:
    """A stable 64-bit integer from any parts (independent of PYTHONHASHSEED)."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "little")


FONT_SCALE = {0: 1.0, 1: 0.92, 2: 0.82, 3: 0.72}


@dataclass
class Ctx:
    """What a family's draw function gets: validated content, seed, difficulty."""

    kind: str
    content: dict[str, Any]
    seed: int
    difficulty: int
    distractors: list[str] = field(default_factory=list)

    def rng(self, tag: str) -> random.Random:
        """A generator for one purpose (a field's default, layout, noise, ...)."""
        return random.Random(seed_int(self.kind, self.seed, tag))

    def np_rng(self, tag: str) -> np.random.Generator:
        return np.random.default_rng(seed_int(self.kind, self.seed, tag))

    def get(self, name: str, default: Callable[[random.Random], Any]) -> Any:
        """The content value ``name``, or ``default(rng)`` with that field's own generator."""
        if name in self.content:
            return self.content[name]
        return default(self.rng("field:" + name))

    @property
    def scale(self) -> float:
        return FONT_SCALE[self.difficulty]

    def font(self, style: str, size: float) -> ImageFont.FreeTypeFont:
        """A font whose size shrinks with difficulty."""
        return get_font(style, size * self.scale)


# ---------------------------------------------------------------------------- formatting

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def money(value: float, currency: str = "$") -> str:
    sign = "-" if value < 0 else ""
    return f"{sign}{currency}{abs(value):,.2f}"


def format_date(iso: str, style: int) -> str:
    """Draw ``iso`` in one of a few common styles (0..4)."""
    d = date.fromisoformat(iso)
    mon = MONTHS[d.month - 1]
    return [
        f"{d.month:02d}/{d.day:02d}/{d.year}",
        f"{mon[:3]} {d.day}, {d.year}",
        f"{d.day} {mon} {d.year}",
        d.isoformat(),
        f"{WEEKDAYS[d.weekday()][:3]}, {mon[:3]} {d.day}, {d.year}",
    ][style % 5]


def format_time(hhmm: str, twelve_hour: bool) -> str:
    h, m = map(int, hhmm.split(":"))
    if not twelve_hour:
        return f"{h:02d}:{m:02d}"
    return f"{(h % 12) or 12}:{m:02d} {'AM' if h < 12 else 'PM'}"


def random_date(rng: random.Random, year: int = 2026) -> str:
    start = date(year, 1, 1).toordinal()
    return date.fromordinal(start + rng.randrange(0, 365)).isoformat()


def random_time(rng: random.Random, lo: int = 8, hi: int = 21) -> str:
    return f"{rng.randint(lo, hi):02d}:{rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]):02d}"


def number_text(value: Any) -> str:
    """How a table cell value is drawn."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int):
        return f"{value:,}" if abs(value) >= 10000 else str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return number_text(int(value))
        return f"{value:,.2f}"
    return str(value)


# ---------------------------------------------------------------------------- text layout


def text_width(font: ImageFont.FreeTypeFont, text: str) -> float:
    return font.getlength(text)


def line_height(font: ImageFont.FreeTypeFont, spacing: float = 1.25) -> int:
    ascent, descent = font.getmetrics()
    return int(round((ascent + descent) * spacing))


def wrap(text: str, font: ImageFont.FreeTypeFont, max_width: float) -> list[str]:
    """Greedy word wrap; keeps explicit newlines; breaks words longer than a line.

    Remembered per (text, font, width): fixed blocks (terms, small print) are measured once per
    process, not word by word on every page."""
    return list(_wrapped(text, font, max_width))


@functools.lru_cache(maxsize=4096)
def _wrapped(text: str, font: ImageFont.FreeTypeFont, max_width: float) -> tuple[str, ...]:
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        whole = " ".join(words)
        if text_width(font, whole) <= max_width:  # a line that fits: every shorter start of it fits too
            lines.append(whole)
            continue
        current = ""
        for word in words:
            trial = f"{current} {word}" if current else word
            if text_width(font, trial) <= max_width:
                current = trial
                continue
            if current:
                lines.append(current)
            while text_width(font, word) > max_width and len(word) > 1:
                cut = len(word)
                while cut > 1 and text_width(font, word[:cut]) > max_width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return tuple(lines)


def fit_font(text: str, style: str, max_width: float, size: float, min_size: float = 8) -> ImageFont.FreeTypeFont:
    """The largest font of ``style`` not above ``size`` whose rendering of ``text`` fits."""
    return get_font(style, _fitting_size(text, style, max_width, int(size), min_size))


@functools.lru_cache(maxsize=4096)
def _fitting_size(text: str, style: str, max_width: float, size: int, min_size: float) -> float:
    """:func:`fit_font`'s size, remembered per (text, style, width, size): titles and company names
    recur, and each try measures the text again (the size, not the font, is kept: fonts are per thread)."""
    while size > min_size:
        if max((text_width(get_font(style, size), t) for t in text.split("\n")), default=0) <= max_width:
            return size
        size = int(size * 0.92)
    return min_size


# ---------------------------------------------------------------------------- colours and textures


def rgb(color: Any) -> tuple[int, int, int]:
    from PIL import ImageColor

    if isinstance(color, str):
        return ImageColor.getrgb(color)[:3]
    return tuple(int(c) for c in color[:3])


def mix(a: Any, b: Any, t: float) -> tuple[int, int, int]:
    a, b = rgb(a), rgb(b)
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def luminance(color: Any) -> float:
    r, g, b = rgb(color)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _smooth_grey(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Blurred value noise, grey uint8 of shape (h, w)."""
    gh, gw = max(2, h // cell + 2), max(2, w // cell + 2)
    grid = (rng.random((gh, gw)).astype(np.float32) * 255).astype(np.uint8)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    """Blurred value noise in [0, 1], shape (h, w)."""
    return _smooth_grey(rng, h, w, cell).astype(np.float32) / 255.0


TEXTURES = ("paper", "desk", "wood", "brick", "concrete", "fabric")
TILE = 1400  # side of the cached surface tiles; larger requests are drawn directly


def texture(kind: str, size: tuple[int, int], rng: np.random.Generator, base: Any = None) -> Image.Image:
    """A background texture: paper, desk, wood, brick, concrete, fabric (a new image each call).

    Paper is drawn for the page (a faint blotch, so text keeps its contrast). The surfaces (desk,
    wood, brick, concrete, fabric) carry no text: each is drawn once per (kind, colour) as a large
    seed-independent tile, and a call crops a window of it chosen (and maybe mirrored) by ``rng``.
    """
    if drafting():
        if kind not in TEXTURES:
            raise ValueError(f"unknown texture {kind!r}")
        return Image.new("RGB", size, rgb(base) if base is not None else (200, 200, 200))
    return Image.fromarray(texture_array(kind, size, rng, base), "RGB")


def texture_array(kind: str, size: tuple[int, int], rng: np.random.Generator, base: Any = None) -> np.ndarray:
    """:func:`texture` as a new RGB uint8 array (h, w, 3), for callers that go on in numpy/OpenCV
    (one copy out of the cached tile, none through Pillow)."""
    if kind not in TEXTURES:
        raise ValueError(f"unknown texture {kind!r}")
    if kind == "paper":
        return lookup(_blotch(size, rng), _paper_table(rgb(base or PAPER)))
    window, mirrored, fresh = _surface_window(kind, size, rng, base)
    if fresh:
        return window
    return cv2.flip(window, 1) if mirrored else window.copy()  # mirrored in C (numpy's reversed copy is slow)


PAPER = (250, 249, 244)  # the paper's colour unless told


def _paper_planes(size: tuple[int, int], rng: np.random.Generator, base: Any) -> list[np.ndarray]:
    """The paper's three colour planes (h, w) uint8: ``base`` times (0.975 + 0.03 * a faint blotch),
    per channel through a lookup table."""
    blotch = _blotch(size, rng)
    return [cv2.LUT(blotch, t) for t in _paper_table(rgb(base or PAPER))]


def _blotch(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The paper's faint blotch over ``size`` (w, h): grey uint8, drawn from ``rng``."""
    w, h = size
    return _smooth_grey(rng, h, w, 150)


def _surface_window(kind: str, size: tuple[int, int], rng: np.random.Generator,
                    base: Any) -> tuple[np.ndarray, bool, bool]:
    """A surface of ``size``: a read-only window of its cached tile and whether to mirror it
    (left-right), both drawn from ``rng`` -- or, beyond the tile's size, a fresh surface (third
    value True: the array is the caller's)."""
    w, h = size
    key = None if base is None else rgb(base)
    if w > TILE or h > TILE:
        return _surface(kind, (w, h), rng, key), False, True
    ox, oy = (int(v) for v in rng.integers(0, (TILE - w + 1, TILE - h + 1)))
    return _surface_tile(kind, key)[oy:oy + h, ox:ox + w], rng.random() < 0.5, False


def lookup(grey: np.ndarray, tables: tuple[np.ndarray, np.ndarray, np.ndarray]) -> np.ndarray:
    """An RGB uint8 image from a grey one through one 256-entry table per channel: one lookup of
    whole pixels (the three tables packed as the bytes of a 32-bit table, a filler fourth), then
    the filler dropped -- half the cost of three one-channel lookups merged, a third of OpenCV's
    three-channel lookup on the grey image spread to RGB."""
    packed = np.stack([*tables, tables[0]], axis=1).view(np.int32).reshape(256)
    pixels = cv2.LUT(grey, packed).view(np.uint8).reshape(*grey.shape, 4)
    return cv2.cvtColor(pixels, cv2.COLOR_RGBA2RGB)


@functools.lru_cache(maxsize=64)
def _paper_table(color: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The paper's per-channel lookup tables (see :func:`lookup`): blotch level -> channel value."""
    v = np.arange(256, dtype=np.float64) / 255.0
    return tuple(np.minimum(255, (c * (0.975 + 0.03 * v)).astype(np.int64)).astype(np.uint8) for c in color)


@functools.lru_cache(maxsize=8)
def _surface_tile(kind: str, base: tuple[int, int, int] | None) -> np.ndarray:
    tile = _surface(kind, (TILE, TILE), np.random.default_rng(seed_int("surface-tile", kind, base)), base)
    tile.flags.writeable = False  # shared by every call: windows of it are copied out, never written
    return tile


def _surface(kind: str, size: tuple[int, int], rng: np.random.Generator, base: Any = None) -> np.ndarray:
    """A surface (desk, wood, brick, concrete, fabric) of ``size`` as an RGB uint8 array.

    Each is its colour times a grey shading map (blotches, wood grain and planks, the weave),
    worked out on one channel in float32, brought to the three colour planes by OpenCV (rounding,
    saturating), plus grey per-pixel grain: the channel work is a few passes in C, not float32
    arithmetic on three channels (which cost ~50 ms per 1400-px tile)."""
    w, h = size
    if kind == "brick":
        return _grained(_bricks(w, h, rgb(base or (150, 70, 50)), rng), rng, 12)
    if kind == "wood":
        plank = 96
        row_plank = np.arange(h) // plank
        offsets = (rng.random(h // plank + 2).astype(np.float32) * 50)[row_plank][:, None]
        bend = _smooth_noise(rng, h, w, 160) * np.float32(40)  # the rings wander
        across = np.sin(np.arange(w, dtype=np.float32)[None, :] * np.float32(0.004) + offsets) * np.float32(2.0)
        ys = np.arange(h, dtype=np.float32)[:, None]
        rings = np.sin((ys + bend + offsets) * np.float32(0.11) + across)
        streaks = cv2.resize((rng.random((h, max(2, w // 40))) * 255).astype(np.uint8), (w, h),
                             interpolation=cv2.INTER_LINEAR).astype(np.float32) * np.float32(0.08 / 255)
        tint = (np.float32(0.85) + np.float32(0.2) * rng.random(h // plank + 2).astype(np.float32))[row_plank][:, None]
        shade = tint * (np.float32(0.88) + np.float32(0.06) * rings + streaks)  # 0.82 + 0.12 * (rings / 2 + 1 / 2)
        shade[(np.arange(h) % plank) < 3] *= np.float32(0.55)  # the seams between planks
        return _grained(_tinted(shade, rgb(base or (160, 115, 70))), rng, 8)
    if kind == "concrete":
        shade = np.float32(0.85) + np.float32(0.25) * _smooth_noise(rng, h, w, 60)
        return _grained(_tinted(shade, rgb(base or (165, 165, 160))), rng, 14)
    if kind == "fabric":
        cell = np.array([[0, 0, 1, 1], [0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 0, 0]], np.float32)  # 2x2 threads over and under
        weave = np.tile(cell, (h // 4 + 1, w // 4 + 1))[:h, :w]
        return _grained(_tinted(np.float32(0.92) + np.float32(0.1) * weave, rgb(base or (70, 80, 95))), rng, 8)
    shade = np.float32(0.85) + np.float32(0.25) * _smooth_noise(rng, h, w, 200)  # desk
    return _grained(_tinted(shade, rgb(base or (120, 95, 75))), rng, 4)


def _bricks(w: int, h: int, color: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """Rows of bricks, every other row offset by half a brick, each its own shade of ``color``, in mortar."""
    out = cv2.merge([np.full((h, w), v, np.uint8) for v in (205, 200, 190)])  # mortar (numpy fills a colour slowly)
    bh, bw, gap = 34, 90, 5
    for row, y in enumerate(range(0, h, bh)):
        offset = -(bw // 2) * (row % 2)
        for x in range(offset, w, bw):
            f = 0.8 + 0.35 * rng.random()
            cv2.rectangle(out, (max(0, x + gap // 2), y + gap // 2), (max(0, x + bw - gap // 2) - 1, y + bh - gap // 2 - 1),
                          tuple(min(255, int(c * f)) for c in color), thickness=-1)
    return out


def _tinted(shade: np.ndarray, color: tuple[int, int, int]) -> np.ndarray:
    """``color`` times the grey map ``shade`` (float32, h x w), rounded and saturated, as RGB uint8."""
    return cv2.merge([cv2.convertScaleAbs(shade, alpha=float(c)) for c in color])


def _grained(arr: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """``arr`` (RGB uint8, in place) plus grey uniform grain in [-amount/2, amount/2], whole levels:
    one random byte per pixel, looked up as its positive and its negative part (saturating)."""
    h, w = arr.shape[:2]
    levels = np.rint((np.arange(256) + 0.5) / 256 * amount - amount / 2)
    picks = np.frombuffer(rng.bytes(w * h), np.uint8).reshape(h, w)
    up = cv2.LUT(picks, np.maximum(levels, 0).astype(np.uint8))
    down = cv2.LUT(picks, np.maximum(-levels, 0).astype(np.uint8))
    cv2.add(arr, cv2.cvtColor(up, cv2.COLOR_GRAY2RGB), dst=arr)
    cv2.subtract(arr, cv2.cvtColor(down, cv2.COLOR_GRAY2RGB), dst=arr)
    return arr


def gradient(size: tuple[int, int], top: Any, bottom: Any, diagonal: bool = False) -> Image.Image:
    """A vertical (or top-left to bottom-right) blend from ``top`` to ``bottom``."""
    w, h = size
    if drafting():  # the draft pass measures, it never looks at pixels
        return Image.new("RGB", (w, h), rgb(top))
    return _gradient((int(w), int(h)), rgb(top), rgb(bottom), bool(diagonal)).copy()


@functools.lru_cache(maxsize=16)
def _gradient(size: tuple[int, int], top: tuple[int, int, int], bottom: tuple[int, int, int],
              diagonal: bool) -> Image.Image:
    """:func:`gradient`, remembered: posters and app covers reuse a few palettes at a few sizes
    (a caller gets a copy, ~0.3 ms, instead of the ~3 ms blend of a page)."""
    w, h = size
    # the blend drawn on a small grid in colour, then brought to size bilinearly (OpenCV, in one
    # pass: a linear blend stays linear under bilinear resampling, so nothing is lost)
    n = 256
    t = np.linspace(0.0, 1.0, n, dtype=np.float32)
    share = (t[:, None] + t[None, :]) / 2 if diagonal else np.repeat(t[:, None], 2, axis=1)
    a, b = (np.array(rgb(c), np.float32) for c in (top, bottom))
    small = np.rint(a + (b - a) * share[..., None]).astype(np.uint8)
    return Image.fromarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), "RGB")


# ---------------------------------------------------------------------------- geometry


def perspective_coeffs(dst: list[tuple[float, float]], src: list[tuple[float, float]]) -> list[float]:
    """Coefficients for ``Image.transform(PERSPECTIVE)`` mapping output points ``dst`` to input ``src``."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(dst, src):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs.extend([u, v])
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float)).tolist()


def skew(image: Image.Image, rng: random.Random, strength: float, fill: Any) -> Image.Image:
    """A perspective view of ``image`` (same size): corners pulled in by up to ``strength``."""
    w, h = image.size
    src, dst = skew_corners(image.size, rng, strength)
    return warp_perspective(image, src, dst, (w, h), fill)


def skew_corners(size: tuple[int, int], rng: random.Random, strength: float) -> tuple[list, list]:
    """The corners (src, dst) of :func:`skew`'s view of an image of ``size``."""
    w, h = size
    dx, dy = w * strength, h * strength
    side = rng.choice([-1, 1])
    # Shrink one vertical edge (as if the plane turns away) and jitter the others a little.
    dst = [
        (rng.uniform(0, dx * 0.3), dy * (1.0 if side < 0 else 0.15) * rng.uniform(0.6, 1.0)),
        (w - rng.uniform(0, dx * 0.3), dy * (1.0 if side > 0 else 0.15) * rng.uniform(0.6, 1.0)),
        (w - rng.uniform(0, dx * 0.3), h - dy * (1.0 if side > 0 else 0.15) * rng.uniform(0.6, 1.0)),
        (rng.uniform(0, dx * 0.3), h - dy * (1.0 if side < 0 else 0.15) * rng.uniform(0.6, 1.0)),
    ]
    return [(0, 0), (w, 0), (w, h), (0, h)], dst


def _array(image: Image.Image) -> np.ndarray:
    return np.asarray(image if image.mode in ("RGB", "RGBA", "L") else image.convert("RGB"))


def warp(arr: np.ndarray, matrix: np.ndarray, size: tuple[int, int], border: tuple = (0, 0, 0, 0),
         onto: np.ndarray | None = None) -> np.ndarray:
    """``arr`` through the 2x3 (affine) or 3x3 (perspective) ``matrix`` into an image of ``size``,
    bilinear, outside it ``border`` -- or, given ``onto`` (an array of that size), written into
    ``onto`` only where the warped picture lands (OpenCV's transparent border); a four-channel
    ``arr`` (RGB and a filler) may be written onto an RGB ``onto``.

    RGB goes through RGBA: OpenCV's four-channel path is about twice as fast as its three-channel
    one, and each channel is resampled alone, so the pixels are the same."""
    fn = cv2.warpAffine if matrix.shape[0] == 2 else cv2.warpPerspective
    rgb3 = arr.ndim == 3 and arr.shape[2] == 3
    src = cv2.cvtColor(arr, cv2.COLOR_RGB2RGBA) if rgb3 else arr
    if onto is None:
        value = tuple(border[:3]) + (255,) if rgb3 else border
        out = fn(src, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=value)
        return cv2.cvtColor(out, cv2.COLOR_RGBA2RGB) if rgb3 else out
    if onto.shape[2:] == src.shape[2:]:  # as many channels: straight in
        fn(src, matrix, size, dst=onto, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        return onto
    under = cv2.cvtColor(onto, cv2.COLOR_RGB2RGBA)
    fn(src, matrix, size, dst=under, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    cv2.cvtColor(under, cv2.COLOR_RGBA2RGB, dst=onto)  # written back in place (``onto`` may be a view of a frame)
    return onto


def warp_perspective(image: Image.Image, src: list[tuple[float, float]], dst: list[tuple[float, float]],
                     size: tuple[int, int], fill: Any = None) -> Image.Image:
    """``image`` seen in perspective: the points ``src`` of it land on ``dst`` of an image of
    ``size``, sampled bilinearly (OpenCV: several times faster than Pillow's transform); outside
    the picture is ``fill`` (transparent black for RGBA)."""
    arr = _array(image)
    matrix = cv2.getPerspectiveTransform(np.float32(src), np.float32(dst))
    border = _border(arr, fill)
    out = warp(arr, matrix, size, border)
    return Image.fromarray(out, image.mode if image.mode in ("RGB", "RGBA", "L") else "RGB")


def rotate(image: Image.Image, angle: float, fill: Any = None) -> Image.Image:
    """``image`` turned ``angle`` degrees counter-clockwise about its centre, same size, bilinear."""
    arr = _array(image)
    h, w = arr.shape[:2]
    matrix = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0)
    out = warp(arr, matrix, (w, h), _border(arr, fill))
    return Image.fromarray(out, image.mode if image.mode in ("RGB", "RGBA", "L") else "RGB")


def gaussian_blur(image: Image.Image, sigma: float) -> Image.Image:
    """A true Gaussian blur of ``sigma`` (OpenCV's separable kernel: a fraction of Pillow's cost)."""
    arr = _array(image)
    return Image.fromarray(cv2.GaussianBlur(arr, (0, 0), sigma), image.mode if image.mode in ("RGB", "RGBA", "L") else "RGB")


def _border(arr: np.ndarray, fill: Any) -> tuple:
    channels = 1 if arr.ndim == 2 else arr.shape[2]
    if fill is None:
        return (0,) * 4
    value = tuple(rgb(fill)) if channels >= 3 else (int(luminance(fill)),)
    return value + (255,) * (4 - len(value)) if channels == 4 else value + (0,) * (4 - len(value))


def drop_shadow(canvas: Image.Image, box: tuple[int, int, int, int], offset: int = 8, blur: int = 10, strength: int = 90) -> None:
    """Darken ``canvas`` under ``box`` shifted by ``offset`` (soft shadow), in place (see :func:`shade`)."""
    if drafting():
        return
    m = 3 * blur  # the region shade() touches, taken out of the canvas and put back
    x0, y0, x1, y1 = (v + offset for v in box)
    rx0, ry0 = max(0, int(x0 - m)), max(0, int(y0 - m))
    rx1, ry1 = min(canvas.width, int(math.ceil(x1 + m))), min(canvas.height, int(math.ceil(y1 + m)))
    if rx1 <= rx0 or ry1 <= ry0:
        return
    crop = canvas.crop((rx0, ry0, rx1, ry1))
    arr = np.array(crop if crop.mode == "RGB" else crop.convert("RGB"))
    if shade(arr, tuple(v - d for v, d in zip(box, (rx0, ry0, rx0, ry0))), offset, blur, strength) is not None:
        out = Image.fromarray(arr, "RGB")
        canvas.paste(out if canvas.mode == "RGB" else out.convert(canvas.mode), (rx0, ry0))


def shade(arr: np.ndarray, box: tuple[int, int, int, int], offset: int = 8, blur: int = 10, strength: int = 90,
          covered: bool = False):
    """Darken ``arr`` (RGB or RGBX uint8, in place) under ``box`` shifted by ``offset``: a soft black shadow,
    the box Gaussian-blurred by ``blur`` (sigma) and ``strength`` deep at its core. Only the
    shadow's own region (the shifted box and three sigmas around it) is touched; with ``covered``
    (the caller lays the document over ``box`` next) not the inside of ``box`` either. A blurred
    rectangle is the product of its two blurred sides, so the shadow is two 1-D profiles
    multiplied over the strips it darkens: no mask drawn, blurred or scaled. Returns that region
    (x0, y0, x1, y1), or None when it is empty."""
    h, w = arr.shape[:2]
    x0, y0, x1, y1 = (v + offset for v in box)
    m = 3 * blur
    rx0, ry0 = max(0, int(x0 - m)), max(0, int(y0 - m))
    rx1, ry1 = min(w, int(math.ceil(x1 + m))), min(h, int(math.ceil(y1 + m)))
    if rx1 <= rx0 or ry1 <= ry0:
        return None
    across, down = _blurred_span(x0 - rx0, x1 - rx0, rx1 - rx0, blur), _blurred_span(y0 - ry0, y1 - ry0, ry1 - ry0, blur)
    for sy0, sy1, sx0, sx1 in _around(box, (rx0, ry0, rx1, ry1)) if covered else [(ry0, ry1, rx0, rx1)]:
        dark = np.outer(down[sy0 - ry0:sy1 - ry0], across[sx0 - rx0:sx1 - rx0])
        keep = cv2.convertScaleAbs(dark, alpha=-float(strength), beta=255.0)  # 255 - strength * share, rounded
        region = arr[sy0:sy1, sx0:sx1]
        spread = cv2.COLOR_GRAY2RGBA if arr.shape[2] == 4 else cv2.COLOR_GRAY2RGB  # (a fourth channel is a filler)
        region[:] = cv2.multiply(region, cv2.cvtColor(keep, spread), scale=1 / 255.0)  # a black shadow: darken
    return rx0, ry0, rx1, ry1


def _blurred_span(a: float, b: float, n: int, sigma: float) -> np.ndarray:
    """n pixels (float32) of the span [a, b) Gaussian-blurred by ``sigma``: the share of each pixel
    centre's blur kernel that falls inside the span (the normal CDF, interpolated in a fine table)."""
    centres = np.arange(n, dtype=np.float64) + 0.5
    z, cdf = _normal_cdf()
    scale = 1 / max(sigma, 1e-6)
    return (np.interp((b - centres) * scale, z, cdf) - np.interp((a - centres) * scale, z, cdf)).astype(np.float32)


@functools.lru_cache(maxsize=1)
def _normal_cdf() -> tuple[np.ndarray, np.ndarray]:
    """The standard normal CDF at 4801 points over -6..6 (linear interpolation: within 1e-6)."""
    z = np.linspace(-6.0, 6.0, 4801)
    return z, np.array([0.5 * (1 + math.erf(v / math.sqrt(2))) for v in z])


def _around(box: tuple[int, int, int, int], region: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """The strips of ``region`` outside ``box`` (both x0, y0, x1, y1), as (y0, y1, x0, x1) slices:
    above, below, left and right of it (empty ones left out)."""
    bx0, by0, bx1, by1 = (int(v) for v in box)
    rx0, ry0, rx1, ry1 = region
    top = min(max(by0, ry0), ry1)  # the box's rows and columns, clipped to the region
    bottom = max(min(by1, ry1), top)
    left = min(max(bx0, rx0), rx1)
    right = max(min(bx1, rx1), left)
    strips = [(ry0, top, rx0, rx1), (bottom, ry1, rx0, rx1), (top, bottom, rx0, left), (top, bottom, right, rx1)]
    return [(a, b, c, d) for a, b, c, d in strips if b > a and d > c]


# ---------------------------------------------------------------------------- degradations

@dataclass(frozen=True)
class Scan:
    """What :func:`degrade` does at one level: turn, scale, light, noise, blur and JPEG."""

    angle: float  # largest turn, degrees (drawn in 40-100 % of it, either way)
    blur: float = 0.0  # Gaussian sigma, px of the output
    noise: float = 0.0  # grey sensor noise sigma, grey levels
    quality: int | None = None  # JPEG quality (None: no re-compression)
    light: float = 0.0  # darkening towards one side (share of full light lost at the far edge)
    scale: float = 1.0  # output size / input size: the turn and the shrink are one warp


DEGRADE = {
    0: Scan(0.0),
    1: Scan(1.5),
    2: Scan(4.0, blur=0.6, noise=5.0, quality=60, light=0.12),
    3: Scan(8.0, blur=0.5, noise=9.0, quality=50, light=0.22, scale=0.75),  # smaller, noisier, re-compressed
}


@dataclass(frozen=True)
class Sheet:
    """A sheet of paper to draw a document on (:func:`sheet`): draw on ``image``; ``pixels`` is
    the four-channel (h, w, 4) RGBX array that ``image`` draws into (None at level 0 and in the
    draft pass, where ``image`` is an ordinary RGB image: it is the document delivered)."""

    image: Image.Image
    pixels: np.ndarray | None = None


def sheet(ctx: Ctx, size: tuple[int, int], base: Any = None) -> Sheet:
    """A page of ``texture("paper", size, ctx.np_rng("paper"), base)`` to draw on, the same pixels.

    From level 1 (not drafting) the page is headed for :func:`place_on` and :func:`degrade`, which
    work on four-channel arrays: its pixels are made one (RGBX; Pillow keeps RGB as four bytes a
    pixel too, and draws on RGBX exactly as on RGB) and the image is Pillow's view of that
    memory, so what is drawn on it needs no conversion out of Pillow (~3 ms on a 1-Mpx page)."""
    if ctx.difficulty == 0 or drafting():
        return Sheet(texture("paper", size, ctx.np_rng("paper"), base))
    planes = _paper_planes(size, ctx.np_rng("paper"), base)
    pixels = cv2.merge([*planes, planes[0]])  # the fourth channel is a filler (never read)
    image = Image.frombuffer("RGBX", size, pixels, "raw", "RGBX", 0, 1)
    image.readonly = 0  # drawn on in place: the strokes land in ``pixels`` (Pillow would copy a read-only view)
    return Sheet(image, pixels)


def place_on(doc: Image.Image | Sheet, ctx: Ctx, background: str = "desk", margin: float = 0.06,
             base: Any = None) -> Image.Image | np.ndarray:
    """Put a document on a textured background with a soft shadow (difficulty >= 1), as an array
    for :func:`degrade` (no copy into Pillow and out again): RGB, or RGBX for a :class:`Sheet`
    (its pixels copied onto the desk as they are); the document itself at level 0."""
    if isinstance(doc, Sheet) and doc.pixels is None:
        doc = doc.image
    if ctx.difficulty == 0 or drafting():
        return doc
    w, h = doc.image.size if isinstance(doc, Sheet) else doc.size
    mx, my = int(w * margin) + 10, int(h * margin) + 10
    size = (w + 2 * mx, h + 2 * my)
    if isinstance(doc, Sheet):
        window, mirrored, _ = _surface_window(background, size, ctx.np_rng("background"), base)
        canvas = cv2.cvtColor(cv2.flip(window, 1) if mirrored else window, cv2.COLOR_RGB2RGBA)
    else:
        canvas = texture_array(background, size, ctx.np_rng("background"), base)
    shade(canvas, (mx, my, mx + w, my + h), offset=max(4, w // 120), blur=max(4, w // 90), covered=True)
    if isinstance(doc, Sheet):
        canvas[my:my + h, mx:mx + w] = doc.pixels
    else:
        canvas[my:my + h, mx:mx + w] = _array(doc) if doc.mode == "RGB" else np.asarray(doc.convert("RGB"))
    return canvas


def degrade(image: Image.Image | np.ndarray, ctx: Ctx, fill: Any = None, view: np.ndarray | None = None,
            scan: Scan | None = None) -> Image.Image:
    """Apply a level's :class:`Scan` (``DEGRADE[ctx.difficulty]`` unless ``scan`` is given):
    rotation and shrink, lighting, noise, blur and JPEG artifacts (deterministic), to an image, an
    RGB uint8 array or an RGBX one (:func:`place_on` of a :class:`Sheet`: warped as it is).
    ``view`` (a 3x3 perspective matrix, e.g. of :func:`skew_corners`) is applied before the
    rotation, in the same single warp.

    The warp maps straight to the output size, so everything after it (and the warp itself, whose
    cost follows its output) works on the pixels the level delivers. It runs on four channels
    (OpenCV's fast path, see :func:`warp`) in the order what follows needs: BGR when a JPEG
    follows (its encoder's order; light, noise and blur treat the channels alike), RGB otherwise,
    unpacked by Pillow straight from the four channels when nothing else follows (level 1). The
    light and the grey sensor noise are :func:`lit_and_noisy`; the blur OpenCV's separable Gaussian.
    """
    look = scan or DEGRADE[ctx.difficulty]
    rgbx = isinstance(image, np.ndarray) and image.ndim == 3 and image.shape[2] == 4  # already four channels (place_on of a Sheet)
    if ctx.difficulty == 0 or drafting():
        if rgbx:
            return Image.frombytes("RGB", (image.shape[1], image.shape[0]), image, "raw", "RGBX")
        return Image.fromarray(image, "RGB") if isinstance(image, np.ndarray) else image
    if not isinstance(image, np.ndarray) and image.mode != "RGB":
        image = image.convert("RGB")
    rng = ctx.rng("degrade")
    bgr = look.quality is not None
    swap = bgr and rgbx  # an RGBX input is warped as it is, brought to BGR after (the warp treats channels alike)
    w, h = image.size if isinstance(image, Image.Image) else (image.shape[1], image.shape[0])
    if look.angle or look.scale != 1 or view is not None:
        src = image if rgbx else four_channels(image, bgr)
        angle = _drawn_angle(rng, look.angle)
        if fill is None:  # the colour in the top left corner (in RGB)
            corner = src[:4, :4, :3].reshape(-1, 3).mean(0)
            fill = tuple(int(c) for c in (corner[::-1] if bgr and not rgbx else corner))
        s = look.scale
        # turn about the input's centre, then shrink (pixel centres: out + 0.5 = s * (in + 0.5))
        shrink = np.array([[s, 0, (s - 1) / 2], [0, s, (s - 1) / 2], [0, 0, 1]])
        turn = shrink @ _turn((w, h), angle)
        if view is not None:  # one resampling for all: the view, then the turn
            turn = turn @ view
        w, h = max(1, round(w * s)), max(1, round(h * s))
        border = tuple(rgb(fill)[::-1] if bgr and not rgbx else rgb(fill)) + (255,)
        fn = cv2.warpAffine if view is None else cv2.warpPerspective
        out = fn(src, turn if view is not None else turn[:2], (w, h), flags=cv2.INTER_LINEAR,
                 borderMode=cv2.BORDER_CONSTANT, borderValue=border)
        if not (bgr or look.light or look.noise or look.blur):  # the turned picture is the result
            return Image.frombytes("RGB", (w, h), out, "raw", "RGBX")
        arr = cv2.cvtColor(out, cv2.COLOR_RGBA2BGR if swap else cv2.COLOR_BGRA2BGR if bgr else cv2.COLOR_RGBA2RGB)
        del src, out  # freed before the next full-size buffers are taken (fewer fresh pages to fault in)
    else:  # nothing to warp: a copy to work on in place (in the encoder's order when a JPEG follows)
        arr = np.asarray(image) if isinstance(image, Image.Image) else image
        if rgbx:
            arr = cv2.cvtColor(arr, cv2.COLOR_RGBA2BGR if bgr else cv2.COLOR_RGBA2RGB)
        else:
            arr = cv2.cvtColor(arr, cv2.COLOR_RGB2BGR) if bgr else arr.copy()
    if look.light or look.noise:
        ramp = None
        if look.light:  # uneven lighting: darker towards one side
            ramp = np.linspace(255.0, 255.0 * (1 - look.light), w, dtype=np.float32).astype(np.uint8)
            if rng.random() < 0.5:
                ramp = ramp[::-1]
        grain = _noise_windows(ctx.np_rng("noise"), (w, h), look.noise) if look.noise else None
        arr = lit_and_noisy(arr, ramp, grain)
    if look.blur:  # the kernel spans +-2 sigma (OpenCV's default for uint8 is +-3: twice the work for <5 % of the weight)
        k = 2 * math.ceil(2 * look.blur) + 1
        arr = cv2.GaussianBlur(arr, (k, k), look.blur)
    return _jpeg_of_bgr(arr, look.quality) if bgr else Image.fromarray(arr, "RGB")


def _drawn_angle(rng, largest: float) -> float:
    """A scan's turn: 40-100 % of ``largest`` degrees, either way (two draws from ``rng``)."""
    return rng.uniform(0.4, 1.0) * largest * rng.choice([-1, 1])


def _turn(size: tuple[int, int], angle: float) -> np.ndarray:
    """The 3x3 turn by ``angle`` degrees about the centre of an image of ``size`` (w, h)."""
    w, h = size
    return np.vstack([cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle, 1.0), (0, 0, 1)])


def four_channels(image: Image.Image | np.ndarray, bgr: bool) -> np.ndarray:
    """An RGB image or array as a four-channel (h, w, 4) uint8 array in BGR(X) or RGB(X) order, the
    fourth channel a filler: Pillow packs an image straight to four bytes a pixel (its own
    layout), an array is converted by OpenCV."""
    if isinstance(image, np.ndarray):
        return cv2.cvtColor(image, cv2.COLOR_RGB2BGRA if bgr else cv2.COLOR_RGB2RGBA)
    data = image.tobytes("raw", "BGRX" if bgr else "RGBX")
    return np.frombuffer(data, np.uint8).reshape(image.height, image.width, 4)


def jpeg(image: Image.Image | np.ndarray, quality: int) -> Image.Image:
    """``image`` (a Pillow image or an RGB, RGBA or RGBX uint8 array) through a JPEG encode and decode at
    ``quality`` (the artefacts a re-sent photo has), as an RGB image.

    OpenCV's libjpeg-turbo encoder on the array (the same bytes as Pillow's encoder at its
    defaults: 4:2:0 chroma, no optimisation; compared pixel for pixel, at about two thirds of the
    cost), decoded by Pillow into the image (:func:`_jpeg_of_bgr`)."""
    arr = image if isinstance(image, np.ndarray) else _array(image)
    if arr.ndim == 3 and arr.shape[2] == 4:  # RGBA or RGBX: the fourth channel dropped on the way
        return _jpeg_of_bgr(cv2.cvtColor(arr, cv2.COLOR_RGBA2BGR), quality)
    if arr.ndim == 2 or arr.shape[2] != 3:
        arr = np.asarray(Image.fromarray(arr).convert("RGB"))
    return _jpeg_of_bgr(cv2.cvtColor(arr, cv2.COLOR_RGB2BGR), quality)


def _jpeg_of_bgr(bgr: np.ndarray, quality: int) -> Image.Image:
    """A BGR uint8 array through OpenCV's JPEG encoder, decoded by Pillow straight into the RGB
    image returned (the same libjpeg-turbo decoder and pixels as OpenCV's; no decoded array copied
    into Pillow after, which cost about as much as the decoding)."""
    ok, data = cv2.imencode(".jpg", bgr, (cv2.IMWRITE_JPEG_QUALITY, int(quality)))
    if not ok:
        raise RuntimeError(f"JPEG encoding of a {bgr.shape} image failed")
    image = Image.open(io.BytesIO(data.tobytes()))
    image.load()
    return image


def jpeg_array(arr: np.ndarray, quality: int) -> np.ndarray:
    """:func:`jpeg` of an RGB uint8 array, as an array."""
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(arr, cv2.COLOR_RGB2BGR), (cv2.IMWRITE_JPEG_QUALITY, int(quality)))
    if not ok:
        raise RuntimeError(f"JPEG encoding of a {arr.shape} image failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR_RGB)  # decoded straight to RGB: no swap after


def grey_noise(rng: np.random.Generator, size: tuple[int, int], sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Grey Gaussian noise of ``sigma`` over ``size`` (w, h), drawn from ``rng``, as two uint8
    (h, w) arrays: its positive and its negative part (add one, subtract the other).

    One random byte per pixel picks one of 256 equally likely quantiles of the Gaussian (the
    noise is whole grey levels anyway), so drawing it costs a byte per pixel and a table lookup.
    The bytes are those ``rng.bytes(w * h)`` gives, taken straight from the bit generator's 64-bit
    words (``Generator.bytes`` goes through 32-bit integers: 0.4 ms more on a 1024 x 768 frame).
    """
    w, h = size
    up, down = _noise_tables(float(sigma))
    picks = rng.bit_generator.random_raw(-(-(w * h) // 8)).astype("<u8", copy=False).view(np.uint8)[:w * h].reshape(h, w)
    return cv2.LUT(picks, up), cv2.LUT(picks, down)


NOISE_TILE = 1400  # side of the cached noise tiles (every image drawn is smaller; larger ones get fresh noise)


def sensor_noise(arr: np.ndarray, rng: np.random.Generator, sigma: float, dst: np.ndarray | None = None) -> np.ndarray:
    """``arr`` (RGB uint8) plus grey Gaussian noise of ``sigma`` (saturating, in C), into ``dst``
    when given (``arr`` itself: in place): a window of a cached per-sigma noise tile, its offset
    and orientation drawn from ``rng``. The tile holds the positive and negative parts already
    spread over three channels, so a call is two saturating array operations on views: no random
    draws per pixel, no lookups, no channel copies."""
    up, down = _noise_windows(rng, (arr.shape[1], arr.shape[0]), sigma)
    return cv2.subtract(cv2.add(arr, up, dst=dst), down, dst=dst)


def _noise_windows(rng: np.random.Generator, size: tuple[int, int], sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The positive and negative parts (three-channel uint8, (h, w, 3)) of :func:`sensor_noise`'s
    noise over ``size`` (w, h): views of the cached tile, or fresh noise beyond its size."""
    w, h = size
    if h > NOISE_TILE or w > NOISE_TILE:
        up, down = grey_noise(rng, (w, h), sigma)
        return cv2.cvtColor(up, cv2.COLOR_GRAY2RGB), cv2.cvtColor(down, cv2.COLOR_GRAY2RGB)
    up, down = _noise_tile(float(sigma))
    oy, ox = (int(v) for v in rng.integers(0, (NOISE_TILE - h + 1, NOISE_TILE - w + 1)))
    return up[oy:oy + h, ox:ox + w], down[oy:oy + h, ox:ox + w]


def lit_and_noisy(arr: np.ndarray, ramp: np.ndarray | None, grain: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """``arr`` (RGB or BGR uint8, changed in place and returned) times ``ramp / 255`` (one light
    level per column, uint8; None: full light), plus the noise ``grain`` (its positive and
    negative parts; None: none), saturating. A column's light is a whole level of 255, so the ramp
    is runs of equal columns: each run is lit and gets the noise's positive part in one weighted
    add (no full-size light image built and multiplied), then the negative part comes off at once."""
    up, down = grain if grain is not None else (None, None)
    if ramp is not None:
        bounds = [0, *(np.flatnonzero(np.diff(ramp)) + 1).tolist(), len(ramp)]
        for x0, x1 in zip(bounds[:-1], bounds[1:]):
            band = arr[:, x0:x1]
            if up is None:
                cv2.convertScaleAbs(band, dst=band, alpha=int(ramp[x0]) / 255.0)
            else:
                cv2.addWeighted(band, int(ramp[x0]) / 255.0, up[:, x0:x1], 1.0, 0.0, dst=band)
    elif up is not None:
        cv2.add(arr, up, dst=arr)
    if down is not None:
        cv2.subtract(arr, down, dst=arr)
    return arr


@functools.lru_cache(maxsize=8)
def _noise_tile(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    up, down = grey_noise(np.random.default_rng(seed_int("noise-tile", sigma)), (NOISE_TILE, NOISE_TILE), sigma)
    return cv2.cvtColor(up, cv2.COLOR_GRAY2RGB), cv2.cvtColor(down, cv2.COLOR_GRAY2RGB)


@functools.lru_cache(maxsize=16)
def _noise_tables(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    from statistics import NormalDist

    z = NormalDist()
    levels = np.array([round(sigma * z.inv_cdf((i + 0.5) / 256)) for i in range(256)])
    levels = np.clip(levels, -255, 255)
    return np.maximum(levels, 0).astype(np.uint8), np.maximum(-levels, 0).astype(np.uint8)


def clutter_count(ctx: Ctx) -> int:
    """How many distractor elements to add at this difficulty."""
    return {0: 0, 1: 1, 2: 3, 3: 5}[ctx.difficulty]


def turned_view(ctx: Ctx, size: tuple[int, int], box: tuple[float, float, float, float], look: Scan,
                view: np.ndarray | None = None) -> tuple[np.ndarray | None, list[int], list[int]]:
    """A photo's turn drawn by the family itself (so it knows where a picture lands), for
    :func:`degrade` with ``scan=dataclasses.replace(look, angle=0)``: up to ``look.angle`` degrees
    (40-100 % of it, either way, from ``ctx.rng("turn")``) about the centre of an image of ``size``,
    after ``view`` (a 3x3 perspective, or None). Returns the 3x3 view to hand to degrade (None
    when there is nothing to warp), ``box`` ([left, top, right, bottom]) as it lands in the
    delivered photo after the scan's shrink (pixel centres: out + 0.5 = scale * (in + 0.5)), and
    that photo's size [width, height]."""
    w, h = size
    r = ctx.rng("turn")
    angle = _drawn_angle(r, look.angle) if look.angle else 0.0
    if angle:
        view = _turn(size, angle) if view is None else _turn(size, angle) @ view
    x0, y0, x1, y1 = box
    corners = np.array([(x0, y0, 1), (x1, y0, 1), (x1, y1, 1), (x0, y1, 1)], dtype=np.float64).T
    if view is not None:
        corners = view @ corners
        corners = corners / corners[2]
    s = look.scale
    xs, ys = corners[:2] * s + (s - 1) / 2
    frame = [max(1, round(w * s)), max(1, round(h * s))]
    out = [max(0, math.floor(xs.min())), max(0, math.floor(ys.min())),
           min(frame[0], math.ceil(xs.max())), min(frame[1], math.ceil(ys.max()))]
    return view, out, frame
