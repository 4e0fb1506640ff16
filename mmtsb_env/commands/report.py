"""``mmtsb report RUN_DIR``: markdown + JSON summary, PNG charts and an HTML viewer of a run folder."""

from __future__ import annotations

from pathlib import Path

import typer


def report(
    run_dir: Path = typer.Argument(..., help="folder written by `mmtsb eval --out`"),
    plots: bool = typer.Option(True, help="write plots/*.png"),
    viewer: bool = typer.Option(True, help="write viewer.html (self-contained trajectory viewer)"),
) -> None:
    """Summarise a run folder (reads RUN_DIR/results.json)."""
    from mmtsb_env.evaluation.report import load_results, write_report

    try:
        data = load_results(run_dir)
    except (FileNotFoundError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None
    paths = write_report(run_dir, results=data, plots=plots, viewer=viewer)
    for name, path in paths.items():
        if not name.startswith("plot:"):
            typer.echo(f"{name}: {path}")
    n_plots = sum(1 for k in paths if k.startswith("plot:"))
    if n_plots:
        typer.echo(f"plots: {n_plots} file(s) in {Path(run_dir) / 'plots'}")


def register(app: typer.Typer) -> None:
    app.command(name="report")(report)
