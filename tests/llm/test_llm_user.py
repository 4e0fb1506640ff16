"""LLMUser: the model voices the user; the scripted user's guarantees hold around it."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines.vlm_agent import VLMAgent
from mmtsb_env.llm.base import Completion, RecordedBackend
from mmtsb_env.users.llm_user import LLMUser, secret_values


def _env(user, **kwargs):
    return mmtsb_env.make_env(suite="demo", user=user, **kwargs)


def _user_messages(env):
    return [e for e in env.episode.log if e.sender == "user" and e.kind == "message"]


def test_paraphrase_is_sent_with_the_rounds_images_and_the_model_is_blind():
    backend = RecordedBackend(["Could you note the merchant and total from this receipt under 'Lunch expense'?"])
    env = _env(LLMUser(backend))
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert info["new_image_ids"] == [0] and env.episode.round_index == 0
    assert "Could you note the merchant" in obs["text"]
    call = backend.calls[0]
    assert [t["function"]["name"] for t in call["tools"]][:2] == ["send_message_with_image", "end_conversation"]
    prompt = json.dumps(call["messages"])
    assert "Round 1: Please make a note titled 'Lunch expense'" in prompt and "attach image ids 0" in prompt
    assert "data:image" not in prompt and "Blue Door" not in prompt  # never the pixels, never the facts
    assert env.user.steps[0]["source"] == "model"


@pytest.mark.parametrize("reply", [
    "Please make a note with the merchant and total of this receipt.",  # forgot the images
    Completion(tool_calls=[{"id": "", "name": "send_message_with_image",
                            "arguments": {"message": "Note this receipt please.", "image_ids": "3"}}]),  # wrong ids
])
def test_images_are_always_attached_to_their_round(reply):
    env = _env(LLMUser(RecordedBackend([reply])))
    _, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert info["new_image_ids"] == [0]
    assert _user_messages(env)[0].image_ids == (0,)


@pytest.mark.parametrize("reply, reason", [
    ("The receipt total is 13.48, save it.", "scenario fact"),
    ("Blue Door Cafe receipt, note it.", "scenario fact"),
    (Completion(tool_calls=[{"id": "", "name": "end_conversation", "arguments": {}}]), "end before the script"),
    ("", "empty reply"),
    ('{"name": "simple_note_create_note", "arguments": {}}', "not a plain message"),
    ("please " * 200, "much longer"),
])
def test_bad_replies_fall_back_to_the_scripted_line(reply, reason):
    env = _env(LLMUser(RecordedBackend([reply])))
    _, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    step = env.user.steps[0]
    assert step["source"] == "script" and reason in step["reason"]
    scripted = next(s for s in env.scenarios if s.id == "demo/note_from_receipt").rounds[0].query
    assert _user_messages(env)[0].content == scripted and info["new_image_ids"] == [0]


def test_text_rounds_must_stay_recognisable():
    scenario_id = "demo/connectivity_goal_change"
    query = next(s for s in mmtsb_env.load_suite("demo") if s.id == scenario_id).rounds[0].query
    close = query.replace("Please", "Could you").replace("please", "could you")
    env = _env(LLMUser(RecordedBackend([close])))
    env.reset(seed=0, options={"scenario": scenario_id})
    assert env.user.steps[0]["source"] == "model" and env.episode.round_index == 0
    env = _env(LLMUser(RecordedBackend(["Hey, how are you doing today?"])))
    env.reset(seed=0, options={"scenario": scenario_id})
    assert "too far" in env.user.steps[0]["reason"] and _user_messages(env)[0].content == query
    assert env.episode.round_index == 0


def test_clarification_answers_and_ending_after_the_last_round():
    backend = RecordedBackend(["I already called the person on this card, so delete my note about calling them.",
                               "The lease one."])
    env = _env(LLMUser(backend))
    obs, info = env.reset(seed=0, options={"scenario": "demo/delete_note_clarify"})
    obs, *_ = env.step("I see two notes: the lease one or the dentist one. Which should I delete?")
    assert env.user.steps[-1]["kind"] == "answer" and env.user.steps[-1]["source"] == "model"
    assert obs["text"] == "User: The lease one."
    _, _, terminated, _, _ = env.step('{"name": "simple_note_delete_note", "arguments": {"note_id": 9002}}')
    assert not terminated
    _, _, terminated, _, info = env.step("Deleted the lease note.")
    assert terminated and env.user.steps[-1]["kind"] == "end" and env.user.steps[-1]["source"] == "script"
    assert len(backend.calls) == 2  # ending needed no model call
    assert info["entity_f1"] == 1.0


def test_backend_failure_falls_back_and_the_episode_goes_on():
    env = _env(LLMUser(RecordedBackend([])))  # raises BackendError on the first call
    _, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert info["new_image_ids"] == [0] and "backend error" in env.user.steps[0]["reason"]


def test_secret_values_cover_facts_and_image_contents():
    from mmtsb_env.episode.engine import Episode

    scenario = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/note_from_receipt")
    values = secret_values(Episode(scenario))
    assert {"13.48", "blue door cafe", "latte", "2026-04-12"} <= set(values)
    assert "2" not in values  # too short to be a meaningful fact


def test_tiny_model_plays_both_seats_end_to_end(idefics3_backend):
    user = LLMUser(idefics3_backend, sampling={"max_tokens": 8, "temperature": 1.0, "seed": 1})
    env = _env(user, max_messages=30)
    agent = VLMAgent(idefics3_backend, tool_format="compact", sampling={"max_tokens": 6, "temperature": 1.0, "seed": 0})
    scenario = next(s for s in env.scenarios if s.id == "demo/two_events_mixed")
    obs, info = env.reset(seed=0, options={"scenario": scenario.id})
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    assert env.episode.terminated  # the user ended it after the last round
    delivered = [m.image_ids for m in _user_messages(env) if m.image_ids]
    assert delivered == [r.image_ids for r in scenario.rounds if r.image_ids]
    assert env.episode.round_index == len(scenario.rounds) - 1
    model_turns = [s for s in user.steps if s["kind"] != "end"]
    assert model_turns and all(s["token_ids"] and len(s["logprobs"]) == len(s["token_ids"]) for s in model_turns)
    assert user.steps[-1]["kind"] == "end"
