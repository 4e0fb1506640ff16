"""GRPO on whole episodes sampled from a vLLM server: turns batched across episodes, weights reloaded.

Runs only when ``MMTSB_VLLM_PYTHON`` names the python of the separate vLLM environment
(``scripts/setup_vllm_env.sh``); the server (``vllm_server`` in conftest.py) serves the same tiny
Idefics3 the trainer trains.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

VLLM_PYTHON = os.environ.get("MMTSB_VLLM_PYTHON")
pytestmark = [
    pytest.mark.vllm,
    pytest.mark.skipif(not VLLM_PYTHON, reason="MMTSB_VLLM_PYTHON is not set (see scripts/setup_vllm_env.sh)"),
]
torch = pytest.importorskip("torch")
pytest.importorskip("trl")

import mmtsb_env  # noqa: E402
from mmtsb_env.integrations.trl import (  # noqa: E402
    EpisodeGRPOTrainer, EpisodeRollout, VLLMServerGeneration, episode_prompts)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ["demo/compare_receipts", "demo/connectivity_goal_change"]


def make_env():
    return mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1, tool_search=True)


class RecordingGeneration(VLLMServerGeneration):
    """Records each batch's size (one ``generate`` call = one round of turns of every live episode)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sizes = []

    def generate(self, envs, **kwargs):
        self.sizes.append(len(envs))
        return super().generate(envs, **kwargs)


@pytest.mark.parametrize("token_in", [True, False], ids=["token-ids", "chat-messages"])
def test_a_round_of_turns_of_every_episode_is_one_batch(vllm_server, tiny_vlm, token_in):
    url, _ = vllm_server
    processor = tiny_vlm[2]
    prompts = episode_prompts(make_env, SCENARIOS)
    generation = RecordingGeneration(url + "/v1", token_in=token_in)
    rollout = EpisodeRollout(make_env, processor, prompts, max_turns=3, max_new_tokens=12, generation=generation)
    out = rollout([prompts[0]["prompt"], prompts[1]["prompt"]] * 2, None)
    assert generation.sizes[0] == 4 and generation.batches == len(generation.sizes) <= 3  # rounds, not episodes x turns
    assert sorted(generation.sizes, reverse=True) == generation.sizes  # finished episodes leave the batch
    # a reward per played turn, plus the verdict's own entry on an episode the turn cap ended (grpo.py _step)
    turns = [min(len(t.rewards), 3) for t in rollout.traces]
    assert generation.requests == sum(generation.sizes) == sum(turns)
    assert sorted(turns, reverse=True) == [sum(s > i for s in generation.sizes) for i in range(4)]
    if token_in:  # every turn: the server's prompt (its own image expansion included) was the trace, id for id
        assert generation.exact_prompts == generation.requests > 4
    else:  # every first turn: the server's rendering of the messages gave the trace's ids, images included
        assert generation.exact_prompts >= 4
    assert [len(t.images) for t in rollout.traces][:2] == [2, 1]
    for trace, ids, mask, logprobs in zip(rollout.traces, out["completion_ids"], out["env_mask"], out["logprobs"]):
        assert len(ids) == len(mask) == len(logprobs) and 0 < sum(mask) <= 3 * 12
        assert all(lp < 0.0 for lp, m in zip(logprobs, mask) if m)  # the server's logprobs of the sampled ids
        assert all(lp == 0.0 for lp, m in zip(logprobs, mask) if not m)


def test_the_grpo_example_trains_with_the_vllm_server(vllm_server, tmp_path):
    url, path = vllm_server
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRL_EXPERIMENTAL_SILENCE": "1"}
    command = [sys.executable, str(ROOT / "examples" / "grpo_trl.py"), str(tmp_path), "--steps", "1",
               "--model", str(path), "--vllm-url", url]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    turns, batches, reloads, exact = map(int, re.search(
        r"vLLM server: (\d+) turns sampled in (\d+) batches; (\d+) weight reloads; "
        r"server prompt = trace on (\d+) turns", proc.stdout).groups())
    assert batches <= 3 and turns > batches and reloads == 1 and exact == turns  # 2 episodes side by side
    assert re.search(r"step 1: env return \d+\.\d+, model tokens/episode \d+\.\d+, grad norm \d+\.\d+", proc.stdout)


def low_ids(completions, completion_ids, **_):
    """A spread in rewards (an untrained model's episodes all score 0): prefer low ids in the first turn."""
    return [1.0 - sum(ids[:8]) / (8 * 4096) for ids in completion_ids]


def _server_logprobs(generation, env):
    """The server's logprobs of the next sampled turn after ``env``'s trace, and that turn's ids."""
    (turn,) = generation.generate([env], max_new_tokens=6, temperature=1.0, seeds=[7])
    return turn


@torch.no_grad()
def _model_logprobs(model, env, ids):
    input_ids = torch.tensor([env.trace.token_ids + ids])
    extra = dict(env.image_inputs)
    logits = model(input_ids=input_ids, attention_mask=torch.ones_like(input_ids), **extra).logits[0].float()
    start = len(env.trace.token_ids)
    logprobs = torch.log_softmax(logits[start - 1:-1], dim=-1)
    return logprobs[torch.arange(len(ids)), torch.tensor(ids)].tolist()


def test_grpo_with_use_vllm_samples_from_the_server_and_reloads_the_trained_weights(vllm_server, tmp_path):
    from transformers import AutoModelForImageTextToText
    from trl import GRPOConfig

    from mmtsb_env.integrations.trl.grpo import TokenEnv
    from mmtsb_env.llm.processors import load_processor

    url, path = vllm_server
    model, processor = AutoModelForImageTextToText.from_pretrained(path), load_processor(path)
    prompts = episode_prompts(make_env, SCENARIOS)
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=2, num_generations=2,
                      learning_rate=5e-2, beta=0.0, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True,
                      bf16=False, gradient_checkpointing=False, max_completion_length=512, seed=0,
                      use_vllm=True, vllm_mode="server", vllm_server_base_url=url)
    trainer = EpisodeGRPOTrainer(model, make_env=make_env, processing_class=processor, train_dataset=prompts, args=args,
                                 reward_funcs=[low_ids], rollout_kwargs={"max_turns": 2, "max_new_tokens": 8})
    generation = trainer.vllm_generation
    assert isinstance(generation, VLLMServerGeneration) and args.use_vllm  # the caller's config is untouched
    result = trainer.train()
    assert result.global_step == 2
    assert generation.syncs == 2  # before the rollouts of step 0 and of step 1
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert len(logs) == 2 and any(float(h["grad_norm"]) > 0 for h in logs)
    assert generation.requests >= 2 * 2 and generation.exact_prompts == generation.requests

    # the server now samples from the trained weights: load them once more (the last step's update)
    # and its logprobs of a sampled turn match the trained model's, not the initial model's
    generation.sync_weights()
    env = TokenEnv(make_env(), processor)
    env.reset(seed=3, options={"scenario": SCENARIOS[0]})
    turn = _server_logprobs(generation, env)
    trained = _model_logprobs(trainer.model, env, turn.ids)
    initial = _model_logprobs(AutoModelForImageTextToText.from_pretrained(path), env, turn.ids)
    to_trained = max(abs(a - b) for a, b in zip(turn.logprobs, trained))
    to_initial = max(abs(a - b) for a, b in zip(turn.logprobs, initial))
    # vLLM's CPU kernels and transformers' differ by ~1.5e-3 in these logprobs (TRL logs the same gap)
    assert to_trained < 5e-3 and to_initial > 10 * to_trained, (to_trained, to_initial)
