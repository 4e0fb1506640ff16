"""``mmtsb export``: convert a saved run to the Parquet trajectory format."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def export(
    run_dir: Path = typer.Argument(..., help="run folder (results.json / trajectories.parquet of `mmtsb eval --out`) or one of those files"),
    out: Path = typer.Option(..., "--out", "-o", help="Parquet file to write (episode table)"),
    steps: Optional[Path] = typer.Option(None, help="also write the step table (one row per action) here"),
    seats: str = typer.Option("assistant,user", help="comma-separated seats to export (one row per episode and seat)"),
    row_group_size: int = typer.Option(32, min=1, help="rows per Parquet row group"),
    suite: Optional[str] = typer.Option(None, help="suite name or folder to re-render scenario images from (default: built-in suites)"),
    missing_images: str = typer.Option("restore", help="images a record lacks: restore | drop | error"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no progress bar"),
) -> None:
    """Convert a saved run to Parquet (one row per episode and seat, images as PNG)."""
    from mmtsb_env.export import TrajectoryWriter, load_run

    try:
        records = load_run(run_dir)
    except (FileNotFoundError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    scenarios = None
    if suite is not None:
        import mmtsb_env

        scenarios = mmtsb_env.load_suite(suite)
    chosen = [s.strip() for s in seats.split(",") if s.strip()]
    try:
        with TrajectoryWriter(out, seats=chosen, row_group_size=row_group_size, steps_path=steps,
                              missing_images=missing_images, scenarios=scenarios) as writer:
            for record in _progress(records, enabled=not quiet):
                writer.write(record)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"wrote {len(records)} episodes ({len(records) * len(chosen)} rows) to {out}")
    if steps is not None:
        typer.echo(f"wrote the step table to {steps}")


def _progress(records: list, *, enabled: bool):
    if not enabled:
        return records
    import sys

    from tqdm import tqdm

    return tqdm(records, desc="episodes", file=sys.stderr)


def register(app: typer.Typer) -> None:
    app.command(name="export")(export)
