"""Issue #17's mix of image sources, measured on the shipped suites: every Table 12 group is in a
real share of the scenarios, and most scenarios combine several groups (docs/images.md)."""

from __future__ import annotations

from collections import Counter

import pytest

import mmtsb_env
from mmtsb_env.vision.render.groups import group_of

# the least share of a suite's scenarios holding at least one image of the group
FLOORS = {"natural_text_rich": 0.15, "documents_charts": 0.15, "ui": 0.15, "natural_less_text": 0.10}


def _groups(scenario) -> set[str]:
    return {group_of(im.render["kind"]) for im in scenario.images if im.render}


@pytest.mark.parametrize("name", ["nominal", "ui"])
def test_every_group_holds_its_share_of_the_suite(name):
    suite = mmtsb_env.load_suite(name)
    share = Counter(g for s in suite for g in _groups(s))
    for group, floor in FLOORS.items():
        assert share[group] / len(suite) >= floor, (name, group, share[group], len(suite))


def test_nominal_scenarios_mix_groups():
    suite = mmtsb_env.load_suite("nominal")
    mixed = sum(len(_groups(s)) >= 2 for s in suite)
    assert mixed / len(suite) >= 0.4, mixed
