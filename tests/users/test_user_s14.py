"""The blind user, session 14 (issue #30): the replay follows the user-judge setting, re-judged records
rebuild the user the run had, information rounds wait for the kind of answer they ask for, and the
user's turns stay the same whatever the hidden values. Scenarios are chosen by property, never by id."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.cli import app

DEMO = mmtsb_env.load_suite("demo")


# ------------------------------------------------------------------ the replay follows --user-judge
@pytest.fixture
def replays(monkeypatch):
    """Counts the counterfactual replays run (the real replay still runs)."""
    from mmtsb_env.users import counterfactual

    calls = []
    real = counterfactual.replay

    def counted(episode, policy):
        calls.append(episode.scenario.id)
        return real(episode, policy)

    monkeypatch.setattr(counterfactual, "replay", counted)
    return calls


def test_eval_without_the_user_judge_runs_no_replay(replays):
    result = CliRunner().invoke(app, ["eval", "--suite", "demo", "--limit", "2", "--no-user-judge", "-q"])
    assert result.exit_code == 0, result.output
    assert replays == []
    assert '"user_sr": null' in result.output


def test_eval_with_the_user_judge_replays_every_episode(replays):
    result = CliRunner().invoke(app, ["eval", "--suite", "demo", "--limit", "2", "-q"])
    assert result.exit_code == 0, result.output
    assert len(replays) == 2
    assert '"user_sr": 1.0' in result.output


def test_the_runner_skips_the_user_judge_only_when_told(replays):
    from mmtsb_env.runner import run_episode

    scenario = DEMO[0]
    judged = run_episode(scenario, OracleAgent([scenario]))
    assert judged.user_verdict.get("pass") is True and replays == [scenario.id]
    unjudged = run_episode(scenario, OracleAgent([scenario]), user_judge=False)
    assert unjudged.user_verdict == {} and replays == [scenario.id] and unjudged.passed
