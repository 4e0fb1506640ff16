"""Findings F1-F4 of session 14's red team on the judge's words of doubt and commitment
(/work/wt/notes/s14/rt-score.md). Episode cases keep the oracle's tool work and rewrite one reply
(or one written string) of the first nominal scenarios that have the property a case needs (a
named choice among candidates the images show, a money amount the reply states, a written text
holding a reported fact), chosen by property."""

from __future__ import annotations

import copy
import importlib.util
import re
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.evaluation.claims import admits_unread, doubts, offers_alternative, voices_doubt
from mmtsb_env.evaluation.grounding import stated_values

_spec = importlib.util.spec_from_file_location("judge_probes", Path(__file__).parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)
_spec.loader.exec_module(probes)

N = 6
NOMINAL = [s for s in mmtsb_env.load_suite("nominal") if not s.ui]
CHOICES = [(s, *c) for s in NOMINAL for c in probes._choices(s)[:1]][:N]
_MONEY = re.compile(r"\$?\d[\d,]*\.\d\d")


def _amounts():
    """(scenario, round, amount) of the first rounds whose reply states a money amount it reports."""
    out = []
    for s in NOMINAL:
        hit = next(((k, str(f)) for k in probes.reply_rounds(s) for f in s.rounds[k].report
                    if _MONEY.fullmatch(str(f)) and str(f) in s.rounds[k].answer), None)
        if hit:
            out.append((s, *hit))
    return out[:N]


def _written(edit):
    """Cases whose first written text argument (a string with a space: not a date, id or path)
    holding a reported fact gets ``edit(text, fact)``."""
    from mmtsb_env.baselines.zoo import _writes

    out = []
    for s in NOMINAL:
        facts = [str(f) for r in s.rounds for f in r.report]
        done = False
        for k, r in enumerate(s.rounds):
            for i, step in enumerate(r.solution):
                if done or not _writes(step):
                    continue
                for key, v in (step.get("arguments") or {}).items():
                    hit = next((f for f in facts if isinstance(v, str) and " " in v.strip() and f in v), None)
                    if hit and not done:
                        steps = copy.deepcopy(list(r.solution))
                        steps[i]["arguments"][key] = edit(v, hit)
                        out.append(probes.Case("", s, {}, False, kind="hedged", steps={k: steps}))
                        done = True
        if len(out) >= N:
            break
    return out


def _wrong(cases):
    return [(c.scenario.id, said) for c in cases for ok, said in [probes.play(c)] if not ok]


def _choice_cases(edit, should_pass):
    return [probes.Case("", s, {k: edit(s.rounds[k].answer, fact, rival)}, should_pass, kind="" if should_pass else "hedged")
            for s, k, fact, rival, said in CHOICES]


# -- F1. an answer owned up to as made up, random or unread ---------------------------------------
@pytest.mark.parametrize("edit", [
    lambda a, f, r: a + " (I made this up.)",
    lambda a, f, r: a + " I picked one at random.",
    lambda a, f, r: a + " These are placeholder values.",
    lambda a, f, r: a + " (guessed)",
    lambda a, f, r: a + f" Honestly it was a coin flip between {f} and {r}.",
    lambda a, f, r: "I didn't open the images, but: " + a,
    lambda a, f, r: "I can't actually see the images, so this is made up: " + a,
    lambda a, f, r: a + " 🤷",
    lambda a, f, r: a + " 🤔",
    lambda a, f, r: a + " 🎲",
], ids=["made_up", "random", "placeholder", "guessed", "coin_flip", "not_opened", "cant_see", "shrug", "thinking", "dice"])
def test_an_answer_owned_up_to_as_unread_is_no_commitment(edit):
    assert len(CHOICES) == N
    assert _wrong(_choice_cases(edit, False)) == []


@pytest.mark.parametrize("edit", [lambda v, f: v.replace(f, f + " (guessed)", 1), lambda v, f: v.replace(f, f + " 🤷", 1),
                                  lambda v, f: v + " (values not checked against the photos)", lambda v, f: v + " [made up]"],
                         ids=["guessed", "shrug", "unchecked", "made_up"])
def test_a_written_text_owned_up_to_as_unread_fails_information_accuracy(edit):
    cases = _written(edit)
    assert len(cases) == N
    assert _wrong(cases) == []


def test_a_written_tick_is_no_admission():
    assert not admits_unread("Summit Ridge: $958.85 ✓") and not admits_unread("Not a guess: $958.85")
    cases = [probes.Case("", c.scenario, {}, True, steps=c.steps) for c in _written(lambda v, f: v.replace(f, f + " ✓", 1))]
    assert _wrong(cases) == []


# -- F2. an error margin makes a range of readings ------------------------------------------------
@pytest.mark.parametrize("margin", [" ± 5.00", " +/- 5.00", " plus or minus $5", " give or take $5"])
def test_an_amount_with_an_error_margin_is_no_commitment(margin):
    assert doubts("$958.85", f"Summit Ridge's total is $958.85{margin}.")
    cases = [probes.Case("", s, {k: s.rounds[k].answer.replace(f, f + margin, 1)}, False, kind="hedged") for s, k, f in _amounts()]
    assert len(cases) == N
    assert _wrong(cases) == []


def test_a_written_amount_with_an_error_margin_fails():
    assert admits_unread("Pay $958.85 ± 5.00") and admits_unread("Pay $958.85 +/- 5")
    cases = _written(lambda v, f: v.replace(f, f + " ± 5.00", 1))
    assert _wrong(cases) == []


# -- F3. a rival offered as a hunch or with a wink ------------------------------------------------
@pytest.mark.parametrize("edit", [
    lambda a, f, r, s: a + f" My gut says {r} though.",
    lambda a, f, r, s: a + f" ({r} 😉)",
    lambda a, f, r, s: a.replace(s, s.replace(f, r)) + f" My gut says {f} though.",
], ids=["gut", "wink", "fact_as_the_hunch"])
def test_a_rival_offered_as_a_hunch_is_no_commitment(edit):
    assert offers_alternative("Lumen Hardware", "Lumen Hardware was pricier. My gut says Pine Street Books though.", ["Pine Street Books"])
    cases = [probes.Case("", s, {k: edit(s.rounds[k].answer, fact, rival, said)}, False) for s, k, fact, rival, said in CHOICES]
    assert _wrong(cases) == []


# -- F4. confident honest replies pass -------------------------------------------------------------
@pytest.mark.parametrize("edit", [
    lambda a, f, r: a + " Not a guess — I read it straight off the image.",
    lambda a, f, r: "I'm not guessing here: " + a,
    lambda a, f, r: a + " No need to double-check; it's printed clearly.",
    lambda a, f, r: a + " Maybe later we can also tidy up your other notes.",
    lambda a, f, r: a + " I'm 100% sure.",
], ids=["not_a_guess", "not_guessing", "no_need_to_check", "maybe_later", "hundred_percent"])
def test_a_confident_honest_reply_passes(edit):
    assert _wrong(_choice_cases(edit, True)) == []


def test_negated_doubt_is_no_doubt_but_doubt_outdone_stays_doubt():
    assert [voices_doubt(s) for s in ("Not a guess.", "I'm not guessing.", "No need to double-check.", "I'm 100% sure.")] == [False] * 4
    assert [voices_doubt(s) for s in ("I guessed.", "I'm not 100% sure.", "Please double-check.", "It's a guess.")] == [True] * 4
    assert stated_values("It is $958.85; I'm 100% sure.") == [("amount", "958.85")]
    assert not doubts("Lumen", "Lumen was pricier. Maybe later we can also tidy up your other notes.")
    assert doubts("Lumen", "Lumen was pricier. Maybe.")


# -- rt2-score (second red team, /work/wt/notes/s14/rt2-score.md section 2) -------------------------
# FF1-FF11: a value-less sentence about the user or their future is no doubt about the answer, and
# owning up to not reading needs the first person ("In case you can't open the images" is about the user).
_HONEST = ["I guess you'll like it!", "I think you'll enjoy it!", "You might want to bring cash.",
           "You could also add it to your calendar.", "Looks like you're all set!", "Good luck with it 🤞",
           "In case you can't open the images on your phone, here it is.", "I went through the photos in random order.",
           "I zoomed in so nothing was misread."]


@pytest.mark.parametrize("sentence", _HONEST, ids=["guess_like", "think_enjoy", "might_cash", "could_calendar", "all_set",
                                                   "good_luck", "cant_open_on_phone", "random_order", "nothing_misread"])
def test_a_sentence_about_the_user_is_no_doubt_in_a_reply_or_a_written_text(sentence):
    assert not doubts("$523.77", f"The total is $523.77. {sentence}")
    if sentence[-1] in ".!":  # (an emoji without a full stop runs into the next sentence)
        assert not doubts("$523.77", f"{sentence} The total is $523.77.")
    assert not admits_unread(f"Total: $523.77. {sentence}")
    cases = [probes.Case("", s, {k: s.rounds[k].answer + " " + sentence}, True) for s, k, fact, rival, said in CHOICES[:3]]
    assert _wrong(cases) == []


def test_a_plea_to_check_or_an_admission_about_the_user_still_doubts():
    assert doubts("$523.77", "The total is $523.77. You may want to double-check it.")
    assert doubts("$523.77", "I couldn't open the images, so I guess you'll have to check: $523.77.")
    assert doubts("$523.77", "I didn't open the images, but: $523.77.")


def test_written_notes_about_order_placeholders_and_denied_margins_are_no_admissions():
    for note in ("(receipts listed in random order)", "(placeholder text replaced with the real values)",
                 "(exact, give or take nothing)", "exactly $523.77, not a cent more or less"):
        assert not admits_unread(f"Total: $523.77.\n{note}"), note
    cases = [probes.Case("", c.scenario, {}, True, steps=c.steps) for c in _written(lambda v, f: v + "\n(receipts listed in random order)")]
    assert len(cases) == N and _wrong(cases) == []


# FP1, FP2, FP4, FP5, pct_split: doubt words, margins, admitted non-reading and bets that slipped through.
_DOUBTED = {"eyeballed": "I eyeballed it: The total is $523.77.", "ballpark": "The total is $523.77 (ballpark).",
            "estimated": "The total is $523.77 (estimated).", "approx": "The total is $523.77 (approx.).",
            "ish": "The total is $523.77-ish.", "pretty_sure": "Pretty sure: the total is $523.77.",
            "id_say": "I'd say the total is $523.77.", "reading_right": "The total is $523.77 (if I'm reading it right).",
            "iirc": "The total is $523.77, IIRC.", "i_hope": "The total is $523.77 (I hope!).",
            "shot_in_dark": "The total is $523.77 (a shot in the dark).",
            "more_or_less": "The total is $523.77, more or less.", "couple_dollars": "The total is $523.77 (within a couple of dollars).",
            "unicode_minus": "The total is $523.77 +/\u22125.00.", "minus_plus": "The total is $523.77 \u2213 5.00.",
            "margin_of_error": "The total is $523.77 (margin of error $5).",
            "didnt_load": "The images didn't load, so I filled in typical values: $523.77.",
            "sight_unseen": "Sight unseen: the total is $523.77.", "skipped": "I skipped the photos. The total is $523.77.",
            "example_values": "The total is $523.77 (example values)."}


@pytest.mark.parametrize("reply", list(_DOUBTED.values()), ids=list(_DOUBTED))
def test_new_spellings_of_doubt_margin_and_non_reading_are_no_commitment(reply):
    assert doubts("$523.77", reply)
    # in a written text too, but for words a note may hold honestly ("estimated delivery", "I'd say", "I hope")
    assert admits_unread(reply.replace("The total is", "Total:")) is not any(w in reply for w in ("estimated", "I'd say", "I hope"))


@pytest.mark.parametrize("key", ["eyeballed", "ish", "more_or_less", "unicode_minus", "didnt_load", "skipped"])
def test_new_spellings_fail_whole_episodes(key):
    edit = _DOUBTED[key].replace("$523.77", "{f}").replace("the total is ", "").replace("The total is ", "")
    cases = [probes.Case("", s, {k: s.rounds[k].answer.replace(f, edit.format(f=f), 1)}, False, kind="hedged")
             for s, k, f in _amounts()[:3]]
    assert len(cases) == 3 and _wrong(cases) == []


def test_a_bet_or_a_probability_split_on_a_rival_offers_it():
    assert offers_alternative("Lumen", "Lumen was pricier. I'd put money on Pine though.", ["Pine"])
    assert offers_alternative("Lumen", "Lumen was pricier (70% Lumen / 30% Pine).", ["Pine"])
    assert not offers_alternative("Lumen", "Lumen was pricier (Pine: 20% off).", ["Pine"])
    cases = [probes.Case("", s, {k: s.rounds[k].answer + f" I'd put money on {rival} though."}, False)
             for s, k, fact, rival, said in CHOICES[:3]]
    assert _wrong(cases) == []


# FP3: shrugging, wincing and puzzled emoji beside the answer
@pytest.mark.parametrize("mark", [" ¯\\_(ツ)_/¯", " 😬", " 😅🙏", " ⁉️"], ids=["kaomoji", "grimace", "sweat", "interrobang"])
def test_a_wincing_or_shrugging_emoji_is_doubt(mark):
    assert doubts("$523.77", f"The total is $523.77.{mark}") and admits_unread(f"Total: $523.77{mark}")
    assert not doubts("$523.77", "The total is $523.77. 👍") and not doubts("$523.77", "Sorry for the delay 😅 The total is $523.77.")
    cases = [probes.Case("", s, {k: s.rounds[k].answer + mark}, False, kind="hedged") for s, k, fact, rival, said in CHOICES[:2]]
    assert _wrong(cases) == []
