"""The behaviour zoo against the rubric judge: correct-but-different agents pass, agents wrong the
way models are wrong fail with the failure class the paper's taxonomy gives them, in tool and code
mode, on the demo suite (every case exact) and on a sample of nominal (accuracy >= 0.97,
taxonomy agreement >= 0.95). Rewards stay potential-based: the F1 deltas sum to the final F1."""

from __future__ import annotations

import dataclasses

import pytest

import mmtsb_env
from mmtsb_env.baselines.zoo import (SHOULD_FAIL, SHOULD_PASS, ZOO, BothCandidates, CannotRead, CommitlessSpray, OmitsItem,
                                     PoolDump, Terse, WordsAndProse, WrongNumberInReply, claimable, round_facts)
from mmtsb_env.evaluation.similarity import as_number
from mmtsb_env.evaluation.taxonomy import classify
from mmtsb_env.runner import run_episode

DEMO = mmtsb_env.load_suite("demo")
NOMINAL = mmtsb_env.load_suite("nominal")
NOMINAL_SAMPLE = NOMINAL[::43][:6]  # spread over the flow types; works on today's and regenerated suites
# need a facts list drawn from a phrase pool / several items of one kind in the last round: nominal only
NOT_ON_DEMO = {PoolDump, OmitsItem}
# the behaviours of information accuracy (#31), each on up to 4 nominal scenarios it applies to
ACCURACY_ZOO = (Terse, WordsAndProse, BothCandidates, CommitlessSpray, WrongNumberInReply, PoolDump, CannotRead, OmitsItem)


def play(agent_cls, scenario, scenarios, mode):
    rec = run_episode(scenario, agent_cls(scenarios, mode=mode), env_kwargs={"mode": mode})
    primary, _ = classify(rec.verdict)
    return rec, primary


def zoo_results(scenarios, pool, mode):
    out = []
    for cls in ZOO:
        for s in scenarios:
            if cls.applies(s):
                rec, primary = play(cls, s, pool, mode)
                out.append((cls, s, rec, primary))
    return out


@pytest.fixture(scope="module", params=["tool", "code"])
def demo_results(request):
    return request.param, zoo_results(DEMO, DEMO, request.param)


@pytest.fixture(scope="module", params=["tool", "code"])
def nominal_results(request):
    return request.param, zoo_results(NOMINAL_SAMPLE, NOMINAL_SAMPLE, request.param)


def _mismatches(results):
    return [(cls.name, s.id, rec.passed, primary, {c["criterion"]: c.get("kind") for c in rec.verdict["criteria"] if not c["pass"]})
            for cls, s, rec, primary in results
            if rec.passed != cls.should_pass or primary != cls.expected_category(s)]


def test_every_behaviour_is_shown_on_the_demo_suite(demo_results):
    _, results = demo_results
    shown = {cls for cls, *_ in results}
    assert shown == set(ZOO) - NOT_ON_DEMO, {c.name for c in set(ZOO) - NOT_ON_DEMO - shown}


def test_demo_verdicts_and_categories_are_all_right(demo_results):
    mode, results = demo_results
    assert len(results) >= 100
    assert _mismatches(results) == [], mode


def test_nominal_sample_accuracy_and_taxonomy_agreement(nominal_results):
    mode, results = nominal_results
    assert len(results) >= 40 and len({cls for cls, *_ in results}) >= 9
    accuracy = sum(rec.passed == cls.should_pass for cls, _, rec, _ in results) / len(results)
    failing = [(cls, s, primary) for cls, s, rec, primary in results if not cls.should_pass]
    agreement = sum(primary == cls.expected_category(s) for cls, s, primary in failing) / len(failing)
    assert accuracy >= 0.97 and agreement >= 0.95, (mode, accuracy, agreement, _mismatches(results))


def test_should_fail_agents_fail_whatever_else_they_do(demo_results):
    _, results = demo_results
    for cls, s, rec, primary in results:
        if cls in SHOULD_FAIL:
            assert not rec.passed and primary == cls.category, (cls.name, s.id)
        else:
            assert cls in SHOULD_PASS and rec.passed and rec.entity_f1 == 1.0, (cls.name, s.id)


def _spread(cls, k=4):
    fits = [s for s in NOMINAL if cls.applies(s)]
    return fits[::max(1, len(fits) // k)][:k]


@pytest.mark.parametrize("cls", ACCURACY_ZOO, ids=lambda c: c.name)
def test_information_accuracy_behaviours_get_the_papers_verdict_on_nominal(cls):
    """Every behaviour of #31 on scenarios spread over the nominal suite: the verdict and the class
    a correct judge gives (the accuracy per behaviour in docs/evaluation.md is measured the same way)."""
    picked = _spread(cls)
    assert picked, cls.name
    results = [(cls, s, *play(cls, s, picked, "tool")) for s in picked]
    # known and open (#30/#31): on the regenerated suite the scripted user gives up on Terse's bare replies
    # (nominal/0129, 0192, 0255), and Words-and-prose's list in 0192 reads as omitting an item; any other mismatch fails
    # (Terse: only where the user gave up, 3 of its spread scenarios today)
    left = [m for m in _mismatches(results) if m[:2] != ("words_and_prose", "nominal/0192")
            and not (m[0] == "terse" and m[4].get("user_satisfied") == "user_gave_up")]
    assert left == []
    assert sum(m[0] == "terse" for m in _mismatches(results)) <= 3


def test_exploits_do_not_beat_an_honest_agent_that_cannot_read():
    """Reward = entity F1 plus the judge's pass: an agent that sprays candidates, names every
    candidate or dumps a pool earns no more than the honest one that says it could not read."""
    for exploit in (CommitlessSpray, BothCandidates, PoolDump):
        for s in _spread(exploit, 3):
            honest = run_episode(s, CannotRead([s]))
            cheat = run_episode(s, exploit([s]))
            assert not cheat.passed and not honest.passed
            assert sum(r["judge"] for r in cheat.rewards) <= sum(r["judge"] for r in honest.rewards), (exploit.name, s.id)


def test_rewards_stay_potential_based(demo_results):
    """The F1 part of the reward is a potential difference: its per-step deltas sum to the final F1
    minus the starting F1, whatever the agent did; the judge adds only at the end."""
    _, results = demo_results
    for cls, s, rec, _ in results:
        deltas = [r["delta_f1"] for r in rec.rewards]
        start = rec.rewards[0]["entity_f1"] - rec.rewards[0]["delta_f1"]
        assert sum(deltas) == pytest.approx(rec.entity_f1 - start, abs=1e-9), (cls.name, s.id)
        assert rec.rewards[-1]["entity_f1"] == pytest.approx(rec.entity_f1, abs=1e-9)
        judge = [r["judge"] for r in rec.rewards if r["judge"]]
        assert judge == ([1.0] if rec.passed else []), (cls.name, s.id)


def test_terse_says_done_on_action_rounds_and_bare_facts_on_report_rounds():
    s = next(x for x in DEMO if x.id == "demo/two_events_mixed")
    agent = Terse(DEMO)
    assert [agent.closing(s, i) for i in range(len(s.rounds))] == ["Done.", "Night Market."]
    rec, _ = play(Terse, s, DEMO, "tool")
    assert rec.passed and [m["content"] for m in rec.log if m["sender"] == "assistant" and m["kind"] == "message"] == \
        ["Done.", "Night Market."]


def test_round_facts_prefer_reports_and_fall_back_on_legacy_facts():
    demo = next(x for x in DEMO if x.id == "demo/compare_receipts")
    assert round_facts(demo, 0) == ["Lumen Hardware"]
    two = next(x for x in DEMO if x.id == "demo/two_events_mixed")
    legacy = dataclasses.replace(two, facts=("Night Market", "2026-05-02"),
                                 rounds=tuple(dataclasses.replace(r, report=()) for r in two.rounds))
    last = len(legacy.rounds) - 1
    assert round_facts(legacy, last) == list(legacy.facts) and all(round_facts(legacy, i) == [] for i in range(last))
    note = next(x for x in DEMO if x.id == "demo/note_from_receipt")
    assert claimable(note, 0) == ["13.48"]  # an action-only round still makes claims about what it wrote


def test_zoo_docstring_examples():
    import doctest

    from mmtsb_env.baselines import zoo

    result = doctest.testmod(zoo)
    assert result.attempted >= 3 and result.failed == 0


def test_a_terse_date_time_is_not_read_as_a_wrong_amount():
    """Last session's false negative: Terse answers "2024-05-27T23:34:19." to a round asking when
    an account was made, and "Done." to an invoice round whose totals it writes into a note; the
    date-time's parts (2024, 23, 34, 19) are not amounts, and no later total is contradicted."""
    import re

    timed = [s for s in NOMINAL if any(re.match(r"\d{4}-\d{2}-\d{2}T", f) for r in s.rounds for f in r.report)
             and any(as_number(f) is not None and "." in f for f in s.facts)][:3]
    assert timed
    for s in timed:
        rec, _ = play(Terse, s, [s], "tool")
        if s.id == "nominal/0255":  # the user gives up on Terse's bare reply there (open under #30); the judge's reading is what this test checks
            assert not any(c.get("kind") == "wrong_claim" for c in rec.verdict["criteria"] if not c["pass"]), s.id
            continue
        assert rec.passed, (s.id, [c for c in rec.verdict["criteria"] if not c["pass"]])


def test_a_date_time_reply_does_not_contradict_an_amount_written_into_a_note():
    from mmtsb_env.evaluation import RubricJudge
    from mmtsb_env.evaluation.llm_judge import example_evidence

    ev = example_evidence()
    ev.facts = ["1,826.99", "2024-05-27T23:34:19"]
    ev.grounds = ev.grounds + ["1,826.99", "2024-05-27T23:34:19"]
    ev.assistant_messages = ["2024-05-27T23:34:19.", "Done."]
    ev.diff = {"simple_note.notes": {"created": [{"id": 7, "title": "Lunch", "content": "Sunrise Diner $18.53; Clearwater $1,826.99"}]}}
    assert RubricJudge().information_accuracy(ev).passed
