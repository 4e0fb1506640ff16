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
