"""The message log of an episode and its rendering for each seat (text and OpenAI chat format)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

ASSISTANT, USER, ENVIRONMENT, SYSTEM = "assistant", "user", "environment", "system"


@dataclass
class Entry:
    """One message of the episode.

    ``kind`` is one of: ``message`` (seat to seat), ``tool_calls`` (a seat asks the environment),
    ``tool_result``, ``code`` (a python block), ``code_result``, ``invalid`` (an action that could not
    be read, as written), ``error`` (what was wrong with it), ``notice``.
    """

    index: int
    sender: str
    recipient: str
    kind: str
    content: str = ""
    image_ids: tuple[int, ...] = ()
    tool_calls: tuple[dict[str, Any], ...] = ()  # {"id", "name", "arguments"}
    tool_call_id: str = ""
    tool_name: str = ""
    ok: bool = True
    round_index: int | None = None
    visible_to: tuple[str, ...] = ()

    def visible(self, seat: str) -> bool:
        return seat in (self.visible_to or (self.sender, self.recipient))

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index, "sender": self.sender, "recipient": self.recipient, "kind": self.kind,
            "content": self.content, "image_ids": list(self.image_ids),
            "tool_calls": [dict(c) for c in self.tool_calls], "tool_call_id": self.tool_call_id,
            "tool_name": self.tool_name, "ok": self.ok, "round_index": self.round_index,
            "visible_to": list(self.visible_to or (self.sender, self.recipient)),
        }


def image_labels(ids: tuple[int, ...] | list[int]) -> str:
    return " ".join(f"[image {i}]" for i in ids)


def entry_text(entry: Entry, seat: str) -> str:
    """How an entry reads in a seat's text observation."""
    images = f" {image_labels(entry.image_ids)}" if entry.image_ids else ""
    if entry.kind == "message":
        who = "User" if entry.sender == USER else "Assistant"
        return f"{who}: {entry.content}{images}"
    if entry.kind == "tool_result":
        status = "result" if entry.ok else "error"
        return f"Tool {status} [{entry.tool_name} {entry.tool_call_id}]: {entry.content}{images}"
    if entry.kind == "code_result":
        return f"Execution result:\n{entry.content}{images}"
    if entry.kind == "error":
        return f"Environment error: {entry.content}"
    if entry.kind == "notice":
        return f"Notice: {entry.content}{images}"
    if entry.kind == "tool_calls":
        calls = "; ".join(f"{c['name']}({json.dumps(c['arguments'], ensure_ascii=False)})" for c in entry.tool_calls)
        return f"(you called {calls})"
    if entry.kind == "code":
        return entry.content
    return entry.content


class ChatTranscript:
    """Incrementally built OpenAI-format chat history for one seat.

    Images become ``image_url`` parts with data URLs (encoded once per image by ``image_url``).
    The seat's own turns are ``assistant`` messages; everything it receives is ``user`` or
    ``tool`` messages, so the same builder serves either seat.
    """

    def __init__(self, seat: str, system_prompt: str, image_url: Callable[[int], str]) -> None:
        self.seat = seat
        self.image_url = image_url
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}]

    def _content(self, text: str, image_ids: tuple[int, ...]) -> Any:
        if not image_ids:
            return text
        parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for i in image_ids:
            parts.append({"type": "text", "text": f"[image {i}]"})
            parts.append({"type": "image_url", "image_url": {"url": self.image_url(i)}})
        return parts

    def add(self, entry: Entry) -> None:
        if not entry.visible(self.seat):
            return
        own = entry.sender == self.seat
        if own and entry.kind == "tool_calls":
            self.messages.append({
                "role": "assistant",
                "content": entry.content or None,
                "tool_calls": [
                    {"id": c["id"], "type": "function",
                     "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)}}
                    for c in entry.tool_calls
                ],
            })
        elif own and entry.kind in ("message", "code", "invalid"):
            self.messages.append({"role": "assistant", "content": entry.content})
        elif own:
            return
        elif entry.kind == "tool_result" and entry.tool_call_id:
            self.messages.append({"role": "tool", "tool_call_id": entry.tool_call_id, "name": entry.tool_name, "content": entry.content})
            if entry.image_ids:  # tool messages cannot carry images: show them right after
                self.messages.append({"role": "user", "content": self._content(f"Images returned by {entry.tool_name}:", entry.image_ids)})
        else:
            text = entry.content if entry.kind == "message" else entry_text(entry, self.seat)
            self.messages.append({"role": "user", "content": self._content(text, entry.image_ids)})
