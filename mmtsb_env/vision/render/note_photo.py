"""``note_photo``: a photo of a handwritten note (or sticky note) left on a desk (natural text-rich).

The same content (and defaults) as ``handwritten_note``, photographed like :mod:`.receipt_photo`.
"""

from __future__ import annotations

from . import family
from ._common import Ctx
from ._scene import flat, photograph
from .handwritten_note import FIELDS, note_page

SURFACES = ("desk", "wood", "fabric")


@family("note_photo", FIELDS)
def draw_note_photo(ctx: Ctx):
    """A photo of a handwritten note on a desk: the note's facts plus where it lies (doc_box)."""
    doc, facts = note_page(flat(ctx, "handwritten_note"))  # level 0's page, as the array it is drawn in
    surface = ctx.rng("scene:surface-kind").choice(SURFACES)
    image, where = photograph(doc, ctx, surface, closer=1.5)  # handwriting is hard enough: the camera stays nearer
    return image, {**facts, **where, "surface": surface}
