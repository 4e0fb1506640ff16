"""Run agents on scenarios and keep a serialisable record of every episode.

An episode is fully described by (scenario, seed, config); :class:`EpisodeRecord` holds what it
produced -- transcript, tool calls, rewards, verdict, and optionally the images as PNG bytes --
as plain data, so records travel between processes (Ray) and into reports and Parquet files.

>>> from mmtsb_env.runner import run_episode
>>> from mmtsb_env.baselines import OracleAgent
>>> import mmtsb_env
>>> demo = mmtsb_env.load_suite("demo")
>>> rec = run_episode(demo[0], OracleAgent(demo))
>>> rec.entity_f1, rec.passed, rec.error
(1.0, True, None)
"""

from __future__ import annotations

import logging
import time
import traceback
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Collection, Sequence

from .envs.gym_env import MMToolSandboxEnv
from .llm.base import BackendError
from .scenario.model import Scenario

log = logging.getLogger(__name__)


@dataclass
class EpisodeRecord:
    """Everything an episode produced, as JSON-able data (images as PNG bytes)."""

    scenario_id: str
    seed: int
    mode: str
    agent: str
    metadata: dict[str, Any]
    steps: int = 0  # the paper's steps: messages of both seats that count toward the cap (metrics.paper_steps)
    assistant_steps: int = 0  # the assistant's actions (env.step calls of the driving loop)
    total_reward: float = 0.0
    entity_f1: float = 0.0
    passed: bool = False
    terminated: bool = False
    truncated: bool = False
    error: str | None = None  # set when a model/backend call failed for good: not a task failure
    verdict: dict[str, Any] = field(default_factory=dict)
    user_verdict: dict[str, Any] = field(default_factory=dict)  # user-simulator judge (deterministic checks)
    user_dynamics: dict[str, Any] = field(default_factory=dict)  # nudges, redirects, give-up... (docs/users.md)
    entity: dict[str, Any] = field(default_factory=dict)
    rewards: list[dict[str, float]] = field(default_factory=list)  # per assistant step
    messages: list[dict[str, Any]] = field(default_factory=list)  # assistant transcript, images as placeholders
    user_messages: list[dict[str, Any]] = field(default_factory=list)  # user-seat transcript
    tools: list[dict[str, Any]] = field(default_factory=list)  # schemas offered at the end
    log: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    diff: dict[str, Any] = field(default_factory=dict)
    images: list[bytes] = field(default_factory=list)  # PNG, index = image id
    image_sources: list[str] = field(default_factory=list)
    agent_steps: list[dict[str, Any]] = field(default_factory=list)  # per-step extras an agent reports (tokens...)
    user: str = "scripted"  # who played the user seat
    user_steps: list[dict[str, Any]] = field(default_factory=list)  # per-step extras of a model-played user
    # What re-judging the record needs to run the counterfactual replay again
    # (counterfactual.replay_inputs: the episode's seed, config and every action of both seats).
    replay_inputs: dict[str, Any] = field(default_factory=dict)
    trainable_seats: list[str] = field(default_factory=lambda: ["assistant"])
    duration_s: float = 0.0

    def to_json(self, *, with_images: bool = False) -> dict[str, Any]:
        """The record as a dict (a shallow copy: the fields already hold plain JSON data)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        for name, value in data.items():
            if isinstance(value, (list, dict)):
                data[name] = value.copy()
        if not with_images:
            data.pop("images")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "EpisodeRecord":
        """A record back from :meth:`to_json` (keys it does not know are ignored; images stay empty)."""
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        values["images"] = []
        if "assistant_steps" not in data:  # written before "steps" meant both seats: it counted the assistant's
            from .evaluation.metrics import paper_steps

            values["assistant_steps"] = int(data.get("steps") or 0)
            values["steps"] = paper_steps({**data, "steps": values["assistant_steps"]})
        return cls(**values)

    @property
    def key(self) -> tuple[str, int]:
        """What identifies an episode within a run: (scenario id, seed)."""
        return (self.scenario_id, int(self.seed))


def reads_images(agent: Any) -> bool:
    """Whether an agent looks at pixels (agents say ``reads_images = False`` when they never do)."""
    return bool(getattr(agent, "reads_images", True))


def env_kwargs_for(agent: Any, env_kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """``env_kwargs`` adjusted to the agent: one that never reads images gets no image tensors and
    id-only image parts, so no pixels are drawn or encoded for it."""
    kwargs = dict(env_kwargs or {})
    if not reads_images(agent):
        kwargs.update(max_images=0, message_images="id")
    return kwargs


def record_episode(env: MMToolSandboxEnv, *, seed: int, agent: str, steps: int, total_reward: float,
                   error: str | None, capture_images: bool, agent_steps: list[dict[str, Any]], duration: float,
                   user_judge: bool = True) -> EpisodeRecord:
    """The record of ``env``'s finished episode. With ``user_judge`` (the default) the user seat is
    judged (:class:`~mmtsb_env.evaluation.user_judge.UserJudge`: its rule checks and the
    counterfactual replay of the user policy); without it ``user_verdict`` is empty and no replay runs."""
    ep = env.episode
    assert ep is not None
    from .vision.store import png_bytes

    score = ep.entity_score()
    n_images = len(ep.images)
    record = EpisodeRecord(
        scenario_id=ep.scenario.id,
        seed=seed,
        mode=ep.config.mode,
        agent=agent,
        metadata={**ep.scenario.metadata, "tool_search": ep.config.tool_search, "entity_scope": ep.entity_scope,
                  "stand_in_images": sum(1 for i in range(n_images) if ep.images.source(i).startswith("stand-in:"))},
        steps=steps,
        total_reward=total_reward,
        entity_f1=score.f1,
        passed=bool(ep.verdict and ep.verdict.passed) and error is None,
        terminated=ep.terminated,
        truncated=ep.truncated,
        error=error,
        verdict=ep.verdict.to_json() if ep.verdict else {},
        user_verdict=_user_verdict(ep, getattr(env, "user", None)) if user_judge else {},
        user_dynamics=ep.user_dynamics(),
        entity=score.to_json(),
        rewards=list(ep.reward_history),
        messages=ep.transcripts[ep.ASSISTANT].messages_with_image_ids(),
        user_messages=ep.transcripts[ep.USER].messages_with_image_ids(),
        tools=ep.offered_tools(ep.ASSISTANT),
        log=[e.to_json() for e in ep.log],
        calls=[c.to_json() for c in ep.calls],
        diff={t: d.to_json() for t, d in ep.world.diff().items()},
        images=[png_bytes(ep.images.get(i)) for i in range(n_images)] if capture_images else [],
        image_sources=[ep.images.source(i) for i in range(n_images)],
        agent_steps=agent_steps,
        duration_s=duration,
        replay_inputs=replay_inputs(ep, getattr(env, "user", None)),
    )
    from .evaluation.metrics import paper_steps

    record.assistant_steps, record.steps = steps, paper_steps(record)  # ``steps`` (the driving loop's) are the assistant's
    return record


def replay_inputs(ep: Any, user: Any = None) -> dict[str, Any]:
    from .users.counterfactual import replay_inputs as inputs

    return inputs(ep, user)


def _user_verdict(ep: Any, user: Any = None) -> dict[str, Any]:
    """The user judge's verdict, with the counterfactual replay of ``user`` (the policy that played
    the user seat) when it is known."""
    from .evaluation.user_judge import UserJudge, user_evidence_from_episode

    return UserJudge().evaluate(user_evidence_from_episode(ep, user)).to_json()


def run_episode(
    scenario: Scenario,
    agent: Any,
    *,
    seed: int = 0,
    env: MMToolSandboxEnv | None = None,
    env_kwargs: dict[str, Any] | None = None,
    capture_images: bool = False,
    agent_name: str | None = None,
    user_judge: bool = True,
) -> EpisodeRecord:
    """Play one episode of ``scenario`` with ``agent`` (``act(obs, info) -> str``) and record it.

    An agent may expose ``last_step_info() -> dict`` (token ids, logprobs, usage...) which is kept
    per step. A :class:`~mmtsb_env.llm.base.BackendError` (or any exception from the agent) ends
    the episode as *errored*: ``record.error`` says why and ``passed`` is False. ``user_judge=False``
    skips the user judge and its counterfactual replay (``record.user_verdict`` stays empty).
    """
    env = env or MMToolSandboxEnv(scenarios=[scenario], **env_kwargs_for(agent, env_kwargs))
    if hasattr(agent, "reset"):
        agent.reset()
    user_log = getattr(env.user, "steps", None)
    user_start = len(user_log) if isinstance(user_log, list) else 0
    start = time.perf_counter()
    try:
        obs, info = env.reset(seed=seed, options={"scenario": scenario})
    except Exception as exc:  # the scenario cannot be set up (an image file is missing...): errored, not a crash
        return EpisodeRecord(scenario_id=scenario.id, seed=seed, mode=env.options.mode,
                             agent=agent_name or type(agent).__name__, metadata=dict(scenario.metadata),
                             error=f"scenario error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}",
                             duration_s=time.perf_counter() - start)
    steps, total, error, extras = 0, 0.0, None, []
    done = False
    while not done:
        try:
            action = agent.act(obs, info)
        except BackendError as exc:
            error = f"backend error: {exc}"
            break
        except Exception as exc:  # an agent bug is an errored episode, not a failed task
            error = f"agent error: {type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"
            break
        if hasattr(agent, "last_step_info"):
            extras.append(agent.last_step_info() or {})
        try:
            obs, reward, terminated, truncated, info = env.step(action)
        except BackendError as exc:  # a model-backed user or judge failed for good
            error = f"environment model error: {exc}"
            break
        steps += 1
        total += reward
        done = terminated or truncated
    record = record_episode(env, seed=seed, agent=agent_name or type(agent).__name__, steps=steps, total_reward=total,
                            error=error, capture_images=capture_images, agent_steps=extras,
                            duration=time.perf_counter() - start, user_judge=user_judge)

    record.user = str(getattr(env.user, "name", type(env.user).__name__))
    if isinstance(user_log, list):
        record.user_steps = list(user_log[user_start:])
    return record


def run_suite(
    scenarios: Sequence[Scenario],
    make_agent: Callable[[], Any],
    *,
    seed: int = 0,
    seeds: Sequence[int] | None = None,
    env_kwargs: dict[str, Any] | None = None,
    capture_images: bool = False,
    progress: bool = False,
    agent_name: str | None = None,
    concurrency: int = 1,
    skip: Collection[tuple[str, int]] = (),
    on_record: Callable[[EpisodeRecord], None] | None = None,
    user_judge: bool = True,
) -> list[EpisodeRecord]:
    """Run every scenario once per seed (a fresh agent per episode); records in (seed, suite) order.

    ``seeds`` (default ``[seed]``) repeats the suite; episodes whose (scenario id, seed) is in
    ``skip`` are not played (resuming a run) and ``on_record`` sees each record as it finishes
    (e.g. to append it to a file); ``user_judge`` as in :func:`run_episode`. An agent with ``reads_images = False`` gets an env that draws
    and encodes no pixels (:func:`env_kwargs_for`).

    With ``concurrency > 1`` episodes run in that many threads, each with its own env (model
    calls overlap; a model server batches them). A user policy passed in ``env_kwargs`` is shared
    by those threads, so it must be stateless (the scripted user is).
    """
    units = [(scenario, s) for s in (list(seeds) if seeds is not None else [seed]) for scenario in scenarios
             if (scenario.id, s) not in skip]
    bar = None
    if progress:
        import sys

        from tqdm import tqdm

        bar = tqdm(total=len(units), desc="episodes", file=sys.stderr)

    def done(record: EpisodeRecord) -> EpisodeRecord:
        log.info("%s seed %d: %s (F1 %.3f, %d steps)", record.scenario_id, record.seed,
                 "errored" if record.error else ("passed" if record.passed else "failed"), record.entity_f1, record.steps)
        if on_record is not None:
            on_record(record)
        if bar is not None:
            bar.update()
        return record

    records: list[EpisodeRecord] = []
    if not units:
        pass
    elif concurrency <= 1:
        first = make_agent()
        env = MMToolSandboxEnv(scenarios=list(scenarios), **env_kwargs_for(first, env_kwargs))
        try:
            for k, (scenario, s) in enumerate(units):
                agent = first if k == 0 else make_agent()
                records.append(done(run_episode(scenario, agent, seed=s, env=env, capture_images=capture_images,
                                                agent_name=agent_name, user_judge=user_judge)))
        finally:
            env.close()
    else:
        from concurrent.futures import ThreadPoolExecutor

        def one(unit: tuple[Scenario, int]) -> EpisodeRecord:
            scenario, s = unit
            return done(run_episode(scenario, make_agent(), seed=s, env_kwargs=env_kwargs,
                                    capture_images=capture_images, agent_name=agent_name, user_judge=user_judge))

        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            records = list(pool.map(one, units))
    if bar is not None:
        bar.close()
    return records
