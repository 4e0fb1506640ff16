"""TokenAgent's options, checked before any server is contacted (the served path: test_token_agent_vllm.py)."""

from __future__ import annotations

import pytest

from mmtsb_env.baselines import make_agent
from mmtsb_env.baselines.token_agent import TokenAgent
from mmtsb_env.llm.vllm_server import VLLMServerGeneration

URL = "http://127.0.0.1:9/v1"  # nothing listens: any contact would fail with another message


def test_token_in_needs_a_vllm_server():
    with pytest.raises(ValueError, match="token-in sampling needs a vLLM server"):
        make_agent("hf", scenarios=[], model="/models/x", token_in=True)
    with pytest.raises(ValueError, match="token-in sampling needs a vLLM server"):
        make_agent("vllm", scenarios=[], model="/models/x", token_in=True)


def test_token_in_refuses_the_chat_agents_prompt_options():
    with pytest.raises(ValueError, match="not used with it: prefill, tool_format"):
        make_agent("vllm", scenarios=[], model=URL, token_in=True, tool_format="compact", prefill="<tool_call>")


def test_token_agent_needs_token_in_generation():
    with pytest.raises(ValueError, match="token_in=True"):
        TokenAgent(VLLMServerGeneration(URL, token_in=False), processor=None)


def test_an_unreachable_server_is_a_backend_error():
    from mmtsb_env.llm.base import BackendError

    with pytest.raises(BackendError, match="unreachable"):
        make_agent("vllm", scenarios=[], model=URL, token_in=True)


def test_the_processor_must_be_a_folder_here():
    with pytest.raises(ValueError, match="'/no/such/model' is not a folder here; pass the model's folder"):
        make_agent("vllm", scenarios=[], model=URL, token_in=True, processor="/no/such/model")
