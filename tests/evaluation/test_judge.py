"""The deterministic rubric judge on real episodes (scripted agents against the built-in user) and on
hand-made evidence; and the richer evidence ``Episode.evidence()`` now carries."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.evaluation import CRITERIA, RubricJudge, Verdict, fact_in_text
from mmtsb_env.evaluation.evidence import evidence_from_record
from mmtsb_env.evaluation.llm_judge import example_evidence
from mmtsb_env.runner import run_episode

SUITE = {s.id: s for s in mmtsb_env.load_suite("demo")}


class ListAgent:
    """Plays fixed actions, then says "Done." forever."""

    def __init__(self, actions):
        self.actions = list(actions)

    def act(self, obs, info):
        return self.actions.pop(0) if self.actions else "Done."


def call(name, **arguments):
    return json.dumps({"name": name, "arguments": arguments})


def play(scenario_id, actions, **env_kwargs):
    rec = run_episode(SUITE[scenario_id], ListAgent(actions), env_kwargs=env_kwargs or None)
    verdict = Verdict.from_json(rec.verdict)
    return rec, verdict


def failed(verdict):
    return {c.name: (c.kind, c.reason) for c in verdict.criteria if not c.passed}


def test_oracle_passes_every_demo_scenario_with_reasons():
    for sid, scenario in SUITE.items():
        rec = run_episode(scenario, OracleAgent(list(SUITE.values())))
        verdict = Verdict.from_json(rec.verdict)
        assert verdict.passed, (sid, failed(verdict))
        assert [c.name for c in verdict.criteria] == list(CRITERIA)
        assert all(c.reason and "\n" not in c.reason for c in verdict.criteria)


def test_misread_amount_is_a_wrong_value_and_a_factual_error():
    rec, v = play("demo/note_from_receipt", [
        call("simple_note_create_note", title="Lunch expense", content="Blue Door Cafe, total $13.84"),
        "Saved: Blue Door Cafe, total $13.84.",
    ])
    f = failed(v)
    # the note was made (task completion passes); ROUGE-L of the content is 5/6 (above 0.5) but the
    # number 13.48, read from the image, is missing from it: the artifact is factually wrong
    assert f == {"information_accuracy": ("wrong_values", "wrong values in simple_note.notes:create.content "
                                                          "(number(s) 13.48 not in the text)")}
    assert 0.8 < rec.entity_f1 < 1.0


def test_deleting_the_wrong_note_is_no_progress_and_a_side_effect():
    _, v = play("demo/delete_note_clarify", [call("simple_note_delete_note", note_id=9003), "Deleted it."])
    f = failed(v)
    assert f["task_completion"] == ("no_progress", "none of the 1 expected change(s) was made")
    assert f["no_side_effects"][0] == "extra_rows" and "simple_note.notes:delete (1 extra)" in f["no_side_effects"][1]


def test_half_done_update_is_a_wrong_value():
    _, v = play("demo/gift_ideas_update", [
        call("simple_note_add_content_to_note", note_id=9001, append_or_prepend="append", added_content="\nCeramic vase $38.00"),
        "Added the Ceramic vase.",
    ])
    f = failed(v)
    # the user asked to pin the note: a specified detail left wrong (the update itself was made);
    # the user cannot see the note, so it moves on after the report: the judge alone fails it
    assert f == {"instruction_following": ("wrong_details", "details the user specified are wrong: "
                                                             "simple_note.notes:update.pinned (exact 0.00)")}


def test_touching_another_note_is_collateral_damage():
    _, v = play("demo/note_from_receipt", [
        call("simple_note_create_note", title="Lunch expense", content="Blue Door Cafe, total $13.48"),
        call("simple_note_update_note", note_id=1, pinned=True),
        "Saved: Blue Door Cafe, total $13.48.",
    ])
    assert failed(v) == {"no_side_effects": ("collateral", "unrequested changes in simple_note.notes:update (1 row(s))")}


def test_repeating_a_failing_call_breaks_tool_use_validity():
    bad = call("simple_note_show_note", note_id=987654)
    _, v = play("demo/note_from_receipt", [
        bad, bad, bad,
        call("simple_note_create_note", title="Lunch expense", content="Blue Door Cafe, total $13.48"),
        "Saved: Blue Door Cafe, total $13.48.",
    ])
    kind, reason = failed(v)["tool_use_validity"]
    assert kind == "repeated_failures"
    assert reason == "3/4 calls failed, 0 invalid action(s); the same failing call to simple_note_show_note was repeated 3 times"


def test_hitting_the_message_limit_fails_instruction_following():
    _, v = play("demo/note_from_receipt", [call("simple_note_search_notes", query="lunch")] * 30, max_messages=8)
    kind, reason = failed(v)["instruction_following"]
    assert kind == "unanswered_round" and "no reply to the user in round(s) 1" in reason and "hit the message limit" in reason


def test_fact_matching():
    assert fact_in_text("$1,440", "about 1440 bottles") and fact_in_text("1440", "1,440")
    assert fact_in_text("Café Lumière", "saved at cafe lumiere") and not fact_in_text("Pier 7", "Pier 17")
    assert fact_in_text("13.48", "13.5") is True  # within 1 %
    assert fact_in_text("13.48", "13.84") is False and fact_in_text("2", "12") is False


def test_thresholds_are_configurable():
    ev = example_evidence()
    assert not RubricJudge().evaluate(ev).criterion("information_accuracy").passed  # said 18.15 for 18.53 (2 % off)
    assert RubricJudge(max_failed_call_ratio=0.0).evaluate(ev).criterion("tool_use_validity").passed
    ev.calls.append({"seat": "assistant", "name": "x", "arguments": {}, "ok": False})
    assert not RubricJudge(max_failed_call_ratio=0.4).evaluate(ev).criterion("tool_use_validity").passed
    assert RubricJudge(max_failed_call_ratio=0.5).evaluate(ev).criterion("tool_use_validity").passed


def test_no_changes_expected_and_none_made():
    ev = example_evidence()
    ev.entity = ev.entity.__class__(1.0, 1.0, 1.0, [])
    v = RubricJudge().evaluate(ev)
    assert v.criterion("task_completion").reason == "no state change was required"
    assert v.criterion("no_side_effects").passed


def test_verdict_json_round_trip():
    v = RubricJudge().evaluate(example_evidence())
    assert Verdict.from_json(json.loads(json.dumps(v.to_json()))).to_json() == v.to_json()
    assert v.to_json()["criteria"][4] == {"criterion": "information_accuracy", "pass": False,
                                          "reason": "stated value(s) that no tool result, image or world value supports: '18.15' (reply)",
                                          "kind": "wrong_claim"}


def test_episode_evidence_carries_updates_deletes_images_calls_and_log():
    env = mmtsb_env.make_env(suite="demo")
    agent = OracleAgent(list(SUITE.values()))
    obs, info = env.reset(seed=0, options={"scenario": "demo/expenses_late_images"})
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    ev = env.episode.evidence()
    notes = ev.diff["simple_note.notes"]
    assert notes["created"][0]["content"].startswith("Sunrise Diner")  # created then updated: final content
    assert ev.image_ids == [0, 1] and ev.image_sources == ["render:receipt", "render:receipt"]
    assert ev.image_url(1).startswith("data:image/png;base64,")
    assert [c["name"] for c in ev.calls if c["seat"] == "assistant"] == ["simple_note_create_note", "simple_note_update_note"]
    mine = ev.assistant_calls()
    assert mine[0]["result"]["note_id"] == mine[1]["arguments"]["note_id"]
    assert [c["name"] for c in ev.calls if c["seat"] == "user"] == ["send_message_with_image", "end_conversation"]
    assert [e["round_index"] for e in ev.conversation if e["sender"] == "user" and e["kind"] == "message"] == [0, 1]
    assert ev.expected_changes[0]["operation"] == "create" and ev.metadata["image_arrival"]
    # the recorded form gives the same verdict
    env.close()


def test_evidence_from_record_matches_live_evidence():
    rec = run_episode(SUITE["demo/gift_ideas_update"], OracleAgent(list(SUITE.values())), capture_images=True)
    ev = evidence_from_record(rec, SUITE["demo/gift_ideas_update"])
    assert ev.diff["simple_note.notes"]["updated"][0]["before"]["pinned"] is False
    assert ev.rounds_delivered == ev.n_rounds == 1 and ev.ended_by_user
    assert RubricJudge().evaluate(ev).to_json() == rec.verdict
    assert ev.image_url(0).startswith("data:image/png;base64,")
    no_scenario = evidence_from_record(json.loads(json.dumps(rec.to_json())))
    assert no_scenario.entity.f1 == 1.0 and no_scenario.image_url is None


@pytest.mark.parametrize("criterion", CRITERIA)
def test_every_criterion_has_a_failure_kind_when_it_fails(criterion):
    ev = example_evidence()
    ev.rounds_delivered, ev.truncated, ev.n_invalid_actions = 0, True, 9
    ev.calls = [{"seat": "assistant", "name": "x", "arguments": {}, "ok": False}] * 3
    ev.entity = ev.entity.__class__(0.0, 0.0, 0.0, [
        *ev.entity.groups[:0],
        __import__("mmtsb_env.evaluation.entity_diff", fromlist=["GroupScore"]).GroupScore("simple_note.notes", "create", 0, 0, 1, 0),
        __import__("mmtsb_env.evaluation.entity_diff", fromlist=["GroupScore"]).GroupScore("phone.alarms", "delete", 0, 1, 0, 1),
    ])
    c = RubricJudge().evaluate(ev).criterion(criterion)
    assert not c.passed and c.kind and c.reason
