"""LLMUser: the model plays the user from the script; the supervisor's rules hold around it."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines.vlm_agent import VLMAgent
from mmtsb_env.llm.base import Completion, RecordedBackend
from mmtsb_env.users.llm_user import LLMUser, secret_values
from mmtsb_env.users.rules import NUDGE_STALL, TEMPLATES


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
    assert "Request 1: Please make a note titled 'Lunch expense'" in prompt
    assert call["sampling"]["temperature"] == 0.0  # deterministic by default
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
    ("The receipt total is 13.48, save it.", "a value in a form nobody said"),  # swapped right or wrong alike
    ("Blue Door Cafe receipt, note it.", "scenario fact"),
    (Completion(tool_calls=[{"id": "", "name": "end_conversation", "arguments": {}}]), "end the conversation itself"),
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
                               "The one about the lease."])
    env = _env(LLMUser(backend))
    obs, info = env.reset(seed=0, options={"scenario": "demo/delete_note_clarify"})
    obs, *_ = env.step("I see two notes: the lease one or the dentist one. Which should I delete?")
    assert env.user.steps[-1]["kind"] == "clarify" and env.user.steps[-1]["source"] == "model"
    assert obs["text"] == "User: The one about the lease."
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
    """A random-weights model on both seats: the agent gets nothing done; the user (whose model
    text is mostly replaced by the guards) moves on when the agent's words read as a report and
    pushes otherwise; every guarantee holds."""
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode

    user = LLMUser(idefics3_backend, sampling={"max_tokens": 8, "temperature": 1.0, "seed": 1})
    env = _env(user, max_messages=40)
    agent = VLMAgent(idefics3_backend, tool_format="compact", sampling={"max_tokens": 6, "temperature": 1.0, "seed": 0})
    scenario = next(s for s in env.scenarios if s.id == "demo/two_events_mixed")
    obs, info = env.reset(seed=0, options={"scenario": scenario.id})
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    ep = env.episode
    delivered = [i for m in _user_messages(env) for i in m.image_ids]
    reached = [i for r in scenario.rounds[: ep.round_index + 1] for i in r.image_ids]
    assert delivered == reached  # each image once, in its round, never ahead
    verdict = UserJudge().evaluate(user_evidence_from_episode(ep))
    assert verdict.passed, [c.reason for c in verdict.criteria if not c.passed]
    assert ep.terminated or ep.truncated
    model_turns = [s for s in user.steps if "token_ids" in s]
    assert model_turns and all(s["token_ids"] and len(s["logprobs"]) == len(s["token_ids"]) for s in model_turns)


# ------------------------------------------------------------------ the supervisor's rules, model-played
NOTE = json.dumps({"name": "simple_note_create_note", "arguments": {"title": "Lunch expense", "content": "Blue Door Cafe, total $13.48"}})
OPENING = "Could you note the merchant and total from this receipt under 'Lunch expense'?"


def test_a_stall_gets_the_models_nudge_and_a_report_ends_it():
    backend = RecordedBackend([OPENING, "Is it done yet? Tell me when the note is saved."])
    env = _env(LLMUser(backend))
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    obs, _, terminated, _, info = env.step("Let me look at the receipt first.")
    assert not terminated and info["round_index"] == 0
    assert obs["text"] == "User: Is it done yet? Tell me when the note is saved."
    assert env.user.steps[-1]["kind"] == "nudge" and env.user.steps[-1]["source"] == "model"
    assert info["user_dynamics"]["nudges"] == 1
    situation = backend.calls[-1]["messages"][-1]["content"]
    assert "not finished" in situation and "13.48" not in situation  # what the reply did, no values
    env.step(NOTE)
    _, _, terminated, _, info = env.step("Saved.")
    assert terminated and not info["user_dynamics"]["gave_up"] and len(backend.calls) == 2  # ending: no call


def test_a_model_reply_that_opens_the_next_round_early_is_replaced():
    scenario_id = "demo/connectivity_goal_change"
    nxt = next(s for s in mmtsb_env.load_suite("demo") if s.id == scenario_id).rounds[1].query
    query = next(s for s in mmtsb_env.load_suite("demo") if s.id == scenario_id).rounds[0].query
    user = LLMUser(RecordedBackend([query, nxt]))
    env = _env(user)
    env.reset(seed=0, options={"scenario": scenario_id})
    obs, _, _, _, info = env.step("Let me check the settings first.")
    assert info["round_index"] == 0 and user.steps[-1]["source"] == "script"
    assert user.steps[-1]["reason"].startswith(("future_round", "skip_ahead", "leak"))
    assert obs["text"] == f"User: {NUDGE_STALL}"


def test_five_failed_tries_end_the_episode_without_a_model_call():
    nudges = [f"Still nothing, try again ({i})." for i in range(4)]
    backend = RecordedBackend([OPENING, *nudges])
    env = _env(LLMUser(backend))
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    for i in range(5):
        _, _, terminated, _, info = env.step("Sorry, I couldn't do it.")
        assert terminated == (i == 4)
    assert info["user_dynamics"]["gave_up"] and info["verdict"]["pass"] is False
    assert env.user.steps[-1]["kind"] == "give_up" and len(backend.calls) == 5


def test_completions_are_cached_and_replay_identically():
    cache = {}
    first = LLMUser(RecordedBackend([OPENING, "Not there yet, please save the note."]), cache=cache)
    second_backend = RecordedBackend([])
    second = LLMUser(second_backend, cache=cache)
    runs = []
    for user in (first, second):
        env = _env(user)
        env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
        env.step("Let me check.")
        runs.append([s["action"] for s in user.steps])
    assert runs[0] == runs[1] and not second_backend.calls and all(s["cached"] for s in second.steps)


class _Hostile:
    """A user model that answers every turn by reading out the scenario's secrets."""

    def __init__(self, secrets):
        self.secrets = secrets
        self.calls = 0

    def complete(self, messages, tools=None, **sampling):
        self.calls += 1
        return Completion(text="It shows " + ", ".join(self.secrets[:6]) + ".")


ALL = [s for suite in ("demo", "nominal", "ui") for s in mmtsb_env.load_suite(suite)]


@pytest.mark.slow
def test_a_leaking_model_never_gets_an_image_value_through_in_any_scenario():
    from mmtsb_env.episode.engine import Episode
    from mmtsb_env.evaluation.user_judge import hidden_values

    replaced = 0
    for scenario in ALL:
        # what the user's script says: its requests, its answers and the fixed lines it says in every
        # scenario ("find it on the phone" leaks nothing even where an image shows "Phone")
        script = "\n".join([r.query for r in scenario.rounds] + [c.answer for r in scenario.rounds for c in r.clarifications]
                           + list(TEMPLATES)).lower()
        secrets = sorted({v for v in secret_values(Episode(scenario)) if v not in script}
                         | {v.lower() for v in hidden_values(scenario)})
        if not secrets:
            continue
        user = LLMUser(_Hostile(secrets))
        ep = Episode(scenario)
        ep.act(ep.USER, user.act(ep))
        ep.act(ep.ASSISTANT, "What exactly does the image show? Please tell me the values.")
        action = user.act(ep)
        assert user.steps[-1]["kind"] in ("redirect", "clarify"), (scenario.id, user.steps[-1])
        leaked = [v for v in secrets if v in action.lower()]
        assert not leaked, (scenario.id, action, leaked)
        replaced += user.replaced["leak"]
        ep.close()
    assert replaced >= len(ALL) // 2  # the guard really fired (most scenarios have image values)


class _Echo:
    """A well-behaved user model: says what the situation note asks for, in the script's words."""

    def __init__(self):
        self.calls = 0

    def complete(self, messages, tools=None, **sampling):
        import re

        self.calls += 1
        note = messages[-1]["content"]
        m = re.search(r"Now make request \d+: (.*)\)$", note, re.S)
        if m:
            return Completion(text=m.group(1))
        m = re.search(r"Answer with: (.*)\)$", note, re.S)
        return Completion(text=m.group(1) if m else "Not yet, please finish what I asked.")


def test_the_oracle_with_a_well_behaved_model_user_scores_user_sr_1():
    from mmtsb_env.baselines import OracleAgent
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode

    scenarios = mmtsb_env.load_suite("demo") + [s for s in mmtsb_env.load_suite("ui") if not s.id.startswith("ui/gen_")]
    for scenario in scenarios:
        backend = _Echo()
        user = LLMUser(backend)
        env = mmtsb_env.make_env(scenarios=[scenario], user=user)
        agent = OracleAgent([scenario])
        obs, info = env.reset(seed=0)
        while not env.episode.done:
            obs, _, _, _, info = env.step(agent.act(obs, info))
        verdict = UserJudge().evaluate(user_evidence_from_episode(env.episode))
        assert verdict.passed, (scenario.id, [c.reason for c in verdict.criteria if not c.passed])
        assert info["verdict"]["pass"] and not info["user_dynamics"]["gave_up"], scenario.id
        assert backend.calls and any(s["source"] == "model" for s in user.steps), scenario.id
