"""Parse a seat's action string into tool calls, code, a message, or a clear error.

The grammar, tried in this order:

1. empty text -> error;
2. ``<tool_call>{json}</tool_call>`` tags (Hermes style, one or more);
3. a JSON tool call ``{"name": .., "arguments": {..}}``, a JSON list of them, or an OpenAI-style
   ``{"tool_calls": [{"function": {"name": .., "arguments": "<json>"}}]}`` -- bare or in a
   ```` ```json ```` fence;
4. in code mode, the first ```` ```python ```` fenced block -> code;
5. anything else -> a message to the other seat.

Text that starts like JSON or a tool-call tag but cannot be read is an error, not a message, so
a malformed call never reaches the user by accident. Parsing never raises and is linear in the
input: JSON nested deeper than ``MAX_JSON_DEPTH`` or with numbers longer than ``MAX_JSON_DIGITS``
is refused with an error saying so (tags and code fences are found without backtracking regexes).

>>> parse_action('{"name": "get_wifi_status", "arguments": {}}').calls[0].name
'get_wifi_status'
>>> parse_action('<tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>').calls[0].arguments
{'x': 1}
>>> parse_action("Done! Your note is saved.").text
'Done! Your note is saved.'
>>> parse_action('{"name": "a", "arguments": ').error.split(":")[0]
'Malformed JSON tool call'
>>> parse_action("```python\\nx = 1\\n```", mode="code").code
'x = 1\\n'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Union

MAX_CALLS_PER_ACTION = 16
MAX_JSON_DEPTH = 64  # nesting of a tool call's JSON (deeper input is refused, never recursed into)
MAX_JSON_DIGITS = 1000  # digits of one JSON number

_OPEN_TAG, _CLOSE_TAG = "<tool_call>", "</tool_call>"
_JSON_FENCE = re.compile(r"^```(?:json)?\s*\n(.*?)\n?```\s*$", re.DOTALL)
_PY_OPEN = re.compile(r"```(?:python|py)[ \t]*\n")


class _JSONError(ValueError):
    """JSON text that cannot be read (or is too big or too deep to accept)."""


def _number(text: str) -> Any:
    if len(text) > MAX_JSON_DIGITS:
        raise _JSONError(f"a number with {len(text):,} characters (at most {MAX_JSON_DIGITS:,})")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _too_deep(text: str) -> bool:
    """Whether JSON text nests brackets deeper than MAX_JSON_DEPTH (strings skipped; linear)."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:  # cannot nest deeper than it has brackets (C speed)
        return False
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _load_json(text: str) -> Any:
    """``json.loads`` that never raises anything but :class:`_JSONError` (message = the reason)."""
    if _too_deep(text):
        raise _JSONError(f"nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_number, parse_float=_number)
    except _JSONError:
        raise
    except json.JSONDecodeError as exc:
        raise _JSONError(f"{exc.msg} at char {exc.pos}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise _JSONError(f"unreadable JSON ({type(exc).__name__})") from None


def _tool_call_tags(text: str) -> tuple[list[str], str] | None:
    """Bodies of ``<tool_call>...</tool_call>`` tags and the prose around them (linear scan);
    None when there is no complete tag."""
    bodies: list[str] = []
    prose: list[str] = []
    pos = 0
    while True:
        start = text.find(_OPEN_TAG, pos)
        if start < 0:
            break
        end = text.find(_CLOSE_TAG, start + len(_OPEN_TAG))
        if end < 0:
            break
        bodies.append(text[start + len(_OPEN_TAG):end].strip())
        prose.append(text[pos:start])
        pos = end + len(_CLOSE_TAG)
    if not bodies:
        return None
    prose.append(text[pos:])
    return bodies, "".join(prose).strip()


def _python_block(text: str) -> str | None:
    opener = _PY_OPEN.search(text)
    if opener is None:
        return None
    end = text.find("```", opener.end())
    return None if end < 0 else text[opener.end():end]


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    id: str = ""


@dataclass(frozen=True)
class ToolCalls:
    calls: tuple[ToolCall, ...]
    text: str = ""  # any prose around the calls


@dataclass(frozen=True)
class Code:
    code: str
    text: str = ""  # the whole action, prose included


@dataclass(frozen=True)
class Message:
    text: str
    image_ids: tuple[int, ...] = field(default=())


@dataclass(frozen=True)
class Invalid:
    error: str
    raw: str = ""


Action = Union[ToolCalls, Code, Message, Invalid]

_HINT = (
    'Write a tool call as {"name": "<tool>", "arguments": {...}} (or a JSON list of such calls, or '
    "<tool_call>{...}</tool_call>); any other text is sent to the user as a message."
)


def _one_call(obj: Any, where: str) -> ToolCall:
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be a JSON object, got {type(obj).__name__}")
    if "function" in obj and isinstance(obj["function"], dict):  # OpenAI tool_call entry
        call_id = obj.get("id") or ""
        obj = obj["function"]
    else:
        call_id = obj.get("id") or ""
    name = obj.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f'{where} needs a "name" string')
    args = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):
        text = args.strip()
        if not text:
            args = {}
        else:
            try:
                args = _load_json(text)
            except _JSONError as exc:
                raise ValueError(f'{where}: "arguments" is a string that is not valid JSON ({exc})') from None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ValueError(f'{where}: "arguments" must be a JSON object, got {type(args).__name__}')
    extra = set(obj) - {"name", "arguments", "parameters", "id", "type"}
    if extra:
        raise ValueError(f"{where} has unexpected field(s) {sorted(extra)}; only name and arguments are read")
    return ToolCall(name=name.strip(), arguments=args, id=str(call_id))


def _calls_from_json(obj: Any) -> list[ToolCall]:
    if isinstance(obj, dict) and "tool_calls" in obj:
        entries = obj["tool_calls"]
        if not isinstance(entries, list) or not entries:
            raise ValueError('"tool_calls" must be a non-empty list')
        return [_one_call(e, f"tool_calls[{i}]") for i, e in enumerate(entries)]
    if isinstance(obj, list):
        if not obj:
            raise ValueError("empty list of tool calls")
        return [_one_call(e, f"call {i}") for i, e in enumerate(obj)]
    return [_one_call(obj, "the tool call")]


def _finish(calls: list[ToolCall], text: str = "") -> Action:
    if len(calls) > MAX_CALLS_PER_ACTION:
        return Invalid(f"too many tool calls in one action ({len(calls)}; at most {MAX_CALLS_PER_ACTION})")
    return ToolCalls(tuple(calls), text)


def parse_action(action: Any, mode: str = "tool") -> Action:
    """Parse one action string. ``mode`` is ``"tool"`` or ``"code"``."""
    if not isinstance(action, str):
        return Invalid(f"an action must be a string, got {type(action).__name__}. {_HINT}")
    text = action.strip()
    if not text:
        return Invalid(f"empty action. {_HINT}")

    tagged = _tool_call_tags(text)
    if tagged or text.startswith(_OPEN_TAG):
        if not tagged:
            return Invalid(f"unclosed <tool_call> tag. {_HINT}", action)
        bodies, prose = tagged
        if len(bodies) > MAX_CALLS_PER_ACTION:
            return Invalid(f"too many tool calls in one action ({len(bodies)}; at most {MAX_CALLS_PER_ACTION})")
        calls: list[ToolCall] = []
        for i, body in enumerate(bodies):
            try:
                calls.extend(_calls_from_json(_load_json(body)))
            except _JSONError as exc:
                return Invalid(f"Malformed JSON tool call: in <tool_call> #{i + 1}: {exc}. {_HINT}", action)
            except ValueError as exc:
                return Invalid(f"Invalid tool call: {exc}. {_HINT}", action)
        return _finish(calls, prose)

    fence = _JSON_FENCE.match(text)
    candidate = fence.group(1).strip() if fence else text
    if candidate[:1] in "{[":
        try:
            obj = _load_json(candidate)
        except _JSONError as exc:
            if candidate[:1] == "[" and not fence and mode == "tool" and not candidate.lstrip("[ \n").startswith("{"):
                return Message(text)  # prose that merely starts with a bracket
            return Invalid(f"Malformed JSON tool call: {exc}. {_HINT}", action)
        try:
            return _finish(_calls_from_json(obj))
        except ValueError as exc:
            return Invalid(f"Invalid tool call: {exc}. {_HINT}", action)

    if mode == "code":
        block = _python_block(text)
        if block is not None:
            return Code(block, text)
        if "```python" in text or "```py" in text:
            return Invalid("unclosed ```python block: end the code with a line of three backticks", action)
    return Message(text)
