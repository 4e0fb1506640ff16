"""The handwriting check (analysis by synthesis) admits the real handwriting faces only where every
letter of a needed line is told from its confusable neighbours at the delivered resolution."""

from __future__ import annotations

import dataclasses

import pytest

from mmtsb_env.generation.ocr import tool_legible
from mmtsb_env.vision import hand_check
from mmtsb_env.vision.fonts import HANDS, missing_hands
from mmtsb_env.vision.render import handwritten_note, render
from mmtsb_env.vision.render.handwritten_note import EVERY_LEVEL, HAND_LEVELS

pytestmark = pytest.mark.skipif(bool(missing_hands()), reason="the Debian handwriting fonts are not installed")

# seeds the levels of HAND_LEVELS were not calibrated on (hand_check.calibrate ran seeds 100-107)
FRESH = 500


def _note(face: str, level: int, seed: int = FRESH) -> dict:
    return {"kind": "handwritten_note", "seed": seed, "difficulty": level,
            "content": {"title": "Errands", "text": "call the plumber\nbuy cat litter", "hand": face}}


def test_the_confusable_neighbours_are_other_letters():
    for letter, others in hand_check.CONFUSABLE.items():
        assert others and letter not in others
        if letter.isdigit():
            assert others.isdigit()  # a number is misread as another number
    assert "4119" in hand_check.spellings("4719") and "4719" not in hand_check.spellings("4719")


def test_a_face_is_written_only_at_the_levels_it_passed():
    for face in HANDS:
        for level in range(4):
            style = render(_note(face, level)).facts["style"]
            assert (style == face) == (level in HAND_LEVELS[face]), (face, level, style)
    assert render({**_note("hand-print", 0), "content": {"text": "x y"}}).facts["style"] in handwritten_note.HAND_STYLES


def test_a_variant_is_the_note_written_otherwise_in_the_same_place():
    spec = _note("hand-print", 0)
    observed = hand_check._grey(render(spec).image)
    same = hand_check._variant(spec, {})
    assert abs(same - observed).mean() < 6  # the same note without the scan's noise
    words = hand_check.written_words(render(spec).facts)
    at = next(i for i, (line, w) in enumerate(words) if w == "plumber")
    other = hand_check._variant(spec, {at: ("plumhor", 0)})
    changed = abs(other - same) > hand_check.DIFFERS
    assert changed.any() and changed.sum() < 0.01 * changed.size  # two glyphs of one word, nothing else


@pytest.mark.parametrize("face", [f for f in HANDS if HAND_LEVELS[f]])
def test_every_needed_line_of_an_admitted_face_passes_on_fresh_seeds(face):
    for level in HAND_LEVELS[face]:
        spec = _note(face, level, FRESH + level)
        assert render(spec).facts["style"] == face
        assert hand_check.illegible_lines(spec) == [], (face, level)
        assert tool_legible(spec) == []  # the generator's check reads a real hand with it


def test_a_note_shrunk_past_reading_fails(monkeypatch):
    face = max(HANDS, key=lambda f: len(HAND_LEVELS[f]))  # the face admitted at the most levels
    tiny = dataclasses.replace(handwritten_note.SCANS[3], scale=0.22, blur=0.8)
    monkeypatch.setitem(handwritten_note.SCANS, 3, tiny)
    spec = _note(face, 3, seed=7)  # drawn only here (the render cache keys specs, not the patched scan)
    token = EVERY_LEVEL.set(True)
    try:
        assert render(spec, use_cache=False).facts["style"] == face
        bad = hand_check.illegible_lines(spec)
    finally:
        EVERY_LEVEL.reset(token)
    assert bad == ["call the plumber", "buy cat litter"]


def test_the_check_reads_only_handwritten_notes():
    with pytest.raises(ValueError, match="handwritten_note"):
        hand_check.illegible_lines({"kind": "receipt", "seed": 0, "difficulty": 0})
