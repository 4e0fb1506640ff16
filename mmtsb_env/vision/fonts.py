"""Fonts: matplotlib's bundled DejaVu faces (else Pillow's own), and handwriting and till-receipt
faces from Debian font packages at fixed paths (:data:`HANDS`, :data:`TILL`).

Never searches the system's fonts: the DejaVu renders are the same wherever matplotlib is installed,
and the Debian faces are read from their packages' own paths, or replaced by a DejaVu stand-in
where the package is missing (:func:`missing_hands`, :func:`missing_till`). Fonts
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

# handwriting faces from Debian's font packages (installed by .ci/run and the README's setup:
# fonts-dkg-handwriting, fonts-dancingscript, fonts-bwht, fonts-comic-neue), each with the DejaVu
# style that stands in for it where the package is missing (:func:`missing_hands` names them; a
# handwritten note drawn without them is set in an italic, and a long line may wrap elsewhere)
HANDS = {
    "hand-dkg": ("/usr/share/fonts/truetype/fifthhorseman/dkg.ttf", "sans-oblique"),
    "hand-script": ("/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf", "serif-italic"),
    "hand-print": ("/usr/share/fonts/opentype/bwht/BecauseWeMentor-Regular.otf", "sans-oblique"),
    "hand-casual": ("/usr/share/fonts/opentype/comic-neue/ComicNeue-Regular.otf", "sans-oblique"),
}
HAND_PACKAGES = ("fonts-dkg-handwriting", "fonts-dancingscript", "fonts-bwht", "fonts-comic-neue")

# a till receipt's monospace face from Debian's fonts-noto-mono (Noto Mono), with DejaVu's mono
# standing in where the package is missing: its zero is an open oval, where DejaVu Sans Mono's dotted
# zero reads as an 8 once a level-3 receipt's 7-px print is zoomed back (Liberation Mono's zero is
# dotted too, Noto Sans Mono's slashed). Noto Mono has no bold: "till-bold" is the same face, which
# the receipt double-strikes (a one-pixel stroke), as a thermal printer does
TILL = {
    "till": ("/usr/share/fonts/truetype/noto/NotoMono-Regular.ttf", "mono"),
    "till-bold": ("/usr/share/fonts/truetype/noto/NotoMono-Regular.ttf", "mono-bold"),
}
TILL_PACKAGE = "fonts-noto-mono"
PACKAGED = {**HANDS, **TILL}  # style -> (Debian font path, DejaVu stand-in)

_local = threading.local()


def missing_hands() -> list[str]:
    """The handwriting styles whose Debian font is not installed (drawn in their DejaVu stand-in)."""
    return [style for style, (path, _) in HANDS.items() if not os.path.isfile(path)]


def missing_till() -> bool:
    """Whether the till face's Debian package is missing (receipts then print in DejaVu's mono)."""
    return not os.path.isfile(TILL["till"][0])


@lru_cache(maxsize=1)
def font_dir() -> str | None:
    """Directory of matplotlib's bundled TrueType fonts, found without importing matplotlib."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        return None
    path = os.path.join(os.path.dirname(spec.origin), "mpl-data", "fonts", "ttf")
    return path if os.path.isdir(path) else None


def font_path(style: str = "sans") -> str | None:
    """Path of the TrueType file for ``style`` (see :data:`FACES` and :data:`PACKAGED`), or None if unavailable."""
    if style in PACKAGED:
        path, stand_in = PACKAGED[style]
        return path if os.path.isfile(path) else font_path(stand_in)
    if style not in FACES:
        raise ValueError(f"unknown font style {style!r}; known: {', '.join([*FACES, *PACKAGED])}")
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
