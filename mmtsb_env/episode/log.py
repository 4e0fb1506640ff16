"""The message log of an episode and its rendering for each seat (text and OpenAI chat format)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

ASSISTANT, USER, ENVIRONMENT, SYSTEM = "assistant", "user", "environment", "system"

# json.dumps(value, ensure_ascii=False) without building an encoder per call (the same output)
_dumps = json.JSONEncoder(ensure_ascii=False).encode


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
        calls = "; ".join(f"{c['name']}({_dumps(c['arguments'])})" for c in entry.tool_calls)
        return f"(you called {calls})"
    if entry.kind == "code":
        return entry.content
    return entry.content


class ChatTranscript:
    """Incrementally built OpenAI-format chat history for one seat.

    The seat's own turns are ``assistant`` messages; everything it receives is ``user`` or
    ``tool`` messages, so the same builder serves either seat. Images are ``image_url`` parts
    whose data URLs are made (by ``image_url``, once per image) only when :attr:`messages` is
    read; :meth:`messages_with_image_ids` gives the same history with ``{"type": "image",
    "image_id": N}`` parts instead and never encodes anything.
    """

    def __init__(self, seat: str, system_prompt: str, image_url: Callable[[int], str]) -> None:
        self.seat = seat
        self.image_url = image_url
        self._messages: list[dict[str, Any]] = [{"role": "system", "content": system_prompt}]
        self._with_ids: list[dict[str, Any]] = [dict(self._messages[0])]  # the same history, image ids for URLs
        self._image_parts: list[tuple[dict[str, Any], int]] = []  # (image_url part, image id), in order
        self._filled = 0  # image parts whose URL is set

    def __len__(self) -> int:
        """Number of messages (nothing is encoded)."""
        return len(self._messages)

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The history with data URLs (the list is the transcript's own: do not modify it)."""
        while self._filled < len(self._image_parts):
            part, image_id = self._image_parts[self._filled]
            part["image_url"]["url"] = self.image_url(image_id)
            self._filled += 1
        return self._messages

    def messages_with_image_ids(self) -> list[dict[str, Any]]:
        """The history whose image parts are ``{"type": "image", "image_id": N}`` (built as
        entries arrive, so this costs one list copy; do not modify the messages)."""
        return list(self._with_ids)

    def _content(self, text: str, image_ids: tuple[int, ...]) -> tuple[Any, Any]:
        """The content of a message in both forms: with image_url parts, and with image ids."""
        if not image_ids:
            return text, text
        parts: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        with_ids: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for i in image_ids:
            part = {"type": "image_url", "image_url": {"url": ""}}
            self._image_parts.append((part, i))
            parts.extend(({"type": "text", "text": f"[image {i}]"}, part))
            with_ids.extend(({"type": "text", "text": f"[image {i}]"}, {"type": "image", "image_id": i}))
        return parts, with_ids

    def _push(self, message: dict[str, Any], with_ids: Any = None) -> None:
        self._messages.append(message)
        copy = dict(message)
        if with_ids is not None:
            copy["content"] = with_ids
        self._with_ids.append(copy)

    def add(self, entry: Entry) -> None:
        if not entry.visible(self.seat):
            return
        own = entry.sender == self.seat
        if own and entry.kind == "tool_calls":
            self._push({
                "role": "assistant",
                "content": entry.content or None,
                "tool_calls": [
                    {"id": c["id"], "type": "function",
                     "function": {"name": c["name"], "arguments": _dumps(c["arguments"])}}
                    for c in entry.tool_calls
                ],
            })
        elif own and entry.kind in ("message", "code", "invalid"):
            self._push({"role": "assistant", "content": entry.content})
        elif own:
            return
        elif entry.kind == "tool_result" and entry.tool_call_id:
            self._push({"role": "tool", "tool_call_id": entry.tool_call_id, "name": entry.tool_name, "content": entry.content})
            if entry.image_ids:  # tool messages cannot carry images: show them right after
                parts, with_ids = self._content(f"Images returned by {entry.tool_name}:", entry.image_ids)
                self._push({"role": "user", "content": parts}, with_ids)
        else:
            text = entry.content if entry.kind == "message" else entry_text(entry, self.seat)
            parts, with_ids = self._content(text, entry.image_ids)
            self._push({"role": "user", "content": parts}, with_ids)
