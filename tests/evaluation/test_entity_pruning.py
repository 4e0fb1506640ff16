"""The pruned entity-diff scorer (key hash join, per-component assignment, reused columns, the cap)
against a brute-force reference that tries every assignment, on random small cases."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mmtsb_env.evaluation.entity_diff as ed
from mmtsb_env.evaluation import EntityScorer, score_changes
from mmtsb_env.scenario.model import ExpectedChange
from mmtsb_env.world.store import TableDiff

NOTES, ALARMS, CONTACTS = "simple_note.notes", "phone.alarms", "contacts.contacts"
WORDS = ["trip", "pack", "tent", "milk", "eggs", "bread", "stove", "call", "mom"]

text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join)
note = st.fixed_dictionaries({"title": st.sampled_from(["Trip", "Groceries", "x"]), "content": text})
key = st.integers(1, 4)


@st.composite
def case(draw):
    expected = [ExpectedChange("create", NOTES, row=r) for r in draw(st.lists(note, max_size=4))]
    expected += [ExpectedChange("update", ALARMS, key=k, fields={"enabled": draw(st.booleans())})
                 for k in draw(st.lists(key, max_size=3))]
    expected += [ExpectedChange("delete", CONTACTS, key=k) for k in draw(st.lists(key, max_size=3))]
    created = [{"id": 100 + i, "user_id": 1, **r} for i, r in enumerate(draw(st.lists(note, max_size=4)))]
    updated = []
    for k in draw(st.lists(key, max_size=3, unique=True)):
        before = {"id": k, "enabled": True, "label": "wake"}
        after = {**before, "enabled": draw(st.booleans()), "label": draw(st.sampled_from(["wake", "gym"]))}
        updated.append((before, after))
    deleted = [{"id": k if draw(st.booleans()) else str(k)} for k in draw(st.lists(key, max_size=3, unique=True))]
    diff = {NOTES: TableDiff(created=created), ALARMS: TableDiff(updated=updated), CONTACTS: TableDiff(deleted=deleted)}
    return expected, diff


def brute_force_f1(expected, diff) -> float:
    """Every group's best total by trying every one-to-one assignment; macro P/R; F1."""
    cfg = ed.DEFAULT_CONFIG
    changes = ed.coerce_expected(expected)
    wanted: dict = {}
    for pos, c in enumerate(changes):
        wanted.setdefault((c.table, c.operation), []).append(c)
    actual, _ = ed._actual_changes(diff, cfg, set(), set(wanted))
    if not wanted and not actual:
        return 1.0
    ps, rs = [], []
    for table, op in sorted(set(wanted) | set(actual)):
        exp, act = wanted.get((table, op), []), actual.get((table, op), [])
        n, m = len(exp), len(act)
        if n == 0 or m == 0:  # changes nobody asked for: P 0, R 1; expectations not met: P 0, R 0
            ps.append(0.0)
            rs.append(1.0 if n == 0 else 0.0)
            continue
        sim = [[ed._pair_score(c, op, a, table, cfg)[0] for a in act] for c in exp]
        if n <= m:
            best = max(sum(sim[i][j] for i, j in enumerate(cols)) for cols in itertools.permutations(range(m), n))
        else:
            best = max(sum(sim[i][j] for j, i in enumerate(rows)) for rows in itertools.permutations(range(n), m))
        ps.append(round(min(1.0, best / m), 6))
        rs.append(round(min(1.0, best / n), 6))
    p, r = sum(ps) / len(ps), sum(rs) / len(rs)
    return round(0.0 if p + r == 0 else 2 * p * r / (p + r), 6)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case())
def test_pruned_f1_equals_the_exhaustive_and_the_brute_force_f1(c):
    expected, diff = c
    pruned = score_changes(expected, diff)
    assert pruned.f1 == pytest.approx(score_changes(expected, diff, exhaustive=True).f1, abs=1e-6)
    assert pruned.f1 == pytest.approx(brute_force_f1(expected, diff), abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(case(), case())
def test_incremental_scoring_after_a_change_equals_scoring_from_scratch(first, second):
    """The cached path (column reuse, cached pairs) on a diff that moved on from a previous one."""
    expected, diff1 = first
    _, diff2 = second
    cache = ed._PairCache()
    score_changes(expected, diff1, _cache=cache)
    mixed = {t: TableDiff(created=diff1[t].created[:1] + diff2[t].created, updated=diff2[t].updated,
                          deleted=diff2[t].deleted) for t in diff1}
    assert score_changes(expected, mixed, _cache=cache).f1 == pytest.approx(brute_force_f1(expected, mixed), abs=1e-6)


@settings(max_examples=100, deadline=None)
@given(st.lists(note, min_size=1, max_size=4), st.lists(note, max_size=4))
def test_capped_scoring_is_a_feasible_assignment_and_exact_on_exact_matches(rows, noise):
    """Past the cap (forced here to 0 pairs) a group's F1 never exceeds the optimum, and equals it
    when every expected row was written exactly."""
    expected = [ExpectedChange("create", NOTES, row=r) for r in rows]
    exact = {NOTES: TableDiff(created=[{"id": i, **r} for i, r in enumerate(rows)])}
    noisy = {NOTES: TableDiff(created=[{"id": i, **r} for i, r in enumerate(rows + noise)])}
    saved = ed.EXHAUSTIVE_PAIRS
    ed.EXHAUSTIVE_PAIRS = 0
    try:
        capped_exact, capped_noisy = score_changes(expected, exact), score_changes(expected, noisy)
    finally:
        ed.EXHAUSTIVE_PAIRS = saved
    assert capped_exact.f1 == 1.0
    assert capped_noisy.f1 <= score_changes(expected, noisy, exhaustive=True).f1 + 1e-9
    assert capped_noisy.recall == 1.0  # every expected row found its exact copy by the hash join


def test_a_policy_writing_thousands_of_rows_is_scored_with_bounded_work(world, monkeypatch):
    """2,000 written rows against 50 expected ones: past the cap each expected row is compared
    with a few blocked candidates, not with every row (counted, not timed)."""
    calls = []
    real = ed._pair_score
    monkeypatch.setattr(ed, "_pair_score", lambda *a, **k: calls.append(1) or real(*a, **k))
    expected = [ExpectedChange("create", NOTES, row={"title": f"Note {i}", "content": f"pack item {i}"}) for i in range(50)]
    scorer = EntityScorer(expected)
    for i in range(2000):
        world.insert(NOTES, {"id": world.new_id(NOTES), "user_id": 1, "title": f"Note {i}", "content": f"pack item {i}"})
    score = scorer.score(world)
    assert score.recall == 1.0 and score.precision == pytest.approx(50 / 2000)
    assert len(calls) <= 50 * (ed.BLOCK_CANDIDATES + 1)
