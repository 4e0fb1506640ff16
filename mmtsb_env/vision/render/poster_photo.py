"""``poster_photo``: a street photo of an event poster pasted on a wall (natural text-rich).

The same content (and defaults) as ``event_poster``; the flat poster is photographed on a brick,
concrete or wooden wall with perspective, light falloff, shadow, glare, blur, noise and JPEG.
"""

from __future__ import annotations

from . import FAMILIES, family
from ._common import Ctx
from ._scene import flat, on_wall
from .event_poster import FIELDS

WALLS = ("brick", "concrete", "wood")


@family("poster_photo", FIELDS)
def draw_poster_photo(ctx: Ctx):
    """A photo of a poster on a wall: the poster's facts plus where it hangs (doc_box)."""
    doc, facts = FAMILIES["event_poster"].draw(flat(ctx, "event_poster"))
    wall = ctx.rng("scene:wall").choice(WALLS)
    image, where = on_wall(doc, ctx, wall)
    return image, {**facts, **where, "surface": wall}
