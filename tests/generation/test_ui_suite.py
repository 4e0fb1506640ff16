"""The built-in ``ui`` suite: hand-written UI scenarios plus oracle-verified UI variants of the nominal ones."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pytest

from mmtsb_env.baselines import OracleAgent
from mmtsb_env.generation.axes import ARRIVALS, CHALLENGES, FLOWS
from mmtsb_env.generation.flows import compare_desc
from mmtsb_env.generation.ui_variants import (
    _FILTER_RULES, KINDS, MAX_STEPS, build_ui_suite, make_variant, oracle_check, stated_criterion, ui_variants, write_ui_suite,
)
from mmtsb_env.runner import run_episode
from mmtsb_env.scenario.suites import load_suite
from mmtsb_env.tools.catalog import get_tool

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
    if "every" in pick and "says" in pick["every"]:  # a filter: the words the ticked options show
        says = pick["every"]["says"]
        return [str(w) for w in (says if isinstance(says, list) else [says])]
    words = {"cheapest": "cheap", "most_expensive": "expensive", "earliest": "happens first", "latest": "happens last",
             "closes_earliest": "closes earliest", "closes_latest": "closes latest", "lowest_value": "lowest",
             "highest_value": "highest"}
    said = [w for rule, w in words.items() if rule in pick]
    return said or ([decision.choose["component_id"]] if decision.choose else [])


def ui_rounds(s):
    return [i for i, r in enumerate(s.rounds) if r.ui is not None]


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
        assert 1 <= len(ui_rounds(s)) <= 3, s.id
        for i in ui_rounds(s):
            r = s.rounds[i]
            names = [step.get("name", "say") for step in r.solution]
            k = names.index("render_ui_screen")
            assert names[k:k + 3] == ["render_ui_screen", "show_ui_to_user", "say"], s.id
            screen = r.solution[k]["arguments"]["ui_json"]
            assert {"surfaceUpdate", "beginRendering"} <= {key for m in screen for key in m}
            text = json.dumps(screen, ensure_ascii=False)
            assert len(r.ui.expect) >= 2 and all(label in text for label in r.ui.expect), s.id
            # something acts on the pick: a write after the screen, in this round or a later one --
            # unless it is a re-run whose pick did not change (then nothing is to be changed)
            later = list(r.solution[k + 3:]) + [st for q in s.rounds[i + 1:] for st in q.solution]
            choices = {c["round"] - 1: c["chosen"] for c in s.metadata["ui_variant"]["choices"]}
            before = [choices[j] for j in sorted(choices) if j < i]
            unchanged = bool(before) and before[-1] == choices[i]
            assert unchanged or any(st.get("name") and get_tool(st["name"]).writes for st in later), (s.id, i)


def test_generated_variants_cover_the_design_axes():
    md = [s.metadata for s in GENERATED]
    assert {m["flow_type"] for m in md} == set(FLOWS)
    assert {m["challenge_type"] for m in md} == set(CHALLENGES)
    assert {m["image_arrival"] for m in md} == set(ARRIVALS)
    assert {m["ui_variant"]["kind"] for m in md} == set(KINDS)
    choices = [c for m in md for c in m["ui_variant"]["choices"]]
    assert {c["type"] for c in choices} == {"compare", "contact", "filter"}
    assert {c["rule"] for c in choices} >= {"label_contains", "cheapest", "most_expensive", "earliest", "latest", "lowest_value", "every"}
    assert all(c["rule"] != "label_contains" for c in choices if c["type"] == "compare")  # decided by the values shown
    rounds = Counter(len(m["ui_variant"]["choices"]) for m in md).keys()
    assert rounds <= {1, 2, 3} and len(rounds) >= 2, rounds  # 1-3 UI rounds, not all alike
    domains = Counter(d for s in GENERATED for d in s.domains)
    assert len(domains) >= 12


@pytest.mark.parametrize("scenario", GENERATED[::max(1, len(GENERATED) // 10)][:10], ids=lambda s: s.id)
def test_oracle_solves_generated_variant_through_the_screen(scenario):
    ok, why = oracle_check(scenario, max_steps=MAX_STEPS)
    assert ok, why


@pytest.mark.parametrize("scenario", HAND_WRITTEN, ids=lambda s: s.id)
def test_oracle_solves_hand_written_scenario(scenario):
    record = run_episode(scenario, OracleAgent([scenario]))
    assert record.entity_f1 == 1.0 and record.passed, record.verdict


def _mutated(s, index, **ui_changes):
    r = s.rounds[index]
    rounds = list(s.rounds)
    rounds[index] = replace(r, ui=replace(r.ui, **ui_changes))
    return replace(s, rounds=tuple(rounds))


def test_check_fails_when_the_user_would_choose_something_else():
    s = next(s for s in GENERATED if any("label_contains" in s.rounds[i].ui.pick for i in ui_rounds(s)))
    i = next(i for i in ui_rounds(s) if "label_contains" in s.rounds[i].ui.pick)
    chosen = s.rounds[i].ui.pick["label_contains"]
    other = next(x for x in s.rounds[i].ui.expect if x != chosen)
    mutated = _mutated(s, i, pick={"label_contains": other})
    rounds = list(mutated.rounds)  # the user is told the other name (a name it does not know is never read)
    rounds[i] = replace(rounds[i], instructions=rounds[i].instructions.replace(chosen, other))
    ok, why = oracle_check(replace(mutated, rounds=tuple(rounds)))
    assert not ok and ("ui_choice_acted_on" in why or f"user picked '{other}'" in why), why


def test_skipping_the_screen_fails_the_verdict():
    s = GENERATED[0]
    rounds = list(s.rounds)
    for i in ui_rounds(s):
        steps = rounds[i].solution
        k = next(k for k, st in enumerate(steps) if st.get("name") == "render_ui_screen")
        rounds[i] = replace(rounds[i], solution=steps[:k] + steps[k + 3:])
    no_screen = replace(s, rounds=tuple(rounds))
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
    base = sorted(load_suite("nominal"), key=lambda s: s.id)[:40]
    first, second = ui_variants(base, seed=3), ui_variants(base, seed=3)
    assert first and [v.to_dict() for v in first] == [v.to_dict() for v in second]
    # a task the user states in full (no compare criterion, no contact to tell apart) has no choice to move
    plain = next(b for b in base if b.metadata["flow_type"] != "compare"
                 and not any("say" in st for r in b.rounds for st in r.solution))
    assert make_variant(plain, "pick_list") is None
    assert all(v.id == "ui/" + v.metadata["ui_variant"]["base_id"] for v in first)


def test_every_generated_ui_scenario_is_its_nominal_twin_with_choices_on_screens():
    """Text vs UI mode compare the same tasks (the paper's converted subset): the same expected
    changes, rounds, images and staged rows; each UI round replaces a choice the nominal twin made
    in words (a compare criterion the request stated, or the answer to "which Steven?"); no request
    mentions a screen."""
    nominal = {s.id: s for s in load_suite("nominal")}
    assert len(GENERATED) >= 50
    for v in GENERATED:
        base = nominal[v.metadata["ui_variant"]["base_id"]]
        assert base.ui is False
        assert v.expected_changes == base.expected_changes, v.id
        assert v.images == base.images and v.initial_entities == base.initial_entities, v.id
        assert len(v.rounds) == len(base.rounds), v.id
        assert [r.image_ids for r in v.rounds] == [r.image_ids for r in base.rounds]
        assert not any("screen" in r.query.lower() for r in v.rounds), v.id
        for choice in v.metadata["ui_variant"]["choices"]:
            i = choice["round"] - 1
            mine, theirs = v.rounds[i], base.rounds[i]
            assert mine.ui is not None and theirs.ui is None
            if choice["type"] == "contact":  # the twin asked in words and the user answered by name
                assert any("Which one do you mean?" in st.get("say", "") for st in theirs.solution)
                assert any(choice["chosen"] in c.answer for c in theirs.clarifications)
                assert not any(choice["chosen"] in c.answer for c in mine.clarifications)
            elif choice["type"] == "filter":  # the twin stated the filter; the variant's requests never do
                rule = _FILTER_RULES[base.images[0].category]
                assert any(d in r.query for r in base.rounds for d in rule.descs), v.id
                assert not any(rule.tell.search(r.query) for r in v.rounds), v.id
            else:  # the twin's requests stated the criterion (typos allowed); the variant's never do
                descs = {p: compare_desc(base.images[0].category, {"pick": p}) for p in ("max", "min")}
                assert any(stated_criterion(r.query, descs) or all(d in r.query for d in descs.values())
                           for r in base.rounds), v.id
                assert not any(stated_criterion(r.query, descs) for r in v.rounds), v.id
        changed = {c["round"] - 1 for c in v.metadata["ui_variant"]["choices"]}
        for i, (mine, theirs) in enumerate(zip(v.rounds, base.rounds)):
            if i not in changed and mine.query != theirs.query:  # only a compare or filter criterion's own round
                assert v.metadata["ui_variant"]["choices"][0]["type"] in ("compare", "filter"), (v.id, i)
    assert len({v.metadata["ui_variant"]["base_id"] for v in GENERATED}) == len(GENERATED)
