"""Fonts that exist on every machine: matplotlib's bundled DejaVu faces, else Pillow's own.

Never looks at system fonts, so renders are the same wherever matplotlib is installed. Fonts
are cached per thread (FreeType faces are not meant to be shared between threads) and use the
basic layout engine so glyph placement does not depend on whether libraqm is present.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from functools import lru_cache

from PIL import ImageFont

# style name -> DejaVu file name
FACES = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-oblique": "DejaVuSans-Oblique.ttf",
    "sans-bold-oblique": "DejaVuSans-BoldOblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "serif-bold-italic": "DejaVuSerif-BoldItalic.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
    "mono-oblique": "DejaVuSansMono-Oblique.ttf",
}

_local = threading.local()


@lru_cache(maxsize=1)
def font_dir() -> str | None:
    """Directory of matplotlib's bundled TrueType fonts, found without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf")
    return path if os.path.isdir(path) else None


def font_path(style: str = "sans") -> str | None:
    """Path of the TrueType file for ``style`` (see :data:`FACES`), or None if unavailable."""
    if style not in FACES:
        raise ValueError(f"unknown font style {style!r}; known: {', '.join(FACES)}")
    folder = font_dir()
    if folder is None:
        return None
    path = os.path.join(folder, FACES[style])
    return path if os.path.isfile(path) else None


def get_font(style: str = "sans", size: int = 20) -> ImageFont.FreeTypeFont:
    """A cached font of ``style`` at ``size`` pixels (at least 6)."""
    size = max(6, int(round(size)))
    cache = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    key = (style, size)
    font = cache.get(key)
    if font is None:
        path = font_path(style)
        if path is not None:
            font = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
        else:  # Pillow's bundled scalable font
            font = ImageFont.load_default(size=size)
        cache[key] = font
    return font
