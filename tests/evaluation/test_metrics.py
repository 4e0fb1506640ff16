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


@pytest.mark.parametrize("fails, primary, classes", [
    ({"information_accuracy": "missing_facts"}, "factual_error", ["factual_error"]),
    ({"information_accuracy": "wrong_values"}, "factual_error", ["factual_error"]),
    ({"task_completion": "no_progress"}, "task_failure", ["task_failure"]),
    ({"task_completion": "missing_changes"}, "task_failure", ["task_failure"]),
    ({"instruction_following": "wrong_details"}, "incomplete_execution", ["incomplete_execution"]),
    ({"instruction_following": "rounds_missing"}, "incomplete_execution", ["incomplete_execution"]),
    ({"tool_use_validity": "repeated_failures"}, "uncontrolled_behaviour", ["uncontrolled_behaviour"]),
    ({"no_side_effects": "collateral"}, "uncontrolled_behaviour", ["uncontrolled_behaviour"]),
    ({"ui_shown": ""}, "other", ["other"]),
    # the paper's precedence: task failure > factual error > incomplete execution > uncontrolled
    ({"no_side_effects": "collateral", "information_accuracy": "missing_facts", "task_completion": "no_progress"},
     "task_failure", ["task_failure", "factual_error", "uncontrolled_behaviour"]),
    ({"no_side_effects": "collateral", "information_accuracy": "hedged"}, "factual_error",
     ["factual_error", "uncontrolled_behaviour"]),
    ({"instruction_following": "not_closed", "tool_use_validity": "failed_calls"}, "incomplete_execution",
     ["incomplete_execution", "uncontrolled_behaviour"]),
    # an LLM verdict has no kinds: the criteria alone decide
    ({"task_completion": ""}, "task_failure", ["task_failure"]),
])
def test_failure_taxonomy_mapping(fails, primary, classes):
    verdict = crit(**fails)
    if "ui_shown" in fails:
        verdict["criteria"].append({"criterion": "ui_shown", "pass": False})
    assert classify_failure(verdict) == (primary, classes)


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
    assert m["avg_assistant_steps"] == 5.0 and m["ui"] is None
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
    assert m["tool_recall"] == {"episodes": 1, "surfaced": 1.0, "invoked": pytest.approx(2 / 3, abs=1e-6)}
    # recall counts only where discovery is in play: "y" never called the search tool (and has no flag)
    records[1]["metadata"] = {"tool_search": True}
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
    assert b["flow_type"]["lookup"] == {"n": 2, "errored": 0, "agent_sr": 0.5, "mean_entity_f1": 0.75, "avg_steps": 3.0,
                                   "avg_assistant_steps": 3.0, "user_sr": None}
    assert b["flow_type"]["compare"]["errored"] == 1 and b["flow_type"]["compare"]["agent_sr"] is None
    assert b["image_category"]["receipt"]["n"] == 2 and b["image_category"]["poster"]["agent_sr"] == 1.0
    assert list(b["num_images"]) == ["1", "2", "10"]  # numeric order
    assert b["challenge_type"]["(unset)"]["n"] == 1


def test_metrics_on_real_records_with_scenarios():
    scenarios = mmtsb_env.load_suite("demo")
    records = run_suite(scenarios[:4], lambda: OracleAgent(scenarios))
    m = compute_metrics(records, scenarios)
    assert m["agent_sr"] == 1.0 and m["tool_recall"] == {"episodes": 0, "surfaced": None, "invoked": None}  # no discovery
    # steps in the paper's unit: both roles' messages, tool calls and results (the step cap's unit)
    # one meaning of "steps": a record's steps are the paper's; the assistant's actions are named apart
    for r in records:
        counted = [e for e in r.log if e["visible_to"] != ["environment"]]
        assert len(counted) == r.steps > r.assistant_steps > 0
    assert m["avg_steps"] == pytest.approx(sum(len([e for e in r.log if e["visible_to"] != ["environment"]]) for r in records) / 4)
    assert m["avg_assistant_steps"] == pytest.approx(sum(r.assistant_steps for r in records) / 4)
    with_search = run_suite(scenarios[:2], lambda: OracleAgent(scenarios), env_kwargs={"tool_search": True})
    searched = compute_metrics(with_search, scenarios)
    # with discovery on, the oracle searches for each tool before calling it: every reference tool surfaced and invoked
    assert searched["tool_recall"]["episodes"] == 2 and searched["tool_recall"]["invoked"] == 1.0 and searched["agent_sr"] == 1.0
    assert searched["tool_recall"]["surfaced"] == 1.0
    assert reference_tools(scenarios[3]) == ["simple_note_search_notes", "simple_note_delete_note"]
    assert set(m["breakdowns"]["flow_type"]) == {s.metadata["flow_type"] for s in scenarios[:4]}


def test_ui_sr_is_reported_apart_from_agent_sr():
    ui_crit = lambda ok: [{"criterion": "ui_shown", "pass": ok}, {"criterion": "ui_choice_acted_on", "pass": ok}]
    v1 = crit(); v1["criteria"] += ui_crit(False); v1["pass"] = False      # task right, UI wrong
    v2 = crit(information_accuracy="wrong_values"); v2["criteria"] += ui_crit(True)
    v3 = crit(); v3["criteria"] += ui_crit(True)
    m = compute_metrics([rec("u1", False, 1.0, 3, verdict=v1), rec("u2", False, 0.8, 3, verdict=v2),
                         rec("u3", True, 1.0, 3, verdict=v3), rec("t", True, 1.0, 3)])
    assert m["ui"] == {"episodes": 3, "agent_sr": pytest.approx(2 / 3, abs=1e-6), "ui_sr": pytest.approx(2 / 3, abs=1e-6)}
    assert m["agent_sr"] == 0.5 and m["failures"]["primary"]["other"] == 1


def test_records_written_when_steps_counted_the_assistant_read_back_in_the_papers_unit():
    from mmtsb_env.runner import EpisodeRecord

    scenarios = mmtsb_env.load_suite("demo")
    record = run_suite(scenarios[:1], lambda: OracleAgent(scenarios))[0]
    old = record.to_json()
    old["steps"] = old.pop("assistant_steps")  # the old layout: one "steps", the driving loop's count
    back = EpisodeRecord.from_json(old)
    assert (back.steps, back.assistant_steps) == (record.steps, record.assistant_steps)
    assert back.steps > back.assistant_steps
