"""Chat templates for the tiny offline models (our own wording): ChatML-style turns, Hermes-style tool calls.

The same Jinja text works in transformers (``apply_chat_template``) and in vLLM: it iterates over
``message['content']`` parts (OpenAI content format), writes one image placeholder per image part,
lists ``tools`` as JSON schemas in the system turn and writes assistant tool calls as
``<tool_call>{"name": .., "arguments": ..}</tool_call>``; tool results come back as a user turn
wrapped in ``<tool_response>``. Each assistant turn, its end-of-turn token included, sits between
``{% generation %}`` markers, so ``return_assistant_tokens_mask`` (TRL's ``assistant_only_loss``)
masks exactly the assistant's tokens.

>>> t = chat_template("<image>")
>>> "<tool_call>" in t and "<image>" in t
True
"""

from __future__ import annotations

IMAGE_PLACEHOLDERS = {
    "idefics3": "<image>",
    "qwen2_vl": "<|vision_start|><|image_pad|><|vision_end|>",
}

_TEMPLATE = r"""
{%- macro tools_block() -%}
{{- '\n\nYou can call these tools (JSON schemas):\n<tools>\n' -}}
{%- for tool in tools -%}{{- tool | tojson -}}{{- '\n' -}}{%- endfor -%}
{{- '</tools>\nTo call a tool, answer with <tool_call>{"name": "<tool name>", "arguments": {...}}</tool_call>.' -}}
{%- endmacro -%}
{%- macro assistant_body(message) -%}
{%- if message['content'] is string -%}{{- message['content'] -}}
{%- elif message['content'] -%}{%- for part in message['content'] -%}{%- if part['type'] == 'text' -%}{{- part['text'] -}}{%- endif -%}{%- endfor -%}
{%- endif -%}
{%- if message['tool_calls'] is defined and message['tool_calls'] -%}
{%- for call in message['tool_calls'] -%}
{%- if call['function'] is defined -%}{%- set fn = call['function'] -%}{%- else -%}{%- set fn = call -%}{%- endif -%}
{{- '<tool_call>{"name": "' + fn['name'] + '", "arguments": ' -}}
{%- if fn['arguments'] is string -%}{{- fn['arguments'] -}}{%- else -%}{{- fn['arguments'] | tojson -}}{%- endif -%}
{{- '}</tool_call>' -}}
{%- endfor -%}
{%- endif -%}
{{- '<|im_end|>' -}}
{%- endmacro -%}
{%- if tools and messages[0]['role'] != 'system' -%}
{{- '<|im_start|>system\nYou are a helpful assistant.' -}}{{- tools_block() -}}{{- '<|im_end|>\n' -}}
{%- endif -%}
{%- for message in messages -%}
{%- if message['role'] == 'tool' -%}
{{- '<|im_start|>user\n<tool_response>\n' -}}
{%- else -%}
{{- '<|im_start|>' + message['role'] + '\n' -}}
{%- endif -%}
{%- if message['role'] == 'assistant' -%}{%- generation -%}{{- assistant_body(message) -}}{%- endgeneration -%}{{- '\n' -}}
{%- else -%}
{%- if message['content'] is string -%}
{{- message['content'] -}}
{%- elif message['content'] -%}
{%- for part in message['content'] -%}
{%- if part['type'] == 'text' -%}{{- part['text'] -}}
{%- elif part['type'] == 'image' or part['type'] == 'image_url' -%}{{- '@@IMAGE@@' -}}
{%- endif -%}
{%- endfor -%}
{%- endif -%}
{%- if message['role'] == 'system' and loop.first and tools -%}{{- tools_block() -}}{%- endif -%}
{%- if message['role'] == 'tool' -%}{{- '\n</tool_response>' -}}{%- endif -%}
{{- '<|im_end|>\n' -}}
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\n' -}}{%- endif -%}
"""


def chat_template(image_placeholder: str) -> str:
    """The Jinja chat template with ``image_placeholder`` written for every image part."""
    return _TEMPLATE.strip().replace("@@IMAGE@@", image_placeholder)
