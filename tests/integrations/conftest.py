"""Shared fixtures: one real demo episode (images, a tool call, a tool result) played by the oracle."""

from __future__ import annotations

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
