"""Whole UI episodes through the public env API: the oracle solves the UI suite, agents that skip or
botch the UI do not, and the UI evaluation tells them apart."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.ui.choice import is_ui_interaction, is_ui_notice
from mmtsb_env.ui.evaluation import (
    UI_CRITERIA, UI_JUDGE_CRITERIA, parse_ui_judge_reply, ui_criteria, ui_judge_messages, ui_verdict,
)

from .conftest import button, screen, text

UI_SUITE = mmtsb_env.load_suite("ui")


def play(env, agent, scenario_id, limit=40):
    obs, info = env.reset(seed=0, options={"scenario": scenario_id})
    for _ in range(limit):
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        if terminated or truncated:
            break
    return env.episode


class Script:
    """An agent replaying fixed actions, then saying 'Done.'."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, obs, info):
        return self.actions.pop(0) if self.actions else "Done."


def call(name, **arguments):
    return json.dumps({"name": name, "arguments": arguments})


def test_the_ui_suite_has_ui_rounds_with_solutions():
    assert len(UI_SUITE) >= 4
    for s in UI_SUITE:
        assert s.ui and any(r.ui is not None for r in s.rounds), s.id
        names = [step.get("name") for r in s.rounds for step in r.solution]
        assert "render_ui_screen" in names and "show_ui_to_user" in names, s.id


@pytest.mark.parametrize("scenario_id", [s.id for s in UI_SUITE])
def test_oracle_solves_every_ui_scenario_through_the_screen(scenario_id):
    env = mmtsb_env.make_env(suite="ui")
    ep = play(env, OracleAgent(UI_SUITE), scenario_id)
    assert ep.terminated and ep.f1 == 1.0 and ep.verdict.passed, [c.to_json() for c in ep.verdict.criteria]
    crit = ui_criteria(ep)
    assert [c.name for c in crit] == list(UI_CRITERIA) and all(c.passed for c in crit), [c.to_json() for c in crit]
    assert ui_verdict(ep).passed
    # the user saw a screenshot and answered through ui_user_interact
    notice = next(e for e in ep.log if is_ui_notice(e))
    assert notice.image_ids and "Interactive elements:" in notice.content
    assert any(c.seat == "user" and c.outcome.name == "ui_user_interact" and c.outcome.ok for c in ep.calls)
    assert "render_ui_screen" in [t["function"]["name"] for t in env.episode.offered_tools("assistant")]


def test_oracle_in_code_mode_solves_a_ui_scenario():
    env = mmtsb_env.make_env(suite="ui", mode="code")
    ep = play(env, OracleAgent(UI_SUITE, mode="code"), "ui/compare_receipts_pick")
    assert ep.f1 == 1.0 and all(c.passed for c in ui_criteria(ep)), [c.to_json() for c in ui_criteria(ep)]


def test_skipping_the_screen_leaves_the_choice_unmade():
    env = mmtsb_env.make_env(suite="ui")
    guess = call("simple_note_create_note", title="Chosen receipt", content="Pine Street Books, $20.51")
    ep = play(env, Script([guess, "I saved Pine Street Books, $20.51."]), "ui/compare_receipts_pick")
    assert ep.terminated and ep.f1 < 1.0  # the user ended without revealing the choice
    failed = {c.name for c in ui_criteria(ep) if not c.passed}
    assert failed == set(UI_CRITERIA)


def test_a_screen_without_the_needed_option_gets_a_complaint():
    env = mmtsb_env.make_env(suite="ui")
    comps = [{"id": "root", "component": {"Column": {"children": ["t", "ok"]}}}, text("t", "Pine Street Books $20.51")]
    comps += button("ok", "Save", "save")
    actions = [call("render_ui_screen", ui_json=screen("only_one", comps)), call("show_ui_to_user"), "Which one?"]
    ep = play(env, Script(actions), "ui/compare_receipts_pick")
    user_messages = [e.content for e in ep.log if e.sender == "user" and e.kind == "message"]
    assert any("does not offer the option I need" in m for m in user_messages)
    crit = {c.name: c for c in ui_criteria(ep)}
    assert crit["ui_rendered"].passed and crit["ui_shown"].passed
    assert not crit["ui_affordances"].passed and "Lumen Hardware" in crit["ui_affordances"].reason
    assert not crit["ui_choice_obtained"].passed


def test_a_failing_interaction_gets_a_complaint_not_a_loop():
    env = mmtsb_env.make_env(suite="ui")
    comps = [{"id": "root", "component": {"Column": {"children": ["a", "b"]}}}]
    comps += button("a", "Pine Street Books $20.51", "pick") + button("b", "Lumen Hardware $22.13", "pick")
    actions = [call("render_ui_screen", ui_json=screen("s", comps)), call("show_ui_to_user"),
               call("render_ui_screen", ui_json=[{"deleteSurface": {"surfaceId": "s"}}]), "Pick one please."]
    ep = play(env, Script(actions), "ui/compare_receipts_pick")
    errors = [e for e in ep.log if e.kind == "error" and e.recipient == "user"]
    assert len(errors) == 1 and "there is no surface 's'" in errors[0].content
    assert any("did not work" in e.content for e in ep.log if e.sender == "user" and e.kind == "message")
    assert not ep.truncated


def test_a_follow_up_confirmation_screen_is_confirmed():
    env = mmtsb_env.make_env(suite="ui")
    comps = [{"id": "root", "component": {"Column": {"children": ["a", "b"]}}}]
    comps += button("a", "Call Priya Raman - about the lease", "pick", {"id": 9002})
    comps += button("b", "Call Priya Raman (dentist)", "pick", {"id": 9003})
    confirm = [{"id": "root", "component": {"Row": {"children": ["no", "yes"]}}}]
    confirm += button("no", "Cancel", "cancel", primary=False) + button("yes", "Delete", "confirm_delete")
    actions = [call("render_ui_screen", ui_json=screen("s", comps)), call("show_ui_to_user"), "Which one?",
               call("render_ui_screen", ui_json=screen("c", confirm)), call("show_ui_to_user"), "Sure?",
               call("simple_note_delete_note", note_id=9002), "Deleted the lease note."]
    ep = play(env, Script(actions), "ui/delete_note_pick")
    interactions = [e.content for e in ep.log if is_ui_interaction(e)]
    assert len(interactions) == 2 and "component_id=a" in interactions[0] and "component_id=yes" in interactions[1]
    assert ep.f1 == 1.0 and all(c.passed for c in ui_criteria(ep))


def test_non_ui_scenarios_have_no_ui_criteria():
    env = mmtsb_env.make_env(suite="demo")
    ep = play(env, OracleAgent(mmtsb_env.load_suite("demo")), "demo/note_from_receipt")
    assert ui_criteria(ep) == []


def test_llm_ui_judge_prompt_and_reply():
    env = mmtsb_env.make_env(suite="ui")
    ep = play(env, OracleAgent(UI_SUITE), "ui/cheapest_camera_cart")
    messages = ui_judge_messages(ep)
    assert messages[0]["role"] == "system" and all(name in messages[0]["content"] for name in UI_JUDGE_CRITERIA)
    parts = messages[1]["content"]
    evidence = parts[0]["text"]
    assert "UI requirement: Present the three cameras" in evidence and "render_ui_screen(" in evidence
    assert "[SCREEN SHOWN TO USER]" in evidence and "amazon_add_product_to_cart" in evidence
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == 2 and images[0]["image_url"]["url"].startswith("data:image/png;base64,")
    reply = json.dumps({"criteria": [{"criterion": n, "analysis": "fine", "pass": True} for n in UI_JUDGE_CRITERIA], "pass": True})
    assert parse_ui_judge_reply("```json\n" + reply + "\n```").passed
    partial = parse_ui_judge_reply(json.dumps({"criteria": [{"criterion": "ui_task_focus", "pass": True}]}))
    assert not partial.passed and [c.passed for c in partial.criteria] == [True, False, False, False]
    assert not parse_ui_judge_reply("no json here").passed
