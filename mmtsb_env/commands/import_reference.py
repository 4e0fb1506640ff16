"""``mmtsb import-reference``: convert the reference implementation's scenario files to format v1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer


def import_reference_command(
    src: Path = typer.Argument(..., help="a reference scenario file or a folder of them"),
    out: Path = typer.Option(..., help="output folder for format-v1 files and the import report"),
    image_root: Optional[Path] = typer.Option(None, "--images", "--image-root",
                                              help="folder of the datasets the reference's image_paths are relative to"),
) -> None:
    """Import reference scenarios; every field that could not be converted is listed in the report.

    With ``--images DIR`` the image files are checked: each dataset with missing files is named
    with its count (run the suite with ``mmtsb eval --suite OUT --images-dir DIR``, or with
    ``--stand-in-images`` to use labelled placeholders).
    """
    from mmtsb_env.episode.images import describe_missing, missing_image_files
    from mmtsb_env.scenario.suites import load_suite
    from mmtsb_env.scenario.importer import import_reference_dir

    if not src.exists():
        raise typer.BadParameter(f"{src} does not exist")
    reports = import_reference_dir(src, out, image_root)
    summary = {"imported": sum(1 for r in reports if r.scenario_id), "files": len(reports), "out": str(out),
               "issues": sum(len(r.issues) for r in reports), "report": str(out / "import_report.md")}
    if image_root is not None:
        missing = missing_image_files(load_suite(str(out)), image_root)
        summary["missing_images"] = {ds: {"missing": n, "total": t} for ds, (n, t) in missing.items()}
    typer.echo(json.dumps(summary, indent=2))
    if image_root is not None:
        from mmtsb_env.scenario.importer import dataset_table

        typer.echo(dataset_table(load_suite(str(out)), image_root), err=True)
    if image_root is not None and missing:
        typer.echo(describe_missing(missing, image_root) + "; `mmtsb eval --suite OUT --stand-in-images` runs with placeholders",
                   err=True)


def register(app: typer.Typer) -> None:
    app.command(name="import-reference")(import_reference_command)
