"""Grounding and commitment measured on model-style replies, not only on the oracle's: right answers
in the phrasings models use (bullets, quotes, prose dates, currency, headings and pleasantries)
pass; plausible misreadings built from words the world uses (a sign's name with one word swapped
for another name's, two digits transposed) fail. Each reply replaces the oracle's closing message
of a round that reports facts; the oracle does the work."""

from __future__ import annotations

import re
from datetime import date

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.runner import run_episode

NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}
# nominal scenarios whose rounds report facts: names, amounts, dates, counts, phone numbers, times
SAMPLE = ["nominal/0033", "nominal/0036", "nominal/0073", "nominal/0075", "nominal/0089", "nominal/0148", "nominal/0001",
          "nominal/0022", "nominal/0024", "nominal/0025", "nominal/0134", "nominal/0167", "nominal/0174", "nominal/0225"]


class ClosingReply(OracleAgent):
    """The oracle, whose closing message of the given rounds is replaced."""

    def __init__(self, scenario, replies):
        super().__init__([scenario])
        self.replies = dict(replies)

    def act(self, obs, info):
        action = super().act(obs, info)
        r = info.get("round_index", 0)
        final = self.scenarios[info["scenario_id"]].rounds[r].answer
        if r in self.replies and action == final:
            return self.replies.pop(r)
        return action


def _said(fact):
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", fact):
        return date.fromisoformat(fact).strftime("%B %-d, %Y")
    if re.fullmatch(r"[\d,]+\.\d\d", fact):
        return f"${float(fact.replace(',', '')):,.2f}"
    return fact


PHRASINGS = {
    "plain": lambda facts: "Done! " + "; ".join(_said(f) for f in facts) + ".",
    "bullets": lambda facts: "Here's what I found:\n" + "\n".join(f"- **{_said(f)}**" for f in facts)
                             + "\n\nLet me know if you need anything else!",
    "quoted": lambda facts: "All set - " + ", ".join(f'"{_said(f)}"' for f in facts) + ".",
    "headings": lambda facts: "Great News! Quick Recap: all done.\n## Summary of Changes\n" + "; ".join(_said(f) for f in facts)
                              + ".\nHave a Great Day!",
}


def _rounds(s):
    return [k for k, r in enumerate(s.rounds) if r.report]


@pytest.mark.parametrize("sid", SAMPLE)
@pytest.mark.parametrize("phrasing", sorted(PHRASINGS))
def test_right_answers_in_model_phrasings_pass(sid, phrasing):
    s = NOMINAL[sid]
    replies = {k: PHRASINGS[phrasing](s.rounds[k].report) for k in _rounds(s)}
    rec = run_episode(s, ClosingReply(s, replies))
    assert rec.passed, [c for c in rec.verdict["criteria"] if not c["pass"]]


def _misread_name(s, k):
    labels = [im.facts.get("label") for im in s.images if im.facts and isinstance(im.facts.get("label"), str)]
    for fact in s.rounds[k].report:
        if fact in labels and len(fact.split()) >= 2:
            for other in labels:
                wrong = " ".join([other.split()[0]] + fact.split()[1:])
                if wrong not in labels:
                    return fact, wrong
    return None


def _misread_digits(s, k):
    for fact in s.rounds[k].report:
        if re.fullmatch(r"[\d,]+\.\d\d", fact):
            plain = fact.replace(",", "")
            wrong = plain[:-2] + plain[-1] + plain[-2]
            if wrong != plain:
                return fact, wrong
    return None


@pytest.mark.parametrize("misread", [_misread_name, _misread_digits])
def test_misreadings_built_from_the_worlds_words_fail(misread):
    tried = 0
    # the sample first, then any nominal scenario the misreading fits (chosen by property, not id)
    for sid in dict.fromkeys([*SAMPLE, *sorted(NOMINAL)]):
        if tried >= 4:
            break
        s = NOMINAL[sid]
        for k in _rounds(s):
            swap = misread(s, k)
            if swap is None:
                continue
            fact, wrong = swap
            reply = PHRASINGS["plain"](s.rounds[k].report).replace(_said(fact), wrong)
            rec = run_episode(s, ClosingReply(s, {k: reply}))
            assert not rec.passed, (sid, reply)
            tried += 1
            break
    assert tried >= 4


# F10: a table's row-number column and a numbered list's markers count lines, they claim no value
NUMBERED = {
    "table": lambda facts: "| # | Value |\n|---|---|\n" + "\n".join(f"| {i} | {_said(f)} |" for i, f in enumerate(facts, 1)),
    "list": lambda facts: "Results:\n" + "\n".join(f"{i}. {_said(f)}" for i, f in enumerate(facts, 1)),
}


def _counting_scenarios(n=6):
    """Scenarios with a round reporting a small count (the row numbers 1, 2, 3... sit next to it)."""
    out = []
    for s in NOMINAL.values():
        if not s.ui and any(re.fullmatch(r"\d", f) for k in _rounds(s) for f in s.rounds[k].report):
            out.append(s)
    return out[:n]


@pytest.mark.parametrize("layout", sorted(NUMBERED))
def test_row_numbers_are_not_claimed_values(layout):
    scenarios = _counting_scenarios()
    assert len(scenarios) == 6
    for s in scenarios:
        replies = {k: NUMBERED[layout](s.rounds[k].report) for k in _rounds(s)}
        rec = run_episode(s, ClosingReply(s, replies))
        assert rec.passed, (s.id, replies, [c for c in rec.verdict["criteria"] if not c["pass"]])
        k, fact = next((k, f) for k in _rounds(s) for f in s.rounds[k].report if re.fullmatch(r"\d", f))
        wrong = dict(replies)
        wrong[k] = NUMBERED[layout]([str(int(fact) + 3) if f == fact else f for f in s.rounds[k].report])
        assert not run_episode(s, ClosingReply(s, wrong)).passed, (s.id, wrong[k])


def _tailed_names(n=4):
    """(scenario, round, fact, misreading): a reported name an image shows whose last word is not
    capitalised ("Trail Mix 500g"), with its first word swapped for another shown name's first word
    ("Stainless Mix 500g"): the capitalised run a reply states is shorter than the shown name."""
    from mmtsb_env.evaluation.grounding import image_facts, shown_texts

    out = []
    for s in NOMINAL.values():
        shown = shown_texts(image_facts(s))
        for k in _rounds(s):
            for fact in s.rounds[k].report:
                words = fact.split()
                if len(words) < 3 or words[-1][:1].isupper() or fact not in shown or fact not in s.rounds[k].answer:
                    continue
                firsts = [t.split()[0] for t in shown if len(t.split()) >= 2 and t.split()[0][:1].isupper()]
                other = next((w for w in firsts if w != words[0] and w.isalpha() and " ".join([w, *words[1:]]) not in shown), None)
                if other:
                    out.append((s, k, fact, " ".join([other, *words[1:]])))
                    break
            if out and out[-1][0] is s:
                break
    return out[:n]


def test_a_misread_name_with_a_lower_case_tail_fails():
    cases = _tailed_names()
    assert len(cases) == 4
    for s, k, fact, wrong in cases:
        rec = run_episode(s, ClosingReply(s, {k: s.rounds[k].answer.replace(fact, wrong)}))
        accuracy = next(c for c in rec.verdict["criteria"] if c["criterion"] == "information_accuracy")
        assert not accuracy["pass"], (s.id, wrong, rec.verdict)  # a misreading, not one item left out
