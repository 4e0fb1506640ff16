"""Vision test fixtures: a bare world with an image store holding a few synthetic images."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

import mmtsb_env.vision  # noqa: F401  (registers the vision tools)
from mmtsb_env.tools.calling import invoke
from mmtsb_env.vision import ImageStore
from mmtsb_env.world import Layer, World


def quadrants(width: int = 400, height: int = 200) -> Image.Image:
    """Red / green / blue / white quadrants (top-left, top-right, bottom-left, bottom-right)."""
    arr = np.zeros((height, width, 3), np.uint8)
    h2, w2 = height // 2, width // 2
    arr[:h2, :w2] = (255, 0, 0)
    arr[:h2, w2:] = (0, 255, 0)
    arr[h2:, :w2] = (0, 0, 255)
    arr[h2:, w2:] = (255, 255, 255)
    return Image.fromarray(arr)


def gradient(width: int = 256, height: int = 64) -> Image.Image:
    """A horizontal grey ramp (mid contrast) for enhance tests."""
    ramp = np.linspace(70, 185, width).astype(np.uint8)
    return Image.fromarray(np.repeat(np.repeat(ramp[None, :, None], height, 0), 3, 2))


@pytest.fixture
def make_quadrants():
    """The :func:`quadrants` factory, for tests that build their own images."""
    return quadrants


@pytest.fixture
def store() -> ImageStore:
    return ImageStore([quadrants(), gradient(), Image.new("RGB", (300, 300), (240, 240, 240))])


@pytest.fixture
def world(store) -> World:  # overrides the base-world fixture: vision tools need no app data
    return World(Layer(), services={"images": store})


class VisionCaller:
    """``vcall(name, **args)`` -> outcome (asserted ok); ``vcall.fail(...)`` -> error text, store untouched."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.store = world.services["images"]

    def __call__(self, name: str, **arguments):
        outcome = invoke(self.world, name, arguments)
        assert outcome.ok, outcome.text
        return outcome

    def fail(self, name: str, **arguments) -> str:
        n, version = len(self.store), self.world.version
        outcome = invoke(self.world, name, arguments)
        assert not outcome.ok, f"{name} unexpectedly succeeded: {outcome.text}"
        assert len(self.store) == n and self.world.version == version
        return outcome.text

    def image(self, outcome) -> Image.Image:
        return self.store.get(outcome.image_ids[-1])


@pytest.fixture
def vcall(world) -> VisionCaller:
    return VisionCaller(world)
