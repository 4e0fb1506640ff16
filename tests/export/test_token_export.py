"""Token ids, logprobs and loss mask in exported trajectories of a VLMAgent run (history="raw").

The backend renders every prompt with the tiny Idefics3's real processor and chat template (image
tokens expanded), exactly as the transformers and vLLM backends do, and answers a scripted
oracle-like policy whose replies it tokenizes canonically -- what a trained model samples. The
check is the issue's: the exported ``token_ids`` decode to the template's rendering of the whole
episode, ``loss_mask`` is 1 on exactly the sampled tokens, ``logprobs`` line up.
"""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.baselines.vlm_agent import VLMAgent
from mmtsb_env.export import episode_rows
from mmtsb_env.llm.base import Completion
from mmtsb_env.runner import run_episode

pytest.importorskip("transformers")
DEMO = mmtsb_env.load_suite("demo")


class ScriptedTokenBackend:
    """Real prompt ids from the tiny model's processor; completions from an oracle, tokenized."""

    name = "scripted-tokens"

    def __init__(self, hf_backend, oracle):
        self.hf, self.oracle, self.info = hf_backend, oracle, None
        self.tokenizer = hf_backend.tokenizer
        self.eot = self.tokenizer.convert_tokens_to_ids("<|im_end|>")

    def complete(self, messages, tools=None, **sampling):
        prompt = self.hf.prompt_token_ids(messages, tools)
        action = self.oracle.act({"text": ""}, self.info)
        ids = self.tokenizer(action, add_special_tokens=False)["input_ids"] + [self.eot]
        return Completion(text=action, raw_text=action, prompt_token_ids=prompt, token_ids=ids,
                          logprobs=[-0.5] * len(ids), model="scripted")


@pytest.fixture(scope="module")
def hf_backend(tmp_path_factory):
    from mmtsb_env.llm.hf_backend import TransformersBackend
    from mmtsb_env.llm.tiny import build_tiny_vlm

    path = build_tiny_vlm(tmp_path_factory.mktemp("tiny") / "idefics3", arch="idefics3")
    return TransformersBackend(str(path))


class InfoAgent(VLMAgent):
    """Hands the env's info to the scripted backend (the oracle reads it)."""

    def act(self, obs, info):
        self.backend.info = info
        return super().act(obs, info)


@pytest.mark.parametrize("history, expect_tokens", [("raw", True), ("env", False)])
def test_exported_tokens_of_a_raw_history_run(hf_backend, history, expect_tokens):
    scenario = next(s for s in DEMO if s.id == "demo/compare_receipts")
    backend = ScriptedTokenBackend(hf_backend, OracleAgent(DEMO))
    agent = InfoAgent(backend, history=history, tool_format="native")
    env = mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1)
    record = run_episode(scenario, agent, env=env, capture_images=True)
    assert record.passed and len(record.agent_steps) >= 2
    row = episode_rows(record, seats=("assistant",))[0]
    assert row["token_steps"] and len(row["token_steps"]) == len(record.agent_steps)
    if not expect_tokens:  # the env's form of earlier turns is not what the model wrote: no single sequence
        assert row["token_ids"] is None and row["loss_mask"] is None
        return
    ids, mask, logprobs = row["token_ids"], row["loss_mask"], row["logprobs"]
    assert len(ids) == len(mask) == len(logprobs)
    sampled = [t for s in row["token_steps"] for t in s["completion_ids"]]
    assert [t for t, m in zip(ids, mask) if m] == sampled  # mask 1 on exactly the sampled tokens
    assert all((lp == -0.5) == bool(m) for lp, m in zip(logprobs, mask))
    # the sequence is the template's rendering of the whole episode as the model saw it
    last = agent.build_messages({"messages": record_messages(env), "tools": env.episode.offered_tools("assistant")})
    final_prompt = hf_backend.prompt_token_ids(last, env.episode.offered_tools("assistant"))
    assert final_prompt[:len(ids)] == ids


def record_messages(env):
    return list(env.episode.transcripts["assistant"].messages)
