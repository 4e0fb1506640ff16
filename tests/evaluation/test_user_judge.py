"""The user judge: the scripted user passes; leaks, role swaps, misplaced images, skipped rounds and
unclosed conversations fail the right criterion; the LLM variant sees the script and the images."""

from __future__ import annotations

import json

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.episode.engine import Episode
from mmtsb_env.evaluation import USER_CRITERIA, LLMUserJudge, UserJudge, user_evidence_from_episode, user_evidence_from_record
from mmtsb_env.evaluation.user_judge import hidden_values
from mmtsb_env.llm.base import RecordedBackend
from mmtsb_env.runner import run_suite
from mmtsb_env.users.scripted import END

SUITE = {s.id: s for s in mmtsb_env.load_suite("demo")}


def send(message, ids):
    return json.dumps({"name": "send_message_with_image", "arguments": {"message": message, "image_ids": ids}})


def episode(scenario_id, user_actions, assistant_reply="Done."):
    """Alternate: user action, assistant reply, ... (the last user action may end the episode)."""
    ep = Episode(SUITE[scenario_id])
    for action in user_actions:
        if ep.done:
            break
        ep.act("user", action)
        if not ep.done:
            ep.act("assistant", assistant_reply)
    return ep


def failures(ep):
    v = UserJudge().evaluate(user_evidence_from_episode(ep))
    return {c.name: (c.kind, c.reason) for c in v.criteria if not c.passed}


def test_scripted_user_passes_every_demo_scenario():
    scenarios = list(SUITE.values())
    records = run_suite(scenarios, lambda: OracleAgent(scenarios))
    for s, r in zip(scenarios, records):
        v = UserJudge().evaluate(user_evidence_from_record(r, s))
        assert v.passed, (s.id, [c.reason for c in v.criteria if not c.passed])
        assert [c.name for c in v.criteria] == list(USER_CRITERIA)


def test_hidden_values_come_from_images_and_facts_minus_the_script():
    values = hidden_values(SUITE["demo/note_from_receipt"])
    assert "13.48" in values and "Blue Door Cafe" in values
    assert "Lunch expense" not in values  # said in the script's query
    assert all(len(v) >= 3 for v in values)


def test_stating_an_image_value_is_a_leak():
    q = SUITE["demo/note_from_receipt"].rounds[0].query
    ep = episode("demo/note_from_receipt", [send(q + " It was Blue Door Cafe, $13.48.", "0"), END])
    f = failures(ep)
    assert f == {"grounded_consistency": ("leak", "stated values only the images/answers contain: '13.48', 'Blue Door Cafe'")} \
        or f == {"grounded_consistency": ("leak", "stated values only the images/answers contain: 'Blue Door Cafe', '13.48'")}


def test_speaking_as_the_assistant_is_a_role_swap():
    q = SUITE["demo/note_from_receipt"].rounds[0].query
    ep = episode("demo/note_from_receipt", [send(q, "0"), "I have created the note for you. Is there anything else I can do?", END])
    kind, reason = failures(ep)["conversational_naturalness"]
    assert kind == "role_swap" and "speaks as the assistant" in reason


def test_images_sent_in_the_wrong_round():
    rounds = SUITE["demo/two_events_mixed"].rounds
    ep = episode("demo/two_events_mixed", [send(rounds[0].query, "0,1"), rounds[1].query, END])
    kind, reason = failures(ep)["tool_channel_correctness"]
    assert kind == "images_misplaced"
    assert reason == "round 1: image(s) [1] sent but scripted elsewhere; round 2: image(s) [1] not sent"


def test_ending_early_skips_a_round():
    rounds = SUITE["demo/two_events_mixed"].rounds
    ep = episode("demo/two_events_mixed", [send(rounds[0].query, "0"), END])
    f = failures(ep)
    assert f["request_fidelity"] == ("script_deviation", "round 2 query never delivered")
    assert f["tool_channel_correctness"] == ("ended_early", "ended after 1/2 rounds")


def test_never_closing_the_conversation():
    q = SUITE["demo/note_from_receipt"].rounds[0].query
    ep = episode("demo/note_from_receipt", [send(q, "0"), "ok", "ok?", "are you there", "hello", "fine"])
    f = failures(ep)
    assert f["tool_channel_correctness"][0] == "not_closed"
    assert f["conversational_naturalness"][0] == "chatter"  # 5 unscripted messages > 2


def test_repeating_a_message_is_unnatural():
    q = SUITE["demo/note_from_receipt"].rounds[0].query
    ep = episode("demo/note_from_receipt", [send(q, "0"), "thanks", "thanks", END])
    assert failures(ep)["conversational_naturalness"] == ("repetition", "repeated itself: 'thanks'")


def test_llm_user_judge_sees_the_script_hidden_values_and_images():
    rounds = SUITE["demo/two_events_mixed"].rounds
    ep = episode("demo/two_events_mixed", [send(rounds[0].query, "0"), send(rounds[1].query, "1"), END])
    ev = user_evidence_from_episode(ep)
    answer = json.dumps({"criteria": {c: {"pass": c != "grounded_consistency", "reason": f"checked {c}"} for c in USER_CRITERIA}})
    backend = RecordedBackend(["```json\n" + answer + "\n```"])
    judge = LLMUserJudge(backend, model="u", max_images=1)
    v = judge.evaluate(ev)
    assert not v.passed and v.judge == "llm:u" and v.criterion("grounded_consistency").reason == "checked grounded_consistency"
    msgs = backend.calls[0]["messages"]
    text = "\n".join(p["text"] for p in msgs[1]["content"] if p["type"] == "text")
    assert "ROUND 2 (task) [send images 1]: Same for this one" in text
    assert "Values only the images/expected answers contain:" in text and "Night Market" in text
    assert [p["type"] for p in msgs[1]["content"]].count("image_url") == 1  # capped to the newest
    assert "[image 1] (render:event_poster)" in text
    assert "request_fidelity" in msgs[0]["content"] and "grounded_consistency" in msgs[0]["content"]
    # cached: a second evaluation does not call the backend (it has no replies left anyway)
    assert judge.evaluate(ev).to_json() == v.to_json() and len(backend.calls) == 1
