"""``note_photo``: a photo of a handwritten note (or sticky note) left on a desk (natural text-rich).

The same content (and defaults) as ``handwritten_note``: its sheet, photographed like
:mod:`.receipt_photo` where ``handwritten_note``'s page (the sheet on a rim) would lie, on the
photo's own desk.
"""

from __future__ import annotations

from dataclasses import replace

from ._family import Family
from ._common import Ctx
from ._scene import TEXT_LOOKS, flat, photograph
from .handwritten_note import FIELDS, note_sheet, rim

SURFACES = ("desk", "wood", "fabric")
# the camera of the text photos, but level 3 in a dimmer room: the light falls off to 0.3 of its
# peak (0.66 with the shared look): tesseract reads less of the whole photo, and the visual tools'
# crop and raised contrast bring it back; the defocus is level 2's (0.45), which their 2x zoom
# reads through better. With the shared look level 3 sat at its band's edge (4-5 of 13 values
# read plain over seeds 0-2, the band <= 5.2) and a grey level here and there moved it a value
LOOKS = {**TEXT_LOOKS, 3: replace(TEXT_LOOKS[3], light=0.7, blur=0.45)}


def draw_note_photo(ctx: Ctx):
    """A photo of a handwritten note on a desk: the note's facts plus where it lies (doc_box)."""
    page = flat(ctx, "handwritten_note")
    # written in a DejaVu italic: the real handwriting faces are checked (and admitted) for the flat
    # note's levels only (handwritten_note.HAND_LEVELS), not for a photo of it
    page = replace(page, content={k: v for k, v in page.content.items() if k != "hand"})
    sheet, facts = note_sheet(page)  # level 0's sheet, as the array it is drawn in
    surface = ctx.rng("scene:surface-kind").choice(SURFACES)
    # placed as the note and its rim in handwritten_note, the rim being the desk of the photo itself;
    # handwriting is hard enough: the camera stays nearer
    image, where = photograph(sheet, ctx, surface, closer=1.5, rim=rim(page), look=LOOKS[ctx.difficulty])
    return image, {**facts, **where, "surface": surface}


FAMILY = Family("note_photo", FIELDS, draw_note_photo)
