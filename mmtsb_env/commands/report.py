"""``mmtsb report RUN_DIR [RUN_DIR ...]``: the paper's tables over one or several runs.

Prints the main table (Agent SR, F1, Avg. Steps, User SR per model and interface), the discovery
table (surfaced/invoked recall, search calls per scenario) and the breakdowns by image arrival,
flow, challenge, image category and number of images, as markdown; writes them as CSV files,
``tables.md`` and comparison plots into ``--out`` (default ``./mmtsb-report``). With one run it
also writes that run's report (report.md, report.json, plots, viewer.html) there. A run folder
is only read, never written.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ._common import fail


def report(
    run_dirs: List[Path] = typer.Argument(..., help="folder(s) written by `mmtsb eval --out`"),
    out: Path = typer.Option(Path("mmtsb-report"), help="where everything is written (run folders are only read)"),
    plots: bool = typer.Option(True, help="write PNG plots"),
    viewer: bool = typer.Option(True, help="write viewer.html (one run only)"),
) -> None:
    """Tables like the paper's over run folders (reads each RUN_DIR/results.json)."""
    from mmtsb_env.evaluation.report import (comparison_tables, comparison_warnings, load_results, tables_markdown,
                                             write_report, write_tables)

    runs = {}
    for run_dir in run_dirs:
        try:
            runs[str(run_dir)] = load_results(run_dir)
        except (FileNotFoundError, ValueError) as exc:
            fail(str(exc))
    if any(out.resolve() == Path(r).resolve() for r in run_dirs):
        fail(f"--out {out} is a run folder; `mmtsb report` never writes into one: give another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--out {out}: cannot write there ({exc.strerror or type(exc).__name__})")
    if len(run_dirs) == 1:
        paths = write_report(run_dirs[0], results=runs[str(run_dirs[0])], plots=plots, viewer=viewer, out_dir=out)
        for name, path in paths.items():
            if not name.startswith("plot:"):
                typer.echo(f"{name}: {path}")
        n_plots = sum(1 for k in paths if k.startswith("plot:"))
        if n_plots:
            typer.echo(f"plots: {n_plots} file(s) in {out / 'plots'}")
    tables = comparison_tables(runs)
    warnings = comparison_warnings(runs)
    written = write_tables(tables, out, plots=plots, warnings=warnings)
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    typer.echo("")
    typer.echo(tables_markdown(tables, warnings))
    typer.echo(f"tables: {written['markdown']} and {sum(1 for k in written if k.startswith('csv:'))} CSV file(s) in {out}")


def register(app: typer.Typer) -> None:
    app.command(name="report")(report)
