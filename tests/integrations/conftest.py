"""Shared fixtures: one real demo episode (images, a tool call, a tool result) played by the oracle;
a tiny VLM; a vLLM server on it (only with ``MMTSB_VLLM_PYTHON``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent


@pytest.fixture(scope="session")
def episode_messages():
    """(info["messages"], info["tools"]) at the end of demo/compare_receipts: two images, one call."""
    env = mmtsb_env.make_env(suite="demo", image_size=(16, 16), max_images=1)
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    agent, done = OracleAgent(mmtsb_env.load_suite("demo")), False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    env.close()
    return info["messages"], info["tools"]


@pytest.fixture(scope="session")
def tiny_vlm(tmp_path_factory):
    """A tiny random Idefics3 (the SmolVLM architecture) built offline: (path, model, processor)."""
    pytest.importorskip("transformers")
    from transformers import AutoModelForImageTextToText

    from mmtsb_env.llm.processors import load_processor
    from mmtsb_env.llm.tiny import build_tiny_vlm

    path = build_tiny_vlm(tmp_path_factory.mktemp("tiny") / "idefics3", arch="idefics3")
    return path, AutoModelForImageTextToText.from_pretrained(path), load_processor(path)


@pytest.fixture(scope="session")
def sft_records():
    """Oracle episodes of two demo scenarios, images captured (what TrajectoryWriter exports)."""
    from mmtsb_env.runner import run_suite

    demo = mmtsb_env.load_suite("demo")
    chosen = [s for s in demo if s.id in ("demo/note_from_receipt", "demo/compare_receipts")]
    return run_suite(chosen, lambda: OracleAgent(demo), capture_images=True, agent_name="oracle",
                     env_kwargs={"image_size": (16, 16), "max_images": 1})


def canonical_action(text: str) -> str:
    """An oracle action written the way the tiny models' chat template renders the parsed call(s)."""
    import json

    from mmtsb_env.episode.actions import ToolCalls, parse_action

    action = parse_action(text)
    if not isinstance(action, ToolCalls):
        return text
    return "".join('<tool_call>{"name": "%s", "arguments": %s}</tool_call>' % (c.name, json.dumps(c.arguments, ensure_ascii=False))
                   for c in action.calls)


ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def vllm_server(tiny_vlm, tmp_path_factory):
    """(url, model path): vLLM's OpenAI server on the tiny Idefics3 (``MMTSB_VLLM_PYTHON``), with its
    dev endpoints (weight reloads), token-in-token-out endpoint and tool-call parser on."""
    if not os.environ.get("MMTSB_VLLM_PYTHON"):
        pytest.skip("MMTSB_VLLM_PYTHON is not set (see scripts/setup_vllm_env.sh)")
    path = tiny_vlm[0]
    port, log_path = _free_port(), tmp_path_factory.mktemp("vllm-log") / "server.log"
    env = {**os.environ, "VLLM_SERVER_DEV_MODE": "1", "VLLM_CPU_KVCACHE_SPACE": "1", "HF_HUB_OFFLINE": "1",
           "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = [os.environ["MMTSB_VLLM_PYTHON"], "-m", "vllm.entrypoints.openai.api_server", "--model", str(path),
               "--served-model-name", "tiny", "--host", "127.0.0.1", "--port", str(port), "--dtype", "float32",
               "--max-model-len", "16384", "--enforce-eager", "--limit-mm-per-prompt", '{"image": 4}', "--seed", "0",
               "--no-enable-chunked-prefill", "--max-num-batched-tokens", "16384",
               "--logprobs-mode", "processed_logprobs", "--enable-scale-out",
               "--enable-auto-tool-choice", "--tool-call-parser", "hermes"]
    with open(log_path, "w") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            if proc.poll() is not None:
                pytest.fail(f"vLLM server exited with {proc.returncode}:\n{log_path.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/v1/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"vLLM server not ready after 600 s:\n{log_path.read_text()[-3000:]}")
            time.sleep(1)
        yield url, path
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
