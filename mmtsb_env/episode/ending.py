"""Ending an episode from outside its own turn-taking (a step cap, a wrapper, a trainer): truncate
and judge it now; the end-of-episode keys of ``info``."""

from __future__ import annotations

from typing import Any


def finish_truncated(episode: Any) -> float:
    """Truncate a running episode now and give its terminal verdict.

    Returns the terminal reward (judge weight x verdict) and folds it into the last entry of the
    episode's reward history, so exported rewards still sum to what the learner received.
    """
    if episode.done and episode.verdict is not None:
        return 0.0
    episode.truncated = True
    if episode.verdict is not None:
        return 0.0
    episode.verdict = episode.judge.evaluate(episode.evidence())
    bonus = episode.config.judge_weight * episode.verdict.score
    if episode.reward_history:
        last = episode.reward_history[-1]
        last["reward"] += bonus
        last["judge"] = max(last["judge"], episode.verdict.score)
    return bonus


def verdict_info(episode: Any, info: dict[str, Any]) -> dict[str, Any]:
    """``info`` plus the end-of-episode keys the environments set (verdict, entity_f1)."""
    if episode.verdict is not None:
        info["verdict"] = episode.verdict.to_json()
        info["entity_f1"] = episode.f1
    return info
