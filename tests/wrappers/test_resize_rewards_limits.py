"""ResizeImages, RewardWeights, StepLimit, EpisodeStatistics."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mmtsb_env.baselines import OracleAgent
from mmtsb_env.vision.store import letterbox
from mmtsb_env.wrappers import EpisodeStatistics, ResizeImages, RewardWeights, StepLimit, TrajectoryRecorder

from .conftest import DEMO, make, play

CHEAP = '{"name": "view_image", "arguments": {"image_id": 0}}'
pytestmark = pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")


def test_resize_images_letterboxes_native_images():
    env = ResizeImages(make(), size=(40, 24), max_images=3)
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert env.observation_space["images"].shape == (3, 40, 24, 3) and env.observation_space.contains(obs)
    assert obs["image_count"] == 2
    assert np.array_equal(obs["images"][0], letterbox(info["images"][0], 40, 24))
    assert np.array_equal(obs["images"][1], letterbox(info["images"][1], 40, 24)) and not obs["images"][2].any()
    check_env(ResizeImages(make(), size=(16, 16), max_images=1), skip_render_check=True)


def test_resize_images_fewer_slots_updates_the_note():
    base = make(max_images=1)
    obs, _ = base.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert obs["text"].endswith("(Only the last 1 of 2 new images are in the image tensor.)")
    env = ResizeImages(make(max_images=1), size=(16, 16), max_images=2)
    obs, _ = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert "Only the last" not in obs["text"] and obs["image_count"] == 2
    env = ResizeImages(make(), size=(16, 16), max_images=1)
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert obs["text"].endswith("(Only the last 1 of 2 new images are in the image tensor.)") and obs["text"].count("Only the last") == 1
    assert np.array_equal(obs["images"][0], letterbox(info["images"][1], 16, 16))


def test_resize_images_cache_does_not_leak_across_episodes():
    env = ResizeImages(make(), size=(24, 24))
    obs1, info1 = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    obs2, info2 = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})  # image 0 is another receipt
    assert np.array_equal(obs2["images"][0], letterbox(info2["images"][0], 24, 24))
    assert not np.array_equal(obs1["images"][0], obs2["images"][0])


def test_reward_weights():
    _, plain, _ = play(make(), "demo/invoice_note_correction")
    _, same, info = play(RewardWeights(make()), "demo/invoice_note_correction")
    assert same == plain and info["env_reward"] == plain[-1]
    _, weighted, _ = play(RewardWeights(make(), f1=2.0, judge=0.25), "demo/invoice_note_correction")
    assert sum(weighted) == pytest.approx(2.0 * 1.0 + 0.25 * 1.0)
    env = RewardWeights(make(), action_error=-0.5)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert env.step("{not json")[1] == -0.5
    assert env.step(CHEAP)[1] == 0.0


def test_step_limit_truncates_judges_and_records_consistently():
    env = TrajectoryRecorder(StepLimit(make(), max_steps=3), agent_name="loop")
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    rewards = []
    for i in range(3):
        obs, reward, terminated, truncated, info = env.step(CHEAP)
        rewards.append(reward)
        assert truncated == (i == 2) and not terminated
    assert info["step_limit"] and info["verdict"]["pass"] is False and info["entity_f1"] == 0.0
    record = env.records[0]
    assert record.truncated and not record.terminated and record.verdict["pass"] is False and record.assistant_steps == 3
    assert sum(e["reward"] for e in record.rewards) == pytest.approx(sum(rewards))
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert env.env.elapsed_steps == 0
    # an oracle finishing within the limit is not truncated, and the reward is untouched
    _, rewards, info = play(StepLimit(make(), max_steps=5), "demo/note_from_receipt")
    assert sum(rewards) == 2.0 and info["verdict"]["pass"] and "step_limit" not in info
    with pytest.raises(ValueError, match="max_steps must be >= 1"):
        StepLimit(make(), max_steps=0)


def test_step_limit_passing_verdict_adds_the_judge_reward():
    env = StepLimit(make(), max_steps=1)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    action = OracleAgent(DEMO).act(obs, info)  # creates the note: F1 1.0, but the user never closes
    _, reward, _, truncated, info = env.step(action)
    assert truncated and info["entity_f1"] == 1.0
    assert reward == pytest.approx(1.0 + info["reward_components"]["judge"])


def test_episode_statistics():
    env = EpisodeStatistics(make(), buffer_length=2)
    _, rewards, info = play(env, "demo/invoice_note_correction")
    ep = info["episode"]
    assert ep["r"] == sum(rewards) == 2.0 and ep["l"] == len(rewards) and ep["entity_f1"] == 1.0 and ep["passed"]
    assert ep["action_errors"] == 0 and ep["t"] > 0
    # abandoned episode: its numbers do not leak into the next one
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    for _ in range(4):
        env.step("{bad")
    _, rewards, info = play(env, "demo/note_from_receipt")
    assert info["episode"]["l"] == len(rewards) == 2 and info["episode"]["action_errors"] == 0
    play(env, "demo/sum_receipts")
    assert list(env.length_queue) == [2, 2] and env.episode_count == 3
    assert env.summary() == {"episodes": 2.0, "mean_return": 2.0, "mean_length": 2.0, "mean_entity_f1": 1.0, "pass_rate": 1.0}
    check_env(EpisodeStatistics(make(), record_time=False), skip_render_check=True)
