"""Options shared by the Gymnasium and PettingZoo views, and scenario selection on reset."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Sequence

from ..episode.engine import EpisodeConfig
from ..scenario.model import Scenario
from ..scenario.suites import find_scenario, load_suite
from .observe import ObsConfig


@dataclass(frozen=True)
class EnvOptions:
    """Everything besides the suite that configures an env.

    Attributes:
        mode: ``"tool"`` (JSON tool calls) or ``"code"`` (python blocks).
        toolbox: tool catalogue variant (``"full"``, ``"medium"``, ``"compact"``, ``"mini"``).
        tool_search: start with the search tool only and discover the rest.
        max_images: image slots in the observation tensor (0: no tensors, nothing is drawn for them).
        image_size: (height, width) of each slot; images are letterboxed.
        message_images: how images appear in ``info["messages"]``: ``"url"`` (``image_url`` parts
            with PNG data URLs, ready for an OpenAI-style server) or ``"id"`` (``{"type": "image",
            "image_id": N}`` parts; nothing is encoded -- for agents that never look, or that read
            pixels from ``info["images"]``).
        max_messages: message cap of an episode (default: the scenario's, 100).
        judge_weight: weight of the terminal verdict in the reward.
        judge: terminal judge (default: the deterministic rubric judge).
        code_timeout_s: wall-clock limit per code execution.
        code_memory_mb: memory cap of the code sandbox's worker process (default 1024 MiB).
        code_isolation: ``"process"`` (default: a clean worker process) or ``"thread"`` (in-process,
            for trusted code only; see docs/security.md).
    """

    mode: str = "tool"
    toolbox: str = "full"
    tool_search: bool = False
    max_images: int = 4
    image_size: tuple[int, int] = (336, 336)
    message_images: str = "url"
    max_messages: int | None = None
    judge_weight: float = 1.0
    judge: Any = None
    code_timeout_s: float = 5.0
    code_memory_mb: int | None = None
    code_isolation: str = "process"

    @classmethod
    def from_kwargs(cls, mode: str, kwargs: dict[str, Any]) -> "EnvOptions":
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown env option(s) {unknown}; valid options: {sorted(known)}")
        return cls(mode=mode, **kwargs)

    def episode_config(self) -> EpisodeConfig:
        return EpisodeConfig(
            mode=self.mode, toolbox=self.toolbox, tool_search=self.tool_search, max_messages=self.max_messages,
            judge_weight=self.judge_weight, code_timeout_s=self.code_timeout_s, code_memory_mb=self.code_memory_mb,
            code_isolation=self.code_isolation,
        )

    def obs_config(self) -> ObsConfig:
        return ObsConfig(max_images=self.max_images, height=self.image_size[0], width=self.image_size[1],
                         message_images=self.message_images)


def resolve_scenarios(suite: str | Sequence[Scenario] | None, scenarios: Sequence[Scenario] | None) -> list[Scenario]:
    """The scenarios an env draws from: explicit ones, a list given as ``suite``, or a suite by name/folder."""
    if scenarios is not None:
        chosen = list(scenarios)
    elif isinstance(suite, (list, tuple)):
        chosen = list(suite)
    else:
        chosen = load_suite(suite or "demo")
    if not chosen:
        raise ValueError("no scenarios to play")
    return chosen


def pick_scenario(scenarios: Sequence[Scenario], options: dict[str, Any] | None, draw: Any) -> Scenario:
    """``options["scenario"]`` (an id or a Scenario) if given, else ``scenarios[draw(len)]``."""
    options = options or {}
    if "scenario" in options:
        chosen = options["scenario"]
        return chosen if isinstance(chosen, Scenario) else find_scenario(scenarios, str(chosen))
    return scenarios[int(draw(len(scenarios)))]
