"""TRL's environment_factory path: the shipped class plays whole episodes, and GRPOTrainer runs on it.

The trainer test uses a tiny random Qwen2-VL (offline) with TRL's own Qwen3-VL chat template, so TRL
recognises the tool-call format. A random model rarely writes a tool call, so its sampling is
steered: ``generate`` returns a scripted first turn (a real tool call) and then a text reply,
everything else -- TRL's prompt rendering with the env's tools, tool execution through the env's
methods, images in tool results, masks, logprobs from the model's forward pass, the optimiser step
-- is the real thing.
"""

from __future__ import annotations

import json

import pytest
import torch

pytest.importorskip("trl")
from trl import GRPOConfig, GRPOTrainer  # noqa: E402

import mmtsb_env  # noqa: E402
from mmtsb_env.baselines import OracleAgent  # noqa: E402
from mmtsb_env.episode.actions import Message, ToolCalls, parse_action  # noqa: E402
from mmtsb_env.integrations.trl import environment_factory, environment_prompts, final_reply_reward  # noqa: E402

OPTIONS = {"image_size": (32, 32), "max_images": 1}
DEMO = mmtsb_env.load_suite("demo")


def _images(result):
    return [p for p in result if isinstance(p, dict) and p.get("type") == "image"] if isinstance(result, list) else []


def _text(result):
    return result if isinstance(result, str) else "".join(p.get("text", "") for p in result if p.get("type") == "text")


@pytest.mark.parametrize("scenario", ["demo/expenses_late_images", "demo/compare_receipts"])
def test_the_oracle_plays_every_round_through_the_methods_and_gets_a_verdict(scenario):
    cls = environment_factory("demo", **OPTIONS)
    env, oracle = cls(), OracleAgent(DEMO)
    first = env.reset(scenario_id=scenario, seed=0)
    seen_images = len(_images(first))
    replies = 0
    final = None
    for _ in range(30):
        action = parse_action(oracle.act({"text": _text(first)}, env.info))
        if isinstance(action, ToolCalls):
            for call in action.calls:
                result = getattr(env, call.name)(**call.arguments)
                seen_images += len(_images(result))
        else:
            assert isinstance(action, Message)
            if env.done:
                break
            # what a model does: talk to the user through the tool; its final reply ends TRL's rollout
            if len(env.episode.scenario.rounds) > env.episode.round_index + 1:
                result = env.send_message_to_user(action.text)
                replies += 1
                seen_images += len(_images(result))
            else:
                final = action.text
                break
    assert final is not None
    (reward,) = final_reply_reward([[{"role": "assistant", "content": final}]], environments=[env])
    verdict = env.info["verdict"]
    assert verdict["pass"] is True and env.done
    assert reward == pytest.approx(sum(h["reward"] for h in env.episode.reward_history))
    rounds = len(env.episode.scenario.rounds)
    assert replies == rounds - 1  # every later round was played inside the rollout
    assert seen_images == len(env.episode.images)  # every image reached the model (first turn, user turns, tools)


def test_a_reply_that_leaves_the_task_undone_is_judged_failed():
    env = environment_factory("demo", **OPTIONS)()
    env.reset(scenario_id="demo/note_from_receipt", seed=0)
    (reward,) = final_reply_reward([[{"role": "assistant", "content": "Done!"}]], environments=[env])
    assert env.done and env.episode.verdict is not None and env.episode.verdict.passed is False
    assert reward == pytest.approx(sum(h["reward"] for h in env.episode.reward_history))


# ------------------------------------------------------------------ GRPOTrainer, for real
@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory):
    pytest.importorskip("transformers")
    from transformers import AutoModelForImageTextToText
    from trl.chat_template_utils import qwen3_vl_chat_template

    from mmtsb_env.llm.processors import load_processor
    from mmtsb_env.llm.tiny import build_tiny_vlm

    path = build_tiny_vlm(tmp_path_factory.mktemp("tiny") / "qwen2_vl", arch="qwen2_vl")
    processor = load_processor(path, "qwen2_vl")
    processor.chat_template = processor.tokenizer.chat_template = qwen3_vl_chat_template
    return AutoModelForImageTextToText.from_pretrained(path), processor


def _steer(model, processor, turns):
    """``generate`` writes ``turns`` in order (one per call per sequence); logprobs come from the model."""
    original = model.generate
    tokenizer = processor.tokenizer
    calls = {"n": 0}

    def generate(*args, **kwargs):
        input_ids = kwargs.get("input_ids", args[0] if args else None)
        text = turns[min(calls["n"], len(turns) - 1)]
        calls["n"] += 1
        ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.convert_tokens_to_ids("<|im_end|>")]
        new = torch.tensor([ids] * input_ids.shape[0], dtype=input_ids.dtype)
        return torch.cat([input_ids, new], dim=1)

    model.generate = generate
    return original


def test_grpo_trainer_with_the_environment_factory_reaches_verdicts(tiny_qwen, tmp_path):
    model, processor = tiny_qwen
    # a call without images first (TRL then carries the prompt's pixel fields into the next turn: the
    # path where a processor's numpy image fields crashed), then one whose result is an image
    calls = [{"name": "simple_note_show_profile", "arguments": {}}, {"name": "view_image", "arguments": {"image_id": 0}}]
    turns = [*("<tool_call>\n" + json.dumps(c) + "\n</tool_call>" for c in calls), "The note is saved."]
    original = _steer(model, processor, turns)
    envs = []
    factory = environment_factory("demo", scenario_ids=["demo/note_from_receipt"], **OPTIONS)

    def tracked():
        env = factory()
        envs.append(env)
        return env

    seen = []

    def spy(completions, **_):
        seen.extend(completions)
        return [0.0] * len(completions)

    prompts = environment_prompts("demo", ["demo/note_from_receipt"], seeds=(0, 1), **OPTIONS)
    args = GRPOConfig(output_dir=str(tmp_path), max_steps=1, per_device_train_batch_size=2, num_generations=2,
                      learning_rate=1e-3, beta=0.0, logging_steps=1, save_strategy="no", report_to=[], use_cpu=True,
                      bf16=False, max_completion_length=1024, seed=0)
    try:
        trainer = GRPOTrainer(model, reward_funcs=[final_reply_reward, spy], train_dataset=prompts, args=args,
                              environment_factory=tracked, processing_class=processor)
        assert any(t.__name__ == "send_message_to_user" for t in trainer.tools)
        assert any(t.__name__ == "view_image" for t in trainer.tools)
        result = trainer.train()
    finally:
        model.generate = original
    assert result.global_step == 1
    played = [e for e in envs if e.info.get("verdict") is not None]
    assert played, "no rollout reached a verdict"
    assert len(played) >= 2  # both rollouts of the group
    for env in played:
        calls = [c.outcome.name for c in env.episode.calls if c.seat == "assistant"]
        assert calls == ["simple_note_show_profile", "view_image"]  # the model's tool calls ran in the env
        assert env.final_reply == "The note is saved." and env.episode.verdict.passed is False
        assert env.episode.done
    tool_turns = [m for c in seen for m in c if m["role"] == "tool"]
    with_images = [m for m in tool_turns if isinstance(m["content"], list) and any(p.get("type") == "image" for p in m["content"])]
    assert len(tool_turns) == 2 * len(with_images) > 0  # view_image's result carries its image to the model
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert logs and "rewards/final_reply_reward/mean" in logs[0]


def test_the_episode_trainer_samples_from_a_vllm_server_only(tmp_path):
    from mmtsb_env.integrations.trl import EpisodeGRPOTrainer

    args = GRPOConfig(output_dir=str(tmp_path), use_vllm=True, vllm_mode="colocate", report_to=[], use_cpu=True, bf16=False)
    with pytest.raises(ValueError, match="samples from a vLLM server: use vllm_mode='server'"):
        EpisodeGRPOTrainer(None, make_env=lambda: None, processing_class=None, train_dataset=None, args=args)
