"""GRPO with TRL on the demo suite: a tiny VLM plays whole episodes; the env's return is the reward.

Each rollout is a full episode: the model samples every assistant turn, the env answers with tool
results and the scripted user's turns (images included); only the model's tokens are trained.
A random tiny model earns nothing, and a group with equal rewards has no advantage to learn from,
so a stand-in reward (prefer low token ids in the first turn -- arbitrary, but it differs between
samples) gives the optimiser a gradient; with a real model, drop it.

Run: python examples/grpo_trl.py [OUT_DIR] [--steps N] [--model DIR --vllm-url URL]
Needs pip install "mmtsb-env[trl]" and torch (CPU is fine).

With --vllm-url the episodes are sampled from a vLLM server (all episodes of a step side by side,
each round of turns in one batch) that reloads the trained weights every step; it must serve the
model in --model DIR with VLLM_SERVER_DEV_MODE=1 (see docs/training.md).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import mmtsb_env


def make_env():
    # tool_search: only the search tool is listed up front, so prompts stay short on CPU
    return mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1, tool_search=True)


def low_ids(completions, completion_ids, **_):
    return [1.0 - sum(ids[:16]) / (16 * 4096) for ids in completion_ids]


def main(out_dir: Path, steps: int, model_dir: Path | None = None, vllm_url: str | None = None) -> None:
    import torch
    from transformers import AutoModelForImageTextToText
    from trl import GRPOConfig

    from mmtsb_env.integrations.trl import EpisodeGRPOTrainer, episode_prompts
    from mmtsb_env.llm.processors import load_processor
    from mmtsb_env.llm.tiny import build_tiny_vlm

    torch.manual_seed(0)
    model_dir = model_dir or build_tiny_vlm(out_dir / "tiny-idefics3")
    model, processor = AutoModelForImageTextToText.from_pretrained(model_dir), load_processor(model_dir)
    prompts = episode_prompts(make_env)
    print(f"prompt rows: {prompts.num_rows} scenarios; first: {prompts[0]['scenario_id']} with {len(prompts[0]['images'])} image(s)")
    args = GRPOConfig(output_dir=str(out_dir / "grpo"), max_steps=steps, per_device_train_batch_size=2, num_generations=2,
                      learning_rate=1e-3, beta=0.0, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True,
                      bf16=False, gradient_checkpointing=False, seed=0,
                      **(dict(use_vllm=True, vllm_mode="server", vllm_server_base_url=vllm_url) if vllm_url else {}))
    trainer = EpisodeGRPOTrainer(model, make_env=make_env, processing_class=processor, train_dataset=prompts, args=args,
                                 reward_funcs=[low_ids], rollout_kwargs={"max_turns": 3, "max_new_tokens": 16})
    trainer.train()
    for h in trainer.state.log_history:
        if "loss" in h:
            print(f"step {h['step']}: env return {h['rewards/env_reward/mean']:.3f}, "
                  f"model tokens/episode {h['completions/mean_length']:.1f}, grad norm {h['grad_norm']:.4f}")
    if vllm_url:
        generation = trainer.vllm_generation
        print(f"vLLM server: {generation.requests} turns sampled in {generation.batches} batches; "
              f"{generation.syncs} weight reloads; server prompt = trace on {generation.exact_prompts} turns")
    trace = trainer.episode_rollout.traces[0]
    print(f"last rollout: {len(trace.token_ids)} tokens, {sum(trace.loss_mask)} trained, {len(trace.images)} image(s), "
          f"{len(trace.rewards)} env steps")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", type=Path)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--model", type=Path, help="the model to train (default: a tiny random Idefics3 built here)")
    parser.add_argument("--vllm-url", help="sample episodes from this vLLM server (it must serve --model)")
    a = parser.parse_args()
    if a.vllm_url and not a.model:
        parser.error("--vllm-url needs --model: the server must serve the model being trained")
    main(a.out_dir or Path(tempfile.mkdtemp()), a.steps, a.model, a.vllm_url)
