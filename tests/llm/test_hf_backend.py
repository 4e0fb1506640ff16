"""TransformersBackend with real tiny Idefics3 and Qwen2-VL models (random weights, CPU)."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from mmtsb_env.llm.base import BackendError, complete_n
from mmtsb_env.vision.store import to_data_url

TOOLS = [{"type": "function", "function": {"name": "get_battery", "description": "Battery level.",
                                           "parameters": {"type": "object", "properties": {}}}}]


def _chat(color: str = "red", text: str = "What is in [image 0]?"):
    url = to_data_url(Image.new("RGB", (40, 30), color))
    return [{"role": "system", "content": "You are terse."},
            {"role": "user", "content": [{"type": "text", "text": text}, {"type": "image_url", "image_url": {"url": url}}]}]


def test_completion_has_token_ids_and_logprobs(hf_backend):
    c = hf_backend.complete(_chat(), TOOLS, max_tokens=6)
    assert 1 <= len(c.token_ids) <= 6 and len(c.logprobs) == len(c.token_ids)
    assert all(lp <= 0.0 for lp in c.logprobs)
    assert c.usage == {"prompt_tokens": len(c.prompt_token_ids), "completion_tokens": len(c.token_ids),
                       "total_tokens": len(c.prompt_token_ids) + len(c.token_ids)}
    assert c.finish_reason in ("stop", "length") and c.model
    # the prompt went through the model's chat template, with the tool schema and the image tokens
    prompt = hf_backend.tokenizer.decode(c.prompt_token_ids)
    assert '"name": "get_battery"' in prompt and "What is in [image 0]?" in prompt
    image_token = "<image>" if hf_backend.model_type == "idefics3" else "<|image_pad|>"
    assert prompt.count(image_token) == 4  # one 32x32 image -> 4 tokens in both tiny models


def test_score_recomputes_the_returned_logprobs(hf_backend):
    c = hf_backend.complete(_chat(), TOOLS, max_tokens=6, temperature=1.0, seed=3)
    scored = hf_backend.score(_chat(), TOOLS, c.token_ids)
    assert scored.requires_grad
    assert scored.detach().tolist() == pytest.approx(c.logprobs, abs=1e-4)
    full = hf_backend.score(_chat(), TOOLS, c.token_ids, full=True)
    assert len(full) == len(c.prompt_token_ids) + len(c.token_ids) - 1
    assert full[-len(c.token_ids):].detach().tolist() == pytest.approx(c.logprobs, abs=1e-4)
    assert hf_backend.prompt_token_ids(_chat(), TOOLS) == c.prompt_token_ids


def test_images_reach_the_model(hf_backend):
    red = hf_backend.complete(_chat("red"), max_tokens=1)
    blue = hf_backend.complete(_chat("blue"), max_tokens=1)
    assert red.prompt_token_ids == blue.prompt_token_ids  # same text...
    first_red = hf_backend.score(_chat("red"), None, red.token_ids).item()
    first_blue = hf_backend.score(_chat("blue"), None, red.token_ids).item()
    assert first_red != pytest.approx(first_blue, abs=1e-6)  # ...different pixels, different distribution


def test_sampling_is_seeded_and_greedy_is_deterministic(hf_backend):
    a = hf_backend.complete(_chat(), max_tokens=6, temperature=1.0, seed=11)
    b = hf_backend.complete(_chat(), max_tokens=6, temperature=1.0, seed=11)
    assert a.token_ids == b.token_ids
    samples = complete_n(hf_backend, _chat(), n=4, max_tokens=6, seed=5)
    assert len(samples) == 4 and len({tuple(s.token_ids) for s in samples}) > 1
    assert hf_backend.complete(_chat(), max_tokens=5).token_ids == hf_backend.complete(_chat(), max_tokens=5).token_ids


def test_batch_matches_single_calls_and_mixes_text_and_image_prompts(hf_backend):
    text_only = [{"role": "user", "content": "Hello there"}]
    batch = hf_backend.complete_batch([_chat(), text_only], TOOLS, max_tokens=4)
    alone = [hf_backend.complete(_chat(), TOOLS, max_tokens=4), hf_backend.complete(text_only, TOOLS, max_tokens=4)]
    assert [c.prompt_token_ids for c in batch] == [c.prompt_token_ids for c in alone]
    for got, want in zip(batch, alone):
        assert got.logprobs[0] == pytest.approx(want.logprobs[0], abs=1e-3)


def test_prefill_starts_the_reply(hf_backend):
    c = hf_backend.complete(_chat(), TOOLS, max_tokens=4, prefill="<tool_call>")
    assert c.raw_text.startswith("<tool_call>")
    assert hf_backend.tokenizer.decode(c.prompt_token_ids).endswith("<|im_start|>assistant\n<tool_call>")


def test_stop_strings_and_unknown_options(idefics3_backend):
    c = idefics3_backend.complete(_chat(), max_tokens=8, temperature=1.0, seed=1)
    cut = c.raw_text[2:4]
    stopped = idefics3_backend.complete(_chat(), max_tokens=8, temperature=1.0, seed=1, stop=[cut])
    assert stopped.raw_text == c.raw_text[: c.raw_text.index(cut)] and stopped.finish_reason == "stop"
    with pytest.raises(TypeError, match="unknown sampling option"):
        idefics3_backend.complete(_chat(), frequency_bonus=2)


def test_assistant_tool_call_history_renders(idefics3_backend):
    history = _chat() + [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "get_battery", "arguments": json.dumps({})}}]},
        {"role": "tool", "tool_call_id": "c1", "name": "get_battery", "content": '{"level": 80}'},
    ]
    c = idefics3_backend.complete(history, TOOLS, max_tokens=2)
    prompt = idefics3_backend.tokenizer.decode(c.prompt_token_ids)
    assert '<tool_call>{"name": "get_battery", "arguments": {}}</tool_call>' in prompt
    assert '<tool_response>\n{"level": 80}\n</tool_response>' in prompt


def test_missing_model_is_a_backend_error(tmp_path):
    from mmtsb_env.llm.hf_backend import TransformersBackend

    pytest.importorskip("transformers")
    with pytest.raises(BackendError, match="cannot load model from"):
        TransformersBackend(tmp_path / "nothing-here")
