"""The episode engine: turns, rounds, clarifications, state mutations, active tool set, rewards."""

import json

import pytest

import mmtsb_env
from mmtsb_env.episode.engine import Episode, EpisodeConfig
from mmtsb_env.scenario.suites import find_scenario
from mmtsb_env.baselines.oracle import _resolve as resolve_refs
from mmtsb_env.users.scripted import ScriptedUser

DEMO = mmtsb_env.load_suite("demo")
USER = ScriptedUser()


def start(scenario_id, **config):
    ep = Episode(find_scenario(DEMO, scenario_id), EpisodeConfig(**config))
    ep.act("user", USER.act(ep))
    return ep


def call(name, **arguments):
    return json.dumps({"name": name, "arguments": arguments})


def test_turns_are_enforced():
    ep = start("demo/note_from_receipt")
    with pytest.raises(RuntimeError, match="assistant's turn"):
        ep.act("user", "hello")
    ep.act("assistant", call("get_wifi_status"))
    assert ep.turn == "assistant"  # tool calls keep the turn
    ep.act("assistant", "Which title do you want?")
    assert ep.turn == "user"


def test_user_delivers_round_images_and_advances_rounds():
    ep = start("demo/contacts_note_progressive")
    first = ep.log[-1]
    assert first.sender == "user" and first.image_ids == (0,) and ep.round_index == 0
    ep.act("assistant", "Let me look at the card first.")  # a stall: the user does not move on
    ep.act("user", USER.act(ep))
    assert ep.round_index == 0 and ep.user_moves[-1] == (0, "nudge")
    saved = {}
    for rnd in ep.scenario.rounds:
        for step in rnd.solution:
            ep.act("assistant", call(step["name"], **resolve_refs(step["arguments"], saved)))
            saved[step.get("save_as")] = ep.calls[-1].outcome.result
        ep.act("assistant", "Done.")
        ep.act("user", USER.act(ep))
        if not ep.done:
            assert ep.round_index == 1 and ep.log[-1].image_ids == (1,)
    assert ep.terminated and ep.verdict is not None


def test_clarification_is_answered_once_then_round_advances():
    ep = start("demo/delete_note_clarify")
    ep.act("assistant", "Which note do you mean, the lease or the dentist one?")
    answer = USER.act(ep)
    assert answer == "The one about the lease, please."
    ep.act("user", answer)
    assert (0, 0) in ep.clarifications_given
    ep.act("assistant", "Which note do you mean, the lease or the dentist one?")
    assert USER.act(ep) != answer  # answered once; asking again is a failed try
    ep.act("user", USER.act(ep))
    ep.act("assistant", call("simple_note_delete_note", note_id=9002))
    ep.act("assistant", "Deleted the lease note. Is that right?")
    assert json.loads(USER.act(ep))["name"] == "end_conversation"


def test_state_mutation_is_baseline_not_the_agents_change():
    ep = start("demo/low_battery_state_mutation")
    device = ep.world.get("setting.device", 1)
    assert device["low_battery_mode"] is True and device["wifi"] is False
    assert ep.world.diff() == {} and ep.f1 < 1.0
    ep.act("assistant", call("simple_note_create_note", title="Groceries", content="x"))
    assert "no network" in ep.log[-1].content and ep.world.diff() == {}


def test_message_cap_truncates_and_judges():
    ep = start("demo/note_from_receipt", max_messages=6)
    while not ep.done:
        ep.act("assistant", call("get_wifi_status"))
    assert ep.truncated and not ep.terminated and ep.verdict is not None
    with pytest.raises(RuntimeError, match="over"):
        ep.act("assistant", "hi")


def test_tool_search_mode_starts_with_pinned_tools_and_refuses_the_rest():
    ep = start("demo/note_from_receipt", tool_search=True)
    offered = [t["function"]["name"] for t in ep.offered_tools("assistant")]
    assert offered == ["api_docs_search_api_docs"]
    ep.act("assistant", call("simple_note_create_note", title="a", content="b"))
    assert "not in your active tool set" in ep.log[-1].content and ep.world.diff() == {}


def test_rewards_are_f1_deltas():
    ep = start("demo/note_from_receipt")
    result = ep.act("assistant", call("simple_note_create_note", title="Lunch expense", content="Blue Door Cafe, total $13.48"))
    assert result.rewards["assistant"] == pytest.approx(1.0) and result.components["entity_f1"] == 1.0
    result = ep.act("assistant", call("simple_note_create_note", title="extra", content="x"))
    assert result.rewards["assistant"] < 0  # an unexpected extra note lowers precision


def test_tools_outside_the_scenario_are_refused_without_search_advice():
    ep = start("demo/note_from_receipt")
    ep.act("assistant", call("get_wifi_status"))
    assert "not in your active tool set; this scenario offers only the tools listed for it" in ep.log[-1].content


def test_ui_interaction_is_offered_to_the_user_only_in_ui_scenarios():
    plain = start("demo/note_from_receipt")
    assert "ui_user_interact" not in [t["function"]["name"] for t in plain.offered_tools("user")]
    ui = Episode(mmtsb_env.load_suite("ui")[0])
    assert "ui_user_interact" in [t["function"]["name"] for t in ui.offered_tools("user")]


def test_search_then_call_a_discovered_tool():
    ep = start("demo/note_from_receipt", tool_search=True)
    ep.act("assistant", call("api_docs_search_api_docs", query="write a new note"))
    found = json.loads(ep.log[-1].content)
    names = [t["tool_name"] for t in found["tools"]]
    assert "simple_note_create_note" in names and all(n in ep.active.universe for n in names)
    assert "simple_note_create_note" in [t["function"]["name"] for t in ep.offered_tools("assistant")]
    ep.act("assistant", call("simple_note_create_note", title="Lunch expense", content="Blue Door Cafe, total $13.48"))
    assert ep.log[-1].ok and ep.f1 == 1.0


def test_invalid_action_stays_in_the_seats_own_transcript():
    ep = start("demo/note_from_receipt")
    ep.act("assistant", '{"name": "simple_note_create_note", "arguments": ')
    messages = ep.transcripts["assistant"].messages
    assert messages[-2] == {"role": "assistant", "content": '{"name": "simple_note_create_note", "arguments": '}
    assert messages[-1]["role"] == "user" and "Malformed JSON" in messages[-1]["content"]
    assert ep.invalid_actions["assistant"] == 1 and ep.world.diff() == {}
