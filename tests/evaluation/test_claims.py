"""Claims in replies: what commits to a fact and what does not (hedging, carpets, candidate lists,
sprays, both candidates of a choice), numbers matched by rounding, and how the rubric judge uses
per-round reports and legacy facts."""

from __future__ import annotations

import copy

import pytest

from mmtsb_env.evaluation import RubricJudge
from mmtsb_env.evaluation.claims import ClaimRules, claim_status, hedges, is_carpet
from mmtsb_env.evaluation.llm_judge import example_evidence


@pytest.mark.parametrize("reply, status", [
    ("Lumen Hardware cost more: $22.13.", "stated"),
    ("The bigger one was 22.13 USD (the other was 20.51).", "stated"),
    ("Roughly 22.1.", "stated"),                                     # rounded to the precision written
    ("About $22.", "stated"),
    ("twenty-two dollars and change", "stated"),                     # words, rounded
    ("It was either 20.51 or 22.13.", "hedged"),
    ("Maybe 22.13.", "hedged"),
    ("I think 22.13, but I can't tell.", "hedged"),
    ("The total is $22.13 / $22.31 / $28.13.", "hedged"),            # a list of readings
    ("22.13, 22.31", "hedged"),
    ("Between 22.13 and 22.50.", "hedged"),                          # a range
    ("The amount is 21.90. The amount is 22.13. The amount is 22.40.", "hedged"),  # a spray
    ("Lumen Hardware at $22.13, vs $20.51 at Pine Street Books.", "stated"),      # context
    ("It is 22.10, 22.16 or thereabouts", "missing"),                # neighbours are other values, not 22.13
    ("The total is 22.14.", "missing"),                              # as precise as the truth, and different
    ("The total is 21.50.", "missing"),                              # wrong: the judge's grounding says so
    ("Totals: " + ", ".join(f"{x / 10:.1f}" for x in range(100, 400)), "carpet"),
    ("Done.", "missing"),
    ("The total is 95.00.", "missing"),
])
def test_claim_status_of_a_numeric_fact(reply, status):
    assert claim_status("22.13", [reply]) == status


def test_questions_are_not_hedges_and_statements_elsewhere_do_not_spoil():
    assert claim_status("Lumen Hardware", ["Lumen Hardware was more expensive. Should I keep both notes or delete one?"]) == "stated"
    assert claim_status("Lumen Hardware", ["Lumen Hardware.", "Or was it Pine Street Books? Maybe, not sure."]) == "stated"
    assert claim_status("Lumen Hardware", ["Lumen Hardware.", "Maybe Lumen Hardware or Pine Street Books."]) == "hedged"
    assert hedges("perhaps") and hedges("Either one") and not hedges("The store sells ore and more")


def test_carpets_allow_a_bare_list_of_the_right_values():
    values = "12.58, 5.70, 46.15, 21.14, 33.10, 20.00, 18.40"
    assert is_carpet(values) and not is_carpet(values, expected=7)
    assert not is_carpet("Call 415-555-0142 or 312-555-0199 on 2026-05-09 at 10:30")   # phones and dates are one value
    assert is_carpet(", ".join(str(i) for i in range(60)), expected=7)
    assert is_carpet("1 2 3 4 5 6") and not is_carpet("1 2 3 4 5 6", ClaimRules(carpet_run=7))


def _with_rounds(ev, replies, reports):
    ev = copy.deepcopy(ev)
    ev.facts = []
    ev.reports = reports
    ev.n_rounds = ev.rounds_delivered = len(reports)
    ev.conversation = [{"sender": "assistant", "kind": "message", "round_index": r, "content": t} for r, t in replies]
    ev.diff = {"simple_note.notes": {"created": [{"id": 7, "title": "Lunch", "content": "Sunrise Diner $18.53"}]}}
    return ev


def test_a_report_counts_in_its_round_or_later_but_not_before():
    base = example_evidence()
    ia = lambda ev: RubricJudge().information_accuracy(ev)
    assert ia(_with_rounds(base, [(0, "Done."), (1, "Sunrise Diner.")], [[], ["Sunrise Diner"]])).passed
    assert ia(_with_rounds(base, [(0, "Done."), (1, "Done."), (2, "It was Sunrise Diner.")], [[], ["Sunrise Diner"], []])).passed
    early = ia(_with_rounds(base, [(0, "Sunrise Diner."), (1, "Done.")], [[], ["Sunrise Diner"]]))
    assert not early.passed and early.kind == "missing_facts" and "(round 2)" in early.reason


def test_legacy_facts_are_answered_by_the_artifact_or_a_reply():
    ev = example_evidence()
    ev.assistant_messages = ["Saved."]
    assert RubricJudge().information_accuracy(ev).passed        # 18.53 is in the written note
    ev.diff = {"simple_note.notes": {"created": [{"id": 7, "title": "Lunch", "content": "Sunrise Diner"}]}}
    ev.entity.groups = []
    c = RubricJudge().information_accuracy(ev)
    assert not c.passed and c.kind == "missing_facts"
    ev.assistant_messages = ["Saved. The total was 18.53."]
    assert RubricJudge().information_accuracy(ev).passed


def test_a_date_fact_is_answered_by_a_date_time_written_in_the_world():
    ev = example_evidence()
    ev.facts = ["2026-05-29"]
    ev.assistant_messages = ["Done."]
    ev.entity.groups = []
    ev.diff = {"reminder.reminders": {"updated": [{"before": {"reminder_datetime": "2026-05-30T09:00:00+00:00"},
                                                   "after": {"reminder_datetime": "2026-05-29T10:00:00+00:00"}}]}}
    assert RubricJudge().information_accuracy(ev).passed  # the reminder set for that day states it
    ev.diff["reminder.reminders"]["updated"][0]["after"]["reminder_datetime"] = "2026-05-28T10:00:00+00:00"
    c = RubricJudge().information_accuracy(ev)
    assert not c.passed and c.kind == "missing_facts" and "2026-05-29" in c.reason  # another day does not


def test_hedging_about_a_written_amount_fails_even_when_nothing_was_asked():
    ev = example_evidence()
    ev.facts = []
    ev.assistant_messages = ["Saved the note with 18.53 or maybe 18.35, I could not read it well."]
    c = RubricJudge().information_accuracy(ev)
    assert not c.passed and c.kind == "hedged" and "'18.53' (written)" in c.reason
