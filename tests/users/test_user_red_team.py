"""Regressions from the red team's attack on the user seat: each test plays what broke the user.

A right agent in ordinary words must advance; no user move may depend on a hidden value."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}
# The first nominal scenario whose opening round states a wrong claim about an image; its claim and
# the value the image really shows (the round's first report fact) fill the texts below.
WRONG = next(s for s in NOMINAL.values() if s.rounds[0].wrong_claim is not None and s.rounds[0].report)
CLAIM, RIGHT = WRONG.rounds[0].wrong_claim.text, str(WRONG.rounds[0].report[0])


def _play(scenario, transform, max_steps=120):
    """The oracle does every round's work; ``transform`` rewrites its words to the user."""
    agent = OracleAgent([scenario])
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool")
    obs, info = env.reset(seed=0)
    for _ in range(max_steps):
        action = agent.act(obs, info)
        if not action.lstrip().startswith(("{", "[")):
            action = transform(action)
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return info, env


# ------------------------------------------------------------------ F1: courtesy after a report
def _reporting():
    """The first nominal scenario of three or more rounds each of which asks for information back
    and has facts to report: every reply of the oracle is a report the courtesy question follows."""
    from mmtsb_env.users.reading import expectation

    return next(s for s in NOMINAL.values() if len(s.rounds) >= 3
                and all(r.report and expectation(r) != ("done",) for r in s.rounds))


REPORTING = _reporting()


@pytest.mark.parametrize("courtesy", [
    "Does that help?", "Would you like me to change anything?",
    "Hope this is what you needed - should I tweak the wording?", "Which format do you prefer next time?",
])
def test_a_report_followed_by_a_courtesy_question_advances_the_round(courtesy):
    scenario = REPORTING
    info, env = _play(scenario, lambda a: f"{a} {courtesy}")
    dynamics = info["user_dynamics"]
    assert not dynamics["gave_up"] and dynamics["nudges"] == 0 and dynamics["redirects"] == 0, dynamics
    assert dynamics["confirmations"] == 0 and env.episode.round_index == len(scenario.rounds) - 1


@pytest.mark.parametrize("text, permission, image_question", [
    ("I saved the note. Shall I also email it to your accountant?", True, False),  # a further step: permission
    ("Shall I save it?", True, False),
    ("What is the total on the receipt?", False, True),
    ("I saved it. Which format do you prefer next time?", False, False),  # "time" is incidental
])
def test_courtesy_is_not_permission_and_incidental_words_are_not_image_questions(text, permission, image_question):
    from mmtsb_env.users.reading import read

    r = read(text)
    assert (r.permission, r.image_question) == (permission, image_question), r


# ------------------------------------------------------------------ F2: the LLM user's filter is no oracle
class _EchoBackend:
    """A chatty stand-in: repeats the assistant's last message, then says the note's line."""

    name = "echo"

    def complete(self, messages, tools=None, **sampling):
        from mmtsb_env.llm.base import Completion

        prev = messages[-2]["content"] if isinstance(messages[-2]["content"], str) else ""
        note = messages[-1]["content"]
        line = note.split("Answer with: ", 1)[-1] if "Answer with: " in note else note.split(": ", 1)[-1]
        return Completion(text=f"{line.rstrip(')')} So {prev.strip()[:120]}", model="echo")


def _llm_user_turns(scenario, assistant_turns):
    from mmtsb_env.users.llm_user import LLMUser

    user = LLMUser(_EchoBackend())
    env = mmtsb_env.make_env(scenarios=[scenario], user=user)
    env.reset(seed=0)
    for turn in assistant_turns:
        env.step(turn)
    return [(st["kind"], st["source"], st["reason"]) for st in user.steps[1:]]


@pytest.mark.parametrize("template", [
    "The images show {}, not " + CLAIM + ".",  # a doubt: the scripted confirmation, worded by the model
    "Is it {}?",  # a question: the fallback, worded by the model
    "Done. The answer is {}.",  # a report: the next request, worded by the model
])
def test_echoing_the_assistant_gets_the_same_user_turn_whether_its_value_is_right_or_wrong(template):
    scenario = WRONG
    # wrong values of the same kind and form: the right one with its last digit moved
    wrong = [RIGHT[:-1] + str((int(RIGHT[-1]) + k) % 10) for k in (1, 2)]
    outcomes = {value: _llm_user_turns(scenario, [template.format(value)]) for value in (RIGHT, *wrong)}
    assert len({tuple(o) for o in outcomes.values()}) == 1, outcomes
    assert all(source == "model" for o in outcomes.values() for _, source, _ in o), outcomes


# ------------------------------------------------------------------ F3: a wrong claim is confirmed only once disputed
def _first_user_reply(scenario, assistant_text):
    env = mmtsb_env.make_env(scenarios=[scenario])
    env.reset(seed=0)
    env.step(assistant_text)
    return [e.content for e in env.episode.log if e.sender == "user"][-1]


AGREES = f"The images match your {CLAIM}, no mismatch at all."


@pytest.mark.parametrize("text", [
    AGREES,  # agrees
    f"Your {CLAIM} is not wrong, it matches the images.",  # agrees
    f"I'm not sure about the {CLAIM}.",  # only hedges
    f"Is it {RIGHT} or {CLAIM}?",
])
def test_the_wrong_claims_confirmation_needs_a_stated_discrepancy(text):
    assert _first_user_reply(WRONG, text) != WRONG.rounds[0].wrong_claim.confirm


DISPUTES = f"The images show {RIGHT}, not {CLAIM}."


@pytest.mark.parametrize("text", [DISPUTES, f"None of the images says {CLAIM}.",
                                  f"The images don't show {CLAIM}; the first one is {RIGHT}."])
def test_a_stated_discrepancy_gets_the_neutral_answer_not_the_confirmation(text):
    """The same line as a doubt of a value the script does not hold wrong: a doubt tells nothing."""
    from mmtsb_env.users.rules import GO_BY_WHAT_YOU_SEE

    assert _first_user_reply(WRONG, text) == GO_BY_WHAT_YOU_SEE


def test_the_user_judge_fails_a_confirmation_given_to_an_agreeing_assistant():
    """The user judge shares the reading: a user that confirms the correction after the assistant
    agreed with the claim corrected itself unprompted."""
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode

    env = mmtsb_env.make_env(scenarios=[WRONG])
    env.reset(seed=0)
    env.step(DISPUTES)
    ev = user_evidence_from_episode(env.episode)
    for e in ev.conversation:  # a user (e.g. model-played) that confirms the correction
        if e.get("sender") == "user" and e.get("kind") == "message" and "go by what you find" in str(e.get("content")):
            e["content"] = WRONG.rounds[0].wrong_claim.confirm
    assert all(c.passed for c in UserJudge().evaluate(ev).criteria if c.name == "grounded_consistency")
    for e in ev.conversation:  # the same conversation, but the assistant agreed
        if e.get("sender") == "assistant" and e.get("kind") == "message":
            e["content"] = AGREES
    failed = {c.name: c.kind for c in UserJudge().evaluate(ev).criteria if not c.passed}
    assert failed.get("grounded_consistency") == "unprompted_correction", failed


# ------------------------------------------------------------------ F4: ordinary wordings of right answers
def _asking(report, *words):
    """The first nominal scenario with a round whose report is ``report`` and whose request says ``words``."""
    return next(s for s in NOMINAL.values() for r in s.rounds
                if r.report == report and all(w in r.query.lower() for w in words))


def _quoted(scenario, report):
    import re

    return next(re.search(r"(?:project|on) '([^']+)'", r.query).group(1) for r in scenario.rounds if r.report == report)


def _clock(value):
    """(hour, minute) of a time of day in ``value`` ("05:45", "5:45 PM", "2024-07-03T05:09:57"), or None."""
    import re

    m = re.search(r"(?:^|T)(\d{1,2}):(\d\d)(?::\d\d)?(?:\s*([AP]M))?", str(value))
    if not m:
        return None
    hour = int(m.group(1)) % 12 + (12 if m.group(3) == "PM" else 0) if m.group(3) else int(m.group(1))
    return hour, int(m.group(2))


def _time_asked():
    """A nominal scenario with a round that asks for one time of day alone and whose reply is one
    sentence holding it (a morning time first, so the bare "0545" form can be said); the reply's
    words before the time, and the time."""
    from mmtsb_env.users.reading import expectation

    found = sorted(((clock[0] >= 10, len(s.rounds), s.id), s, r.answer.split(str(r.report[0]))[0], clock)
                   for s in NOMINAL.values() for r in s.rounds
                   if expectation(r) == ("time",) and len(r.report) == 1 and str(r.report[0]) in r.answer
                   and ". " not in r.answer.strip() and (clock := _clock(r.report[0])))
    return found[0][1:]


ALARM, ALARM_SAYS, (HOUR, MINUTE) = _time_asked()
MEMBERS = next(s for s in NOMINAL.values() for r in s.rounds
               if r.report == ("1",) and any(w in r.query.lower() for w in ("collaborators on '", "people are on my todoist project '")))
PROJECT = _quoted(MEMBERS, ("1",))
LOGIN = _asking(("2023-12-25T07:54:22",), "todoist")


@pytest.mark.parametrize("scenario, prefix, wording", [
    (ALARM, ALARM_SAYS, f"That's at {HOUR}.{MINUTE:02d}."),
    (ALARM, ALARM_SAYS, f"It's the {HOUR:02d}{MINUTE:02d}{'' if HOUR < 10 else ' hours'} one."),
    (MEMBERS, f"'{PROJECT}' has", f"It's just you on '{PROJECT}'."),
    (MEMBERS, f"'{PROJECT}' has", f"Only you are on '{PROJECT}'."),
    (LOGIN, "You last logged in", "You last logged in to Todoist on Christmas Day 2023, just before 8 am."),
    (LOGIN, "You last logged in", "You last logged in to Todoist at 07:54 on Christmas Day 2023."),
], ids=lambda v: v.id if hasattr(v, "id") else None)
def test_ordinary_wordings_of_the_requested_information_advance(scenario, prefix, wording):
    reworded = []

    def reword(action):
        if action.startswith(prefix):
            reworded.append(action)
            return wording
        return action

    info, _ = _play(scenario, reword)
    assert reworded, "the oracle never reported the value this test rewords"
    assert not info["user_dynamics"]["gave_up"] and info["user_dynamics"]["nudges"] == 0, info["user_dynamics"]


@pytest.mark.parametrize("kind, text", [
    ("time", "It goes off at 5.45."), ("time", "The 0545 one."), ("number", "It's just you."),
    ("number", "Only you are on it."), ("number", "You're the only member."), ("date", "On Christmas Day 2023."),
])
def test_natural_forms_are_read_as_their_kind(kind, text):
    from mmtsb_env.users.reading import read

    assert kind in read(text).kinds, read(text)


@pytest.mark.parametrize("kind, text", [("time", "It cost $5.45."), ("time", "It cost 5.45 dollars."),
                                        ("time", "It was in 2023."), ("date", "Done.")])
def test_prices_and_years_are_still_not_times(kind, text):
    from mmtsb_env.users.reading import read

    assert kind not in read(text).kinds, read(text)


# ------------------------------------------------------------------ F5: the user picks blind on a screen
UI = {s.id: s for s in mmtsb_env.load_suite("ui")}


def _pick_by_a_name_never_said():
    """A UI round whose pick names an item the user's own lines never say (a name only the images
    show): the first shipped UI round that picks by name, with the name taken out of the user's
    instructions (every shipped one puts it there). (scenario, round index, name, the name with its
    last letter misread)."""
    import dataclasses

    from mmtsb_env.users import rules

    for s in UI.values():
        for k, r in enumerate(s.rounds):
            name = (r.ui.pick or {}).get("label_contains") if r.ui is not None else None
            if not name:
                continue
            rounds = tuple(dataclasses.replace(x, instructions="") if i == k else x for i, x in enumerate(s.rounds))
            blind = dataclasses.replace(s, rounds=rounds)
            if name.lower() not in " ".join(rules.own_lines(blind)).lower():
                return blind, k, name, name[:-1] + ("x" if name[-1] != "x" else "y")
    raise LookupError("no UI round picks by name")


BLIND_PICK, BLIND_ROUND, BLIND_NAME, MISREAD_NAME = _pick_by_a_name_never_said()


def _play_ui(scenario, misread):
    agent = OracleAgent([scenario])
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool")
    obs, info = env.reset(seed=0)
    for _ in range(60):
        action = agent.act(obs, info)
        if "render_ui_screen" in action:
            action = action.replace(*misread)
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    return info, env


def test_a_pick_by_a_name_the_user_never_said_gets_the_same_refusal_whatever_the_screen_shows():
    """A UI round's pick names an item the user never named: the user must not check the screen
    against the image, nor tap an option it cannot tell is meant (a tap of the first option would
    pass by luck whenever the answer is listed first). Right and misread screens get the same
    answer -- it cannot choose -- and no tap; the user judge finds the user blind."""
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode
    from mmtsb_env.ui.choice import UNKNOWN_CHOICE

    scenario = BLIND_PICK
    runs = {name: _play_ui(scenario, swap) for name, swap in (("right", ("", "")), ("misread", (BLIND_NAME, MISREAD_NAME)))}
    answers = {}
    for name, (info, env) in runs.items():
        turns = [e.content for e in env.episode.log if e.sender == "user" and e.round_index == BLIND_ROUND]
        assert not any("pressed" in t for t in turns), turns
        answers[name] = [t for t in turns if t == UNKNOWN_CHOICE]
        grounded = next(c for c in UserJudge().evaluate(user_evidence_from_episode(env.episode)).criteria
                        if c.name == "grounded_consistency")
        assert grounded.passed, grounded.reason
    assert answers["right"] == answers["misread"] and answers["right"]


def test_the_user_judge_fails_a_screen_refused_by_a_name_only_the_images_show():
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode
    from mmtsb_env.ui.choice import CANNOT_CHOOSE, UNKNOWN_CHOICE

    _, env = _play_ui(BLIND_PICK, ("", ""))
    ev = user_evidence_from_episode(env.episode)
    for e in ev.conversation:  # the same episode, but the user refused the screen (the old, key-checking user)
        if e.get("sender") == "user" and e.get("round_index") == BLIND_ROUND and e.get("content") == UNKNOWN_CHOICE:
            e["content"], e["kind"] = CANNOT_CHOOSE, "message"
    failed = {c.name: c.kind for c in UserJudge().evaluate(ev).criteria if not c.passed}
    assert failed.get("grounded_consistency") == "hidden_dependence", failed


def test_a_name_the_user_said_itself_must_be_on_the_screen():
    from mmtsb_env.scenario.model import UIDecision
    from mmtsb_env.ui.choice import decide

    elements = [{"surface_id": "s", "component_id": f"pick#{i}", "type": "Button", "label": "Select", "action": "pick",
                 "context": {}, "description": d} for i, d in enumerate(["Pine Street Books", "Lumen Hardware"])]
    rule = UIDecision(pick={"label_contains": "Lumen Hardwares"})
    assert decide(rule, elements, "Pick the one from 'Lumen Hardwares' for me.") is None  # said: checked
    assert decide(rule, elements, "Let me pick one.") is None  # never said: it cannot tell which, name unread
    assert decide(rule, elements) is None  # the judge's use: exact


# ------------------------------------------------------------------ F6: guidance the model may not say is not given
_CHANGED, _DRAFTS = "You changed something on the phone yourself", "similarly named drafts"


def _staged_round():
    """The first nominal scenario with a later round whose guidance says the user changed the phone
    ("if asked, say so, but do not explain") and that look-alike drafts exist ("if the assistant
    asks which one you mean..."), and whose request names an old draft in quotes; played by the
    oracle up to that round, then asked a question the script does not answer."""
    import re

    from mmtsb_env.users.rules import decide

    scenario, k = next((s, k) for s in NOMINAL.values() for k, r in enumerate(s.rounds)
                       if k and _CHANGED in r.instructions and _DRAFTS in r.instructions and re.search(r"'[^']+'", r.query))
    agent = OracleAgent([scenario])
    env = mmtsb_env.make_env(scenarios=[scenario], mode="tool")
    obs, info = env.reset(seed=0)
    while env.episode.round_index < k:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        assert not (terminated or truncated)
    env.step("Anything I should know before I start?")
    name = re.search(r"'([^']+)'", scenario.rounds[k].query).group(1)
    return env.episode, decide(env.episode), name


def test_the_models_prompt_holds_only_guidance_it_may_say():
    """The round's guidance says the user changed the phone ("if asked, say so, but do not explain")
    and that look-alike drafts exist ("if the assistant asks which one you mean..."): the host
    applies those; the model, which only words the host's line, is never given them."""
    from mmtsb_env.users.llm_user import LLMUser

    episode, move, name = _staged_round()
    assert move.round_index == episode.round_index and _CHANGED in episode.scenario.rounds[move.round_index].instructions
    prompt = " ".join(m["content"] for m in LLMUser(None).messages(episode, move) if isinstance(m["content"], str))
    for withheld in ("changed something on the phone", _DRAFTS, "do not explain"):
        assert withheld not in prompt, withheld
    assert name in prompt  # what it may say is still there


@pytest.mark.parametrize("paraphrase", [
    "Heads up: there are older drafts with similar names on the phone, so pick carefully.",
    "Oh and I changed something on the phone myself right before this.",
])
def test_a_paraphrase_of_one_guidance_clause_is_caught(paraphrase):
    from mmtsb_env.users.llm_user import leaks_hidden_text

    episode, move, _ = _staged_round()
    assert leaks_hidden_text(paraphrase, episode, move) is not None


def test_a_complaint_about_a_failed_tap_is_not_hidden_dependence():
    """The user judge now reads UI rounds too; a tap that failed (the surface was deleted) gets the
    user's complaint, which answers the failure, not a check of the screen against the images."""
    from mmtsb_env.evaluation.user_judge import UserJudge, user_evidence_from_episode
    from tests.ui.conftest import button, screen
    from tests.ui.test_episode import Script, call, play

    env = mmtsb_env.make_env(suite="ui")
    comps = [{"id": "root", "component": {"Column": {"children": ["a", "b"]}}}]
    comps += button("a", "Pine Street Books $20.51", "pick") + button("b", "Lumen Hardware $22.13", "pick")
    actions = [call("render_ui_screen", ui_json=screen("s", comps)), call("show_ui_to_user"),
               call("render_ui_screen", ui_json=[{"deleteSurface": {"surfaceId": "s"}}]), "Pick one please."]
    ep = play(env, Script(actions), "ui/compare_receipts_pick")
    assert any("did not work" in e.content for e in ep.log if e.sender == "user" and e.kind == "message")
    failed = {c.name: c.reason for c in UserJudge().evaluate(user_evidence_from_episode(ep)).criteria if not c.passed}
    assert "grounded_consistency" not in failed, failed
