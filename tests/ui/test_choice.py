"""The scripted user's UI decisions (rules over shown elements) and the round ``ui`` field."""

from __future__ import annotations

import json

import pytest

from mmtsb_env.scenario.model import Scenario, ScenarioError, UIDecision
from mmtsb_env.ui.choice import confirm_step, decide, prices


def el(cid, label="Select", action="select", description="", context=None, primary=True, surface="s"):
    return {"surface_id": surface, "component_id": cid, "type": "Button", "label": label, "action": action,
            "context": context or {}, "description": description, "primary": primary}


CAMERAS = [el("add#0", "Add", "add", "Fujifilm X-T4 | $1,699.00"), el("add#1", "Add", "add", "Fujifilm X100VI | $1,599.00"),
           el("add#2", "Add", "add", "Leica X2 | $1,999.00")]


def test_price_rules_pick_the_cheapest_and_the_most_expensive():
    assert decide(UIDecision(pick={"cheapest": True}), CAMERAS) == {"action_name": "add", "surface_id": "s", "component_id": "add#1"}
    assert decide(UIDecision(pick={"most_expensive": True}), CAMERAS)["component_id"] == "add#2"


def test_prices_come_from_text_and_price_like_context_keys():
    assert prices(el("a", description="Total $1,234.50 (was 2000)")) == [1234.5]
    assert prices(el("a", context={"price": "19.99", "qty": 3})) == [19.99]
    assert prices(el("a", description="12 items")) == []
    cheap = [el("a", context={"price": 30}), el("b", context={"price": 12}), el("c", label="Cancel", action="cancel")]
    assert decide(UIDecision(pick={"cheapest": True}), cheap)["component_id"] == "b"


@pytest.mark.parametrize("early, late", [
    ("05/25/2026 20:00", "06/02/2026 09:00"),   # US, month first
    ("25/05/2026 20:00", "14/06/2026 09:00"),   # day first (a part over 12 is the day)
    ("02/06/2026 20:00", "05/25/2026 09:00"),   # both parts <= 12 on a slash: US month first (Feb 6)
    ("06/05/2026 20:00", "25/05/2026 09:00"),   # 06/05 is day first too: another date on the screen is
    ("25.05.2026 20:00", "02.06.2026 09:00"),   # European dotted, day first
])
def test_date_rules_read_numeric_day_month_year_dates(early, late):
    events = [el("e#0", description=f"Garden Charity Run | {early}"), el("e#1", description=f"Jazz Night | {late}")]
    assert decide(UIDecision(pick={"latest": True}), events)["component_id"] == "e#1"
    assert decide(UIDecision(pick={"earliest": True}), events)["component_id"] == "e#0"
    assert decide(UIDecision(pick={"earliest": True}), events[::-1])["component_id"] == "e#0"


@pytest.mark.parametrize("written, value", [("12.50 $", 12.5), ("CHF 12.50", 12.5), ("12,50 €", 12.5), ("€12,80", 12.8),
                                            ("1.099,00 €", 1099.0), ("$12,500", 12500.0), ("99.74 USD", 99.74)])
def test_prices_in_other_currency_forms(written, value):
    assert prices(el("a", description=f"Item | {written}")) == [value]


def test_a_price_screen_without_currency_signs_is_read_by_its_numbers():
    carts = [el("c#0", description="Camera cart | Total: 1,476.27"), el("c#1", description="Lens cart | Total: 999.50")]
    assert decide(UIDecision(pick={"cheapest": True}), carts)["component_id"] == "c#1"
    assert decide(UIDecision(pick={"most_expensive": True}), carts)["component_id"] == "c#0"
    euros = [el("e#0", description="Bakery | €12,80"), el("e#1", description="Deli | €12,50")]
    assert decide(UIDecision(pick={"cheapest": True}), euros)["component_id"] == "e#1"


def test_label_rule_matches_label_description_or_context_and_can_filter_by_action():
    buttons = [el("x", "Delete", "delete", "Call Priya Raman | about the lease"),
               el("y", "Delete", "delete", "Call Priya Raman (dentist)"), el("z", "Edit lease", "edit")]
    assert decide(UIDecision(pick={"label_contains": "LEASE"}), buttons)["component_id"] == "x"
    assert decide(UIDecision(pick={"label_contains": "lease", "action": "edit"}), buttons)["component_id"] == "z"
    assert decide(UIDecision(pick={"label_contains": "dentist"}), buttons)["component_id"] == "y"
    assert decide(UIDecision(pick={"label_contains": "gym"}), buttons) is None


def test_choice_chips_are_selected_then_submitted():
    elements = [{"surface_id": "s", "component_id": "mc", "type": "MultipleChoice", "label": "Events", "path": "/pick",
                 "value": [], "options": [{"label": "Night Market · Free", "value": "nm"}, {"label": "Film · $12", "value": "ff"}],
                 "max_selections": 1},
                el("cancel", "Cancel", "cancel", primary=False), el("ok", "Confirm", "confirm")]
    assert decide(UIDecision(pick={"label_contains": "night"}), elements) == {
        "action_name": "confirm", "surface_id": "s", "component_id": "ok", "field_values": {"mc": ["nm"]}}
    assert decide(UIDecision(pick={"cheapest": True}), elements)["field_values"] == {"mc": ["ff"]}
    # without a button the choice itself is the interaction
    assert decide(UIDecision(pick={"label_contains": "film"}), elements[:1]) == {
        "action_name": "change", "surface_id": "s", "component_id": "mc", "field_values": {"mc": ["ff"]}}


def test_fill_finds_fields_by_label_id_or_path():
    elements = [{"surface_id": "s", "component_id": "t", "type": "TextField", "label": "Note title", "path": "/note/title", "value": ""},
                el("save", "Save note", "save_note")]
    for key in ("title", "t", "/note/title"):
        assert decide(UIDecision(pick={"label_contains": "save"}, fill={key: "Team lunch"}), elements)["field_values"] == {"t": "Team lunch"}
    assert decide(UIDecision(pick={"label_contains": "save"}, fill={"Amount": 3}), elements) is None


def test_explicit_choice():
    d = UIDecision(choose={"component_id": "add#2", "field_values": {"q": 1}})
    assert decide(d, CAMERAS) == {"action_name": "add", "surface_id": "s", "component_id": "add#2", "field_values": {"q": 1}}
    assert decide(UIDecision(choose={"component_id": "add#9"}), CAMERAS) is None
    assert decide(UIDecision(choose={"component_id": "add#0", "surface_id": "other"}), CAMERAS) is None


def test_confirm_step_presses_the_single_positive_button():
    assert confirm_step([el("no", "Cancel", "cancel", primary=False), el("yes", "Delete", "confirm")])["component_id"] == "yes"
    assert confirm_step([el("a", "One", "one", primary=False), el("b", "Two", "two", primary=False)]) is None


def test_round_ui_field_parses_and_round_trips():
    data = {"id": "t/x", "rounds": [{"query": "q", "ui": {"criterion": "c", "pick": {"cheapest": True}, "expect": ["a"],
                                                          "fill": {"Title": "x"}}}]}
    s = Scenario.from_dict(data)
    assert s.rounds[0].ui == UIDecision(criterion="c", pick={"cheapest": True}, fill={"Title": "x"}, expect=("a",))
    assert Scenario.from_dict(json.loads(json.dumps(s.to_dict()))) == s
    assert Scenario.from_dict({"id": "t/y", "rounds": [{"query": "q"}]}).rounds[0].ui is None


@pytest.mark.parametrize("spec, fragment", [
    ("cheap", "must be an object"),
    ({"pick": {"cheapest": True}, "choose": {"component_id": "a"}}, "exactly one of 'choose'"),
    ({"pick": {"fastest": True}}, "needs exactly one rule"),
    ({"pick": {"cheapest": "yes"}}, "pick.cheapest: must be true"),
    ({"pick": {"label_contains": ""}}, "label_contains: must be a non-empty string"),
    ({"choose": {"surface_id": "s"}}, "needs a 'component_id'"),
    ({"choose": {"component_id": "a", "when": 1}}, "unknown field(s) ['when']"),
    ({"pick": {"cheapest": True}, "expect": "a"}, "expect: must be a list of strings"),
    ({"pick": {"cheapest": True}, "style": 1}, "unknown field(s) ['style']"),
])
def test_round_ui_field_errors(spec, fragment):
    with pytest.raises(ScenarioError) as info:
        Scenario.from_dict({"id": "t/z", "rounds": [{"query": "q", "ui": spec}]})
    assert "rounds[0].ui" in str(info.value) and fragment in str(info.value)
