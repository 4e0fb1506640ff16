"""UI rounds are decided by the screen, not by what the user privately knows (red team s13: F12, F3,
F4, F7, F8). Scenarios are picked by property from the shipped ``ui`` suite."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.generation.ui_variants import VALUE_RULE, _compare_options, _list_screen
from mmtsb_env.runner import run_episode
from mmtsb_env.tools.catalog import get_tool
from mmtsb_env.ui.choice import ALREADY_CHOSEN, CANNOT_CHOOSE

SUITE = [s for s in mmtsb_env.load_suite("ui") if s.id.startswith("ui/gen_")]


def _compare_rounds(s):
    return [c["round"] - 1 for c in s.metadata["ui_variant"]["choices"] if c["type"] == "compare"]


def _options(s, i):
    """The round's options as the reference screen shows them: name and the compared value."""
    rule = next(k for k in s.rounds[i].ui.pick if k != "action")
    category = s.images[0].category
    direction = next(d for d, r in VALUE_RULE[category].items() if r == rule)
    return [{"label": o["label"], "detail": o["detail"]} for o in _compare_options(s, i, category, direction)
            if o["label"] in s.rounds[i].ui.expect]


def _chosen(s, i):
    return next(c["chosen"] for c in s.metadata["ui_variant"]["choices"] if c["round"] - 1 == i)


# one opening compare round per pick rule: the screen is the first thing the assistant shows
FIRST_COMPARES = list({next(k for k in s.rounds[0].ui.pick if k != "action"): s for s in reversed(SUITE)
                       if 0 in _compare_rounds(s)}.values())


def _answers(scenario, options_per_screen):
    """Show each screen of ``options_per_screen`` in turn in the scenario's first round (one episode,
    tool mode) and return the user's replies: the tapped option's name, or what it said."""
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool", max_images=0, message_images="id")
    env.reset(seed=0)
    replies = []
    for k, options in enumerate(options_per_screen):
        env.step(json.dumps({"name": "render_ui_screen", "arguments": {
            "ui_json": _list_screen(f"probe{k}", "Which one?", "Tap Choose on your pick.", options)}}))
        env.step(json.dumps({"name": "show_ui_to_user", "arguments": {}}))
        obs, *_ = env.step("Here are the options: tap Choose on your pick.")
        tapped = re.search(r"Resolved action data: (\{.*?\})", obs["text"])
        replies.append(json.loads(tapped.group(1))["name"] if tapped else obs["text"].rsplit("User:", 1)[-1].strip())
    return replies


def test_the_suite_has_compare_twins_of_every_kind():
    rules = {next(k for k in s.rounds[0].ui.pick if k != "action") for s in FIRST_COMPARES}
    assert {"earliest", "latest", "cheapest", "most_expensive"} <= rules, rules
    assert all(c["rule"] != "label_contains" for s in SUITE for c in s.metadata["ui_variant"]["choices"]
               if c["type"] == "compare")


@pytest.mark.parametrize("scenario", FIRST_COMPARES, ids=lambda s: s.id)
def test_the_pick_follows_the_values_the_screen_shows(scenario):
    """F3: the right values get the winner; the same names without values get no pick; the values
    moved one option along (every value misread) get the option showing the winning value."""
    options = _options(scenario, 0)
    rotated = [dict(o, detail=options[(k + 1) % len(options)]["detail"]) for k, o in enumerate(options)]
    [right], [blank], [misread] = (_answers(scenario, [shown]) for shown in (options, [dict(o, detail="") for o in options],
                                                                           rotated))
    winner = _chosen(scenario, 0)
    assert right == winner
    assert blank == CANNOT_CHOOSE
    shows_winning_value = next(o["label"] for o in rotated if o["detail"] == next(x["detail"] for x in options
                                                                                 if x["label"] == winner))
    assert misread == shows_winning_value != winner


def test_one_decision_per_choice_point_and_no_closest_option():
    """F12: after its tap the user answers a further choice screen of the round with 'already
    chose'; a screen of words from the pick's name (no values) gets no tap at all."""
    scenario = FIRST_COMPARES[0]
    options = _options(scenario, 0)
    words = [{"label": w, "detail": ""} for w in _chosen(scenario, 0).split()[:3] + ["Other", "Something"]]
    fresh = _answers(scenario, [words])
    assert fresh == [CANNOT_CHOOSE]
    first, again = _answers(scenario, [options, options])
    assert first == _chosen(scenario, 0) and again == ALREADY_CHOSEN


def _with_screen(scenario, index, options):
    """``scenario`` whose reference solution shows ``options`` in round ``index`` instead of its own screen."""
    rounds = list(scenario.rounds)
    steps = [dict(st, arguments={"ui_json": _list_screen(f"choice_{index + 1}", "Which one?", "Tap Choose.", options)})
             if st.get("name") == "render_ui_screen" else st for st in rounds[index].solution]
    rounds[index] = replace(rounds[index], solution=tuple(steps))
    return replace(scenario, rounds=tuple(rounds))


def _failed(record):
    return {c["criterion"] for c in record.verdict["criteria"] if not c["pass"]}


def test_a_screen_offering_more_than_the_items_fails_affordances():
    """F12: the items of the conversation plus names it never established (a pool of guesses)."""
    scenario = FIRST_COMPARES[0]
    options = _options(scenario, 0)
    others = sorted({im.facts["label"] for s in SUITE for im in s.images if isinstance(im.facts.get("label"), str)}
                    - {o["label"] for o in options})[:12]
    padded = options + [{"label": name, "detail": ""} for name in others]
    record = run_episode(_with_screen(scenario, 0, padded), OracleAgent([_with_screen(scenario, 0, padded)]))
    assert record.entity_f1 == 1.0 and "ui_affordances" in _failed(record), record.verdict


def test_acting_on_another_option_than_the_tapped_one_fails():
    """F4: the screen's values are misread, the user taps another option, the assistant writes the
    true winner anyway: ui_choice_acted_on fails (the right screen passes it)."""
    scenario = FIRST_COMPARES[0]
    options = _options(scenario, 0)
    rotated = [dict(o, detail=options[(k + 1) % len(options)]["detail"]) for k, o in enumerate(options)]
    misread = _with_screen(scenario, 0, rotated)
    right = _with_screen(scenario, 0, options)
    assert "ui_choice_acted_on" in _failed(run_episode(misread, OracleAgent([misread])))
    assert "ui_choice_acted_on" not in _failed(run_episode(right, OracleAgent([right])))


def test_a_rerun_that_writes_a_new_winner_is_a_choice():
    """F7: after the first UI choice, a round whose reference writes an item of the compare gets a
    screen unless it writes the last pick again (the criterion is private: only a screen can tell)."""
    checked = 0
    for s in SUITE:
        rounds = _compare_rounds(s)
        if not rounds:
            continue
        labels = [im.facts.get("label") for im in s.images if isinstance(im.facts.get("label"), str)]
        last = _chosen(s, rounds[0])
        for i in range(rounds[0] + 1, len(s.rounds)):
            if s.rounds[i].ui is not None:
                last = _chosen(s, i) if i in rounds else last
                continue
            written = json.dumps([st for st in s.rounds[i].solution if st.get("name") and get_tool(st["name"]).writes])
            named = [x for x in labels if x in written]
            assert all(x == last for x in named), (s.id, i, last, named)
            checked += 1
    assert checked >= 10


def test_the_reference_never_looks_up_the_pick_before_the_tap():
    """F8: no step before a UI round's screen names the option the user will pick."""
    for s in SUITE:
        for c in s.metadata["ui_variant"]["choices"]:
            steps = s.rounds[c["round"] - 1].solution
            k = next(k for k, st in enumerate(steps) if st.get("name") == "render_ui_screen")
            before = json.dumps([st for st in steps[:k] if "name" in st], ensure_ascii=False)
            for name in c["chosen"] if isinstance(c["chosen"], list) else [c["chosen"]]:  # a filter: the ones ticked
                assert name not in before, (s.id, c)
