"""Build a chat backend from a short spec (CLI options, agent factories, the LLM user and judge).

Specs:

- ``hf:DIR`` or a bare folder path -> :class:`~mmtsb_env.llm.hf_backend.TransformersBackend`;
- ``vllm:DIR`` -> :class:`~mmtsb_env.llm.vllm_backend.VLLMBackend` (in-process);
- ``vllm:URL``, ``openai:URL``, or a bare ``http(s)://`` URL -> :class:`~mmtsb_env.llm.openai_backend.OpenAICompatibleBackend`;
  append ``#NAME`` to pick the served model (default: the server's first);
- a bare kind (``hf``, ``vllm``, ``openai``) with ``model=`` / ``base_url=`` given apart.

Backends are cached per (kind, target, options), so all episodes of a run share one loaded model.

>>> parse_spec("hf:/models/tiny")
('hf', '/models/tiny', None)
>>> parse_spec("vllm:http://127.0.0.1:8000/v1#qwen")
('openai', 'qwen', 'http://127.0.0.1:8000/v1')
>>> parse_spec("http://127.0.0.1:8000/v1")
('openai', None, 'http://127.0.0.1:8000/v1')
"""

from __future__ import annotations

import json
import threading
from typing import Any

KINDS = ("hf", "vllm", "openai")
_CACHE: dict[tuple[Any, ...], Any] = {}
_LOCK = threading.Lock()


def _is_url(text: str | None) -> bool:
    return bool(text) and str(text).startswith(("http://", "https://"))


def parse_spec(spec: str, model: str | None = None, base_url: str | None = None) -> tuple[str, str | None, str | None]:
    """``(kind, model, base_url)`` of a spec; ``kind`` is ``hf``, ``vllm`` (in-process) or ``openai`` (server)."""
    kind, target = spec, None
    head, sep, rest = spec.partition(":")
    if sep and head in KINDS:
        kind, target = head, rest
    elif spec not in KINDS:
        kind, target = ("openai", spec) if _is_url(spec) else ("hf", spec)
    if target:
        if _is_url(target):
            url, _, name = target.partition("#")
            base_url, model = url, name or model
        else:
            model = target
    if kind == "vllm" and _is_url(model):
        base_url, model = model, None
    if kind == "vllm" and base_url:
        kind = "openai"
    if kind == "openai" and _is_url(model):
        base_url, model = model, None
    return kind, model, base_url


def make_backend(spec: str, model: str | None = None, *, base_url: str | None = None, **options: Any) -> Any:
    """A cached chat backend for ``spec`` (see the module docstring); ``options`` go to its constructor.

    ``concurrency`` is accepted as ``max_concurrency`` (server backends; ignored by local ones),
    ``served_model`` names the served model of a URL.
    """
    kind, model, base_url = parse_spec(spec, model, base_url)
    options = {k: v for k, v in options.items() if v is not None}
    if "concurrency" in options:
        options["max_concurrency"] = options.pop("concurrency")
    if "served_model" in options:
        model = options.pop("served_model") or model
    if kind in ("hf", "vllm"):
        options.pop("max_concurrency", None)  # a local model serves one call at a time
    key = (kind, model, base_url, json.dumps(options, sort_keys=True, default=str))
    with _LOCK:
        backend = _CACHE.get(key)
        if backend is not None:
            return backend
        if kind == "hf":
            if not model:
                raise ValueError("the hf backend needs model=DIR (a saved transformers VLM)")
            from .hf_backend import TransformersBackend

            backend = TransformersBackend(model, **options)
        elif kind == "vllm":
            if not model:
                raise ValueError("the vllm backend needs model=PATH (in-process) or model=URL (a vllm serve endpoint)")
            from .vllm_backend import VLLMBackend

            backend = VLLMBackend(model, **options)
        elif kind == "openai":
            if not base_url:
                raise ValueError("the openai backend needs base_url=URL (e.g. http://127.0.0.1:8000/v1)")
            from .openai_backend import OpenAICompatibleBackend

            backend = OpenAICompatibleBackend(base_url, model, **options)
        else:  # pragma: no cover - parse_spec only returns known kinds
            raise ValueError(f"unknown backend kind {kind!r}")
        _CACHE[key] = backend
        return backend
