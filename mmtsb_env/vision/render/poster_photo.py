"""``poster_photo``: a street photo of an event poster pasted on a wall (natural text-rich).

The same content (and defaults) as ``event_poster``; the flat poster is photographed on a brick,
concrete or wooden wall with perspective, light falloff, shadow, glare, blur, noise and JPEG.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from . import FAMILIES, family
from ._common import Ctx
from ._scene import LEVELS, flat, photograph
from .event_poster import FIELDS

WALLS = ("brick", "concrete", "wood")
# how much nearer than the level's default the camera stands: at level 0 a step back (with the
# poster spanning 0.92 of the frame tesseract lost its whole info panel on 2 seeds of 10; at
# 0.86-0.9 on none)
CLOSER = {0: 0.95, 1: 1.0, 2: 1.0, 3: 1.0}
HALVED_BELOW = 0.5  # a level whose photo spans less of the frame than this shows the poster at a third of its size


def _halved(doc: Image.Image) -> Image.Image:
    """``doc`` at half its size, each pixel the mean of four (OpenCV's area resize): the first step
    of the shrink when the photo shows it far smaller (the photo's own antialiased resampling then
    works on a quarter of the pixels). The poster's 800 x 1100 halves exactly, so the photo's
    placement, which scales to the frame, lands it where it lands the whole one."""
    return Image.fromarray(cv2.resize(np.asarray(doc), (doc.width // 2, doc.height // 2), interpolation=cv2.INTER_AREA))


@family("poster_photo", FIELDS)
def draw_poster_photo(ctx: Ctx):
    """A photo of a poster on a wall: the poster's facts plus where it hangs (doc_box)."""
    doc, facts = FAMILIES["event_poster"].draw(flat(ctx, "event_poster"))
    wall = ctx.rng("scene:wall").choice(WALLS)
    if LEVELS[ctx.difficulty].fill * CLOSER[ctx.difficulty] < HALVED_BELOW:
        doc = _halved(doc)
    image, where = photograph(doc, ctx, wall, closer=CLOSER[ctx.difficulty])
    return image, {**facts, **where, "surface": wall}
