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
    """Cases whose first written string argument holding a reported fact gets ``edit(text, fact)``."""
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
                    hit = next((f for f in facts if isinstance(v, str) and f in v), None)
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
