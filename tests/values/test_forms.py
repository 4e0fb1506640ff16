"""What the shared value readers accept and refuse, seen through their two users: the scripted
user's value rules on a UI choice screen (``ui.choice.decide``) and the judge's test of a stated
fact (``evaluation.claims.states``).

Accepted forms are read as the value; refused forms -- ambiguous, or another value -- are not.
"""

from __future__ import annotations

import pytest

from mmtsb_env.evaluation.claims import states
from mmtsb_env.scenario.model import UIDecision
from mmtsb_env.ui.choice import decide


def _option(i: int, text: str) -> dict:
    return {"surface_id": "s", "component_id": f"pick#{i}", "type": "Button", "label": "Select", "action": "pick",
            "context": {}, "description": text}


def _pick(rule: str, texts: list[str]) -> str | None:
    """The text of the option the user taps under ``rule``, or None when it cannot choose."""
    chosen = decide(UIDecision(pick={rule: True}), [_option(i, t) for i, t in enumerate(texts)])
    return None if chosen is None else texts[int(chosen["component_id"].split("#")[1])]


# (rule, the option it must pick, the other options): checked in every order of the options
UI_ACCEPTED = [
    ("most_expensive", "Camera | $1 599", ["Lens | $999"]),  # space thousands beside a currency
    ("cheapest", "Lens | $1 599.00", ["Camera | $1 600.00"]),
    ("most_expensive", "Fees | €2 100", ["Rent | €950"]),
    ("earliest", "Talk | 2026-06-21 17h30", ["Gig | 2026-06-21 19h00"]),
    ("closes_latest", "Night Owl | 10am - midnight", ["Corner Shop | 9am - 11pm"]),
    ("closes_latest", "Late Bar | 5pm - 2am", ["Corner Shop | 9am - 11pm"]),
    ("closes_earliest", "Bakery | 7am - noon", ["Deli | 8am - 5pm"]),
    ("highest_value", "Views: 1.2k", ["Views: 950"]),
    ("highest_value", "Visitors: 1 550", ["Visitors: 950"]),
    ("most_expensive", "Van | $31.15 thousand", ["Car | $9,999"]),
    ("latest", "Fair | Jun 25", ["Gala | 2026-06-21"]),  # a date without its year: the screen's year
    ("earliest", "Fair | 25 May", ["Gala | May 27"]),
    ("latest", "Fair | the twenty-fifth of May, 2026", ["Gala | May 21, 2026"]),
    ("earliest", "Dinner | 2026-06-21 half past seven pm", ["Show | 2026-06-21 8pm"]),
    ("earliest", "Walk | 2026-06-21 quarter to eight in the morning", ["Run | 2026-06-21 7:50 AM"]),
]

# (rule, options): the user cannot choose (None) or must not take ``wrong``
UI_REFUSED = [
    ("cheapest", "Pen | $1 59", ["Ink | $100"]),  # not a group of three digits: not 159
    ("latest", "Stall | 25 Mayfair St", ["Gala | 2026-05-21"]),  # a street, not the 25th of May
    ("latest", "Fair | Jun 25", ["Gala | 2026-06-21", "Expo | 2027-01-02"]),  # which year?
    ("earliest", "Talk | 2026-06-21 17h", ["Gig | 2026-06-21 9:00"]),  # "17h" is no clock time
    ("earliest", "Talk | 2026-06-21 ten to eight", ["Gig | 2026-06-21 9:00"]),  # or "10 to 8" (a range)
    ("closes_latest", "Cafe | open all afternoon", ["Deli | 8am - 5pm"]),  # "noon" inside a word
    ("highest_value", "Weight: 1.2kg", ["Weight: 950"]),  # not 1,200
]


@pytest.mark.parametrize("rule,winner,others", UI_ACCEPTED, ids=[f"{r}:{w}" for r, w, _ in UI_ACCEPTED])
def test_the_ui_user_reads_the_form_as_its_value(rule, winner, others):
    assert _pick(rule, [winner, *others]) == winner
    assert _pick(rule, [*others, winner]) == winner


@pytest.mark.parametrize("rule,wrong,others", UI_REFUSED, ids=[f"{r}:{w}" for r, w, _ in UI_REFUSED])
def test_the_ui_user_does_not_read_an_ambiguous_or_other_form_as_a_value(rule, wrong, others):
    assert _pick(rule, [wrong, *others]) != wrong
    assert _pick(rule, [*others, wrong]) != wrong


JUDGE_ACCEPTED = [
    ("1599", "The camera costs $1 599."), ("1599.00", "It was 1 599 € in total."),
    ("17:30", "The talk starts at 17h30."), ("12:00", "The bakery closes at noon."),
    ("00:00", "It is open until midnight."), ("1200", "The post has 1.2k views."),
    ("2026-05-25", "The fair is on May 25."), ("2026-05-25", "The fair is on 25 May."),
    ("2026-05-25", "The fair is on the twenty-fifth of May."),
    ("2026-05-25", "It is on May the twenty-fifth, 2026."),
    ("19:30", "Dinner is at half past seven in the evening."), ("19:30", "Dinner is at half past seven pm."),
    ("07:45", "The walk starts at quarter to eight in the morning."),
    ("31150", "The van costs $31.15 thousand."), ("2500000", "The budget is 2.5 million."),
]

JUDGE_REFUSED = [
    ("1599", "Items 1 599 left."),  # no currency: maybe two numbers
    ("17:30", "It takes 17h."), ("12:00", "It closes this afternoon."), ("1200", "It weighs 1.2kg."),
    ("2026-05-25", "The fair is on May 26."), ("2026-05-25", "The fair is on the twenty-sixth of May."),
    ("19:30", "Dinner is at half past eight in the evening."),
    ("19:30", "Dinner is at half past seven in the morning."),
    ("31150", "The van costs $31.15."), ("31.15", "The van costs $31.15 thousand."),
]


@pytest.mark.parametrize("fact,text", JUDGE_ACCEPTED)
def test_the_judge_reads_the_form_as_the_fact(fact, text):
    assert states(fact, text)


@pytest.mark.parametrize("fact,text", JUDGE_REFUSED)
def test_the_judge_does_not_read_an_ambiguous_or_other_form_as_the_fact(fact, text):
    assert not states(fact, text)
