"""Find the running episode under a wrapper stack."""

from __future__ import annotations

from typing import Any


def episode_of(env: Any) -> Any:
    """The :class:`~mmtsb_env.episode.engine.Episode` an env (or wrapper stack) is playing."""
    base = getattr(env, "unwrapped", env)
    episode = getattr(base, "episode", None)
    if episode is None:
        raise RuntimeError(f"{type(base).__name__} has no running episode; call reset() first "
                           "(the wrapper needs an mmtsb_env environment underneath)")
    return episode
