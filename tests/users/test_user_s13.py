"""The blind user, session 13 (issue #30): polite requests in question form, doubts about the user's
own choices (F11), UI picks by a name the user never said (F9), the replay's budget (F7), structural
perturbations and re-judged records. Scenarios are chosen by property, never by id."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

import mmtsb_env
from mmtsb_env.users.reading import expectation, polite_request, read, reported


def _round(query: str):
    return SimpleNamespace(query=query, guidance=None)


# ------------------------------------------------------------------ polite requests in question form
@pytest.mark.parametrize("query", [
    "Can you create a note called 'Shopping List' and add camera, pen and phone to it?",
    "Could you also email it to Robert? Same result as before.",
    "Would you mind adding a task 'Call the plumber' to my 'Home' project?",
    "I need to get organised. Can you create a note called 'Gift Comparison' and set a reminder for tomorrow at 10 AM?",
    "Can you search for the Lego Millennium Falcon on Amazon and add it to my shopping cart?",
    "Could you please delete the three tasks you just made?",
])
def test_a_polite_request_in_question_form_waits_for_the_work(query):
    assert expectation(_round(query)) == ("done",)
    assert reported([read("Done.")], expectation(_round(query)), query)


@pytest.mark.parametrize("query, expects", [
    ("Can you tell me the total?", ("text",)),
    ("What is the total on this receipt?", ("number",)),
    ("Can you find out when the bakery closes on Sunday?", ("text",)),
    ("Could you check whether my note 'Groceries' is pinned?", ("text",)),
    ("Can you look them up on Amazon and compare their prices?", ("text",)),
    ("Can you create a note called 'Trip' and tell me how much the hotel costs?", ("number",)),
    ("Could you also save it in a new note titled 'Log'? Just summarise what you found and what you changed.", ("text",)),
    ("Describe the types of charts in each - I'll pick the one I want.", ("text",)),
])
def test_a_real_question_still_waits_for_an_answer(query, expects):
    got = expectation(_round(query))
    assert got == expects
    assert not reported([read("Done.")], got, query)


def test_polite_request_reads_the_verbs_not_the_question_mark():
    assert polite_request("Can you create a new note?")
    assert not polite_request("Can you tell me what the note says?")
    assert not polite_request("Can you create a new note.")  # not a question
    assert not polite_request("Is the note pinned?")


def test_yes_to_a_polite_request_is_not_a_report_of_the_work():
    query = "Can you create a note called 'Shopping List'?"
    assert not reported([read("Yes.")], expectation(_round(query)), query)


def test_the_reference_oracle_says_a_bare_done_to_a_polite_request():
    from mmtsb_env.baselines.reference_oracle import ReferenceOracleAgent

    rnd = _round("Can you create a new note called 'Shopping List' and add camera, pen, phone and toy car to it?")
    assert ReferenceOracleAgent.answer_for(rnd) == ReferenceOracleAgent.ANSWER
    info = _round("Please look up all six on Amazon and compare the prices of the three cameras.")
    assert ReferenceOracleAgent.answer_for(info) != ReferenceOracleAgent.ANSWER
