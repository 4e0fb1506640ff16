"""Ray: sharded episodes on a local 2-CPU cluster give the sequential run's records, and Parquet."""

import dataclasses
import os

import pytest

ray = pytest.importorskip("ray")

import mmtsb_env  # noqa: E402
from mmtsb_env.baselines import make_agent  # noqa: E402
from mmtsb_env.distributed import EpisodeWorker, run_distributed  # noqa: E402
from mmtsb_env.export import read_parquet  # noqa: E402
from mmtsb_env.runner import run_suite  # noqa: E402

DEMO = mmtsb_env.load_suite("demo")


@pytest.fixture(scope="module")
def local_ray():
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _comparable(record):
    data = dataclasses.asdict(record)
    data.pop("duration_s")
    data.pop("images")
    # Tool order in schemas follows module import order, which differs between a fresh Ray worker and
    # this test process; compare the offered tools as a set (see the report).
    data["tools"] = sorted(data["tools"], key=lambda t: t["function"]["name"])
    return data


@pytest.mark.slow
def test_two_workers_match_the_sequential_run(local_ray, tmp_path):
    scenarios = DEMO[:4]
    records = run_distributed(scenarios, "oracle", num_workers=2, seeds=[0, 1], env_kwargs={"mode": "code"}, out_dir=tmp_path)
    assert [(r.scenario_id, r.seed) for r in records] == [(s.id, seed) for s in scenarios for seed in (0, 1)]
    assert all(r.mode == "code" and r.passed for r in records)  # env_kwargs reached the workers
    assert records[0].messages[2]["content"].startswith("```python")
    for seed in (0, 1):
        sequential = run_suite(scenarios, lambda: make_agent("oracle", scenarios=scenarios, mode="code"), seed=seed,
                               env_kwargs={"mode": "code"}, agent_name="oracle")
        distributed = [r for r in records if r.seed == seed]
        for got, want in zip(distributed, sequential):
            got, want = _comparable(got), _comparable(want)
            assert {k: got[k] for k in got if got[k] != want[k]} == {}, (want["scenario_id"], {k: want[k] for k in got if got[k] != want[k]})
    assert ray.is_initialized()  # a Ray started by the caller is left running
    back = read_parquet(tmp_path / "trajectories.parquet")
    assert [(r.scenario_id, r.seed) for r in back] == [(r.scenario_id, r.seed) for r in records]
    assert all(r.images for r in back) and (tmp_path / "steps.parquet").exists()
    with pytest.raises(ValueError, match="num_workers must be >= 1"):
        run_distributed(DEMO[:1], "oracle", num_workers=0)


def test_worker_without_ray():
    worker = EpisodeWorker(DEMO, "oracle", capture_images=True)
    first, second = worker.play_many([(0, 0), (1, 3)])
    assert (first.scenario_id, second.scenario_id, second.seed) == (DEMO[0].id, DEMO[1].id, 3)
    assert first.passed and len(first.images) == len(first.image_sources) > 0
