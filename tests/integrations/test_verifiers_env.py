"""verifiers environment: ``load_environment`` evaluated by verifiers itself, over real HTTP.

The "model" is an OpenAI-compatible chat-completions server on loopback. Its policy sees only what
a served model sees -- the messages and the ``tools`` verifiers sends -- and is either the oracle
(the scenario's reference solution; it reads the tool results from the conversation) or a wrong
agent that never acts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

vf = pytest.importorskip("verifiers")

import mmtsb_env  # noqa: E402
from mmtsb_env.baselines import OracleAgent  # noqa: E402
from mmtsb_env.integrations.verifiers_env import load_environment  # noqa: E402

SCENARIOS = ["demo/connectivity_goal_change", "demo/compare_receipts"]  # two rounds; two receipt images
OPTIONS = {"image_size": (32, 32), "max_images": 2}


def text_of(content):
    if isinstance(content, str):
        return content
    return "".join(p.get("text", "") for p in content or [] if p.get("type") == "text")


class OraclePolicy:
    """The oracle, told the conversation the way a served model gets it (no env ``info``)."""

    def __init__(self, env):
        self.by_prompt = {}
        for sid in SCENARIOS:
            _, info = env.reset(seed=0, options={"scenario": sid})
            self.by_prompt[text_of(info["messages"][1]["content"])] = sid
        self.agents = {sid: OracleAgent(mmtsb_env.load_suite("demo")) for sid in SCENARIOS}

    def __call__(self, messages, tools):
        sid = self.by_prompt[text_of(messages[1]["content"])]
        info = {"scenario_id": sid, "messages": messages, "tools": tools,
                "step": sum(m["role"] == "assistant" for m in messages),
                "round_index": sum(m["role"] == "user" and not text_of(m["content"]).startswith("<tool_response>")
                                   for m in messages) - 1}
        return self.agents[sid].act(None, info)


def wrong_policy(messages, tools):
    return "Sorry, I can't do anything on this phone."


class Model:
    """An OpenAI-compatible ``/v1/chat/completions`` on loopback; records every request.

    ``tool_parser=False`` answers like a server without one: tool calls stay in the text."""

    def __init__(self, policy, tool_parser=True):
        self.policy, self.requests = policy, []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                model.requests.append(request)
                action = model.policy(request["messages"], request.get("tools") or [])
                message, finish = {"role": "assistant", "content": action}, "stop"
                if action.startswith("{") and tool_parser:
                    call = json.loads(action)
                    message = {"role": "assistant", "content": None, "tool_calls": [{
                        "id": f"call_{len(model.requests)}", "type": "function",
                        "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}]}
                    finish = "tool_calls"
                body = json.dumps({"id": "x", "object": "chat.completion", "created": 0, "model": request["model"],
                                   "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                                   "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def evaluate(env, policy, tool_parser=True):
    model = Model(policy, tool_parser)
    try:
        client = vf.ClientConfig(api_base_url=model.url, api_key_var="MMTSB_TEST_NO_KEY", max_retries=0)
        results = env.evaluate_sync(client, model="stub", max_concurrent=1, state_columns=["mmtsb"])
    finally:
        model.close()
    return sorted(results["outputs"], key=lambda o: o["example_id"]), model.requests


@pytest.fixture(scope="module")
def environment():
    return load_environment(suite="demo", scenario_ids=SCENARIOS, max_turns=12, **OPTIONS)


def test_oracle_earns_f1_plus_verdict_and_a_silent_agent_earns_nothing(environment):
    oracle = OraclePolicy(mmtsb_env.make_env(suite="demo", **OPTIONS))
    outputs, requests = evaluate(environment, oracle)
    assert [o["reward"] for o in outputs] == [2.0, 2.0]  # entity F1 1.0 + passing verdict
    for o in outputs:
        assert o["metrics"]["entity_f1"] == 1.0 and o["metrics"]["judge_pass"] == 1.0
        assert o["metrics"]["turns"] >= 2
    # every request offered its scenario's tool schemas to the model as `tools`
    env = mmtsb_env.make_env(suite="demo", **OPTIONS)
    offered = {}
    for sid in SCENARIOS:
        _, info = env.reset(seed=0, options={"scenario": sid})
        offered[sid] = {t["function"]["name"]: t["function"]["parameters"] for t in info["tools"]}
    assert {len(tools) for tools in offered.values()} == {29, 38}
    for request in requests:
        sid = oracle.by_prompt[text_of(request["messages"][1]["content"])]
        assert {t["function"]["name"]: t["function"]["parameters"] for t in request["tools"]} == offered[sid]
    # the user's second round (the goal change) came from the scripted user, inside the rollout
    first = outputs[0]["completion"]
    user_turns = [text_of(m["content"]) for m in first if m["role"] == "user"]
    assert any("turn wifi back on" in t for t in user_turns)
    # tool results answer the model's own call ids
    calls = [json.loads(c)["id"] if isinstance(c, str) else c["id"]
             for m in first if m["role"] == "assistant" for c in m.get("tool_calls") or []]
    assert calls and calls == [m["tool_call_id"] for m in first if m["role"] == "tool"]
    # the receipts reached the model as image parts
    receipts = next(r for r in requests if "receipt" in text_of(r["messages"][1]["content"]))
    assert sum(p["type"] == "image_url" for p in receipts["messages"][1]["content"]) == 2

    wrong, _ = evaluate(environment, wrong_policy)
    assert [o["reward"] for o in wrong] == [0.0, 0.0]
    assert all(o["metrics"]["judge_pass"] == 0.0 for o in wrong)


def test_an_episode_verifiers_stops_is_still_judged():
    env = load_environment(suite="demo", scenario_ids=SCENARIOS[:1], max_turns=12, **OPTIONS)
    env.max_turns = 1  # verifiers' own cap: the model's first turn is its last (verifiers never plays it)
    outputs, _ = evaluate(env, OraclePolicy(mmtsb_env.make_env(suite="demo", **OPTIONS)))
    (out,) = outputs
    assert out["stop_condition"] == "max_turns_reached"
    assert out["metrics"]["turns"] == 0.0 and out["reward"] == 0.0
    verdict = out["mmtsb"]["verdict"]  # cleanup ended the episode and the judge gave its verdict
    assert verdict["pass"] is False and verdict["criteria"]


def test_calls_written_as_text_are_played_and_answered_as_user_turns():
    env = load_environment(suite="demo", scenario_ids=SCENARIOS[:1], max_turns=12, **OPTIONS)
    outputs, _ = evaluate(env, OraclePolicy(mmtsb_env.make_env(suite="demo", **OPTIONS)), tool_parser=False)
    (out,) = outputs
    assert out["reward"] == 2.0
    roles = [m["role"] for m in out["completion"]]
    assert "tool" not in roles
    responses = [text_of(m["content"]) for m in out["completion"] if m["role"] == "user"]
    assert responses[0] == '<tool_response>\n{"wifi": false}\n</tool_response>'


def test_vf_eval_runs_the_environment_by_its_module_name(tmp_path):
    vf_eval = shutil.which("vf-eval") or os.path.join(os.path.dirname(sys.executable), "vf-eval")
    model = Model(OraclePolicy(mmtsb_env.make_env(suite="demo", **OPTIONS)))
    args = {"scenario_ids": SCENARIOS, "max_turns": 12, "image_size": [32, 32], "max_images": 2}
    try:
        proc = subprocess.run([vf_eval, "mmtsb_env.integrations.verifiers_env", "-a", json.dumps(args), "-m", "stub",
                               "-b", model.url, "-k", "MMTSB_TEST_KEY", "-n", "2", "-r", "1", "--disable-tui",
                               "--save-results", "-o", str(tmp_path)],
                              capture_output=True, text=True, timeout=300, env={**os.environ, "MMTSB_TEST_KEY": "x"})
    finally:
        model.close()
    assert proc.returncode == 0, proc.stderr[-2000:]
    (results,) = tmp_path.rglob("results.jsonl")
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["reward"] for r in rows) == [2.0, 2.0]
    assert all(r["metrics"]["judge_pass"] == 1.0 for r in rows)


def test_tools_found_by_search_are_offered_from_the_next_turn():
    env = load_environment(suite="demo", scenario_ids=SCENARIOS[:1], max_turns=20, tool_search=True, **OPTIONS)
    outputs, requests = evaluate(env, OraclePolicy(mmtsb_env.make_env(suite="demo", tool_search=True, **OPTIONS)))
    assert outputs[0]["reward"] == 2.0
    offered = [{t["function"]["name"] for t in r["tools"]} for r in requests]
    assert offered[0] == {"api_docs_search_api_docs"}
    assert {"set_wifi_status", "set_cellular_service_status", "simple_note_create_note"} <= offered[-1]
    assert all(a <= b for a, b in zip(offered, offered[1:]))  # the list only grows


@pytest.mark.vllm
def test_a_tiny_model_served_by_vllm_plays_each_scenario_to_a_verdict(vllm_server):
    url, _ = vllm_server  # skips unless MMTSB_VLLM_PYTHON names the vLLM environment
    env = load_environment(suite="demo", scenario_ids=SCENARIOS, max_turns=3, **OPTIONS)
    client = vf.ClientConfig(api_base_url=url + "/v1", api_key_var="MMTSB_TEST_NO_KEY", max_retries=0)
    results = env.evaluate_sync(client, model="tiny", sampling_args={"max_tokens": 24, "temperature": 1.0},
                                 state_columns=["mmtsb"])
    outputs = results["outputs"]
    assert len(outputs) == 2
    for out in outputs:  # the server took our messages (images, tool schemas, tool results) on every turn
        assert out["error"] is None, out["error"]
        assert out["mmtsb"]["verdict"]["criteria"] and 1.0 <= out["metrics"]["turns"] <= 3.0
        assert out["reward"] == out["mmtsb"]["entity_f1"] + float(out["mmtsb"]["passed"])


def test_tool_mode_only():
    with pytest.raises(ValueError, match="tool calls: use mode='tool'"):
        load_environment(suite="demo", mode="code")
