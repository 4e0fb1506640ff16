"""The caps on a tool call's arguments and the text checks behind them.

They are :mod:`mmtsb_env.limits`' (which re-exports them; its docstring tabulates every cap) and
live here because the sandbox worker applies them too: a call from agent code is refused in the
worker, before it is sent, so the host never reads or parses more than the caps allow.
"""

from __future__ import annotations

import re
from typing import Any

MAX_ARGUMENT_CHARS = 20_000
MAX_ARGUMENTS_CHARS = 100_000
MAX_ARGUMENT_VALUES = 10_000  # strings, numbers, lists and mappings in one call's arguments

_SURROGATE = re.compile("[\ud800-\udfff]")


def too_long(text: str, cap: int, what: str) -> str | None:
    """The error for ``what`` (``"an action"``...) when ``text`` is longer than ``cap``, else None."""
    if len(text) <= cap:
        return None
    return f"{what} of {len(text):,} characters is over the cap of {cap:,} characters; send it shorter (or in parts)"


def bad_unicode(text: str) -> str | None:
    """Where ``text`` stops being valid Unicode (a lone surrogate), or None when it is valid."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        m = _SURROGATE.search(text)
        pos = m.start() if m else 0
        return f"lone surrogate U+{ord(text[pos]):04X} at character {pos}"
    return None


def check_arguments(arguments: Any) -> str | None:
    """Why a tool call's arguments are refused (a string over the cap, too much text or too many
    values in all, invalid Unicode in a string or a key), or None. Walks any nesting once, without
    recursion; a structure that contains itself counts each value once."""
    stack = [arguments]
    seen: set[int] = set()
    values = total = 0
    while stack:
        value = stack.pop()
        values += 1
        if values > MAX_ARGUMENT_VALUES:
            return f"the arguments hold more than {MAX_ARGUMENT_VALUES:,} values (the cap); send fewer"
        if isinstance(value, str):
            problem = too_long(value, MAX_ARGUMENT_CHARS, "an argument string")
            if problem:
                return problem
            problem = bad_unicode(value)
            if problem:
                return f"an argument string is not valid Unicode ({problem}); send UTF-8 text"
            total += len(value)
            if total > MAX_ARGUMENTS_CHARS:
                return (f"the arguments hold more than {MAX_ARGUMENTS_CHARS:,} characters of text together "
                        "(the cap); send less")
        elif isinstance(value, (dict, list, tuple, set, frozenset)):
            if id(value) in seen:
                continue
            seen.add(id(value))
            if isinstance(value, dict):
                stack.extend(value.keys())
                stack.extend(value.values())
            else:
                stack.extend(value)
    return None
