"""UI choice rounds (issue #31): escape options, misread values in the right order, picks by a
name the user does not know. Episodes replay the oracle's work on shipped ui scenarios (picked by
property) with only the rendered screens edited."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.runner import run_episode
from mmtsb_env.scenario.model import UIDecision
from mmtsb_env.ui.choice import VALUE_RULES, decide, is_escape, offered_options
from mmtsb_env.ui.evaluation import _foreign_options

_spec = importlib.util.spec_from_file_location(
    "judge_probes", Path(__file__).resolve().parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)
_spec.loader.exec_module(probes)

UI = list(mmtsb_env.load_suite("ui"))


def _edit(value, fn):
    """Every string of a tool call's arguments through ``fn``; ``fn`` may also edit a dict."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_edit(v, fn) for v in value]
    if isinstance(value, dict):
        out = {k: _edit(v, fn) for k, v in value.items()}
        return fn(out) if "MultipleChoice" in out else out
    return value


def _replay(scenario, fn, rounds):
    """The oracle's episode with the screens it renders in ``rounds`` edited by ``fn``: the failed
    criteria (name -> reason)."""
    steps = {k: [dict(st, arguments=_edit(st["arguments"], fn)) if st.get("name") == "render_ui_screen" else st
                 for st in scenario.rounds[k].solution] for k in rounds}
    rec = run_episode(scenario, probes.Rewritten(probes.Case("", scenario, {}, True, steps=steps)))
    return {c["criterion"]: c.get("reason", "") for c in rec.verdict["criteria"] if not c["pass"]}


def _rounds(scenario, ok):
    return [k for k, r in enumerate(scenario.rounds) if r.ui is not None and r.ui.pick and ok(r.ui)]


def _with_option(label):
    def fn(value):
        if isinstance(value, dict) and isinstance(value.get("MultipleChoice", {}).get("options"), list):
            mc = dict(value["MultipleChoice"])
            mc["options"] = mc["options"] + [{"label": label, "value": re.sub(r"\W+", "_", label.lower())}]
            return {**value, "MultipleChoice": mc}
        return value
    return fn


def _mc_scenarios(n):
    out = []
    for s in UI:
        rounds = _rounds(s, lambda ui: ui.expect and ui.choose is None)
        if rounds and any("MultipleChoice" in str(st.get("arguments")) for k in rounds for st in s.rounds[k].solution
                          if st.get("name") == "render_ui_screen"):
            out.append((s, rounds))
    return out[:n]


# ------------------------------------------------------------------ escape options
@pytest.mark.parametrize("label", ["None of these", "Skip", "Cancel", "Other / not listed", "Not now", "Neither"])
def test_an_escape_option_is_no_option_to_choose(label):
    elements = [{"surface_id": "s", "component_id": "pick", "type": "MultipleChoice", "label": "Invoice",
                 "options": [{"label": "Lumen Hardware $22.13", "value": "a"}, {"label": "Pine Street Books $20.51", "value": "b"},
                             {"label": label, "value": "x"}]},
                {"surface_id": "s", "component_id": "ok", "type": "Button", "label": "Submit", "action": "submit"}]
    decision = UIDecision(pick={"cheapest": True}, expect=("Lumen Hardware", "Pine Street Books"))
    assert is_escape(label) and _foreign_options(decision, elements) == []
    assert [k for k, _ in offered_options(elements)] == ["pick=a", "pick=b"]
    assert decide(decision, elements)["field_values"] == {"pick": ["b"]}
    guessed = [dict(elements[0], options=elements[0]["options"][:1] + [{"label": "Harbor Lights Cafe $9.10", "value": "c"},
                                                                         {"label": label, "value": "x"}])]
    assert _foreign_options(decision, guessed) == ["Harbor Lights Cafe $9.10 c"]


@pytest.mark.parametrize("label", ["Nonetheless Books", "Skipper's Diner", "Other Side Cafe"])
def test_a_name_that_begins_like_an_escape_word_is_an_option(label):
    assert not is_escape(label)


def test_an_honest_screen_with_an_escape_option_passes_and_guessed_names_still_fail():
    cases = _mc_scenarios(2)
    assert len(cases) == 2
    for s, rounds in cases:
        assert "ui_affordances" not in _replay(s, _with_option("None of these"), rounds), s.id
        failed = _replay(s, lambda v: _with_option("None of these")(_with_option("Harbor Lights Cafe")(v)), rounds)
        assert "none of the items in question" in failed.get("ui_affordances", ""), (s.id, failed)


# ------------------------------------------------------------------ misread values, same order
def _value_scenario(rules, shows):
    """The first shipped ui scenario with a round of ``rules`` whose screen shows ``shows`` and whose
    items are images (their facts are the true values; ``expect`` names, no values)."""
    for s in UI:
        labels = {str(im.facts.get("label", "")) for im in s.images}
        rounds = _rounds(s, lambda ui: any(k in rules for k in ui.pick) and set(ui.expect) <= labels)
        if rounds and any(re.search(shows, str(st.get("arguments"))) for k in rounds for st in s.rounds[k].solution
                          if st.get("name") == "render_ui_screen"):
            return s, rounds
    raise LookupError(rules)


def _scaled(text):
    return re.sub(r"\$(\d[\d,]*(?:\.\d+)?)", lambda m: f"${float(m[1].replace(',', '')) * 1.37:,.2f}", text)


def _days_later(text):
    return re.sub(r"\b(\d{4})-(\d{2})-(\d{2})\b", lambda m: f"{m[1]}-{m[2]}-{min(int(m[3]) + 2, 28):02d}", text)


@pytest.mark.parametrize("rules,shows,misread", [
    (("cheapest", "most_expensive"), r"\$\d", _scaled),
    (("earliest", "latest"), r"\d{4}-\d{2}-\d{2}", _days_later),
], ids=["prices x1.37", "dates +2 days"])
def test_a_screen_of_values_misread_in_the_same_order_fails_ui_affordances(rules, shows, misread):
    s, rounds = _value_scenario(rules, shows)
    assert "ui_affordances" not in _replay(s, lambda v: v, rounds), s.id  # the honest screen
    failed = _replay(s, lambda v: misread(v) if isinstance(v, str) else v, rounds)
    assert "a value its images do not" in failed.get("ui_affordances", ""), (s.id, failed)


# ------------------------------------------------------------------ a name the user does not know
def test_a_pick_by_a_name_the_user_does_not_know_taps_nothing():
    elements = [{"surface_id": "s", "component_id": f"pick#{i}", "type": "Button", "label": "Select", "action": "pick",
                 "context": {}, "description": d} for i, d in enumerate(["Pine Street Books", "Lumen Hardware"])]
    for pick in ({"label_contains": "Pine Street Books"}, {"label_contains": "Lumen Hardware"}):
        assert decide(UIDecision(pick=pick), elements, "Please show me both receipts.") is None
        assert decide(UIDecision(pick=pick), elements, f"I want {pick['label_contains']}.") is not None
    assert set(VALUE_RULES) >= {"cheapest", "latest"}


def test_a_value_pick_does_not_depend_on_the_hidden_expect_texts():
    """The round's ``expect`` names are the judge's: the same screen gets the same tap whatever they are."""
    screen = [{"type": "Button", "component_id": "a", "surface_id": "s", "label": "150 mm", "description": "Plan 300",
               "action": "pick"},
              {"type": "Button", "component_id": "b", "surface_id": "s", "label": "200 mm", "description": "Plan 100",
               "action": "pick"}]
    picks = {decide(UIDecision(pick={"lowest_value": True}, expect=expect), screen, "pick the lowest")["component_id"]
             for expect in (("Plan 300", "Plan 100"), ("zqhidden0001", "zqhidden0002"), ())}
    assert len(picks) == 1, picks
    rainfall = [dict(screen[0], label="Rainfall 2024", description="Total: 512"),
                dict(screen[1], label="Rainfall 2023", description="Total: 498")]
    assert decide(UIDecision(pick={"highest_value": True}), rainfall, "the highest")["component_id"] == "a"
    named = [dict(screen[0], label="Rainfall 2024", description="512 mm"), dict(screen[1], label="Rainfall 2023", description="498 mm")]
    assert decide(UIDecision(pick={"lowest_value": True}), named, "the lowest")["component_id"] == "b"


def test_a_screen_whose_options_all_read_the_same_fails_ui_affordances():
    """rt-score F5: every option showing every item ("Pine Street Books / Lumen Hardware") lets the
    user tap without the items told apart."""
    s, rounds = _mc_scenarios(1)[0]
    names = [x for k in rounds for x in s.rounds[k].ui.expect]
    joined = " / ".join(names)

    def blend(value):
        return joined if isinstance(value, str) and any(n in value for n in names) else value

    failed = _replay(s, blend, rounds)
    assert "two or more of the items" in failed.get("ui_affordances", ""), (s.id, failed)
