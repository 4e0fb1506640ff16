"""The public generator API: determinism, filters, ranges, ids, errors."""

from __future__ import annotations

import random

import pytest

from mmtsb_env.generation import (ARRIVALS, CHALLENGES, DOMAINS, FLOWS, GenerationStats, cells, flow_categories, generate,
                                  generate_one)
from mmtsb_env.generation.verify import arrival_of
from mmtsb_env.scenario.model import Scenario


def test_axes_are_the_papers_grid():
    assert len(FLOWS) == 7 and len(CHALLENGES) == 4 and len(ARRIVALS) == 4 and len(DOMAINS) == 16
    assert len(cells()) == 112 and len(set(cells())) == 112


def test_same_seed_same_scenarios_and_different_seed_differs():
    a = [s.to_dict() for s in generate(4, seed=9, verify="static")]
    b = [s.to_dict() for s in generate(4, seed=9, verify="static")]
    c = [s.to_dict() for s in generate(4, seed=10, verify="static")]
    assert a == b
    assert a != c


def test_batch_respects_ranges_and_round_trips(small_batch):
    for s in small_batch:
        assert 3 <= len(s.images) <= 6 and 2 <= len(s.rounds) <= 5
        assert sorted(i for r in s.rounds for i in r.image_ids) == list(range(len(s.images)))
        assert arrival_of(s) == s.metadata["image_arrival"]
        assert Scenario.from_dict(s.to_dict()).to_dict() == s.to_dict()
        assert all(sp.render is not None and sp.category for sp in s.images)
        assert s.expected_changes and s.facts
    assert {s.metadata["flow_type"] for s in small_batch} == set(FLOWS)


def test_filters_keep_to_the_requested_axes():
    out = generate(5, seed=4, flow=["validate", "compute"], challenge="goal_change", arrival="late", verify="static")
    assert {s.metadata["flow_type"] for s in out} <= {"validate", "compute"}
    assert {s.metadata["challenge_type"] for s in out} == {"goal_change"}
    assert {s.metadata["image_arrival"] for s in out} == {"late"}
    for s in out:
        assert not s.rounds[0].image_ids
        assert any(r.kind == "goal_change" for r in s.rounds)


def test_category_and_domain_filters():
    out = generate(3, seed=2, category="business_card", verify="static")
    assert all(s.metadata["image_categories"] == ["business_card"] for s in out)
    out = generate(2, seed=5, flow="lookup_chain", domains=["spotify"], verify="static")
    assert all("spotify" in s.domains for s in out)


def test_ids_and_numbered_ids():
    assert [s.id for s in generate(2, seed=3, flow="filter", verify="static")] == ["gen/3-0000", "gen/3-0001"]
    out = generate(2, seed=3, id_prefix="nominal", id_format="{prefix}/{index:04d}", verify="static")
    assert [s.id for s in out] == ["nominal/0000", "nominal/0001"]


def test_unknown_axis_values_are_rejected_with_the_choices():
    with pytest.raises(ValueError, match="unknown flow.*aggregate"):
        generate(1, flow="summarise")
    with pytest.raises(ValueError, match="unknown challenge"):
        generate_one(0, challenge="chaos")
    with pytest.raises(ValueError, match="unknown category"):
        generate(1, category="selfie")


def test_generate_one_accepts_an_rng_and_fixed_axes():
    rng = random.Random(5)
    s = generate_one(rng, "lookup_chain", "state_mutation", "progressive", verify="static")
    md = s.metadata
    assert (md["flow_type"], md["challenge_type"], md["image_arrival"]) == ("lookup_chain", "state_mutation", "progressive")
    assert any(r.kind == "state_mutation" and r.state_changes for r in s.rounds)


def test_stats_count_attempts_and_failures():
    st = GenerationStats()
    generate(6, seed=8, verify="static", stats=st)
    assert st.produced == 6 and st.attempts >= 6
    assert st.attempts == 6 + sum(v for k, v in st.failures.items() if k.startswith(("compose", "verify")))
    assert st.to_json()["scenarios_per_second"] > 0


def test_flow_categories_cover_every_category():
    from mmtsb_env.generation.axes import CATEGORIES

    seen = {c for f in FLOWS for c in flow_categories(f)}
    assert seen == set(CATEGORIES)
    assert "business_card" in flow_categories("validate") and "sign" in flow_categories("compare")


def test_queries_never_state_image_values(small_batch):
    for s in small_batch:
        text = " ".join(r.query + " " + " ".join(c.answer for c in r.clarifications) for r in s.rounds).casefold()
        for v in s.metadata["image_values"] + s.metadata["derived_values"]:
            if len(v) >= 4:
                assert v.casefold() not in text, (s.id, v)
