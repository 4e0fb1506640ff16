"""The counterfactual replay: an independent check that no user turn depended on hidden values.

The episode's assistant actions are replayed verbatim against a fresh copy of the user policy on a
copy of the scenario whose hidden fields hold other values; the user's actions must be the same
byte for byte. The honest users (scripted, model-played) replay the same with the oracle and the
behaviour zoo on demo, a nominal sample and UI scenarios; users that peek at the answer key, the
world's rows or an image's facts -- which the rule-based checks cannot see, because their turns
look right -- are caught, with the round and the turn that changed.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.baselines.zoo import ZOO
from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode
from mmtsb_env.runner import run_episode
from mmtsb_env.users.counterfactual import HIDDEN_FIELDS, MARKER, hidden_copy, leaves, replay
from mmtsb_env.users.llm_user import LLMUser
from mmtsb_env.users.rules import NUDGE_MISSING, decide
from mmtsb_env.users.scripted import ScriptedUser

sys.path.insert(0, str(Path(__file__).parent))
from test_llm_user_secrets import Compliant  # noqa: E402  (the tiny-model stand-in of the secrets tests)

DEMO = mmtsb_env.load_suite("demo")
NOMINAL = mmtsb_env.load_suite("nominal")
UI = mmtsb_env.load_suite("ui")


def play(scenario, user=None, agent=None):
    agent = agent or OracleAgent([scenario])
    env = mmtsb_env.make_env(scenarios=[scenario], user=user or ScriptedUser(), max_messages=200)
    obs, info = env.reset(seed=0)
    while not env.episode.done:
        obs, _, _, _, info = env.step(agent.act(obs, info))
    return env


def grounded(env, with_replay=True):
    ev = user_evidence_from_episode(env.episode, env.user if with_replay else None)
    return UserJudge().grounded_consistency(ev), ev


# ------------------------------------------------------------------ what is hidden
@pytest.mark.parametrize("has", ["value_tolerances", "state_changes"])
def test_the_copy_changes_every_hidden_field_and_keeps_the_users_script(has):
    scenario = next(s for s in NOMINAL if s.metadata.get("lookalikes") and s.initial_entities and (
        s.metadata.get("value_tolerances") if has == "value_tolerances" else any(r.state_changes for r in s.rounds)))
    copy = hidden_copy(scenario)
    a, b = scenario.to_dict(), copy.to_dict()
    # the user's script: the same
    for r0, r1 in zip(a["rounds"], b["rounds"]):
        for key in ("query", "image_ids", "instructions", "kind", "clarifications", "guidance", "wrong_claim"):
            assert r0.get(key) == r1.get(key), key
    assert a["description"] == b["description"]
    # every hidden field: each leaf changed (keys, tables, tool names and links aside)
    def hidden(d):
        return {
            "images": [[i.get("facts"), (i.get("render") or {}).get("content")] for i in d["images"]],
            "expected_changes": [[c.get("row"), c.get("fields")] for c in d["expected_changes"]],
            "report": [r.get("report") for r in d["rounds"]], "answer": [r.get("answer") for r in d["rounds"]],
            "solution": [[s.get("arguments"), s.get("say")] for r in d["rounds"] for s in r.get("solution", [])],
            "metadata": [d["metadata"][k] for k in sorted(d["metadata"]) if k not in ("num_images", "num_rounds", "domains")]
            + [sorted(d["metadata"].get("value_tolerances", {}))],
            "completion_criteria": d["completion_criteria"],
            "state_changes": [[c.get("row"), c.get("fields")] for r in d["rounds"] for c in r.get("state_changes", [])],
        }
    for (name, before), after in zip(hidden(a).items(), hidden(b).values()):
        pairs = list(zip(leaves(before), leaves(after)))
        assert len(pairs) == len(list(leaves(before))), name
        kept = [x for x, y in pairs if x == y and x not in (None, "")]
        assert not kept, (name, kept[:5])
    for field in ("lookalikes", "value_tolerances", "image_values"):
        assert b["metadata"].get(field) != a["metadata"][field] or not a["metadata"].get(field), field
    rows = [(t, row) for t, rows in a["initial_entities"].items() for row in rows]
    rows1 = [(t, row) for t, rows in b["initial_entities"].items() for row in rows]
    assert all(row != row1 for (_, row), (_, row1) in zip(rows, rows1))
    assert b["world_seed"] != a["world_seed"]  # the base world under the rows is another one too
    assert MARKER.format(0) in json.dumps(b, default=str) and "initial_entities" in HIDDEN_FIELDS


# ------------------------------------------------------------------ the honest users replay the same
def _assert_clean(rec):
    replayed = rec.user_verdict.get("details", {}).get("counterfactual_replay")
    assert replayed is not None and replayed["turns"] > 0, rec.user_verdict
    assert replayed["difference"] is None and not replayed.get("diverged") and not replayed.get("error"), replayed
    assert rec.user_verdict["pass"], rec.user_verdict


def _zoo_runs(scenarios):
    agents = [("oracle", lambda: OracleAgent(scenarios), lambda s: True)]
    agents += [(cls.name, (lambda c=cls: c(scenarios)), cls.applies) for cls in ZOO]
    for name, make, applies in agents:
        for s in scenarios:
            if applies(s):
                yield name, s, make


@pytest.mark.parametrize("scenario", DEMO, ids=lambda s: s.id)
def test_the_oracle_and_the_zoo_replay_the_same_on_demo(scenario):
    for name, s, make in _zoo_runs([scenario]):
        _assert_clean(run_episode(s, make()))


@pytest.mark.slow
@pytest.mark.parametrize("scenario", NOMINAL[::29], ids=lambda s: s.id)
def test_the_oracle_and_the_zoo_replay_the_same_on_a_nominal_sample(scenario):
    for name, s, make in _zoo_runs([scenario]):
        _assert_clean(run_episode(s, make()))


@pytest.mark.parametrize("scenario", UI[::9], ids=lambda s: s.id)
def test_ui_rounds_replay_the_same_taps(scenario):
    rec = run_episode(scenario, OracleAgent([scenario]))
    _assert_clean(rec)
    assert rec.user_dynamics["ui_answers"] > 0  # the replay compared screen taps


def test_the_model_played_user_replays_from_its_cache_without_a_model_call():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    backend = Compliant("all")
    env = play(scenario, LLMUser(backend))
    calls, steps = backend.calls, len(env.user.steps)
    verdict, ev = grounded(env)
    assert verdict.passed and ev.replay["turns"] == steps and ev.replay["difference"] is None, ev.replay
    assert backend.calls == calls and len(env.user.steps) == steps  # no model call, the real user's record untouched


# ------------------------------------------------------------------ leaky users are caught
class Peeks(ScriptedUser):
    """The scripted user with one look at what it must not know: ``peek(episode, move) -> action``."""

    def __init__(self, peek):
        self.peek = peek

    def act(self, episode):
        return self.peek(episode, decide(episode))


def _grades_with_the_answer_key(ep, move):
    """Moves on only when the reply states the round's expected answer (its report facts)."""
    if move.kind in ("advance", "end") and ep.round_index >= 0:
        report = ep.scenario.rounds[ep.round_index].report
        said = " ".join(e.content for e in ep.log if e.sender == "assistant" and e.kind == "message")
        if any(fact not in said for fact in report):
            ep.note_user_move("nudge", NUDGE_MISSING)
            return NUDGE_MISSING
    return move.action


def _names_a_phone_row(ep, move):
    """Moves on with a word about the phone's own data: the first staged row's text (reads the world)."""
    if move.kind == "advance":
        table, rows = next(iter(ep.scenario.initial_entities.items()))
        key = rows[0].get("id", next(iter(rows[0].values())))
        row = ep.world.get(table, key) or {}
        text = next((v for c, v in sorted(row.items()) if isinstance(v, str) and len(v) > 3 and c != "id"), "")
        return move.action.replace(ep.scenario.rounds[move.round_index].query,
                                   ep.scenario.rounds[move.round_index].query + f" ({text})", 1)
    return move.action


def _words_from_the_image(ep, move):
    """Thanks the assistant by an image's name when it moves on (says a hidden value)."""
    if move.kind == "advance":
        facts = [v for spec in ep.scenario.images for v in leaves((spec.render or {}).get("content"))
                 if isinstance(v, str) and len(v) > 3]
        query = ep.scenario.rounds[move.round_index].query
        return move.action.replace(query, query + f" (Thanks for {facts[0]}.)", 1) if facts else move.action
    return move.action


def test_a_user_that_grades_with_the_answer_key_is_caught_though_its_turns_look_right():
    scenario = next(s for s in NOMINAL if len(s.rounds) > 1 and s.rounds[0].report)
    env = play(scenario, Peeks(_grades_with_the_answer_key))
    # the recorded turns are exactly the honest user's: the rule-based checks see nothing wrong ...
    honest = play(scenario)
    said = lambda e: [(x.content, x.image_ids) for x in e.episode.log if x.sender == "user"]  # noqa: E731
    assert said(env) == said(honest)
    assert grounded(env, with_replay=False)[0].passed
    # ... the replay sees the turn that changed with the hidden fields
    verdict, ev = grounded(env)
    assert not verdict.passed and verdict.kind == "hidden_dependence", verdict
    diff = ev.replay["difference"]
    assert diff["round"] == 1 and diff["replayed"] == NUDGE_MISSING and "round 1" in verdict.reason
    assert grounded(honest)[0].passed


def test_a_user_that_reads_the_phones_rows_is_caught():
    scenario = next(s for s in NOMINAL if len(s.rounds) > 1 and s.initial_entities)
    env = play(scenario, Peeks(_names_a_phone_row))
    assert grounded(env, with_replay=False)[0].passed  # a world row is no image value: the leak check is silent
    verdict, ev = grounded(env)
    assert not verdict.passed and verdict.kind == "hidden_dependence"
    assert ev.replay["difference"]["round"] == 1 and "zqhidden" in ev.replay["difference"]["replayed"]


def test_a_user_that_says_an_image_value_is_caught_by_the_replay_too():
    scenario = next(s for s in DEMO if len(s.rounds) > 1 and s.images[0].render)
    env = play(scenario, Peeks(_words_from_the_image))
    verdict, ev = grounded(env)
    assert not verdict.passed
    assert ev.replay["difference"]["turn"] >= 2 and "zqhidden" in ev.replay["difference"]["replayed"]


def _checks_the_screen_against_the_key(ep, move):
    """Taps only a screen that shows what the judge expects it to (the round's ``ui.expect``)."""
    if move.kind == "ui" and "ui_user_interact" in move.action:
        screen = next(e.content for e in reversed(ep.log) if e.kind == "notice" and e.recipient == "user")
        if not all(text in screen for text in ep.scenario.rounds[ep.round_index].ui.expect):
            return "This screen is not what I expected."
    return move.action


def test_a_ui_tap_that_depends_on_the_answer_key_is_caught_in_its_round():
    scenario = next(s for s in UI if any(r.ui is not None and r.ui.expect for r in s.rounds))
    env = play(scenario, Peeks(_checks_the_screen_against_the_key))
    assert grounded(env, with_replay=False)[0].passed
    verdict, ev = grounded(env)
    diff = ev.replay["difference"]
    assert not verdict.passed and diff is not None, ev.replay
    ui_rounds = [k + 1 for k, r in enumerate(scenario.rounds) if r.ui is not None]
    assert diff["round"] in ui_rounds and "ui_user_interact" in diff["recorded"]
    assert diff["replayed"] == "This screen is not what I expected."


class PromptsWithTheAnswer(LLMUser):
    """A model-played user whose prompt carries the reference reply (a leaky prompt builder)."""

    def messages(self, episode, move):
        out = super().messages(episode, move)
        k = max(move.round_index, 0)
        out[0] = {**out[0], "content": out[0]["content"] + "\n(answer: " + episode.scenario.rounds[k].answer + ")"}
        return out


def test_a_model_played_user_whose_prompt_holds_a_hidden_value_is_caught_without_a_model_call():
    scenario = next(s for s in DEMO if len(s.rounds) > 1 and all(r.answer for r in s.rounds))
    backend = Compliant("system")
    env = play(scenario, PromptsWithTheAnswer(backend))
    calls = backend.calls
    verdict, ev = grounded(env)
    assert not verdict.passed and ev.replay["difference"]["why"] == "the model-played user's prompt changed", ev.replay
    assert backend.calls == calls


def test_the_run_record_carries_the_replay():
    scenario = DEMO[0]
    rec = run_episode(scenario, OracleAgent([scenario]))
    replayed = rec.user_verdict["details"]["counterfactual_replay"]
    assert replayed["hidden_fields"] == list(HIDDEN_FIELDS) and replayed["turns"] >= len(scenario.rounds) + 1
    grounded_reason = next(c for c in rec.user_verdict["criteria"] if c["criterion"] == "grounded_consistency")["reason"]
    assert "the same with the hidden fields changed" in grounded_reason


# ------------------------------------------------------------------ hidden values and the user's own lines
def test_a_hidden_value_in_the_users_own_fixed_line_is_not_a_leak():
    """An image shows "finished"; the user's stall nudge says "...once it's finished." -- its own line."""
    scenario = next(s for s in DEMO if s.id == "demo/note_from_receipt")
    images = list(scenario.images)
    images[0] = dataclasses.replace(images[0], facts={**images[0].facts, "status": "finished", "cashier": "Marguerite"})
    scenario = dataclasses.replace(scenario, images=tuple(images))
    env = mmtsb_env.make_env(scenarios=[scenario])
    env.reset(seed=0)
    env.step("Let me check the receipt.")
    assert "finished" in env.episode.log[-1].content
    verdict, _ = grounded(env)
    assert verdict.passed, verdict.reason
    # a hidden value the user's lines do not hold is still one
    from mmtsb_env.evaluation.user_judge import hidden_values

    assert "Marguerite" in hidden_values(scenario) and "finished" not in hidden_values(scenario)


def test_a_conversation_the_copy_shows_otherwise_is_fed_the_recorded_entries_and_replayed_to_the_end():
    """If the assistant's verbatim actions show the user something else in the changed world, the
    copy's user is shown the recorded entries and the replay goes on: every user turn is compared."""
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    env = play(scenario)
    said = next(e for e in env.episode.log if e.sender == "assistant" and e.kind == "message")
    env.episode.log[said.index] = dataclasses.replace(said, content=said.content + " (as shown elsewhere)")
    result = replay(env.episode, env.user)
    user_turns = sum(1 for seat, _ in env.episode.actions if seat == "user")
    assert not result.diverged and result.difference is None and result.fed >= 1
    assert result.turns == user_turns
    verdict, ev = grounded(env)
    assert verdict.passed and "shown the recorded entries" in verdict.reason


def test_an_inconclusive_replay_is_not_a_pass():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    env = play(scenario)
    ev = user_evidence_from_episode(env.episode, env.user)
    for broken in ({"diverged": "at step 3 the copy was over"}, {"error": "ValueError: no copy"}):
        verdict = UserJudge().grounded_consistency(dataclasses.replace(ev, replay={**ev.replay, **broken}))
        assert not verdict.passed and verdict.kind == "replay_inconclusive" and "inconclusive" in verdict.reason


def test_the_llm_user_judge_is_shown_the_replay():
    from mmtsb_env.evaluation.user_judge import user_evidence_text

    scenario = next(s for s in NOMINAL if len(s.rounds) > 1 and s.rounds[0].report)
    leaky = grounded(play(scenario, Peeks(_grades_with_the_answer_key)))[1]
    honest = grounded(play(scenario))[1]
    assert "Counterfactual replay" in user_evidence_text(leaky) and "(round 1) changed" in user_evidence_text(leaky)
    assert "all the same" in user_evidence_text(honest)


def _fails_on_strange_values(ep, move):
    """Looks up the round's report facts in the assistant's words and chokes on one it cannot find."""
    if move.kind in ("advance", "end") and ep.round_index >= 0:
        said = " ".join(e.content for e in ep.log if e.sender == "assistant" and e.kind == "message")
        for fact in ep.scenario.rounds[ep.round_index].report:
            if fact not in said:
                raise ValueError("a report fact is missing")
    return move.action


def test_a_user_that_raises_only_with_the_hidden_fields_changed_is_caught():
    scenario = next(s for s in NOMINAL if len(s.rounds) > 1 and s.rounds[0].report)
    env = play(scenario, Peeks(_fails_on_strange_values))
    verdict, ev = grounded(env)
    assert not verdict.passed and "raised ValueError" in ev.replay["difference"]["replayed"]
