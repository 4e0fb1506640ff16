"""A supersampled drawing surface: callers use logical pixels, drawing happens at ``scale``x and the
result is downsampled, which gives smooth rounded corners and text without anti-aliasing support
in every Pillow primitive. One :class:`Canvas` per render call (nothing is shared).

>>> c = Canvas(40, 20, background=(255, 255, 255))
>>> c.rect((5, 5, 35, 15), fill=(255, 0, 0), radius=4)
>>> im = c.finish()
>>> im.size, im.getpixel((20, 10))
((40, 20), (255, 0, 0))
"""

from __future__ import annotations

from typing import Sequence

from PIL import Image, ImageDraw

from .fonts import get_font

Color = tuple[int, int, int]
Box = tuple[float, float, float, float]


class TextMeasure:
    """Text metrics in logical pixels for fonts drawn at ``scale``x."""

    def __init__(self, scale: int = 2) -> None:
        self.scale = scale

    def font(self, style: str, size: float):
        return get_font(style, size * self.scale)

    def width(self, text: str, style: str, size: float) -> float:
        return self.font(style, size).getlength(text) / self.scale

    def line_height(self, size: float) -> float:
        return round(size * 1.32)

    def wrap(self, text: str, style: str, size: float, max_width: float) -> list[str]:
        """Greedy word wrap; words longer than a line are split by characters."""
        lines: list[str] = []
        for paragraph in text.split("\n"):
            words = paragraph.split(" ")
            line = ""
            for word in words:
                candidate = word if not line else f"{line} {word}"
                if self.width(candidate, style, size) <= max_width:
                    line = candidate
                    continue
                if line:
                    lines.append(line)
                line = ""
                while self.width(word, style, size) > max_width and len(word) > 1:
                    lo, hi = 1, len(word) - 1  # longest prefix that fits (at least one character)
                    while lo < hi:
                        mid = (lo + hi + 1) // 2
                        if self.width(word[:mid], style, size) <= max_width:
                            lo = mid
                        else:
                            hi = mid - 1
                    lines.append(word[:lo])
                    word = word[lo:]
                line = word
            lines.append(line)
        return lines


class Canvas(TextMeasure):
    """Logical-pixel drawing on a ``scale``x bitmap; :meth:`finish` returns the downsampled image."""

    def __init__(self, width: int, height: int, background: Color = (255, 255, 255), scale: int = 2) -> None:
        super().__init__(scale)
        self.width_px, self.height_px = width, height
        self.image = self._bitmap((width * scale, height * scale), background)
        self.draw = ImageDraw.Draw(self.image)

    def _bitmap(self, size: tuple[int, int], background: Color) -> Image.Image:
        """The bitmap drawn on (a subclass may back it with other memory)."""
        return Image.new("RGB", size, background)

    def _b(self, box: Box) -> list[int]:
        s = self.scale
        x0, y0, x1, y1 = box
        return [round(x0 * s), round(y0 * s), max(round(x0 * s), round(x1 * s) - 1), max(round(y0 * s), round(y1 * s) - 1)]

    def _p(self, points: Sequence[tuple[float, float]]) -> list[tuple[int, int]]:
        s = self.scale
        return [(round(x * s), round(y * s)) for x, y in points]

    def rect(self, box: Box, fill: Color | None = None, outline: Color | None = None, width: float = 1,
             radius: float = 0) -> None:
        b = self._b(box)
        w = max(1, round(width * self.scale)) if outline is not None else 0
        r = min(round(radius * self.scale), (b[2] - b[0]) // 2, (b[3] - b[1]) // 2)
        if r > 0:
            self.draw.rounded_rectangle(b, radius=r, fill=fill, outline=outline, width=w)
        else:
            self.draw.rectangle(b, fill=fill, outline=outline, width=w)

    def ellipse(self, box: Box, fill: Color | None = None, outline: Color | None = None, width: float = 1) -> None:
        w = max(1, round(width * self.scale)) if outline is not None else 0
        self.draw.ellipse(self._b(box), fill=fill, outline=outline, width=w)

    def arc(self, box: Box, start: float, end: float, color: Color, width: float = 2) -> None:
        self.draw.arc(self._b(box), start, end, fill=color, width=max(1, round(width * self.scale)))

    def line(self, points: Sequence[tuple[float, float]], color: Color, width: float = 1, joint: bool = True) -> None:
        self.draw.line(self._p(points), fill=color, width=max(1, round(width * self.scale)),
                       joint="curve" if joint and len(points) > 2 else None)

    def polygon(self, points: Sequence[tuple[float, float]], fill: Color) -> None:
        self.draw.polygon(self._p(points), fill=fill)

    def text(self, xy: tuple[float, float], text: str, style: str, size: float, color: Color) -> None:
        x, y = xy
        self.draw.text((round(x * self.scale), round(y * self.scale)), text, font=self.font(style, size), fill=color)

    def paste(self, image: Image.Image, box: Box, radius: float = 0, circle: bool = False) -> None:
        """Paste ``image`` resized to fill ``box`` (logical), optionally with rounded corners or as a circle."""
        b = self._b(box)
        w, h = b[2] - b[0] + 1, b[3] - b[1] + 1
        if w < 1 or h < 1:
            return
        tile = image.convert("RGB").resize((w, h), Image.Resampling.LANCZOS)
        mask = None
        if circle or radius > 0:
            mask = Image.new("L", (w, h), 0)
            md = ImageDraw.Draw(mask)
            if circle:
                md.ellipse([0, 0, w - 1, h - 1], fill=255)
            else:
                md.rounded_rectangle([0, 0, w - 1, h - 1], radius=round(radius * self.scale), fill=255)
        self.image.paste(tile, (b[0], b[1]), mask)

    def finish(self) -> Image.Image:
        if self.scale == 1:
            return self.image
        return self.image.resize((self.width_px, self.height_px), Image.Resampling.LANCZOS)
