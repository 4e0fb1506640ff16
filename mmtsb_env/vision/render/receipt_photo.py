"""``receipt_photo``: a phone photo of a till receipt lying on a table (natural text-rich).

The same content (and defaults) as ``receipt``: the flat receipt is drawn, then photographed
among clutter with perspective, uneven light, a cast shadow, glare, blur, noise and JPEG
artefacts, stronger at each level (see :mod:`._scene`; at level 0 without noise and JPEG:
``TEXT_LOOKS``).
"""

from __future__ import annotations

from ._family import Family
from ._common import Ctx
from ._scene import TEXT_LOOKS, flat, photograph
from .receipt import FIELDS, draw_receipt

SURFACES = ("wood", "desk", "fabric", "concrete")


def draw_receipt_photo(ctx: Ctx):
    """A photo of a receipt on a table: the receipt's facts plus where it lies (doc_box)."""
    doc, facts = draw_receipt(flat(ctx, "receipt"))
    surface = ctx.rng("scene:surface-kind").choice(SURFACES)
    image, where = photograph(doc, ctx, surface, look=TEXT_LOOKS[ctx.difficulty])
    return image, {**facts, **where, "surface": surface}


FAMILY = Family("receipt_photo", FIELDS, draw_receipt_photo)
