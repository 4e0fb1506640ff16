"""Levels 2-3 of the phone screens and the business card demand the visual tools: more look-alike
neighbours around the values a task reads (issue #29, F8), each still drawn and laid out cleanly
(tests/vision/test_layout.py over every family and level). The OCR shares are in docs/images.md."""

from __future__ import annotations

import re

import pytest

from mmtsb_env.vision.render import render

SEEDS = range(12)


def _rendered(kind: str, seed: int, difficulty: int):
    r = render({"kind": kind, "seed": seed, "difficulty": difficulty}, use_cache=False)
    return r, r.facts.get("distractors", [])


@pytest.mark.parametrize("difficulty", [2, 3])
def test_a_bank_feeds_other_transactions_look_like_the_purchase(difficulty):
    for seed in SEEDS:
        r, distractors = _rendered("bank_feed", seed, difficulty)
        total = r.facts["total"]
        amounts = [float(m.replace(",", "")) for d in distractors if not d.startswith("Available balance")
                   for m in re.findall(r"-?\$?(-?[\d,]+\.\d\d)", d)]
        near = [a for a in amounts if abs(abs(a) - total) <= 0.2 * total + 0.01 or abs(a) == 1.0]
        assert len(amounts) >= 5 and len(near) == len(amounts), (seed, total, amounts)


@pytest.mark.parametrize("kind, at_least", [("calendar_day", 5), ("event_screen", 5)])
def test_the_hard_levels_list_many_neighbours(kind, at_least):
    for seed in SEEDS:
        for difficulty in (2, 3):
            _, distractors = _rendered(kind, seed, difficulty)
            assert len(distractors) >= at_least, (kind, seed, difficulty, distractors)


def test_a_chat_shows_a_look_alike_number_from_level_2():
    for seed in SEEDS:
        for difficulty in range(4):
            r, distractors = _rendered("chat_screen", seed, difficulty)
            phone = r.facts["phone"]
            alike = [d for d in distractors if phone[:-4] in d and phone not in d]
            assert len(alike) == (difficulty >= 2), (seed, difficulty, phone, distractors)
