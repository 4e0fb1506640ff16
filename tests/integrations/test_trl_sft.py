"""TRL SFTTrainer on exported trajectories: a tiny VLM, tools in the prompt, assistant-only loss, real steps."""

from __future__ import annotations

import json

import pytest
import torch

pytest.importorskip("trl")
from trl import SFTConfig  # noqa: E402

from mmtsb_env.export import to_sft  # noqa: E402
from mmtsb_env.integrations.trl import ToolsVisionCollator, sft_trainer  # noqa: E402


def test_collator_puts_tools_in_the_prompt_and_masks_all_but_the_assistant(tiny_vlm, sft_records):
    _, _, processor = tiny_vlm
    ds = to_sft(sft_records)
    row = max(ds, key=lambda r: len(r["images"]))  # compare_receipts: two receipts
    batch = ToolsVisionCollator(processor, assistant_only_loss=True)([row])
    ids, labels = batch["input_ids"][0], batch["labels"][0]
    text = processor.tokenizer.decode(ids)
    tools = json.loads(row["tools"])
    assert all(t["function"]["name"] in text for t in tools)  # every offered schema is in the prompt
    trained = processor.tokenizer.decode(ids[labels != -100])
    assistant = [m for m in row["messages"] if m["role"] == "assistant"]
    expected = ""
    for m in assistant:
        expected += "".join(p["text"] for p in m["content"])
        for c in m["tool_calls"] or []:
            expected += '<tool_call>{"name": "%s", "arguments": %s}</tool_call>' % (
                c["function"]["name"], json.dumps(json.loads(c["function"]["arguments"]), ensure_ascii=False))
        expected += "<|im_end|>"
    assert trained == expected  # exactly the assistant's turns, end-of-turn tokens included
    assert batch["pixel_values"].shape[1] == len(row["images"]) == 2
    with pytest.raises(ValueError, match="this batch mixes 2 different tool sets"):
        ToolsVisionCollator(processor)([row, {**row, "tools": "[]"}])


def _used_tools(row):
    called = {c["function"]["name"] for m in row["messages"] for c in m["tool_calls"] or []}
    tools = json.loads(row["tools"])
    return [t for t in tools if t["function"]["name"] in called] + [t for t in tools if t["function"]["name"] not in called][:2]


def test_sft_trainer_takes_real_optimizer_steps_with_assistant_only_loss(tiny_vlm, sft_records, tmp_path):
    _, model, processor = tiny_vlm
    # keep the schemas of the tools each row calls (plus two others): short prompts keep the test fast
    ds = to_sft(sft_records).map(lambda row: {"tools": json.dumps(_used_tools(row))})
    assert all(0 < len(json.loads(r["tools"])) < 10 for r in ds)
    args = SFTConfig(output_dir=str(tmp_path), max_steps=2, per_device_train_batch_size=1, learning_rate=1e-3,
                     assistant_only_loss=True, remove_unused_columns=False, gradient_checkpointing=False, max_length=None,
                     logging_steps=1, save_strategy="no", report_to=[], use_cpu=True, bf16=False)
    before = {k: v.detach().clone() for k, v in model.named_parameters() if "lm_head" in k}
    trainer = sft_trainer(model, processor, ds, args)
    result = trainer.train()
    assert result.global_step == 2
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(torch.isfinite(torch.tensor(losses)))
    assert any(not torch.equal(before[k], v) for k, v in model.named_parameters() if k in before)
    with pytest.raises(ValueError, match="remove_unused_columns=False"):
        sft_trainer(model, processor, ds, SFTConfig(output_dir=str(tmp_path), report_to=[], use_cpu=True, bf16=False))
