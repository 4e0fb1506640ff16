"""A transformers chat backend for vision-language models (``AutoModelForImageTextToText``).

Prompts are rendered with the model's own chat template (tools passed through), image parts are
decoded from data URLs to PIL and given to the processor, and generation returns the prompt and
completion token ids with per-token log-probabilities. :meth:`TransformersBackend.score`
recomputes those log-probabilities with gradients, which is what a policy-gradient step needs.
Tool calls are read from the generated text (Hermes ``<tool_call>`` tags or JSON).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from .base import BackendError, Completion
from .messages import split_images, template_ready
from .toolcalls import split_tool_calls

_SAMPLING_KEYS = {"temperature", "top_p", "top_k", "max_tokens", "max_new_tokens", "seed", "n", "stop",
                  "logprobs", "tool_choice", "repetition_penalty", "prefill"}


class TransformersBackend:
    """``complete(messages, tools=None, **sampling) -> Completion`` with a local transformers VLM.

    Args:
        model_path: a folder with a saved model + processor (e.g. from :mod:`mmtsb_env.llm.tiny`).
        device: ``"cpu"`` (default), ``"cuda"``, or ``"auto"`` (``device_map="auto"``).
        dtype: torch dtype name; default float32 on CPU, bfloat16 elsewhere.
        max_new_tokens: default completion length; ``temperature`` 0 (default) is greedy decoding.
        seed: seeds sampling when a call gives no ``seed``.
        hf_model, processor: already loaded objects to use instead of loading from ``model_path``.

    Attributes: ``model`` is the model's name (the folder name), as in every backend;
    ``hf_model`` is the ``torch.nn.Module`` (train it in RL loops), ``processor``, ``tokenizer``.

    Sampling options per call: ``temperature``, ``top_p``, ``top_k``, ``max_tokens`` (or
    ``max_new_tokens``), ``seed``, ``n`` (see :meth:`complete_n`), ``stop`` (strings), ``prefill``
    (the reply starts with this text, e.g. ``"<tool_call>"``: it is part of the prompt tokens and
    of ``raw_text``). ``logprobs`` are always returned; they are the model's raw next-token
    distribution (before temperature), as vLLM reports by default.
    """

    name = "transformers"

    def __init__(self, model_path: str | Path, *, device: str = "cpu", dtype: str | None = None,
                 max_new_tokens: int = 256, temperature: float = 0.0, seed: int = 0,
                 trust_remote_code: bool = False, hf_model: Any = None, processor: Any = None) -> None:
        import torch
        from transformers import AutoConfig, AutoModelForImageTextToText

        from .processors import load_processor

        self.model_path = str(model_path)
        self.defaults = {"max_new_tokens": max_new_tokens, "temperature": temperature}
        self.seed = seed
        self._lock = threading.Lock()
        try:
            config = AutoConfig.from_pretrained(self.model_path, trust_remote_code=trust_remote_code)
            self.processor = processor or load_processor(self.model_path, config.model_type,
                                                         trust_remote_code=trust_remote_code)
            model = hf_model
            if model is None:
                torch_dtype = getattr(torch, dtype) if dtype else (torch.float32 if device == "cpu" else torch.bfloat16)
                kwargs: dict[str, Any] = {"dtype": torch_dtype, "trust_remote_code": trust_remote_code}
                if device == "auto":
                    kwargs["device_map"] = "auto"
                model = AutoModelForImageTextToText.from_pretrained(self.model_path, **kwargs)
                if device != "auto":
                    model = model.to(device)
        except (OSError, ValueError, KeyError) as exc:
            raise BackendError(f"cannot load model from {self.model_path}: {exc}") from exc
        self.hf_model = model.eval()
        self.model_type = config.model_type
        self.tokenizer = getattr(self.processor, "tokenizer", self.processor)
        self.tokenizer.padding_side = "left"
        self.chat_template = getattr(self.processor, "chat_template", None) or getattr(self.tokenizer, "chat_template", None)
        if not self.chat_template:
            raise BackendError(f"{self.model_path} has no chat template")
        gen = self.hf_model.generation_config
        eos = gen.eos_token_id if gen.eos_token_id is not None else self.tokenizer.eos_token_id
        self.eos_ids = set(eos if isinstance(eos, (list, tuple)) else [eos]) - {None}
        self.pad_id = gen.pad_token_id if gen.pad_token_id is not None else self.tokenizer.pad_token_id
        if self.pad_id is None:
            self.pad_id = next(iter(self.eos_ids), 0)
        self.model = Path(self.model_path).name  # the model's name (as every backend's .model)

    # ------------------------------------------------------------------ prompts
    @property
    def device(self):
        return next(self.hf_model.parameters()).device

    def render(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
               prefill: str | None = None) -> tuple[str, list[Any]]:
        """The prompt text (chat template, generation prompt added) and the PIL images in order."""
        chat, images = split_images(template_ready(messages))
        if prefill:
            chat.append({"role": "assistant", "content": prefill})
        text = self.tokenizer.apply_chat_template(chat, chat_template=self.chat_template, tools=tools or None,
                                                  add_generation_prompt=not prefill, continue_final_message=bool(prefill),
                                                  tokenize=False)
        return text, images

    def encode(self, conversations: list[list[dict[str, Any]]], tools: list[dict[str, Any]] | None = None,
               prefill: str | None = None):
        """Processor inputs (left-padded batch, on the model's device) for ``conversations``."""
        rendered = [self.render(c, tools, prefill) for c in conversations]
        texts = [r[0] for r in rendered]
        image_lists = [r[1] for r in rendered]
        kwargs: dict[str, Any] = {"text": texts, "return_tensors": "pt", "padding": True}
        if any(image_lists):
            if self.model_type in ("idefics3", "smolvlm", "idefics2"):
                if not all(image_lists):
                    # the Idefics processor wants images for every sample of a batch: encode apart
                    raise _MixedBatch()
                kwargs["images"] = image_lists
            else:
                kwargs["images"] = [img for imgs in image_lists for img in imgs]
        return self.processor(**kwargs).to(self.device)

    # ------------------------------------------------------------------ generation
    def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, **sampling: Any) -> Completion:
        return self.complete_batch([messages], tools, **sampling)[0]

    def complete_n(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None, *, n: int = 1,
                   **sampling: Any) -> list[Completion]:
        """``n`` samples of one prompt in one batch (sampling at temperature 1 unless given)."""
        sampling.setdefault("temperature", 1.0)
        return self.complete_batch([messages] * n, tools, **sampling)

    def complete_batch(self, conversations: list[list[dict[str, Any]]], tools: list[dict[str, Any]] | None = None,
                       **sampling: Any) -> list[Completion]:
        """One completion per conversation, generated as one padded batch."""
        unknown = set(sampling) - _SAMPLING_KEYS
        if unknown:
            raise TypeError(f"unknown sampling option(s) {sorted(unknown)}")
        n = int(sampling.pop("n", 1) or 1)
        if n > 1:
            conversations = [c for c in conversations for _ in range(n)]
        try:
            inputs = self.encode(conversations, tools, sampling.get("prefill"))
        except _MixedBatch:
            out: list[Completion] = []
            for conv in conversations:
                out.extend(self.complete_batch([conv], tools, **sampling))
            return out
        except (ValueError, TypeError) as exc:
            raise BackendError(f"cannot build the prompt: {exc}") from exc
        return self._generate(inputs, **sampling)

    def _generate(self, inputs: Any, **sampling: Any) -> list[Completion]:
        import torch

        max_new = int(sampling.get("max_tokens") or sampling.get("max_new_tokens") or self.defaults["max_new_tokens"])
        temperature = float(sampling.get("temperature", self.defaults["temperature"]) or 0.0)
        gen_kwargs: dict[str, Any] = {
            "max_new_tokens": max_new, "return_dict_in_generate": True, "output_logits": True,
            "pad_token_id": self.pad_id, "eos_token_id": sorted(self.eos_ids) or None,
        }
        if temperature > 0:
            gen_kwargs.update(do_sample=True, temperature=temperature, top_p=float(sampling.get("top_p") or 1.0),
                              top_k=int(sampling.get("top_k") or 0))
        else:
            gen_kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        if sampling.get("repetition_penalty"):
            gen_kwargs["repetition_penalty"] = float(sampling["repetition_penalty"])
        seed = sampling.get("seed")
        with self._lock, torch.no_grad():
            if seed is not None:
                torch.manual_seed(int(seed))
            elif temperature > 0:
                torch.manual_seed(self.seed)
                self.seed += 1
            try:
                out = self.hf_model.generate(**inputs, **gen_kwargs)
            except RuntimeError as exc:
                raise BackendError(f"generation failed: {exc}") from exc
        prompt_len = inputs["input_ids"].shape[1]
        new = out.sequences[:, prompt_len:]
        logits = torch.stack(out.logits, dim=1).float() if out.logits else None
        stops = _stop_strings(sampling.get("stop"))
        completions = []
        for b in range(new.shape[0]):
            ids = new[b].tolist()
            cut = next((i + 1 for i, t in enumerate(ids) if t in self.eos_ids), None)
            finish = "stop" if cut is not None else "length"
            ids = ids[:cut] if cut is not None else [t for t in ids if t != self.pad_id]
            logprobs = None
            if logits is not None and ids:
                lp = torch.log_softmax(logits[b, : len(ids)], dim=-1)
                logprobs = lp.gather(1, torch.tensor(ids, device=lp.device).unsqueeze(1)).squeeze(1).tolist()
            mask = inputs["attention_mask"][b].bool()
            prompt_ids = inputs["input_ids"][b][mask].tolist()
            body = [t for t in ids if t not in self.eos_ids]
            raw = (sampling.get("prefill") or "") + self.tokenizer.decode(body, skip_special_tokens=True)
            for stop in stops:
                if stop in raw:
                    raw, finish = raw[: raw.index(stop)], "stop"
            prose, calls = split_tool_calls(raw)
            completions.append(Completion(
                text=prose if calls else raw.strip(), tool_calls=calls, model=self.model, finish_reason=finish,
                prompt_token_ids=prompt_ids, token_ids=ids, logprobs=logprobs, raw_text=raw,
                usage={"prompt_tokens": len(prompt_ids), "completion_tokens": len(ids),
                       "total_tokens": len(prompt_ids) + len(ids)},
            ))
        return completions

    # ------------------------------------------------------------------ training support
    def score(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, token_ids: list[int],
              prefill: str | None = None, *, full: bool = False):
        """Log-probabilities (a torch tensor, with gradients) of ``token_ids`` following the prompt.

        The prompt is rendered exactly as :meth:`complete` renders it, so on an unchanged model
        ``score(...)`` equals the ``logprobs`` that :meth:`complete` returned for those tokens.
        With ``full=True`` the result covers the whole sequence ``prompt + token_ids``: entry ``i``
        is the log-probability of token ``i + 1`` given tokens ``0..i`` (for masked losses).
        """
        import torch

        inputs = self.encode([messages], tools, prefill)
        prompt_len = inputs["input_ids"].shape[1]
        completion = torch.tensor([token_ids], dtype=inputs["input_ids"].dtype, device=self.device)
        batch = dict(inputs)
        batch["input_ids"] = torch.cat([inputs["input_ids"], completion], dim=1)
        for key, value in inputs.items():
            if key != "input_ids" and hasattr(value, "shape") and value.dim() == 2 and value.shape[1] == prompt_len:
                fill = 1 if key == "attention_mask" else 0
                batch[key] = torch.cat([value, torch.full_like(completion, fill, dtype=value.dtype)], dim=1)
        logits = self.hf_model(**batch).logits[0].float()
        start = 0 if full else prompt_len - 1
        targets = batch["input_ids"][0, start + 1:]
        logprobs = torch.log_softmax(logits[start: start + len(targets)], dim=-1)
        return logprobs.gather(1, targets.unsqueeze(1)).squeeze(1)

    def prompt_token_ids(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None,
                         prefill: str | None = None) -> list[int]:
        """The token ids :meth:`complete` feeds the model for this prompt (image tokens expanded)."""
        return self.encode([messages], tools, prefill)["input_ids"][0].tolist()


class _MixedBatch(Exception):
    """Some conversations of a batch have images and some not (Idefics processors refuse that)."""


def _stop_strings(stop: Any) -> list[str]:
    if not stop:
        return []
    return [stop] if isinstance(stop, str) else [s for s in stop if s]
