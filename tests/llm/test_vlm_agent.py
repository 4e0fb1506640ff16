"""VLMAgent: full episodes through the environment with real tiny models, and its prompt handling."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import make_agent
from mmtsb_env.baselines.vlm_agent import VLMAgent, make_backend
from mmtsb_env.envs.gym_env import MMToolSandboxEnv
from mmtsb_env.llm.base import BackendError, Completion, RecordedBackend
from mmtsb_env.runner import run_episode

DEMO = mmtsb_env.load_suite("demo")


def _scenario(sid: str):
    return next(s for s in DEMO if s.id == sid)


@pytest.mark.parametrize("tool_format", ["native", "compact"])
def test_full_episode_with_a_tiny_model(hf_backend, tool_format):
    agent = VLMAgent(hf_backend, tool_format=tool_format, sampling={"max_tokens": 8, "temperature": 1.0, "seed": 0})
    record = run_episode(_scenario("demo/compare_receipts"), agent, agent_name="hf")
    assert record.error is None and record.terminated and not record.truncated
    assert record.assistant_steps == len(record.agent_steps) >= 1
    step = record.agent_steps[0]
    assert len(step["token_ids"]) == len(step["logprobs"]) == step["usage"]["completion_tokens"]
    assert step["usage"]["prompt_tokens"] == len(step["prompt_token_ids"]) > 100
    assert step["context_images"] == 2  # both receipts reached the model
    # the assistant's garbage went to the user as a message; the scripted user closed the episode
    sent = [e for e in record.log if e["sender"] == "assistant" and e["kind"] == "message"]
    assert sent and sent[0]["content"] == step["action"]


def test_tool_formats_differ_in_prompt_size_and_tools_passed(idefics3_backend):
    env = MMToolSandboxEnv(suite="demo")
    _, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    native, compact = VLMAgent(idefics3_backend), VLMAgent(idefics3_backend, tool_format="compact")
    assert native.tools_for(info) == info["tools"] and compact.tools_for(info) is None
    names = [t["function"]["name"] for t in info["tools"]]
    compact_prompt = compact.build_messages(info)[0]["content"]
    assert all(f"- {n}(" in compact_prompt for n in names)
    assert "simple_note_create_note(title: string" in compact_prompt
    n_native = len(idefics3_backend.prompt_token_ids(native.build_messages(info), native.tools_for(info)))
    n_compact = len(idefics3_backend.prompt_token_ids(compact.build_messages(info), None))
    assert n_compact < n_native / 2
    assert VLMAgent(idefics3_backend, mode="code").tools_for(info) is None


def test_prefilled_tool_calls_from_garbage_become_observed_errors(idefics3_backend):
    agent = VLMAgent(idefics3_backend, sampling={"max_tokens": 6, "temperature": 1.0, "seed": 2, "prefill": "<tool_call>"})
    env = MMToolSandboxEnv(suite="demo", max_messages=8)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    action = agent.act(obs, info)
    assert action.startswith("<tool_call>")
    obs, reward, terminated, truncated, info = env.step(action)
    assert info["action_error"] and "tool_call" in info["action_error"]
    assert "Environment error" in obs["text"] and not terminated
    # the error is in the history the model sees next
    assert "tool_call" in json.dumps(agent.build_messages(info)[-1])


def test_native_calls_map_to_our_grammar_and_run(tmp_path):
    calls = Completion(tool_calls=[{"id": "", "name": "simple_note_create_note",
                                    "arguments": {"title": "Lunch expense", "content": "Blue Door Cafe, total $13.48"}}])
    agent = VLMAgent(RecordedBackend([calls, "Saved: Blue Door Cafe, total $13.48."]))
    record = run_episode(_scenario("demo/note_from_receipt"), agent)
    assert record.entity_f1 == 1.0 and record.passed
    assert record.agent_steps[0]["action"].startswith('[{"name": "simple_note_create_note"')


def test_code_mode_offers_no_tools_and_passes_python_through():
    code = "```python\nprint(simple_note_create_note(title='Lunch expense', content='Blue Door Cafe, total $13.48'))\n```"
    backend = RecordedBackend([code, "Saved the note: Blue Door Cafe, total $13.48."])
    record = run_episode(_scenario("demo/note_from_receipt"), VLMAgent(backend, mode="code"), env_kwargs={"mode": "code"})
    assert backend.calls[0]["tools"] is None and "```python" in backend.calls[0]["messages"][0]["content"]
    assert record.entity_f1 == 1.0 and record.passed


def test_text_tool_calls_are_parsed_when_the_backend_did_not():
    agent = VLMAgent(RecordedBackend(['Ok <tool_call>{"name": "a", "arguments": {}}</tool_call>']))
    assert json.loads(agent.act(None, {"messages": [{"role": "user", "content": "x"}], "tools": []})) == [{"name": "a", "arguments": {}}]


def test_context_is_trimmed_in_long_episodes(idefics3_backend):
    # every forced tool call is malformed, so the assistant keeps the turn until the message limit
    agent = VLMAgent(idefics3_backend, tool_format="compact", max_context_messages=3, max_images=1, keep_history=True,
                     sampling={"max_tokens": 3, "temperature": 1.0, "seed": 0, "prefill": "<tool_call>"})
    record = run_episode(_scenario("demo/contacts_note_progressive"), agent, env_kwargs={"max_messages": 10})
    assert record.error is None and record.truncated and record.steps >= 5
    assert all(s["context_messages"] <= 1 + 1 + 3 and s["context_images"] <= 1 for s in record.agent_steps)
    assert record.agent_steps[0]["context_images"] == 1
    last = agent.history[-1].messages
    assert last[0]["role"] == "system" and "earlier messages are not shown" in last[1]["content"]
    # the model's own malformed attempts alternate with the environment's errors
    assert len(last) == 5 and last[-1]["role"] == "user"
    assert all(("Environment error" in m["content"]) == (m["role"] == "user") for m in last[2:])


def test_system_prompt_override_and_our_notes():
    info = {"messages": [{"role": "system", "content": "ENV RULES"}, {"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": "t", "parameters": {}}}]}
    default = VLMAgent(RecordedBackend([])).build_messages(info)[0]["content"]
    assert default.startswith("ENV RULES") and "[image N]" in default and "function-calling interface" in default
    custom = VLMAgent(RecordedBackend([]), system_prompt="MINE").build_messages(info)[0]["content"]
    assert custom == "MINE"


def test_backend_errors_end_the_episode_as_errored():
    record = run_episode(DEMO[0], VLMAgent(RecordedBackend([])))
    assert record.error.startswith("backend error: recorded backend has no replies left") and not record.passed


def test_registry_builds_agents_and_shares_the_loaded_model(tiny_idefics3):
    a = make_agent("hf", scenarios=DEMO, model=str(tiny_idefics3), max_tokens=4, tool_format="compact")
    b = make_agent("hf", scenarios=DEMO, model=str(tiny_idefics3), max_tokens=4, tool_format="compact")
    assert isinstance(a, VLMAgent) and a.backend is b.backend and a.tool_format == "compact"
    assert a.sampling == {"max_tokens": 4, "seed": 0}
    record = run_episode(_scenario("demo/note_from_receipt"), a)
    assert record.error is None and record.terminated


def test_registry_errors_are_clear():
    with pytest.raises(ValueError, match="needs model=DIR"):
        make_agent("hf", scenarios=DEMO)
    with pytest.raises(ValueError, match="needs base_url"):
        make_agent("openai", scenarios=DEMO, model="some-name")
    backend = make_backend("vllm", "http://127.0.0.1:9/v1", served_model="m", max_retries=0)
    assert type(backend).__name__ == "OpenAICompatibleBackend" and backend.model == "m"
    with pytest.raises(BackendError, match="cannot reach the model server"):
        make_agent("vllm", scenarios=DEMO, model="http://127.0.0.1:9/v1", served_model="m", max_retries=0).act(
            None, {"messages": [{"role": "user", "content": "x"}], "tools": []})


def test_cli_eval_with_the_hf_agent(tiny_idefics3):
    import inspect
    import subprocess
    import sys

    from mmtsb_env.commands.eval import evaluate

    if "model" not in inspect.signature(evaluate).parameters:
        pytest.skip("mmtsb eval has no --model option yet (see docs/models.md)")
    out = subprocess.run([sys.executable, "-m", "mmtsb_env.cli", "eval", "--agent", "hf", "--model", str(tiny_idefics3),
                          "--suite", "demo", "--limit", "2", "--max-tokens", "8", "--no-user-judge"],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    summary = json.loads(out.stdout[out.stdout.index("{"): out.stdout.rindex("}") + 1])
    assert summary["episodes"] == 2 and summary["errored"] == 0 and summary["agent"] == "hf"
