"""Regressions from the red team's attack on the user seat: each test plays what broke the user.

A right agent in ordinary words must advance; no user move may depend on a hidden value."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

NOMINAL = {s.id: s for s in mmtsb_env.load_suite("nominal")}


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
@pytest.mark.parametrize("courtesy", [
    "Does that help?", "Would you like me to change anything?",
    "Hope this is what you needed - should I tweak the wording?", "Which format do you prefer next time?",
])
def test_a_report_followed_by_a_courtesy_question_advances_the_round(courtesy):
    scenario = NOMINAL["nominal/0036"]
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
