"""Episode control shared by the Gymnasium and PettingZoo views: the episode seed, step caps with a verdict."""

from __future__ import annotations

from typing import Any

from ..episode.ending import finish_truncated


def seed_policies(rng: Any, *policies: Any) -> int:
    """Draw the episode's seed from the env's generator and give it to every policy with ``reseed(seed)``.

    So the reset seed decides the scenario *and* each stochastic choice inside the episode (an LLM
    user's or judge's sampling seed); a policy without ``reseed`` is deterministic already.
    """
    seed = int(rng.integers(2**31 - 1))
    for policy in policies:
        reseed = getattr(policy, "reseed", None)
        if callable(reseed):
            reseed(seed)
    return seed


def truncate_with_verdict(episode: Any, components: dict[str, float]) -> float:
    """End a running episode as truncated and judge it; ``components["judge"]`` is set; returns the terminal reward."""
    bonus = finish_truncated(episode)
    components["judge"] = episode.verdict.score
    return bonus
