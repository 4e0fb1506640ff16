"""EpisodeStatistics: return, length, F1 and pass/fail in ``info["episode"]`` when an episode ends."""

from __future__ import annotations

import time
from collections import deque
from typing import Any

import gymnasium as gym


class EpisodeStatistics(gym.Wrapper):
    """Like Gymnasium's ``RecordEpisodeStatistics``, with this environment's task metrics.

    At the step that ends an episode, ``info["episode"]`` is
    ``{"r": return, "l": steps, "t": seconds, "entity_f1": final F1, "passed": judge verdict,
    "judge": verdict score, "action_errors": rejected actions}`` (``record_time=False`` leaves out
    the wall-clock ``t`` so infos are reproducible). The last ``buffer_length``
    episodes are kept in :attr:`return_queue`, :attr:`length_queue`, :attr:`f1_queue` and
    :attr:`pass_queue`; :meth:`summary` averages them.

    >>> import mmtsb_env
    >>> from mmtsb_env.baselines import OracleAgent
    >>> env = EpisodeStatistics(mmtsb_env.make_env(suite="demo"))
    >>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> agent, done = OracleAgent(), False
    >>> while not done:
    ...     obs, r, term, trunc, info = env.step(agent.act(obs, info))
    ...     done = term or trunc
    >>> info["episode"]["r"], info["episode"]["l"], info["episode"]["passed"]
    (2.0, 2, True)
    """

    def __init__(self, env: gym.Env, buffer_length: int = 100, *, record_time: bool = True) -> None:
        super().__init__(env)
        self.record_time = record_time
        self.return_queue: deque[float] = deque(maxlen=buffer_length)
        self.length_queue: deque[int] = deque(maxlen=buffer_length)
        self.f1_queue: deque[float] = deque(maxlen=buffer_length)
        self.pass_queue: deque[bool] = deque(maxlen=buffer_length)
        self.episode_count = 0
        self._reset_counters()

    def _reset_counters(self) -> None:
        self._return = 0.0
        self._length = 0
        self._errors = 0
        self._start = time.perf_counter()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._reset_counters()  # an abandoned episode's numbers never reach the next one
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._return += reward
        self._length += 1
        self._errors += bool(info.get("action_error"))
        if terminated or truncated:
            verdict = info.get("verdict") or {}
            f1 = info.get("entity_f1", (info.get("reward_components") or {}).get("entity_f1", 0.0))
            stats = {
                "r": self._return, "l": self._length, "t": round(time.perf_counter() - self._start, 6),
                "entity_f1": float(f1), "passed": bool(verdict.get("pass", False)),
                "judge": 1.0 if verdict.get("pass") else 0.0, "action_errors": self._errors,
            }
            if not self.record_time:
                del stats["t"]
            info["episode"] = stats
            self.return_queue.append(stats["r"])
            self.length_queue.append(stats["l"])
            self.f1_queue.append(stats["entity_f1"])
            self.pass_queue.append(stats["passed"])
            self.episode_count += 1
        return obs, reward, terminated, truncated, info

    def summary(self) -> dict[str, float]:
        """Means over the buffered episodes (empty dict before the first episode ends)."""
        n = len(self.return_queue)
        if not n:
            return {}
        return {"episodes": float(n), "mean_return": sum(self.return_queue) / n, "mean_length": sum(self.length_queue) / n,
                "mean_entity_f1": sum(self.f1_queue) / n, "pass_rate": sum(self.pass_queue) / n}
