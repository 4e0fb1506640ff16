"""SFT with TRL on :func:`mmtsb_env.export.to_sft` rows: tool schemas in the prompt, assistant-only loss.

TRL's ``SFTTrainer`` passes a row's ``tools`` to the chat template for text models, but its vision
collator does not, so a VLM would learn tool calls without ever seeing the schemas.
:class:`ToolsVisionCollator` is that collator plus the ``tools`` column (and
:func:`~mmtsb_env.llm.messages.template_ready` on each row, so stock templates render it).
"""

from __future__ import annotations

import json
from typing import Any

from trl import SFTConfig, SFTTrainer
from trl.data_utils import prepare_multimodal_messages
from trl.trainer.sft_trainer import DataCollatorForVisionLanguageModeling

from ...llm.messages import template_ready


def _tools(value: Any) -> list[dict[str, Any]] | None:
    tools = json.loads(value) if isinstance(value, str) else value
    return list(tools) if tools else None


class ToolsVisionCollator(DataCollatorForVisionLanguageModeling):
    """``DataCollatorForVisionLanguageModeling`` that renders each row's ``tools`` into the prompt.

    A chat template takes one tool list per call, so the rows of a batch must share their tool
    set (one scenario family, or ``per_device_train_batch_size=1``); a mixed batch raises.
    ``tool_format`` is applied through :func:`template_ready` (``"text"`` for templates without
    tool support).
    """

    def __init__(self, processor: Any, *, tool_format: str = "openai", **kwargs: Any) -> None:
        super().__init__(processor=processor, **kwargs)
        self.tool_format = tool_format

    def _collate_language_modeling(self, examples: list[dict[str, Any]]) -> dict[str, Any]:
        if "messages" not in examples[0]:
            return super()._collate_language_modeling(examples)
        keys = {json.dumps(_tools(e.get("tools")), sort_keys=True) for e in examples}
        if len(keys) > 1:
            raise ValueError(f"this batch mixes {len(keys)} different tool sets; a chat template renders one per call: "
                             "use per_device_train_batch_size=1 or batch rows of one scenario family together")
        tools = _tools(examples[0].get("tools"))
        images = [list(e.get("images") or []) for e in examples]
        messages = [prepare_multimodal_messages(template_ready(e["messages"], tool_format=self.tool_format), images=imgs)
                    for e, imgs in zip(examples, images)]
        kwargs = {"padding": True, "padding_side": "right", "pad_to_multiple_of": self.pad_to_multiple_of,
                  "truncation": self.max_length is not None, "max_length": self.max_length, "add_special_tokens": False}
        output = self.processor.apply_chat_template(
            messages, tools=tools, chat_template=self.chat_template, tokenize=True, return_dict=True,
            return_tensors=self.return_tensors, return_assistant_tokens_mask=self.assistant_only_loss,
            processor_kwargs=kwargs,
        )
        labels = output["input_ids"].clone()
        labels[output["attention_mask"] == 0] = -100
        if self.assistant_only_loss:
            labels[output.pop("assistant_masks") == 0] = -100
        output["labels"] = labels
        return output


def sft_trainer(model: Any, processor: Any, dataset: Any, args: SFTConfig | None = None, *,
                tool_format: str = "openai", **kwargs: Any) -> SFTTrainer:
    """An ``SFTTrainer`` for a vision model on ``to_sft`` rows, with :class:`ToolsVisionCollator`.

    ``args`` defaults to one that keeps the dataset's columns (the collator reads ``tools``); pass
    ``assistant_only_loss=True`` in it to train only on the assistant's tokens (the chat template
    needs ``{% generation %}`` markers, as the tiny models' template has).
    """
    args = args or SFTConfig(output_dir="sft-out", remove_unused_columns=False, max_length=None)
    if args.remove_unused_columns:
        raise ValueError("SFTConfig(remove_unused_columns=False) is required: the collator reads the 'tools' column")
    collator = ToolsVisionCollator(processor, tool_format=tool_format, max_length=args.max_length,
                                   assistant_only_loss=args.assistant_only_loss,
                                   pad_to_multiple_of=args.pad_to_multiple_of)
    return SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=processor,
                      data_collator=collator, **kwargs)
