"""One episode in a processor's token ids, built from the env's messages: the trace and its transcript.

:class:`TokenTranscript` is the sequence :class:`~mmtsb_env.wrappers.TokenEnv` keeps and a
token-in agent keeps (:class:`~mmtsb_env.baselines.token_agent.TokenAgent`): the prompt rendered
once with the chat template, then per turn the model's ids verbatim (loss mask 1) and only what
the template adds after them (mask 0). Nothing is re-encoded; a template that re-renders earlier
turns differently raises a ``ValueError`` rather than silently misaligning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from .messages import split_images, template_ready


_PER_SAMPLE_NDIM = {"pixel_values": 5, "pixel_attention_mask": 4}  # (batch, images, ...) layouts (Idefics3)


def _merge_image_inputs(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Join two processor outputs' image tensors in image order (per-sample layouts on dim 1, flat ones on dim 0)."""
    import torch

    out = dict(old)
    for key, value in new.items():
        if key in ("input_ids", "attention_mask") or not hasattr(value, "ndim"):
            continue
        if key not in out:
            out[key] = value
        else:
            out[key] = torch.cat([out[key], value], dim=1 if value.ndim == _PER_SAMPLE_NDIM.get(key) else 0)
    return out


def _image_urls(messages: list[dict[str, Any]]) -> list[str]:
    """The image URLs of ``messages`` in order (the order :func:`split_images` reads them)."""
    urls = []
    for m in messages:
        for part in m.get("content") if isinstance(m.get("content"), list) else []:
            if isinstance(part, dict) and part.get("type") == "image_url":
                url = part["image_url"]
                urls.append(url["url"] if isinstance(url, dict) else url)
    return urls


@dataclass
class TokenTrace:
    """One episode in tokens: the prompt length, the ids, which were the model's, their logprobs, rewards."""

    prompt_length: int = 0
    token_ids: list[int] = field(default_factory=list)
    loss_mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    images: list[Any] = field(default_factory=list)
    image_urls: list[str] = field(default_factory=list)  # the images as the messages carried them (data URLs)
    # ``token_ids`` with each image's expansion as the template wrote it, before the processor expanded
    # it (what a server that expands images itself takes as a token prompt, with ``image_urls``)
    unexpanded_ids: list[int] = field(default_factory=list)

    @property
    def completion_ids(self) -> list[int]:
        return self.token_ids[self.prompt_length:]

    @property
    def completion_mask(self) -> list[int]:
        return self.loss_mask[self.prompt_length:]

    @property
    def completion_logprobs(self) -> list[float]:
        return self.logprobs[self.prompt_length:]


class TokenTranscript:
    """One episode in the token ids of ``processor``, built from the env's messages and never re-encoded.

    ``start(messages, tools)`` renders the first observation (the prompt); ``extend(action_ids,
    logprobs, messages, done=...)`` appends the model's ids verbatim (mask 1) and then only what
    the template adds after them for the messages that followed (mask 0). :class:`TokenEnv` keeps
    one per episode; so does an agent that samples through a server token in, token out
    (:class:`~mmtsb_env.baselines.token_agent.TokenAgent`), fed ``info["messages"]`` each turn.

    Args:
        processor: renders with its chat template and tokenizes; a processor also turns images
            into its image tokens and pixel tensors (``image_inputs``).
        tool_format: ``"openai"`` (the template renders ``tools`` and ``tool_calls``) or ``"text"``
            (see :func:`~mmtsb_env.llm.messages.template_ready`).
        end_of_turn: the text that closes an assistant turn (default: the tokenizer's EOS token).
    """

    def __init__(self, processor: Any, *, tool_format: str = "openai", end_of_turn: str | None = None) -> None:
        self.processor = processor
        self.tokenizer = getattr(processor, "tokenizer", processor)
        self.tool_format = tool_format
        self.end_of_turn = end_of_turn or self.tokenizer.eos_token
        self.trace = TokenTrace()
        self.image_inputs: dict[str, Any] = {}
        self._rendered = ""
        self._messages: list[dict[str, Any]] = []
        self._tools: list[dict[str, Any]] | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The conversation so far in the env's OpenAI wire format (what the trace renders)."""
        return list(self._messages)

    @property
    def tools(self) -> list[dict[str, Any]] | None:
        """The tool schemas the template is given (``None`` with ``tool_format="text"`` or no tools)."""
        return self._tools if self.tool_format == "openai" else None

    # ----------------------------------------------------------------- rendering
    def _render(self, messages: list[dict[str, Any]], generation: bool) -> str:
        ready = template_ready(messages, tool_format=self.tool_format)
        kwargs = {"tools": self._tools} if self.tool_format == "openai" and self._tools else {}
        return self.processor.apply_chat_template(ready, tokenize=False, add_generation_prompt=generation, **kwargs)

    def _encode(self, text: str, messages: list[dict[str, Any]]) -> tuple[list[int], list[int]]:
        """Ids of ``text`` (images of ``messages`` expanded; their pixel tensors join ``image_inputs``)
        and the same ids with the images as the template wrote them (unexpanded)."""
        _, images = split_images(messages)
        if not text:
            return [], []
        plain = list(self.tokenizer(text, add_special_tokens=False)["input_ids"])
        if images:
            out = self.processor(text=[text], images=[images], add_special_tokens=False, return_tensors="pt")
            self.image_inputs = _merge_image_inputs(self.image_inputs, dict(out))
            self.trace.images.extend(images)
            self.trace.image_urls.extend(_image_urls(messages))
            return [int(t) for t in out["input_ids"][0]], plain
        return plain, plain

    def _append(self, ids: Sequence[int], mask: int, logprobs: Sequence[float] | None = None,
                unexpanded: Sequence[int] | None = None) -> None:
        self.trace.token_ids.extend(int(t) for t in ids)
        self.trace.unexpanded_ids.extend(int(t) for t in (ids if unexpanded is None else unexpanded))
        self.trace.loss_mask.extend([mask] * len(ids))
        self.trace.logprobs.extend(list(logprobs) if logprobs is not None else [0.0] * len(ids))

    # ----------------------------------------------------------------- API
    def start(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> list[int]:
        """The prompt's ids: ``messages`` rendered with a generation prompt (``tools`` in the template)."""
        self.trace, self.image_inputs = TokenTrace(), {}
        self._tools = list(tools or []) or None
        self._messages = list(messages)
        self._rendered = self._render(self._messages, generation=True)
        ids, unexpanded = self._encode(self._rendered, self._messages)
        self._append(ids, 0, unexpanded=unexpanded)
        self.trace.prompt_length = len(ids)
        return ids

    def decode(self, action_ids: Sequence[int]) -> str:
        """The env's text action for the model's ids (special tokens dropped)."""
        return self.tokenizer.decode([int(t) for t in action_ids], skip_special_tokens=True)

    @staticmethod
    def checked(action_ids: Sequence[int], logprobs: Sequence[float] | None) -> list[int]:
        ids = [int(t) for t in action_ids]
        if logprobs is not None and len(logprobs) != len(ids):
            raise ValueError(f"{len(ids)} action ids but {len(logprobs)} logprobs")
        return ids

    def extend(self, action_ids: Sequence[int], logprobs: Sequence[float] | None, messages: list[dict[str, Any]], *,
               done: bool) -> list[int]:
        """Append the model's ``action_ids`` and what the template adds after them for ``messages``
        (the whole conversation after the action); returns the ids after the action. Without a
        generation prompt when ``done``."""
        action_ids = self.checked(action_ids, logprobs)
        self._append(action_ids, 1, logprobs)
        start = len(self.trace.token_ids)
        messages = list(messages)
        if messages[:len(self._messages)] != self._messages:
            raise ValueError("the env rewrote earlier messages; a token-level trace cannot follow it")
        new = messages[len(self._messages):]
        n_assistant = next((i for i, m in enumerate(new) if m["role"] != "assistant"), len(new))
        with_reply = self._render(messages[:len(self._messages) + n_assistant], generation=False)
        full = self._render(messages, generation=not done)
        if not with_reply.startswith(self._rendered) or not full.startswith(with_reply):
            raise ValueError("the chat template re-renders earlier turns differently (not append-only); "
                             "use a template that only appends, or flatten_tokens' per-step ids")
        reply = with_reply[len(self._rendered):]
        cut = reply.rfind(self.end_of_turn)
        closing = reply[cut + len(self.end_of_turn):] if cut >= 0 else ""
        eos_id = self.tokenizer.convert_tokens_to_ids(self.end_of_turn)
        if not action_ids or action_ids[-1] != eos_id:
            self._append([eos_id], 0)  # the model ran out of tokens: the env closes its turn
        self._append(*self._encode(closing, [])[:1], 0)
        ids, unexpanded = self._encode(full[len(with_reply):], new[n_assistant:])
        self._append(ids, 0, unexpanded=unexpanded)
        self._messages, self._rendered = messages, full
        return self.trace.token_ids[start:]
