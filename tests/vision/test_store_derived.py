"""Derived images (crop, contrast, ... of a keyed image) and the asset caches' budgets and admission.

A derived image is a recipe keyed by (source key, operation, pixel arguments): the same crop of
the same image in another episode reuses its size and products. These tests check that caching
changes nothing a policy can see (observations, data URLs, tool results, rewards are identical
cold, warm and with the caches disabled), that the pixels equal the eager operation's, and that
the caches keep to their budgets.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from PIL import Image, ImageEnhance

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.vision import assets
from mmtsb_env.vision.assets import AssetCache, size_of
from mmtsb_env.vision.store import ImageStore


@pytest.fixture(autouse=True)
def empty_caches():
    assets.clear()
    yield
    assets.clear()


def _keyed_store(calls: list[int]) -> ImageStore:
    def draw() -> Image.Image:
        calls.append(1)
        rng = np.random.default_rng(7)
        return Image.fromarray(rng.integers(0, 256, (60, 90, 3), dtype=np.uint8))

    return ImageStore([draw], keys=[("render", "noise-60x90")])


def test_a_derived_image_equals_the_eager_operation_and_is_drawn_only_when_read():
    calls: list[int] = []
    store = _keyed_store(calls)
    source = store.get(0)
    crop = store.derive(0, "crop", (10, 5, 50, 45), lambda im: im.crop((10, 5, 50, 45)), size=(40, 40))
    contrast = store.derive(crop, "contrast", (1.5,), lambda im: ImageEnhance.Contrast(im).enhance(1.5), size=(40, 40))
    assert store.size(contrast) == (40, 40) and not store.is_made(crop) and not store.is_made(contrast)
    eager = ImageEnhance.Contrast(source.crop((10, 5, 50, 45))).enhance(1.5)
    assert np.array_equal(np.asarray(store.get(contrast)), np.asarray(eager)) and calls == [1]
    assert store.key(contrast) == ("derived", ("derived", ("render", "noise-60x90"), "crop", (10, 5, 50, 45)), "contrast", (1.5,))


def test_another_store_deriving_the_same_way_reuses_size_and_products_without_drawing():
    calls: list[int] = []
    first = _keyed_store(calls)
    a = first.derive(0, "crop", (0, 0, 30, 30), lambda im: im.crop((0, 0, 30, 30)), size=(30, 30))
    fitted, url = first.fitted(a, 16, 16), first.data_url(a, 16, 16)
    assert calls == [1]
    assets.PIXELS.clear()  # the drawings are gone; the compact products remain
    second = _keyed_store(calls)
    b = second.derive(0, "crop", (0, 0, 30, 30), lambda im: pytest.fail("must not be drawn"), size=(30, 30))
    assert second.fitted(b, 16, 16) is fitted and second.data_url(b, 16, 16) == url
    assert second.size(b) == (30, 30) and calls == [1] and not second.is_made(b)


def test_an_unkeyed_source_is_derived_eagerly_and_stays_unkeyed():
    store = ImageStore([Image.new("RGB", (8, 6), "red")])
    new = store.derive(0, "crop", (0, 0, 4, 3), lambda im: im.crop((0, 0, 4, 3)))
    assert store.key(new) is None and store.is_made(new) and store.size(new) == (4, 3)


# ---------------------------------------------------------------- what a policy sees
CALLS = [
    {"name": "crop_image", "arguments": {"image_id": 0, "left": 100, "upper": 50, "right": 700, "lower": 600}},
    {"name": "enhance_image", "arguments": {"image_id": 1, "factor": 1.8}},
    {"name": "draw_bbox", "arguments": {"image_id": 2, "left": 10, "upper": 10, "right": 500, "lower": 400, "color": "blue"}},
    {"name": "rotate_image", "arguments": {"image_id": 3, "angle": 90, "expand": True}},
    {"name": "rotate_image", "arguments": {"image_id": 0, "angle": 33, "expand": True}},
    {"name": "resize_image", "arguments": {"image_id": 1, "width": 50, "height": 70}},
    {"name": "get_image_size", "arguments": {"image_id": 5}},
    {"name": "crop_image", "arguments": {"image_id": 9, "left": 0, "upper": 0, "right": 10, "lower": 10}},  # no image 9
    {"name": "view_image", "arguments": {"image_id": 4}},
]


def _visual_trajectory() -> list:
    """A non-oracle agent that edits the demo receipt with every transforming tool."""
    env = mmtsb_env.make_env(suite="demo", image_size=(96, 96))
    obs, info = env.reset(seed=3, options={"scenario": "demo/note_from_receipt"})
    seen = [(obs["text"], obs["images"].copy(), json.dumps(info["messages"]))]
    for call in CALLS:
        obs, reward, terminated, truncated, info = env.step(json.dumps(call))
        seen.append((obs["text"], obs["images"].copy(), json.dumps(info["messages"]), reward, info["action_error"],
                     [env.episode.images.size(i) for i in range(len(env.episode.images))]))
    return seen


def _same(a: list, b: list) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x[0] == y[0] and np.array_equal(x[1], y[1]) and x[2:] == y[2:]


def test_trajectories_are_identical_cold_warm_and_without_caches(monkeypatch):
    cold = _visual_trajectory()
    warm = _visual_trajectory()
    assets.clear()
    monkeypatch.setattr(assets.PRODUCTS, "max_bytes", 0)  # nothing is kept: every product is remade
    monkeypatch.setattr(assets.PIXELS, "max_bytes", 0)
    uncached = _visual_trajectory()
    _same(cold, warm)
    _same(cold, uncached)
    assert len(assets.PRODUCTS) == len(assets.PIXELS) == 0
    texts = [step[0] for step in cold]
    assert "no image 9 yet; images you have: 0-6" in texts[8] and '"width": 50' in texts[6] + texts[7]  # the failing crop, the resize's size
    assert any(step[1].any() for step in cold[1:6])  # the new images reached the tensor


def test_the_oracle_plays_a_visual_nominal_scenario_the_same_cold_and_warm():
    suite = mmtsb_env.load_suite("nominal")
    scenario = next((s for s in suite if "crop_image" in json.dumps(s.to_dict())), None)
    if scenario is None:
        pytest.skip("no nominal scenario's solution crops an image")

    def play() -> list:
        env = mmtsb_env.make_env(scenarios=[scenario])
        agent = OracleAgent([scenario])
        obs, info = env.reset(seed=0)
        out, done = [], False
        while not done:
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
            out.append((obs["text"], obs["images"].copy(), json.dumps(info["messages"]), reward))
            done = terminated or truncated
        assert info["verdict"]["pass"]
        return out

    cold = play()
    assets.PIXELS.clear()  # a warm run needs no drawing at all for what it has seen before
    _same(cold, play())
    assert len(assets.PIXELS) == 0


# ---------------------------------------------------------------- budgets and admission
def test_the_budget_is_never_exceeded_whatever_the_sizes_and_order():
    rng = random.Random(5)
    cache = AssetCache(10_000)
    for _ in range(3_000):
        key = rng.randrange(200)
        cache.get(key, lambda: b"x" * rng.choice((10, 700, 3_000, 9_999, 20_000)))
        assert cache.nbytes <= cache.max_bytes
        assert cache.nbytes == sum(size_of(cache._items[k][0]) for k in cache.keys())


def test_a_cyclic_scan_larger_than_the_budget_keeps_hitting():
    cache = AssetCache(50 * 100)  # room for 50 of the 100 values
    made: list[int] = []
    for _ in range(4):
        for key in range(100):
            cache.get(key, lambda: made.append(1) or b"v" * 100)
    second_and_later = len(made) - 100
    assert second_and_later <= 3 * 55  # a plain LRU would remake all 300
    assert len(cache) == 50 and cache.nbytes == 5_000


def test_a_new_workload_displaces_the_old_one():
    cache = AssetCache(10 * 100)
    for _ in range(3):
        for key in range(10):
            cache.get(("old", key), lambda: b"o" * 100)
    for _ in range(60):
        for key in range(10):
            cache.get(("new", key), lambda: b"n" * 100)
    assert all(k[0] == "new" for k in cache.keys()) and len(cache) == 10
