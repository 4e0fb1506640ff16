"""Step caps with a terminal verdict: ``StepLimit``, and ``VerdictOnTruncation`` for Gymnasium's ``TimeLimit``.

``gym.make(mmtsb_env.GYM_ID, max_episode_steps=N)`` puts Gymnasium's ``TimeLimit`` around the
env, and the registration adds ``VerdictOnTruncation`` outside it: when ``TimeLimit`` (or anything
below) flags ``truncated`` on an episode that has no verdict yet, the episode is ended and judged
there, so a truncated step always carries ``info["verdict"]``. A hand-built
``TimeLimit(env, N)`` needs ``VerdictOnTruncation(TimeLimit(env, N))`` -- or use ``StepLimit``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from mmtsb_env.episode.ending import finish_truncated, verdict_info

from ._episode import episode_of


def _judge_now(episode: Any, reward: float, info: dict[str, Any]) -> float:
    bonus = finish_truncated(episode)
    components = dict(info.get("reward_components") or {})
    components["judge"] = episode.verdict.score
    info["reward_components"] = components
    verdict_info(episode, info)
    return float(reward + bonus)


class VerdictOnTruncation(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """Give a verdict when a wrapper below (e.g. ``TimeLimit``) truncates an episode the env still runs.

    >>> import gymnasium as gym, mmtsb_env
    >>> env = gym.make(mmtsb_env.GYM_ID, suite="demo", image_size=(16, 16), max_episode_steps=1)
    >>> _ = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> *_, truncated, info = env.step('{"name": "get_wifi_status", "arguments": {}}')
    >>> truncated, info["verdict"]["pass"]
    (True, False)
    """

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)
        gym.Wrapper.__init__(self, env)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated or terminated:
            episode = episode_of(self.env)
            if episode.verdict is None:
                reward = _judge_now(episode, reward, info)
            elif "verdict" not in info:
                verdict_info(episode, info)
        return obs, reward, terminated, truncated, info


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
        episode = episode_of(self.env)
        if self.elapsed_steps >= self.max_steps and not (terminated or truncated):
            truncated = True
            info["step_limit"] = True
            if not self.judge:
                episode.truncated = True
                return obs, reward, terminated, truncated, info
        if self.judge and (terminated or truncated) and episode.verdict is None:
            reward = _judge_now(episode, reward, info)  # our cap, or one below us (e.g. TimeLimit)
        return obs, reward, terminated, truncated, info
