"""OracleAgent with a solution tool the episode cannot reach: it does not search until the message
cap, it plays the rest of the solution and says in one line which tool it lacked."""

from __future__ import annotations

import dataclasses

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.runner import run_suite

OUTSIDE = "calendar_manage_event"  # a real tool of another app than the scenario's (simple_note)


def _needs_outside_tool():
    scenario = mmtsb_env.load_suite("demo")[3]
    assert scenario.domains == ("simple_note",)
    r = scenario.rounds[0]
    steps = ({"name": OUTSIDE, "arguments": {"title": "Call Priya"}, "save_as": "ev"},
             {"name": "simple_note_search_notes", "arguments": {"query": {"$ref": "ev.id"}}},  # needs the lost result
             *r.solution)
    return dataclasses.replace(scenario, rounds=(dataclasses.replace(r, solution=steps), *scenario.rounds[1:]))


@pytest.mark.parametrize("env_kwargs", [{"tool_search": True, "tool_universe": "scenario"}, {"tool_search": False}],
                         ids=["search", "offered"])
def test_unreachable_tool_is_reported_once_and_the_rest_is_played(env_kwargs):
    scenario = _needs_outside_tool()
    agents = []

    def make():
        agents.append(OracleAgent([scenario]))
        return agents[-1]

    record = run_suite([scenario], make, env_kwargs=env_kwargs)[0]
    agent = agents[0]
    assert agent.unreachable == {scenario.id: [OUTSIDE]}
    names = [c["name"] for c in record.calls]
    assert OUTSIDE not in names
    searches = names.count("api_docs_search_api_docs")
    assert searches <= 4  # one short search for the missing tool, one per other tool
    # the rest of the solution ran (the dependent search was skipped, the note still deleted)
    assert names.count("simple_note_search_notes") == 1 and "simple_note_delete_note" in names
    assert record.entity_f1 == 1.0 and not record.truncated
    said = [m["content"] for m in record.messages if m["role"] == "assistant" and isinstance(m.get("content"), str)]
    assert any(f"needs {OUTSIDE}, which this episode's tools do not include" in s for s in said)
