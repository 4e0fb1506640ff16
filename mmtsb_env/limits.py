"""Size caps and text checks at the boundary where a policy's text enters the environment.

Every piece of text a seat can send is bounded before the environment works on it, so the host's
cost per step is bounded whatever the policy writes:

=========================  ==============  =====================================================
cap                        characters      what it bounds
=========================  ==============  =====================================================
``MAX_ACTION_CHARS``       100,000         one action of either seat (a tool call, code, a reply)
``MAX_REPLY_CHARS``        20,000          a message to the other seat
``MAX_ARGUMENT_CHARS``     20,000          one string in a tool call's arguments
``MAX_ARGUMENTS_CHARS``    100,000         all strings of one tool call's arguments together
``MAX_FIELD_CHARS``        20,000          one text written to the world (a note body, a label)
=========================  ==============  =====================================================

Tool calls are bounded in number, and what an episode keeps of their arguments in size:

==============================  ==========  ================================================
cap                             value       what it bounds
==============================  ==========  ================================================
``MAX_CODE_CALLS``              500         tool calls one code step may make
``MAX_EPISODE_CALLS``           5,000       tool calls of one episode (both seats)
``KEPT_CHARS``                  2,000       arguments kept of a failed call (JSON, cut)
``MAX_KEPT_ARGUMENT_CHARS``     5,000,000   arguments kept of all calls of an episode; past it
                                            every call's arguments are kept cut like a failed one
==============================  ==========  ================================================

Text must be valid Unicode: a lone surrogate (``"\\ud800"``, which JSON escapes and Python strings
can carry but UTF-8 cannot) is refused where it enters, so whatever an episode stores can be
written as UTF-8 (JSONL, Parquet, reports). :func:`scrub` replaces lone surrogates with U+FFFD for
text the environment itself must keep (the refused action in the transcript, code output).

>>> too_long("x" * 20_001, MAX_REPLY_CHARS, "a reply")
'a reply of 20,001 characters is over the cap of 20,000 characters; send it shorter (or in parts)'
>>> bad_unicode("ok \\ud800 then")
'lone surrogate U+D800 at character 3'
>>> scrub("a\\udfffb")
'a\\ufffdb'
"""

from __future__ import annotations

import json
from typing import Any

# The argument caps and text checks live with the sandbox, whose worker applies them too before it
# sends a call (the jailed worker can import nothing else of the package).
from .sandbox.arguments import (_SURROGATE, MAX_ARGUMENT_CHARS, MAX_ARGUMENT_VALUES, MAX_ARGUMENTS_CHARS,  # noqa: F401
                                bad_unicode, check_arguments, too_long)

MAX_ACTION_CHARS = 100_000
MAX_REPLY_CHARS = 20_000
MAX_FIELD_CHARS = 20_000
KEPT_CHARS = 2_000  # how much of a refused oversize action (or a failed call's arguments) is kept
MAX_CODE_CALLS = 500
MAX_EPISODE_CALLS = 5_000
MAX_KEPT_ARGUMENT_CHARS = 5_000_000



def scrub(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (valid text is returned as is)."""
    return text if bad_unicode(text) is None else _SURROGATE.sub("\ufffd", text)


def scrub_deep(value: Any) -> Any:
    """``value`` with :func:`scrub` applied to every string in it (dicts, lists, tuples); the same
    object when nothing needed replacing."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        new = {scrub_deep(k): scrub_deep(v) for k, v in value.items()}
        return value if all(a is b for a, b in zip(new.values(), value.values())) and list(new) == list(value) else new
    if isinstance(value, (list, tuple)):
        items = [scrub_deep(v) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else type(value)(items)
    return value


def json_line(data: Any) -> str:
    """``data`` as one line of JSON, non-ASCII text as is; text that is not valid Unicode is
    written as ``\\uXXXX`` escapes instead, so the line is valid UTF-8 and reads back the same."""
    line = json.dumps(data, default=str, ensure_ascii=False)
    return line if bad_unicode(line) is None else json.dumps(data, default=str)


def shortened(text: str, keep: int = KEPT_CHARS) -> str:
    """``text`` cut to ``keep`` characters with a note of how much was cut, and scrubbed."""
    if len(text) > keep:
        text = f"{text[:keep]}... [{len(text) - keep:,} more characters cut]"
    return scrub(text)


def kept_arguments(arguments: Any, ok: bool, budget: int) -> tuple[Any, int]:
    """What an episode keeps of a call's ``arguments`` and how many characters that is: the
    arguments themselves when the call succeeded and their JSON fits ``budget`` (characters
    left of :data:`MAX_KEPT_ARGUMENT_CHARS`), else ``{"shortened": <their JSON cut to
    KEPT_CHARS>}`` when the JSON is longer than that."""
    text = json_line(arguments)
    if (ok and len(text) <= budget) or len(text) <= KEPT_CHARS:
        return arguments, len(text)
    kept = {"shortened": shortened(text)}
    return kept, KEPT_CHARS


def check_field(value: Any, where: str) -> str | None:
    """Why a value written to the world at ``where`` (``"notes.body"``) is refused, or None: a text
    (or a text in a list) over :data:`MAX_FIELD_CHARS` or not valid Unicode."""
    texts = [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)] if isinstance(value, (list, tuple)) else []
    for text in texts:
        if len(text) > MAX_FIELD_CHARS:
            return (f"{where} would hold {len(text):,} characters, over the cap of {MAX_FIELD_CHARS:,} characters "
                    "for one written text; write less")
        problem = bad_unicode(text)
        if problem:
            return f"{where} would hold text that is not valid Unicode ({problem})"
    return None
