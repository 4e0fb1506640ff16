"""Issue #32's measures on the built-in nominal suite, and what the staged world means for an agent.

The figures are those of docs/generation.md ("Measured against the reference's scenarios"),
computed by ``mmtsb_env.generation.measures``; the reference sample's figures are in
``measures.REFERENCE``. An agent that acts on a staged look-alike instead of the row meant fails.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

import mmtsb_env
from mmtsb_env.generation.measures import (
    correction_contradicts_image, look_alike, measures_table, mutation_touches_staged, needs_disambiguation,
    recorded_lookalikes, suite_measures, unrelated_rounds,
)
from mmtsb_env.scenario.model import Scenario

from .test_challenge_agents import changed, play


@lru_cache(maxsize=1)
def nominal() -> tuple[Scenario, ...]:
    return tuple(mmtsb_env.load_suite("nominal"))


@pytest.fixture(scope="module")
def m():
    return suite_measures(nominal())


# ---------------------------------------------------------------------------- the measures themselves
def test_look_alike_labels():
    assert look_alike("Dana Ortiz", "Dana Kim")  # same first name
    assert look_alike("Trip costs", "Trip costs (old)") and look_alike("Harvest Jazz Night", "Harvest Jazz Evening")
    assert not look_alike("Trip costs", "Grocery list") and not look_alike("Dana Ortiz", "Mark Ortiz") and not look_alike("", "x")


def _bare(**over) -> Scenario:
    data = {"id": "t/1", "rounds": [{"query": "Put these in a note.", "image_ids": [0], "solution": []}],
            "images": [{"render": {"kind": "receipt", "content": {}}, "category": "receipt"}],
            "expected_changes": [{"operation": "create", "table": "simple_note.notes", "row": {"title": "Trip costs"}}],
            "metadata": {"challenge_type": "none"}}
    data.update(over)
    return Scenario.from_dict(data, source="test")


def test_disambiguation_needs_a_staged_look_alike_or_a_clarification():
    assert not needs_disambiguation(_bare())
    other = {"simple_note.notes": [{"id": 9001, "title": "Grocery list"}]}
    assert not needs_disambiguation(_bare(initial_entities=other))
    alike = {"simple_note.notes": [{"id": 9001, "title": "Trip costs (old)"}]}
    assert needs_disambiguation(_bare(initial_entities=alike))
    asked = [{"query": "Send it to Dana.", "image_ids": [0], "clarifications": [{"answer": "Dana Ortiz."}]}]
    assert needs_disambiguation(_bare(rounds=asked))


def test_recorded_look_alikes_must_hold():
    staged = {"simple_note.notes": [{"id": 9001, "title": "Grocery list"}]}
    lying = {"challenge_type": "none", "lookalikes": [{"table": "simple_note.notes", "key": 9001, "of": "new", "by": "name"}]}
    assert recorded_lookalikes(_bare(initial_entities=staged, metadata=lying)) == []


def test_unrelated_rounds_are_counted_from_roles():
    assert unrelated_rounds(_bare(metadata={"challenge_type": "none", "round_roles": ["warmup"]})) == 1
    assert unrelated_rounds(_bare(metadata={"challenge_type": "none", "round_roles": ["setup"]})) == 0


def test_a_claim_counts_only_when_the_query_carries_the_wrong_value():
    rounds = [{"query": "It comes to $45.10, I think.", "image_ids": [0], "kind": "correction", "report": ["45.01"]}]
    md = {"challenge_type": "error_correction", "image_values": ["45.01"],
          "error_claims": [{"round": 0, "wrong": "45.10", "right": "45.01", "source": "image"}]}
    assert correction_contradicts_image(_bare(rounds=rounds, metadata=md))
    rounds[0]["query"] = "It comes to $45.01, I think."
    assert not correction_contradicts_image(_bare(rounds=rounds, metadata=md))


def test_table_prints_every_row(m):
    table = measures_table(nominal(), "nominal")
    assert table.count("\n") == 10 and "8.7 / 2 %" in table


# ---------------------------------------------------------------------------- the nominal suite's figures
def test_web_search_where_a_task_needs_an_outside_fact(m):
    """About a third of the reference paths look a fact up on the web (the reference sample: 35 %)."""
    assert 0.3 <= m["web_search_share"] <= 0.45, m["web_search_share"]


def test_a_staged_world_in_nearly_every_scenario(m):
    assert m["staged_share"] >= 0.9 and m["staged_rows_mean"] >= 6, (m["staged_share"], m["staged_rows_mean"])


def test_half_the_scenarios_need_disambiguation(m):
    assert m["disambiguation_share"] >= 0.5 and m["lookalike_share"] >= 0.5


def test_error_corrections_are_mostly_image_contradictions(m):
    """Most, as issue #32 asks (the paper's 12 of 13; ours about 56 %: an image must show a money amount,
    a time, a phone number or a date to be misquoted); the rest are the phone's data contradicting the
    user and own corrections."""
    hit, n = m["correction_contradicts_image"]
    assert n >= 60 and hit > 0.5 * n, (hit, n)


def test_state_mutations_update_or_delete_staged_rows(m):
    hit, n = m["mutation_touches_staged"]
    assert n >= 60 and hit >= 0.7 * n, (hit, n)


def test_one_story_per_scenario(m):
    assert m["unrelated_rounds"] == 0
    assert m["described_share"] == 1.0
    assert 30 <= m["query_words_mean"] <= 60 and m["query_words_in_30_60"] >= 0.6, m["query_words_mean"]
    assert m["guidance_words_mean"] >= 50
    for s in nominal():
        assert s.metadata["persona"] and s.description.startswith("You are "), s.id


def test_the_papers_image_mix(m):
    assert m["six_image_share"] >= 0.5, m["image_counts"]
    # every scenario has an image at the top level, which the reference path zooms (issue #29); on an
    # image legible as sent the tools are offered and never used (issue #32)
    assert m["vision_on_legible_share"] == 0, m["vision_in_reference_path_share"]


# ---------------------------------------------------------------------------- acting on a look-alike fails
def _swap(value, old, new):
    if isinstance(value, dict):
        return {k: _swap(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_swap(v, old, new) for v in value]
    return new if value == old else value


def _visual(step) -> bool:
    """A visual tool call (its numbers are pixel coordinates, never row keys)."""
    from mmtsb_env.tools.catalog import get_tool

    return "name" in step and get_tool(step["name"]).app == "vision"


def _careless(s: Scenario):
    """``s`` with every solution argument naming a staged target row pointed at its look-alike instead, or None."""
    for e in s.metadata.get("lookalikes", []):
        if e["of"] == "new" or str(e["of"]).startswith("new:"):
            continue
        if any(e["of"] in [v for st in r.solution if not _visual(st) for v in st.get("arguments", {}).values()] for r in s.rounds):
            def edit(data, e=e):
                for r in data["rounds"]:
                    r["solution"] = [st if _visual(st) else {**st, "arguments": _swap(st.get("arguments", {}), e["of"], e["key"])}
                                     for st in r["solution"]]
            return changed(s, edit)
    return None


def test_acting_on_a_look_alike_instead_of_the_row_meant_fails():
    found = 0
    for s in nominal():
        moves = _careless(s)
        if moves is None:
            continue
        f1, passed = play(s, moves)
        assert not passed and f1 < 1.0, s.id
        found += 1
        if found == 5:
            break
    assert found == 5


def test_deleting_the_row_meant_instead_of_its_old_copy_fails():
    found = 0
    for s in nominal():
        if not mutation_touches_staged(s):
            continue
        deleted = {(c.table, c.key) for c in s.expected_changes if c.operation == "delete"}
        # (files are deleted by path: the swap below works on keys)
        entries = [e for e in s.metadata.get("lookalikes", []) if (e["table"], e["key"]) in deleted and e["table"] != "file_system.files"]
        others = [e for e in s.metadata.get("lookalikes", [])
                  if entries and e["table"] == entries[0]["table"] and (e["table"], e["key"]) not in deleted]
        if not entries or not others:
            continue
        moves = changed(s, lambda d: [r.update(solution=[{**st, "arguments": _swap(st.get("arguments", {}), entries[0]["key"],
                                                                                       others[0]["key"])} for st in r["solution"]])
                                      for r in d["rounds"]])
        f1, passed = play(s, moves)
        assert not passed and f1 < 1.0, s.id
        found += 1
        if found == 3:
            break
    assert found >= 1


def test_a_look_alike_never_takes_a_staged_rows_key():
    from mmtsb_env.world.schema import table_spec

    for s in nominal():
        for t, rows in s.initial_entities.items():
            keys = [r[table_spec(t).key] for r in rows]
            assert len(keys) == len(set(keys)), (s.id, t)
        assert all(e["key"] != e["of"] for e in s.metadata.get("lookalikes", [])), s.id


def test_look_alikes_never_change_what_the_task_means():
    """The solution played with and without the staged look-alikes makes the same expected changes."""
    import dataclasses

    from mmtsb_env.generation.dryrun import expected_changes, play as dry
    from mmtsb_env.generation.staging import DELETES
    from mmtsb_env.world.schema import table_spec

    checked = 0
    for s in nominal()[:40]:
        fake = {(e["table"], e["key"]) for e in s.metadata.get("lookalikes", [])}
        if not fake:
            continue
        bare = {t: [r for r in rows if (t, r[table_spec(t).key]) not in fake] for t, rows in s.initial_entities.items()}
        # the clean-up of a look-alike (a state mutation) deletes it: those steps go, and its expected delete
        cleanups = set()
        for t, rows in s.initial_entities.items():
            if t in DELETES:
                tool, arg, col, _ = DELETES[t]
                cleanups |= {(tool, arg, r[col]) for r in rows if (t, r[table_spec(t).key]) in fake}
        rounds = [dataclasses.replace(r, solution=tuple(st for st in r.solution if not any(
            st.get("name") == tool and st.get("arguments", {}).get(arg) == v for tool, arg, v in cleanups))) for r in s.rounds]
        runs = [dry(rounds, ents, reference_time=s.reference_time, user_id=s.user_id) for ents in (s.initial_entities, bare)]
        with_, without = (sorted(map(repr, expected_changes(r.world))) for r in runs)
        assert with_ == without, s.id
        checked += 1
    assert checked >= 25


def test_typos_never_touch_an_ordinal():
    import random

    from mmtsb_env.generation.voice import PERSONAS, speak

    sloppy = next(p for p in PERSONAS if p.name == "sloppy")
    for seed in range(40):
        out = speak(random.Random(seed), sloppy, "Compare the second receipt with the fourth receipt and the earliest one.", first=True)
        assert "second" in out and "fourth" in out and "earliest" in out, out
