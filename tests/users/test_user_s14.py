"""The blind user, session 14 (issue #30): the replay follows the user-judge setting, re-judged records
rebuild the user the run had, information rounds wait for the kind of answer they ask for, and the
user's turns stay the same whatever the hidden values. Scenarios are chosen by property, never by id."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.cli import app

DEMO = mmtsb_env.load_suite("demo")


# ------------------------------------------------------------------ the replay follows --user-judge
@pytest.fixture
def replays(monkeypatch):
    """Counts the counterfactual replays run (the real replay still runs)."""
    from mmtsb_env.users import counterfactual

    calls = []
    real = counterfactual.replay

    def counted(episode, policy):
        calls.append(episode.scenario.id)
        return real(episode, policy)

    monkeypatch.setattr(counterfactual, "replay", counted)
    return calls


def test_eval_without_the_user_judge_runs_no_replay(replays):
    result = CliRunner().invoke(app, ["eval", "--suite", "demo", "--limit", "2", "--no-user-judge", "-q"])
    assert result.exit_code == 0, result.output
    assert replays == []
    assert '"user_sr": null' in result.output


def test_eval_with_the_user_judge_replays_every_episode(replays):
    result = CliRunner().invoke(app, ["eval", "--suite", "demo", "--limit", "2", "-q"])
    assert result.exit_code == 0, result.output
    assert len(replays) == 2
    assert '"user_sr": 1.0' in result.output


def test_the_runner_skips_the_user_judge_only_when_told(replays):
    from mmtsb_env.runner import run_episode

    scenario = DEMO[0]
    judged = run_episode(scenario, OracleAgent([scenario]))
    assert judged.user_verdict.get("pass") is True and replays == [scenario.id]
    unjudged = run_episode(scenario, OracleAgent([scenario]), user_judge=False)
    assert unjudged.user_verdict == {} and replays == [scenario.id] and unjudged.passed


# ------------------------------------------------------------------ the kind of answer a round waits for
from types import SimpleNamespace  # noqa: E402

from mmtsb_env.users.reading import expectation, read, reported  # noqa: E402
from mmtsb_env.users.rules import NUDGE_MISSING, nudge_text  # noqa: E402


def _round(query: str, expects=()):
    return SimpleNamespace(query=query, guidance=SimpleNamespace(expects=tuple(expects)))


@pytest.mark.parametrize("query", [
    "Can you tell me the total?",
    "Could you tell me what the total is?",
    "I need the combined price of every row, going by these tables - tell me the amount.",
    "Can you figure out the gap between the highest and the lowest value in each chart? Tell me what you get.",
    "Tell me what tickets cost altogether for 4 people to go to all of them.",
    "Work out the sum of all the values in each chart and let me know the figure.",
])
def test_a_quantity_asked_for_waits_for_a_number(query):
    expects = expectation(_round(query))
    assert expects == ("number",)
    no_number = "I checked the receipt carefully and the total is printed at the bottom of it."
    assert not reported([read(no_number)], expects, query)
    assert nudge_text(read(no_number), query) == NUDGE_MISSING
    # any number answers, right or wrong: the user never compares values
    for reply in ("The total is $1,069.71.", "The total is $1,169.71.", "It comes to one hundred and twelve dollars."):
        assert reported([read(reply)], expects, query), reply


@pytest.mark.parametrize("query, expects", [
    ("Compare these invoices and tell me the invoice with the smallest amount due.", ("text",)),
    ("Tell me which receipt has the larger total.", ("text",)),
    ("Show me the three with their prices on a screen and I'll pick the one to add to my cart.", ("text",)),
    ("Save the total in a note called 'Totals' and tell me what the note's title is.", ("text",)),
    ("Can you create a note with 'the total' in its title?", ("done",)),
])
def test_a_thing_chosen_by_a_quantity_is_not_a_number_question(query, expects):
    assert expectation(_round(query)) == expects


@pytest.mark.parametrize("kind, missing, given", [
    ("number", "I found it and put it in your note.", "It's 42."),
    ("date", "I found it and put it in your note.", "It was on May 9."),
    ("time", "I found it and put it in your note.", "It starts at 7.30pm."),
])
def test_guidance_expects_decides_the_kind_whatever_the_query_says(kind, missing, given):
    query = "Can you find out what I asked about?"
    rnd = _round(query, (kind,))
    assert expectation(rnd) == (kind,)
    assert not reported([read(missing)], (kind,), query)
    assert reported([read(given)], (kind,), query)


# ------------------------------------------------------------------ re-judged records rebuild the user the run had
import dataclasses  # noqa: E402

from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_record  # noqa: E402
from mmtsb_env.runner import run_episode  # noqa: E402
from mmtsb_env.users.counterfactual import user_spec  # noqa: E402
from mmtsb_env.users.rules import NUDGE_STALL, decide  # noqa: E402
from mmtsb_env.users.scripted import ScriptedUser  # noqa: E402


class Brusque(ScriptedUser):
    """A persona variant of the scripted user, blind: its stall nudge is its own words."""

    def __init__(self, stall: str = "Well? Tell me when it's done."):
        self.stall = stall

    def replay_spec(self):
        return {"stall": self.stall}

    def act(self, episode):
        action = super().act(episode)
        return self.stall if action == NUDGE_STALL else action


class GradesWithTheKey(ScriptedUser):
    """Named "scripted" like the plain user, but moves on only when the reply states the round's
    hidden report facts: a record of it must not be re-judged as the plain scripted user."""

    def act(self, episode):
        move = decide(episode)
        if move.kind in ("advance", "end") and episode.round_index >= 0:
            said = " ".join(e.content for e in episode.log if e.sender == "assistant" and e.kind == "message")
            if any(fact not in said for fact in episode.scenario.rounds[episode.round_index].report):
                episode.note_user_move("nudge", NUDGE_STALL)
                return NUDGE_STALL
        episode.note_user_move(move.kind, move.action)
        return move.action


class StallsOnce:
    """The oracle, after one stall ("Let me check.")."""

    def __init__(self, inner):
        self.inner, self.stalled = inner, False

    def act(self, obs, info):
        if not self.stalled:
            self.stalled = True
            return "Let me check."
        return self.inner.act(obs, info)


def _record(scenario, user, agent=None):
    from mmtsb_env.envs.gym_env import MMToolSandboxEnv

    env = MMToolSandboxEnv(scenarios=[scenario], user=user)
    record = run_episode(scenario, agent or OracleAgent([scenario]), env=env)
    env.close()
    return record


def _rejudged(record, scenario):
    ev = user_evidence_from_record(record, scenario)
    return ev, UserJudge().grounded_consistency(ev)


def test_a_re_judged_record_of_a_persona_variant_replays_that_variant():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    record = _record(scenario, Brusque(), StallsOnce(OracleAgent([scenario])))
    assert any(e["content"] == Brusque().stall for e in record.log if e["sender"] == "user"), "no stall nudge"
    assert record.replay_inputs["user"] == {"class": f"{__name__}:Brusque", "name": "scripted",
                                            "kwargs": {"stall": Brusque().stall}}
    ev, verdict = _rejudged(record, scenario)
    assert ev.replay["difference"] is None and not ev.replay.get("diverged"), ev.replay
    assert verdict.passed and "the same with the hidden fields changed" in verdict.reason, verdict


def test_a_re_judged_record_of_a_user_that_peeks_is_caught_though_it_is_named_scripted():
    scenario = next(s for s in DEMO if any(r.report for r in s.rounds))
    record = _record(scenario, GradesWithTheKey())
    assert record.user == "scripted"
    ev, verdict = _rejudged(record, scenario)
    assert not verdict.passed and verdict.kind == "hidden_dependence", (verdict, ev.replay)


def test_a_user_a_record_cannot_rebuild_is_not_replayed_and_the_verdict_says_why():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)

    class Local(ScriptedUser):
        pass

    class Stateful(ScriptedUser):
        def __init__(self):
            self.mood = "calm"

    Stateful.__qualname__ = "Stateful"  # as if defined at module level, but with state and no replay_spec
    record = _record(scenario, ScriptedUser())
    cases = [
        (user_spec(Local()), "defined inside a function"),
        (user_spec(Stateful()), "keeps state a record cannot rebuild (mood)"),
        ({"class": "no_such_module_zq:User", "name": "scripted", "kwargs": {}}, "is not loaded"),
        (None, "does not say which user policy played the user seat"),
    ]
    for spec, why in cases:
        inputs = {k: v for k, v in record.replay_inputs.items() if k != "user"}
        if spec is not None:
            inputs["user"] = spec
        ev, verdict = _rejudged(dataclasses.replace(record, replay_inputs=inputs), scenario)
        assert ev.replay.get("skipped") and f"not replayed: " in verdict.reason and why in verdict.reason, (why, verdict)


# ------------------------------------------------------------------ audit: the screen pick and the hidden ``expect``
def test_a_value_pick_does_not_depend_on_the_hidden_expect_texts():
    from mmtsb_env.scenario.model import UIDecision
    from mmtsb_env.ui.choice import decide as decide_on_screen

    screen = [{"type": "Button", "component_id": "a", "surface_id": "s", "label": "150 mm", "description": "Plan 300",
               "action": "pick"},
              {"type": "Button", "component_id": "b", "surface_id": "s", "label": "200 mm", "description": "Plan 100",
               "action": "pick"}]
    picks = {decide_on_screen(UIDecision(pick={"lowest_value": True}, expect=expect), screen, "pick the lowest")["component_id"]
             for expect in (("Plan 300", "Plan 100"), ("zqhidden0001", "zqhidden0002"), ())}
    assert len(picks) == 1, picks


# ------------------------------------------------------------------ red team F6: a run-on closing offer
def test_an_answer_run_on_into_a_closing_offer_is_still_an_answer():
    query = "What's the first line of /home/megan/receipts/2025-05-26_best_buy_07.txt?"
    expects = expectation(_round(query))
    for reply in ("It starts with: Best Buy Could I help with anything else?",
                  "It starts with: Best Buy. Could I help with anything else?"):
        assert reported([read(reply)], expects, query), reply
    assert not reported([read("Could I help with anything else?")], expects, query)
    asks = read("The note says Hello Do you want me to delete it?")
    assert asks.question and asks.permission  # a real question run on is still a question


def test_the_run_on_offer_episode_no_longer_gives_up():
    """The red team's case: the oracle's answers with " Could I help with anything else?" appended
    (an answer without a full stop runs on into it) on the nominal scenarios whose answers end unpunctuated."""
    class Offers:
        def __init__(self, scenario):
            self.inner = OracleAgent([scenario])

        def act(self, obs, info):
            action = self.inner.act(obs, info)
            plain = not action.lstrip().startswith("{") and "```" not in action
            return action + " Could I help with anything else?" if plain else action

    from mmtsb_env.runner import run_episode as play

    nominal = mmtsb_env.load_suite("nominal")
    unpunctuated = [s for s in nominal if any(r.answer and not r.answer.rstrip().endswith((".", "!", "?", ")", "'", '"'))
                                              for r in s.rounds)][:3]
    assert unpunctuated
    for scenario in unpunctuated:
        record = play(scenario, Offers(scenario), user_judge=False)
        assert not record.user_dynamics["gave_up"] and record.user_dynamics["nudges"] == 0, scenario.id
