"""Agents by name, so the CLI and distributed runners can build them: ``make_agent("oracle", ...)``.

Model-backed agents register themselves here too (``register_agent("vllm")``).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from ..scenario.model import Scenario

AgentFactory = Callable[..., Any]
AGENTS: dict[str, AgentFactory] = {}


def register_agent(name: str) -> Callable[[AgentFactory], AgentFactory]:
    """Register ``factory(scenarios=..., mode=..., seed=..., **options) -> agent`` under ``name``."""

    def register(factory: AgentFactory) -> AgentFactory:
        AGENTS[name] = factory
        return factory

    return register


def make_agent(name: str, *, scenarios: Sequence[Scenario], mode: str = "tool", seed: int = 0, **options: Any) -> Any:
    try:
        factory = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; available: {', '.join(sorted(AGENTS))}") from None
    return factory(scenarios=scenarios, mode=mode, seed=seed, **options)


@register_agent("oracle")
def _oracle(*, scenarios: Sequence[Scenario], mode: str = "tool", seed: int = 0, **_: Any) -> Any:
    from .oracle import OracleAgent

    return OracleAgent(scenarios, mode=mode)


@register_agent("reference-oracle")
def _reference_oracle(*, scenarios: Sequence[Scenario], mode: str = "tool", seed: int = 0, **options: Any) -> Any:
    from .reference_oracle import ReferenceOracleAgent

    return ReferenceOracleAgent(scenarios, mode=mode, search=options.get("search"))


@register_agent("random")
def _random(*, scenarios: Sequence[Scenario], mode: str = "tool", seed: int = 0, **_: Any) -> Any:
    from .random_agent import RandomAgent

    return RandomAgent(seed=seed)
