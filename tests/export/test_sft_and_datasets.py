"""Loading with `datasets` and converting to TRL's vision SFT format (messages + images)."""

import json

import datasets
import pytest
from PIL import Image

from mmtsb_env.episode.actions import ToolCalls, parse_action
from mmtsb_env.export import read_table, to_sft


def test_load_dataset_parquet_decodes_images(demo_records, demo_parquet):
    ds = datasets.load_dataset("parquet", data_files=str(demo_parquet), split="train")
    assert ds.num_rows == 24
    assert isinstance(ds.features["images"], datasets.List) and isinstance(ds.features["images"].feature, datasets.Image)
    row = ds[0]
    assert row["seat"] == "assistant" and row["scenario_id"] == demo_records[0].scenario_id
    assert all(isinstance(im, Image.Image) for im in row["images"]) and len(row["images"]) == len(row["image_ids"])
    assert row["messages"][1]["content"][0] == {"type": "text", "text": demo_records[0].messages[1]["content"][0]["text"], "image_id": None}


def _check_trl_vision_format(ds, with_tools=True):
    feats = ds.features
    assert set(feats["messages"].feature) >= {"role", "content"}
    assert set(feats["messages"].feature["content"].feature) == {"type", "text"}
    assert isinstance(feats["images"].feature, datasets.Image)
    for row in ds:
        n_parts = 0
        for m in row["messages"]:
            assert m["role"] in ("system", "user", "assistant", "tool")
            for p in m["content"]:
                assert p["type"] in ("text", "image")
                if p["type"] == "image":
                    assert p["text"] is None
                    n_parts += 1
                else:
                    assert isinstance(p["text"], str)
        assert n_parts == len(row["images"]) and all(isinstance(im, Image.Image) for im in row["images"])
        roles = [m["role"] for m in row["messages"]]
        assert roles[0] == "system" and "assistant" in roles
        assert ("tool" in roles) == with_tools


def test_to_sft_openai_tool_format(demo_records, demo_parquet):
    ds = to_sft(demo_parquet)
    assert ds.num_rows == 12 and ds.column_names == ["messages", "images", "tools", "episode_id", "scenario_id", "seat", "seat_return", "passed"]
    _check_trl_vision_format(ds)
    row = ds[0]
    call_msg = next(m for m in row["messages"] if m["tool_calls"])
    call = call_msg["tool_calls"][0]
    assert call["type"] == "function" and json.loads(call["function"]["arguments"]) == demo_records[0].calls[1]["arguments"]
    reply = next(m for m in row["messages"] if m["role"] == "tool")
    assert reply["tool_call_id"] == call["id"] and reply["name"] == call["function"]["name"]
    first_image = row["images"][0]
    assert first_image.size == (528, 662) and first_image.mode == "RGB"


def test_to_sft_text_tool_format_round_trips_through_the_action_parser(demo_parquet):
    ds = to_sft(demo_parquet, tool_format="text", keep_columns=(), tools=False)
    assert ds.column_names == ["messages", "images"] and set(ds.features["messages"].feature) == {"role", "content"}
    _check_trl_vision_format(ds, with_tools=False)
    table = read_table(demo_parquet)
    for row, original in zip(ds, table.to_pylist()[::2]):
        calls = [c for m in original["messages"] for c in (m["tool_calls"] or [])]
        texts = [m["content"][0]["text"] for m in row["messages"] if m["role"] == "assistant" and "<tool_call>" in m["content"][0]["text"]]
        parsed = [c for t in texts for c in parse_action(t).calls]
        assert all(isinstance(parse_action(t), ToolCalls) for t in texts)
        assert [(c.name, c.arguments) for c in parsed] == [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls]
        responses = [m for m in row["messages"] if m["content"] and (m["content"][0]["text"] or "").startswith("<tool_response>")]
        assert len(responses) == len(calls) and all(m["role"] == "user" for m in responses)


def test_to_sft_sources_and_filters(demo_records, demo_parquet):
    from_records = to_sft(demo_records)
    from_path = to_sft(demo_parquet)
    from_table = to_sft(read_table(demo_parquet))
    from_dataset = to_sft(datasets.load_dataset("parquet", data_files=str(demo_parquet), split="train"))
    for other in (from_path, from_table, from_dataset):
        assert other["messages"] == from_records["messages"]
        assert [[im.tobytes() for im in r] for r in other["images"]] == [[im.tobytes() for im in r] for r in from_records["images"]]
    users = to_sft(demo_parquet, seats=("user",), keep_system=False)
    assert users.num_rows == 12 and users[0]["messages"][0]["role"] == "assistant"  # the user speaks first
    assert to_sft(demo_parquet, only_trainable=True, seats=("assistant", "user")).num_rows == 12
    demo_records[0].passed = False
    try:
        assert to_sft(demo_records, only_passed=True).num_rows == 11
    finally:
        demo_records[0].passed = True
    assert to_sft(demo_parquet, min_return=2.5).num_rows == 0 and to_sft(demo_parquet, min_return=2.0).num_rows == 12
    with pytest.raises(ValueError, match="tool_format must be one of"):
        to_sft(demo_parquet, tool_format="xml")
    with pytest.raises(ValueError, match=r"keep_columns not in the table: \['nope'\]"):
        to_sft(demo_parquet, keep_columns=["nope"])


def test_to_sft_tools_column_and_no_empty_content(demo_records, demo_parquet):
    ds = to_sft(demo_parquet)
    table = read_table(demo_parquet).to_pylist()[::2]
    for row, original in zip(ds, table):
        tools = json.loads(row["tools"])
        assert tools == json.loads(original["tools"]) and tools and all(t["type"] == "function" for t in tools)
        for m in row["messages"]:
            assert m["content"], m  # a tool-call turn carries one empty text part, never []
        call_turn = next(m for m in row["messages"] if m["tool_calls"])
        if not any(p["text"] for p in call_turn["content"]):
            assert call_turn["content"] == [{"type": "text", "text": ""}]
    text = to_sft(demo_parquet, tool_format="text")
    for row in text:
        roles = [m["role"] for m in row["messages"]]
        assert all(a != b for a, b in zip(roles, roles[1:])), roles  # merged runs: roles alternate
