"""Shared fixtures: oracle records of the demo suite (images captured), played once per session."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.runner import run_suite

DEMO = mmtsb_env.load_suite("demo")


@pytest.fixture(scope="session")
def demo_records():
    return run_suite(DEMO, lambda: OracleAgent(DEMO), capture_images=True, agent_name="oracle")


@pytest.fixture(scope="session")
def demo_parquet(demo_records, tmp_path_factory):
    from mmtsb_env.export import write_parquet

    path = tmp_path_factory.mktemp("export") / "demo.parquet"
    write_parquet(demo_records, path, steps_path=path.with_name("demo_steps.parquet"), row_group_size=4)
    return path
