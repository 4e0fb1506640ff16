"""The blind user, session 13 (issue #30): polite requests in question form, doubts about the user's
own choices (F11), UI picks by a name the user never said (F9), the replay's budget (F7), structural
perturbations and re-judged records. Scenarios are chosen by property, never by id."""

from __future__ import annotations

import dataclasses
import re
from types import SimpleNamespace

import pytest

import mmtsb_env
from mmtsb_env.users.reading import expectation, polite_request, read, reported


def _round(query: str):
    return SimpleNamespace(query=query, guidance=None)


# ------------------------------------------------------------------ polite requests in question form
@pytest.mark.parametrize("query", [
    "Can you create a note called 'Shopping List' and add camera, pen and phone to it?",
    "Could you also email it to Robert? Same result as before.",
    "Would you mind adding a task 'Call the plumber' to my 'Home' project?",
    "I need to get organised. Can you create a note called 'Gift Comparison' and set a reminder for tomorrow at 10 AM?",
    "Can you search for the Lego Millennium Falcon on Amazon and add it to my shopping cart?",
    "Could you please delete the three tasks you just made?",
])
def test_a_polite_request_in_question_form_waits_for_the_work(query):
    assert expectation(_round(query)) == ("done",)
    assert reported([read("Done.")], expectation(_round(query)), query)


@pytest.mark.parametrize("query, expects", [
    ("Can you tell me the total?", ("number",)),
    ("What is the total on this receipt?", ("number",)),
    ("Can you find out when the bakery closes on Sunday?", ("text",)),
    ("Could you check whether my note 'Groceries' is pinned?", ("text",)),
    ("Can you look them up on Amazon and compare their prices?", ("text",)),
    ("Can you create a note called 'Trip' and tell me how much the hotel costs?", ("number",)),
    ("Could you also save it in a new note titled 'Log'? Just summarise what you found and what you changed.", ("text",)),
    ("Describe the types of charts in each - I'll pick the one I want.", ("text",)),
])
def test_a_real_question_still_waits_for_an_answer(query, expects):
    got = expectation(_round(query))
    assert got == expects
    assert not reported([read("Done.")], got, query)


def test_polite_request_reads_the_verbs_not_the_question_mark():
    assert polite_request("Can you create a new note?")
    assert not polite_request("Can you tell me what the note says?")
    assert not polite_request("Can you create a new note.")  # not a question
    assert not polite_request("Is the note pinned?")


def test_yes_to_a_polite_request_is_not_a_report_of_the_work():
    query = "Can you create a note called 'Shopping List'?"
    assert not reported([read("Yes.")], expectation(_round(query)), query)


def test_the_reference_oracle_says_a_bare_done_to_a_polite_request():
    from mmtsb_env.baselines.reference_oracle import ReferenceOracleAgent

    rnd = _round("Can you create a new note called 'Shopping List' and add camera, pen, phone and toy car to it?")
    assert ReferenceOracleAgent.answer_for(rnd) == ReferenceOracleAgent.ANSWER
    info = _round("Please look up all six on Amazon and compare the prices of the three cameras.")
    assert ReferenceOracleAgent.answer_for(info) != ReferenceOracleAgent.ANSWER


# ------------------------------------------------------------------ F11: a doubt about a name the user chose
from mmtsb_env.users.reading import chosen_names, doubts_only_own_choice  # noqa: E402
from mmtsb_env.users.rules import GO_BY_WHAT_YOU_SEE, ON_QUESTION  # noqa: E402

DEMO = mmtsb_env.load_suite("demo")
TITLED = next(s for s in DEMO if s.rounds[0].wrong_claim is None and chosen_names(s.rounds[0].query)
              and not s.rounds[0].clarifications)


def _user_reply(scenario, text):
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool")
    env.reset(seed=0)
    env.step(text)
    return [e.content for e in env.episode.log if e.sender == "user"][-1]


@pytest.mark.parametrize("doubt", ["I'm not sure about '{}' as a title.", "The image does not show '{}'."])
def test_the_user_keeps_a_title_it_chose_when_the_assistant_doubts_it(doubt):
    title = next(m for m in __import__("re").findall(r"'([^']+)'", TITLED.rounds[0].query)
                 if m.lower() in chosen_names(TITLED.rounds[0].query))
    reply = _user_reply(TITLED, doubt.format(title))
    assert reply == (TITLED.rounds[0].guidance.on_question or ON_QUESTION), reply
    assert reply != GO_BY_WHAT_YOU_SEE


def test_a_doubt_about_what_the_user_stated_still_gets_go_by_what_you_find():
    query = "I paid $48 at the bakery. Make a note titled 'Bakery' with the total from this receipt."
    assert chosen_names(query) == ("bakery",)
    assert not doubts_only_own_choice("The receipt does not show $48.", query)
    assert not doubts_only_own_choice("The receipt does not show $48, and I'm not sure about 'Bakery'.", query)
    assert doubts_only_own_choice("I'm not sure about 'Bakery' as a title.", query)
    existing = "Add a task 'Call Bob' to my 'Home Renovation' project."
    assert chosen_names(existing) == ("call bob",)
    assert not doubts_only_own_choice("There is no 'Home Renovation' project.", existing)


@pytest.mark.parametrize("query", ["Create a note titlled 'Trip'.", "Make a note tilted 'Trip'.", "Save a note ttled 'Trip'.",
                                   "Start a note called 'Trip'.", "Send $5 with the note 'Trip'."])
def test_chosen_names_read_through_the_users_typos(query):
    assert chosen_names(query) == ("trip",)


# ------------------------------------------------------------------ F9: a UI pick by a name the user does not know
from mmtsb_env.scenario.model import UIDecision  # noqa: E402
from mmtsb_env.ui.choice import decide as decide_on_screen  # noqa: E402
from mmtsb_env.users.counterfactual import hidden_copy  # noqa: E402
from mmtsb_env.users.script import known_words  # noqa: E402

SPELLINGS = ["Zelda Lindquist", "Zelda Lindkvist", "Zelda Lindqvist", "Zelda Lindqvest", "Zelda Lundqvist"]


def _buttons(labels):
    return [{"surface_id": "s", "component_id": f"pick#{i}", "type": "Button", "label": "Select", "action": "pick",
             "context": {}, "description": d} for i, d in enumerate(labels)]


@pytest.mark.parametrize("labels", [SPELLINGS, SPELLINGS[::-1], [s for s in SPELLINGS if s != "Zelda Lindqvist"],
                                    SPELLINGS[2:] + SPELLINGS[:2]])
def test_a_pick_by_a_name_the_user_does_not_know_never_reads_the_name(labels):
    rule = UIDecision(pick={"label_contains": "Zelda Lindqvist"})
    # the answer is the same whatever the options say and wherever the hidden spelling is (or is not):
    # no tap -- the user cannot tell which option is meant (it says so: ui.choice.UNKNOWN_CHOICE)
    assert decide_on_screen(rule, _buttons(labels), "Add the person from the card to the team.") is None
    assert decide_on_screen(rule, _buttons(labels[:1]), "Add the person from the card to the team.") is None
    known = decide_on_screen(rule, _buttons(labels), "Add Zelda Lindqvist to the team.")  # said: must be there
    if "Zelda Lindqvist" in labels:
        assert known["component_id"] == f"pick#{labels.index('Zelda Lindqvist')}"
    else:
        assert known is None


UI = mmtsb_env.load_suite("ui")


def test_every_shipped_ui_pick_by_name_is_one_the_user_knows():
    for s in UI:
        for k, r in enumerate(s.rounds):
            name = (r.ui.pick or {}).get("label_contains") if r.ui is not None else None
            if name is not None:
                assert str(name).lower() in known_words(s, k).lower(), (s.id, k, name)


def test_the_replay_changes_a_pick_name_the_user_does_not_know_and_keeps_one_it_knows():
    s, k = next((s, k) for s in UI for k, r in enumerate(s.rounds) if r.ui is not None and "label_contains" in (r.ui.pick or {}))
    name = s.rounds[k].ui.pick["label_contains"]
    assert hidden_copy(s).rounds[k].ui.pick["label_contains"] == name  # in its instructions: the user's own
    unknown = dataclasses.replace(s, description="", rounds=tuple(
        dataclasses.replace(r, instructions="", clarifications=()) if i == k else r for i, r in enumerate(s.rounds)))
    if name.lower() not in known_words(unknown, k).lower():
        assert hidden_copy(unknown).rounds[k].ui.pick["label_contains"] != name


# ------------------------------------------------------------------ F7: the replay's time budget for code
from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode  # noqa: E402
from mmtsb_env.users.counterfactual import code_budget, replay  # noqa: E402

WORLD_PROBE = "str(simple_note_search_notes(query=''))"


def _code(text):
    return f"```python\n{text}\n```"


def test_code_that_spins_only_in_the_changed_world_ends_the_replay_as_inconclusive_within_its_budget(monkeypatch):
    scenario = next(s for s in DEMO if "simple_note" in str(s.to_dict().get("apps") or s.metadata.get("domains")))
    env = mmtsb_env.make_env(scenarios=[scenario], mode="code", code_timeout_s=0.5)
    env.reset(seed=0)
    obs, *_ = env.step(_code(f"print(len({WORLD_PROBE}))"))
    real = re.findall(r"\d+", obs["text"])[-1]
    spin = f"n = len({WORLD_PROBE})\nwhile n != {real}:\n    pass\nprint('spun', n)"
    for _ in range(4):  # instant here, spins wherever the phone's notes are other ones
        obs, *_ = env.step(_code(spin))
        assert f"spun {real}" in obs["text"], obs["text"]
    ep = env.episode
    assert code_budget(ep) == 2 * ep.code_seconds + 0.5  # twice the episode's code time plus one step's timeout
    # a budget below one step's timeout, whatever the machine's load made the episode's code time
    monkeypatch.setattr("mmtsb_env.users.counterfactual.code_budget", lambda episode: 0.2)
    out = replay(ep, env.user)
    assert out.out_of_budget and out.difference is None and "time budget" in out.diverged, out.to_json()
    assert out.to_json()["out_of_budget"] is True
    verdict = UserJudge().grounded_consistency(user_evidence_from_episode(ep, env.user))
    assert not verdict.passed and verdict.kind == "replay_inconclusive", verdict


def test_honest_code_replays_to_the_end_within_the_budget():
    scenario = next(s for s in DEMO if "simple_note" in str(s.to_dict().get("apps") or s.metadata.get("domains")))
    env = mmtsb_env.make_env(scenarios=[scenario], mode="code", code_timeout_s=0.5)
    env.reset(seed=0)
    for _ in range(3):
        env.step(_code(f"print(len({WORLD_PROBE}))"))
    out = replay(env.episode, env.user)
    assert not out.out_of_budget and out.clean, out.to_json()


# ------------------------------------------------------------------ structural perturbations
from mmtsb_env.baselines import OracleAgent  # noqa: E402
from mmtsb_env.users.counterfactual import structural_copy  # noqa: E402
from mmtsb_env.users.rules import NUDGE_MISSING, decide as user_decides  # noqa: E402
from mmtsb_env.users.scripted import ScriptedUser  # noqa: E402


class WaitsWhileAReportIsDue(ScriptedUser):
    """The scripted user, but it moves on only when the round's hidden ``report`` holds something
    (F4: a decision from whether a hidden list is empty); in the real scenario it acts exactly as
    the honest user, and the value copy keeps every list non-empty."""

    def act(self, episode):
        move = user_decides(episode)
        k = max(episode.round_index, 0)
        if move.kind in ("advance", "end") and not episode.scenario.rounds[k].report:
            return NUDGE_MISSING
        return move.action


def _played(scenario, user):
    env = mmtsb_env.make_env(scenarios=[scenario], user=user)
    agent = OracleAgent([scenario])
    obs, info = env.reset(seed=0)
    while not env.episode.done:
        obs, _, _, _, info = env.step(agent.act(obs, info))
    return env


def test_a_user_that_reads_whether_a_hidden_list_is_empty_is_caught_by_the_structural_copy():
    scenario = next(s for s in DEMO if all(r.report for r in s.rounds))
    env = _played(scenario, WaitsWhileAReportIsDue())
    assert env.episode.scenario.rounds[0].report and hidden_copy(scenario).rounds[0].report  # values alone cannot show it
    out = replay(env.episode, env.user)
    assert out.difference is not None and out.difference["perturbation"] == "structure", out.to_json()
    assert out.difference["replayed"] == NUDGE_MISSING
    verdict = UserJudge().grounded_consistency(user_evidence_from_episode(env.episode, env.user))
    assert not verdict.passed and verdict.kind == "hidden_dependence"


def test_the_structural_copy_flips_the_shape_of_hidden_lists_and_keeps_the_users_script():
    scenario = next(s for s in DEMO if any(r.report for r in s.rounds) and s.expected_changes)
    copy = structural_copy(scenario)
    for a, b in zip(scenario.rounds, copy.rounds):
        assert bool(a.report) != bool(b.report)
        assert (a.query, a.instructions, a.clarifications, a.guidance, a.wrong_claim) == \
               (b.query, b.instructions, b.clarifications, b.guidance, b.wrong_claim)
    assert not copy.expected_changes and copy.description == scenario.description


def test_the_honest_user_replays_the_same_under_both_perturbations():
    for scenario in DEMO[:4]:
        env = _played(scenario, ScriptedUser())
        out = replay(env.episode, env.user)
        assert out.clean and not out.diverged and not out.error, (scenario.id, out.to_json())


# ------------------------------------------------------------------ re-judged records replay
from mmtsb_env.evaluation.user_judge import user_evidence_from_record  # noqa: E402
from mmtsb_env.runner import EpisodeRecord, run_episode  # noqa: E402


def test_a_re_judged_record_runs_the_replay_again_from_what_it_stored():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    record = EpisodeRecord.from_json(json_roundtrip(run_episode(scenario, OracleAgent([scenario])).to_json()))
    assert record.replay_inputs["actions"] and record.replay_inputs["config"]["mode"] == "tool"
    ev = user_evidence_from_record(record, scenario)
    assert ev.replay is not None and ev.replay["turns"] >= len(scenario.rounds) and ev.replay["difference"] is None, ev.replay
    verdict = UserJudge().grounded_consistency(ev)
    assert verdict.passed and "the same with the hidden fields changed" in verdict.reason


def test_a_record_that_cannot_be_replayed_says_why_in_the_verdict():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    record = run_episode(scenario, OracleAgent([scenario]))
    old = dataclasses.replace(record, replay_inputs={})
    reason = UserJudge().grounded_consistency(user_evidence_from_record(old, scenario)).reason
    assert "not replayed: the record holds no replay inputs" in reason
    from mmtsb_env.users.llm_user import LLMUser

    spec = {"class": "mmtsb_env.users.llm_user:LLMUser", "name": "llm", "unbuildable": LLMUser.not_rebuildable}
    model = dataclasses.replace(record, user="llm", replay_inputs={**record.replay_inputs, "user": spec})
    reason = UserJudge().grounded_consistency(user_evidence_from_record(model, scenario)).reason
    assert "not replayed" in reason and "completions are not stored" in reason


def test_a_record_of_another_scenario_version_is_inconclusive_not_a_pass():
    scenario = next(s for s in DEMO if len(s.rounds) > 1)
    record = run_episode(scenario, OracleAgent([scenario]))
    other = dataclasses.replace(scenario, rounds=tuple(dataclasses.replace(r, query=r.query + " Thanks!")
                                                       for r in scenario.rounds))
    verdict = UserJudge().grounded_consistency(user_evidence_from_record(record, other))
    assert not verdict.passed and verdict.kind == "replay_inconclusive", verdict


def json_roundtrip(data):
    import json

    return json.loads(json.dumps(data, default=str))


def test_several_options_the_user_cannot_name_are_refused_whatever_the_screen_shows():
    rule = UIDecision(pick={"labels_contain": ["Model Y", "EQS"]})
    boxes = [{"surface_id": "s", "component_id": f"c{i}", "type": "CheckBox", "label": label, "context": {}}
             for i, label in enumerate(["Model Y", "EQS", "Civic"])]
    submit = [{"surface_id": "s", "component_id": "ok", "type": "Button", "label": "Submit", "action": "submit", "context": {}}]
    assert decide_on_screen(rule, boxes + submit, "I want the Model Y and the EQS.") is not None
    assert decide_on_screen(rule, boxes + submit, "I want the two cars from my photos.") is None
    assert decide_on_screen(rule, boxes[::-1] + submit, "I want the two cars from my photos.") is None
