"""Episode messages through the chat templates that ship offline (TRL's copies of the models' own templates).

No hub access: the templates are the ``.jinja`` files installed with ``trl``. Llama 3.2 *Vision*'s
template is not among them; Llama 3.2's text template (same tool-call format) stands in for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import mmtsb_env
from mmtsb_env.llm.messages import template_ready, text_only

trl = pytest.importorskip("trl")
from transformers.utils.chat_template_utils import render_jinja_template  # noqa: E402

TEMPLATES = Path(trl.__file__).parent / "chat_templates"
IMAGE_MARK = {"qwen2_5_vl": "<|vision_start|>", "qwen3_vl": "<|vision_start|>", "idefics3": "<image>",
              "smolvlm": "<image>", "gemma3": "<start_of_image>"}


def render(name, messages, tools=None):
    text, _ = render_jinja_template(conversations=[messages], tools=tools, chat_template=(TEMPLATES / f"{name}.jinja").read_text(),
                                    add_generation_prompt=True, bos_token="<bos>")
    return text[0] if isinstance(text, list) else text


@pytest.mark.parametrize("name", ["qwen2_5_vl", "qwen3_vl", "idefics3", "smolvlm"])
def test_raw_wire_messages_break_stock_vision_templates(name, episode_messages):
    messages, _ = episode_messages
    with pytest.raises(Exception):  # content: null on the tool-call turn
        render(name, messages)


@pytest.mark.parametrize("name", ["qwen3_vl"])
def test_tool_aware_vision_template_renders_tools_calls_and_images(name, episode_messages):
    messages, tools = episode_messages
    text = render(name, template_ready(messages), tools)
    call = next(m for m in messages if m.get("tool_calls"))["tool_calls"][0]["function"]
    assert f'"name": "{call["name"]}"' in text and json.dumps(json.loads(call["arguments"]))[1:-1] in text
    assert tools[0]["function"]["name"] in text  # the schemas reach the prompt
    assert text.count(IMAGE_MARK[name]) == 2 and "None" not in text


@pytest.mark.parametrize("name", ["qwen2_5_vl", "idefics3", "smolvlm", "gemma3"])
def test_templates_without_tool_support_get_tool_calls_as_text(name, episode_messages):
    messages, _ = episode_messages
    ready = template_ready(messages, tool_format="text")
    text = render(name, ready)  # gemma3 also checks that roles alternate strictly
    call = next(m for m in messages if m.get("tool_calls"))["tool_calls"][0]["function"]
    assert f'"name": "{call["name"]}"' in text and "<tool_response>" in text
    assert text.count(IMAGE_MARK[name]) == 2 and "None" not in text
    roles = [m["role"] for m in ready if m["role"] != "system"]
    assert all(a != b for a, b in zip(roles, roles[1:]))


def test_llama_3_2_text_template_with_openai_tool_calls(episode_messages):
    messages, tools = episode_messages
    ready = template_ready(text_only(messages), content="string")
    assert all(isinstance(m["content"], str) for m in ready) and "tool_calls" not in ready[0]
    text = render("llama3_2", ready, tools)
    call = next(m for m in messages if m.get("tool_calls"))["tool_calls"][0]["function"]
    assert f'"name": "{call["name"]}"' in text and "<|start_header_id|>ipython<|end_header_id|>" in text
    with pytest.raises(ValueError, match="content='string' cannot carry image parts"):
        template_ready(messages, content="string")


def test_tool_schemas_are_valid_json_schema_without_openapi_nullable():
    schemas = mmtsb_env.list_tools("full")
    assert len(schemas) > 400
    nullable = 0
    for tool in schemas:
        params = tool["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(params)
        assert "nullable" not in json.dumps(params)
        nullable += sum("null" in json.dumps(p.get("type")) for p in params.get("properties", {}).values())
    assert nullable > 0  # optional-with-None parameters say so in JSON Schema's own words
    optional = next(t for t in schemas for p in t["function"]["parameters"].get("properties", {}).values()
                    if isinstance(p.get("type"), list) and "enum" in p)
    prop = next(p for p in optional["function"]["parameters"]["properties"].values() if isinstance(p.get("type"), list) and "enum" in p)
    jsonschema.validate(None, prop) if None in prop["enum"] else pytest.fail("enum must admit null too")
