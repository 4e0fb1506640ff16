"""Tool-call reading, message shaping and context trimming (no model needed)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from PIL import Image

from mmtsb_env.episode.actions import ToolCalls, parse_action
from mmtsb_env.llm.context import drop_old_images, trim_context
from mmtsb_env.llm.messages import count_images, load_image, split_images, template_ready, text_only
from mmtsb_env.llm.toolcalls import calls_to_action, openai_tool_calls, split_tool_calls
from mmtsb_env.vision.store import to_data_url


def _image_message(image_id: int, color: str = "red") -> dict:
    url = to_data_url(Image.new("RGB", (6, 4), color))
    return {"role": "user", "content": [{"type": "text", "text": "look at this"}, {"type": "text", "text": f"[image {image_id}]"},
                                        {"type": "image_url", "image_url": {"url": url}}]}


@pytest.mark.parametrize("module", [
    "mmtsb_env.llm.base", "mmtsb_env.llm.toolcalls", "mmtsb_env.llm.messages", "mmtsb_env.llm.context",
    "mmtsb_env.llm.templates", "mmtsb_env.llm.openai_backend", "mmtsb_env.llm.factory", "mmtsb_env.users.llm_user", "mmtsb_env.baselines.vlm_agent",
])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_hermes_tags_with_prose_become_calls():
    prose, calls = split_tool_calls('Let me look.\n<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>'
                                    '<tool_call>{"name": "b", "arguments": {}}</tool_call>')
    assert prose == "Let me look."
    assert [(c["name"], c["arguments"]) for c in calls] == [("a", {"x": 1}), ("b", {})]


def test_bare_json_and_fenced_json_become_calls():
    assert split_tool_calls('{"name": "a", "arguments": {"q": "z"}}')[1][0]["arguments"] == {"q": "z"}
    assert split_tool_calls('```json\n[{"name": "a", "arguments": {}}]\n```')[1][0]["name"] == "a"


def test_malformed_call_stays_text_so_the_env_reports_it():
    text = '<tool_call>{"name": "a", "arguments": {</tool_call>'
    assert split_tool_calls(text) == (text, [])


def test_openai_tool_calls_keep_invalid_argument_strings():
    calls = openai_tool_calls([
        {"id": "c1", "type": "function", "function": {"name": "a", "arguments": '{"x": 2}'}},
        {"id": "c2", "type": "function", "function": {"name": "b", "arguments": '{"x": '}},
        {"id": "c3", "type": "function", "function": {"name": "c", "arguments": ""}},
    ])
    assert calls == [{"id": "c1", "name": "a", "arguments": {"x": 2}}, {"id": "c2", "name": "b", "arguments": '{"x": '},
                     {"id": "c3", "name": "c", "arguments": {}}]
    # our grammar then reports the bad one clearly
    parsed = parse_action(calls_to_action(calls[1:2]))
    assert "not valid JSON" in parsed.error


def test_calls_to_action_round_trips_through_the_action_parser():
    action = calls_to_action([{"id": "srv-1", "name": "x", "arguments": {"k": "é"}}, {"id": "", "name": "y", "arguments": {}}])
    parsed = parse_action(action)
    assert isinstance(parsed, ToolCalls)
    assert [(c.id, c.name, c.arguments) for c in parsed.calls] == [("srv-1", "x", {"k": "é"}), ("", "y", {})]


def test_split_images_decodes_data_urls_in_order():
    msgs = [_image_message(0, "red"), {"role": "assistant", "content": "ok"}, _image_message(1, "blue")]
    out, images = split_images(msgs)
    assert [img.getpixel((0, 0)) for img in images] == [(255, 0, 0), (0, 0, 255)]
    assert out[0]["content"][2] == {"type": "image"} and out[1] == msgs[1]
    assert count_images(msgs) == 2
    assert msgs[0]["content"][2]["type"] == "image_url"  # input untouched


def test_load_image_refuses_the_network(tmp_path):
    with pytest.raises(ValueError, match="no network"):
        load_image("https://example.com/cat.png")
    path = tmp_path / "x.png"
    Image.new("L", (3, 3), 7).save(path)
    assert load_image(f"file://{path}").mode == "RGB"


def test_template_ready_parses_arguments_and_fills_none():
    msgs = [{"role": "assistant", "content": None, "tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "a", "arguments": '{"x": 1}'}}]}]
    out = template_ready(msgs)
    assert out[0]["content"] == [{"type": "text", "text": ""}] and out[0]["tool_calls"][0]["function"]["arguments"] == {"x": 1}
    assert msgs[0]["tool_calls"][0]["function"]["arguments"] == '{"x": 1}'


def test_text_only_hides_pixels_but_keeps_labels():
    out = text_only([_image_message(3)], placeholder="")
    assert out[0]["content"] == "look at this [image 3]"


def test_trim_context_never_starts_on_an_orphan_tool_result():
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "a", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "1", "content": "r1"}, {"role": "tool", "tool_call_id": "1", "content": "r2"},
            {"role": "assistant", "content": "done"}]
    out = trim_context(msgs, max_messages=3)
    assert [m["role"] for m in out] == ["system", "user", "assistant"]
    assert out[1]["content"] == "(4 earlier messages are not shown.)" and out[2]["content"] == "done"


def test_old_images_become_labelled_text():
    msgs = [{"role": "system", "content": "s"}, _image_message(0), _image_message(1), _image_message(2)]
    out = drop_old_images(msgs, max_images=1)
    assert count_images(out) == 1
    assert out[1]["content"] == "look at this [image 0: shown earlier, not repeated to save context]"
    assert out[2]["content"] == "look at this [image 1: shown earlier, not repeated to save context]"
    assert out[3]["content"][1]["text"] == "[image 2]"
    assert count_images(drop_old_images(msgs, max_images=0)) == 0


def test_chat_template_renders_tools_calls_results_and_images():
    pytest.importorskip("transformers")  # its renderer knows the {% generation %} markers of the template
    from transformers.utils.chat_template_utils import render_jinja_template

    from mmtsb_env.llm.templates import chat_template

    rendered, _ = render_jinja_template(
        conversations=[[{"role": "system", "content": "rules"},
                        {"role": "user", "content": [{"type": "text", "text": "see"}, {"type": "image"}]},
                        {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
                        {"role": "tool", "content": "{\"ok\": true}"}]],
        tools=[{"type": "function", "function": {"name": "f"}}], chat_template=chat_template("<IMG>"),
        add_generation_prompt=True)
    text = rendered[0]
    assert text.startswith("<|im_start|>system\nrules\n\nYou can call these tools")
    assert "<|im_start|>user\nsee<IMG><|im_end|>" in text
    assert '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call><|im_end|>' in text
    assert "<|im_start|>user\n<tool_response>\n{\"ok\": true}\n</tool_response><|im_end|>" in text
    assert text.endswith("<|im_start|>assistant\n")


@pytest.mark.parametrize("spec, kwargs, expected", [
    ("hf:/m/tiny", {}, ("hf", "/m/tiny", None)),
    ("/m/tiny", {}, ("hf", "/m/tiny", None)),
    ("hf", {"model": "/m/x"}, ("hf", "/m/x", None)),
    ("vllm:/m/tiny", {}, ("vllm", "/m/tiny", None)),
    ("vllm", {"model": "http://h:1/v1"}, ("openai", None, "http://h:1/v1")),
    ("openai:https://h/v1#served", {}, ("openai", "served", "https://h/v1")),
    ("openai", {"model": "name", "base_url": "http://h/v1"}, ("openai", "name", "http://h/v1")),
    ("http://h:8000/v1", {}, ("openai", None, "http://h:8000/v1")),
])
def test_backend_specs(spec, kwargs, expected):
    from mmtsb_env.llm.factory import parse_spec

    assert parse_spec(spec, **kwargs) == expected


def test_make_backend_caches_and_explains():
    from mmtsb_env.llm import make_backend

    a = make_backend("openai:http://127.0.0.1:9/v1#m", concurrency=3, max_retries=0)
    assert a is make_backend("vllm", "http://127.0.0.1:9/v1", served_model="m", concurrency=3, max_retries=0)
    assert (a.model, a.max_concurrency, a.base_url) == ("m", 3, "http://127.0.0.1:9/v1")
    assert a is not make_backend("openai:http://127.0.0.1:9/v1#m", concurrency=4, max_retries=0)
    with pytest.raises(ValueError, match="needs base_url"):
        make_backend("openai", "name")
    with pytest.raises(ValueError, match="needs model=DIR"):
        make_backend("hf")
