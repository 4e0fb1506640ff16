"""The till receipt's typeface: a zero with nothing inside it, so a level-3 receipt's small print
never shows a zero that reads as an 8 (DejaVu Sans Mono's dotted zero did, zoomed back 2x)."""

import numpy as np
import pytest
from PIL import Image, ImageDraw

from mmtsb_env.vision.fonts import get_font, missing_till
from mmtsb_env.vision.render import receipt

pytestmark = pytest.mark.skipif(missing_till(), reason="fonts-noto-mono not installed (apt-get install fonts-noto-mono)")


def glyph(style: str, ch: str, size: int = 22, stroke: int = 0) -> np.ndarray:
    font = get_font(style, size)
    box = font.getbbox(ch, stroke_width=stroke)
    img = Image.new("L", (box[2] + 6, box[3] + 6), 255)
    ImageDraw.Draw(img).text((3, 3), ch, font=font, fill=0, stroke_width=stroke, stroke_fill=0)
    ink = np.asarray(img) < 128
    rows, cols = np.where(ink)
    return ink[rows.min(): rows.max() + 1, cols.min(): cols.max() + 1]


@pytest.mark.parametrize("style, stroke", [(receipt.FACE, 0), (f"{receipt.FACE}-bold", 1)])  # bold rows: struck twice
def test_the_receipts_zero_is_open_inside(style, stroke):
    zero = glyph(style, "0", stroke=stroke)
    h, w = zero.shape
    centre = zero[int(h * 0.35): int(h * 0.65), int(w * 0.35): int(w * 0.65)]
    assert not centre.any(), f"{style}'s zero has ink in its middle (a dot or slash reads as 8 at level 3)"
    # and an 8 has its waist there: the two glyphs differ where a small print blurs them together
    assert glyph(style, "8", stroke=stroke)[int(h * 0.35): int(h * 0.65), int(w * 0.35): int(w * 0.65)].any()

