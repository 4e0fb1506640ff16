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


# The forms people write values in: (fact, reply, stated?)
FORMS = [
    # counts in words, up to twenty and "a dozen"
    ("2", "You have two of your cards on file.", True),
    ("2", "You have 2 cards.", True),
    ("12", "There were a dozen of them.", True),
    ("12", "There were twelve.", True),
    ("20", "Twenty people signed up.", True),
    ("17", "seventeen five-star ratings", True),
    ("21", "twenty-one days", True),
    ("3", "You have two cards.", False),
    ("1", "the one at Pine Street", False),                       # a pronoun, not a count
    # currency with or without a symbol, with or without thousands separators
    ("1826.99", "It comes to $1,826.99.", True),
    ("1,826.99", "It comes to 1826.99 dollars.", True),
    ("1826.99", "Total: USD 1,826.99", True),
    ("9.00", "Parking was $9.", True),
    ("22.13", "about $22", True),                                  # rounded as written
    ("22.13", "22.1", True),
    ("22.13", "$22.14", False),                                    # as precise, different: another value
    ("12.29", "$12.30", False),
    ("1396", "about 1,400 visitors", True),
    ("1396", "about 1,500 visitors", False),
    # dates and times in prose and common numeric forms
    ("2024-04-25T22:59:00", "on 25 April 2024 at 22:59", True),
    ("2024-04-25T22:59:00", "on April 25, 2024, 10:59 PM", True),
    ("2024-04-25T22:59:00", "2024-04-25 22:59", True),
    ("2024-02-25T15:58:08", "on 25 February 2024 at 3:58 pm", True),   # to the minute
    ("2024-04-25T22:59:00", "on 25 April 2024 at 21:59", False),
    ("2026-05-09", "Saturday, May 9th, 2026", True),
    ("2026-05-09", "9 May 2026", True),
    ("2026-05-09", "05/09/2026", True),
    ("2026-05-09", "09.05.2026", True),
    ("2026-05-09", "May 10, 2026", False),
    ("14:00", "at 2 PM", True),
    ("09:00", "at 9am", True),
    ("14:00", "at 4 PM", False),
]


@pytest.mark.parametrize("fact, reply, ok", FORMS)
def test_the_forms_people_write_values_in(fact, reply, ok):
    assert (claim_status(fact, [reply]) == "stated") is ok


# One committed answer: (fact, reply, rivals, status)
COMMITMENT = [
    ("Lumen Hardware", "Lumen Hardware, at $22.13 vs $20.51 at Pine Street Books.", ["Pine Street Books"], "stated"),
    ("Lumen Hardware", "Lumen Hardware was more expensive ($22.13; Pine Street Books was $20.51).", ["Pine Street Books"], "stated"),
    ("Lumen Hardware", "Pine Street Books was $20.51 and Lumen Hardware $22.13, so Lumen Hardware cost more.",
     ["Pine Street Books"], "stated"),
    ("Lumen Hardware", "Lumen Hardware cost more than Pine Street Books.", ["Pine Street Books"], "stated"),
    ("Jovan Drummond", "Added Jovan Drummond. Isadora Fairbanks is already in your contacts.", ["Isadora Fairbanks"], "stated"),
    ("Lumen Hardware", "Lumen Hardware $22.13. Pine Street Books $20.51.", ["Pine Street Books"], "hedged"),
    ("Lumen Hardware", "It is Lumen Hardware. It is Pine Street Books.", ["Pine Street Books"], "hedged"),
    ("Lumen Hardware", "Lumen Hardware and Pine Street Books.", ["Pine Street Books"], "hedged"),
    ("Lumen Hardware", "Either Lumen Hardware or Pine Street Books.", ["Pine Street Books"], "hedged"),
    ("13.48", "The total is $13.48 / $13.84 / $18.43.", [], "hedged"),
    ("13.48", "The total is somewhere between 13.48 and 13.84.", [], "hedged"),
    ("13.48", "The amount is 13.20. The amount is 13.48. The amount is 13.76.", [], "hedged"),
    ("13.48", "Blue Door Cafe: $13.48 (the receipt before was $18.43).", [], "stated"),
    ("13.48", "Coffee $13.48, parking $9.00.", [], "stated"),
]


@pytest.mark.parametrize("fact, reply, rivals, status", COMMITMENT)
def test_one_committed_answer(fact, reply, rivals, status):
    assert claim_status(fact, [reply], rivals=rivals) == status


# The second outside check (#31): what still passed or failed wrongly, and its verdict now.
# (fact, reply, keyword arguments of claim_status, status)
RECEIPTS = dict(rivals=["Pine Street Books"], asked="Lumen Hardware was more expensive at $22.13 (Pine Street Books was $20.51).")
SECOND_CHECK = [
    # both candidates, each in a sentence of its own wording
    ("Lumen Hardware", "It's Pine Street Books. The more expensive one was Lumen Hardware.", RECEIPTS, "hedged"),
    ("Lumen Hardware", "The winner is Lumen Hardware. Pine Street Books is the answer.", RECEIPTS, "hedged"),
    ("Night Market", "It's the Night Market. The earlier event is the Indie Film Festival.",
     dict(also=["Indie Film Festival"], asked="Saved 'Indie Film Festival'. The Night Market (2026-05-02) is earlier."), "hedged"),
    ("Stonebridge Electric", "The smallest invoice is Northgate Cleaning Services at $587.93. Stonebridge Electric, $162.37, is the answer.",
     dict(rivals=["Northgate Cleaning Services"], asked="Stonebridge Electric at $162.37 is the smallest invoice."), "hedged"),
    ("Lumen Hardware", "Pine Street Books was cheaper; Lumen Hardware was more expensive.", RECEIPTS, "stated"),
    ("Night Market", "Saved 'Indie Film Festival'. The Night Market is earlier.",
     dict(also=["Indie Film Festival"], asked="Saved 'Indie Film Festival'. The Night Market (2026-05-02) is earlier."), "stated"),
    # sprays of small whole numbers and of neighbouring amounts
    ("11", "The count is 9. The count is 10. The count is 11. The count is 12. The count is 13.", {}, "hedged"),
    ("11", "You have 9 labels. I count 10. There are 11 of them. Altogether 12.", {}, "hedged"),
    ("13.38", "It is the cheapest, at about $12. I read roughly $13 on the tag. Near $14 all in.", {}, "hedged"),
    ("11", "You have 11 relationship labels.", {}, "stated"),
    ("13.38", "It is the cheapest at $13.", {}, "stated"),
    # a pool dumped into a reply, readings of a name listed
    ("Sunday", "Today is Monday / Tuesday / Wednesday / Thursday / Friday / Saturday / Sunday.", {}, "hedged"),
    ("Sunday", "Monday, Tuesday, Wednesday, Thursday, Friday, Saturday, Sunday.", {}, "hedged"),
    ("Sunday", "It's Sunday. Yesterday was Saturday.", {}, "stated"),
    ("Lumen Hardware", "Lumen Hardware / Lumen Hardwares / Lumin Hardware / Lumen Hardwire was more expensive.", RECEIPTS, "hedged"),
    ("Lumen Hardware", "The pricier one: Lumen Hardware, Lumin Hardware, Lumen Hardwire (hard to read).", RECEIPTS, "hedged"),
    ("Lumen Hardware", "Lumen Hardware and Pine Street Books were both in the bag; Lumen Hardware cost more.", RECEIPTS, "stated"),
    # an "or" about something else is no hedge about the value
    ("11", "You have 11 relationship labels, such as friend or coworker.", {}, "stated"),
    ("Lumen Hardware", "Either way you look at it, Lumen Hardware was more expensive.", RECEIPTS, "stated"),
    ("Lumen Hardware", "Lumen Hardware was more expensive, and I saved it without any other changes or edits.", RECEIPTS, "stated"),
    ("Lumen Hardware", "Lumen Hardware, whether or not you count the tax, was more expensive.", RECEIPTS, "stated"),
    ("Lumen Hardware", "Lumen Hardware, or Pine Street Books.", RECEIPTS, "hedged"),
    # phone numbers, amounts in words past a thousand and with cents, "3.2k"
    ("9776301663", "Your number is (977) 630-1663.", {}, "stated"),
    ("9776301663", "Your number is 977-630-1663.", {}, "stated"),
    ("9776301663", "It's +1 977 630 1663.", {}, "stated"),
    ("9776301663", "977.630.1663", {}, "stated"),
    ("9776301663", "Your number is (977) 630-1664.", {}, "missing"),
    ("3200", "three thousand two hundred dollars", {}, "stated"),
    ("901.94", "nine hundred and one dollars and ninety-four cents", {}, "stated"),
    ("901.94", "nine hundred and one dollars and ninety-five cents", {}, "missing"),
    ("3200", "It was 3.2k dollars.", {}, "stated"),
]


@pytest.mark.parametrize("fact, reply, kwargs, status", SECOND_CHECK)
def test_the_second_outside_check(fact, reply, kwargs, status):
    assert claim_status(fact, [reply], **kwargs) == status


@pytest.mark.parametrize("reply, status", [
    ("On 27 May 2024.", "stated"),                     # the date-time rounded to the day
    ("On 27 May 2024 at 11:34 PM.", "stated"),
    ("On 27 May 2024 at 10:34 PM.", "missing"),        # another time of that day
    ("On 28 May 2024.", "missing"),
])
def test_a_date_time_said_to_the_day(reply, status):
    assert claim_status("2024-05-27T23:34:19", [reply]) == status
