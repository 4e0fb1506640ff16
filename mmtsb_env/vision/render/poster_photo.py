"""``poster_photo``: a street photo of an event poster pasted on a wall (natural text-rich).

The same content (and defaults) as ``event_poster``; the flat poster is photographed on a brick,
concrete or wooden wall with perspective, light falloff, shadow, glare, blur, noise and JPEG.
"""

from __future__ import annotations

from ._family import Family
from ._common import Ctx
from ._scene import flat, photograph
from .event_poster import FIELDS, draw_poster

WALLS = ("brick", "concrete", "wood")
# how much nearer than the level's default the camera stands: at level 0 a step back (with the
# poster spanning 0.92 of the frame tesseract lost its whole info panel on 2 seeds of 10; at
# 0.86-0.9 on none)
CLOSER = {0: 0.95, 1: 1.0, 2: 1.0, 3: 1.0}
# the poster drawn near the size the photo shows it (the frame's 1024 times the level's fill, over
# the poster's 1100: 0.81, 0.74, 0.58, 0.35), so the warp samples it about 1:1 as it is and the
# drawing, the copy and the warp work on the smaller page. Each zoom divides the poster's
# 800 x 1100 exactly: its proportions, and with them where the photo places it, are exact. Level 3
# draws at half size, not at the third it shows (the photo's antialiased shrink does the rest): at
# 0.45 tesseract lost more of the info panel on the 2x zoom.
ZOOM = {0: 0.8, 1: 0.75, 2: 0.6, 3: 0.5}


def draw_poster_photo(ctx: Ctx):
    """A photo of a poster on a wall: the poster's facts plus where it hangs (doc_box)."""
    doc, facts = draw_poster(flat(ctx, "event_poster"), ZOOM[ctx.difficulty])
    wall = ctx.rng("scene:wall").choice(WALLS)
    image, where = photograph(doc, ctx, wall, closer=CLOSER[ctx.difficulty], lying=False)  # on a wall: no desk clutter
    return image, {**facts, **where, "surface": wall}


FAMILY = Family("poster_photo", FIELDS, draw_poster_photo)
