"""Fit a long episode into a model's context: system prompt + latest turns, older images as text.

:func:`trim_context` keeps the leading system message, then the latest ``max_messages`` messages
(never starting on a ``tool`` result whose call was dropped), with a note saying how many were
left out; of the images still present only the latest ``max_images`` stay pixels, each older one
becomes a text placeholder naming its ``[image N]`` id so the model can still refer to it.

>>> msgs = [{"role": "system", "content": "rules"}] + [{"role": "user", "content": f"m{i}"} for i in range(6)]
>>> [m["content"] for m in trim_context(msgs, max_messages=2)]
['rules', '(4 earlier messages are not shown.)', 'm4', 'm5']
"""

from __future__ import annotations

import re
from typing import Any

from .messages import is_image_part

_LABEL = re.compile(r"\[image (\d+)\]\s*$")


def _collapse(parts: list[dict[str, Any]]) -> Any:
    if all(p.get("type") == "text" for p in parts):
        return " ".join(p["text"] for p in parts if p.get("text"))
    return parts


def drop_old_images(messages: list[dict[str, Any]], max_images: int) -> list[dict[str, Any]]:
    """Keep the last ``max_images`` image parts; earlier ones become ``(image N: shown earlier, not repeated)``."""
    total = sum(1 for m in messages if isinstance(m.get("content"), list) for p in m["content"] if is_image_part(p))
    to_drop = max(0, total - max(0, max_images))
    if not to_drop:
        return [dict(m) for m in messages]
    out = []
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list) or not to_drop:
            out.append(dict(message))
            continue
        parts: list[dict[str, Any]] = []
        for part in content:
            if is_image_part(part) and to_drop:
                to_drop -= 1
                label = _LABEL.search(parts[-1]["text"]) if parts and parts[-1].get("type") == "text" else None
                name = f"image {label.group(1)}" if label else "an image"
                if label:
                    parts.pop()
                parts.append({"type": "text", "text": f"[{name}: shown earlier, not repeated to save context]"})
            else:
                parts.append(part)
        out.append({**message, "content": _collapse(parts)})
    return out


def trim_context(messages: list[dict[str, Any]], max_messages: int | None = None,
                 max_images: int | None = None) -> list[dict[str, Any]]:
    """The system message + the latest ``max_messages`` messages, at most ``max_images`` images."""
    if not messages:
        return []
    head = [dict(messages[0])] if messages[0].get("role") == "system" else []
    body = messages[len(head):]
    dropped = 0
    if max_messages is not None and len(body) > max_messages:
        start = len(body) - max(1, max_messages)
        while start < len(body) - 1 and body[start].get("role") == "tool":
            start += 1  # a tool result without its call confuses templates and servers
        dropped = start
        body = body[start:]
    out = head + ([{"role": "user", "content": f"({dropped} earlier messages are not shown.)"}] if dropped else []) + body
    if max_images is not None:
        out = drop_old_images(out, max_images)
    return [dict(m) for m in out]
