"""Code mode end to end: python blocks as actions, execute_code in tool mode, calls from code logged."""

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.runner import run_episode

DEMO = mmtsb_env.load_suite("demo")


@pytest.mark.parametrize("scenario", DEMO, ids=[s.id for s in DEMO])
def test_oracle_in_code_mode_solves_every_demo_scenario(scenario):
    record = run_episode(scenario, OracleAgent(DEMO, mode="code"), env_kwargs={"mode": "code"})
    assert record.error is None
    assert record.entity_f1 == 1.0 and record.passed, record.verdict
    assert any(c["via"] == "code" and c["ok"] for c in record.calls)


def test_repl_state_persists_and_tool_errors_are_catchable():
    env = mmtsb_env.make_env(suite="demo", mode="code")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    obs, *_ = env.step("```python\nnotes = simple_note_search_notes(query='')\nlen(notes)\n```")
    assert "Execution result:\n5" in obs["text"]
    obs, *_ = env.step("```python\ntry:\n    simple_note_show_note(note_id=10**9)\nexcept Exception as e:\n    print('caught', e)\n```")
    assert "caught" in obs["text"] and "does not exist" in obs["text"]
    obs, *_ = env.step("```python\nprint(len(notes))\n```")
    assert "5" in obs["text"]
    calls = [c for c in env.episode.calls if c.seat == "assistant"]
    assert [c.outcome.name for c in calls] == ["simple_note_search_notes", "simple_note_show_note"]
    assert calls[1].outcome.ok is False and calls[0].via == "code"


def test_hostile_code_is_contained_and_world_unchanged():
    env = mmtsb_env.make_env(suite="demo", mode="code", code_timeout_s=1.0)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    for code in ["import os\nos.system('id')", "import datetime\ndatetime.sys.modules['os']", "while True:\n    pass",
                 "simple_note_create_note.__code__ = None", "open('/etc/passwd').read()"]:
        obs, reward, terminated, truncated, info = env.step(f"```python\n{code}\n```")
        assert info["action_error"] and not terminated and reward == 0.0
    assert env.episode.world.diff() == {}
    obs, *_ = env.step("```python\n1 + 1\n```")
    assert obs["text"].endswith("2")


def test_execute_code_tool_in_tool_mode():
    env = mmtsb_env.make_env(suite="demo", mode="tool")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert "execute_code" in [t["function"]["name"] for t in env.episode.offered_tools("assistant")]
    code = "r = simple_note_create_note(title='From code', content='x')\nr['note_id']"
    obs, reward, *_ = env.step(json.dumps({"name": "execute_code", "arguments": {"code": code}}))
    result = json.loads(obs["text"].split(": ", 1)[1])
    assert result["ok"] and result["output"].strip().isdigit()
    assert env.episode.world.diff()["simple_note.notes"].created[0]["title"] == "From code"
    assert [c.outcome.name for c in env.episode.calls if c.seat == "assistant"] == ["simple_note_create_note", "execute_code"]


def test_calls_from_code_are_logged_but_hidden_and_uncounted():
    env = mmtsb_env.make_env(suite="demo", mode="code")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    before = env.episode.message_count
    obs, *_ = env.step("```python\nfor _ in range(3):\n    simple_note_show_note(note_id=1)\n```")
    ep = env.episode
    internal = [e for e in ep.log if e.visible_to == ("environment",)]
    assert [e.kind for e in internal] == ["tool_calls", "tool_result"] * 3
    assert internal[0].tool_calls[0]["name"] == "simple_note_show_note" and '"id": 1' in internal[1].content
    assert ep.message_count == before + 2  # the code block and its result
    assert obs["text"] == "Execution result:\n(no output)"
    assert not any("simple_note_show_note" in str(m.get("content")) for m in env.episode.transcripts["assistant"].messages[3:])
