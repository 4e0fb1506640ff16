"""The reference's UI choice points ("When it does, select Charlie Davis via `ui_user_interact`")
become the round's UI decision: the scripted user makes the choice on the screen the assistant
shows, by its own words only (a name it was given, the cheaper of the shown prices, approving the
screen), never by what an image shows."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from mmtsb_env.baselines import ReferenceOracleAgent
from mmtsb_env.baselines.reference_oracle import ui_round_steps
from mmtsb_env.envs import MMToolSandboxEnv
from mmtsb_env.runner import run_suite
from mmtsb_env.scenario.importer import import_reference, ui_choice

OFFICIAL = Path("/work/shared/reference/official_scenarios")
for _candidate in (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "official_scenarios", OFFICIAL):
    if _candidate.exists():
        OFFICIAL = _candidate
        break
official = pytest.mark.skipif(not OFFICIAL.exists(), reason="the reference's official scenarios are not available here")
UI = "via `ui_user_interact`."


@pytest.mark.parametrize("sentence, expected", [
    (f"When the assistant presents the price comparison, select the cheaper toy and add it to your Amazon cart {UI}", {"cheapest": True}),
    (f"When the assistant presents the comparison, select the more expensive item as the premium gift {UI}", {"most_expensive": True}),
    (f"When it does, select Alex Johnson (the event coordinator) {UI}", {"label_contains": "Alex Johnson"}),
    (f"When it does, select the new 'Auction Items' note you just created today {UI}", {"label_contains": "Auction Items"}),
    (f"When it does, select the personal one {UI}", {"label_contains": "personal"}),
    (f"When it asks for clarification or presents both, select the one in the Marketing project {UI}", {"label_contains": "Marketing"}),
    (f"When the assistant presents the email draft for review, approve sending {UI}", {"approve": True}),
    (f"Select your home address {UI}", {"label_contains": "home"}),
])
def test_a_choice_the_user_can_name_becomes_a_pick(sentence, expected):
    decision, why = ui_choice(sentence)
    assert decision == {"pick": expected} and why == ""


@pytest.mark.parametrize("sentence, why", [
    (f"When the assistant presents the three items with their ratings, select the highest-rated one {UI}", "what the images or data show"),
    (f"When it presents them, select the one with Chinese characters in its title (matching the screenshot exactly) {UI}",
     "what the images or data show"),
    (f"When the assistant presents the driver data from both races, select only the drivers who appear in the Q3 section of "
     f"BOTH Monaco and Bahrain {UI}", "that no word or number of an option states"),
    (f"When the assistant presents the comparison, decide you prefer the new item and swap it in {UI}", "cannot turn into a pick"),
])
def test_a_choice_by_image_content_or_of_several_stays_prose(sentence, why):
    decision, reason = ui_choice(sentence)
    assert decision is None and why in reason


@pytest.mark.parametrize("sentence, names", [
    (f"When it does, select only the cars that are parked indoors in a showroom (the Model Y and Mercedes-Benz EQS) {UI}",
     ["Model Y", "Mercedes-Benz EQS"]),
    ("When the assistant presents the results, select the parties that achieved over 45% of the vote (AKP at 49.4%, AAP at 54%, "
     f"and Lib Dems at 47%) {UI}", ["AKP", "AAP", "Lib Dems"]),
    (f"When it presents the data, select the higher item from each comparison (Viagra at ~$61 over Levitra, and Savings over Loans) {UI}",
     ["Viagra", "Savings"]),  # what each is compared with is not picked
])
def test_several_options_an_aside_names_become_one_pick_of_all_of_them(sentence, names):
    decision, why = ui_choice(sentence)
    assert decision == {"pick": {"labels_contain": names}} and why == ""


def _element(cid: str, type_: str, **more) -> dict:
    return {"surface_id": "s", "component_id": cid, "type": type_, "label": more.pop("label", ""), **more}


def test_a_pick_of_several_ticks_each_named_option_then_submits():
    from mmtsb_env.scenario.model import UIDecision
    from mmtsb_env.ui.choice import decide

    pick = UIDecision(pick={"labels_contain": ["Model Y", "EQS"]})
    submit = _element("go", "Button", label="Submit", action="submit", context={})
    chips = _element("cars", "MultipleChoice", max_selections=3, options=[
        {"label": "Tesla Model Y", "value": "y"}, {"label": "Ford Focus", "value": "f"}, {"label": "Mercedes-Benz EQS", "value": "e"}])
    assert decide(pick, [chips, submit]) == {"action_name": "submit", "surface_id": "s", "component_id": "go",
                                            "field_values": {"cars": ["y", "e"]}}
    assert decide(pick, [{**chips, "max_selections": 1}, submit]) is None  # the field cannot hold both
    boxes = [_element(f"b{i}", "CheckBox", label=name) for i, name in enumerate(["Model Y", "Focus", "EQS"])]
    assert decide(pick, [*boxes, submit])["field_values"] == {"b0": True, "b1": False, "b2": True}
    assert decide(pick, boxes) is None  # nothing submits the ticks
    assert decide(UIDecision(pick={"labels_contain": ["Model Y", "Golf"]}), [chips, submit]) is None  # one is not offered


@pytest.mark.parametrize("sentence, condition", [
    (f"When the assistant presents the sticky notes it found, select only the pink ones {UI}", {"says": "pink"}),
    ("When the assistant presents the papers with their details, select only the ones published after 2010 and ask to add "
     f"their corresponding authors to your contacts with email addresses {UI}", {"above": 2010, "of": "published"}),
])
def test_several_options_by_what_each_shows_become_one_pick_of_every_option_meeting_it(sentence, condition):
    """The user does not see the images, but it sees the screen: a colour or a year each option
    states there is something it can check."""
    assert ui_choice(sentence) == ({"pick": {"every": condition}}, "")


def test_a_pick_of_every_option_meeting_a_condition_ticks_those_the_screen_shows_meeting_it():
    from mmtsb_env.scenario.model import ScenarioError, UIDecision, _ui_decision
    from mmtsb_env.ui.choice import decide

    submit = _element("go", "Button", label="Submit", action="submit", context={})
    notes = _element("notes", "MultipleChoice", max_selections=4, options=[
        {"label": "The PLAY's the thing! (pink)", "value": "a"}, {"label": "Call Sam (yellow)", "value": "b"},
        {"label": "Young Minds -- pink", "value": "c"}, {"label": "Pinkerton report (blue)", "value": "d"}])
    assert decide(UIDecision(pick={"every": {"says": "pink"}}), [notes, submit])["field_values"] == {"notes": ["a", "c"]}
    papers = [_element(f"p{i}", "CheckBox", label=label) for i, label in enumerate(
        ["Deep Nets, published 2015, cited 3,200 times", "Old Trees (2009)", "Reef Survey, 2012", "No year given"])]
    after = UIDecision(pick={"every": {"above": 2010, "of": "published"}})
    assert decide(after, [*papers, submit])["field_values"] == {"p0": True, "p1": False, "p2": True, "p3": False}
    plain = [_element("p0", "CheckBox", label="Deep Nets"), _element("p1", "CheckBox", label="Old Trees")]
    assert decide(after, [*plain, submit]) is None  # the screen shows no years: nothing to choose by
    assert decide(UIDecision(pick={"every": {"says": "pink"}}), [_element("ok", "Button", label="Confirm", action="ok")]) is None
    assert _ui_decision({"pick": {"every": {"below": 5, "of": "caffeine"}}}, "ui").pick == {"every": {"below": 5, "of": "caffeine"}}
    for bad in ({"says": ""}, {"above": "2010"}, {"says": "pink", "above": 1}, {"near": 3}, "pink"):
        with pytest.raises(ScenarioError, match="every"):
            _ui_decision({"pick": {"every": bad}}, "ui")


@official
def test_the_scripted_user_ticks_the_pink_notes_a_screen_shows():
    """0894 round 3, played: the assistant shows the sticky notes with their colours; the scripted
    user ticks the pink ones and submits; a screen without colours gets "I can't make my choice"."""
    scenario, _ = import_reference(OFFICIAL / "ui" / "scenario_0894.json")
    k = next(i for i, r in enumerate(scenario.rounds) if r.ui)
    assert scenario.rounds[k].ui.pick == {"every": {"says": "pink"}}

    def screen(labels):
        components = [{"id": "root", "component": {"Column": {"children": ["notes", "go"]}}},
                      {"id": "notes", "component": {"MultipleChoice": {
                          "selections": {"path": "/choice/selected"}, "maxAllowedSelections": len(labels),
                          "options": [{"label": {"literalString": t}, "value": f"n{i}"} for i, t in enumerate(labels)]}}},
                      {"id": "go_t", "component": {"Text": {"text": "Submit"}}},
                      {"id": "go", "component": {"Button": {"child": "go_t", "primary": True, "action": {"name": "submit"}}}}]
        return [{"surfaceUpdate": {"surfaceId": "notes", "components": components}},
                {"beginRendering": {"surfaceId": "notes", "root": "root"}}]

    from_there = dataclasses.replace(scenario, rounds=scenario.rounds[k:])  # start at the UI round

    def play(labels):
        env = MMToolSandboxEnv(scenarios=[from_there], stand_in_images=True)
        env.reset(seed=0)
        for call in ({"name": "render_ui_screen", "arguments": {"ui_json": screen(labels)}},
                     {"name": "show_ui_to_user", "arguments": {}}):
            env.step(json.dumps(call))
        *_, info = env.step("Please tick the notes you want on your screen.")
        last = info["messages"][-1]["content"]
        return last if isinstance(last, str) else last[0]["text"]

    said = play(["The Future is in Young Minds! (pink)", "Bake sale Friday (yellow)", "The PLAY's the thing! (pink)"])
    assert '"n0"' in said and '"n2"' in said and '"n1"' not in said
    assert "can't make my choice" in play(["The Future is in Young Minds!", "Bake sale Friday", "The PLAY's the thing!"])


def test_a_pick_of_several_needs_two_or_more_names():
    from mmtsb_env.scenario.model import ScenarioError, _ui_decision

    assert _ui_decision({"pick": {"labels_contain": ["AKP", "AAP"]}}, "ui").pick == {"labels_contain": ["AKP", "AAP"]}
    for bad in (["AKP"], "AKP, AAP", ["AKP", " "]):
        with pytest.raises(ScenarioError, match="two or more non-empty strings"):
            _ui_decision({"pick": {"labels_contain": bad}}, "ui")


def test_a_later_sentence_that_only_says_to_use_the_screen_refers_to_the_choice_stated_before():
    from mmtsb_env.scenario.importer import conditional_hints

    h = conditional_hints("When the assistant presents both, select the Q2 Adjustments - Finance project and ask it to add a task. "
                          "Use `ui_user_interact` to make your selection.")
    assert h.ui == {"pick": {"label_contains": "Q2 Adjustments - Finance"}} and not h.prose
    h = conditional_hints("When it presents its analysis, select the one featuring a network diagram. "
                          "Tell it to update the note. Use `ui_user_interact` to make your selection.")
    assert h.ui is None and "select the one featuring a network diagram" in h.prose[0]


@official
def test_choice_points_of_the_official_ui_files_become_playable_rounds():
    points = playable = 0
    for path in sorted((OFFICIAL / "ui").glob("*.json")):
        scenario, report = import_reference(path)
        criteria = scenario.completion_criteria
        required = {int(n) for n in re.findall(r"-\s*Round\s+(\d+):", criteria)} if "UI Requirements" in criteria else set()
        for k, rnd in enumerate(scenario.rounds):
            if k + 1 not in required:
                assert rnd.ui is None
                continue
            points += 1
            if rnd.ui is None:
                assert any(i.field == f"ROUND {k + 1}.ui" for i in report.issues)  # listed, with the reason in the prose hints
                continue
            playable += 1
            assert rnd.ui.criterion and rnd.ui.criterion in criteria  # the round's own UI requirement
            named = rnd.ui.pick.get("label_contains")
            if named:  # the user's own words name it; the assistant's query does not give the choice away
                assert named.lower() in rnd.instructions.lower()
    assert (points, playable) == (67, 48)


@official
def test_the_reference_oracle_shows_a_screen_and_the_scripted_user_picks_by_its_words():
    """0031 round 2: several contacts named Charlie; the hint says to select Charlie Davis."""
    scenario, _ = import_reference(OFFICIAL / "ui" / "scenario_0031.json")
    assert scenario.rounds[1].ui.pick == {"label_contains": "Charlie Davis"}
    record = run_suite([scenario], lambda: ReferenceOracleAgent([scenario]), env_kwargs={"stand_in_images": True})[0]
    shown = [e for e in record.log if e["kind"] == "notice" and e["recipient"] == "user" and "<ui_state_server>" in e["content"]]
    picked = [e for e in record.log if e["sender"] == "user" and e["kind"] == "message" and e["content"].startswith("<ui_state_server>")]
    assert [e["round_index"] for e in shown] == [1] and [e["round_index"] for e in picked] == [1]
    assert "Charlie Miller" in shown[0]["content"]  # the screen offers the other Charlie too: a real choice
    assert '"name": "Charlie Davis"' in picked[0]["content"]
    ui = {c["criterion"]: c["pass"] for c in record.verdict["criteria"] if c["criterion"].startswith("ui")}
    assert ui == {"ui_rendered": True, "ui_shown": True, "ui_affordances": True, "ui_choice_obtained": True, "ui_choice_acted_on": True}
    assert record.entity_f1 == 1.0 and record.passed


@official
def test_the_user_does_not_pick_an_option_it_was_not_told():
    """A screen that lacks Charlie Davis gets a complaint, not a press of the only button."""
    scenario, _ = import_reference(OFFICIAL / "ui" / "scenario_0031.json")
    wrong = type(scenario.rounds[1].ui)(pick={"label_contains": "Charlie Brown"})
    env = MMToolSandboxEnv(scenarios=[scenario], stand_in_images=True)
    env.reset(seed=0)
    env.step("Done.")  # round 1 answered; round 2 is the UI round
    unstaged = dataclasses.replace(scenario, initial_entities={})  # a screen with Charlie Brown only
    for step in ui_round_steps(unstaged, wrong, None)[:2]:
        *_, info = env.step(json.dumps({"name": step["name"], "arguments": step["arguments"]}))
    *_, info = env.step("Please choose on your screen.")
    last = info["messages"][-1]["content"]
    text = last if isinstance(last, str) else last[0]["text"]
    assert "can't make my choice" in text


@official
def test_each_price_choice_of_the_oracle_is_followed_by_its_cart_add():
    """0936: the cheaper sign in round 1, the cheaper item in round 2, each added to the cart."""
    scenario, _ = import_reference(OFFICIAL / "ui" / "scenario_0936.json")
    assert [r.ui.pick if r.ui else None for r in scenario.rounds][:2] == [{"cheapest": True}, {"cheapest": True}]
    record = run_suite([scenario], lambda: ReferenceOracleAgent([scenario]), env_kwargs={"stand_in_images": True})[0]
    picked = [e["round_index"] for e in record.log if e["sender"] == "user" and e["kind"] == "message"
              and e["content"].startswith("<ui_state_server>")]
    adds = [c["round_index"] for c in record.calls if c["name"] == "amazon_add_product_to_cart" and c.get("ok", True)]
    assert picked == [0, 1] and adds == [0, 1]
    assert record.entity_f1 == 1.0 and record.passed
