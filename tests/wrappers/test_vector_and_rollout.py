"""Gymnasium vector envs, and BatchedRollout: batched policy calls, threaded env steps, same records."""

import dataclasses

import gymnasium
import numpy as np
import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.rollout import BatchedRollout, PerEpisodeAgents, WorkUnit
from mmtsb_env.runner import run_episode

from .conftest import DEMO, SMALL, make

CHEAP = '{"name": "view_image", "arguments": {"image_id": 0}}'


def _make():
    return mmtsb_env.make_env(**SMALL)


def _check_vector(venv):
    obs, info = venv.reset(seed=[0, 1, 2][:venv.num_envs])
    assert isinstance(obs["text"], tuple) and all(t.startswith("User: ") for t in obs["text"])
    assert obs["images"].shape == (venv.num_envs, 4, 32, 32, 3) and obs["images"].dtype == np.uint8
    assert list(info["scenario_id"]) == [mmtsb_env.make_env(**SMALL).reset(seed=s)[1]["scenario_id"] for s in range(venv.num_envs)]
    obs, reward, terminated, truncated, info = venv.step((CHEAP,) * venv.num_envs)
    assert reward.shape == (venv.num_envs,) and not terminated.any() and not truncated.any()
    assert all(t.startswith("Tool result [view_image") for t in obs["text"])
    obs, reward, terminated, truncated, info = venv.step(("Thanks, all done.",) * venv.num_envs)
    assert terminated.dtype == bool and list(info["step"]) and venv.observation_space["images"].shape[0] == venv.num_envs
    venv.close()


def test_sync_vector_env():
    _check_vector(gymnasium.vector.SyncVectorEnv([_make for _ in range(3)]))


def test_async_vector_env_without_shared_memory():
    _check_vector(gymnasium.vector.AsyncVectorEnv([_make for _ in range(2)], shared_memory=False))


def _strip(record):
    data = dataclasses.asdict(record)
    data.pop("duration_s")
    return data


def test_32_envs_in_threads_match_the_sequential_run():
    units = [WorkUnit(DEMO[i % len(DEMO)].id, seed=i // len(DEMO)) for i in range(32)]
    envs = [make() for _ in range(32)]
    rollout = BatchedRollout(envs, PerEpisodeAgents(lambda: OracleAgent(DEMO)), max_workers=32, capture_images=True,
                             agent_name="oracle")
    records = rollout.run(units)
    assert rollout.batch_sizes[0] == 32 and sum(rollout.batch_sizes) == sum(r.assistant_steps for r in records)
    assert rollout.policy_calls == len(rollout.batch_sizes) == max(r.assistant_steps for r in records)
    by_id = {s.id: s for s in DEMO}
    for unit, record in zip(units, records):
        sequential = run_episode(by_id[unit.scenario], OracleAgent(DEMO), seed=unit.seed, env=make(), capture_images=True,
                                 agent_name="oracle")
        assert _strip(record) == _strip(sequential), unit
    assert all(r.passed for r in records)


def test_continuous_batching_and_policy_protocol():
    seen = []

    def policy(batch):
        seen.append(sorted(info["env_index"] for _, info in batch))
        return [("Thanks, that is all.", {"token_ids": [1]}) for _ in batch]

    rollout = BatchedRollout([make(), make()], policy, max_steps=3)
    records = rollout.run([("demo/note_from_receipt", 0), "demo/compare_receipts", ("demo/sum_receipts", 5)])
    assert [r.scenario_id for r in records] == ["demo/note_from_receipt", "demo/compare_receipts", "demo/sum_receipts"]
    assert [r.seed for r in records] == [0, 0, 5]
    assert seen[0] == [0, 1] and all(len(b) <= 2 for b in seen)
    assert all(r.agent_steps and r.agent_steps[0] == {"token_ids": [1]} for r in records)
    with pytest.raises(ValueError, match="returned 0 actions for a batch of 1"):
        BatchedRollout([make()], lambda batch: []).run(["demo/note_from_receipt"])
    with pytest.raises(ValueError, match="at least one env"):
        BatchedRollout([], lambda b: b)


def test_max_steps_truncates_with_a_verdict():
    rollout = BatchedRollout([make()], lambda batch: [CHEAP] * len(batch), max_steps=4)
    record = rollout.run(["demo/note_from_receipt"])[0]
    assert record.truncated and record.assistant_steps == 4 < record.steps and record.verdict["pass"] is False
