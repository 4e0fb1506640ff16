"""SeatSelection / UserSeatEnv: either seat through the Gymnasium API."""

import pytest
from gymnasium.utils.env_checker import check_env

import mmtsb_env
from mmtsb_env.wrappers import SeatSelection, UserSeatEnv

from .conftest import SMALL, make, play

pytestmark = pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")


@pytest.mark.parametrize("scenario", ["demo/invoice_note_correction", "demo/low_battery_state_mutation", "demo/delete_note_clarify"])
def test_assistant_seat_with_the_scripted_user_is_the_standard_env(scenario):
    observations, rewards, info = play(make(), scenario, seed=2)
    s_obs, s_rewards, s_info = play(SeatSelection(mmtsb_env.env(**SMALL)), scenario, seed=2)
    assert s_rewards == rewards
    assert [o["text"] for o in s_obs] == [o["text"] for o in observations]
    assert s_info["verdict"] == info["verdict"] and s_info["reward_components"] == info["reward_components"]


def test_user_seat_played_with_the_script_and_the_oracle_assistant():
    env = UserSeatEnv(**SMALL)
    obs, info = env.reset(seed=0, options={"scenario": "demo/invoice_note_correction"})
    assert obs["text"] == "" and info["messages"][0]["role"] == "system"
    assert {t["function"]["name"] for t in info["tools"]} >= {"send_message_with_image", "end_conversation"}
    first = info["scripted_action"]
    obs, reward, terminated, truncated, info = env.step(first)
    assert obs["text"].startswith("Assistant: ") and reward > 0 and not (terminated or truncated)
    total, steps = reward, 1
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(info["scripted_action"])
        total, steps = total + reward, steps + 1
    assert terminated and steps == 3 and total == pytest.approx(2.0)
    assert info["verdict"]["pass"] and info["entity_f1"] == 1.0 and env.episode.verdict.passed


def test_a_bad_user_gets_errors_and_low_reward():
    env = UserSeatEnv(**SMALL)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    _, reward, _, _, info = env.step('{"name": "delete_everything", "arguments": {}}')
    assert reward == 0.0 and "delete_everything" in info["action_error"]
    _, reward, terminated, _, info = env.step('{"name": "end_conversation", "arguments": {}}')
    assert terminated and reward == 0.0 and info["verdict"]["pass"] is False


def test_policy_callable_and_runaway_policy_is_cut():
    calls = []

    def looping_assistant(obs, info):
        calls.append(info["step"])
        return '{"name": "view_image", "arguments": {"image_id": 0}}'

    env = SeatSelection(mmtsb_env.env(**SMALL), seat="user", policy=looping_assistant, max_policy_actions=5)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    obs, reward, terminated, truncated, info = env.step(info["scripted_action"])
    assert truncated and not terminated and len(calls) == 5 and info["verdict"]["pass"] is False
    assert env.policy_name == "function"


def test_checker_and_errors():
    check_env(UserSeatEnv(**SMALL), skip_render_check=True)
    check_env(SeatSelection(mmtsb_env.env(**SMALL)), skip_render_check=True)
    with pytest.raises(ValueError, match="needs a policy for the assistant seat"):
        SeatSelection(mmtsb_env.env(**SMALL), seat="user")
    with pytest.raises(ValueError, match="seat must be one of"):
        SeatSelection(mmtsb_env.env(**SMALL), seat="judge")
    env = UserSeatEnv(**SMALL)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step("hi")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    env.step('{"name": "end_conversation", "arguments": {}}')
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step("hi")


def test_seeded_resets_are_reproducible():
    a, b = UserSeatEnv(**SMALL), UserSeatEnv(**SMALL)
    assert [a.reset(seed=s)[1]["scenario_id"] for s in range(5)] == [b.reset(seed=s)[1]["scenario_id"] for s in range(5)]
    a.reset(seed=7)
    b.reset(seed=7)
    assert [a.reset()[1]["scenario_id"] for _ in range(4)] == [b.reset()[1]["scenario_id"] for _ in range(4)]
