"""The simulated user's language over the nominal and extended suites: varied wording, personas, no stock openings.

Measured with :func:`mmtsb_env.generation.voice.skeleton` (quoted values, names, numbers,
paths and emails masked); the figures are documented in docs/generation.md.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import mmtsb_env
from mmtsb_env.generation.voice import PERSONA_NAMES, PERSONAS, PHRASINGS, opening_sentence, rephrase, skeleton, speak


@pytest.fixture(scope="module", params=["nominal", "extended"])
def suite(request):
    return mmtsb_env.load_suite(request.param)  # each suite is loaded once per module (extended: ~1 s)


def test_at_least_80_percent_distinct_masked_skeletons(suite):
    queries = [r.query for s in suite for r in s.rounds]
    distinct = len({skeleton(q) for q in queries})
    assert len(queries) > 700
    assert distinct / len(queries) >= 0.8, (distinct, len(queries))


def test_no_opening_sentence_used_by_more_than_three_scenarios(suite):
    openings = Counter(opening_sentence(s.rounds[0].query) for s in suite)
    top, count = openings.most_common(1)[0]
    assert count <= 3, (top, count)


def test_every_persona_speaks_and_typos_exist(suite):
    personas = Counter(s.metadata["persona"] for s in suite)
    assert set(personas) == set(PERSONA_NAMES) and min(personas.values()) >= 25, personas
    sloppy = [r.query for s in suite if s.metadata["persona"] == "sloppy" for r in s.rounds]
    assert any(" u " in q or "pls" in q or " thx" in q for q in sloppy)


def test_several_phrasings_per_intent_are_used(suite):
    import re

    queries = [r.query for s in suite for r in s.rounds]
    for pattern, alts in PHRASINGS[:4]:
        # each alternative's fixed opening words, as a plain-text probe
        probes = [re.split(r"\{", a)[0].strip().lower() for a in alts if not a.startswith("{")]
        used = {p for p in probes if p and any(p in q.lower() for q in queries)}
        assert len(used) >= 3, (pattern, used)


def test_speak_keeps_values_exactly():
    text = "Go through these receipts and collect each store and total. Then save it in a new note titled 'Trip paperwork - May'."
    for seed in range(60):
        rng = random.Random(seed)
        persona = rng.choice(PERSONAS)
        out = speak(rng, persona, text, first=True)
        assert "'Trip paperwork - May'" in out, out
        if not persona.typos:
            assert "these receipts" in out, out


def test_typos_never_touch_a_quoted_value_after_an_apostrophe():
    sloppy = next(p for p in PERSONAS if p.typos)
    text = "When that's done, save everything in a new note titled 'Quarterly paperwork reminders'."
    outs = {speak(random.Random(seed), sloppy, text, first=False) for seed in range(80)}
    assert all("'Quarterly paperwork reminders'" in out for out in outs), outs
    assert any("that's" not in out or "done" not in out for out in outs) or len(outs) > 1  # typos did happen


def test_rephrase_leaves_unknown_wording_alone():
    assert rephrase(random.Random(0), "Something no pattern knows.") == "Something no pattern knows."


def test_skeleton_masks_names_and_numbers():
    assert skeleton("Pay Dana Smith $12.50 for 'Lunch' at /home/x.txt") == skeleton("Pay Bob Lee $7.00 for 'Tea' at /tmp/y.txt")
