"""Is a handwritten word legible at the resolution it is delivered? An analysis-by-synthesis check.

Tesseract cannot judge handwriting (it reads 0-78 % of clean lines in the real handwriting faces), so
a handwritten note's words are checked the way a careful reader settles a doubtful letter: by
comparing what is there with what the hand would have left had it written another letter. For every
letter of a needed line and each of its confusable neighbours (:data:`CONFUSABLE`: ``1``/``7``,
``3``/``8``, ``a``/``o``, ``i``/``l``, ``n``/``u`` ...) the note is drawn again with the true word and
with the swapped spelling, in the same place, turn, shrink and blur but without the scan's noise,
uneven light and JPEG (:data:`..render.handwritten_note.VARIANT`), and with each glyph as the hand
might have written it another time (its size within 4 %, its pressure redrawn: the reader knows the
hand, not this instance of it). Over the letter's columns across the word's height the delivered
image must correlate with the true word better than with the swapped spelling by :data:`MARGIN`, on
average over :data:`TIMES` such instances. A letter the scan has shrunk, blurred or buried in noise
past telling from its neighbour fails, and so does the line holding it.

:func:`illegible_lines` names the failing lines (what ``generation.ocr.tool_legible`` reports for a
note in a real hand); :func:`margins` gives every spelling's margin; :func:`calibrate` measures a
face at a level, which is how ``handwritten_note.HAND_LEVELS`` was chosen. A note costs one drawing
per word and :data:`TIMES` per round of swaps (words far apart are swapped in the same drawing):
about 2-6 s for a four-line note on one core.
"""

from __future__ import annotations

import numpy as np

from .render import render
from .render.handwritten_note import VARIANT

# each letter's most confusable neighbours in a hand (a digit's are digits); letters without one
# (punctuation) are not checked
CONFUSABLE = {
    **dict(zip("0123456789", ("689", "74", "73", "85", "91", "63", "05", "12", "30", "47"))),
    **dict(zip("abcdefghijklmnopqrstuvwxyz", ("ou", "hl", "eo", "al", "co", "tl", "qy", "bk", "lr", "iy", "hx", "it",
                                               "nw", "um", "ac", "qg", "gp", "vni", "za", "fl", "nv", "ur", "mv", "kt",
                                               "gv", "sx"))),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "HRGOFECNTTXINMDROPGIVUVKVL")),
    "$": "S",
}
MARGIN = 0.03  # the true letter's correlation must beat the swapped one's by this much (on average)
TIMES = 3  # the other times the hand writes the word (the reader knows the hand, not this instance)
DIFFERS = 12  # grey levels: where the two clean drawings differ by more, the letter is compared
PAD = 2  # px either side of the differing columns


def _grey(image) -> np.ndarray:
    return np.asarray(image.convert("L"), np.float32)


def _variant(spec: dict, swaps: dict[int, tuple[str, int]]) -> np.ndarray:
    """The note of ``spec`` drawn clean (no noise, light or JPEG), with ``swaps`` written instead of
    its words (see :data:`..render.handwritten_note.VARIANT`), as grey levels."""
    token = VARIANT.set((swaps, True))
    try:
        return _grey(render(spec, use_cache=False).image)
    finally:
        VARIANT.reset(token)


def _ncc(seen: np.ndarray, drawn: np.ndarray) -> float:
    """The normalised cross-correlation of two equal regions' grey levels (0 where either is flat)."""
    a, b = seen - seen.mean(), drawn - drawn.mean()
    den = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / den) if den > 1e-6 else 0.0


def spellings(word: str) -> list[str]:
    """``word`` with one letter swapped for one of its :data:`CONFUSABLE` neighbours, every way."""
    return [word[:at] + swap + word[at + 1:] for at, letter in enumerate(word) for swap in CONFUSABLE.get(letter, "")]


def written_words(facts: dict) -> list[tuple[int | None, str]]:
    """The note's words in writing order, each with the index of its line in ``facts["lines"]``
    (None for the title's and the signature's words): the order the renderer counts them in."""
    out: list[tuple[int | None, str]] = []
    if facts.get("title"):
        out += [(None, w) for w in facts["title"].split()]
    for k, line in enumerate(facts["lines"]):
        out += [(k, w) for w in line.split()]
    if facts.get("signature"):
        out += [(None, w) for w in facts["signature"].split()]
    return out


def _box(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1) if len(ys) else None


def _apart(a: tuple[int, int, int, int], b: tuple[int, int, int, int], gap: int) -> bool:
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


def margins(spec: dict, lines: list[int] | None = None) -> list[tuple[int, str, str, float]]:
    """(line, word, spelling, margin) for every :func:`spellings` of every word of the note's
    ``lines`` (all by default): how much better the delivered image matches the word than the
    spelling, each as the hand writes it :data:`TIMES` other times -- the mean difference of their
    correlations with it over the letter's columns (where the two drawings differ, :data:`PAD` px
    wider) across the word's height; -1 where the drawings do not differ.

    Words written apart are swapped in the same drawing (each judged inside its own box, where the
    note changes when it is left out), so a note costs a drawing per word and :data:`TIMES` per
    round of swaps rather than one per spelling."""
    observed = _grey(render(spec, use_cache=False).image)  # as the context asks (a calibration writes every level's face)
    facts = render(spec, use_cache=False).facts
    w = observed.shape[1]
    wanted = set(range(len(facts["lines"])) if lines is None else lines)
    words = {i: (line, word) for i, (line, word) in enumerate(written_words(facts)) if line in wanted}
    clean = _variant(spec, {})
    boxes = {}
    for i, (_, word) in words.items():
        box = _box(np.abs(_variant(spec, {i: (" " * len(word), 0)}) - clean) > DIFFERS)
        if box is not None:
            boxes[i] = box
    pending = {i: spellings(words[i][1]) for i in boxes}
    rounds: list[dict[int, str]] = []
    while any(pending.values()):
        chosen: dict[int, str] = {}
        for i, left in pending.items():
            if left and all(_apart(boxes[i], boxes[j], 2 * PAD) for j in chosen):
                chosen[i] = left.pop(0)
        rounds.append(chosen)
    found: dict[tuple[int, str], list[float]] = {}
    for k in range(1, TIMES + 1):
        as_written = {i: (words[i][1], k) for i in boxes}
        true = _variant(spec, as_written)
        for chosen in rounds:
            swapped = _variant(spec, {**as_written, **{i: (other, k) for i, other in chosen.items()}})
            differs = np.abs(swapped - true) > DIFFERS
            for i, other in chosen.items():
                x0, y0, x1, y1 = boxes[i]
                box = _box(differs[y0:y1, x0:x1])
                if box is None:
                    found.setdefault((i, other), []).append(-1.0)
                    continue
                # the letter's columns (where the drawings differ) over the word's whole height: the
                # glyph's shape, not only the few pixels that change
                cols = slice(max(0, x0 + box[0] - PAD), min(w, x0 + box[2] + PAD))
                rows = slice(y0, y1)
                seen = observed[rows, cols]
                found.setdefault((i, other), []).append(_ncc(seen, true[rows, cols]) - _ncc(seen, swapped[rows, cols]))
    return [(words[i][0], words[i][1], other, float(np.mean(m))) for (i, other), m in found.items()]


def illegible_lines(spec: dict, lines: list[int] | None = None) -> list[str]:
    """The lines of a ``handwritten_note`` spec (those at ``lines``, every line by default) with a
    letter the delivered image does not tell from a confusable neighbour by :data:`MARGIN`
    (:func:`margins`; empty: every one is legible)."""
    kind = spec.get("kind")
    if kind != "handwritten_note":
        raise ValueError(f"the handwriting check reads handwritten_note images, not {kind!r}")
    bad = {line for line, _, _, m in margins(spec, lines) if m < MARGIN}
    text = render(spec, use_cache=False).facts["lines"]  # not cached: a calibration draws faces the spec alone would not
    return [text[k] for k in sorted(bad)]


# the notes :func:`calibrate` writes: errand lists as the generator draws them (a title, three or
# four errands), one with a code and a time, so digits are checked too
CALIBRATION_LINES = (
    ("To do", "pick up dry cleaning\nrenew parking permit\ncall the plumber"),
    ("Errands", "buy cat litter\nrefill prescription\norder printer ink\nwater the ferns"),
    ("This week", "mail the tax forms\nfix bike tire\nbook dentist cleaning"),
    ("", "Gate code 4719\nroom 4B at 10:15\npay water bill"),
)


def calibrate(face: str, level: int, seeds) -> tuple[int, int]:
    """(lines that pass, lines checked) of notes written in ``face`` at ``level``, one note per
    seed from :data:`CALIBRATION_LINES`, the face written whatever ``HAND_LEVELS`` admits."""
    from .render.handwritten_note import EVERY_LEVEL

    token = EVERY_LEVEL.set(True)
    try:
        passed = checked = 0
        for seed in seeds:
            title, text = CALIBRATION_LINES[seed % len(CALIBRATION_LINES)]
            spec = {"kind": "handwritten_note", "content": {"text": text, "title": title, "hand": face},
                    "seed": seed, "difficulty": level}
            n = len(text.split("\n"))
            checked += n
            passed += n - len(illegible_lines(spec))
        return passed, checked
    finally:
        EVERY_LEVEL.reset(token)
