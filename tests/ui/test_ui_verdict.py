"""The verdict of a UI scenario includes the UI checks: skipping the UI fails the episode."""

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.runner import run_episode


def test_oracle_passes_with_ui_criteria_in_the_verdict():
    ui = mmtsb_env.load_suite("ui")
    record = run_episode(ui[0], OracleAgent(ui))
    names = [c["criterion"] for c in record.verdict["criteria"]]
    assert record.passed and len(names) > 5 and names[:5] == [
        "task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy"]


class SkipUI:
    """Plays the oracle's solution but leaves out every UI tool call."""

    def __init__(self, scenarios):
        self.oracle = OracleAgent(scenarios)

    def act(self, obs, info):
        action = self.oracle.act(obs, info)
        while '"render_ui_screen"' in action or '"show_ui_to_user"' in action:
            action = self.oracle.act(obs, info)
        return action


def test_skipping_the_ui_fails_a_ui_criterion():
    ui = mmtsb_env.load_suite("ui")
    record = run_episode(ui[0], SkipUI(ui))
    failed = [c["criterion"] for c in record.verdict["criteria"] if not c["pass"]]
    assert not record.passed and any(name not in ("task_completion", "instruction_following", "tool_use_validity",
                                                  "no_side_effects", "information_accuracy") for name in failed)
