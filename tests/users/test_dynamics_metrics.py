"""Episode dynamics reach the record and the run metrics: nudges, redirects, give-ups, steps."""

from __future__ import annotations

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.evaluation import compute_metrics
from mmtsb_env.runner import run_episode
from mmtsb_env.users.rules import MAX_FAILED_TRIES


class CannotDo:
    def act(self, obs, info):
        return "Sorry, I couldn't do that."


def test_records_and_metrics_count_the_users_reactions():
    demo = mmtsb_env.load_suite("demo")
    scenario = next(s for s in demo if s.id == "demo/note_from_receipt")
    good = run_episode(scenario, OracleAgent(demo))
    bad = run_episode(scenario, CannotDo())
    assert good.user_dynamics["nudges"] == 0 and not good.user_dynamics["gave_up"]
    assert bad.user_dynamics == {**bad.user_dynamics, "nudges": MAX_FAILED_TRIES - 1, "gave_up": True}
    assert bad.steps > good.steps and not bad.passed and bad.user_verdict["pass"] is True  # not the user's fault
    m = compute_metrics([good, bad], demo)
    assert m["user_dynamics"] == {"episodes": 2, "mean_nudges": (MAX_FAILED_TRIES - 1) / 2, "mean_redirects": 0.0,
                                  "mean_confirmations": 0.0, "give_up_rate": 0.5}
    assert m["agent_sr"] == 0.5 and m["user_sr"] == 1.0
    assert bad.to_json()["user_dynamics"]["gave_up"] is True  # plain data for reports and export
