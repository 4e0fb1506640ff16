"""Sampling episode turns from a vLLM OpenAI-compatible server, and keeping its weights current.

vLLM pins its own torch and transformers, so here it runs as a server in its own environment
(``python -m vllm.entrypoints.openai.api_server --model DIR ...``, started with
``VLLM_SERVER_DEV_MODE=1`` so its ``/collective_rpc`` endpoint is on). :class:`VLLMServerGeneration`
does two things for :class:`~mmtsb_env.integrations.trl.EpisodeRollout` (the first also for
:class:`~mmtsb_env.baselines.token_agent.TokenAgent`, which ``mmtsb eval --agent vllm --token-in``
plays):

* ``generate(envs)`` samples the next assistant turn of many episodes (each a
  :class:`~mmtsb_env.wrappers.TokenEnv` or its :class:`~mmtsb_env.wrappers.TokenTranscript`) at once: one request per
  live episode, all sent together so the server schedules them as one batch; each reply's sampled
  token ids and their logprobs are what the rollout appends to the episode's
  :class:`~mmtsb_env.wrappers.TokenEnv` trace, verbatim. By default the request is the episode's
  own token ids (vLLM's token-in-token-out ``/inference/v1/generate``, server flag
  ``--enable-scale-out``): the ids of the trace with each image as the template wrote it
  (``TokenTrace.unexpanded_ids``) and the images (``content_parts``), which the server expands
  itself -- the prompt ids it reports must equal the trace, or the call fails, so the logprobs are
  those of exactly the sequence the loss sees. ``token_in=False`` sends the episode's messages
  and tools to ``/v1/chat/completions`` instead; the server then renders the model's earlier turns
  from the env's messages, which can tokenize differently from what was sampled (``prompt_exact``
  counts the turns where the server's prompt was the trace);
* ``sync_weights()`` writes the trained model's weights (safetensors) and has the server reload
  them in place (``reload_weights`` through ``/collective_rpc``) and drop its prefix, multimodal
  and encoder caches, so the next rollouts sample from the current policy.

Start the server with ``--logprobs-mode processed_logprobs`` for logprobs after temperature (what
TRL's importance-sampling correction compares against).
"""

from __future__ import annotations

import json
import tempfile
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .base import BackendError


@dataclass
class ServerTurn:
    """One sampled assistant turn: its ids and logprobs, and whether the server's prompt was the trace."""

    ids: list[int]
    logprobs: list[float]
    prompt_exact: bool


class VLLMServerGeneration:
    """Batched turn sampling from a vLLM server (see the module docstring).

    Args:
        base_url: the server's root, e.g. ``http://127.0.0.1:8000`` (a trailing ``/v1`` is accepted).
        model: the served model name (default: the server's only model).
        token_in: send each episode's own token ids (``/inference/v1/generate``; the server needs
            ``--enable-scale-out``) rather than its messages (``/v1/chat/completions``).
        timeout: seconds for one request.
        weights_dir: where ``sync_weights`` writes the weights the server reloads (default: a temporary
            directory removed with this object).
    """

    def __init__(self, base_url: str, model: str | None = None, *, token_in: bool = True, timeout: float = 600.0,
                 weights_dir: str | Path | None = None) -> None:
        self.root = base_url.rstrip("/").removesuffix("/v1")
        self.token_in = bool(token_in)
        self.timeout = float(timeout)
        self._model_name = model
        self._weights_dir = Path(weights_dir) if weights_dir is not None else None
        self.policy: Any = None  # the model being trained (set by the trainer) for sync_weights
        self.syncs = 0  # weight reloads
        self.batches = 0  # generate() calls
        self.requests = 0  # turns sampled
        self.exact_prompts = 0

    # ------------------------------------------------------------------ HTTP
    def _call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.root + path, data=data, headers={"Content-Type": "application/json"},
                                         method="POST" if body is not None else "GET")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as exc:
            reason = exc.read().decode()[:500]
            raise BackendError(f"vLLM server {self.root}{path} answered {exc.code}: {reason}") from None
        except OSError as exc:
            raise BackendError(f"vLLM server {self.root} unreachable ({exc}); is it running?") from None
        return json.loads(text) if text else None

    @property
    def model_name(self) -> str:
        if self._model_name is None:
            self._model_name = self._call("/v1/models")["data"][0]["id"]
        return self._model_name

    def model_root(self) -> str:
        """Where the server loaded its model from (a folder or a hub id), as it reports it."""
        models = self._call("/v1/models")["data"]
        chosen = next((m for m in models if m["id"] == self.model_name), models[0])
        return str(chosen.get("root") or chosen["id"])

    # ------------------------------------------------------------------ sampling
    def _request(self, env: Any, *, max_new_tokens: int, temperature: float, seed: int | None,
                 suppress: Sequence[int]) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model_name, "messages": env.messages, "max_tokens": int(max_new_tokens),
            "temperature": float(temperature), "logprobs": True, "return_token_ids": True,
            "skip_special_tokens": False, "stop_token_ids": [env.tokenizer.convert_tokens_to_ids(env.end_of_turn)],
        }
        if env.tools:
            body.update(tools=env.tools, tool_choice="none")  # the template shows them; the ids are parsed by the env
        if seed is not None:
            body["seed"] = int(seed)
        if suppress:  # special tokens but the turn's end (image placeholders would not match the pixels)
            body["logit_bias"] = {str(i): -100 for i in suppress}
        return body

    def _token_request(self, env: Any, *, max_new_tokens: int, temperature: float, seed: int | None,
                       suppress: Sequence[int]) -> dict[str, Any]:
        """The episode's own ids (images unexpanded: the server expands them from ``content_parts``)."""
        sampling: dict[str, Any] = {
            "temperature": float(temperature), "max_tokens": int(max_new_tokens), "logprobs": 0,
            "stop_token_ids": [env.tokenizer.convert_tokens_to_ids(env.end_of_turn)], "skip_special_tokens": False,
        }
        if seed is not None:
            sampling["seed"] = int(seed)
        if suppress:
            sampling["logit_bias"] = {str(i): -100.0 for i in suppress}
        return {"model": self.model_name, "token_ids": env.trace.unexpanded_ids, "return_token_ids": True,
                "content_parts": [{"type": "image_url", "url": url} for url in env.trace.image_urls] or None,
                "sampling_params": sampling}

    def generate(self, envs: Sequence[Any], *, max_new_tokens: int = 64, temperature: float = 1.0,
                 seeds: Sequence[int | None] | None = None) -> list[ServerTurn]:
        """The next assistant turn of each :class:`~mmtsb_env.wrappers.TokenEnv` in ``envs``, sampled in one batch."""
        if not envs:
            return []
        seeds = list(seeds) if seeds is not None else [None] * len(envs)
        bodies = []
        for env, seed in zip(envs, seeds):
            if not self.token_in and env.tool_format != "openai":
                raise ValueError("vLLM chat generation sends the env's messages and tools as they are: "
                                 "use TokenEnv(tool_format='openai'), or token_in=True")
            eos = env.tokenizer.convert_tokens_to_ids(env.end_of_turn)
            suppress = [i for i in env.tokenizer.all_special_ids if i != eos]
            build = self._token_request if self.token_in else self._request
            bodies.append(build(env, max_new_tokens=max_new_tokens, temperature=temperature, seed=seed,
                                suppress=suppress))
        path = "/inference/v1/generate" if self.token_in else "/v1/chat/completions"
        self.batches += 1
        with ThreadPoolExecutor(max_workers=len(bodies)) as pool:
            replies = list(pool.map(lambda b: self._call(path, b), bodies))
        turns = []
        for env, reply in zip(envs, replies):
            choice = reply["choices"][0]
            ids = [int(t) for t in choice.get("token_ids") or []]
            content = (choice.get("logprobs") or {}).get("content") or []
            logprobs = [float(item["logprob"]) for item in content]
            if len(logprobs) != len(ids):
                raise BackendError(f"the vLLM server returned {len(ids)} token ids but {len(logprobs)} logprobs")
            exact = reply.get("prompt_token_ids") == env.trace.token_ids
            if self.token_in and not exact:
                raise BackendError("the vLLM server expanded the episode's images into other tokens than the "
                                   "processor did; its logprobs would not be of this episode's tokens")
            self.requests += 1
            self.exact_prompts += int(exact)
            turns.append(ServerTurn(ids, logprobs, exact))
        return turns

    # ------------------------------------------------------------------ weights
    def sync_weights(self) -> None:
        """Load :attr:`policy`'s current weights into the server (in place) and clear its prefix cache."""
        if self.policy is None:
            raise RuntimeError("VLLMServerGeneration.policy is not set: the trainer sets it to the model it trains")
        if self._weights_dir is None:  # removed with this object
            self._scratch = tempfile.TemporaryDirectory(prefix="mmtsb-vllm-weights-")
            self._weights_dir = Path(self._scratch.name)
        model = getattr(self.policy, "module", self.policy)
        model.save_pretrained(self._weights_dir, safe_serialization=True)
        self._call("/collective_rpc", {"method": "reload_weights", "kwargs": {"weights_path": str(self._weights_dir)}})
        for cache in ("/reset_prefix_cache", "/reset_mm_cache", "/reset_encoder_cache"):  # derived from the old weights
            self._call(cache, {})
        self.syncs += 1
