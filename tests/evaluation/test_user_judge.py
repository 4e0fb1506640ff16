"""The user judge measures the user: the scripted supervisor passes with the oracle on every
built-in suite and is not blamed for a failing agent or a cut-off episode; a zoo of bad users
(leaks, skips, re-sends, role swaps, volunteering the future, quitting early, grading the
assistant with the answer key, correcting itself unprompted) fails the right criterion; the LLM
variant sees the script and the images."""

from __future__ import annotations

import dataclasses
import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.episode.engine import Episode
from mmtsb_env.evaluation.user_judge import USER_CRITERIA, LLMUserJudge, UserJudge, user_evidence_from_episode, user_evidence_from_record
from mmtsb_env.evaluation.user_judge import hidden_values
from mmtsb_env.llm.base import RecordedBackend
from mmtsb_env.runner import run_suite
from mmtsb_env.users.rules import decide
from mmtsb_env.users.scripted import END, ScriptedUser

SUITE = {s.id: s for s in mmtsb_env.load_suite("demo")}


def send(message, ids):
    return json.dumps({"name": "send_message_with_image", "arguments": {"message": message, "image_ids": ids}})


def verdict(ep):
    return UserJudge().evaluate(user_evidence_from_episode(ep))


def failures(ep):
    return {c.name: (c.kind, c.reason) for c in verdict(ep).criteria if not c.passed}


def play(scenario, user, agent=None, **env_kwargs):
    """One episode in the Gym env with ``user``; ``agent`` defaults to the oracle."""
    scenarios = [scenario]
    agent = agent or OracleAgent(scenarios)
    env = mmtsb_env.make_env(scenarios=scenarios, user=user, **env_kwargs)
    obs, info = env.reset(seed=0)
    while not env.episode.done:
        obs, _, _, _, info = env.step(agent.act(obs, info) if hasattr(agent, "act") else agent(info))
    return env.episode


class CannotDo:
    """An agent that says it could not do anything."""

    def act(self, obs, info):
        return "Sorry, I couldn't do that."


# ------------------------------------------------------------------ the scripted user is not blamed
@pytest.mark.slow
@pytest.mark.parametrize("suite", ["demo", "nominal", "ui"])
def test_scripted_user_scores_user_sr_1_with_the_oracle_on_every_suite(suite):
    scenarios = mmtsb_env.load_suite(suite)
    agent = OracleAgent(scenarios)
    failed = []
    for scenario in scenarios:
        ep = play(scenario, ScriptedUser(), agent)
        v = verdict(ep)
        assert [c.name for c in v.criteria] == list(USER_CRITERIA)
        if not v.passed or ep.user_gave_up:
            failed.append((scenario.id, [c.reason for c in v.criteria if not c.passed]))
    assert not failed, failed[:5]


def test_recorded_episodes_are_judged_the_same_way():
    scenarios = list(SUITE.values())
    records = run_suite(scenarios, lambda: OracleAgent(scenarios))
    for s, r in zip(scenarios, records):
        v = UserJudge().evaluate(user_evidence_from_record(r, s))
        assert v.passed, (s.id, [c.reason for c in v.criteria if not c.passed])
        assert r.user_verdict["pass"] is True


def test_giving_up_on_an_agent_that_never_does_the_work_is_not_the_users_fault():
    ep = play(SUITE["demo/two_events_mixed"], ScriptedUser(), CannotDo())
    assert ep.user_gave_up and ep.round_index == 0
    assert verdict(ep).passed, failures(ep)
    assert ep.verdict is not None and not ep.verdict.passed


def test_an_episode_cut_off_by_the_message_limit_is_not_the_users_fault():
    ep = play(SUITE["demo/two_events_mixed"], ScriptedUser(), CannotDo(), max_messages=6)
    assert ep.truncated and not ep.terminated
    assert verdict(ep).passed, failures(ep)


def test_rounds_that_share_wording_are_not_repetition():
    base = SUITE["demo/connectivity_goal_change"]
    first = base.rounds[0]
    again = dataclasses.replace(first, query=first.query, solution=({"name": "set_wifi_status", "arguments": {"on": False}},),
                                answer="Wifi is off again.")
    scenario = dataclasses.replace(base, id="test/same_wording", rounds=(first, again), expected_changes=())
    ep = play(scenario, ScriptedUser())
    assert ep.round_index == 1 and ep.terminated
    assert verdict(ep).passed, failures(ep)


def test_ui_state_records_and_screens_are_not_the_user_speaking():
    scenario = next(s for s in mmtsb_env.load_suite("ui") if s.id == "ui/cheapest_camera_cart")
    ep = play(scenario, ScriptedUser())
    taps = [e for e in ep.log if e.sender == "user" and e.content.startswith("<ui_state_server>")]
    assert taps and any(e.image_ids for e in ep.log if e.kind == "notice")
    assert verdict(ep).passed, failures(ep)


# ------------------------------------------------------------------ the bad-user zoo
class Twisted(ScriptedUser):
    """The scripted user with one vice: ``twist(episode, move) -> action``."""

    def __init__(self, twist):
        self.twist = twist

    def act(self, episode):
        return self.twist(episode, decide(episode))


def _leaks(ep, move):
    if move.kind == "open":
        value = next(v for v in hidden_values(ep.scenario) if any(c.isdigit() for c in v))
        return send(move.text + f" The total on it is {value}.", ",".join(map(str, ep.scenario.rounds[0].image_ids)))
    return move.action


def _skips(ep, move):  # the old user: any assistant message moves the script on
    rounds = ep.scenario.rounds
    if move.kind in ("open", "advance", "end", "clarify", "ui"):
        return move.action
    nxt = ep.round_index + 1
    return ScriptedUser().act(ep) if nxt >= len(rounds) else _open(ep, nxt)


def _open(ep, index):
    from mmtsb_env.users.script import round_action

    return round_action(ep, index)


def _resends(ep, move):
    if move.kind in ("nudge", "redirect"):
        ids = ep.scenario.rounds[ep.round_index].image_ids
        if ids:
            return send("Here it is again, have another look.", ",".join(map(str, ids)))
    return move.action


def _role_swap(ep, move):
    if move.kind in ("nudge", "redirect", "confirm"):
        return "I have created the note for you. Is there anything else I can help with?"
    return move.action


def _volunteers(ep, move):
    rounds = ep.scenario.rounds
    if move.kind == "nudge" and ep.round_index + 1 < len(rounds):
        return "Not yet. And after that: " + rounds[-1].query.replace("?", ".")
    return move.action


def _quits(ep, move):
    return END if move.kind == "nudge" else move.action


def _grades(ep, move):
    """Knows the answer key: keeps the first round open once after the assistant reported it."""
    from mmtsb_env.users.rules import NUDGE_MISSING

    if move.kind in ("advance", "end") and ep.round_index == 0 and not ep.user_moves[1:]:
        ep.note_user_move("nudge", NUDGE_MISSING)
        return NUDGE_MISSING
    return move.action


NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}


@pytest.mark.parametrize("vice, agent, criterion, kind, scenario_id", [
    (_leaks, None, "grounded_consistency", "leak", "demo/two_events_mixed"),
    (_skips, CannotDo(), "request_fidelity", "skipped_round", "demo/two_events_mixed"),
    (_resends, CannotDo(), "tool_channel_correctness", "images_resent", "demo/two_events_mixed"),
    (_role_swap, CannotDo(), "conversational_naturalness", "role_swap", "demo/two_events_mixed"),
    (_volunteers, CannotDo(), "request_fidelity", "skipped_ahead", "nominal/0137"),  # 4 rounds
    (_quits, CannotDo(), "tool_channel_correctness", "ended_early", "demo/two_events_mixed"),
    (_grades, None, "grounded_consistency", "hidden_dependence", "demo/two_events_mixed"),
])
def test_the_bad_user_zoo_is_caught(vice, agent, criterion, kind, scenario_id):
    scenario = SUITE.get(scenario_id) or NOMINAL[scenario_id]
    ep = play(scenario, Twisted(vice), agent)
    f = failures(ep)
    assert criterion in f and f[criterion][0] == kind, f
    honest = play(scenario, ScriptedUser(), agent)
    assert verdict(honest).passed, failures(honest)  # the same agent with the honest user: no blame


def test_a_skipping_user_with_a_claiming_agent_reaches_every_round_but_fails():
    ep = play(SUITE["demo/two_events_mixed"], Twisted(_skips), CannotDo())
    assert ep.round_index == len(ep.scenario.rounds) - 1 and ep.terminated
    assert "moved on from round 1 before the assistant reported it" in failures(ep)["request_fidelity"][1]


def test_a_correction_confirmed_before_the_assistant_noticed_is_knowledge_the_user_lacks():
    from mmtsb_env.scenario.model import WrongClaim

    base = SUITE["demo/compare_receipts"]
    rnd = dataclasses.replace(base.rounds[0], query="Note the $48 receipt of these two as 'Bigger purchase'.", report=(),
                              wrong_claim=WrongClaim(text="$48", confirm="Oh, I misremembered; use the dearer one."))
    scenario = dataclasses.replace(base, id="test/claim", rounds=(rnd,))
    for flag, ok in (("Neither receipt shows $48, the totals differ. Which one?", True), ("Let me look.", False)):
        ep = Episode(scenario)
        ep.act("user", ScriptedUser().act(ep))
        ep.act("assistant", flag)
        ep.act("user", rnd.wrong_claim.confirm)
        ep.act("assistant", "Saved 'Bigger purchase'.")
        ep.act("user", END)
        f = failures(ep)
        assert ("grounded_consistency" not in f) == ok, f
        if not ok:
            assert f["grounded_consistency"][0] == "unprompted_correction"


def test_answering_a_doubt_about_the_users_own_words_is_not_holding_the_round_open():
    """With no wrong claim scripted, the user answers "the receipt does not show $48" neutrally
    from its script; the judge reads the doubt as the conversation's reason, not hidden values."""
    from mmtsb_env.users.rules import GO_BY_WHAT_YOU_SEE

    base = SUITE["demo/compare_receipts"]
    rnd = dataclasses.replace(base.rounds[0], query="Note the $48 receipt of these two as 'Bigger purchase'.", report=())
    scenario = dataclasses.replace(base, id="test/doubt", rounds=(rnd,))
    for doubt, ok in (("Before I save it: the receipt does not show $48, actually.", True),
                      ("I noted the receipt.", False)):
        ep = Episode(scenario)
        ep.act("user", ScriptedUser().act(ep))
        ep.act("assistant", doubt)
        ep.act("user", GO_BY_WHAT_YOU_SEE)
        ep.act("assistant", "Saved 'Bigger purchase'.")
        ep.act("user", END)
        f = failures(ep)
        assert ("grounded_consistency" not in f) == ok, f
        if not ok:
            assert f["grounded_consistency"][0] == "hidden_dependence"


def test_images_sent_in_the_wrong_round():
    rounds = SUITE["demo/two_events_mixed"].rounds
    ep = Episode(SUITE["demo/two_events_mixed"])
    for action in (send(rounds[0].query, "0,1"), rounds[1].query, END):
        ep.act("user", action)
        if not ep.done:
            ep.act("assistant", "Done.")
    kind, reason = failures(ep)["tool_channel_correctness"]
    assert kind == "images_misplaced" and reason.startswith("round 1: image(s) [1] sent but scripted elsewhere")


def test_never_closing_the_conversation():
    ep = Episode(SUITE["demo/note_from_receipt"])
    ep.act("user", send(SUITE["demo/note_from_receipt"].rounds[0].query, "0"))
    ep.act("assistant", "Done.")
    assert failures(ep)["tool_channel_correctness"][0] == "not_closed"


def test_hidden_values_come_from_images_and_facts_minus_the_script():
    values = hidden_values(SUITE["demo/note_from_receipt"])
    assert "13.48" in values and "Blue Door Cafe" in values
    assert "Lunch expense" not in values  # said in the script's query
    assert all(len(v) >= 3 for v in values)


def test_llm_user_judge_sees_the_script_hidden_values_and_images():
    rounds = SUITE["demo/two_events_mixed"].rounds
    ep = Episode(SUITE["demo/two_events_mixed"])
    for action in (send(rounds[0].query, "0"), send(rounds[1].query, "1"), END):
        ep.act("user", action)
        if not ep.done:
            ep.act("assistant", "Done.")
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
    assert judge.evaluate(ev).to_json() == v.to_json() and len(backend.calls) == 1  # cached
