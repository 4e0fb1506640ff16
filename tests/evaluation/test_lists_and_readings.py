"""Issue #31: list answers ("these are all of them" vs "one of these") and read tolerances (a value
read off a chart's axis is right within the scenario's tolerance for it, and only one reading counts)."""

from __future__ import annotations

import json
import re

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.evaluation import RubricJudge
from mmtsb_env.evaluation.claims import claim_status, commits_among
from mmtsb_env.evaluation.evidence import evidence_from_record
from mmtsb_env.evaluation.similarity import DEFAULT_TOLERANCES, Tolerances, facts
from mmtsb_env.runner import run_episode

NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}


class Replacing(OracleAgent):
    """The oracle, with some rounds' closing message replaced and a value rewritten everywhere."""

    def __init__(self, scenario, replies=None, swap=None):
        super().__init__([scenario])
        self.replies, self.swap = dict(replies or {}), swap

    def act(self, obs, info):
        action = super().act(obs, info)
        r = info.get("round_index", 0)
        if not action.lstrip().startswith("{") and r in self.replies:
            return self.replies.pop(r)
        return self.swap(action) if self.swap else action


def accuracy(rec, scenario, **changes):
    ev = evidence_from_record(rec, scenario)
    for k, v in changes.items():
        setattr(ev, k, v)
    return RubricJudge().information_accuracy(ev)


# -- list answers ------------------------------------------------------------------------------


def test_a_possessive_its_is_not_a_clause_that_answers():
    """The recorded false negative: "'X' already had its address" read as "it's X" (an answering clause)."""
    reply = ("Removed 'Moonlight Poetry Slam'. 'Neighborhood Chess Tournament' already had its address. "
             "Removed 'Sunrise Film Screening'. 'Midnight Craft Market' already had its address.")
    assert commits_among("Moonlight Poetry Slam", reply, [], "Removed them.",
                         ["Neighborhood Chess Tournament", "Midnight Craft Market"]) is not False
    assert commits_among("Lumen Hardware", "It's Pine Street Books. The more expensive one was Lumen Hardware.",
                         ["Pine Street Books"]) is False
    assert commits_among("Lumen Hardware", "It’s Pine Street Books. The more expensive one was Lumen Hardware.",
                         ["Pine Street Books"]) is False
    # "its" right before a candidate is a typo of "it's", not a possessive
    assert commits_among("Lumen Hardware", "Its Pine Street Books. The more expensive one was Lumen Hardware.",
                         ["Pine Street Books"]) is False


@pytest.fixture(scope="module")
def venue_goal_change():
    """A composed validate recipe with a goal change (tests/generation/test_recipe_rows.py's), played
    by the oracle; the goal change removes the four events the user had fixed."""
    from tests.generation import test_recipe_rows as T
    from mmtsb_env.generation import db_recipes as R
    from mmtsb_env.generation.db_base import ABOUT, About

    mp = pytest.MonkeyPatch()
    mp.setitem(ABOUT, "VenueValidate", About(
        "VenueValidate", "validate", "event_poster", ("calendar",), without=("error_correction",), mutable=True,
        ask="These posters are for events in my calendar. Check {ref} and give every event that has no address the poster's venue."))
    mp.setitem(R.RECIPES, "validate", (T.check_recipe(T.VENUES, T.__name__),))
    try:
        s = T._scenario("goal_change")
    finally:
        mp.undo()
    removed = [c.key for c in s.expected_changes if c.operation == "delete"]
    return s, removed


def _titles(s, keys):
    rows = {e["calendar_event_id"]: e["title"] for e in s.initial_entities["calendar.events"]}
    return [rows[k] for k in keys]


def test_a_reply_listing_every_item_the_task_removed_commits(venue_goal_change):
    s, removed = venue_goal_change
    gone = _titles(s, removed)
    assert len(gone) >= 3
    shown = [im.facts["label"] for im in s.images]
    kept = [x for x in shown if x not in gone]  # checked, already right: not removed
    last = len(s.rounds) - 1
    asked = [gone[:2] if k == last else [] for k in range(len(s.rounds))]  # the round asks which events went

    def judged(reply):
        rec = run_episode(s, Replacing(s, {last: reply}))
        return accuracy(rec, s, reports=asked)

    complete = f"Removed {', '.join(gone[:-1])} and {gone[-1]}."
    assert judged(complete).passed, judged(complete).reason
    with_context = f"Removed {gone[0]} and {gone[1]}. {kept[0]} already had its address, so it stays."
    assert judged(with_context).passed
    # a look-alike or an item the task did not act on, listed the same way, is a rival candidate
    padded = f"Removed {', '.join(gone)} and {kept[0]}."
    assert judged(padded).kind == "hedged"
    misread = gone[0] + "s"
    assert judged(f"Removed {gone[0]} / {misread}, {', '.join(gone[1:])}.").kind == "hedged"


def test_a_round_that_picks_among_the_items_keeps_them_rivals(venue_goal_change):
    """Several values asked, but the reference reply makes a choice ("the two earliest"): every
    item the task acted on that the answer does not hold stays a rival."""
    s, removed = venue_goal_change
    gone = _titles(s, removed)
    last = len(s.rounds) - 1
    rec = run_episode(s, Replacing(s, {last: f"Removed {', '.join(gone[:-1])} and {gone[-1]}."}))
    asked = [gone[:2] if k == last else [] for k in range(len(s.rounds))]
    answers = [r.answer for r in s.rounds]
    answers[last] = f"The two earliest were {gone[0]} and {gone[1]}."
    assert accuracy(rec, s, reports=asked).passed
    assert accuracy(rec, s, reports=asked, answers=answers).kind == "hedged"


def test_a_rival_joined_by_plus_or_ampersand_is_listed(venue_goal_change):
    s, removed = venue_goal_change
    gone = _titles(s, removed)
    kept = [im.facts["label"] for im in s.images if im.facts["label"] not in gone]
    last = len(s.rounds) - 1
    asked = [gone[:2] if k == last else [] for k in range(len(s.rounds))]
    for joint in (" plus ", " & ", " as well as "):
        rec = run_episode(s, Replacing(s, {last: f"Removed {gone[0]}, {gone[1]}{joint}{kept[0]}."}))
        assert accuracy(rec, s, reports=asked).kind == "hedged", joint


def _later_choice():
    """The first nominal round that reports a choice among the images (its first fact an image's
    label, its second that image's amount) whose rival a later round chooses instead (a goal change
    writes it into the artifact): the scenario, the round, its report and the rival's image."""
    for s in NOMINAL.values():
        labels = {im.facts.get("label"): im.facts for im in s.images if im.facts and im.facts.get("label")}
        for k, r in enumerate(s.rounds):
            if len(r.report) < 2 or r.report[0] not in labels \
                    or r.report[1] != f"{labels[r.report[0]].get('amount', float('nan')):,.2f}":
                continue
            for later in s.rounds[k + 1:]:
                rival = next((x for x in labels if x != r.report[0] and later.answer.startswith(x + " ")), None)
                if rival and isinstance(labels[rival].get("amount"), float):
                    return s, k, r.report, labels[rival]
    raise AssertionError("no nominal round's choice is replaced by a rival in a later round")


def test_rival_candidates_for_one_asked_value_still_fail():
    """A round asks for one choice among the images; another candidate the task writes into a later
    artifact (the user changes the goal) is still a rival there ("one of these"), not part of a list."""
    s, k, report, rival = _later_choice()
    first, amount, rest = report[0], report[1], report[2:]
    tail = "".join(f" Also: {x}." for x in rest) + " Done."
    ok = run_episode(s, Replacing(s, {k: f"{first} at ${amount} is the one.{tail}"}))
    assert ok.passed, (s.id, [c for c in ok.verdict["criteria"] if not c["pass"]])
    both = run_episode(s, Replacing(s, {k: f"{first} is at ${amount}. {rival['label']} is at ${rival['amount']:.2f}.{tail}"}))
    assert accuracy(both, s).kind == "hedged", s.id


# -- read tolerances --------------------------------------------------------------------------

def _swap(true, reading):
    """An action rewriter: every written form of ``true`` ("9,570", "9570", "9570.0") becomes the
    same form of ``reading``."""
    plain, read_plain = true.replace(",", ""), reading.replace(",", "")
    forms = {true: reading, plain: read_plain, plain + ".0": read_plain + ".0", plain + ".00": read_plain + ".00"}
    pattern = re.compile(r"(?<![\d.,])(?:" + "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True)) + r")(?![\d]|\.\d)")
    return lambda action: pattern.sub(lambda m: forms[m.group(0)], action)


def _number(text):
    return float(text.replace(",", ""))


def _written(x):
    """A whole-number reading as the suites write it ("25,389")."""
    return f"{round(x):,}"


def _value_written_as_is(s):
    """The scenario's read values are written only as themselves: no expense split into shares
    computed from them (which ``_swap``, rewriting the value's written forms, cannot follow)."""
    return all(c.table != "splitwise.expense_shares" for c in s.expected_changes)


def _kept(s, value):
    """Whether ``value`` is written into the final world (a later change of goal may overwrite it)."""
    return any(re.search(r"(?<![\d.,])" + re.escape(value) + r"(?![\d]|\.\d)", json.dumps([c.row, c.fields], default=str))
               for c in s.expected_changes)


def _reported_reading(kind):
    """The first nominal (else extended) scenario with a round that reports a value of ``kind`` ("image_values": a bar
    read off its axis; "derived_values": a sum of values read off their axes) that has a read
    tolerance of at least 10 (so readings inside and outside it are whole numbers), is written
    as is and stays written in the final world: the scenario, the round, the round's report, the value and its tolerance."""
    for suite in (NOMINAL.values(), mmtsb_env.load_suite("extended")):
        for s in filter(_value_written_as_is, suite):
            tolerances = s.metadata.get("value_tolerances") or {}
            for k, r in enumerate(s.rounds):
                for value in r.report:
                    if value in s.metadata.get(kind, ()) and tolerances.get(value, 0) >= 10 and _kept(s, value):
                        return s, k, r.report, value, tolerances[value]
    raise AssertionError(f"no nominal or extended round reports a {kind} value with a read tolerance")


@pytest.mark.parametrize("kind", ["image_values", "derived_values"])  # a bar read off its axis; a sum of readings
def test_a_reading_within_the_scenarios_tolerance_is_right_and_one_outside_is_not(kind):
    s, _, _, true, tol = _reported_reading(kind)
    close, far = _written(_number(true) - 0.4 * tol), _written(_number(true) + 2 * tol)
    assert abs(_number(close) - _number(true)) <= tol
    assert abs(_number(far) - _number(true)) > tol
    exact = run_episode(s, OracleAgent([s]))
    assert exact.passed and exact.entity_f1 == 1.0
    good = run_episode(s, Replacing(s, swap=_swap(true, close)))
    assert good.passed and good.entity_f1 == 1.0, (s.id, true, close, good.verdict)
    bad = run_episode(s, Replacing(s, swap=_swap(true, far)))
    assert not bad.passed and bad.entity_f1 < 1.0, (s.id, true, far)


def test_a_tolerance_never_makes_a_spray_of_readings_an_answer():
    s, k, report, true, t = _reported_reading("image_values")  # e.g. ("Q1", "24,310") with tolerance 500
    label = next(x for x in report if x != true)
    v = _number(true)

    def at(*offsets):  # readings at these fractions of the tolerance from the true value
        return [_written(v + f * t) for f in offsets]

    rounded = _written(round(v, -max(1, len(str(round(v))) - 3)))  # 25,389 -> 25,400; 577 -> 580
    tol = Tolerances(read=((v, t),))
    for reply, status in [(f"{label} is highest at {at(-0.4)[0]}.", "stated"),
                          (f"{label} is highest at about {rounded} ({true}).", "stated"),  # the value and its own rounding
                          (f"{label} is highest at {' or '.join(at(-0.4, 0.1))}.", "hedged"),
                          (" ".join(f"The value is {x}." for x in at(-0.6, -0.2, 0.2)), "hedged"),
                          (f"{label}: {' / '.join(at(-0.9, -0.4, 0.1))}", "hedged"),
                          (f"{label} is highest at {at(2)[0]}.", "missing")]:
        assert claim_status(true, [reply], tol) == status, reply
    # the written artifact: one reading holds the fact, several hold none
    assert facts([label, true], f"{label}: {at(-0.4)[0]}", tol) == 1.0
    assert facts([label, true], f"{label}: {' / '.join(at(-0.9, -0.4, 0.1))}", tol) < 1.0
    spray = at(-0.6, -0.2, 0.2)
    reply = f"The highest value is {label} at {spray[0]}, {spray[1]} or {spray[2]}. Done."
    rec = run_episode(s, Replacing(s, {k: reply}))
    assert accuracy(rec, s).kind == "hedged", (s.id, reply)


def test_values_without_a_tolerance_keep_the_default_rules():
    assert claim_status("17.8", ["The bar is at 17.6."], DEFAULT_TOLERANCES) == "missing"
    assert claim_status("17.8", ["The bar is at 17.6."], Tolerances(read=((17.8, 0.2),))) == "stated"
    assert claim_status("17.8", ["The bar is at 17.5."], Tolerances(read=((17.8, 0.2),))) == "missing"
    assert claim_status("22.13", ["The total is 22.14."], Tolerances(read=((17.8, 0.2),))) == "missing"
    assert facts(["17.8"], "17.6") == 0.0 and facts(["17.8"], "17.6", Tolerances(read=((17.8, 0.2),))) == 1.0


def test_a_read_tolerance_never_loosens_an_id():
    from mmtsb_env.evaluation.entity_diff import compare_columns

    tol = Tolerances(read=((20.0, 1.0),))
    cols = compare_columns({"receiver_id": 20, "distance": 20}, {"receiver_id": 21, "distance": 21}, {}, "phone.global_text_messages",
                           skip_empty=True, tol=tol)
    assert cols["receiver_id"][0] == 0.0 and cols["distance"][0] == 1.0


def test_the_oracle_passes_every_nominal_scenario_with_read_tolerances():
    """Chart titles' own numbers ("Week 39", "Visitors per Exhibit 2024") are no second reading of a
    value beside them (nominal/0049, 0052 and 0182 failed before titles were masked)."""
    tolerant = [s for s in NOMINAL.values() if s.metadata.get("value_tolerances")]
    assert len(tolerant) >= 20
    for s in tolerant:
        rec = run_episode(s, OracleAgent([s]))
        assert rec.passed and rec.entity_f1 == 1.0, (s.id, [c for c in rec.verdict["criteria"] if not c["pass"]])


def test_another_bars_true_value_beside_a_reading_is_context():
    """A chart's top bar asked with a read tolerance while another bar's true value lies within it
    (e.g. '19' ± 1 with Groceries truly at 18). Saying both is context, not two readings; two readings
    of the one value still hedge. No nominal chart has such a neighbour, so the extended suite's first does."""
    for s in mmtsb_env.load_suite("extended"):
        tolerances = s.metadata.get("value_tolerances") or {}
        for im in s.images:
            chart = im.facts or {}
            true = _written(chart["amount"]) if chart.get("items") and chart.get("top") else None
            if true not in tolerances:
                continue
            t = tolerances[true]
            beside = [i for i in chart["items"] if i["name"] != chart["top"] and abs(i["amount"] - chart["amount"]) <= t]
            rounds = [k for k, r in enumerate(s.rounds) if r.answer.count(f"({true})") == 1 and chart["top"] in r.answer]
            if beside and rounds:
                break
        else:
            continue
        break
    else:
        raise AssertionError("no extended chart has another bar within the asked bar's read tolerance")
    k, other = rounds[0], beside[0]
    answer = s.rounds[k].answer
    context = answer.replace(f"({true})", f"({true}, vs {_written(other['amount'])} for {other['name']} on the {chart['label']} chart)")
    rec = run_episode(s, Replacing(s, {k: context}))
    assert rec.passed, (s.id, context, [c for c in rec.verdict["criteria"] if not c["pass"]])
    spray = answer.replace(f"({true})", f"({true} or {_written(chart['amount'] + t)})")
    rec = run_episode(s, Replacing(s, {k: spray}))
    assert accuracy(rec, s).kind == "hedged", (s.id, spray)


# -- found by the self red team (systematic perturbations of the oracle on nominal scenarios) -------

def _reading_nearer_a_shown_value():
    """(scenario id, asked value, reading): a whole-number value asked with a read tolerance, read
    0.6 tolerances off toward another bar the image shows (not asked) that lies nearer the reading
    than the value does, no other asked value within the tolerance of the reading."""
    for s in filter(_value_written_as_is, NOMINAL.values()):
        tolerances = s.metadata.get("value_tolerances") or {}
        shown = [v for v in s.metadata.get("image_values", ()) if v not in tolerances and re.fullmatch(r"[\d,]+", v)]
        for true, t in tolerances.items():
            if not re.fullmatch(r"[\d,]+", true) or t < 10:
                continue
            for x in shown:
                toward = 1 if _number(x) > _number(true) else -1
                reading = _written(_number(true) + toward * 0.6 * t)
                gap = abs(_number(reading) - _number(true))
                if 0 < abs(_number(reading) - _number(x)) < gap and reading not in shown and all(
                        abs(_number(reading) - _number(a)) > tolerances[a] for a in tolerances if a != true):
                    return s.id, true, reading
    return None


def _reading_near_another_asked_value():
    """(scenario id, asked value, reading): a whole-number value asked with a read tolerance, read
    off toward another value the same reply asks within that tolerance, still nearer its own (459
    read as 462 with 467 asked too): the reading lies within the tolerance of both."""
    for s in filter(_value_written_as_is, NOMINAL.values()):
        tolerances = s.metadata.get("value_tolerances") or {}
        shown = set(s.metadata.get("image_values", ())) | set(tolerances)
        for true, t in tolerances.items():
            for a in tolerances:
                if a == true or t < 10 or not re.fullmatch(r"[\d,]+", true) or abs(_number(a) - _number(true)) > t:
                    continue
                d = abs(_number(a) - _number(true))
                reading = _written(_number(true) + (1 if _number(a) > _number(true) else -1) * max(1, round(0.4 * d)))
                together = any(true in (r.answer or "") and a in (r.answer or "") for r in s.rounds)  # one reply asks both
                if together and d >= 3 and reading not in shown and abs(_number(reading) - _number(a)) <= tolerances[a]:
                    return s.id, true, reading
    return None


@pytest.mark.parametrize("sid,true,reading", [
    ("near_asked", None, None),  # another asked value within the tolerance of both: the reading reads its own, no spray
    ("nearer_shown", None, None),  # another bar (not asked) nearer the reading than the value does not make it ambiguous
])
def test_a_reading_near_other_values_still_reads_its_own(sid, true, reading):
    if sid in ("near_asked", "nearer_shown"):
        found = _reading_near_another_asked_value() if sid == "near_asked" else _reading_nearer_a_shown_value()
        assert found, f"no nominal chart value fits {sid}"
        sid, true, reading = found
    s = NOMINAL[sid]
    rec = run_episode(s, Replacing(s, swap=_swap(true, reading)))
    assert rec.passed and rec.entity_f1 == 1.0, [c for c in rec.verdict["criteria"] if not c["pass"]]


def test_another_asked_value_within_the_tolerance_is_no_reading_of_the_fact():
    """A value misread outside its tolerance (e.g. 1,267 ± 25 as 1,304) while another asked value lies
    within that tolerance (Rent's 1,277, 10 away): the other value is its own, no reading of the fact."""
    def inside_of(s, a, b):  # a reading of ``a`` within its tolerance, away from ``b``
        t = s.metadata["value_tolerances"][a]
        return _written(_number(a) - (1 if _number(b) > _number(a) else -1) * 0.4 * t)

    def alone(s, a, b):  # that reading lies nearer ``a`` than any other value the images show
        shown = {*(s.metadata.get("value_tolerances") or {}), *s.metadata.get("image_values", ())} - {a}
        near = abs(_number(inside_of(s, a, b)) - _number(a))
        return all(abs(_number(inside_of(s, a, b)) - _number(x)) > near for x in shown)

    s, true, other = next((s, a, b) for s in filter(_value_written_as_is, NOMINAL.values()) for tolerances in [s.metadata.get("value_tolerances") or {}]
                          for a in tolerances for b in tolerances
                          if a != b and abs(_number(a) - _number(b)) <= tolerances[a] and tolerances[a] >= 10 and alone(s, a, b))
    t = s.metadata["value_tolerances"][true]
    toward = 1 if _number(other) > _number(true) else -1
    reading = _written(_number(true) + toward * 1.5 * t)
    assert abs(_number(reading) - _number(true)) > t
    inside = inside_of(s, true, other)  # away from the other value, within the tolerance
    assert run_episode(s, Replacing(s, swap=_swap(true, inside))).passed, (s.id, true, inside)
    rec = run_episode(s, Replacing(s, swap=_swap(true, reading)))
    assert not rec.passed, (s.id, true, other, reading)


def test_a_hyphenated_name_with_one_word_swapped_is_a_misreading():
    """nominal/0007: "Harvest Food Truck Rally" for the poster's "Open-Air Food Truck Rally"."""
    s = NOMINAL["nominal/0007"]
    fact = s.rounds[0].report[0]
    assert fact == "Open-Air Food Truck Rally"
    rec = run_episode(s, Replacing(s, {0: s.rounds[0].answer.replace(fact, "Harvest Food Truck Rally")}))
    assert accuracy(rec, s).kind == "wrong_claim"


def test_a_label_number_beside_a_value_is_no_second_reading():
    """extended/1146: "Hours Logged by Project - Week 33: 34 hours" holds 34 ± 1 once (the week is a name)."""
    tol = Tolerances(read=((34.0, 1.0),))
    assert facts(["34"], "Hours Logged by Project - Week 33: 34 hours", tol) == 1.0
    assert facts(["34"], "Hours Logged by Project: 33 or 34 hours", tol) < 1.0
    assert claim_status("34", ["Week 33 had 34 hours."], tol) == "stated"


def test_a_rival_said_to_share_the_answer_hedges_it():
    """"X Laundromat closes earliest. Y Laundromat too." gives the rival the choice; "Y ... closes
    later" does not (the first nominal round whose answer names the one sign that closes earliest or latest)."""
    s, k, fact, which = next((s, k, r.report[0], m.group(1)) for s in NOMINAL.values() for k, r in enumerate(s.rounds)
                             if r.report for m in [re.match(r"(?:.*?\. )?(.+?) closes (earliest|latest) ", r.answer)]
                             if m and m.group(1) == r.report[0])
    rival = next(im.facts["label"] for im in s.images if im.facts.get("label") not in (None, fact))
    answer = s.rounds[k].answer
    cut = answer.index(").", answer.index(fact)) + 2
    answer, rest = answer[:cut], answer[cut:]  # the choice; the rest states the round's other facts (a web look-up)
    rec = run_episode(s, Replacing(s, {k: f"{answer} {rival} too.{rest}"}))
    assert accuracy(rec, s).kind == "hedged", (s.id, answer, rival)
    rec = run_episode(s, Replacing(s, {k: f"{answer} {rival} closes {'later' if which == 'earliest' else 'earlier'}.{rest}"}))
    assert rec.passed, (s.id, [c for c in rec.verdict["criteria"] if not c["pass"]])


def test_a_value_an_update_replaced_is_no_item_of_the_task():
    """A contact already on the phone that a later round's card names (nominal/0084: Marisol Ingersoll)
    is no item of the first round's task; listing her with the two contacts that round added pads the list."""
    found = next(((s, m.group(1)) for s in NOMINAL.values() if len(s.rounds[0].report) >= 2
                  and all(f"Added {x}." in (s.rounds[0].answer or "") for x in s.rounds[0].report[:2])
                  for r in s.rounds[1:] for m in [re.fullmatch(r"(.+?) is already in your contacts\.", r.answer or "")] if m), None)
    if found is None:
        pytest.skip("the shipped nominal suite has no scenario of this shape (two contacts added, a later card naming one already there)")
    s, outsider = found
    asked = list(s.rounds[0].report)
    rec = run_episode(s, Replacing(s, {0: f"Done: {asked[0]}, {asked[1]} and {outsider}."}))
    assert accuracy(rec, s).kind == "hedged"
    rec = run_episode(s, Replacing(s, {0: f"Done: {asked[0]} and {asked[1]}."}))
    assert accuracy(rec, s).passed


def test_a_reading_outside_the_tolerance_is_a_misreading_not_an_omission():
    """Every nominal scenario with a chart value read to within >= 10, written as is: that value
    read three tolerances off everywhere (replies, notes, task lists) is a factual error (a wrong
    value read from an image), not incomplete execution (one of N items left out)."""
    from mmtsb_env.evaluation.taxonomy import classify

    classes = {}
    for s in filter(_value_written_as_is, NOMINAL.values()):
        tolerances = s.metadata.get("value_tolerances") or {}
        shown = {*tolerances, *s.metadata.get("image_values", ())}
        # (a misreading that lands on another value the images show states that value, not a wrong one)
        read = [(v, t) for v, t in tolerances.items() if t >= 10 and v in s.metadata.get("image_values", ())
                and _written(_number(v) + 3 * t) not in shown]
        if read:
            true, tol = read[0]
            rec = run_episode(s, Replacing(s, swap=_swap(true, _written(_number(true) + 3 * tol))))
            classes[s.id] = classify(rec.verdict)[0]
    assert len(classes) >= 10
    assert {k: c for k, c in classes.items() if c != "factual_error"} == {}


def test_two_readings_across_the_reply_and_the_written_text_are_no_answer():  # F7
    """A chart value both reported and written (and kept in the final world; nominal, else extended), read once low in the written text and once high in
    the reply (each within the tolerance): the answer commits to no single reading. The same reading
    everywhere passes."""
    cases = []
    for suite in (NOMINAL.values(), mmtsb_env.load_suite("extended")):
        for s in filter(_value_written_as_is, suite):
            tolerances = s.metadata.get("value_tolerances") or {}
            read = [(v, t) for v, t in tolerances.items() if t >= 10 and v in s.metadata.get("image_values", ())
                    and any(v in r.report for r in s.rounds) and _kept(s, v)]
            # a value only stated and written (not one that sets an amount of money moved, whose
            # exact sum the world checks): one reading within the tolerance everywhere passes
            if read and run_episode(s, Replacing(s, swap=_swap(read[0][0], _written(_number(read[0][0]) - 0.4 * read[0][1])))).passed:
                cases.append((s, *read[0]))
        if len(cases) >= 2:
            break
    assert len(cases) >= 2
    for s, true, tol in cases:
        low, high = _swap(true, _written(_number(true) - 0.4 * tol)), _swap(true, _written(_number(true) + 0.4 * tol))
        split = run_episode(s, Replacing(s, swap=lambda a: low(a) if a.lstrip().startswith("{") else high(a)))
        failed = {c["criterion"]: c.get("kind") for c in split.verdict["criteria"] if not c["pass"]}
        assert failed == {"information_accuracy": "hedged"}, (s.id, true)


def test_a_reading_near_a_value_only_a_later_round_asks_for_is_still_a_reading():
    """A round's chart value read within its tolerance, where the reading is also within the
    tolerance of a value only a later round reports (its images are not seen yet): the number
    reads this round's value, it is not taken for the later one (the answer passed as a misreading
    before). Nominal and extended scenarios with such a pair of reported values; a reading three tolerances off
    still fails."""
    cases = []
    for s in filter(_value_written_as_is, [*NOMINAL.values(), *mmtsb_env.load_suite("extended")]):
        tolerances = s.metadata.get("value_tolerances") or {}
        for k, rnd in enumerate(s.rounds):
            for fact in (f for f in rnd.report if tolerances.get(f)):
                t = tolerances[fact]
                for other in (o for later in s.rounds[k + 1:] for o in later.report if o in tolerances and o != fact):
                    step = 0.25 * t if _number(other) >= _number(fact) else -0.25 * t
                    reading = _written(_number(fact) + step)
                    if abs(_number(reading) - _number(other)) <= t and reading not in tolerances:
                        cases.append((s, fact, reading, t))
    assert len(cases) >= 2
    for s, fact, reading, t in cases:
        rec = run_episode(s, Replacing(s, swap=_swap(fact, reading)))
        assert rec.passed, (s.id, fact, reading, [c for c in rec.verdict["criteria"] if not c["pass"]])
        off = run_episode(s, Replacing(s, swap=_swap(fact, _written(_number(fact) - 3 * t))))
        assert not off.passed, (s.id, fact)
