"""Run folders: ``results.json`` in, a markdown + JSON summary, PNG charts and an HTML viewer out.

Layout of a run folder (``mmtsb eval --out DIR`` writes the first file, ``mmtsb report DIR`` the rest)::

    DIR/results.json     {"format", "metadata", "config", "summary", "metrics", "episodes": [...]}
    DIR/report.md        headline numbers, criteria, tool recall, tokens, taxonomy, breakdowns, episodes
    DIR/report.json      {"metrics": ..., "episodes": [per-episode summary rows]}
    DIR/plots/*.png      breakdown_<key>.png, failures.png, criteria.png
    DIR/viewer.html      self-contained trajectory viewer

Episodes in ``results.json`` are ``EpisodeRecord.to_json()`` plus ``user_verdict``,
``reference_tools``, ``expected_changes``, ``facts`` and ``image_files`` (``images/<digest>.png``,
index = image id; :func:`episode_json` with ``with_images=True`` embeds base64 PNG instead).
:func:`comparison_tables` builds the paper's tables over several runs (``mmtsb report A B ...``).
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any, Mapping, Sequence

from .legend import legend
from .metrics import BREAKDOWN_KEYS, FAILURE_CLASSES, episode_summary, summarize

RESULTS_FORMAT = "mmtsb-results-1"



def episode_json(record: Any, *, scenario: Any = None, user_verdict: Any = None, with_images: bool = True) -> dict[str, Any]:
    """One ``results.json`` episode: the record's JSON plus what reports need without the scenario."""
    from dataclasses import asdict

    from .metrics import reference_tools

    from ..export.tokens import strip_tokens

    data = record.to_json(with_images=False) if hasattr(record, "to_json") else dict(record)
    data.pop("images", None)
    # Token arrays belong in trajectories.parquet; in JSON they would grow with every step's prompt.
    for key in ("agent_steps", "user_steps"):
        if data.get(key):
            data[key] = [strip_tokens(step) for step in data[key]]
    if with_images:
        raw = record.images if hasattr(record, "images") else (record.get("images") or [])
        data["images"] = [x if isinstance(x, str) else base64.b64encode(bytes(x)).decode("ascii") for x in raw]
    if user_verdict is not None:
        data["user_verdict"] = user_verdict.to_json() if hasattr(user_verdict, "to_json") else dict(user_verdict)
    if scenario is not None:
        data["reference_tools"] = reference_tools(scenario)
        data["expected_changes"] = [asdict(c) for c in scenario.expected_changes]
        data["facts"] = list(scenario.facts)
        data["n_rounds"] = len(scenario.rounds)
        data["completion_criteria"] = scenario.completion_criteria
    return data


def load_results(run_dir: str | Path) -> dict[str, Any]:
    """Read ``run_dir/results.json`` (``FileNotFoundError``/``ValueError`` with the path on problems)."""
    path = Path(run_dir) / "results.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist: run `mmtsb eval --out {run_dir}` first")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("episodes"), list):
        raise ValueError(f"{path}: expected an object with an 'episodes' list")
    return data


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}"
    return str(v)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_fmt(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return out


def render_markdown(metrics: Mapping[str, Any], rows: Sequence[Mapping[str, Any]], config: Mapping[str, Any],
                    plots: Mapping[str, str]) -> str:
    m = metrics
    lines = ["# mmtsb evaluation report", ""]
    if config:
        lines += [", ".join(f"**{k}**: {v}" for k, v in config.items() if not isinstance(v, (dict, list))), ""]
    lines += ["## Headline", ""]
    lines += _table(["metric", "value"], [
        ("episodes", m["episodes"]), ("errored (excluded below)", m["errored"]["count"]), ("Agent SR", m["agent_sr"]),
        ("mean entity F1", m["mean_entity_f1"]), ("average steps (both seats)", m["avg_steps"]),
        ("average assistant steps", m.get("avg_assistant_steps")), ("User SR", m["user_sr"]),
        ("surfaced tool recall", m["tool_recall"]["surfaced"]), ("invoked tool recall", m["tool_recall"]["invoked"]),
        ("tool-search calls (total)", m["search_calls"]["total"]),
        ("tokens (total)", (m["tokens"] or {}).get("total_tokens")),
        ("tokens per episode", (m["tokens"] or {}).get("mean_total_per_episode")),
    ])
    lines += ["", legend(["errored", "agent_sr", "mean_entity_f1", "avg_steps", "avg_assistant_steps", "user_sr",
                          "surfaced_tool_recall", "invoked_tool_recall"], bullet="- ")]
    if m["errored"]["count"]:
        lines += ["", "## Errored episodes", ""]
        lines += _table(["scenario", "error"], [(e["scenario_id"], e["error"].splitlines()[0] if e["error"] else "")
                                                for e in m["errored"]["episodes"]])
    if m["criteria_pass_rates"]:
        lines += ["", "## Judge criteria", ""] + _table(["criterion", "pass rate"], list(m["criteria_pass_rates"].items()))
        if "criteria" in plots:
            lines += ["", f"![criteria]({plots['criteria']})"]
    f = m["failures"]
    lines += ["", f"## Failure taxonomy ({f['failed']} failed)", ""]
    lines += _table(["class", "primary", "any"], [(k, f["primary"][k], f["any"][k]) for k in FAILURE_CLASSES])
    if "failures" in plots:
        lines += ["", f"![failures]({plots['failures']})"]
    for key in BREAKDOWN_KEYS:
        groups = m["breakdowns"].get(key) or {}
        if not groups:
            continue
        lines += ["", f"## By {key.replace('_', ' ')}", ""]
        lines += _table([key, "n", "errored", "Agent SR", "mean F1", "avg steps", "User SR"],
                        [(v, g["n"], g["errored"], g["agent_sr"], g["mean_entity_f1"], g["avg_steps"], g["user_sr"])
                         for v, g in groups.items()])
        if f"breakdown_{key}" in plots:
            lines += ["", f"![{key}]({plots[f'breakdown_{key}']})"]
    lines += ["", "## Episodes", ""]
    lines += _table(["#", "scenario", "outcome", "F1", "steps", "user", "surfaced", "invoked", "failure"], [
        (i + 1, r["scenario_id"], "errored" if r["errored"] else ("pass" if r["passed"] else "fail"), r["entity_f1"], r["steps"],
         "—" if r["user_pass"] is None else ("pass" if r["user_pass"] else "fail"), r["surfaced_recall"], r["invoked_recall"],
         r["failure"] or "") for i, r in enumerate(rows)])
    lines += ["", "Trajectories: [viewer.html](viewer.html)", ""]
    return "\n".join(lines)


def write_report(run_dir: str | Path, *, results: Mapping[str, Any] | None = None, plots: bool = True,
                 viewer: bool = True, out_dir: str | Path | None = None) -> dict[str, Path]:
    """Write ``report.md``, ``report.json``, ``plots/`` and ``viewer.html`` of the run in ``run_dir``
    into ``out_dir`` (default: ``run_dir``; elsewhere, the viewer links the run's ``images/``)."""
    source = Path(run_dir)
    run = Path(out_dir) if out_dir is not None else source
    run.mkdir(parents=True, exist_ok=True)
    data = dict(results) if results is not None else load_results(source)
    if run.resolve() != source.resolve():
        prefix = Path(os.path.relpath(source.resolve(), run.resolve())).as_posix()
        data["episodes"] = [{**ep, "image_files": [f"{prefix}/{f}" for f in ep["image_files"]]} if ep.get("image_files") else ep
                            for ep in data["episodes"]]
    rows = [episode_summary(ep) for ep in data["episodes"]]
    metrics = summarize(rows)
    out: dict[str, Path] = {}
    plot_paths: dict[str, str] = {}
    if plots and rows:
        from .plots import write_plots

        for name, path in write_plots(metrics, run / "plots").items():
            plot_paths[name] = path.relative_to(run).as_posix()
            out[f"plot:{name}"] = path
    (run / "report.json").write_text(json.dumps({"metrics": metrics, "episodes": rows}, indent=1, default=str), encoding="utf-8")
    out["json"] = run / "report.json"
    (run / "report.md").write_text(render_markdown(metrics, rows, data.get("config") or {}, plot_paths), encoding="utf-8",
                                  errors="replace")
    out["markdown"] = run / "report.md"
    if viewer:
        from .viewer import render_viewer

        (run / "viewer.html").write_text(render_viewer(data, rows, metrics), encoding="utf-8", errors="replace")
        out["viewer"] = run / "viewer.html"
    return out


# ---------------------------------------------------------------------------------- several runs

Table = tuple[list[str], list[list[Any]]]


def run_label(data: Mapping[str, Any], fallback: str) -> tuple[str, str]:
    """(model, interface) of a run: the agent (its model when it has one) and the harness or mode."""
    meta = data.get("metadata") or {}
    cfg = data.get("config") or {}
    agent = meta.get("agent") or {}
    model = agent.get("model") or agent.get("name") or cfg.get("agent") or fallback
    env = meta.get("env") or {}
    interface = cfg.get("harness") or env.get("harness") or cfg.get("mode") or env.get("mode") or "tool"
    return str(model), str(interface)


def run_suite(data: Mapping[str, Any]) -> str:
    """The suite a run played (its name or folder as given to ``mmtsb eval --suite``)."""
    cfg = data.get("config") or {}
    return str(cfg.get("suite") or (data.get("metadata") or {}).get("suite") or "?")


def _spread(values: Sequence[float | None]) -> float | None:
    """Sample standard deviation over seeds (None with fewer than two seeds)."""
    import statistics

    vals = [v for v in values if v is not None]
    return round(statistics.stdev(vals), 6) if len(vals) > 1 else None


def comparison_tables(runs: Mapping[str, Mapping[str, Any]]) -> dict[str, Table]:
    """The paper's tables over runs (``name -> results.json payload``), each row naming the model,
    the suite and the interface (harness or mode):

    * ``main`` (Table 2): Agent SR, entity F1, Avg. Steps (both seats), assistant steps, User SR,
      with the spread (sample standard deviation) of Agent SR and F1 over the run's seeds;
    * ``taxonomy`` (Table 3): each failure class's share of the failed episodes (primary class);
    * ``ui`` (Table 4, UI runs only): Agent SR over the five criteria and UI SR over the UI checks;
    * ``discovery`` (Table 11): surfaced/invoked recall of the reference tools, search calls;
    * ``by_<key>`` (Table 12 and the design axes): Agent SR (n) per value of each breakdown.
    """
    summaries = {}
    for name, data in runs.items():
        rows = [episode_summary(ep) for ep in data["episodes"]]
        by_seed: dict[Any, list[Mapping[str, Any]]] = {}
        for ep, row in zip(data["episodes"], rows):
            by_seed.setdefault(ep.get("seed", 0), []).append(row)
        per_seed = [summarize(group) for group in by_seed.values()]
        model, interface = run_label(data, name)
        summaries[name] = ((model, run_suite(data), interface), summarize(rows), per_seed)
    label = ["Model", "Suite", "Interface"]
    main = (label + ["Seeds", "Episodes", "Agent SR", "Agent SR ± (seeds)", "F1", "F1 ± (seeds)", "Avg. Steps",
                     "Assistant steps", "User SR"],
            [[*lab, len(seeds), s["episodes"], s["agent_sr"], _spread([x["agent_sr"] for x in seeds]), s["mean_entity_f1"],
              _spread([x["mean_entity_f1"] for x in seeds]), s["avg_steps"], s.get("avg_assistant_steps"), s["user_sr"]]
             for lab, s, seeds in summaries.values()])
    taxonomy = (label + ["Failed"] + [f"{c} share" for c in FAILURE_CLASSES],
                [[*lab, s["failures"]["failed"]] + [round(s["failures"]["primary"][c] / s["failures"]["failed"], 6)
                                                    if s["failures"]["failed"] else None for c in FAILURE_CLASSES]
                 for lab, s, _ in summaries.values()])
    discovery = (label + ["Surfaced recall", "Invoked recall", "Search calls / scenario"],
                 [[*lab, s["tool_recall"]["surfaced"], s["tool_recall"]["invoked"], s["search_calls"]["mean"]]
                  for lab, s, _ in summaries.values()])
    tables: dict[str, Table] = {"main": main, "taxonomy": taxonomy}
    ui_rows = [[*lab, s["ui"]["episodes"], s["ui"]["agent_sr"], s["ui"]["ui_sr"]] for lab, s, _ in summaries.values() if s["ui"]]
    if ui_rows:
        tables["ui"] = (label + ["UI episodes", "Agent SR", "UI SR"], ui_rows)
    tables["discovery"] = discovery
    for key in BREAKDOWN_KEYS:
        values: list[str] = []
        for _, s, _ in summaries.values():
            values += [v for v in (s["breakdowns"].get(key) or {}) if v not in values]
        if not values:
            continue
        rows_ = []
        for lab, s, _ in summaries.values():
            groups = s["breakdowns"].get(key) or {}
            rows_.append([*lab] + [f"{groups[v]['agent_sr']:.3f} ({groups[v]['n']})"
                                   if v in groups and groups[v]["agent_sr"] is not None else "—" for v in values])
        tables[f"by_{key}"] = (label + [f"{v} SR (n)" for v in values], rows_)
    return tables


def comparison_warnings(runs: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Why the rows of :func:`comparison_tables` may not be comparable: runs of different suites,
    harnesses (interfaces) or episode counts, each one line naming the runs."""
    warnings = []
    for what, of in (("suite", run_suite), ("interface", lambda d: run_label(d, "")[1]),
                     ("episode count", lambda d: str(len(d["episodes"])))):
        values: dict[str, list[str]] = {}
        for name, data in runs.items():
            values.setdefault(of(data), []).append(name)
        if len(values) > 1:
            warnings.append(f"the runs differ in {what}: " + "; ".join(f"{v}: {', '.join(names)}" for v, names in values.items()))
    return warnings


TABLE_TITLES = {"main": "Main results (Table 2)", "taxonomy": "Failure taxonomy, share of failed episodes (Table 3)",
                "ui": "UI scenarios (Table 4)", "discovery": "Tool discovery (Table 11)"}


def tables_markdown(tables: Mapping[str, Table], warnings: Sequence[str] = ()) -> str:
    lines: list[str] = [f"**Warning:** {w}" for w in warnings] + ([""] if warnings else [])
    for name, (header, rows) in tables.items():
        title = TABLE_TITLES.get(name) or f"By {name[3:].replace('_', ' ')}"
        lines += [f"## {title}", ""] + _table(header, rows) + [""]
    lines += ["Legend:", legend(["agent_sr", "mean_entity_f1", "avg_steps", "avg_assistant_steps", "user_sr", "ui_sr",
                                 "surfaced_tool_recall", "invoked_tool_recall", "failure shares"], bullet="- "),
              "- ± (seeds): sample standard deviation over the run's seeds (blank with one seed)", ""]
    return "\n".join(lines)


def write_tables(tables: Mapping[str, Table], out_dir: str | Path, *, plots: bool = True,
                 warnings: Sequence[str] = ()) -> dict[str, Path]:
    """``tables.md``, one ``<table>.csv`` per table and (``plots``) ``compare_<table>.png`` into ``out_dir``."""
    import csv

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for name, (header, rows) in tables.items():
        path = out / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.writer(fh)
            writer.writerow(header)
            writer.writerows([["" if c is None else c for c in r] for r in rows])
        paths[f"csv:{name}"] = path
    (out / "tables.md").write_text("# mmtsb results\n\n" + tables_markdown(tables, warnings), encoding="utf-8")
    paths["markdown"] = out / "tables.md"
    if plots:
        from .plots import comparison_chart

        header, rows = tables["main"]
        col = {name: header.index(name) for name in ("Agent SR", "F1", "User SR")}
        paths["plot:main"] = comparison_chart([f"{r[0]} / {r[1]} / {r[2]}" for r in rows],
                                              {name: [r[i] for r in rows] for name, i in col.items()},
                                              out / "compare_main.png", "Main results")
        header, rows = tables["discovery"]
        col = {"surfaced recall": header.index("Surfaced recall"), "invoked recall": header.index("Invoked recall")}
        paths["plot:discovery"] = comparison_chart([f"{r[0]} / {r[1]} / {r[2]}" for r in rows],
                                                   {name: [r[i] for r in rows] for name, i in col.items()},
                                                   out / "compare_discovery.png", "Tool discovery")
    return paths
