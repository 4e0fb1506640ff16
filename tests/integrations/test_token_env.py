"""TokenEnv: the env in token ids -- no re-encoding, exact loss masks, images of later rounds, batches."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.llm.messages import split_images, template_ready
from mmtsb_env.wrappers import TokenEnv, TokenEnvBatch

from .conftest import canonical_action

pytest.importorskip("transformers")
LATE_IMAGES = "demo/expenses_late_images"  # round 2 brings two receipts


def make(processor):
    return TokenEnv(mmtsb_env.make_env(suite="demo", image_size=(16, 16), max_images=1), processor)


def play_oracle(env, scenario):
    agent = OracleAgent(mmtsb_env.load_suite("demo"))
    tok = env.tokenizer
    end = tok.convert_tokens_to_ids(tok.eos_token)
    ids, info = env.reset(seed=0, options={"scenario": scenario})
    actions, done = [], False
    while not done:
        text = canonical_action(agent.act(info["observation"], info))
        action = tok(text, add_special_tokens=False)["input_ids"] + [end]
        actions.append(action)
        _, _, terminated, truncated, info = env.step(action, [-0.5] * len(action))
        done = terminated or truncated
    return actions, info


def test_trace_is_the_templates_rendering_and_the_mask_is_the_models_tokens(tiny_vlm):
    _, _, processor = tiny_vlm
    env = make(processor)
    actions, info = play_oracle(env, LATE_IMAGES)
    trace = env.trace
    assert info["verdict"]["pass"] and sum(trace.rewards) > 1.0
    # the mask marks exactly the model's ids, in order, with their logprobs
    assert [t for t, m in zip(trace.token_ids, trace.loss_mask) if m] == [t for a in actions for t in a]
    assert [lp for lp, m in zip(trace.logprobs, trace.loss_mask) if m] == [-0.5] * sum(map(len, actions))
    assert not any(trace.loss_mask[:trace.prompt_length])
    # canonical actions: the incremental sequence decodes to what the template renders for the whole episode
    ready = template_ready(info["messages"])
    _, images = split_images(ready)
    text = processor.apply_chat_template(ready, tools=info["tools"], tokenize=False)
    whole = processor(text=[text], images=[images], add_special_tokens=False)["input_ids"][0]
    assert processor.tokenizer.decode(trace.token_ids) == processor.tokenizer.decode(whole)
    # the receipts of round 2 are in the sequence (image tokens) and in the pixel tensors, in order
    image_id = processor.tokenizer.convert_tokens_to_ids("<image>")
    assert len(images) == 2 and env.image_inputs["pixel_values"].shape[1] == 2 == len(trace.images)
    assert trace.token_ids.count(image_id) == 2 * 4  # 4 tokens per tiny image
    assert trace.token_ids[trace.prompt_length:].count(image_id) == 8  # they arrived after the prompt


def test_unexpanded_ids_are_the_trace_with_each_image_as_the_template_wrote_it(tiny_vlm):
    """What a server that expands images itself takes (vLLM's token-in endpoint): same ids, images collapsed."""
    import numpy as np

    from mmtsb_env.llm.messages import load_image

    _, _, processor = tiny_vlm
    env = make(processor)
    play_oracle(env, LATE_IMAGES)
    trace, tok = env.trace, processor.tokenizer
    image_id = tok.convert_tokens_to_ids("<image>")
    assert trace.unexpanded_ids.count(image_id) == len(trace.images) == 2  # one placeholder per image
    pixels = [np.asarray(load_image(u)).tolist() for u in trace.image_urls]
    assert pixels == [np.asarray(i).tolist() for i in trace.images]
    expansion = {tok.convert_tokens_to_ids(t) for t in ("<image>", "<fake_token_around_image>", "<global-img>")}
    assert [t for t in trace.unexpanded_ids if t not in expansion] == [t for t in trace.token_ids if t not in expansion]
    assert len(trace.token_ids) - len(trace.unexpanded_ids) == 2 * (4 + 2 + 1 - 1)  # 4 tokens, 2 borders, 1 global


def test_a_cut_off_turn_is_closed_by_the_env_not_trained(tiny_vlm):
    _, _, processor = tiny_vlm
    env = make(processor)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    action = processor.tokenizer('{"name": "get_wifi_status"', add_special_tokens=False)["input_ids"]
    new_ids, reward, terminated, truncated, info = env.step(action)
    eos = processor.tokenizer.convert_tokens_to_ids(processor.tokenizer.eos_token)
    assert new_ids[0] == eos and env.trace.loss_mask[-len(new_ids)] == 0
    assert info["action_error"] and not terminated
    with pytest.raises(ValueError, match="3 action ids but 1 logprobs"):
        env.step([1, 2, 3], [0.0])


def test_a_template_that_rewrites_history_is_refused(tiny_vlm):
    _, _, processor = tiny_vlm
    import copy

    tokenizer = copy.deepcopy(processor.tokenizer)
    tokenizer.chat_template = ("{% for m in messages %}[{{ messages|length }}]{{ m['role'] }}: "
                               "{% for p in m['content'] %}{{ p['text'] }}{% endfor %}\n{% endfor %}")
    env = TokenEnv(mmtsb_env.make_env(suite="demo", image_size=(16, 16), max_images=0), tokenizer)
    env.reset(seed=0, options={"scenario": "demo/connectivity_goal_change"})
    with pytest.raises(ValueError, match="not append-only"):
        env.step(tokenizer('{"name": "get_wifi_status", "arguments": {}}', add_special_tokens=False)["input_ids"])


def test_batch_reset_and_step(tiny_vlm):
    _, _, processor = tiny_vlm
    batch = TokenEnvBatch(lambda: make(processor), 3)
    ids, infos = batch.reset([0, 1, 2], [{"scenario": "demo/note_from_receipt"}, {"scenario": LATE_IMAGES}, None])
    assert len(ids) == 3 and infos[0]["scenario_id"] == "demo/note_from_receipt" and infos[1]["scenario_id"] == LATE_IMAGES
    tok = processor.tokenizer
    end = tok.convert_tokens_to_ids(tok.eos_token)
    reply = tok("Let me check.", add_special_tokens=False)["input_ids"] + [end]
    results = batch.step([reply, None, reply])
    # a stall does not end the episode: the user nudges, and its tokens are appended
    assert results[1] is None and not results[0][2] and not results[2][2] and len(results[0][0]) > 0
    assert batch.done == [False, False, False]
    for _ in range(6):  # the user gives up after 5 failed tries: the episode ends
        batch.step([reply, None, None])
        if batch.done[0]:
            break
    assert batch.done == [True, False, False]
    assert batch.step([reply, reply, reply])[0] is None  # finished envs are skipped
    assert all(t.prompt_length > 0 for t in batch.traces)
    with pytest.raises(ValueError, match="2 seeds for 3 envs"):
        batch.reset([0, 1])
