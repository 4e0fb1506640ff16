"""Chat backends: the protocol, and implementations for OpenAI-compatible servers, vLLM and transformers.

The implementations import their heavy dependencies (``openai``, ``vllm``, ``torch``) only when
used, so ``import mmtsb_env.llm`` stays cheap:

- :class:`~mmtsb_env.llm.openai_backend.OpenAICompatibleBackend` -- a ``vllm serve`` endpoint (or any OpenAI-compatible server);
- :class:`~mmtsb_env.llm.vllm_backend.VLLMBackend` -- ``vllm.LLM`` in-process;
- :class:`~mmtsb_env.llm.hf_backend.TransformersBackend` -- ``AutoModelForImageTextToText`` locally;
- :func:`~mmtsb_env.llm.factory.make_backend` -- one of those from a spec such as ``hf:DIR`` or ``http://HOST:8000/v1``;
- :class:`~mmtsb_env.llm.vllm_server.VLLMServerGeneration` -- token-in-token-out sampling from a vLLM server
  (episodes as :class:`~mmtsb_env.llm.transcript.TokenTranscript` s) and its weight reloads;
- :mod:`mmtsb_env.llm.tiny` -- builds a tiny random-weight VLM offline for tests and demos.
"""

from __future__ import annotations

from typing import Any

from .base import BackendError, ChatBackend, Completion, RecordedBackend, complete_n

_LAZY = {
    "OpenAICompatibleBackend": "openai_backend",
    "VLLMBackend": "vllm_backend",
    "TransformersBackend": "hf_backend",
    "build_tiny_vlm": "tiny",
    "make_backend": "factory",
    "parse_spec": "factory",
}

__all__ = ["BackendError", "ChatBackend", "Completion", "RecordedBackend", "complete_n", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
