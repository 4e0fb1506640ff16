"""``mmtsb eval``: run an agent over a suite, judge it, print the metrics, optionally write a run folder.

Every env option has a flag (``--harness``, ``--toolbox``, ``--tool-search``, ``--tool-universe``,
``--tool-ranker``, ``--working-set``, ``--coding-tool``, ``--max-messages``, ``--max-steps``,
``--time-limit``, ``--max-images``, ``--image-size``, ``--message-images``, ``--judge-weight``,
``--code-timeout``, ``--code-memory-mb``). All options are checked before anything runs; a bad
value ends the command with one ``error: ...`` line naming it and what is valid (exit code 2).

Judges: ``--judge rubric`` (default) is the deterministic rubric judge used in the episode's
reward. ``--judge llm`` re-judges every finished episode with :class:`~mmtsb_env.evaluation.LLMJudge`
through a chat backend named by ``--judge-backend`` (``mmtsb_env.llm.make_backend``). An episode
whose judge call fails for good is marked errored and reported apart. The deterministic user
judge runs on every episode unless ``--no-user-judge``: its rule checks of the user seat and the
counterfactual replay of the user policy (the assistant's actions replayed against the user with
every hidden field changed; ``docs/users.md``). ``--no-user-judge`` skips both (no ``user_sr``).

With ``--out DIR`` each finished episode is appended to ``DIR/episodes.jsonl`` (images once, in
``DIR/images/``), so ``--resume`` continues an interrupted run (a folder holding a run is refused
unless ``--resume`` or ``--overwrite``); at the end ``DIR/results.json``
(with the run's metadata: versions, options, seeds, base-world fingerprint), the Parquet files and,
unless ``--no-report``, the report of ``mmtsb report DIR`` are written. ``--seeds 0,1,2`` repeats
the suite per seed. ``--ray local`` (or a cluster address) shards the episodes over Ray workers.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Optional

import typer

from ._common import as_flag, fail, parse_image_size, parse_seeds, setup_logging

USERS = ("scripted", "llm")
# Named in --help without importing them (tests/commands/test_cli_polish.py keeps these in step).
AGENT_NAMES = ("oracle", "reference-oracle", "random", "hf", "vllm", "openai")
SUITES = ("demo", "nominal", "extended", "ui")
JUDGES = ("rubric", "llm")


def _judge_backend(spec: Optional[str]) -> Any:
    if not spec:
        fail("--judge llm needs --judge-backend NAME (a chat backend for the judge)")
    try:
        from mmtsb_env.llm import make_backend  # type: ignore[attr-defined]
    except ImportError:
        fail("--judge llm needs the chat-backend factory mmtsb_env.llm.make_backend; use --judge rubric")
    return make_backend(spec)


def _user_policy(user: str, agent: str, model: Optional[str], base_url: Optional[str],
                 user_model: Optional[str], user_base_url: Optional[str]) -> Any:
    """The LLM user: its own backend (``--user-model/--user-base-url``) or the agent's."""
    from mmtsb_env.llm import make_backend
    from mmtsb_env.users.llm_user import LLMUser

    if user_model or user_base_url:
        backend = make_backend(user_model or "openai", base_url=user_base_url)
    else:
        backend = make_backend(agent if agent in ("hf", "vllm", "openai") else "openai", model, base_url=base_url)
    return LLMUser(backend)


def evaluate(
    suite: str = typer.Option("demo", help=f"{' | '.join(SUITES)} (built in), or a folder of scenario files"),
    agent: str = typer.Option("oracle", help=f"{' | '.join(AGENT_NAMES)} (model agents need --model or --base-url)"),
    harness: Optional[str] = typer.Option(None, help="preset: paper | tool | search | search_code | code (docs/harness.md)"),
    mode: Optional[str] = typer.Option(None, help="tool | code (default: the harness's, else tool)"),
    toolbox: Optional[str] = typer.Option(None, help="full | medium | compact | mini"),
    tool_search: Optional[bool] = typer.Option(None, "--tool-search/--no-tool-search", help="discover tools with the search tool"),
    tool_universe: Optional[str] = typer.Option(None, help="scenario | toolbox (what search can reach; default toolbox with search)"),
    tool_ranker: Optional[str] = typer.Option(None, help="bm25 | keyword (the reference's) | hybrid"),
    working_set: Optional[int] = typer.Option(None, help="LRU size of the tools found by search (default 100)"),
    coding_tool: Optional[bool] = typer.Option(None, "--coding-tool/--no-coding-tool", help="pin execute_code next to the search tool"),
    max_messages: Optional[int] = typer.Option(None, help="message cap per episode (default: the scenario's)"),
    max_steps: Optional[int] = typer.Option(None, help="cap on the actions of both seats (paper: 100)"),
    time_limit: Optional[float] = typer.Option(None, help="wall-clock seconds per episode; then truncated and judged"),
    max_images: Optional[int] = typer.Option(None, help="image slots in the observation (0: none)"),
    image_size: Optional[str] = typer.Option(None, help="image slot size: N or HxW"),
    message_images: Optional[str] = typer.Option(None, help="url (data URLs in messages) | id (image ids only)"),
    judge_weight: Optional[float] = typer.Option(None, help="weight of the terminal verdict in the reward"),
    code_timeout: Optional[float] = typer.Option(None, help="seconds per code execution"),
    code_memory_mb: Optional[int] = typer.Option(None, help="memory cap of the code sandbox's worker process (MiB)"),
    code_isolation: Optional[str] = typer.Option(None, help="process (default: a clean worker) | thread (trusted code only)"),
    entity_scope: Optional[str] = typer.Option(None, help="tables the F1 scores: auto (default) | all | reference (only the expected ones)"),
    image_folder: Optional[Path] = typer.Option(None, "--images-dir", help="folder of path images (imported reference scenarios)"),
    stand_in_images: bool = typer.Option(False, "--stand-in-images", help="draw a labelled placeholder for a missing path image"),
    code_jail: Optional[str] = typer.Option(None, help="required (default: the worker runs in the kernel jail) | off (trusted code only)"),
    limit: Optional[int] = typer.Option(None, help="only the first N scenarios"),
    out: Optional[Path] = typer.Option(None, help="run folder: results.json, Parquet and the report are written here"),
    resume: bool = typer.Option(False, help="continue the run in --out: skip its finished episodes"),
    overwrite: bool = typer.Option(False, help="replace the run in --out (without it, a folder holding a run is refused)"),
    seed: int = typer.Option(0, help="reset seed (see --seeds)"),
    seeds: Optional[str] = typer.Option(None, help="comma-separated seeds, e.g. 0,1,2: the suite once per seed"),
    judge: str = typer.Option("rubric", help="rubric (deterministic, default) | llm (re-judge with --judge-backend)"),
    judge_backend: Optional[str] = typer.Option(None, help="backend for --judge llm (built by mmtsb_env.llm.make_backend)"),
    judge_cache: Optional[Path] = typer.Option(None, help="folder caching LLM verdicts (default: OUT/judge_cache)"),
    user_judge: bool = typer.Option(True, help="judge the user seat: its rule checks and the counterfactual replay "
                                    "of the user (hidden fields changed, user turns compared); "
                                    "--no-user-judge skips both"),
    images: Optional[bool] = typer.Option(None, help="store episode images in --out (default: when the agent reads images)"),
    report: bool = typer.Option(True, help="write report.md/report.json/plots/viewer.html into --out"),
    ray: Optional[str] = typer.Option(None, "--ray", help="shard episodes over Ray: 'local' or a cluster address"),
    workers: int = typer.Option(2, help="Ray workers (with --ray)"),
    model: Optional[str] = typer.Option(None, help="model path (hf, vllm) or served model name (openai)"),
    base_url: Optional[str] = typer.Option(None, help="OpenAI-compatible server URL, e.g. http://127.0.0.1:8000/v1"),
    user: str = typer.Option("scripted", help="scripted | llm (a model plays the user)"),
    user_model: Optional[str] = typer.Option(None, help="backend spec or model of the LLM user (default: the agent's)"),
    user_base_url: Optional[str] = typer.Option(None, help="server URL of the LLM user (default: the agent's)"),
    concurrency: int = typer.Option(1, help="episodes run at once (threads; one model server serves them all)"),
    max_tokens: Optional[int] = typer.Option(None, help="sampling: max new tokens per model call"),
    temperature: Optional[float] = typer.Option(None, help="sampling temperature"),
    tool_format: Optional[str] = typer.Option(None, help="how tools are shown to a model: native | compact | none"),
    token_in: bool = typer.Option(False, "--token-in", help="--agent vllm with a server: sample token in, token out "
                                  "(the exported token ids and logprobs are the server's own)"),
    processor: Optional[Path] = typer.Option(None, help="with --token-in: the served model's folder (its processor "
                                             "renders the episode; default: the folder the server reports)"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="log every episode"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar, warnings only"),
) -> None:
    """Evaluate an agent on a suite."""
    setup_logging(verbose, quiet)
    # ---------------------------------------------------------------- check everything first
    if judge not in JUDGES:
        fail(f"--judge must be 'rubric' or 'llm', got {judge!r}")
    if user not in USERS:
        fail(f"--user must be 'scripted' or 'llm', got {user!r}")
    if user == "llm" and concurrency > 1:
        fail("--user llm keeps per-episode state: use --concurrency 1 with it")
    if user == "llm" and ray is not None:
        fail("--user llm runs in this process only: drop --ray (or use --user scripted)")
    if concurrency < 1 or workers < 1:
        fail(f"--concurrency and --workers must be >= 1, got {concurrency} and {workers}")
    if limit is not None and limit < 1:
        fail(f"--limit must be >= 1, got {limit}")
    if resume and out is None:
        fail("--resume needs --out DIR (the run folder to continue)")
    if resume and overwrite:
        fail("--resume and --overwrite exclude each other: continue the run in --out, or replace it")
    if token_in and agent != "vllm":
        fail(f"--token-in samples from a vLLM server: use it with --agent vllm, not --agent {agent}")
    if processor is not None and not token_in:
        fail("--processor is only used with --token-in")
    if tool_format not in (None, "native", "compact", "none"):
        fail(f"--tool-format must be native, compact or none, got {tool_format!r}")
    seed_list = parse_seeds(seeds, seed)
    env_kwargs = {k: v for k, v in {
        "harness": harness, "toolbox": toolbox, "tool_search": tool_search, "tool_universe": tool_universe,
        "tool_ranker": tool_ranker, "working_set": working_set, "coding_tool": coding_tool,
        "max_messages": max_messages, "max_steps": max_steps, "time_limit_s": time_limit, "max_images": max_images,
        "image_size": parse_image_size(image_size), "message_images": message_images, "judge_weight": judge_weight,
        "code_timeout_s": code_timeout, "code_memory_mb": code_memory_mb,
        "code_isolation": code_isolation, "code_jail": code_jail, "entity_scope": entity_scope,
        "image_root": None if image_folder is None else str(image_folder),
        "stand_in_images": stand_in_images or None}.items() if v is not None}

    from mmtsb_env.envs.options import EnvOptions

    try:
        options = EnvOptions.from_kwargs(mode, env_kwargs)
    except (ValueError, TypeError) as exc:
        fail(as_flag(str(exc)))
    env_kwargs["mode"] = options.mode

    from mmtsb_env.baselines import AGENTS, make_agent

    if agent not in AGENTS:
        fail(f"--agent {agent!r} is not known; choose one of: {', '.join(sorted(AGENTS))}")
    if agent in ("hf", "vllm", "openai") and not (model or base_url):
        fail(f"--agent {agent} needs --model (a model path or served name) or --base-url")
    from ._backends import check_model_dir, check_server, ensure_vllm

    if agent in ("hf", "vllm"):
        check_model_dir("--model", model)
    served = bool(base_url) or str(model or "").startswith(("http://", "https://"))
    if (agent == "vllm" and not served) or (user == "llm" and user_model == "vllm"):
        ensure_vllm()  # in-process vLLM; a server needs nothing of it here
    if agent == "vllm" and served:
        check_server("--model" if not base_url else "--base-url", base_url or model)
    if agent == "openai":  # (an LLM user whose server fails falls back to its script, by design: docs/users.md)
        check_server("--base-url", base_url)
    import mmtsb_env

    try:
        scenarios = mmtsb_env.load_suite(suite)[:limit]
    except (FileNotFoundError, KeyError, ValueError) as exc:
        fail(f"--suite {suite!r}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    if not scenarios:
        fail(f"--suite {suite!r} has no scenarios")
    from mmtsb_env.episode.images import describe_missing, missing_image_files

    missing = missing_image_files(scenarios, options.image_root)
    if options.image_root is not None:
        from mmtsb_env.scenario.importer import dataset_table

        typer.echo(dataset_table(scenarios, options.image_root), err=True)
    if missing and not options.stand_in_images:
        fail(describe_missing(missing, options.image_root) + "; pass --images-dir DIR (the datasets' parent folder) "
             "or --stand-in-images to run with labelled placeholders")
    llm_backend = _judge_backend(judge_backend) if judge == "llm" else None

    from mmtsb_env.evaluation import LLMJudge, compute_metrics, evidence_from_record
    from mmtsb_env.evaluation.legend import METRIC_LEGEND
    from mmtsb_env.evaluation.report import episode_json, write_report
    from mmtsb_env.llm.base import BackendError
    from mmtsb_env.provenance import run_metadata
    from mmtsb_env.runner import reads_images, run_suite

    agent_options = {k: v for k, v in {"model": model, "base_url": base_url, "max_tokens": max_tokens,
                                       "temperature": temperature, "tool_format": tool_format,
                                       "token_in": token_in or None, "processor": None if processor is None else str(processor),
                                       "concurrency": concurrency if concurrency > 1 else None}.items() if v is not None}
    if options.tool_search and agent in ("oracle", "reference-oracle"):
        agent_options["search"] = True

    def new_agent() -> Any:
        return make_agent(agent, scenarios=scenarios, mode=options.mode, seed=seed_list[0], **agent_options)

    try:
        probe = new_agent()
    except (ValueError, TypeError, ImportError, BackendError) as exc:
        fail(f"--agent {agent}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
    if images is None:
        images = reads_images(probe)
    if user == "llm":
        env_kwargs["user"] = _user_policy(user, agent, model, base_url, user_model, user_base_url)
    judge_name = judge if llm_backend is None else f"llm:{judge_backend}"
    metadata = run_metadata(
        env_options=options.to_json(), suite=suite, seeds=seed_list, world_seeds={s.world_seed for s in scenarios},
        agent={"name": agent, "class": type(probe).__name__, "reads_images": reads_images(probe),
               **{k: agent_options[k] for k in ("model", "base_url", "concurrency", "search") if k in agent_options}},
        sampling={k: agent_options[k] for k in ("max_tokens", "temperature", "tool_format", "token_in") if k in agent_options},
        judge={"judge": judge_name, "judge_weight": options.judge_weight, "user_judge": user_judge},
        user={"user": user, "model": user_model, "base_url": user_base_url}, limit=limit, images=images,
    )

    folder = None
    if out is not None:
        from mmtsb_env.runfolder import RunFolder, RunFolderError

        try:
            folder = RunFolder.open(out, metadata, resume=resume, overwrite=overwrite)
        except RunFolderError as exc:
            fail(str(exc))
        if folder.records:
            logging.getLogger("mmtsb_env").warning("resuming %s: %d episode(s) already done", out, len(folder.records))
    by_id = {s.id: s for s in scenarios}
    capture = bool(out is not None and images) or llm_backend is not None
    llm = None
    if llm_backend is not None:
        llm = LLMJudge(llm_backend, cache_dir=judge_cache or (out / "judge_cache" if out is not None else None))

    collected: list[Any] = []

    def finish(record: Any) -> None:
        if llm is not None and record.error is None:
            try:
                verdict = llm.evaluate(evidence_from_record(record, by_id[record.scenario_id]))
            except BackendError as exc:
                record.error, record.passed = f"judge error: {exc}", False
            else:
                record.verdict, record.passed = verdict.to_json(), verdict.passed
        if folder is not None:
            folder.add(record)
        else:
            collected.append(record)

    skip = folder.finished if folder is not None else set()
    try:
        if ray is not None:
            from mmtsb_env.distributed import run_distributed

            run_distributed(scenarios, agent, num_workers=workers, address=None if ray == "local" else ray, seeds=seed_list,
                            env_kwargs=env_kwargs, agent_options=agent_options, capture_images=capture, skip=skip,
                            on_record=finish, progress=not quiet, user_judge=user_judge)
        else:
            run_suite(scenarios, new_agent, seeds=seed_list, env_kwargs=env_kwargs, progress=not quiet, agent_name=agent,
                      capture_images=capture, concurrency=concurrency, skip=skip, on_record=finish,
                      user_judge=user_judge)
    except KeyboardInterrupt:
        _interrupted(out, len(folder.records) if folder is not None else len(collected))
    records = folder.records if folder is not None else collected
    records = _in_run_order(records, scenarios, seed_list)
    if not user_judge:  # records resumed from a run judged with it
        for r in records:
            r.user_verdict = {}
    metrics = compute_metrics(records, by_id)
    summary = {
        "suite": suite, "agent": agent, "harness": harness, "mode": options.mode, "judge": judge_name,
        "seeds": seed_list, "episodes": metrics["episodes"], "errored": metrics["errored"]["count"],
        "agent_sr": metrics["agent_sr"], "mean_entity_f1": metrics["mean_entity_f1"], "avg_steps": metrics["avg_steps"],
        "avg_assistant_steps": metrics["avg_assistant_steps"],
        "user_sr": metrics["user_sr"], "surfaced_tool_recall": metrics["tool_recall"]["surfaced"],
        "invoked_tool_recall": metrics["tool_recall"]["invoked"],
    }
    typer.echo(json.dumps(summary, indent=2))
    typer.echo(METRIC_LEGEND, err=True)
    all_errored = bool(records) and all(r.error for r in records)
    if any(r.error for r in records):
        _errored_lines(records)
    if folder is None:
        _next_steps(suite, agent, harness, len(records))
        if all_errored:
            raise typer.Exit(1)
        return
    config = {"suite": suite, "agent": agent, "harness": harness, "mode": options.mode, "seeds": seed_list,
              "limit": limit, "judge": judge_name, "user_judge": user_judge}
    episodes = []
    for r in records:
        ep = episode_json(r, scenario=by_id[r.scenario_id], with_images=False)
        if r.images:
            ep["image_files"] = folder.image_files(r)
        episodes.append(ep)
    payload = {"format": "mmtsb-results-1", "metadata": folder.metadata, "config": config, "summary": summary,
               "metrics": metrics, "episodes": episodes}
    (out / "results.json").write_text(json.dumps(payload, separators=(",", ":"), default=str), encoding="utf-8")
    typer.echo(f"wrote {out / 'results.json'}")
    from mmtsb_env.export import export_run

    export_run(records, out, missing_images="restore" if images else "drop", metadata=folder.metadata)
    typer.echo(f"wrote {out / 'trajectories.parquet'}")
    if report:
        paths = write_report(out, results=payload)
        typer.echo(f"wrote {paths['markdown']}, {paths['json']}, {paths.get('viewer', '')}".rstrip(", "))
    if all_errored:
        raise typer.Exit(1)


def _errored_lines(records: list[Any]) -> None:
    """Errored episodes, loud: how many, counted by reason (an error's first line), the first in full."""
    from collections import Counter

    reasons = Counter(r.error.splitlines()[0][:200] for r in records if r.error)
    n = sum(reasons.values())
    first = next(r for r in records if r.error)
    word = "every episode" if n == len(records) else f"{n} of {len(records)} episodes"
    typer.echo(f"error: {word} errored (not a task failure: the agent, a model backend or the scenario setup failed); "
               f"first ({first.scenario_id}, seed {first.seed}): {first.error.splitlines()[0]}", err=True)
    for reason, count in reasons.most_common():
        typer.echo(f"  {count:>4} x {reason}", err=True)


def _interrupted(out: Optional[Path], done: int) -> None:
    """Ctrl-C: say what was kept and how to go on (exit code 130)."""
    import shlex
    import sys

    if out is None:
        typer.echo(f"\ninterrupted after {done} episode(s); nothing was saved (add --out DIR to keep finished episodes "
                   "and continue later with --resume)", err=True)
    else:
        argv = [a for a in sys.argv[1:] if a not in ("--resume", "--overwrite")]
        typer.echo(f"\ninterrupted: {done} finished episode(s) are kept in {out}; continue with: "
                   f"mmtsb {shlex.join(argv)} --resume", err=True)
    raise typer.Exit(130)


def _in_run_order(records: list[Any], scenarios: list[Any], seeds: list[int]) -> list[Any]:
    """Records of this run's (scenario, seed) pairs, seed-major in suite order (resumed ones included)."""
    by_key = {r.key: r for r in records}
    return [by_key[(s.id, seed)] for seed in seeds for s in scenarios if (s.id, seed) in by_key]


def _next_steps(suite: str, agent: str, harness: Optional[str], n: int) -> None:
    typer.echo(
        f"\nPlayed {n} episode(s) of suite '{suite}' with agent '{agent}'"
        f"{f' under harness {harness!r}' if harness else ''} and printed the metrics above; nothing was saved.\n"
        f"Add --out runs/{suite}-{agent} to write results.json, Parquet trajectories and report.md + viewer.html there.\n"
        "Next: `mmtsb eval --suite nominal --harness paper --agent oracle --out runs/paper` (the paper's setting), "
        "`mmtsb report runs/paper` (tables), `mmtsb tools` (the tools), `mmtsb eval --help` (every option).", err=True)


def register(app: typer.Typer) -> None:
    app.command(name="eval")(evaluate)
