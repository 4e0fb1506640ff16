"""Run metrics: rates with errored episodes apart, tool recall, search calls, tokens, the failure
taxonomy mapping, and breakdowns by scenario metadata."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.evaluation import classify_failure, compute_metrics
from mmtsb_env.evaluation.metrics import reference_tools, tool_sets, token_usage
from mmtsb_env.runner import run_suite


def crit(**fails):
    names = ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy")
    out = []
    for n in names:
        c = {"criterion": n, "pass": n not in fails}
        if n in fails and fails[n]:
            c["kind"] = fails[n]
        out.append(c)
    return {"pass": not fails, "criteria": out}


def rec(sid, passed, f1, steps, *, verdict=None, error=None, meta=None, calls=(), tools=(), ref=(), usage=None, user=None):
    return {
        "scenario_id": sid, "passed": passed, "entity_f1": f1, "steps": steps, "error": error,
        "verdict": verdict if verdict is not None else crit(), "metadata": meta or {}, "calls": list(calls),
        "tools": [{"type": "function", "function": {"name": t}} for t in tools], "reference_tools": list(ref),
        "agent_steps": [{"usage": u} for u in (usage or [])], "user_verdict": user,
    }


def call(name, ok=True, result=None, seat="assistant"):
    return {"seat": seat, "name": name, "ok": ok, "result": result}


@pytest.mark.parametrize("fails, entity, primary, classes", [
    ({"information_accuracy": "missing_facts"}, None, "factual_error", ["factual_error"]),
    ({"task_completion": "wrong_values"}, None, "factual_error", ["factual_error"]),
    ({"task_completion": "no_progress"}, None, "task_failure", ["task_failure"]),
    ({"task_completion": "missing_changes"}, None, "incomplete_execution", ["incomplete_execution"]),
    ({"instruction_following": "rounds_missing"}, None, "incomplete_execution", ["incomplete_execution"]),
    ({"instruction_following": "truncated"}, None, "uncontrolled_behaviour", ["uncontrolled_behaviour"]),
    ({"tool_use_validity": "repeated_failures"}, None, "uncontrolled_behaviour", ["uncontrolled_behaviour"]),
    ({"no_side_effects": "collateral"}, None, "uncontrolled_behaviour", ["uncontrolled_behaviour"]),
    # precedence: uncontrolled > factual > task failure > incomplete
    ({"no_side_effects": "collateral", "information_accuracy": "missing_facts", "task_completion": "no_progress"}, None,
     "uncontrolled_behaviour", ["uncontrolled_behaviour", "factual_error", "task_failure"]),
    ({"task_completion": "no_progress", "instruction_following": "not_closed"}, None, "task_failure",
     ["task_failure", "incomplete_execution"]),
    # an LLM verdict has no kinds: the entity score decides
    ({"task_completion": ""}, {"groups": [{"n_expected": 2, "pairs": []}]}, "task_failure", ["task_failure"]),
    ({"task_completion": ""}, {"groups": [{"n_expected": 2, "pairs": [[0, 0, 0.5], [1, 1, 1.0]]}]}, "factual_error", ["factual_error"]),
    ({"task_completion": ""}, {"groups": [{"n_expected": 2, "pairs": [[0, 0, 1.0]]}]}, "incomplete_execution", ["incomplete_execution"]),
])
def test_failure_taxonomy_mapping(fails, entity, primary, classes):
    assert classify_failure(crit(**fails), entity) == (primary, classes)


def test_passing_or_missing_verdicts_have_no_failure_class():
    assert classify_failure(crit()) == (None, [])
    assert classify_failure({}) == (None, [])
    assert classify_failure({"pass": False, "criteria": []}) == ("task_failure", ["task_failure"])


def test_rates_exclude_errored_episodes():
    records = [
        rec("a", True, 1.0, 4, user={"pass": True}),
        rec("b", False, 0.5, 6, verdict=crit(information_accuracy="missing_facts"), user={"pass": False}),
        rec("c", False, 0.0, 2, error="backend error: connection refused"),
    ]
    m = compute_metrics(records)
    assert (m["episodes"], m["agent_sr"], m["mean_entity_f1"], m["avg_steps"], m["user_sr"]) == (3, 0.5, 0.75, 5.0, 0.5)
    assert m["errored"] == {"count": 1, "episodes": [{"scenario_id": "c", "error": "backend error: connection refused"}]}
    assert m["criteria_pass_rates"]["information_accuracy"] == 0.5 and m["criteria_pass_rates"]["task_completion"] == 1.0
    assert m["failures"]["primary"]["factual_error"] == 1 and m["failures"]["failed"] == 1


def test_tool_recall_search_calls_and_tokens():
    search = call("api_docs_search_api_docs", result={"found": 2, "tools": [{"tool_name": "b"}, {"tool_name": "c"}]})
    records = [
        # ref a, b, c: a offered at the end, b and c found by search, only a and c called successfully
        rec("x", True, 1.0, 3, ref=["a", "b", "c"], tools=["a"], calls=[search, call("a"), call("b", ok=False), call("c")],
            usage=[{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}, {"prompt_tokens": 50, "completion_tokens": 5}]),
        # ref d: neither surfaced nor invoked
        rec("y", False, 0.0, 1, verdict=crit(task_completion="no_progress"), ref=["d"], tools=["a"]),
        # no reference tools: left out of recall
        rec("z", True, 1.0, 1),
    ]
    m = compute_metrics(records)
    assert m["tool_recall"] == {"episodes": 2, "surfaced": 0.5, "invoked": pytest.approx(1 / 3, abs=1e-6)}
    assert m["search_calls"] == {"total": 1, "mean": pytest.approx(1 / 3, abs=1e-6)}
    assert m["tokens"] == {"episodes_reporting": 1, "prompt_tokens": 150, "completion_tokens": 15, "total_tokens": 165,
                           "mean_total_per_episode": 165.0}  # the 2nd step's total is prompt + completion
    sets = tool_sets(records[0])
    assert sets["searched"] == {"b", "c"} and sets["invoked"] == {"a", "c", "api_docs_search_api_docs"}
    assert token_usage(records[1]) is None


def test_breakdowns_by_metadata():
    records = [
        rec("a", True, 1.0, 2, meta={"flow_type": "lookup", "challenge_type": "none", "image_arrival": "upfront",
                                     "image_categories": ["receipt", "poster"], "num_images": 2}),
        rec("b", False, 0.5, 4, verdict=crit(task_completion="missing_changes"),
            meta={"flow_type": "lookup", "challenge_type": "goal_change", "image_arrival": "late",
                  "image_categories": ["receipt"], "num_images": 1}),
        rec("c", False, 0.0, 3, error="agent error", meta={"flow_type": "compare", "num_images": 10}),
    ]
    b = compute_metrics(records)["breakdowns"]
    assert b["flow_type"]["lookup"] == {"n": 2, "errored": 0, "agent_sr": 0.5, "mean_entity_f1": 0.75, "avg_steps": 3.0, "user_sr": None}
    assert b["flow_type"]["compare"]["errored"] == 1 and b["flow_type"]["compare"]["agent_sr"] is None
    assert b["image_category"]["receipt"]["n"] == 2 and b["image_category"]["poster"]["agent_sr"] == 1.0
    assert list(b["num_images"]) == ["1", "2", "10"]  # numeric order
    assert b["challenge_type"]["(unset)"]["n"] == 1


def test_metrics_on_real_records_with_scenarios():
    scenarios = mmtsb_env.load_suite("demo")
    records = run_suite(scenarios[:4], lambda: OracleAgent(scenarios))
    m = compute_metrics(records, scenarios)
    assert m["agent_sr"] == 1.0 and m["tool_recall"]["invoked"] == 1.0 and m["tool_recall"]["surfaced"] == 1.0
    assert m["tool_recall"]["episodes"] == 4
    assert reference_tools(scenarios[3]) == ["simple_note_search_notes", "simple_note_delete_note"]
    assert set(m["breakdowns"]["flow_type"]) == {s.metadata["flow_type"] for s in scenarios[:4]}
