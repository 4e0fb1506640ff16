"""Options shared by the Gymnasium and PettingZoo views, harness presets, and scenario selection.

Every option is checked when the env is built: a bad value raises one ``ValueError`` line that
names the option, the value and what is valid (``EnvOptions.check``). The CLI runs the same check
before any episode starts.

A *harness* (``harness="paper"``, see :data:`HARNESSES` and ``docs/harness.md``) is a named set of
option values; options given explicitly override the preset's.

>>> EnvOptions.from_kwargs(None, {"harness": "paper"}).tool_universe
'toolbox'
>>> EnvOptions.from_kwargs(None, {"toolbox": "huge"})
Traceback (most recent call last):
...
ValueError: toolbox='huge' is not valid; choose one of: full, medium, compact, mini
"""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, fields
from typing import Any, Sequence

from ..episode.engine import EpisodeConfig
from ..scenario.model import Scenario
from ..scenario.suites import BUILTIN_SUITES, find_scenario, lazy_suite, load_suite
from .observe import ObsConfig

MODES = ("tool", "code")
TOOL_UNIVERSES = ("scenario", "toolbox")
TOOL_RANKERS = ("bm25", "keyword", "hybrid")
MESSAGE_IMAGES = ("url", "id")
INFO_TRANSFERS = ("new", "full")
CODE_ISOLATIONS = ("process", "thread")
CODE_JAILS = ("required", "off")
ENTITY_SCOPES = ("auto", "all", "reference")
PAPER_TIME_LIMIT_S = 600.0

# The interface settings of the paper (section 6.3) plus its default harness (section 4.3). Search
# ranks with the reference's keyword scoring everywhere, as in the paper (tool_ranker="bm25" is ours).
HARNESSES: dict[str, dict[str, Any]] = {
    "tool": {"mode": "tool", "tool_search": False, "coding_tool": False, "tool_universe": "scenario"},
    "search": {"mode": "tool", "tool_search": True, "coding_tool": False, "tool_universe": "toolbox",
               "tool_ranker": "keyword"},
    "search_code": {"mode": "tool", "tool_search": True, "coding_tool": True, "tool_universe": "toolbox",
                    "tool_ranker": "keyword"},
    "code": {"mode": "code", "tool_search": False, "coding_tool": False, "tool_universe": "scenario"},
    "paper": {"mode": "code", "tool_search": True, "coding_tool": False, "tool_universe": "toolbox",
              "tool_ranker": "keyword", "working_set": 100, "max_steps": 100, "time_limit_s": PAPER_TIME_LIMIT_S},
}


def _toolboxes() -> tuple[str, ...]:
    from ..tools.variants import TOOLBOXES

    return tuple(TOOLBOXES)


def _choices(name: str, value: Any, valid: Sequence[str]) -> None:
    if value not in valid:
        raise ValueError(f"{name}={value!r} is not valid; choose one of: {', '.join(valid)}")


def _integer(name: str, value: Any, *, minimum: int, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        extra = " (or None)" if optional else ""
        raise ValueError(f"{name}={value!r} is not valid; it must be an integer >= {minimum}{extra}")


def _number(name: str, value: Any, *, positive: bool, optional: bool = False) -> None:
    if value is None and optional:
        return
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (value <= 0 if positive else value < 0):
        bound = "> 0" if positive else ">= 0"
        extra = " (or None)" if optional else ""
        raise ValueError(f"{name}={value!r} is not valid; it must be a number {bound}{extra}")


def _flag(name: str, value: Any) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name}={value!r} is not valid; it must be True or False")


@dataclass(frozen=True)
class EnvOptions:
    """Everything besides the suite that configures an env.

    Attributes:
        harness: the preset these options started from (``None``: none; see :data:`HARNESSES`).
        mode: ``"tool"`` (JSON tool calls) or ``"code"`` (python blocks).
        toolbox: tool catalogue variant (``"full"``, ``"medium"``, ``"compact"``, ``"mini"``).
        tool_search: start with the pinned tools only and discover the rest with the search tool.
        tool_universe: what the assistant can reach: ``"scenario"`` (the tools of the scenario's
            domains) or ``"toolbox"`` (every assistant tool of the toolbox, the paper's setting;
            writes outside the scenario's domains then count as collateral damage). Default:
            ``"toolbox"`` with tool search, ``"scenario"`` without.
        tool_ranker: how the search tool ranks: ``"bm25"`` (ours), ``"keyword"`` (the reference
            implementation's substring scoring) or ``"hybrid"`` (BM25 fused with embeddings).
        working_set: size of the LRU set of tools found by search (pinned tools included).
        coding_tool: pin ``execute_code`` next to the search tool (the paper's search + coding setting).
        max_images: image slots in the observation tensor (0: no tensors, nothing is drawn for them).
        image_size: (height, width) of each slot, or one int for a square; images are letterboxed.
        message_images: how images appear in ``info["messages"]``: ``"url"`` (``image_url`` parts
            with PNG data URLs, ready for an OpenAI-style server) or ``"id"`` (``{"type": "image",
            "image_id": N}`` parts; nothing is encoded -- for agents that never look, or that read
            pixels from ``info["images"]``).
        info_transfer: what ``info`` carries when it is pickled -- sent by an AsyncVectorEnv worker
            or a server, copied in-process it stays whole: ``"new"`` (default) sends
            ``info["messages"]`` as only the messages this step added (a :class:`MessageHistory`
            with ``start``; :func:`~mmtsb_env.envs.observe.extend_history` rebuilds the whole
            list) and ``info["images"]`` as image ids (the pixels are in ``obs["images"]``);
            ``"full"`` sends the whole history and the drawn images.
        max_messages: message cap of an episode (default: the scenario's, 100).
        max_steps: cap on the actions of both seats together (the paper's 100 interaction steps).
        time_limit_s: wall-clock limit per episode; when passed the episode ends as truncated and
            is judged as it stands.
        judge_weight: weight of the terminal verdict in the reward.
        judge: terminal judge (default: the deterministic rubric judge); an object with ``evaluate``.
        code_timeout_s: wall-clock limit per code execution.
        code_memory_mb: memory cap of the code sandbox's worker process (default 1024 MiB).
        code_isolation: ``"process"`` (default: a clean worker process) or ``"thread"`` (in-process,
            for trusted code only, warned about once; see docs/security.md).
        code_jail: ``"required"`` (default: the worker runs in the kernel jail; where the jail cannot
            be set up, code steps are refused with one line saying why) or ``"off"`` (an unjailed
            worker, trusted code only).
        entity_scope: which changed tables the entity F1 scores: ``"all"`` (every table: a write
            nobody asked for anywhere costs precision), ``"reference"`` (only the tables the expected
            changes name, as the reference's evaluator does) or ``"auto"`` (default: ``"reference"``
            for scenarios imported from the reference's files, ``"all"`` for ours).
        image_root: folder that path images (imported reference scenarios) are read from; default
            ``$MMTSB_IMAGE_ROOT``, else the working directory.
        stand_in_images: replace a path image missing from the folder by a labelled placeholder
            (results count them: ``stand_in_images`` in the episode metadata) instead of failing.
    """

    harness: str | None = None
    mode: str = "tool"
    toolbox: str = "full"
    tool_search: bool = False
    tool_universe: str | None = None
    tool_ranker: str = "bm25"
    working_set: int = 100
    coding_tool: bool = False
    max_images: int = 4
    image_size: tuple[int, int] = (336, 336)
    message_images: str = "url"
    info_transfer: str = "new"
    max_messages: int | None = None
    max_steps: int | None = None
    time_limit_s: float | None = None
    judge_weight: float = 1.0
    judge: Any = None
    code_timeout_s: float = 5.0
    code_memory_mb: int | None = None
    code_isolation: str = "process"
    code_jail: str = "required"
    entity_scope: str = "auto"
    image_root: str | None = None
    stand_in_images: bool = False

    def __post_init__(self) -> None:
        size = self.image_size
        if isinstance(size, int) and not isinstance(size, bool):
            object.__setattr__(self, "image_size", (size, size))
        elif isinstance(size, list):
            object.__setattr__(self, "image_size", tuple(size))
        if self.tool_universe is None:
            object.__setattr__(self, "tool_universe", "toolbox" if self.tool_search else "scenario")
        self.check()

    @classmethod
    def from_kwargs(cls, mode: str | None, kwargs: dict[str, Any]) -> "EnvOptions":
        """Options from env keyword arguments: a ``harness`` preset, then the explicit values."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown env option(s) {unknown}; valid options: {sorted(known)}")
        harness = kwargs.get("harness")
        values: dict[str, Any] = {}
        if harness is not None:
            _choices("harness", harness, tuple(HARNESSES))
            values.update(HARNESSES[harness])
        values.update({k: v for k, v in kwargs.items() if k != "mode"})
        if mode is not None:
            values["mode"] = mode
        return cls(**values)

    def check(self) -> None:
        """Raise one ``ValueError`` line for the first option whose value is not valid."""
        if self.harness is not None:
            _choices("harness", self.harness, tuple(HARNESSES))
        _choices("mode", self.mode, MODES)
        _choices("toolbox", self.toolbox, _toolboxes())
        _flag("tool_search", self.tool_search)
        _choices("tool_universe", self.tool_universe, TOOL_UNIVERSES)
        _choices("tool_ranker", self.tool_ranker, TOOL_RANKERS)
        _flag("coding_tool", self.coding_tool)
        _integer("working_set", self.working_set, minimum=3)
        _integer("max_images", self.max_images, minimum=0)
        size = self.image_size
        if not (isinstance(size, tuple) and len(size) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) and v >= 8 for v in size)):
            raise ValueError(f"image_size={size!r} is not valid; it must be an int or a (height, width) pair of ints >= 8")
        _choices("message_images", self.message_images, MESSAGE_IMAGES)
        _choices("info_transfer", self.info_transfer, INFO_TRANSFERS)
        _integer("max_messages", self.max_messages, minimum=1, optional=True)
        _integer("max_steps", self.max_steps, minimum=1, optional=True)
        _number("time_limit_s", self.time_limit_s, positive=True, optional=True)
        _number("judge_weight", self.judge_weight, positive=False)
        if self.judge is not None and not callable(getattr(self.judge, "evaluate", None)):
            raise ValueError(f"judge={self.judge!r} is not valid; it must have an evaluate(evidence) method (or be None)")
        _number("code_timeout_s", self.code_timeout_s, positive=True)
        _integer("code_memory_mb", self.code_memory_mb, minimum=16, optional=True)
        _choices("code_isolation", self.code_isolation, CODE_ISOLATIONS)
        _choices("entity_scope", self.entity_scope, ENTITY_SCOPES)
        if self.image_root is not None and not isinstance(self.image_root, (str, os.PathLike)):
            raise ValueError(f"image_root={self.image_root!r} is not valid; it must be a folder path (or None)")
        _flag("stand_in_images", self.stand_in_images)
        _choices("code_jail", self.code_jail, CODE_JAILS)
        if self.code_isolation == "thread":
            from ..sandbox.interpreter import warn_thread_mode_once

            warn_thread_mode_once()  # when chosen, not at the first code step

    def to_json(self) -> dict[str, Any]:
        """The options as plain data (the judge by its class name), for run metadata."""
        data = asdict(self)
        data["image_size"] = list(self.image_size)
        data["judge"] = None if self.judge is None else type(self.judge).__name__
        return data

    def episode_config(self) -> EpisodeConfig:
        return EpisodeConfig(
            mode=self.mode, toolbox=self.toolbox, tool_search=self.tool_search, tool_universe=self.tool_universe,
            tool_ranker=self.tool_ranker, coding_tool=self.coding_tool, active_tools_limit=self.working_set,
            max_messages=self.max_messages, max_steps=self.max_steps, time_limit_s=self.time_limit_s,
            judge_weight=float(self.judge_weight), code_timeout_s=float(self.code_timeout_s),
            code_memory_mb=self.code_memory_mb, code_isolation=self.code_isolation, code_jail=self.code_jail,
            entity_scope=self.entity_scope,
            image_root=None if self.image_root is None else str(self.image_root), stand_in_images=self.stand_in_images,
        )

    def obs_config(self) -> ObsConfig:
        return ObsConfig(max_images=self.max_images, height=self.image_size[0], width=self.image_size[1],
                         message_images=self.message_images, info_transfer=self.info_transfer)


def resolve_scenarios(suite: str | Sequence[Scenario] | None, scenarios: Sequence[Scenario] | None) -> Sequence[Scenario]:
    """The scenarios an env draws from: explicit ones, a list given as ``suite``, or a suite by name/folder."""
    if scenarios is not None:
        chosen = list(scenarios)
    elif isinstance(suite, (list, tuple)):
        chosen = list(suite)
    elif isinstance(suite, str) and suite in BUILTIN_SUITES:
        chosen = lazy_suite(suite)  # scenarios are built as they are drawn
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
