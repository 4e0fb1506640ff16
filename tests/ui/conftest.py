"""UI test fixtures: a bare world with an image store, tool-calling helpers, small screen builders."""

from __future__ import annotations

from datetime import datetime, timezone

import numpy as np
import pytest
from PIL import Image

import mmtsb_env.ui.tools  # noqa: F401  (registers the ui tools)
from mmtsb_env.tools.calling import invoke
from mmtsb_env.vision import ImageStore
from mmtsb_env.world import Layer, World

NOW = datetime(2026, 4, 16, 9, 30, tzinfo=timezone.utc)


def photo(seed: int, size=(160, 120)) -> Image.Image:
    """A deterministic two-colour test picture."""
    w, h = size
    arr = np.zeros((h, w, 3), np.uint8)
    arr[:, : w // 2] = (40 + 50 * seed, 120, 200)
    arr[:, w // 2:] = (230, 180 - 40 * seed, 60)
    arr[h // 3: 2 * h // 3, w // 3: 2 * w // 3] = (250, 250, 250)
    return Image.fromarray(arr)


@pytest.fixture
def store() -> ImageStore:
    return ImageStore([photo(0), photo(1)])


@pytest.fixture
def world(store) -> World:  # overrides the base-world fixture: ui tools need no app data
    return World(Layer(), now=NOW, services={"images": store})


def text(cid, value, hint=None):
    props = {"text": value}
    if hint:
        props["usageHint"] = hint
    return {"id": cid, "component": {"Text": props}}


def button(cid, label, action, context=None, primary=True):
    act = {"name": action}
    if context:
        act["context"] = [{"key": k, "value": v} for k, v in context.items()]
    return [text(f"{cid}_label", label), {"id": cid, "component": {"Button": {"child": f"{cid}_label", "action": act, "primary": primary}}}]


def screen(surface, components, root="root", data=None):
    msgs = [{"surfaceUpdate": {"surfaceId": surface, "components": components}}]
    if data is not None:
        msgs.append({"dataModelUpdate": {"surfaceId": surface, "contents": data}})
    msgs.append({"beginRendering": {"surfaceId": surface, "root": root}})
    return msgs


def choice_screen(surface="pick"):
    """Two cards with a Select button each (explicit ids pick_a / pick_b)."""
    comps = [{"id": "root", "component": {"Column": {"children": ["title", "card_a", "card_b"]}}},
             text("title", "Pick one", "h2")]
    for key, name, price in (("a", "Pine Street Books", "$20.51"), ("b", "Lumen Hardware", "$22.13")):
        comps += [{"id": f"card_{key}", "component": {"Card": {"child": f"row_{key}"}}},
                  {"id": f"row_{key}", "component": {"Row": {"children": [f"name_{key}", f"price_{key}", f"pick_{key}"],
                                                             "distribution": "spaceBetween"}}},
                  text(f"name_{key}", name), text(f"price_{key}", price)]
        comps += button(f"pick_{key}", "Select", "select", {"store": name})
    return screen(surface, comps)


class UICaller:
    """``call(name, seat=..., **args)`` -> outcome (asserted ok); ``fail(...)`` -> error text (state untouched)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.store = world.services["images"]

    def __call__(self, name: str, seat: str = "assistant", **arguments):
        outcome = invoke(self.world, name, arguments, seat=seat)
        assert outcome.ok, outcome.text
        return outcome

    def fail(self, name: str, seat: str = "assistant", **arguments) -> str:
        n = len(self.store)
        state = self.world.services.get("ui")
        before = (dict(state.surfaces), len(state.renders), len(state.shown), len(state.interactions)) if state else None
        outcome = invoke(self.world, name, arguments, seat=seat)
        assert not outcome.ok, f"{name} unexpectedly succeeded: {outcome.text}"
        assert len(self.store) == n, "a failed call stored an image"
        state = self.world.services.get("ui")
        if before is not None:
            after = (dict(state.surfaces), len(state.renders), len(state.shown), len(state.interactions))
            assert after == before, "a failed call changed the UI state"
        return outcome.text


@pytest.fixture
def ui(world) -> UICaller:
    return UICaller(world)
