"""Special values a tool can return besides plain JSON data, and JSON rendering of results."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any


@dataclass(frozen=True)
class ImageResult:
    """A tool produced (or points at) an image in the episode's image store.

    The next observation of the calling seat carries the image itself.
    """

    image_id: int
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {"image_id": self.image_id}
        if self.description:
            out["description"] = self.description
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Delivery:
    """A message (with optional images) that a tool sends to the other seat."""

    text: str
    image_ids: tuple[int, ...] = ()
    to: str = "user"
    visible_to_sender: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"delivered_to": self.to, "message": self.text, "image_ids": list(self.image_ids)}


@dataclass(frozen=True)
class Discovery:
    """Tool docs found by the tool-search tool; the named tools join the active set."""

    names: tuple[str, ...]
    docs: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        return {"found": len(self.names), "tools": list(self.docs)}


@dataclass(frozen=True)
class EndConversation:
    """Returned by ``end_conversation``: the user closes the episode."""

    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"conversation_ended": True}


def _default(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return repr(value)


def to_jsonable(value: Any) -> Any:
    """Round-trip through JSON: a deep, detached copy made only of JSON types."""
    return json.loads(json.dumps(value, default=_default, ensure_ascii=False))


def encode_result(value: Any) -> tuple[Any, str]:
    """``(to_jsonable(value), render_result(value))`` with one JSON encoding."""
    text = json.dumps(value, default=_default, ensure_ascii=False)
    return json.loads(text), text


def render_result(value: Any) -> str:
    """JSON text of a tool result, as the agent sees it in an observation."""
    if value is None:
        return "null"
    return json.dumps(value, default=_default, ensure_ascii=False)
