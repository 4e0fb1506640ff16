"""Shared fixtures: a fresh world on the seed-0 base world, and a tool-calling helper."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mmtsb_env.tools import invoke
from mmtsb_env.world import World
from mmtsb_env.world.base import base_world

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc)


@pytest.fixture
def world() -> World:
    base = base_world(0)
    return World(base.layer, now=NOW, user_id=base.supervisor_id)


class Caller:
    """``call(name, **arguments)`` -> result; ``fail(name, **arguments)`` -> error text.

    Both assert on success/failure and that a failed call left the world unchanged.
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


@pytest.fixture
def call(world: World) -> Caller:
    return Caller(world)
