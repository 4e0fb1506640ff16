"""Shared fixtures: a fresh world on the seed-0 base world, a tool-calling helper, the reference catalog."""

from __future__ import annotations

import os

# the image disk cache is on by default for users; tests draw for themselves, so a test's outcome never
# depends on what an earlier run left in ~/.cache (tests/vision/test_store_disk.py turns it on in a temp folder)
os.environ.setdefault("MMTSB_IMAGE_CACHE_DIR", "")

import ast
import csv
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Mapping

import pytest

from mmtsb_env.tools import NOT_GIVEN, Tool
from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.catalog import REGISTRY
from mmtsb_env.world import World
from mmtsb_env.world.base import base_world

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc)

# CI runs from a fresh clone that has a copy of shared/ beside it; here it is /work/shared.
_REFERENCE_DIRS = (Path(__file__).resolve().parents[1].parent / "shared" / "reference", Path("/work/shared/reference"))


@pytest.fixture
def world() -> World:
    base = base_world(0)
    return World(base.layer, now=NOW, user_id=base.supervisor_id)


class Caller:
    """``call(name, **arguments)`` -> result; ``fail(name, **arguments)`` -> error text.

    Both assert on success/failure and that a failed call left the world unchanged. The tool name
    is positional-only, so tools with a parameter called ``name`` are called the same way.
    """

    def __init__(self, world: World) -> None:
        self.world = world

    def __call__(self, _tool: str, /, **arguments):
        outcome = invoke(self.world, _tool, arguments)
        assert outcome.ok, outcome.text
        return outcome.result

    def fail(self, _tool: str, /, **arguments) -> str:
        before = self.world.version
        snapshot = self.world.diff()
        outcome = invoke(self.world, _tool, arguments)
        assert not outcome.ok, f"{_tool} unexpectedly succeeded: {outcome.text}"
        assert self.world.version == before and self.world.diff() == snapshot
        return outcome.text

    def go_offline(self) -> None:
        """Switch wifi and cellular off: the device has no network until one is switched back on."""
        self("set_wifi_status", on=False)
        self("set_cellular_service_status", on=False)


@pytest.fixture
def call(world: World) -> Caller:
    return Caller(world)


# ------------------------------------------------------------------------------- reference catalog
@dataclass(frozen=True)
class ReferenceParam:
    """One parameter of a tool as tools.tsv lists it (``default`` is NOT_GIVEN when none is given)."""

    name: str
    optional: bool
    default: Any = NOT_GIVEN


def reference_path(*parts: str) -> Path:
    """A file of the shared reference (``reference_path("tools.tsv")``), found next to the repository."""
    for folder in _REFERENCE_DIRS:
        path = folder.joinpath(*parts)
        if path.exists():
            return path
    raise AssertionError(f"{'/'.join(parts)} not found in any of {[str(d) for d in _REFERENCE_DIRS]}")


_PARAM_SPLIT = re.compile(r",\s*(?=\w+\s*:)")


def _reference_params(text: str) -> list[ReferenceParam]:
    text = text.strip()
    if text in ("", "(none)"):
        return []
    params = []
    for part in _PARAM_SPLIT.split(text):
        name, _, rest = part.partition(":")
        annotation, has_default, raw = rest.partition("=")
        default = NOT_GIVEN
        if has_default:
            try:
                default = ast.literal_eval(raw.strip())
            except (ValueError, SyntaxError):
                default = NOT_GIVEN  # a described default, not a literal: nothing to compare
        optional = bool(has_default) or "|None" in annotation or "|NotGiven" in annotation
        params.append(ReferenceParam(name.strip(), optional, default))
    return params


def reference_tools(domain: str) -> dict[str, list[ReferenceParam]]:
    """``{tool name: parameters}`` of one domain in /work/shared/reference/tools.tsv, in file order."""
    with reference_path("tools.tsv").open(newline="") as fh:
        return {r[1]: _reference_params(r[2]) for r in csv.reader(fh, delimiter="\t") if r and r[0] == domain}


def catalog_tools(domain: str) -> dict[str, Tool]:
    """Our registered full-toolbox tools of ``domain`` (consolidated variants left out)."""
    return {name: t for name, t in REGISTRY.items() if t.app == domain and "full" in t.toolboxes}


def assert_matches_catalog(
    domain: str, exceptions: Mapping[str, Any] | None = None, *, count: int | None = None
) -> dict[str, Tool]:
    """Assert our tools of ``domain`` match tools.tsv and return them by name.

    Same tool names; for every tool not in ``exceptions`` (name -> why it deliberately
    differs) the same parameter names in the same order, the same optional parameters and the
    same literal defaults. Every tool and parameter must have a description. ``count`` also pins
    how many tools the reference lists, so a truncated tools.tsv cannot pass unnoticed.
    """
    expected = reference_tools(domain)
    ours = catalog_tools(domain)
    if count is not None:
        assert len(expected) == count, f"tools.tsv lists {len(expected)} {domain} tools, not {count}"
    assert set(ours) == set(expected), sorted(set(ours) ^ set(expected))
    for name, params in expected.items():
        tool = ours[name]
        assert tool.description and all(p.description for p in tool.params), f"{name}: undocumented"
        if name in (exceptions or {}):
            continue
        assert [p.name for p in tool.params] == [p.name for p in params], name
        for mine, ref in zip(tool.params, params):
            assert mine.required == (not ref.optional), (name, ref.name)
            if ref.default is not NOT_GIVEN:
                assert mine.default == ref.default, (name, ref.name, mine.default, ref.default)
    return ours


@pytest.fixture
def reference() -> SimpleNamespace:
    """The shared reference: ``.path(*parts)``, ``.tools(domain)``, ``.assert_matches_catalog(domain, ...)``."""
    return SimpleNamespace(path=reference_path, tools=reference_tools, assert_matches_catalog=assert_matches_catalog)
