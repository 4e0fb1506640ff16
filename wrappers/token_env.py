"""Token-level interface: the env in token ids of a given processor, with an exact loss mask.

:class:`TokenEnv` keeps one token sequence per episode (a :class:`TokenTranscript`) and never re-encodes it. ``reset`` renders
the first observation with the processor's chat template (the offered tools included) and returns
its ids -- the prompt. ``step(action_ids)`` appends the model's ids verbatim (loss mask 1),
decodes them into the env's text action, then appends only what the template adds after them:
the end of the assistant turn and the rendering of the new messages (tool results, the user's
next turn, images expanded to the processor's image tokens), loss mask 0, and returns those new
ids. So ``token_ids`` / ``loss_mask`` / ``logprobs`` are exactly what the model saw and produced.

Each new piece is found by rendering the whole conversation and cutting at the previous render;
a template that re-renders history differently (not append-only) raises a ``ValueError`` rather
than silently misaligning. :class:`TokenEnvBatch` runs ``reset`` / ``step`` over many envs.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import gymnasium as gym

from mmtsb_env.llm.transcript import TokenTrace, TokenTranscript

__all__ = ["TokenEnv", "TokenEnvBatch", "TokenTrace", "TokenTranscript"]


class TokenEnv(gym.Wrapper):
    """Play an mmtsb_env env in the token ids of ``processor`` (a transformers processor or tokenizer).

    The sequence is a :class:`TokenTranscript` (``transcript``); ``trace``, ``image_inputs``,
    ``messages``, ``tools``, ``tokenizer`` and ``end_of_turn`` are its.

    Args:
        env: an mmtsb_env Gymnasium env (or a wrapper stack over one).
        processor, tool_format, end_of_turn: see :class:`TokenTranscript`.
    """

    def __init__(self, env: gym.Env, processor: Any, *, tool_format: str = "openai", end_of_turn: str | None = None) -> None:
        super().__init__(env)
        self.transcript = TokenTranscript(processor, tool_format=tool_format, end_of_turn=end_of_turn)
        vocab = gym.spaces.Discrete(len(self.tokenizer))
        self.observation_space = gym.spaces.Sequence(vocab)  # the new ids of each step
        self.action_space = gym.spaces.Sequence(vocab)

    processor = property(lambda self: self.transcript.processor)
    tokenizer = property(lambda self: self.transcript.tokenizer)
    tool_format = property(lambda self: self.transcript.tool_format)
    end_of_turn = property(lambda self: self.transcript.end_of_turn)
    trace = property(lambda self: self.transcript.trace)
    image_inputs = property(lambda self: self.transcript.image_inputs)
    messages = property(lambda self: self.transcript.messages)
    tools = property(lambda self: self.transcript.tools)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        ids = self.transcript.start(info["messages"], info.get("tools"))
        return ids, {**info, "observation": obs}

    def step(self, action_ids: Sequence[int], logprobs: Sequence[float] | None = None):
        """Append the model's ``action_ids``; returns ``(new_ids, reward, terminated, truncated, info)``."""
        action_ids = self.transcript.checked(action_ids, logprobs)
        text = self.transcript.decode(action_ids)
        obs, reward, terminated, truncated, info = self.env.step(text)
        self.trace.rewards.append(float(reward))
        ids = self.transcript.extend(action_ids, logprobs, info["messages"], done=terminated or truncated)
        return ids, reward, terminated, truncated, {**info, "observation": obs, "action_text": text}


class TokenEnvBatch:
    """``reset`` / ``step`` over many :class:`TokenEnv` s; finished envs are skipped (their slot is ``None``)."""

    def __init__(self, make_env: Callable[[], TokenEnv], n: int) -> None:
        self.envs = [make_env() for _ in range(n)]
        self.done = [True] * n

    def reset(self, seeds: Sequence[int | None], options: Sequence[dict[str, Any] | None] | None = None):
        if len(seeds) != len(self.envs):
            raise ValueError(f"{len(seeds)} seeds for {len(self.envs)} envs")
        options = options or [None] * len(self.envs)
        out = [env.reset(seed=s, options=o) for env, s, o in zip(self.envs, seeds, options)]
        self.done = [False] * len(self.envs)
        return [ids for ids, _ in out], [info for _, info in out]

    def step(self, actions: Sequence[Sequence[int] | None], logprobs: Sequence[Sequence[float] | None] | None = None):
        """Step every live env whose action is given; returns lists of ``(new_ids, reward, terminated, truncated, info)`` or ``None``."""
        logprobs = logprobs or [None] * len(self.envs)
        results: list[Any] = []
        for i, (env, action, lp) in enumerate(zip(self.envs, actions, logprobs)):
            if self.done[i] or action is None:
                results.append(None)
                continue
            result = env.step(action, lp)
            self.done[i] = bool(result[2] or result[3])
            results.append(result)
        return results

    @property
    def traces(self) -> list[TokenTrace]:
        return [env.trace for env in self.envs]
