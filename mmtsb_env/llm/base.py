"""The chat-backend protocol every model integration implements (agents, LLM user, LLM judge)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class BackendError(RuntimeError):
    """A model call failed for good (after retries): the episode is marked errored, not scored 0."""


@dataclass
class Completion:
    """One model reply.

    ``tool_calls`` are OpenAI-style dicts ``{"id", "name", "arguments": dict}`` (``arguments`` stays
    the model's string when it is not valid JSON, so the environment can report the error); token
    ids and logprobs are filled when the backend can return them (RL trainers need them):
    ``token_ids`` are the generated tokens (the end-of-turn token included when generated) and
    ``logprobs[i]`` is the log-probability of ``token_ids[i]``. ``raw_text`` is everything the
    model wrote, tool-call markup included, when the backend knows it.
    """

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    model: str = ""
    finish_reason: str = ""
    prompt_token_ids: list[int] | None = None
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    usage: dict[str, int] = field(default_factory=dict)
    raw_text: str = ""


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


def complete_n(backend: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *,
               n: int = 1, **sampling: Any) -> list[Completion]:
    """``n`` samples for one prompt: the backend's own ``complete_n`` when it has one, else ``n``
    calls to ``complete`` (with ``seed``, when given, advanced by one per sample).

    >>> [c.text for c in complete_n(RecordedBackend(["a", "b"]), [], n=2)]
    ['a', 'b']
    """
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    own = getattr(backend, "complete_n", None)
    if own is not None:
        return own(messages, tools, n=n, **sampling)
    out = []
    for i in range(n):
        extra = dict(sampling)
        if extra.get("seed") is not None:
            extra["seed"] = int(extra["seed"]) + i
        out.append(backend.complete(messages, tools, **extra))
    return out
