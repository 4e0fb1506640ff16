"""Tool calls between model output and our action grammar.

Servers that parse tool calls return them as OpenAI ``tool_calls``; a local model writes them as
text (Hermes ``<tool_call>{...}</tool_call>`` tags, or bare JSON). Either way a backend reports
``{"id", "name", "arguments"}`` dicts, and an agent turns them into one action string.

>>> prose, calls = split_tool_calls('Checking. <tool_call>{"name": "get_battery", "arguments": {}}</tool_call>')
>>> prose, calls[0]["name"]
('Checking.', 'get_battery')
>>> calls_to_action(calls)
'[{"name": "get_battery", "arguments": {}}]'
>>> split_tool_calls("Hello there!")
('Hello there!', [])
"""

from __future__ import annotations

import json
from typing import Any

from ..episode.actions import ToolCalls, parse_action


def split_tool_calls(text: str) -> tuple[str, list[dict[str, Any]]]:
    """``(prose, calls)`` read from model text with our action grammar; malformed calls stay text."""
    parsed = parse_action(text or "", "tool")
    if not isinstance(parsed, ToolCalls):
        return (text or "").strip(), []
    calls = [{"id": c.id, "name": c.name, "arguments": dict(c.arguments)} for c in parsed.calls]
    return parsed.text, calls


def openai_tool_calls(tool_calls: Any) -> list[dict[str, Any]]:
    """Convert OpenAI ``message.tool_calls`` (objects or dicts) to ``{"id", "name", "arguments"}``."""
    out = []
    for call in tool_calls or []:
        data = call.model_dump() if hasattr(call, "model_dump") else dict(call)
        fn = data.get("function") or data
        arguments: Any = fn.get("arguments")
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError:
                pass  # keep the string: the environment reports it as malformed
        out.append({"id": data.get("id") or "", "name": fn.get("name") or "", "arguments": arguments if arguments is not None else {}})
    return out


def calls_to_action(calls: list[dict[str, Any]]) -> str:
    """A JSON list of ``{"name", "arguments"}`` (our action grammar); server call ids are kept."""
    items = []
    for call in calls:
        item: dict[str, Any] = {"name": call["name"], "arguments": call.get("arguments", {})}
        if call.get("id"):
            item["id"] = call["id"]
        items.append(item)
    return json.dumps(items, ensure_ascii=False)
