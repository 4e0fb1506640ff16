"""The built-in ``ui`` suite: hand-written UI scenarios plus oracle-verified UI variants of generated ones."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pytest

from mmtsb_env.baselines import OracleAgent
from mmtsb_env.generation import generate
from mmtsb_env.generation.axes import ARRIVALS, CHALLENGES, FLOWS
from mmtsb_env.generation.ui_variants import (
    KINDS, MAX_STEPS, build_ui_suite, make_variant, oracle_check, ui_variants, write_ui_suite,
)
from mmtsb_env.runner import run_episode
from mmtsb_env.scenario.suites import load_suite

SUITE = load_suite("ui")
GENERATED = [s for s in SUITE if s.id.startswith("ui/gen_")]
HAND_WRITTEN = [s for s in SUITE if not s.id.startswith("ui/gen_")]


def private_criteria(decision) -> list[str]:
    """What only the round's ``ui`` field may know: typed field values, else the named pick, else the price rule."""
    if decision.fill:
        return [str(v) for v in decision.fill.values()]
    pick = decision.pick or {}
    if "label_contains" in pick:
        return [pick["label_contains"]]
    if "cheapest" in pick:
        return ["cheap"]
    if "most_expensive" in pick:
        return ["expensive"]
    return [decision.choose["component_id"]] if decision.choose else []


def test_suite_size_ids_and_ui_rounds():
    assert len(SUITE) >= 50 and len(GENERATED) >= 45 and len(HAND_WRITTEN) == 5
    ids = [s.id for s in SUITE]
    assert len(set(ids)) == len(ids)
    assert [s.id for s in GENERATED] == [f"ui/gen_{i:04d}" for i in range(1, len(GENERATED) + 1)]
    for s in SUITE:
        assert s.ui is True and any(r.ui is not None for r in s.rounds), s.id


def test_private_criterion_never_in_a_query():
    checked = 0
    for s in SUITE:
        queries = " ".join(r.query for r in s.rounds).lower()
        for r in s.rounds:
            if r.ui is None:
                continue
            for secret in private_criteria(r.ui):
                assert secret.lower() not in queries, (s.id, secret)
                checked += 1
    assert checked >= len(SUITE)


def test_generated_rounds_render_show_ask_then_act():
    for s in GENERATED:
        r = s.rounds[-1]
        names = [step.get("name", "say") for step in r.solution]
        assert names == ["render_ui_screen", "show_ui_to_user", "say", "simple_note_create_note"], s.id
        screen = r.solution[0]["arguments"]["ui_json"]
        assert {"surfaceUpdate", "beginRendering"} <= {k for m in screen for k in m}
        text = json.dumps(screen, ensure_ascii=False)
        assert all(label in text for label in r.ui.expect), s.id
        assert s.expected_changes[-1].row["title"] == r.solution[-1]["arguments"]["title"]
        assert s.metadata["num_rounds"] == len(s.rounds) <= 5


def test_generated_variants_cover_the_design_axes():
    md = [s.metadata for s in GENERATED]
    assert {m["flow_type"] for m in md} == set(FLOWS)
    assert {m["challenge_type"] for m in md} == set(CHALLENGES)
    assert {m["image_arrival"] for m in md} == set(ARRIVALS)
    assert {m["ui_variant"]["kind"] for m in md} == set(KINDS)
    assert {m["ui_variant"]["rule"] for m in md} == {"label_contains", "cheapest", "most_expensive", "fill"}
    domains = Counter(d for s in GENERATED for d in s.domains)
    assert len(domains) >= 12 and domains["simple_note"] == len(GENERATED)


@pytest.mark.parametrize("scenario", GENERATED[::max(1, len(GENERATED) // 10)][:10], ids=lambda s: s.id)
def test_oracle_solves_generated_variant_through_the_screen(scenario):
    ok, why = oracle_check(scenario, max_steps=MAX_STEPS)
    assert ok, why


@pytest.mark.parametrize("scenario", HAND_WRITTEN, ids=lambda s: s.id)
def test_oracle_solves_hand_written_scenario(scenario):
    record = run_episode(scenario, OracleAgent([scenario]))
    assert record.entity_f1 == 1.0 and record.passed, record.verdict


def _mutated(s, **ui_changes):
    r = s.rounds[-1]
    return replace(s, rounds=s.rounds[:-1] + (replace(r, ui=replace(r.ui, **ui_changes)),))


def test_check_fails_when_the_user_would_choose_something_else():
    pick = next(s for s in GENERATED if "label_contains" in s.rounds[-1].ui.pick and not s.rounds[-1].ui.fill)
    other = next(x for x in pick.rounds[-1].ui.expect if x != pick.rounds[-1].ui.pick["label_contains"])
    ok, why = oracle_check(_mutated(pick, pick={"label_contains": other}))
    assert not ok and f"user picked '{other}'" in why
    review = next(s for s in GENERATED if s.rounds[-1].ui.fill)
    ok, why = oracle_check(_mutated(review, fill={"Title": "Something else"}))
    assert not ok and "user typed title 'Something else'" in why


def test_skipping_the_screen_fails_the_verdict():
    s = GENERATED[0]
    r = s.rounds[-1]
    no_screen = replace(s, rounds=s.rounds[:-1] + (replace(r, solution=r.solution[-1:]),))
    record = run_episode(no_screen, OracleAgent([no_screen]))
    failed = {c["criterion"] for c in record.verdict["criteria"] if not c["pass"]}
    assert not record.passed and {"ui_rendered", "ui_shown", "ui_choice_obtained"} <= failed


def test_the_generated_file_is_reproducible(tmp_path):
    stats: dict = {}
    rebuilt = build_ui_suite(2, seed=2026, stats=stats)
    assert stats["verified"] == 2 and [s.to_dict() for s in rebuilt] == [s.to_dict() for s in GENERATED[:2]]
    # same seed, same bytes: a rebuild in this process writes exactly what the committed file holds
    a = write_ui_suite(rebuilt, tmp_path / "a.json").read_bytes()
    b = write_ui_suite(GENERATED[:2], tmp_path / "b.json").read_bytes()
    assert a == b and a.startswith(b'[\n {\n  "id": "ui/gen_0001"')


def test_variants_deterministic_and_only_where_there_is_a_choice():
    base = generate(6, seed=11, verify="static")
    first, second = ui_variants(base, seed=3), ui_variants(base, seed=3)
    assert first and [v.to_dict() for v in first] == [v.to_dict() for v in second]
    single = replace(base[0], images=base[0].images[:1], rounds=tuple(replace(r, image_ids=tuple(i for i in r.image_ids if i == 0))
                                                                       for r in base[0].rounds))
    assert make_variant(single, __import__("random").Random(0), "pick_list") is None
    assert all(re.fullmatch(r"ui/gen/11-\d{4}", v.id) for v in first)


def test_every_generated_ui_scenario_is_a_nominal_one_plus_a_screen():
    """Text vs UI mode compare the same tasks: same base rounds and expected changes, plus one UI round and its note."""
    nominal = {s.id: s for s in load_suite("nominal")}
    assert len(GENERATED) >= 50
    for v in GENERATED:
        base = nominal[v.metadata["ui_variant"]["base_id"]]
        assert [r.query for r in v.rounds[:len(base.rounds)]] == [r.query for r in base.rounds], v.id
        assert len(v.rounds) == len(base.rounds) + 1 and v.rounds[-1].ui is not None and base.ui is False
        base_changes = [c.to_dict() if hasattr(c, "to_dict") else c for c in base.expected_changes]
        variant_changes = [c.to_dict() if hasattr(c, "to_dict") else c for c in v.expected_changes]
        assert all(c in variant_changes for c in base_changes), v.id
        assert len(variant_changes) == len(base_changes) + 1, v.id
    assert len({v.metadata["ui_variant"]["base_id"] for v in GENERATED}) == len(GENERATED)
