"""StepLimit: truncate an episode after a number of agent steps, with a terminal verdict."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from ._episode import episode_of, finish_truncated, verdict_info


class StepLimit(gym.Wrapper):
    """Truncate after ``max_steps`` calls to ``step`` (the agent's actions, tool calls included).

    Unlike Gymnasium's ``TimeLimit`` (which only flags ``truncated``), the episode underneath is
    ended too: it is marked truncated and judged, the judge's terminal reward is added to the
    last step, and ``info`` gets ``verdict`` / ``entity_f1`` like any other episode end. So
    recorders and statistics see a finished episode. ``judge=False`` skips the verdict.

    >>> import mmtsb_env
    >>> env = StepLimit(mmtsb_env.make_env(suite="demo"), max_steps=1)
    >>> _ = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> _, reward, terminated, truncated, info = env.step('{"name": "get_wifi_status", "arguments": {}}')
    >>> terminated, truncated, info["verdict"]["pass"]
    (False, True, False)
    """

    def __init__(self, env: gym.Env, max_steps: int, *, judge: bool = True) -> None:
        if int(max_steps) < 1:
            raise ValueError(f"max_steps must be >= 1, got {max_steps}")
        super().__init__(env)
        self.max_steps = int(max_steps)
        self.judge = judge
        self.elapsed_steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self.elapsed_steps = 0
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.elapsed_steps += 1
        if self.elapsed_steps >= self.max_steps and not (terminated or truncated):
            truncated = True
            info["step_limit"] = True
            episode = episode_of(self.env)
            if self.judge:
                bonus = finish_truncated(episode)
                reward = float(reward + bonus)
                components = dict(info.get("reward_components") or {})
                components["judge"] = episode.verdict.score
                info["reward_components"] = components
                verdict_info(episode, info)
            else:
                episode.truncated = True
        return obs, reward, terminated, truncated, info
