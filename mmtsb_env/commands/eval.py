"""``mmtsb eval``: run an agent over a suite; print Agent SR, mean entity F1 and average steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer


def evaluate(
    suite: str = typer.Option("demo", help="suite name or folder"),
    agent: str = typer.Option("oracle", help="agent name (see mmtsb_env.baselines.AGENTS)"),
    mode: str = typer.Option("tool", help="tool | code"),
    limit: Optional[int] = typer.Option(None, help="only the first N scenarios"),
    out: Optional[Path] = typer.Option(None, help="folder for results.json"),
    seed: int = typer.Option(0),
) -> None:
    """Evaluate an agent on a suite."""
    import mmtsb_env
    from mmtsb_env.baselines import make_agent
    from mmtsb_env.runner import run_suite

    scenarios = mmtsb_env.load_suite(suite)[:limit]
    records = run_suite(scenarios, lambda: make_agent(agent, scenarios=scenarios, mode=mode, seed=seed),
                        seed=seed, env_kwargs={"mode": mode}, progress=True, agent_name=agent)
    scored = [r for r in records if r.error is None]
    n = max(1, len(scored))
    summary = {
        "suite": suite, "agent": agent, "mode": mode, "episodes": len(records),
        "errored": len(records) - len(scored),
        "agent_sr": sum(r.passed for r in scored) / n,
        "mean_entity_f1": sum(r.entity_f1 for r in scored) / n,
        "avg_steps": sum(r.steps for r in scored) / n,
    }
    typer.echo(json.dumps(summary, indent=2))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps({"summary": summary, "episodes": [r.to_json() for r in records]}, indent=2))


def register(app: typer.Typer) -> None:
    app.command(name="eval")(evaluate)
