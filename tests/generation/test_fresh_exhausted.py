"""A value the Drafter cannot draw fresh is an ordinary compose failure: the walk counts it and
redraws the attempt with another seed, never a crash of the whole run (``mmtsb generate --n 2000
--seed 2027`` once died on a business card's email with ``RuntimeError: could not draw a fresh value``)."""

from __future__ import annotations

import random
from datetime import datetime

import pytest

from mmtsb_env.generation import GenerationError, GenerationStats
from mmtsb_env.generation import walk
from mmtsb_env.generation.images import Drafter
from mmtsb_env.generation.world_index import norm, world_index

NOW = datetime(2026, 5, 4, 10, 0)


def test_an_exhausted_pool_is_a_generation_error():
    d = Drafter(random.Random(0), world_index(0), NOW)
    assert d.fresh(lambda: "only@example.com", check_world=False) == "only@example.com"
    with pytest.raises(GenerationError, match="could not draw a fresh value"):
        d.fresh(lambda: "only@example.com", check_world=False)


def test_the_walk_counts_the_failed_attempt_and_redraws(monkeypatch):
    original_fresh, original_compose = Drafter.fresh, walk.compose
    state = {"attempt": 0}

    def exhausted_on_first_attempt(self, make, check_world=True):
        if state["attempt"] == 1:  # every value this attempt draws is already used
            value = make()
            self.used.add(norm(value))
            return original_fresh(self, lambda: value, check_world)
        return original_fresh(self, make, check_world)

    def counting_compose(*args, **kwargs):
        state["attempt"] += 1
        return original_compose(*args, **kwargs)

    monkeypatch.setattr(Drafter, "fresh", exhausted_on_first_attempt)
    monkeypatch.setattr(walk, "compose", counting_compose)
    stats = GenerationStats()
    s = walk.compose_verified(3, None, None, None, check=lambda s: None, category=None, world_seed=0,
                              n_images=None, scenario_id="t/1", max_attempts=5, stats=stats,
                              prefer_domains=(), prefer_categories=())
    assert s.images and state["attempt"] >= 2
    assert stats.produced == 1 and stats.attempts == state["attempt"]
    assert stats.failures["compose: could not draw a fresh value"] == 1, dict(stats.failures)
