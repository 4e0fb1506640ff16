"""Shard episodes across Ray workers (one machine or a cluster) and gather their records.

An episode is fully described by (scenario, seed, config), so a work unit is just that: each
Ray actor builds one environment from ``env_kwargs``, receives the scenario list once, and
plays the units it is handed with a fresh agent built by name (``make_agent``). Units are
load-balanced (an idle worker takes the next one) and the records come back in input order,
identical to a sequential :func:`~mmtsb_env.runner.run_suite` except for timings.

Requires ``ray`` (``pip install mmtsb-env[ray]``). On a cluster every node needs mmtsb_env
installed (or pass ``runtime_env``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Collection, Sequence

from .runner import EpisodeRecord
from .scenario.model import Scenario


class EpisodeWorker:
    """Plays work units in one process (the body of the Ray actor; usable without Ray too).

    >>> import mmtsb_env
    >>> w = EpisodeWorker(mmtsb_env.load_suite("demo"), "oracle")
    >>> rec = w.play(0, 0)
    >>> rec.scenario_id, rec.passed
    ('demo/compare_receipts', True)
    """

    def __init__(self, scenarios: Sequence[Scenario], agent_name: str, env_kwargs: dict[str, Any] | None = None,
                 agent_options: dict[str, Any] | None = None, capture_images: bool = False,
                 user_judge: bool = True) -> None:
        from .envs.gym_env import MMToolSandboxEnv
        from .envs.options import EnvOptions
        from .runner import env_kwargs_for

        self.scenarios = list(scenarios)
        self.agent_name = agent_name
        self.env_kwargs = dict(env_kwargs or {})
        self.agent_options = dict(agent_options or {})
        self.capture_images = capture_images
        self.user_judge = user_judge
        options = {k: v for k, v in self.env_kwargs.items() if k not in ("mode", "user")}
        self.mode = EnvOptions.from_kwargs(self.env_kwargs.get("mode"), options).mode
        self.env = MMToolSandboxEnv(scenarios=self.scenarios, **env_kwargs_for(self._agent(0), self.env_kwargs))

    def _agent(self, seed: int) -> Any:
        from .baselines import make_agent

        return make_agent(self.agent_name, scenarios=self.scenarios, mode=self.mode, seed=seed, **self.agent_options)

    def play(self, scenario_index: int, seed: int) -> EpisodeRecord:
        from .runner import run_episode

        agent = self._agent(seed)
        return run_episode(self.scenarios[scenario_index], agent, seed=seed, env=self.env,
                           capture_images=self.capture_images, agent_name=self.agent_name, user_judge=self.user_judge)

    def play_many(self, units: Sequence[tuple[int, int]]) -> list[EpisodeRecord]:
        return [self.play(i, seed) for i, seed in units]


def run_distributed(
    scenarios: Sequence[Scenario],
    agent_name: str,
    *,
    num_workers: int,
    address: str | None = None,
    seed: int = 0,
    seeds: Sequence[int] | None = None,
    env_kwargs: dict[str, Any] | None = None,
    agent_options: dict[str, Any] | None = None,
    out_dir: str | Path | None = None,
    capture_images: bool | None = None,
    cpus_per_worker: float = 1.0,
    runtime_env: dict[str, Any] | None = None,
    skip: Collection[tuple[str, int]] = (),
    on_record: Callable[[EpisodeRecord], None] | None = None,
    progress: bool = False,
    user_judge: bool = True,
) -> list[EpisodeRecord]:
    """Play every scenario (for every seed) on ``num_workers`` Ray actors; records in input order.

    Args:
        scenarios: the scenarios to play.
        agent_name: a registered agent (:func:`mmtsb_env.baselines.make_agent`).
        num_workers: Ray actors, each with its own environment.
        address: Ray cluster address (``"auto"``, ``"ray://host:10001"`` ...); ``None`` starts or
            reuses a local Ray. A Ray already initialised in this process is reused either way, and
            only a Ray started here is shut down at the end.
        seed, seeds: reset seed of every episode, or several seeds (each scenario once per seed,
            scenario-major order).
        env_kwargs: :class:`~mmtsb_env.MMToolSandboxEnv` options (``mode``, ``max_images`` ...).
        agent_options: extra options for the agent factory.
        out_dir: also write ``out_dir/trajectories.parquet`` and ``steps.parquet`` there
            (:func:`mmtsb_env.export.export_run`).
        capture_images: keep PNGs in the records (default: only when ``out_dir`` is given).
        cpus_per_worker: Ray CPUs reserved per actor (``num_workers * cpus_per_worker`` must fit the cluster).
        runtime_env: Ray runtime environment for the workers.
        skip: (scenario id, seed) pairs not to play (resuming a run).
        on_record: called with each record as it arrives (in input order).
        progress: show a progress bar on stderr.
        user_judge: judge the user seat (with its counterfactual replay); False leaves ``user_verdict`` empty.
    """
    import ray
    from ray.util import ActorPool

    if num_workers < 1:
        raise ValueError(f"num_workers must be >= 1, got {num_workers}")
    scenarios = list(scenarios)
    seed_list = list(seeds) if seeds is not None else [seed]
    units = [(i, s) for i in range(len(scenarios)) for s in seed_list if (scenarios[i].id, s) not in skip]
    if not units:
        return []
    if capture_images is None:
        capture_images = out_dir is not None
    started = False
    if not ray.is_initialized():
        init: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is not None:
            init["address"] = address
        if runtime_env is not None:
            init["runtime_env"] = runtime_env
        ray.init(**init)
        started = True
    try:
        remote = ray.remote(num_cpus=cpus_per_worker)(EpisodeWorker)
        shared = ray.put(scenarios)
        workers = [remote.remote(shared, agent_name, env_kwargs, agent_options, capture_images, user_judge)
                   for _ in range(min(num_workers, max(1, len(units))))]
        pool = ActorPool(workers)
        bar = None
        if progress:
            import sys

            from tqdm import tqdm

            bar = tqdm(total=len(units), desc="episodes", file=sys.stderr)
        records: list[EpisodeRecord] = []
        for record in pool.map(lambda w, u: w.play.remote(*u), units):
            records.append(record)
            if on_record is not None:
                on_record(record)
            if bar is not None:
                bar.update()
        if bar is not None:
            bar.close()
        for w in workers:
            ray.kill(w)
    finally:
        if started:
            ray.shutdown()
    if out_dir is not None:
        from .export import export_run

        export_run(records, out_dir)
    return records
