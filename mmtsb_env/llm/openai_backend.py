"""A chat backend for any OpenAI-compatible server, such as ``vllm serve`` (see docs/models.md).

Messages go out as they are (``image_url`` parts with data URLs, ``tool`` messages, assistant
``tool_calls``); ``tools`` with ``tool_choice="auto"``. From a vLLM server the reply also carries
the prompt and completion token ids (``return_token_ids``) and the sampled tokens' logprobs.
Tool calls come from the server's parser when it has one, else from the text (Hermes tags, JSON).

Calls are limited to ``max_concurrency`` at a time (a semaphore shared by threads), time out after
``timeout`` seconds, and are retried with exponential backoff on connection errors, timeouts,
429 and 5xx; what still fails raises :class:`~mmtsb_env.llm.base.BackendError`.
"""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .base import BackendError, Completion
from .toolcalls import openai_tool_calls, split_tool_calls

RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAICompatibleBackend:
    """``complete(messages, tools=None, **sampling) -> Completion`` over the ``openai`` client.

    Args:
        base_url: e.g. ``http://127.0.0.1:8000/v1`` (``/v1`` is added when missing).
        model: served model name; default: the server's first model.
        api_key: sent as a bearer token (vLLM ignores it unless started with ``--api-key``).
        timeout: seconds per request. max_retries: retries after the first attempt.
        backoff_s: first retry delay, doubled each time (with jitter) up to ``max_backoff_s``.
        max_concurrency: requests in flight at once across threads.
        sampling: default sampling options (``temperature``, ``max_tokens``, ``top_p``, ``seed``...;
            ``prefill``: the reply starts with this text, via vLLM's ``continue_final_message``).
        logprobs: ask for the sampled tokens' logprobs. return_token_ids: ask vLLM for token ids
            (turned off by itself if the server rejects the field).
        parse_text_tool_calls: read tool calls from the text when the server returned none.

    >>> backend = OpenAICompatibleBackend("http://127.0.0.1:9", model="m", max_retries=0, timeout=1)
    >>> backend.complete([{"role": "user", "content": "hi"}])
    Traceback (most recent call last):
    ...
    mmtsb_env.llm.base.BackendError: cannot reach the model server at http://127.0.0.1:9/v1 after 1 attempt(s): APIConnectionError: Connection error.
    """

    name = "openai"

    def __init__(self, base_url: str, model: str | None = None, *, api_key: str | None = None, timeout: float = 120.0,
                 max_retries: int = 3, backoff_s: float = 0.5, max_backoff_s: float = 8.0, max_concurrency: int = 8,
                 sampling: dict[str, Any] | None = None, logprobs: bool = True, return_token_ids: bool = True,
                 parse_text_tool_calls: bool = True, client: Any = None) -> None:
        base_url = base_url.rstrip("/")
        if not base_url.endswith("/v1"):
            base_url += "/v1"
        self.base_url = base_url
        self.model = model
        self.timeout = timeout
        self.max_retries = max(0, int(max_retries))
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.max_concurrency = max(1, int(max_concurrency))
        self.sampling = dict(sampling or {})
        self.logprobs = logprobs
        self.return_token_ids = return_token_ids
        self.parse_text_tool_calls = parse_text_tool_calls
        self._semaphore = threading.BoundedSemaphore(self.max_concurrency)
        self._rng = random.Random(0)
        if client is None:
            try:
                import openai
            except ImportError as exc:  # pragma: no cover - the [vllm] extra installs it
                raise BackendError("the openai package is needed: pip install 'mmtsb-env[vllm]'") from exc
            client = openai.OpenAI(base_url=base_url, api_key=api_key or "EMPTY", timeout=timeout, max_retries=0)
        self.client = client

    # ------------------------------------------------------------------ requests
    def _retryable(self, exc: Exception) -> bool:
        import openai

        if isinstance(exc, (openai.APIConnectionError, openai.APITimeoutError)):
            return True
        return isinstance(exc, openai.APIStatusError) and exc.status_code in RETRY_STATUS

    def _call(self, what: str, fn: Any) -> Any:
        import openai

        attempts = self.max_retries + 1
        last: Exception | None = None
        for attempt in range(attempts):
            if attempt:
                delay = min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1))
                time.sleep(delay * (0.5 + self._rng.random() / 2))
            try:
                with self._semaphore:
                    return fn()
            except openai.APIError as exc:
                last = exc
                if not self._retryable(exc):
                    status = getattr(exc, "status_code", None)
                    raise BackendError(f"{what} was refused by {self.base_url}"
                                       f"{f' (HTTP {status})' if status else ''}: {_message(exc)}") from exc
        assert last is not None
        if isinstance(last, openai.APIConnectionError):
            raise BackendError(f"cannot reach the model server at {self.base_url} after {attempts} attempt(s): "
                               f"{type(last).__name__}: {_message(last)}") from last
        raise BackendError(f"{what} failed at {self.base_url} after {attempts} attempt(s): "
                           f"{type(last).__name__}: {_message(last)}") from last

    def served_model(self) -> str:
        """The served model (asked from the server once when not given; then also ``self.model``)."""
        if self.model is None:
            models = self._call("listing models", lambda: self.client.models.list())
            data = list(getattr(models, "data", []) or [])
            if not data:
                raise BackendError(f"the server at {self.base_url} serves no model")
            self.model = data[0].id
        return self.model

    def _request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, n: int,
                 sampling: dict[str, Any]) -> dict[str, Any]:
        options = {**self.sampling, **sampling}
        if "max_new_tokens" in options:
            options["max_tokens"] = options.pop("max_new_tokens")
        tool_choice = options.pop("tool_choice", "auto")
        extra_body = dict(options.pop("extra_body", {}) or {})
        prefill = options.pop("prefill", None)
        if prefill:  # continue a partial assistant reply (vLLM's continue_final_message)
            messages = [*messages, {"role": "assistant", "content": prefill}]
            extra_body.update(continue_final_message=True, add_generation_prompt=False)
        request: dict[str, Any] = {"model": self.served_model(), "messages": messages, **options}
        if n > 1:
            request["n"] = n
        if tools:
            request["tools"] = tools
            request["tool_choice"] = tool_choice
        if self.logprobs and "logprobs" not in request:
            request["logprobs"] = True
        if self.return_token_ids:
            extra_body.setdefault("return_token_ids", True)
        if extra_body:
            request["extra_body"] = extra_body
        return request

    # ------------------------------------------------------------------ API
    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **sampling: Any) -> Completion:
        return self.complete_n(messages, tools, n=1, **sampling)[0]

    def complete_n(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *, n: int = 1,
                   **sampling: Any) -> list[Completion]:
        """``n`` choices for one prompt in one request (the server's ``n``)."""
        import openai

        request = self._request(messages, tools, n, sampling)
        try:
            response = self._call("the chat completion", lambda: self.client.chat.completions.create(**request))
        except BackendError as exc:
            cause = exc.__cause__
            if (self.return_token_ids and isinstance(cause, openai.BadRequestError)
                    and "return_token_ids" in _message(cause)):
                self.return_token_ids = False  # not a vLLM server: ask without the extra field
                return self.complete_n(messages, tools, n=n, **sampling)
            raise
        return self._completions(response, sampling.get("prefill") or self.sampling.get("prefill") or "")

    def complete_batch(self, conversations: list[list[dict[str, Any]]], tools: list[dict[str, Any]] | None = None,
                       **sampling: Any) -> list[Completion]:
        """One completion per conversation, ``max_concurrency`` requests at a time."""
        with ThreadPoolExecutor(max_workers=min(self.max_concurrency, max(1, len(conversations)))) as pool:
            return list(pool.map(lambda conv: self.complete(conv, tools, **sampling), conversations))

    def _completions(self, response: Any, prefill: str = "") -> list[Completion]:
        extra = getattr(response, "model_extra", None) or {}
        prompt_ids = extra.get("prompt_token_ids")
        usage = response.usage.model_dump() if getattr(response, "usage", None) is not None else {}
        usage = {k: v for k, v in usage.items() if isinstance(v, int)}
        out = []
        for choice in response.choices:
            message = choice.message
            text = prefill + (message.content or "")
            calls = openai_tool_calls(message.tool_calls)
            prose = text
            if not calls and self.parse_text_tool_calls:
                prose, calls = split_tool_calls(text)
            logprobs = None
            if choice.logprobs is not None and choice.logprobs.content is not None:
                logprobs = [t.logprob for t in choice.logprobs.content]
            choice_extra = getattr(choice, "model_extra", None) or {}
            token_ids = choice_extra.get("token_ids")
            out.append(Completion(
                text=prose if calls else text, tool_calls=calls, model=getattr(response, "model", "") or "",
                finish_reason=choice.finish_reason or "", prompt_token_ids=list(prompt_ids) if prompt_ids else None,
                token_ids=list(token_ids) if token_ids is not None else None, logprobs=logprobs, usage=dict(usage),
                raw_text=text,
            ))
        return out


def _message(exc: Exception) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error")
        detail = error.get("message") if isinstance(error, dict) else body.get("message")
        if detail:
            return str(detail)
    return str(getattr(exc, "message", None) or exc)
