"""The chat-backend protocol every model integration implements (agents, LLM user, LLM judge)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class BackendError(RuntimeError):
    """A model call failed for good (after retries): the episode is marked errored, not scored 0."""


@dataclass
class Completion:
    """One model reply.

    ``tool_calls`` are OpenAI-style dicts ``{"id", "name", "arguments": dict}``; token ids and
    logprobs are filled when the backend can return them (RL trainers need them).
    """

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    model: str = ""
    finish_reason: str = ""
    prompt_token_ids: list[int] | None = None
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    usage: dict[str, int] = field(default_factory=dict)


@runtime_checkable
class ChatBackend(Protocol):
    """``complete(messages, tools=None, **sampling) -> Completion`` over OpenAI-format messages."""

    name: str

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **sampling: Any) -> Completion:
        ...


class RecordedBackend:
    """Replays fixed completions in order (tests, and offline reproduction of a run).

    >>> b = RecordedBackend(["hello", Completion(text="", tool_calls=[{"id": "1", "name": "x", "arguments": {}}])])
    >>> b.complete([]).text, b.complete([]).tool_calls[0]["name"]
    ('hello', 'x')
    """

    name = "recorded"

    def __init__(self, replies: list[str | Completion]) -> None:
        self.replies = [r if isinstance(r, Completion) else Completion(text=r, model="recorded") for r in replies]
        self.calls: list[dict[str, Any]] = []

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **sampling: Any) -> Completion:
        self.calls.append({"messages": messages, "tools": tools, "sampling": sampling})
        if not self.replies:
            raise BackendError("recorded backend has no replies left")
        return self.replies.pop(0)
