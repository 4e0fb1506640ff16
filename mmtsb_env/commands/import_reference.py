"""``mmtsb import-reference``: convert the reference implementation's scenario files to format v1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer


def import_reference_command(
    src: Path = typer.Argument(..., help="a reference scenario file or a folder of them"),
    out: Path = typer.Option(..., help="output folder for format-v1 files and the import report"),
    image_root: Optional[Path] = typer.Option(None, help="folder the reference's image_paths are relative to"),
) -> None:
    """Import reference scenarios; every field that could not be converted is listed in the report."""
    from mmtsb_env.scenario.importer import import_reference_dir

    if not src.exists():
        raise typer.BadParameter(f"{src} does not exist")
    reports = import_reference_dir(src, out, image_root)
    summary = {"imported": sum(1 for r in reports if r.scenario_id), "files": len(reports), "out": str(out),
               "issues": sum(len(r.issues) for r in reports), "report": str(out / "import_report.md")}
    typer.echo(json.dumps(summary, indent=2))


def register(app: typer.Typer) -> None:
    app.command(name="import-reference")(import_reference_command)
