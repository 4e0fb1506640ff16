"""The built-in nominal suite: size, coverage of the design grid, and a sample the oracle solves."""

from __future__ import annotations

from collections import Counter

import pytest

import mmtsb_env
from mmtsb_env.generation import CATEGORIES, DOMAINS, cells, check_distribution
from mmtsb_env.generation.verify import arrival_of


@pytest.fixture(scope="module")
def suite():
    return mmtsb_env.load_suite("nominal")


def test_size_ids_and_format(suite):
    assert len(suite) >= 258
    assert len({s.id for s in suite}) == len(suite)
    assert all(s.id.startswith("nominal/") for s in suite)
    assert suite[7].id == "nominal/0007" or any(s.id == "nominal/0007" for s in suite)


def test_every_design_cell_at_least_twice(suite):
    cell = Counter((s.metadata["flow_type"], s.metadata["challenge_type"], s.metadata["image_arrival"]) for s in suite)
    assert set(cell) == set(cells())
    # known gap (issue #32): validate x error_correction x late has one scenario -- ReminderValidate's late setup
    # round finds no reminder question within the task's app once the warm-ups went, so that recipe cannot fill it
    thin = {c for c, k in cell.items() if k < 2}
    assert thin <= {("validate", "error_correction", "late")}, thin
    assert check_distribution(suite, min_per_cell=1).ok


def test_spread_over_domains_and_image_categories(suite):
    dom = Counter(d for s in suite for d in s.domains)
    cat = Counter(c for s in suite for c in s.metadata["image_categories"])
    # every app; spotify (only SpotifyLookup and a setup read use it, since the asides went: issue #32) is the thinnest
    assert set(DOMAINS) <= set(dom) and min(dom[d] for d in DOMAINS) >= 5, dom
    assert sum(dom[d] >= 10 for d in DOMAINS) >= 14, dom
    # settings screenshots have one recipe (SettingsMatch), which plays two of the 28 flow x challenge pairs and gets
    # its fair share of them (the suite draws among the least used recipes); every other category is in >= 10
    assert set(CATEGORIES) <= set(cat) and cat["settings"] >= 5, cat
    assert min(cat[c] for c in CATEGORIES if c != "settings") >= 10, cat


def test_structure_of_every_scenario(suite):
    for s in suite:
        assert 3 <= len(s.images) <= 6 and 2 <= len(s.rounds) <= 5, s.id
        assert arrival_of(s) == s.metadata["image_arrival"], s.id
        assert all(r.solution or r.answer for r in s.rounds) and any(r.solution for r in s.rounds), s.id


def test_every_scenario_passes_full_verification(suite):
    """The generator's own checks, with code mode and every image drawn (facts checked against the pixels' run)."""
    from mmtsb_env.generation import verify
    from mmtsb_env.generation.verify import sandbox_status

    assert sandbox_status() == "ok"
    failed = {}
    for s in suite:
        report = verify(s, render_images=True)
        if not (report.ok and report.code_mode == "ran"):
            failed[s.id] = report.problems
    assert not failed
