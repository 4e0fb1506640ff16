"""UI twins whose choice is a filter: the user privately wants the items meeting a condition the
screen shows (contact cards whose job title says Manager, price tags on sale, free or weekend
events) and ticks several of them; the expected changes stay the nominal twin's."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest

from mmtsb_env.generation.ui_variants import _FILTER_RULES, KINDS, make_variant, oracle_check, ui_variants
from mmtsb_env.scenario.model import Scenario
from mmtsb_env.scenario.suites import load_suite
from mmtsb_env.ui.choice import decide

NOMINAL = sorted(load_suite("nominal"), key=lambda s: s.id)
FILTERS = [(b, v) for b in NOMINAL for v in [make_variant(b, "pick_list")]
           if v is not None and any(c["type"] == "filter" for c in v.metadata["ui_variant"]["choices"])]


def filter_rounds(v):
    return [c["round"] - 1 for c in v.metadata["ui_variant"]["choices"] if c["type"] == "filter"]


def test_nominal_filters_become_private_multi_picks_with_the_twins_changes():
    assert len(FILTERS) >= 6  # 8 nominal filter scenarios over per-image items in the shipped suite
    for base, v in FILTERS:
        rule = _FILTER_RULES[base.images[0].category]
        assert Scenario.from_dict(v.to_dict()).to_dict() == v.to_dict()  # a valid file (a weekend's two words too)
        assert v.expected_changes == base.expected_changes and v.initial_entities == base.initial_entities, v.id
        assert [r.image_ids for r in v.rounds] == [r.image_ids for r in base.rounds]
        assert any(d in r.query for r in base.rounds for d in rule.descs), v.id  # the twin stated the criterion
        for r in v.rounds:  # the variant's requests never do, nor mention a screen
            assert not rule.tell.search(r.query) and "screen" not in r.query.lower(), (v.id, r.query)
        for i in filter_rounds(v):
            choice = next(c for c in v.metadata["ui_variant"]["choices"] if c["round"] == i + 1)
            rnd = v.rounds[i]
            assert "every" in rnd.ui.pick and "tick every" in rnd.instructions
            assert 1 <= len(choice["chosen"]) < choice["options"]  # some items pass, some do not
            written = json.dumps([st for st in base.rounds[i].solution if "name" in st], ensure_ascii=False)
            assert all(label in written for label in choice["chosen"]), v.id  # what the twin acted on


@pytest.mark.parametrize("kind", KINDS)
def test_oracle_solves_filter_variants_and_the_user_ticks_what_it_acts_on(kind):
    base = [b for b, v in FILTERS if len(filter_rounds(v)) == 2][0 if kind == KINDS[0] else -1]
    v = make_variant(base, kind)
    ok, why = oracle_check(v)
    assert ok, why


def test_a_screen_showing_misread_details_leads_to_the_wrong_ticks():
    base, v = next((b, v) for b, v in FILTERS if b.images[0].category == "price_tag")
    i = filter_rounds(v)[0]
    steps = list(v.rounds[i].solution)
    k = next(k for k, st in enumerate(steps) if st.get("name") == "render_ui_screen")
    misread = json.loads(json.dumps(steps[k]).replace("sale price", "regular price", 1))  # one kept item read as full price
    steps[k] = misread
    rounds = list(v.rounds)
    rounds[i] = replace(rounds[i], solution=tuple(steps))
    ok, why = oracle_check(replace(v, rounds=tuple(rounds)))
    assert not ok and ("ui_choice_acted_on" in why or "user picked" in why), why


def test_every_condition_reads_what_the_options_show():
    from mmtsb_env.scenario.model import UIDecision

    boxes = [{"surface_id": "s", "component_id": f"tick_{k}", "type": "CheckBox", "label": text}
             for k, text in enumerate(["Jazz Night · day: Saturday · admission: $12.00",
                                       "Book Fair · day: Tuesday · admission: free",
                                       "Saturday Market · day: Sunday · admission: free"])]
    confirm = {"surface_id": "s", "component_id": "confirm", "type": "Button", "label": "Confirm", "action": "confirm_choice",
               "context": {}}
    weekend = decide(UIDecision(pick={"every": {"says": ["day: Saturday", "day: Sunday"]}}), boxes + [confirm])
    assert weekend["field_values"] == {"tick_0": True, "tick_1": False, "tick_2": True}
    free = decide(UIDecision(pick={"every": {"says": "admission: free"}}), boxes + [confirm])
    assert free["field_values"] == {"tick_0": False, "tick_1": True, "tick_2": True}


def test_filters_add_non_compare_choice_points_to_the_ui_suite():
    kinds = Counter(c["type"] for v in ui_variants(NOMINAL, seed=2026) for c in v.metadata["ui_variant"]["choices"])
    # the shipped suite: 13 filter / 45 compare / 27 contact (compare was 32 of 58 without filters)
    assert kinds["filter"] >= 10 and kinds["compare"] / sum(kinds.values()) < 0.55, kinds
