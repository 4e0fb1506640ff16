"""VLMAgent: a vision-language model plays the assistant seat through any chat backend.

The agent reads ``info["messages"]`` (the assistant's OpenAI-format history with ``[image N]``
labels and image data URLs) and ``info["tools"]``, fits them into the model's context (system
prompt + latest turns; older images become text notes naming their ids), asks the backend, and
turns the reply into one action string: native tool calls become a JSON list of calls (our action
grammar); otherwise the text is read for tool calls (Hermes tags, JSON) and else sent as a message.

Registered agents (``make_agent(name, scenarios=..., mode=..., model=...)``):

- ``"hf"``: :class:`~mmtsb_env.llm.hf_backend.TransformersBackend` on ``model=DIR``;
- ``"vllm"``: ``model=URL`` -> an OpenAI-compatible ``vllm serve`` endpoint, ``model=PATH`` -> vLLM in-process;
- ``"openai"``: ``base_url=URL`` (and ``model=NAME``) -> any OpenAI-compatible server.

>>> from mmtsb_env.llm import RecordedBackend, Completion
>>> call = Completion(tool_calls=[{"id": "", "name": "get_wifi_status", "arguments": {}}])
>>> agent = VLMAgent(RecordedBackend([call, "All done."]))
>>> info = {"messages": [{"role": "system", "content": "rules"}, {"role": "user", "content": "Wifi?"}], "tools": []}
>>> agent.act(None, info)
'[{"name": "get_wifi_status", "arguments": {}}]'
>>> agent.act(None, info)
'All done.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..llm.base import Completion
from ..llm.context import trim_context
from ..llm.factory import make_backend
from ..llm.messages import count_images
from ..llm.toolcalls import calls_to_action, split_tool_calls
from .registry import register_agent

__all__ = ["AgentStep", "VLMAgent", "make_backend"]

TOOL_FORMATS = ("native", "compact", "none")
HISTORIES = ("env", "raw")

_NOTES = """
Working notes:
- Each picture is preceded by its label [image N]; use that number wherever a tool asks for an image_id.
- In a long conversation older pictures are replaced by a note such as "[image 2: shown earlier, not repeated to save context]"; the id stays valid for tools.
- When a request is complete, tell the user the result, including the exact values they asked for."""

_NATIVE = """
- Use the function-calling interface for tool calls (several calls in one reply are fine). A reply without a tool call goes to the user as your message."""

_COMPACT = """
- Call a tool by replying with a JSON list of calls, e.g. [{{"name": "tool_name", "arguments": {{"param": "value"}}}}]. A reply without a tool call goes to the user as your message.
Tools (name(parameter: type, optional?: type): what it does):
{tools}"""


def _compact_tools(tools: list[dict[str, Any]]) -> str:
    lines = []
    for schema in tools:
        fn = schema.get("function", schema)
        params = fn.get("parameters", {}) or {}
        required = set(params.get("required", []))
        args = ", ".join(f"{name}{'' if name in required else '?'}: {spec.get('type', 'any')}"
                         for name, spec in (params.get("properties") or {}).items())
        description = (fn.get("description") or "").strip().split("\n")[0]
        lines.append(f"- {fn['name']}({args}): {description}")
    return "\n".join(lines)


@dataclass
class AgentStep:
    """One model call of an episode: the exact prompt, the reply and the action sent."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    completion: Completion
    action: str
    info: dict[str, Any] = field(default_factory=dict)


class VLMAgent:
    """``act(obs, info) -> action string`` with a chat backend.

    Args:
        backend: any :class:`~mmtsb_env.llm.base.ChatBackend`.
        mode: ``"tool"`` or ``"code"`` (code mode offers no tools; the model writes python blocks).
        system_prompt: replaces the environment's system prompt (our working notes are not added).
        max_context_messages: history messages kept after the system prompt (older ones dropped
            with a note). max_images: images kept as pixels (older ones become text notes).
        tool_format: ``"native"`` passes ``info["tools"]`` to the backend (chat template /
            server tool parser); ``"compact"`` lists one line per tool in the system prompt and
            expects JSON calls in the text; ``"none"`` offers no tool list.
        sampling: per-call options for the backend (``temperature``, ``max_tokens``, ``seed``...;
            ``prefill``: text the reply must start with, e.g. ``"<tool_call>"`` to force a tool call).
        keep_history: keep every :class:`AgentStep` of the episode in ``self.history`` (RL loops).
        history: how the agent's own earlier turns appear in its prompt: ``"env"`` (default) as the
            environment recorded them (tool calls as ``tool_calls``), or ``"raw"`` as the model
            wrote them (its ``raw_text``, markup included). With ``"raw"``, an append-only chat
            template and a model whose sampled tokens re-tokenize to themselves, every prompt
            extends the previous prompt and completion, so the exported trajectory gets one
            token sequence with its loss mask and logprobs (``docs/export.md``); otherwise those
            columns stay null (the per-step ``token_steps`` are kept either way).
    """

    def __init__(self, backend: Any, mode: str = "tool", system_prompt: str | None = None, *,
                 max_context_messages: int | None = 40, max_images: int | None = 8, tool_format: str = "native",
                 sampling: dict[str, Any] | None = None, keep_history: bool = False, name: str | None = None,
                 history: str = "env") -> None:
        if mode not in ("tool", "code"):
            raise ValueError(f"mode must be 'tool' or 'code', got {mode!r}")
        if tool_format not in TOOL_FORMATS:
            raise ValueError(f"tool_format must be one of {TOOL_FORMATS}, got {tool_format!r}")
        if history not in HISTORIES:
            raise ValueError(f"history must be one of {HISTORIES}, got {history!r}")
        self.history_format = history
        self._raw: list[str] = []  # what the model wrote at each step of this episode
        self.backend = backend
        self.mode = mode
        self.system_prompt = system_prompt
        self.max_context_messages = max_context_messages
        self.max_images = max_images
        self.tool_format = tool_format
        self.sampling = dict(sampling or {})
        self.keep_history = keep_history
        self.name = name or f"vlm:{getattr(backend, 'name', type(backend).__name__)}"
        self.history: list[AgentStep] = []
        self._last: dict[str, Any] = {}

    def reset(self) -> None:
        self.history = []
        self._last = {}
        self._raw = []

    # ------------------------------------------------------------------ prompt
    def system_text(self, info: dict[str, Any]) -> str:
        messages = info.get("messages") or []
        if self.system_prompt is not None:
            text = self.system_prompt
        else:
            env_prompt = messages[0]["content"] if messages and messages[0].get("role") == "system" else ""
            text = f"{env_prompt}\n{_NOTES.strip()}" if env_prompt else _NOTES.strip()
            if self.mode == "tool" and self.tool_format == "native" and info.get("tools"):
                text += _NATIVE.rstrip()
        if self.mode == "tool" and self.tool_format == "compact" and info.get("tools"):
            text += _COMPACT.format(tools=_compact_tools(info["tools"])).rstrip()
        return text

    def tools_for(self, info: dict[str, Any]) -> list[dict[str, Any]] | None:
        if self.mode != "tool" or self.tool_format != "native":
            return None
        return list(info.get("tools") or []) or None

    def build_messages(self, info: dict[str, Any]) -> list[dict[str, Any]]:
        """The prompt sent to the model for this step (our system prompt + trimmed history)."""
        history = list(info.get("messages") or [])
        if history and history[0].get("role") == "system":
            history = history[1:]
        if self._raw and not any(m.get("role") == "assistant" for m in history):
            self._raw = []  # a new episode that began without reset()
        if self.history_format == "raw":
            history = self._own_words(history)
        messages = [{"role": "system", "content": self.system_text(info)}] + history
        return trim_context(messages, self.max_context_messages, self.max_images)

    def _own_words(self, history: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``history`` with each assistant turn replaced by what the model wrote for it (when they pair up)."""
        turns = [i for i, m in enumerate(history) if m.get("role") == "assistant"]
        if len(turns) != len(self._raw):
            return history
        out = list(history)
        for i, raw in zip(turns, self._raw):
            out[i] = {"role": "assistant", "content": raw}
        return out

    # ------------------------------------------------------------------ acting
    def to_action(self, completion: Completion) -> str:
        """Native tool calls -> JSON list; else tool calls read from the text; else the text itself."""
        if completion.tool_calls:
            return calls_to_action(completion.tool_calls)
        text = completion.text or completion.raw_text or ""
        _, calls = split_tool_calls(text)
        if calls:
            return calls_to_action(calls)
        return text

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        messages = self.build_messages(info)
        tools = self.tools_for(info)
        completion = self.backend.complete(messages, tools, **self.sampling)
        action = self.to_action(completion)
        self._raw.append(completion.raw_text or completion.text or "")
        self._last = {
            "prompt_token_ids": completion.prompt_token_ids,
            "token_ids": completion.token_ids,
            "logprobs": completion.logprobs,
            "usage": dict(completion.usage),
            "finish_reason": completion.finish_reason,
            "model": completion.model,
            "raw_text": completion.raw_text or completion.text,
            "action": action,
            "n_tool_calls": len(completion.tool_calls),
            "context_messages": len(messages),
            "context_images": count_images(messages),
        }
        if self.keep_history:
            self.history.append(AgentStep(messages, tools, completion, action, dict(self._last)))
        return action

    def last_step_info(self) -> dict[str, Any]:
        """Token ids, logprobs and usage of the last model call (kept per step by the runner)."""
        return dict(self._last)


# ---------------------------------------------------------------------- registry
_AGENT_KEYS = ("system_prompt", "max_context_messages", "max_images", "tool_format", "keep_history", "history")
_SAMPLING_KEYS = ("temperature", "top_p", "max_tokens", "max_new_tokens", "seed", "prefill")


def _factory(kind: str):
    def build(*, scenarios: Sequence[Any] = (), mode: str = "tool", seed: int = 0, model: str | None = None,
              base_url: str | None = None, **options: Any) -> VLMAgent:
        agent_kwargs = {k: options.pop(k) for k in _AGENT_KEYS if options.get(k) is not None}
        sampling = {k: options.pop(k) for k in _SAMPLING_KEYS if k in options}
        sampling = {k: v for k, v in sampling.items() if v is not None}
        if "max_new_tokens" in sampling:
            sampling["max_tokens"] = sampling.pop("max_new_tokens")
        sampling.setdefault("seed", seed)
        if options.pop("token_in", False):
            return _token_agent(kind, model, base_url, sampling, agent_kwargs, options)
        backend = make_backend(kind, model, base_url=base_url, **options)
        return VLMAgent(backend, mode=mode, sampling=sampling, name=kind, **agent_kwargs)

    build.__doc__ = f"Build a VLMAgent on the {kind!r} backend (see :func:`mmtsb_env.llm.factory.make_backend`)."
    return build


def _token_agent(kind: str, model: str | None, base_url: str | None, sampling: dict[str, Any],
                 agent_kwargs: dict[str, Any], options: dict[str, Any]) -> Any:
    """``token_in=True``: a :class:`~mmtsb_env.baselines.token_agent.TokenAgent` on the vLLM server."""
    from ..llm.factory import parse_spec
    from .token_agent import token_agent

    _, _, url = parse_spec(kind, model, base_url)
    if kind != "vllm" or not url:
        raise ValueError("token-in sampling needs a vLLM server: --agent vllm --model URL (or --base-url URL)")
    unused = sorted(set(agent_kwargs) | (set(sampling) - {"max_tokens", "temperature", "seed"}) | set(options) - {"processor", "concurrency"})
    if unused:
        raise ValueError(f"token-in sampling renders the env's messages with the model's template; "
                         f"not used with it: {', '.join(unused)}")
    return token_agent(url, processor=options.get("processor"), **sampling)


register_agent("hf")(_factory("hf"))
register_agent("vllm")(_factory("vllm"))
register_agent("openai")(_factory("openai"))
