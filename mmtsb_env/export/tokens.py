"""Token-level columns from the per-step extras a policy reports (``last_step_info()``).

A policy step may report ``prompt_token_ids`` (or ``prompt_ids``), ``token_ids`` (or
``completion_ids`` / ``response_ids``) and ``logprobs``. From them we build

* ``token_steps``: the per-step prompt and completion ids, exactly as reported;
* ``token_ids`` / ``logprobs`` / ``loss_mask``: one sequence for the whole episode, when every
  step's prompt extends the previous prompt + completion (an append-only chat template). The
  mask is 1 on generated tokens only: the prompt, the user simulator's turns and the
  environment's tool results are 0. When a template re-renders history (the prefix check fails),
  these three are ``None`` rather than a silently wrong alignment; ``token_steps`` remain.

>>> steps = [{"prompt_token_ids": [1, 2], "token_ids": [3], "logprobs": [-0.5]},
...          {"prompt_token_ids": [1, 2, 3, 4, 5], "token_ids": [6, 7], "logprobs": [-0.1, -0.2]}]
>>> out = flatten_tokens(steps)
>>> out["token_ids"], out["loss_mask"]
([1, 2, 3, 4, 5, 6, 7], [0, 0, 1, 0, 0, 1, 1])
"""

from __future__ import annotations

from typing import Any, Sequence

PROMPT_KEYS = ("prompt_token_ids", "prompt_ids")
COMPLETION_KEYS = ("token_ids", "completion_ids", "response_ids")
TOKEN_KEYS = PROMPT_KEYS + COMPLETION_KEYS + ("logprobs",)


def _first(step: dict[str, Any], keys: Sequence[str]) -> list[Any] | None:
    for key in keys:
        value = step.get(key)
        if value is not None:
            return list(value)
    return None


def token_steps(steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """Per-step ``{prompt_ids, completion_ids, logprobs}``, or ``None`` unless every step has completion ids."""
    if not steps:
        return None
    out = []
    for step in steps:
        completion = _first(step or {}, COMPLETION_KEYS)
        if completion is None:
            return None
        logprobs = step.get("logprobs")
        if logprobs is not None and len(logprobs) != len(completion):
            raise ValueError(f"a step reports {len(completion)} completion tokens but {len(logprobs)} logprobs")
        out.append({
            "prompt_ids": [int(t) for t in _first(step, PROMPT_KEYS) or []] or None,
            "completion_ids": [int(t) for t in completion],
            "logprobs": [float(x) for x in logprobs] if logprobs is not None else None,
        })
    return out


def flatten_tokens(steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``{"token_steps", "token_ids", "logprobs", "loss_mask"}`` (values may be ``None``)."""
    per_step = token_steps(steps)
    out: dict[str, Any] = {"token_steps": per_step, "token_ids": None, "logprobs": None, "loss_mask": None}
    if per_step is None or any(s["prompt_ids"] is None for s in per_step):
        return out
    seq: list[int] = []
    mask: list[int] = []
    logprobs: list[float] = []
    have_logprobs = all(s["logprobs"] is not None for s in per_step)
    for s in per_step:
        prompt = s["prompt_ids"]
        if prompt[:len(seq)] != seq:  # the template re-rendered history: no faithful single sequence
            return out
        added = prompt[len(seq):]
        seq += added + s["completion_ids"]
        mask += [0] * len(added) + [1] * len(s["completion_ids"])
        if have_logprobs:
            logprobs += [0.0] * len(added) + s["logprobs"]
    out.update(token_ids=seq, loss_mask=mask, logprobs=logprobs if have_logprobs else None)
    return out


def strip_tokens(step: dict[str, Any]) -> dict[str, Any]:
    """A step's extras without the token arrays (they live in the token columns)."""
    return {k: v for k, v in (step or {}).items() if k not in TOKEN_KEYS}
