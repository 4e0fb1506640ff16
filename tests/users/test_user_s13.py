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


# ------------------------------------------------------------------ F11: a doubt about a name the user chose
from mmtsb_env.users.reading import chosen_names, doubts_only_own_choice  # noqa: E402
from mmtsb_env.users.rules import GO_BY_WHAT_YOU_SEE, ON_QUESTION  # noqa: E402

DEMO = mmtsb_env.load_suite("demo")
TITLED = next(s for s in DEMO if s.rounds[0].wrong_claim is None and chosen_names(s.rounds[0].query)
              and not s.rounds[0].clarifications)


def _user_reply(scenario, text):
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool")
    env.reset(seed=0)
    env.step(text)
    return [e.content for e in env.episode.log if e.sender == "user"][-1]


@pytest.mark.parametrize("doubt", ["I'm not sure about '{}' as a title.", "The image does not show '{}'."])
def test_the_user_keeps_a_title_it_chose_when_the_assistant_doubts_it(doubt):
    title = next(m for m in __import__("re").findall(r"'([^']+)'", TITLED.rounds[0].query)
                 if m.lower() in chosen_names(TITLED.rounds[0].query))
    reply = _user_reply(TITLED, doubt.format(title))
    assert reply == (TITLED.rounds[0].guidance.on_question or ON_QUESTION), reply
    assert reply != GO_BY_WHAT_YOU_SEE


def test_a_doubt_about_what_the_user_stated_still_gets_go_by_what_you_find():
    query = "I paid $48 at the bakery. Make a note titled 'Bakery' with the total from this receipt."
    assert chosen_names(query) == ("bakery",)
    assert not doubts_only_own_choice("The receipt does not show $48.", query)
    assert not doubts_only_own_choice("The receipt does not show $48, and I'm not sure about 'Bakery'.", query)
    assert doubts_only_own_choice("I'm not sure about 'Bakery' as a title.", query)
    existing = "Add a task 'Call Bob' to my 'Home Renovation' project."
    assert chosen_names(existing) == ("call bob",)
    assert not doubts_only_own_choice("There is no 'Home Renovation' project.", existing)


@pytest.mark.parametrize("query", ["Create a note titlled 'Trip'.", "Make a note tilted 'Trip'.", "Save a note ttled 'Trip'.",
                                   "Start a note called 'Trip'.", "Send $5 with the note 'Trip'."])
def test_chosen_names_read_through_the_users_typos(query):
    assert chosen_names(query) == ("trip",)
