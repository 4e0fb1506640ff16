"""Findings of session 13's independent red team on the information-accuracy judge
(/work/wt/notes/s13/redteam_judge.md), in the order of how much they distort the score. Episode
cases rewrite the reference replies of the first nominal scenarios whose round reports a named
choice among candidates the images show (``benchmarks/judge_probes.py``'s ``_choices``: the fact,
a rival, the reply's sentence stating it), chosen by property."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.evaluation.claims import asserts_other, offers_alternative
from mmtsb_env.evaluation.grounding import stated_names

_spec = importlib.util.spec_from_file_location("judge_probes", Path(__file__).parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)
_spec.loader.exec_module(probes)

CHOICES = [(s, *c) for s in mmtsb_env.load_suite("nominal") if not s.ui for c in probes._choices(s)[:1]][:12]


def _play(s, replies, should_pass):
    return probes.play(probes.Case("", s, replies, should_pass))


def _rewrites(edit):
    """(scenario, replies) with the round's reply edited by ``edit(answer, fact, rival)``."""
    return [(s, {k: edit(s.rounds[k].answer, fact, rival)}) for s, k, fact, rival, said in CHOICES]


# -- 0. a labelled final answer naming the rival -------------------------------------------------
@pytest.mark.parametrize("label", ["Final answer: {r}.", "TL;DR: {r}.", "\n\nAnswer: {r}", "Going with {r}.", "Bottom line: {r}."])
def test_a_labelled_answer_naming_the_rival_is_no_commitment(label):
    assert offers_alternative("Lumen Hardware", "Lumen Hardware was more expensive at $22.13. " + label.format(r="Pine Street Books"),
                              ["Pine Street Books"])
    assert len(CHOICES) >= 10
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + " " + label.format(r=r)) if not _play(s, replies, False)[0]]
    assert wrong == []


def test_a_labelled_answer_naming_the_fact_passes():
    assert not offers_alternative("Lumen Hardware", "Final answer: Lumen Hardware (not Pine Street Books).", ["Pine Street Books"])
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + f" Final answer: {f}.") if not _play(s, replies, True)[0]]
    assert wrong == []


# -- 1. a rival offered in parentheses -----------------------------------------------------------
@pytest.mark.parametrize("aside", ["{r} is close", "could equally be {r}", "if not {r}", "50/50 with {r}", "{r} also fits"])
def test_a_rival_offered_in_parentheses_is_no_commitment(aside):
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a.replace(f, f"{f} ({aside.format(r=r)})", 1))
             if not _play(s, replies, False)[0]]
    assert wrong == []


def test_a_rival_in_parentheses_as_context_passes():
    assert not offers_alternative("Lumen Hardware", "Lumen Hardware (Pine Street Books: $20.51).", ["Pine Street Books"])
    assert not offers_alternative("Lumen Hardware", "Lumen Hardware (vs Pine Street Books at $20.51).", ["Pine Street Books"])


# -- 2. a later correction to the rival ----------------------------------------------------------
@pytest.mark.parametrize("line", [" Correction: earlier I said {f}, but it was actually {r}.",
                                  " Earlier I said {f}, but it was actually {r}."])
def test_a_later_correction_to_the_rival_contradicts(line):
    assert asserts_other("Lumen Hardware", line.format(f="Lumen Hardware", r="Pine Street Books"), ["Pine Street Books"])
    wrong = []
    for s, k, fact, rival, said in CHOICES:
        last = len(s.rounds) - 1
        ok, verdict = _play(s, {last: (s.rounds[last].answer or "Done.") + line.format(f=fact, r=rival)}, False)
        if not ok:
            wrong.append((s.id, verdict))
    assert wrong == []


def test_an_earlier_comparison_recapped_is_no_correction():
    assert not asserts_other("Lumen Hardware", "Earlier I compared Pine Street Books and Lumen Hardware; Lumen Hardware was pricier.",
                             ["Pine Street Books"])


# -- 10. a closing wish is no name ----------------------------------------------------------------
@pytest.mark.parametrize("wish", ["Have a Wonderful Day, and Happy Planning!", "Enjoy Your Weekend at the Market!",
                                  "Have a Lovely Evening!"])
def test_a_closing_wish_is_no_ungrounded_name(wish):
    assert stated_names("Done. " + wish) == []
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + "\n\n" + wish) if not _play(s, replies, True)[0]]
    assert wrong == []


# -- 3. doubt words outside the old lists ---------------------------------------------------------
@pytest.mark.parametrize("edit", ["{f}, I reckon", "{f} (tentative)", "{f}, as far as I can tell", "{f}, to the best of my knowledge"])
def test_doubt_in_other_words_is_no_commitment(edit):
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a.replace(f, edit.format(f=f), 1)) if not _play(s, replies, False)[0]]
    assert wrong == []


@pytest.mark.parametrize("line", [" I haven't verified this.", " Confidence: low.", " Take that with a grain of salt."])
def test_a_doubt_sentence_of_its_own_is_no_commitment(line):
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + line) if not _play(s, replies, False)[0]]
    assert wrong == []


# -- 15. units written out -----------------------------------------------------------------------
def test_a_unit_written_out_states_the_value():
    import re

    cases = []
    for s in mmtsb_env.load_suite("nominal"):
        for k, r in enumerate(s.rounds):
            facts = [f for f in r.report if re.fullmatch(r"\d+(?:\.\d+)? kg", f) and f in (r.answer or "")]
            if facts and not s.ui:
                cases.append((s, {k: r.answer.replace(facts[0], facts[0].replace(" kg", " kilograms"))}))
                break
    assert len(cases) >= 5
    wrong = [s.id for s, replies in cases[:12] if not _play(s, replies, True)[0]]
    assert wrong == []


# -- 11. the candidates a choice is made from ------------------------------------------------------
def test_naming_the_candidates_the_choice_is_made_from_passes():
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + f" Between {r} and {f}, the answer is {f}.")
             if not _play(s, replies, True)[0]]
    assert wrong == []


# -- 5. an answer in a JSON block ------------------------------------------------------------------
def test_a_json_answer_naming_the_rival_is_no_commitment():
    wrong = [s.id for s, replies in _rewrites(lambda a, f, r: a + f'\n\n```json\n{{"answer": "{r}"}}\n```')
             if not _play(s, replies, False)[0]]
    assert wrong == []


# -- 17. extra true arithmetic ---------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["total", "mean"])
def test_the_total_or_mean_of_the_shown_amounts_is_true(kind):
    from mmtsb_env.evaluation.grounding import image_facts

    cases = []
    for s in mmtsb_env.load_suite("nominal"):
        shown = [float(f["amount"]) for f in image_facts(s) if isinstance(f.get("label"), str)
                 and isinstance(f.get("amount"), (int, float)) and not isinstance(f.get("amount"), bool)]
        k = next((k for k, r in enumerate(s.rounds) if r.report and r.answer), None)
        if len(shown) >= 3 and k is not None and not s.ui:
            value = sum(shown) if kind == "total" else sum(shown) / len(shown)
            cases.append((s, {k: s.rounds[k].answer + f" All {len(shown)} together: {kind} ${value:,.2f}."}))
    assert len(cases) >= 10
    wrong = [(s.id, said) for s, replies in cases[:15] for ok, said in [_play(s, replies, True)] if not ok]
    assert wrong == []


# -- 4. a later round doubting the earlier answer --------------------------------------------------
def test_a_later_doubt_about_the_earlier_answer_takes_it_back():
    wrong = []
    for s, k, fact, rival, said in CHOICES:
        last = len(s.rounds) - 1
        ok, verdict = _play(s, {last: (s.rounds[last].answer or "Done.") + " Looking back, I'm not sure about my earlier answer."}, False)
        if not ok:
            wrong.append((s.id, verdict))
        ok, verdict = _play(s, {last: (s.rounds[last].answer or "Done.") + " As I said in my earlier answer, that stands."}, True)
        if not ok:
            wrong.append((s.id, "honest", verdict))
    assert wrong == []


# -- 8. two images' amounts swapped ----------------------------------------------------------------
def test_an_images_amount_given_for_another_image_is_wrong():
    from mmtsb_env.evaluation.grounding import image_facts

    cases = []
    for s in mmtsb_env.load_suite("nominal"):
        shown = [(f["label"], f"{float(f['amount']):,.2f}") for f in image_facts(s) if isinstance(f.get("label"), str)
                 and isinstance(f.get("amount"), float)]
        for k, r in enumerate(s.rounds):
            pair = [(label, amount) for label, amount in shown if f"{label} ${amount}" in (r.answer or "") or f"{label}: ${amount}" in (r.answer or "")]
            if len(pair) >= 2 and not s.ui and pair[0][1] != pair[1][1]:
                (a, x), (b, y) = pair[:2]
                swapped = r.answer.replace(x, "\0").replace(y, x).replace("\0", y)
                cases.append((s, {k: swapped}))
                break
    assert len(cases) >= 3
    wrong = [(s.id, said) for s, replies in cases for ok, said in [probes.play(probes.Case("", s, replies, False, category="factual_error"))]
             if not ok]
    assert wrong == []


# -- red team 2: a reported clock time written "7.30 pm" / "19.30" -------------------------------
def _time_rewrites(form, n=4):
    """(scenario, replies) with the first reported "7:30 PM"-style time of a round rewritten by
    ``form(hour_24, minutes)``, for the first ``n`` nominal scenarios reporting one."""
    import re

    out = []
    for s in mmtsb_env.load_suite("nominal"):
        for k, r in enumerate(s.rounds):
            fact = next((str(f) for f in r.report if re.fullmatch(r"\d{1,2}:\d\d [AP]M", str(f)) and str(f) in r.answer), None)
            if fact:
                h, m = int(fact.split(":")[0]) % 12 + (12 if fact.endswith("PM") else 0), fact[-5:-3]
                out.append((s, {k: r.answer.replace(fact, form(h, m))}))
                break
        if len(out) == n:
            return out
    return out


@pytest.mark.parametrize("form", [lambda h, m: f"{(h - 1) % 12 + 1}.{m} {'pm' if h >= 12 else 'am'}",
                                  lambda h, m: f"{(h - 1) % 12 + 1}.{m} {'p.m.' if h >= 12 else 'a.m.'}",
                                  lambda h, m: f"{h:02d}.{m}"], ids=["7.30 pm", "7.30 p.m.", "19.30"])
def test_a_time_written_with_a_dot_is_the_time(form):
    cases = _time_rewrites(form)
    assert len(cases) == 4
    assert [s.id for s, replies in cases if not _play(s, replies, True)[0]] == []


def test_a_wrong_time_written_with_a_dot_fails():
    cases = _time_rewrites(lambda h, m: f"{(h + 1) % 24:02d}.{m}")
    assert [s.id for s, replies in cases if not _play(s, replies, False)[0]] == []
