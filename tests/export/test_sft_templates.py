"""SFT data that is right or refused: `to_sft` fitted to each shipped chat template, and runs without images.

The templates are TRL's offline copies of the models' own (``trl/chat_templates/``). Each test
renders the dataset rows exactly as stored -- what TRL hands to ``apply_chat_template`` -- with
the row's ``tools`` (what ``ToolsVisionCollator`` passes), and looks for every call, result and
schema in the text.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from mmtsb_env.export import episode_rows, to_sft
from mmtsb_env.export.schema import episode_schema
from mmtsb_env.export.sft import template_fit

trl = pytest.importorskip("trl")
pa = pytest.importorskip("pyarrow")
from transformers.utils.chat_template_utils import render_jinja_template  # noqa: E402

TEMPLATES = Path(trl.__file__).parent / "chat_templates"
VISION = {"qwen2_5_vl": "<|vision_start|>", "qwen3_vl": "<|vision_start|>", "smolvlm": "<image>",
          "idefics3": "<image>", "gemma3": "<start_of_image>"}


def _template(name):
    return (TEMPLATES / f"{name}.jinja").read_text()


def _render(template, row):
    text, _ = render_jinja_template(conversations=[row["messages"]], tools=json.loads(row["tools"]),
                                    chat_template=template, bos_token="<bos>", eos_token="<eos>")
    return text[0] if isinstance(text, list) else text


def _calls_and_results(table):
    """(name, arguments) of every call and the text of every tool result, from the exported messages."""
    calls, results = [], []
    for row in table.to_pylist():
        for m in row["messages"]:
            calls += [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in m["tool_calls"] or []]
            if m["role"] == "tool":
                results.append("".join(p["text"] or "" for p in m["content"] if p["type"] == "text"))
    return calls, results


def _table(records, missing_images="error"):
    rows = [r for rec in records for r in episode_rows(rec, seats=("assistant",), missing_images=missing_images)]
    return pa.Table.from_pylist(rows, schema=episode_schema())


def _assert_everything_rendered(template, ds, table):
    calls, results = _calls_and_results(table)
    assert calls and results
    text = "\n".join(_render(template, row) for row in ds)
    for name, arguments in calls:
        assert f'"{name}"' in text
        assert json.dumps(arguments, ensure_ascii=False)[1:-1] in text, (name, arguments)
    for result in results:
        assert result in text
    for row in ds:
        rendered = _render(template, row)
        for tool in json.loads(row["tools"]):
            description = tool["function"]["description"]  # raw, or escaped inside a JSON dump
            assert tool["function"]["name"] in rendered, tool["function"]["name"]
            assert description in rendered or json.dumps(description, ensure_ascii=False)[1:-1] in rendered
    return text


@pytest.mark.parametrize("name", sorted(VISION))
def test_auto_fit_renders_every_call_result_schema_and_image(name, demo_records):
    table = _table(demo_records)
    ds = to_sft(table, tool_format="auto", chat_template=_template(name))
    text = _assert_everything_rendered(_template(name), ds, table)
    assert "'type': 'text'" not in text  # no list of parts printed as Python
    assert text.count(VISION[name]) == sum(len(row["images"]) for row in ds) > 0


def test_llama_3_2_text_template_gets_string_rows_and_its_own_tools_block(demo_records):
    """Llama 3.2's (text) template: string contents, schemas through its own ``tools`` block.

    Its vision template is not available offline; a run without stored images is what a text
    model trains on (placeholders kept with ``missing_images="drop"``)."""
    template = _template("llama3_2")
    assert template_fit(template) == {"tool_format": "text", "content": "string", "schemas": "tools"}
    with pytest.raises(ValueError, match=r"renders text only but the row has \d+ image\(s\)"):
        to_sft(_table(demo_records), tool_format="auto", chat_template=template)
    stripped = [dataclasses.replace(r, images=[]) for r in demo_records]
    table = _table(stripped, missing_images="drop")
    ds = to_sft(table, tool_format="auto", chat_template=template, missing_images="drop")
    _assert_everything_rendered(template, ds, table)


def test_fits_of_the_shipped_templates():
    fits = {name: template_fit(_template(name)) for name in VISION}
    assert fits["qwen3_vl"] == {"tool_format": "openai", "content": "parts", "schemas": "tools"}
    for name in ("qwen2_5_vl", "smolvlm", "idefics3", "gemma3"):  # these ignore tool turns and tools=
        assert fits[name] == {"tool_format": "text", "content": "parts", "schemas": "system"}, name
    with pytest.raises(ValueError, match="needs chat_template="):
        to_sft([], tool_format="auto")
    with pytest.raises(ValueError, match="renders neither tool-call turns nor <tool_call> text"):
        template_fit("{% for m in messages %}{{ m['role'] }}{% endfor %}")


def test_the_default_openai_format_loses_calls_on_templates_without_tool_support(demo_records):
    """Why the fit matters: what the old default produced on Qwen2.5-VL."""
    table = _table(demo_records)
    ds = to_sft(table, tool_format="openai")
    calls, results = _calls_and_results(table)
    text = "\n".join(_render(_template("qwen2_5_vl"), row) for row in ds)
    assert not any(json.dumps(a)[1:-1] in text for _, a in calls if a)


# ------------------------------------------------------------------ runs that stored no images
def test_sft_from_a_run_without_images_re_renders_the_scenario_images(demo_records):
    captured = to_sft(_table(demo_records))
    stripped = [dataclasses.replace(r, images=[]) for r in demo_records]
    table = _table(stripped, missing_images="drop")  # what `mmtsb eval --out` without --images writes
    assert sum(len(i) for i in table.column("images").to_pylist()) == 0
    ds = to_sft(table)
    assert ds["messages"] == captured["messages"]
    assert [[i.tobytes() for i in row] for row in ds["images"]] == [[i.tobytes() for i in row] for row in captured["images"]]
    assert sum(len(row) for row in ds["images"]) > 0
    with pytest.raises(ValueError, match=r"image\(s\) were not stored by the run; pass missing_images='restore'"):
        to_sft(table, missing_images="error")
    kept = to_sft(table, missing_images="drop")
    assert sum(len(row) for row in kept["images"]) == 0


def test_an_image_that_is_not_a_scenario_image_is_refused_in_one_line(demo_records):
    table = _table([dataclasses.replace(demo_records[0], images=[])], missing_images="drop").to_pylist()
    for m in table[0]["messages"]:
        for p in m["content"]:
            if p["type"] == "text" and p["text"] == "[image 1 not stored]":
                p["text"] = "[image 7 not stored]"  # as if a tool had made image 7 mid-episode
    with pytest.raises(ValueError, match=r"image 7 was not stored and is not a scenario image, so it cannot be re-rendered"):
        to_sft(pa.Table.from_pylist(table, schema=episode_schema()))
