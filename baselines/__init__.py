"""Baseline agents (installed as ``mmtsb_env.baselines``).

``OracleAgent`` (reference solutions), ``ReferenceOracleAgent`` (imported reference scenarios:
their expected changes through the tools), ``RandomAgent`` (sanity floor) and ``VLMAgent`` (any chat
backend: transformers, in-process vLLM, an OpenAI-compatible server), all buildable by name
through :func:`make_agent` (``"oracle"``, ``"reference-oracle"``, ``"random"``, ``"hf"``, ``"vllm"``, ``"openai"``).
"""

from . import vlm_agent  # noqa: F401  (registers the model-backed agents)
from .oracle import OracleAgent
from .random_agent import RandomAgent
from .reference_oracle import ReferenceOracleAgent
from .registry import AGENTS, make_agent, register_agent
from .vlm_agent import VLMAgent

__all__ = ["AGENTS", "OracleAgent", "RandomAgent", "ReferenceOracleAgent", "VLMAgent", "make_agent", "register_agent"]
