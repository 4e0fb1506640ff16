"""Baseline agents (installed as ``mmtsb_env.baselines``): oracle and random sanity baselines, and a registry."""

from .oracle import OracleAgent
from .random_agent import RandomAgent
from .registry import AGENTS, make_agent, register_agent

__all__ = ["AGENTS", "OracleAgent", "RandomAgent", "make_agent", "register_agent"]
