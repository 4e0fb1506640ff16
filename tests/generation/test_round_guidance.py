"""Generated rounds carry what the scripted user acts on the way imported reference rounds do, filled
only with what the user knows: ``guidance.expects`` (the kinds of what it asked to be told, never the
values) and clarifications for the "if the assistant asks which one / which page" hints of its
private instructions (the importer's conversion of the same hints). Nothing is volunteered: a
question that names neither gets the plain fallback."""

from __future__ import annotations

import dataclasses

import pytest

import mmtsb_env
from mmtsb_env.generation import generate, verify
from mmtsb_env.generation.compose import LOOKALIKE_CLARIFICATION
from mmtsb_env.generation.web import PAGE_WORDS
from mmtsb_env.scenario.model import Guidance
from mmtsb_env.users.reading import expectation, read
from mmtsb_env.users.rules import NUDGE_MISSING, ON_QUESTION


@pytest.fixture(scope="module")
def scenarios():
    return generate(40, seed=11, verify="static")


def _rounds(scenarios):
    return [(s, k, r) for s in scenarios for k, r in enumerate(s.rounds)]


def _hidden(s):
    m = s.metadata
    return [v for v in (*m["image_values"], *m["derived_values"], *m["web_values"], *(f for r in s.rounds for f in r.report))
            if len(v) >= 3]


def test_expects_names_the_kind_of_each_fact_asked_for_and_nothing_else(scenarios):
    with_report = 0
    for s, k, r in _rounds(scenarios):
        if not r.report:
            assert not r.guidance.expects, (s.id, k)
            continue
        with_report += 1
        kinds = {next((x for x in ("time", "date", "number") if x in read(v).kinds), "text") for v in r.report}
        assert set(r.guidance.expects) == kinds, (s.id, k, r.report, r.guidance.expects)
    assert with_report >= 20


def test_the_which_one_answers_give_no_value_the_user_cannot_know(scenarios):
    answers = [(s, c) for s, _, r in _rounds(scenarios) for c in r.clarifications
               if list(c.keywords) in (LOOKALIKE_CLARIFICATION["keywords"], list(PAGE_WORDS))]
    assert {tuple(c.keywords) for _, c in answers} == {tuple(LOOKALIKE_CLARIFICATION["keywords"]), PAGE_WORDS}
    for s, c in answers:
        assert not [v for v in _hidden(s) if v.lower() in c.answer.lower()], (s.id, c.answer)


def test_an_image_value_planted_in_a_guidance_text_is_reported(scenarios):
    s = next(s for s in scenarios if s.metadata["image_values"])
    value = s.metadata["image_values"][0]
    r0 = dataclasses.replace(s.rounds[0], guidance=dataclasses.replace(s.rounds[0].guidance, on_question=f"It is {value}."))
    report = verify(dataclasses.replace(s, rounds=(r0, *s.rounds[1:])), oracle=False)
    assert any("rounds[0].guidance.on_question" in p for p in report.problems), report.problems


def _alone(s, r):
    """``r`` as the only round of ``s`` (the user opens with its query)."""
    return dataclasses.replace(s, id=f"{s.id}/alone", rounds=(dataclasses.replace(r, image_ids=()),))


def _play(s, r, *replies):
    env = mmtsb_env.make_env(scenarios=[_alone(s, r)])
    env.reset(seed=0)
    out = []
    for text in replies:
        obs, _, terminated, _, _ = env.step(text)
        out.append((obs["text"], terminated))
    return out


def test_a_same_again_round_waits_for_the_fact_it_asks_not_for_done(scenarios):
    """"Same again for these signs" asks for what round 1 asked (a closing time); the query alone reads
    as an action, so without ``expects`` a bare "Done" moved the user on."""
    cases = [(s, r) for s, _, r in _rounds(scenarios)
             if r.guidance.expects and expectation(dataclasses.replace(r, guidance=Guidance())) == ("done",)]
    assert cases
    s, r = cases[0]
    words = {"time": "It is 4:15 PM.", "date": "It is on 2026-03-02.", "number": "It is 17.", "text": "It is the Maple one."}
    (done, ended), (_, told_ends) = _play(s, r, "Done, I added them all where you wanted them.",
                                          "Done. " + " ".join(words[k] for k in r.guidance.expects))
    assert not ended and done == f"User: {NUDGE_MISSING}" and told_ends


def test_which_one_is_answered_from_the_script_and_a_vague_question_gets_nothing_more(scenarios):
    s, r = next((s, r) for s, _, r in _rounds(scenarios)
                if [c for c in r.clarifications if list(c.keywords) == LOOKALIKE_CLARIFICATION["keywords"]]
                and len(r.clarifications) == 1)
    [(vague, _)] = _play(s, r, "Anything I should know before I start?")
    assert vague == f"User: {ON_QUESTION}"
    [(which, _)] = _play(s, r, "There are two similar ones on your phone. Which one do you mean?")
    assert which == f"User: {LOOKALIKE_CLARIFICATION['answer']}"


def test_which_page_is_answered_from_the_script(scenarios):
    s, r = next((s, r) for s, _, r in _rounds(scenarios)
                if r.clarifications and list(r.clarifications[0].keywords) == list(PAGE_WORDS))
    [(which, _)] = _play(s, r, "I found the main page and an archived page. Which page do you mean?")
    assert which == f"User: {r.clarifications[0].answer}" and "not " in which
