"""TokenAgent: the assistant seat sampled token in, token out from a vLLM server.

The trainer's path (:class:`~mmtsb_env.integrations.trl.EpisodeRollout` with a vLLM server)
for evaluation runs: the agent keeps the episode's :class:`~mmtsb_env.llm.transcript.TokenTranscript`
(the env's messages rendered by the model's own chat template, the tools included, the model's
earlier turns as the ids it sampled) and asks :class:`~mmtsb_env.llm.vllm_server.VLLMServerGeneration`
for the next turn with those ids (``/inference/v1/generate``). The server expands the images
itself; the prompt ids it reports must equal the transcript or the call fails. The action is the
decoded turn, as :class:`~mmtsb_env.wrappers.TokenEnv` sends it.

``last_step_info()`` reports the prompt ids (the transcript so far), the sampled ids and the
server's logprobs of them, so every prompt extends the previous prompt and completion and the
exported trajectory's ``token_ids`` / ``loss_mask`` / ``logprobs`` are the server's own, not a
re-tokenisation. ``mmtsb eval --agent vllm --model URL --token-in`` plays it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ..llm.transcript import TokenTranscript
from ..llm.vllm_server import VLLMServerGeneration


class TokenAgent:
    """``act(obs, info) -> action text`` sampled from a vLLM server, token in, token out.

    Args:
        generation: the server (its root URL must serve ``/inference/v1/generate``: ``--enable-scale-out``).
        processor: the served model's processor or tokenizer (its chat template renders the episode).
        tool_format: how the template is given the tools and calls (see :class:`TokenTranscript`).
        max_tokens / temperature / seed: sampling of each turn (``seed`` is sent with every turn).
        name: the agent's name in records.
    """

    def __init__(self, generation: VLLMServerGeneration, processor: Any, *, tool_format: str = "openai",
                 max_tokens: int = 512, temperature: float = 1.0, seed: int | None = 0, name: str = "vllm-token") -> None:
        if not generation.token_in:
            raise ValueError("TokenAgent samples token in, token out: give it VLLMServerGeneration(url, token_in=True)")
        self.generation, self.processor, self.tool_format = generation, processor, tool_format
        self.max_tokens, self.temperature, self.seed = int(max_tokens), float(temperature), seed
        self.name = name
        self.transcript: TokenTranscript | None = None
        self._sampled: tuple[list[int], list[float]] = ([], [])  # the last turn, appended at the next act
        self._last: dict[str, Any] = {}

    def reset(self) -> None:
        self.transcript, self._sampled, self._last = None, ([], []), {}

    def act(self, obs: Any, info: dict[str, Any]) -> str:
        messages = list(info["messages"])
        if self.transcript is None:  # reset() begins each episode (the runner calls it)
            self.transcript = TokenTranscript(self.processor, tool_format=self.tool_format)
            self.transcript.start(messages, info.get("tools"))
        else:
            self.transcript.extend(*self._sampled, messages, done=False)
        prompt = list(self.transcript.trace.token_ids)
        (turn,) = self.generation.generate([self.transcript], max_new_tokens=self.max_tokens,
                                           temperature=self.temperature, seeds=[self.seed])
        self._sampled = (turn.ids, turn.logprobs)
        action = self.transcript.decode(turn.ids)
        self._last = {
            "prompt_token_ids": prompt,
            "token_ids": list(turn.ids),
            "logprobs": list(turn.logprobs),
            "prompt_exact": turn.prompt_exact,
            "model": self.generation.model_name,
            "raw_text": self.transcript.tokenizer.decode(turn.ids, skip_special_tokens=False),
            "action": action,
        }
        return action

    def last_step_info(self) -> dict[str, Any]:
        """The last turn's prompt ids, sampled ids and their logprobs (kept per step by the runner)."""
        return dict(self._last)


def token_agent(url: str, *, processor: str | None = None, tool_format: str = "openai", max_tokens: int | None = None,
                temperature: float | None = None, seed: int | None = 0, name: str = "vllm") -> TokenAgent:
    """A :class:`TokenAgent` on the vLLM server at ``url``; the processor is loaded from the folder
    ``processor`` names (default: the folder the server reports it loaded the model from), once per
    run (the runner builds an agent per episode)."""
    generation = VLLMServerGeneration(url, token_in=True)
    return TokenAgent(generation, _processor(processor or generation.model_root()), tool_format=tool_format,
                      **{k: v for k, v in {"max_tokens": max_tokens, "temperature": temperature}.items() if v is not None},
                      seed=seed, name=name)


@lru_cache(maxsize=4)
def _processor(folder: str) -> Any:
    from ..llm.processors import load_processor

    if not Path(folder).is_dir():
        raise ValueError(f"token-in sampling renders the episode with the served model's processor: {folder!r} is "
                         "not a folder here; pass the model's folder (--processor DIR)")
    return load_processor(folder)
