"""TrajectoryRecorder: record every episode of the wrapped env, optionally straight to Parquet."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

import gymnasium as gym

from ._episode import episode_of


class TrajectoryRecorder(gym.Wrapper):
    """Turn each episode into an :class:`~mmtsb_env.runner.EpisodeRecord` (images included).

    Works for either seat: wrap :class:`~mmtsb_env.MMToolSandboxEnv` (the learner is the
    assistant) or a :class:`SeatSelection` / :class:`UserSeatEnv` (the learner is the user); the
    learner's seat is flagged ``trainable`` in the export and its per-step extras become its
    token columns.

    Args:
        env: the environment (wrappers below the recorder are fine).
        path: where to write Parquet. A ``.parquet`` file is written when the recorder closes;
            with ``episodes_per_file`` it is a folder of ``part-NNNNN.parquet`` files, each written
            (atomically) as soon as it is full, so a long run keeps what it has recorded.
            ``None``: keep the records in memory only (:attr:`records`).
        episodes_per_file: rotate files every N episodes (see ``path``).
        agent_name: name of the learner's policy (default ``"policy"``).
        user_name: name of the user policy (default: the env's user, e.g. ``"scripted"``).
        step_info: called after every step; returns a dict of extras for that step (token ids,
            logprobs, usage ...), e.g. ``agent.last_step_info``. :meth:`annotate` is the
            push-style alternative.
        keep_records: keep records in :attr:`records` (default: only when ``path`` is None).
        record_unfinished: an episode abandoned by ``reset()``/``close()`` is recorded, flagged truncated.
        **writer_options: :class:`~mmtsb_env.export.TrajectoryWriter` options (``seats``,
            ``row_group_size``, ``steps_path`` is not supported here).

    >>> import mmtsb_env
    >>> from mmtsb_env.baselines import OracleAgent
    >>> env = TrajectoryRecorder(mmtsb_env.make_env(suite="demo"), agent_name="oracle")
    >>> obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    >>> agent, done = OracleAgent(), False
    >>> while not done:
    ...     obs, r, term, trunc, info = env.step(agent.act(obs, info))
    ...     done = term or trunc
    >>> rec = env.records[-1]
    >>> rec.scenario_id, rec.agent, rec.total_reward, len(rec.images)
    ('demo/note_from_receipt', 'oracle', 2.0, 1)
    """

    def __init__(self, env: gym.Env, path: str | Path | None = None, *, episodes_per_file: int | None = None,
                 agent_name: str | None = None, user_name: str | None = None,
                 step_info: Callable[[], dict[str, Any] | None] | None = None, keep_records: bool | None = None,
                 record_unfinished: bool = True, seats: Sequence[str] = ("assistant", "user"), **writer_options: Any) -> None:
        super().__init__(env)
        if episodes_per_file is not None and episodes_per_file < 1:
            raise ValueError(f"episodes_per_file must be >= 1, got {episodes_per_file}")
        if "steps_path" in writer_options:
            raise ValueError("TrajectoryRecorder writes the episode table only; export the step table with write_parquet")
        base = env.unwrapped
        self.seat = getattr(base, "seat", "assistant")
        self.path = Path(path) if path is not None else None
        self.episodes_per_file = episodes_per_file
        self.agent_name = agent_name or "policy"
        self.user_name = user_name
        self.step_info = step_info
        self.keep_records = (path is None) if keep_records is None else keep_records
        self.record_unfinished = record_unfinished
        self.writer_options = {"seats": tuple(seats), **writer_options}
        self.records: list[Any] = []
        self.episodes_recorded = 0
        self.files: list[Path] = []
        self._writer = None
        self._file_index = 0
        self._in_file = 0
        self._repeats: Counter = Counter()
        self._live = False
        self._pending: dict[str, Any] = {}
        self._begin(None)

    # ------------------------------------------------------------------ API
    def annotate(self, **extras: Any) -> None:
        """Extras for the *next* step (e.g. ``token_ids=..., logprobs=..., prompt_token_ids=...``)."""
        self._pending.update(extras)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._finish_unfinished()
        obs, info = self.env.reset(seed=seed, options=options)
        self._begin(seed)
        self._live = True
        return obs, info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        extras = dict(self._pending)
        self._pending = {}
        if self.step_info is not None:
            extras.update(self.step_info() or {})
        self._extras.append(extras)
        self._steps += 1
        self._return += reward
        if terminated or truncated:
            self._record()
        return obs, reward, terminated, truncated, info

    def flush(self) -> list[Path]:
        """Commit the current file now (a new one starts with the next episode)."""
        if self._writer is not None:
            self.files.append(self._writer.close())
            self._writer = None
            self._in_file = 0
            self._file_index += 1
        return list(self.files)

    def close(self) -> None:
        try:
            self._finish_unfinished()
            self.flush()
        finally:
            super().close()

    # ------------------------------------------------------------------ internals
    def _begin(self, seed: int | None) -> None:
        self._seed = -1 if seed is None else int(seed)
        self._steps = 0
        self._return = 0.0
        self._extras: list[dict[str, Any]] = []
        self._start = time.perf_counter()

    def _finish_unfinished(self) -> None:
        if self._live and self._steps and self.record_unfinished:
            self._record(abandoned=True)
        self._live = False

    def _record(self, abandoned: bool = False) -> None:
        from mmtsb_env.runner import record_episode

        base = self.env.unwrapped
        episode_of(self.env)
        learner_steps = [e for e in self._extras]
        learner_steps = learner_steps if any(learner_steps) else []
        if self.seat == "user":
            agent = getattr(base, "policy_name", "policy")
            agent_steps = list(getattr(base, "policy_steps", []))
            user = self.user_name or self.agent_name
        else:
            agent = self.agent_name
            agent_steps = learner_steps
            user_policy = getattr(base, "user", None)
            user = self.user_name or getattr(user_policy, "name", None) or getattr(base, "policy_name", None) or "scripted"
        record = record_episode(base, seed=self._seed, agent=agent, steps=self._steps, total_reward=self._return,
                                error=None, capture_images=True, agent_steps=agent_steps,
                                duration=time.perf_counter() - self._start)
        if abandoned and not (record.terminated or record.truncated):
            record.truncated = True
        record.user = user
        record.trainable_seats = [self.seat]
        if self.seat == "user" and learner_steps:
            record.user_steps = learner_steps
        self._live = False
        self.episodes_recorded += 1
        if self.keep_records:
            self.records.append(record)
        if self.path is not None:
            self._write(record)

    def _write(self, record: Any) -> None:
        from mmtsb_env.export import TrajectoryWriter
        from mmtsb_env.export.rows import record_repeat_key

        if self._writer is None:
            target = self.path / f"part-{self._file_index:05d}.parquet" if self.episodes_per_file else self.path
            self._writer = TrajectoryWriter(target, **self.writer_options)
        key = record_repeat_key(record)
        self._writer.write(record, repeat=self._repeats[key])
        self._repeats[key] += 1
        self._in_file += 1
        if self.episodes_per_file and self._in_file >= self.episodes_per_file:
            self.flush()
