"""RewardWeights: recombine the reward from its components with your own weights."""

from __future__ import annotations

from typing import Any

import gymnasium as gym


class RewardWeights(gym.Wrapper):
    """``reward = f1 * delta_f1 + judge * verdict + action_error * [the action was rejected]``.

    ``info["reward_components"]`` is unchanged; the environment's own reward is kept in
    ``info["env_reward"]``. ``RewardWeights(env)`` with the defaults reproduces the default reward.

    Args:
        f1: weight of the per-step change of entity F1 (its sum over an episode is the final F1).
        judge: weight of the terminal judge verdict (1 pass / 0 fail).
        action_error: added whenever ``info["action_error"]`` is set (use a negative value to
            penalise invalid actions and failed tool calls).

    >>> import mmtsb_env
    >>> env = RewardWeights(mmtsb_env.make_env(suite="demo"), action_error=-0.1)
    >>> _ = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> env.step('{"name": "no_such_tool", "arguments": {}}')[1]
    -0.1
    """

    def __init__(self, env: gym.Env, *, f1: float = 1.0, judge: float = 1.0, action_error: float = 0.0) -> None:
        super().__init__(env)
        self.weights = {"f1": float(f1), "judge": float(judge), "action_error": float(action_error)}

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["env_reward"] = reward
        return obs, self.combine(info), terminated, truncated, info

    def combine(self, info: dict[str, Any]) -> float:
        c = info["reward_components"]
        w = self.weights
        value = w["f1"] * c["delta_f1"] + w["judge"] * c["judge"]
        if info.get("action_error"):
            value += w["action_error"]
        return float(value)
