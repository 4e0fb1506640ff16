"""The scripted supervisor: advances only on work the world shows; nudges, redirects, confirms,
answers its script, gives up on the 5th failed try; never leaks, never skips ahead."""

from __future__ import annotations

import dataclasses
import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.episode.engine import Episode
from mmtsb_env.evaluation.user_judge import hidden_values
from mmtsb_env.users.llm_user import secret_values
from mmtsb_env.users.rules import ALREADY_CONFIRMED, MAX_FAILED_TRIES, decide, is_image_question, is_permission_question
from mmtsb_env.users.script import CONFIRM
from mmtsb_env.users.scripted import ScriptedUser

DEMO = {s.id: s for s in mmtsb_env.load_suite("demo")}
NOTE = {"name": "simple_note_create_note", "arguments": {"title": "Lunch expense", "content": "Blue Door Cafe, total $13.48"}}


def _env(scenario_id, **kwargs):
    env = mmtsb_env.make_env(suite="demo", **kwargs)
    env.reset(seed=0, options={"scenario": scenario_id})
    return env


def _step(env, action):
    if not isinstance(action, str):
        action = json.dumps(action)
    obs, _, terminated, truncated, info = env.step(action)
    return obs["text"], terminated, info


def test_done_without_doing_gets_a_nudge_not_the_next_round():
    env = _env("demo/connectivity_goal_change")
    text, terminated, info = _step(env, "Done, all set.")
    assert not terminated and info["round_index"] == 0
    assert text == "User: I don't see the change to the device yet. Could you take care of it?"
    assert info["user_dynamics"]["nudges"] == 1 and info["user_dynamics"]["failed_tries_this_round"] == 1
    _step(env, {"name": "set_wifi_status", "arguments": {"on": False}})
    text, _, info = _step(env, "Wifi is off.")
    assert info["round_index"] == 1 and "turn wifi back on" in text  # the world shows it: next round
    assert info["user_dynamics"]["failed_tries_this_round"] == 0


def test_five_failed_tries_end_the_episode_and_the_verdict_fails():
    env = _env("demo/note_from_receipt")
    replies = []
    for i in range(MAX_FAILED_TRIES):
        text, terminated, info = _step(env, "Done.")
        replies.append(text)
        assert terminated == (i == MAX_FAILED_TRIES - 1)
    assert all("I don't see the new note yet" in r for r in replies[:-1])
    dyn = info["user_dynamics"]
    assert dyn["gave_up"] and dyn["nudges"] == MAX_FAILED_TRIES - 1
    verdict = info["verdict"]
    assert verdict["pass"] is False
    assert any(c["criterion"] == "user_satisfied" and not c["pass"] for c in verdict["criteria"])


def test_giving_up_fails_even_when_the_world_is_right_at_the_end():
    # The give-up verdict does not depend on the judge: a late correct write still fails.
    env = _env("demo/note_from_receipt")
    for _ in range(MAX_FAILED_TRIES - 1):
        _step(env, "Working on it.")
    text, terminated, info = _step(env, "What is the total on the receipt?")
    assert terminated and info["verdict"]["pass"] is False


def test_asking_about_the_image_is_redirected_without_values():
    env = _env("demo/note_from_receipt")
    text, _, info = _step(env, "What is the total on the receipt?")
    assert text == "User: I can't read it out for you. Everything you need is in what I sent you ([image 0])."
    assert "13.48" not in text and info["user_dynamics"]["redirects"] == 1 and info["round_index"] == 0


def test_permission_is_confirmed_once_then_pushed():
    env = _env("demo/note_from_receipt")
    text, _, info = _step(env, "Shall I create the note now?")
    assert text == f"User: {CONFIRM}" and info["user_dynamics"]["confirmations"] == 1
    text, _, info = _step(env, "Should I go ahead and create it?")
    assert text == f"User: {ALREADY_CONFIRMED}" and info["user_dynamics"]["failed_tries_this_round"] == 1


def test_the_scripted_question_gets_the_scripted_answer_once():
    env = _env("demo/delete_note_clarify")
    text, _, info = _step(env, "I see two notes, the lease one and the dentist one. Which one should I delete?")
    assert text == "User: The one about the lease, please." and info["user_dynamics"]["clarifications"] == 1
    text, _, info = _step(env, "Which one, the lease or the dentist note?")
    assert "lease" not in text.split(":", 1)[1].lower() or "I don't see" in text  # not answered twice
    assert info["user_dynamics"]["clarifications"] == 1 and info["round_index"] == 0


def test_a_correct_but_different_agent_completes_the_round():
    env = _env("demo/note_from_receipt")
    _step(env, {"name": "simple_note_search_notes", "arguments": {"query": "lunch"}})  # an extra read
    _step(env, {"name": "simple_note_create_note",
                "arguments": {"title": "lunch expense", "content": "Merchant: Blue Door Cafe. Total: 13.48 USD"}})
    _, terminated, info = _step(env, "Saved it.")
    assert terminated and not info["user_dynamics"]["gave_up"] and info["user_dynamics"]["nudges"] == 0


def test_a_misread_value_still_completes_the_round_the_judge_decides():
    env = _env("demo/note_from_receipt")
    _step(env, {"name": "simple_note_create_note", "arguments": {"title": "Lunch expense", "content": "Blue Door Cafe, total $31.84"}})
    _, terminated, info = _step(env, "Done.")
    assert terminated and not info["user_dynamics"]["gave_up"]
    assert info["verdict"]["pass"] is False  # the user cannot see the receipt; the judge can


def test_goal_change_round_needs_all_of_the_new_goal():
    env = _env("demo/connectivity_goal_change")
    _step(env, {"name": "set_wifi_status", "arguments": {"on": False}})
    _step(env, "Wifi is off.")
    _step(env, {"name": "set_cellular_service_status", "arguments": {"on": False}})
    text, terminated, _ = _step(env, "Done.")  # wifi still off, no note: the pivot is not done
    assert not terminated and text.startswith("User: I don't see the change to the device and the new note yet")
    _step(env, {"name": "set_wifi_status", "arguments": {"on": True}})
    text, terminated, _ = _step(env, "Done.")
    assert not terminated and text.startswith("User: I don't see the new note yet")
    _step(env, {"name": "simple_note_create_note", "arguments": {"title": "Travel agent", "content": "Ana Okafor 202-555-0175"}})
    _, terminated, info = _step(env, "Saved the note.")
    assert terminated and not info["user_dynamics"]["gave_up"] and info["entity_f1"] == 1.0


def test_undone_creation_must_be_gone():
    base = DEMO["demo/note_from_receipt"]
    second = dataclasses.replace(base.rounds[0], query="Actually, delete that note again, I don't need it.", image_ids=(),
                                 kind="goal_change", solution=({"name": "simple_note_delete_note",
                                                                "arguments": {"note_id": {"$ref": "made.note_id"}}},),
                                 answer="Deleted it.")
    first = dataclasses.replace(base.rounds[0], solution=({**NOTE, "save_as": "made"},))
    scenario = dataclasses.replace(base, id="test/create_then_delete", rounds=(first, second), expected_changes=())
    env = mmtsb_env.make_env(scenarios=[scenario])
    env.reset(seed=0)
    _step(env, NOTE)
    text, _, info = _step(env, "Saved.")
    assert info["round_index"] == 1
    text, terminated, _ = _step(env, "Done.")
    assert not terminated and text == "User: The note I no longer want is still there. Please sort that out."


def _report_scenario(report):
    base = DEMO["demo/note_from_receipt"]
    rnd = dataclasses.replace(base.rounds[0], query="How much did I pay at the place on this receipt?", solution=(),
                              answer="You paid $13.48.", report=report)
    return dataclasses.replace(base, id="test/read_only", rounds=(rnd,), expected_changes=())


def test_read_only_round_is_done_when_its_facts_are_stated():
    env = mmtsb_env.make_env(scenarios=[_report_scenario(("13.48",))])
    env.reset(seed=0)
    text, terminated, _ = _step(env, "You paid quite a bit.")
    assert not terminated and text == "User: You haven't told me what I asked for yet."
    _, terminated, info = _step(env, "It came to 13.48 dollars.")
    assert terminated and not info["user_dynamics"]["gave_up"]


def test_read_only_round_without_report_is_done_with_the_reply():
    env = mmtsb_env.make_env(scenarios=[_report_scenario(())])
    env.reset(seed=0)
    text, terminated, _ = _step(env, "What does the receipt say the total is?")
    assert not terminated and "I can't read it out" in text  # a question is not the reply
    _, terminated, _ = _step(env, "You paid 13.48.")
    assert terminated


def test_images_go_out_once_even_when_a_later_round_lists_them_again():
    base = next(s for s in DEMO.values() if sum(1 for r in s.rounds if r.image_ids) >= 2)
    rounds = list(base.rounds)
    ids = sorted({i for r in rounds for i in r.image_ids})
    rounds[0] = dataclasses.replace(rounds[0], image_ids=tuple(ids))
    last = max(i for i, r in enumerate(rounds) if r.image_ids)
    rounds[last] = dataclasses.replace(rounds[last], image_ids=tuple(ids[:1]))  # already sent in round 1
    scenario = dataclasses.replace(base, id="test/images_twice", rounds=tuple(rounds))
    agent = OracleAgent([scenario])
    env = mmtsb_env.make_env(scenarios=[scenario])
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    sent = [i for e in env.episode.log if e.sender == "user" and e.kind == "message" for i in e.image_ids]
    assert sorted(sent) == ids and len(sent) == len(set(sent))


def test_message_classifiers():
    assert is_permission_question("Shall I save it?") and is_permission_question("Do you want me to go ahead?")
    assert not is_permission_question("I saved it. Anything else?")
    assert is_image_question("What is the total on the receipt?") and is_image_question("Which date does the poster show?")
    assert not is_image_question("The note is saved.") and not is_image_question("Done. Anything else?")


def _play(env, policy):
    i, info = 0, {}
    while not env.episode.done:
        _, _, info = _step(env, policy(i))
        i += 1
    return info


def test_weak_agents_loop_and_retry_and_it_is_measurable():
    """A claims-without-doing agent and a retrying agent (a failing call, then a claim) run much
    longer than the oracle, collect nudges and end with give-ups; the numbers replay exactly."""
    policies = {
        "claims": lambda i: "All done!",
        "retries": lambda i: {"name": "simple_note_create_note", "arguments": {"title": 3}} if i % 2 == 0 else "Done now.",
    }
    results = {name: _play(_env("demo/note_from_receipt"), p) for name, p in policies.items()}
    again = _play(_env("demo/note_from_receipt"), policies["retries"])
    assert again["user_dynamics"] == results["retries"]["user_dynamics"] and again["step"] == results["retries"]["step"]
    oracle_env = mmtsb_env.make_env(suite="demo")
    agent = OracleAgent(list(DEMO.values()))
    obs, info = oracle_env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    while not oracle_env.episode.done:
        obs, _, _, _, info = oracle_env.step(agent.act(obs, info))
    assert not info["user_dynamics"]["gave_up"] and info["user_dynamics"]["nudges"] == 0
    for weak in results.values():
        dyn = weak["user_dynamics"]
        assert dyn["gave_up"] and dyn["nudges"] == MAX_FAILED_TRIES - 1 and weak["step"] > 2 * info["step"]
        assert weak["verdict"]["pass"] is False
    assert results["retries"]["step"] > results["claims"]["step"]  # retrying costs steps before the give-up


def test_decide_is_pure():
    ep = Episode(DEMO["demo/note_from_receipt"])
    ep.act(ep.USER, ScriptedUser().act(ep))
    ep.act(ep.ASSISTANT, "Done.")
    assert decide(ep) == decide(ep) and ep.user_moves == [(-1, "open")]


# ------------------------------------------------------------------ every built-in scenario
ALL = [s for suite in ("demo", "nominal", "ui") for s in mmtsb_env.load_suite(suite)]


@pytest.mark.slow
def test_asking_about_image_content_never_yields_an_image_value_in_any_scenario():
    questions = ["What exactly does the image show? Please tell me the values.",
                 "Can you tell me the total and the name on the picture?"]
    user = ScriptedUser()
    for scenario in ALL:
        script = "\n".join([r.query for r in scenario.rounds] + [c.answer for r in scenario.rounds for c in r.clarifications]).lower()
        secrets = {v for v in secret_values(Episode(scenario)) if v not in script} | {v.lower() for v in hidden_values(scenario)}
        ep = Episode(scenario)
        ep.act(ep.USER, user.act(ep))
        for q in questions:
            ep.act(ep.ASSISTANT, q)
            move = decide(ep)
            assert move.kind in ("redirect", "clarify"), (scenario.id, move)
            leaked = [v for v in secrets if v in move.action.lower()]
            assert not leaked, (scenario.id, move.action, leaked)
            ep.act(ep.USER, user.act(ep))
        ep.close()


def test_a_row_made_earlier_must_really_change_in_the_round_that_edits_it():
    env = _env("demo/contacts_note_progressive")
    _step(env, {"name": "simple_note_create_note", "arguments": {"title": "Conference contacts", "content": "Maya Lindqvist 415-555-0142"}})
    _, _, info = _step(env, "Saved.")
    assert info["round_index"] == 1
    text, terminated, info = _step(env, "Appended.")  # the note is 2/3 like the goal already: not enough
    assert not terminated and text == "User: I don't see the change to the note yet. Could you take care of it?"
