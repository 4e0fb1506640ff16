"""Baseline agents (installed as ``mmtsb_env.baselines``): oracle and random sanity baselines."""

from .oracle import OracleAgent
from .random_agent import RandomAgent

__all__ = ["OracleAgent", "RandomAgent"]
