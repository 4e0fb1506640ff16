"""Batched rollouts: many environments, one policy call per round for every env awaiting an action.

Model inference is cheapest in batches, while environment steps are cheap and independent. A
:class:`BatchedRollout` keeps ``len(envs)`` episodes in flight: each round it asks the policy
for the actions of *all* waiting envs in one call, then steps those envs concurrently in a
thread pool; when an episode ends its env starts the next work unit (continuous batching). Envs
are independent objects sharing only read-only, lock-protected caches, so threads are safe; the
records are identical to a sequential run.

The Gymnasium vector API works as well (``gymnasium.vector.SyncVectorEnv``, and
``AsyncVectorEnv(..., shared_memory=False)`` because observations hold Unicode text).

>>> import mmtsb_env
>>> from mmtsb_env.baselines import OracleAgent
>>> envs = [mmtsb_env.make_env(suite="demo") for _ in range(2)]
>>> demo = mmtsb_env.load_suite("demo")
>>> rollout = BatchedRollout(envs, PerEpisodeAgents(lambda: OracleAgent(demo)), agent_name="oracle")
>>> records = rollout.run([("demo/note_from_receipt", 0), ("demo/compare_receipts", 0), ("demo/sum_receipts", 1)])
>>> [(r.scenario_id, r.entity_f1, r.passed) for r in records]
[('demo/note_from_receipt', 1.0, True), ('demo/compare_receipts', 1.0, True), ('demo/sum_receipts', 1.0, True)]
"""

from __future__ import annotations

import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .episode.ending import finish_truncated
from .runner import EpisodeRecord, record_episode
from .scenario.model import Scenario

BatchPolicy = Callable[[list[tuple[Any, dict[str, Any]]]], list[Any]]


@dataclass(frozen=True)
class WorkUnit:
    """One episode to play: a scenario (id or object) and a reset seed."""

    scenario: str | Scenario
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)


def as_work(items: Iterable[Any]) -> list[WorkUnit]:
    """Accept ``WorkUnit`` s, ``(scenario, seed)`` pairs, scenarios or scenario ids."""
    out = []
    for item in items:
        if isinstance(item, WorkUnit):
            out.append(item)
        elif isinstance(item, tuple):
            out.append(WorkUnit(*item))
        else:
            out.append(WorkUnit(item))
    return out


@dataclass
class _Slot:
    index: int
    unit: WorkUnit
    obs: Any
    info: dict[str, Any]
    steps: int = 0
    total: float = 0.0
    extras: list[dict[str, Any]] = field(default_factory=list)
    start: float = field(default_factory=time.perf_counter)


class PerEpisodeAgents:
    """Adapt ``act(obs, info)`` agents to a batch policy: a fresh agent per episode.

    Actions come back as ``(action, extras)`` when the agent has ``last_step_info()``, so token
    ids and logprobs land in the records.
    """

    def __init__(self, factory: Callable[[], Any]) -> None:
        self.factory = factory
        self.agents: dict[int, Any] = {}

    def __call__(self, batch: list[tuple[Any, dict[str, Any]]]) -> list[Any]:
        actions = []
        for obs, info in batch:
            key = info["work_index"]
            agent = self.agents.get(key)
            if agent is None:
                agent = self.agents[key] = self.factory()
            action = agent.act(obs, info)
            if hasattr(agent, "last_step_info"):
                action = (action, agent.last_step_info() or {})
            actions.append(action)
        return actions

    def episode_done(self, work_index: int) -> None:
        self.agents.pop(work_index, None)


class BatchedRollout:
    """Run work units over ``envs`` with batched policy calls and threaded env steps.

    Args:
        envs: Gymnasium envs (mmtsb_env environments, possibly wrapped); one episode each at a time.
        policy: ``policy([(obs, info), ...]) -> [action, ...]``, one action per pair, in order. An
            action may be ``(action, extras)``; extras (token ids, logprobs ...) go to
            ``record.agent_steps``. ``info["env_index"]`` and ``info["work_index"]`` say which env
            and which work unit a pair belongs to. If the policy has ``episode_done(work_index)``
            it is called when that episode ends.
        max_workers: threads stepping envs (default: ``len(envs)``).
        capture_images: keep PNGs in the records (for Parquet export).
        agent_name: recorded as ``record.agent``.
        max_steps: truncate (and judge) an episode after this many policy actions.
    """

    def __init__(self, envs: Sequence[Any], policy: BatchPolicy, *, max_workers: int | None = None,
                 capture_images: bool = False, agent_name: str = "policy", max_steps: int | None = None) -> None:
        if not envs:
            raise ValueError("BatchedRollout needs at least one env")
        self.envs = list(envs)
        self.policy = policy
        self.max_workers = max_workers or len(self.envs)
        self.capture_images = capture_images
        self.agent_name = agent_name
        self.max_steps = max_steps
        self.policy_calls = 0
        self.batch_sizes: list[int] = []

    def run(self, work: Iterable[Any]) -> list[EpisodeRecord]:
        """Play every work unit once; records come back in work order."""
        units = as_work(work)
        queue = deque(enumerate(units))
        results: list[EpisodeRecord | None] = [None] * len(units)
        slots: list[_Slot | None] = [None] * len(self.envs)

        def reset(i: int, index: int, unit: WorkUnit) -> None:
            obs, info = self.envs[i].reset(seed=unit.seed, options={**unit.options, "scenario": unit.scenario})
            slots[i] = _Slot(index, unit, obs, info)

        def step(i: int, action: Any) -> None:
            slot = slots[i]
            assert slot is not None
            extras: dict[str, Any] = {}
            if isinstance(action, tuple):
                action, extras = action
            obs, reward, terminated, truncated, info = self.envs[i].step(action)
            slot.obs, slot.info = obs, info
            slot.steps += 1
            slot.total += reward
            slot.extras.append(dict(extras or {}))
            if not (terminated or truncated) and self.max_steps is not None and slot.steps >= self.max_steps:
                slot.total += finish_truncated(self.envs[i].unwrapped.episode)
                truncated = True
            if terminated or truncated:
                results[slot.index] = self._record(i, slot)
                slots[i] = None

        with ThreadPoolExecutor(max_workers=self.max_workers) as pool:
            while True:
                # Free envs take the next units in env order (deterministic), then reset concurrently.
                starts = [(i, *queue.popleft()) for i in range(len(self.envs)) if slots[i] is None and queue]
                list(pool.map(lambda a: reset(*a), starts))
                active = [i for i, s in enumerate(slots) if s is not None]
                if not active:
                    break
                batch = []
                for i in active:
                    slot = slots[i]
                    slot.info["env_index"] = i
                    slot.info["work_index"] = slot.index
                    batch.append((slot.obs, slot.info))
                actions = list(self.policy(batch))
                self.policy_calls += 1
                self.batch_sizes.append(len(batch))
                if len(actions) != len(batch):
                    raise ValueError(f"the policy returned {len(actions)} actions for a batch of {len(batch)}")
                running = [slots[i].index for i in active]
                list(pool.map(step, active, actions))
                if hasattr(self.policy, "episode_done"):
                    for i, index in zip(active, running):
                        if slots[i] is None:
                            self.policy.episode_done(index)
        return [r for r in results if r is not None]

    def _record(self, i: int, slot: _Slot) -> EpisodeRecord:
        extras = slot.extras if any(slot.extras) else []
        return record_episode(self.envs[i].unwrapped, seed=slot.unit.seed, agent=self.agent_name, steps=slot.steps,
                              total_reward=slot.total, error=None, capture_images=self.capture_images,
                              agent_steps=extras, duration=time.perf_counter() - slot.start)
