"""Issue #31, judged over every nominal scenario a probe of ``benchmarks/judge_probes.py`` fits
(scenarios chosen by property, never by id):

* F8: one item's value given as its neighbour's (the chart's March value said for April, one
  receipt line's amount for the next) is a wrong value read from the image -- a factual error --
  though the number is in the image; the neighbour's own value beside the right one is context.
* F7: a chart value read within its tolerance once in the replies and differently (also within
  it) in the written texts -- a note, an email body, a payment's amount, in any written form --
  is two answers (hedged), also when a later round overwrites the written one; the same reading
  everywhere passes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.evaluation.grounding import misbound

_spec = importlib.util.spec_from_file_location("judge_probes", Path(__file__).parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)  # (its dataclasses look their module up)
_spec.loader.exec_module(probes)

SCENARIOS = [s for s in mmtsb_env.load_suite("nominal") if not s.ui]


@pytest.mark.parametrize("where", ["reply", "everywhere", "context"])
def test_a_neighbours_value_for_a_named_item_is_a_factual_error(where):
    cases = [c for s in SCENARIOS for c in probes.neighbour_value(where)(s)]
    assert len(cases) >= 20
    assert _wrong(cases) == {}


def test_the_neighbours_value_is_read_against_the_image_the_reply_names():
    """An item shown in several charts: the number is judged against the chart named with it."""
    shown = [{"label": "Loans - Team A", "items": [{"name": "History", "amount": 573.0}, {"name": "Sci-Fi", "amount": 199.0}]},
             {"label": "Loans - Team B", "items": [{"name": "History", "amount": 199.0}, {"name": "Sci-Fi", "amount": 480.0}]}]
    assert misbound("History (Loans - Team A): 199.", shown) == ["199"]
    assert misbound("Loans - Team B: History (199).", shown) == []
    assert misbound("History: 199.", shown) == []  # no chart named: either chart's History
    assert misbound("History (Loans - Team A): 573; Sci-Fi (Loans - Team A): 199.", shown) == []


def _wrong(cases):
    return {c.scenario.id: said for c in cases for ok, said in [probes.play(c)] if not ok}


def test_two_readings_of_a_value_in_replies_and_written_texts_are_hedged():
    cases = [c for s in SCENARIOS for c in probes.readings_split(False)(s)]
    assert len(cases) >= 10
    assert _wrong(cases) == {}


def test_one_reading_everywhere_passes():
    # (a value split into expense shares is left out: the world checks the shares' exact sums)
    cases = [c for s in SCENARIOS if all(x.table != "splitwise.expense_shares" for x in s.expected_changes)
             for c in probes.readings_split(True)(s)]
    assert len(cases) >= 8
    assert _wrong(cases) == {}
