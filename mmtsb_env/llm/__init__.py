"""Chat backends: the protocol, and implementations for OpenAI-compatible servers, vLLM and transformers."""

from .base import BackendError, ChatBackend, Completion, RecordedBackend

__all__ = ["BackendError", "ChatBackend", "Completion", "RecordedBackend"]
