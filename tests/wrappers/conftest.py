"""Helpers for wrapper tests: small image tensors keep them fast."""

from __future__ import annotations

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

DEMO = mmtsb_env.load_suite("demo")
SMALL = {"suite": "demo", "image_size": (32, 32)}


def make(**kwargs):
    return mmtsb_env.make_env(**{**SMALL, **kwargs})


def play(env, scenario, seed=0, agent=None, limit=100):
    """Play one episode with the oracle; returns (observations, rewards, last info)."""
    agent = agent or OracleAgent(DEMO)
    obs, info = env.reset(seed=seed, options={"scenario": scenario})
    observations, rewards, done = [obs], [], False
    while not done and len(rewards) < limit:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        observations.append(obs)
        rewards.append(reward)
        done = terminated or truncated
    return observations, rewards, info
