"""``mmtsb eval``: run an agent over a suite, judge it, print the metrics, optionally write a run folder.

Judges: ``--judge rubric`` (default) is the deterministic rubric judge used in the episode's
reward. ``--judge llm`` re-judges every finished episode with :class:`~mmtsb_env.evaluation.LLMJudge`
through a chat backend named by ``--judge-backend``, built by ``mmtsb_env.llm.make_backend``
(provided by the LLM backends; without it the option is refused with an explanation). An episode
whose judge call fails for good is marked errored and reported apart. The deterministic user
judge runs on every episode unless ``--no-user-judge``.

With ``--out DIR`` the run is written as ``DIR/results.json``, ``DIR/trajectories.parquet`` (unless
``--no-images``) and, unless ``--no-report``, the report of ``mmtsb report DIR`` (markdown, JSON,
plots, HTML viewer). ``--ray local`` (or a cluster address) shards the episodes over Ray workers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer


def _judge_backend(spec: Optional[str]) -> Any:
    if not spec:
        raise typer.BadParameter("--judge llm needs --judge-backend NAME (a chat backend for the judge)", param_hint="--judge-backend")
    try:
        from mmtsb_env.llm import make_backend  # type: ignore[attr-defined]
    except ImportError:
        raise typer.BadParameter(
            "--judge llm needs the chat-backend factory mmtsb_env.llm.make_backend, which this build does not provide yet; "
            "use --judge rubric", param_hint="--judge") from None
    return make_backend(spec)


def evaluate(
    suite: str = typer.Option("demo", help="suite name or folder"),
    agent: str = typer.Option("oracle", help="agent name (see mmtsb_env.baselines.AGENTS)"),
    mode: str = typer.Option("tool", help="tool | code"),
    limit: Optional[int] = typer.Option(None, help="only the first N scenarios"),
    out: Optional[Path] = typer.Option(None, help="run folder: results.json and the report are written here"),
    seed: int = typer.Option(0),
    judge: str = typer.Option("rubric", help="rubric (deterministic, default) | llm (re-judge with --judge-backend)"),
    judge_backend: Optional[str] = typer.Option(None, help="backend name for --judge llm (built by mmtsb_env.llm.make_backend)"),
    judge_cache: Optional[Path] = typer.Option(None, help="folder caching LLM verdicts (default: OUT/judge_cache)"),
    user_judge: bool = typer.Option(True, help="run the deterministic user judge"),
    images: bool = typer.Option(True, help="store episode images (base64 PNG) in results.json"),
    report: bool = typer.Option(True, help="write report.md/report.json/plots/viewer.html into --out"),
    ray: Optional[str] = typer.Option(None, "--ray", help="shard episodes over Ray: 'local' or a cluster address"),
    workers: int = typer.Option(2, help="Ray workers (with --ray)"),
    model: Optional[str] = typer.Option(None, help="model path (hf, vllm) or served model name (openai)"),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1"),
    user: str = typer.Option("scripted", help="scripted | llm (the user simulator plays through the agent's backend)"),
    concurrency: int = typer.Option(1, help="episodes run at once (threads; one model server serves them all)"),
    max_tokens: Optional[int] = typer.Option(None, help="sampling: max new tokens per model call"),
    temperature: Optional[float] = typer.Option(None, help="sampling temperature"),
    tool_format: Optional[str] = typer.Option(None, help="how tools are shown to a model: native | compact | none"),
) -> None:
    """Evaluate an agent on a suite."""
    if judge not in ("rubric", "llm"):
        raise typer.BadParameter(f"must be 'rubric' or 'llm', got {judge!r}", param_hint="--judge")
    llm_backend = _judge_backend(judge_backend) if judge == "llm" else None

    import mmtsb_env
    from mmtsb_env.baselines import make_agent
    from mmtsb_env.evaluation import (
        LLMJudge, UserJudge, compute_metrics, episode_json, evidence_from_record, user_evidence_from_record, write_report,
    )
    from mmtsb_env.llm.base import BackendError
    from mmtsb_env.runner import run_suite

    if user not in ("scripted", "llm"):
        raise typer.BadParameter(f"must be 'scripted' or 'llm', got {user!r}", param_hint="--user")
    agent_options = {k: v for k, v in {"model": model, "base_url": base_url, "max_tokens": max_tokens,
                                       "temperature": temperature, "tool_format": tool_format,
                                       "concurrency": concurrency if concurrency > 1 else None}.items() if v is not None}
    env_kwargs: dict[str, Any] = {"mode": mode}
    if user == "llm" and concurrency > 1:
        raise typer.BadParameter("--user llm keeps per-episode state: use --concurrency 1 with it", param_hint="--user")
    if user == "llm":
        from mmtsb_env.llm import make_backend
        from mmtsb_env.users.llm_user import LLMUser

        kind = agent if agent in ("hf", "vllm", "openai") else "openai"
        env_kwargs["user"] = LLMUser(make_backend(kind, model, base_url=base_url))

    scenarios = mmtsb_env.load_suite(suite)[:limit]
    by_id = {s.id: s for s in scenarios}
    capture = (out is not None and images) or llm_backend is not None
    if ray is not None:
        from mmtsb_env.distributed import run_distributed

        records = run_distributed(scenarios, agent, num_workers=workers, address=None if ray == "local" else ray,
                                  seed=seed, env_kwargs={"mode": mode}, agent_options=agent_options, capture_images=capture)
    else:
        records = run_suite(scenarios, lambda: make_agent(agent, scenarios=scenarios, mode=mode, seed=seed, **agent_options),
                            seed=seed, env_kwargs=env_kwargs, progress=True, agent_name=agent, capture_images=capture,
                            concurrency=concurrency)
    if llm_backend is not None:
        cache = judge_cache or (out / "judge_cache" if out is not None else None)
        llm = LLMJudge(llm_backend, cache_dir=cache)
        for r in records:
            if r.error is not None:
                continue
            try:
                verdict = llm.evaluate(evidence_from_record(r, by_id[r.scenario_id]))
            except BackendError as exc:
                r.error, r.passed = f"judge error: {exc}", False
                continue
            r.verdict, r.passed = verdict.to_json(), verdict.passed
    user_verdicts = [UserJudge().evaluate(user_evidence_from_record(r, by_id[r.scenario_id])) for r in records] if user_judge else None
    metrics = compute_metrics(records, by_id, user_verdicts)
    summary = {
        "suite": suite, "agent": agent, "mode": mode, "judge": judge if llm_backend is None else f"llm:{judge_backend}",
        "episodes": metrics["episodes"], "errored": metrics["errored"]["count"], "agent_sr": metrics["agent_sr"],
        "mean_entity_f1": metrics["mean_entity_f1"], "avg_steps": metrics["avg_steps"], "user_sr": metrics["user_sr"],
        "surfaced_tool_recall": metrics["tool_recall"]["surfaced"], "invoked_tool_recall": metrics["tool_recall"]["invoked"],
    }
    typer.echo(json.dumps(summary, indent=2))
    if out is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    config = {"suite": suite, "agent": agent, "mode": mode, "seed": seed, "limit": limit, "judge": summary["judge"],
              "user_judge": user_judge}
    episodes = [episode_json(r, scenario=by_id[r.scenario_id], user_verdict=user_verdicts[i] if user_verdicts else None,
                             with_images=images) for i, r in enumerate(records)]
    payload = {"format": "mmtsb-results-1", "config": config, "summary": summary, "metrics": metrics, "episodes": episodes}
    (out / "results.json").write_text(json.dumps(payload, indent=1, default=str), encoding="utf-8")
    typer.echo(f"wrote {out / 'results.json'}")
    if images:
        from mmtsb_env.export import export_run

        export_run(records, out)
        typer.echo(f"wrote {out / 'trajectories.parquet'}")
    if report:
        paths = write_report(out, results=payload)
        typer.echo(f"wrote {paths['markdown']}, {paths['json']}, {paths.get('viewer', '')}".rstrip(", "))


def register(app: typer.Typer) -> None:
    app.command(name="eval")(evaluate)
