"""TRL GRPO on whole episodes: a tiny VLM samples every assistant turn; real optimiser steps on CPU."""

from __future__ import annotations

import pytest
import torch

pytest.importorskip("trl")
from trl import GRPOConfig  # noqa: E402

import mmtsb_env  # noqa: E402
from mmtsb_env.integrations.trl import EpisodeGRPOTrainer, EpisodeRollout, episode_prompts  # noqa: E402


def make_env():
    # tool_search: the prompt offers the search tool only (the registry is found through it) -- short prompts
    return mmtsb_env.make_env(suite="demo", image_size=(16, 16), max_images=1, tool_search=True)


SCENARIOS = ["demo/note_from_receipt", "demo/compare_receipts"]


def test_episode_prompts_and_rollout_play_whole_episodes(tiny_vlm):
    _, model, processor = tiny_vlm
    prompts = episode_prompts(make_env, SCENARIOS)
    assert prompts["scenario_id"] == SCENARIOS and [len(i) for i in prompts["images"]] == [1, 2]
    rollout = EpisodeRollout(make_env, processor, prompts, max_turns=3, max_new_tokens=12)
    torch.manual_seed(0)
    out = rollout([prompts[1]["prompt"], prompts[0]["prompt"]], type("Trainer", (), {"model": model})())
    assert [t.images and len(t.images) for t in rollout.traces] == [2, 1]
    for trace, ids, mask, logprobs, ret in zip(rollout.traces, out["completion_ids"], out["env_mask"], out["logprobs"],
                                                out["episode_return"]):
        assert len(ids) == len(mask) == len(logprobs) and 0 < sum(mask) <= 3 * 12
        assert all(lp <= 0.0 for lp, m in zip(logprobs, mask) if m) and all(lp == 0.0 for lp, m in zip(logprobs, mask) if not m)
        assert ret == sum(trace.rewards) and len(trace.rewards) >= 1
        assert ids[-1] != 0 and 0 in mask  # the env's tokens (end of turn, the user's notice) are not trained
    with pytest.raises(ValueError, match="not in the rollout's prompt dataset"):
        rollout([[{"role": "user", "content": [{"type": "text", "text": "hello"}]}]], None)


def low_ids(completions, completion_ids, **_):
    """Prefer low token ids in the first turn: arbitrary, but it differs between two samples."""
    return [1.0 - sum(ids[:8]) / (8 * 4096) for ids in completion_ids]


def test_grpo_trainer_takes_real_optimizer_steps_on_episodes(tiny_vlm, tmp_path):
    _, model, processor = tiny_vlm
    prompts = episode_prompts(make_env, SCENARIOS)
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=2, num_generations=2,
                      learning_rate=1e-3, beta=0.0, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True,
                      bf16=False, gradient_checkpointing=False, max_completion_length=256, seed=0)
    before = {k: v.detach().clone() for k, v in model.named_parameters() if "lm_head" in k}
    # a random model earns the env's return 0 every time (no advantage, no gradient): a small shaping
    # reward on the sampled tokens gives the group a spread, the env's return is still a reward term
    trainer = EpisodeGRPOTrainer(model, make_env=make_env, processing_class=processor, train_dataset=prompts, args=args,
                                 reward_funcs=[low_ids], rollout_kwargs={"max_turns": 2, "max_new_tokens": 8})
    result = trainer.train()
    assert result.global_step == 2
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert len(logs) == 2 and all("rewards/env_reward/mean" in h and "rewards/low_ids/mean" in h for h in logs)
    assert any(float(h["grad_norm"]) > 0 for h in logs)
    assert any(not torch.equal(before[k], v) for k, v in model.named_parameters() if k in before)
