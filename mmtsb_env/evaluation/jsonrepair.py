"""Read the JSON object a model meant to write, repairing the usual damage.

Handled: code fences and prose around the object, trailing commas, single-quoted strings (with
apostrophes inside), Python literals (True/False/None), smart quotes, raw newlines and unescaped
quotes inside strings, missing commas between members, and missing closing braces/brackets.

>>> parse_json_object('```json\\n{"a": 1,}\\n```')
{'a': 1}
>>> parse_json_object("Sure! {'ok': True, 'why': 'the user's note'")
{'ok': True, 'why': "the user's note"}
>>> parse_json_object('{"a": [1, 2}')
{'a': [1, 2]}
"""

from __future__ import annotations

import json
import re
from typing import Any

# Matched in place (``pattern.match(src, i)``): slicing ``src[i:]`` per token would copy the rest each time.
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.DOTALL)
_LITERALS = {"True": "true", "False": "false", "None": "null", "true": "true", "false": "false", "null": "null"}
_OPEN_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


class JSONRepairError(ValueError):
    """The text holds no JSON object that could be recovered."""


def _candidates(text: str) -> list[str]:
    out = [m.group(1) for m in _FENCE.finditer(text) if "{" in m.group(1)]
    if "```" in text and not out:  # an unterminated fence
        out.append(text.split("```", 1)[1].split("\n", 1)[-1])
    out.append(text)
    return out


def _next_significant(text: str, i: int) -> tuple[str, bool]:
    """The next non-space character after position ``i`` and whether a newline was skipped."""
    newline = False
    while i < len(text) and text[i].isspace():
        newline = newline or text[i] == "\n"
        i += 1
    return (text[i] if i < len(text) else ""), newline


def repair(text: str) -> str:
    """Rewrite the first JSON-ish object of ``text`` as strict JSON text (may still be invalid)."""
    start = text.find("{")
    if start < 0:
        raise JSONRepairError("no '{' found: the reply holds no JSON object")
    src = text[start:]
    out: list[str] = []
    stack: list[str] = []
    quote = ""  # closing character of the string being read ("" when outside strings)
    last = ""  # last significant character emitted outside strings
    i = 0

    def need_comma() -> None:
        if stack and last and (last in '"}]' or last.isalnum()) and out and out[-1].strip() not in (",", ":"):
            out.append(",")

    while i < len(src):
        ch = src[i]
        if quote:
            if ch == "\\" and i + 1 < len(src):
                nxt = src[i + 1]
                out.append("'" if nxt == "'" else ch + nxt)
                i += 2
                continue
            if ch == quote or (quote == '"' and ch == "\u201d"):
                sig, newline = _next_significant(src, i + 1)
                if sig in ",:}]" or newline or sig == "":
                    out.append('"')
                    quote = ""
                    last = '"'
                    i += 1
                    continue
                out.append('\\"' if ch == '"' else ch)  # a quote inside the text
            elif ch == '"':
                out.append('\\"')
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\t":
                out.append("\\t")
            else:
                out.append(ch)
            i += 1
            continue
        if ch in _OPEN_QUOTES:
            need_comma()
            quote = _OPEN_QUOTES[ch]
            out.append('"')
            i += 1
            continue
        if ch in "{[":
            need_comma()
            stack.append("}" if ch == "{" else "]")
            out.append(ch)
            last = ch
        elif ch in "}]":
            while out and out[-1].strip() in ("", ","):
                out.pop()
            if stack:
                # close whatever is open up to the matching bracket
                while stack and stack[-1] != ch:
                    out.append(stack.pop())
                if stack:
                    out.append(stack.pop())
            last = ch
            if not stack:
                break
        elif ch == ",":
            if last not in ",{[":
                out.append(",")
            last = ","
        elif ch == ":":
            out.append(":")
            last = ":"
        elif ch.isalpha() or ch == "_":
            m = _WORD.match(src, i)
            word = m.group(0) if m else ch
            need_comma()
            if word in _LITERALS:
                out.append(_LITERALS[word])
            else:  # a bare key or word: quote it
                out.append(json.dumps(word))
            last = "e" if word in _LITERALS else '"'
            i += len(word)
            continue
        elif ch.isdigit() or ch in "-+.":
            m = _NUMBER.match(src, i)
            if m:
                need_comma()
                num = m.group(0).lstrip("+")
                if num.startswith("."):
                    num = "0" + num
                if num.endswith("."):
                    num += "0"
                out.append(num)
                last = "0"
                i += len(m.group(0))
                continue
        elif not ch.isspace():
            pass  # stray character outside strings: drop it
        else:
            out.append(ch)
        i += 1
    if quote:
        out.append('"')
    while out and out[-1].strip() in ("", ",", ":"):
        if out[-1].strip() == ":":
            out.append("null")
            break
        out.pop()
    out.extend(reversed(stack))
    return "".join(out)


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in ``text``; raises :class:`JSONRepairError` if none can be recovered."""
    if not isinstance(text, str) or not text.strip():
        raise JSONRepairError("the reply is empty")
    errors = []
    for cand in _candidates(text.strip()):
        start = cand.find("{")
        if start < 0:
            continue
        try:
            value, _ = json.JSONDecoder().raw_decode(cand[start:])
            if isinstance(value, dict):
                return value
        except json.JSONDecodeError as exc:
            errors.append(str(exc))
        try:
            value = json.loads(repair(cand))
            if isinstance(value, dict):
                return value
        except (json.JSONDecodeError, JSONRepairError) as exc:
            errors.append(str(exc))
    raise JSONRepairError("could not read a JSON object from the reply" + (f" ({errors[-1]})" if errors else ""))
