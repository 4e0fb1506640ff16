"""vLLM in the same process (``vllm.LLM.chat``): batched generation with token ids and logprobs.

vLLM renders the chat template itself (images from data URLs, ``tools`` passed through); tool
calls are read from the generated text (Hermes tags or JSON). vLLM pins its own torch and
transformers: on CPU use the separate environment made by ``scripts/setup_vllm_env.sh``, and
guard scripts with ``if __name__ == "__main__":`` because vLLM starts worker processes.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from .base import BackendError, Completion
from .toolcalls import split_tool_calls


class VLLMBackend:
    """``complete(messages, tools=None, **sampling) -> Completion`` with ``vllm.LLM`` in-process.

    Args:
        model_path: model folder (or a name vLLM can resolve offline).
        dtype: ``"auto"``; use ``"float32"`` on CPU.
        max_model_len, enforce_eager, seed: passed to ``vllm.LLM``.
        max_images: images per prompt (``limit_mm_per_prompt``).
        max_tokens, temperature: default sampling.
        llm: an existing ``vllm.LLM`` to reuse; other keyword arguments go to ``vllm.LLM``.
    """

    name = "vllm"

    def __init__(self, model_path: str | Path, *, dtype: str = "auto", max_model_len: int | None = None,
                 enforce_eager: bool = False, max_images: int = 8, seed: int = 0, max_tokens: int = 256,
                 temperature: float = 0.0, llm: Any = None, **llm_kwargs: Any) -> None:
        self.model_path = str(model_path)
        self.defaults = {"max_tokens": max_tokens, "temperature": temperature}
        self._lock = threading.Lock()
        if llm is None:
            try:
                from vllm import LLM
            except ImportError as exc:
                raise BackendError("vllm is not installed in this environment (see scripts/setup_vllm_env.sh)") from exc
            kwargs: dict[str, Any] = {"model": self.model_path, "dtype": dtype, "enforce_eager": enforce_eager,
                                      "seed": seed, "limit_mm_per_prompt": {"image": max_images}, **llm_kwargs}
            if max_model_len is not None:
                kwargs["max_model_len"] = max_model_len
            try:
                llm = LLM(**kwargs)
            except Exception as exc:  # vLLM raises many kinds; the caller needs one
                raise BackendError(f"vLLM could not load {self.model_path}: {type(exc).__name__}: {exc}") from exc
        self.llm = llm
        self.model = Path(self.model_path).name  # the model's name (as every backend's .model)

    def _params(self, n: int, sampling: dict[str, Any]):
        from vllm import SamplingParams

        options = {**self.defaults, **sampling}
        if "max_new_tokens" in options:
            options["max_tokens"] = options.pop("max_new_tokens")
        for key in ("tool_choice", "logprobs", "prefill"):
            options.pop(key, None)
        return SamplingParams(n=n, logprobs=0, **{k: v for k, v in options.items() if v is not None})

    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **sampling: Any) -> Completion:
        return self.complete_batch([messages], tools, **sampling)[0]

    def complete_n(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *, n: int = 1,
                   **sampling: Any) -> list[Completion]:
        """``n`` samples of one prompt (vLLM's ``n``; temperature 1 unless given)."""
        sampling.setdefault("temperature", 1.0)
        return self.complete_batch([messages], tools, n=n, **sampling)

    def complete_batch(self, conversations: list[list[dict[str, Any]]], tools: list[dict[str, Any]] | None = None,
                       **sampling: Any) -> list[Completion]:
        """Completions for every conversation (``n`` each, in order), in one ``LLM.chat`` call."""
        n = int(sampling.pop("n", 1) or 1)
        prefill = sampling.pop("prefill", None) or ""
        params = self._params(n, sampling)
        if prefill:  # continue a partial assistant reply
            conversations = [[*conv, {"role": "assistant", "content": prefill}] for conv in conversations]
        with self._lock:
            try:
                outputs = self.llm.chat(conversations, params, use_tqdm=False, tools=tools or None,
                                        add_generation_prompt=not prefill, continue_final_message=bool(prefill))
            except Exception as exc:
                raise BackendError(f"vLLM chat failed: {type(exc).__name__}: {exc}") from exc
        result = []
        for request in outputs:
            prompt_ids = list(request.prompt_token_ids or [])
            for sample in request.outputs:
                ids = list(sample.token_ids)
                logprobs = None
                if sample.logprobs:
                    logprobs = [step[t].logprob for step, t in zip(sample.logprobs, ids)]
                text = prefill + sample.text
                prose, calls = split_tool_calls(text)
                result.append(Completion(
                    text=prose if calls else text.strip(), tool_calls=calls, model=self.model,
                    finish_reason=sample.finish_reason or "", prompt_token_ids=prompt_ids, token_ids=ids,
                    logprobs=logprobs, raw_text=text,
                    usage={"prompt_tokens": len(prompt_ids), "completion_tokens": len(ids),
                           "total_tokens": len(prompt_ids) + len(ids)},
                ))
        return result
