"""``mmtsb tools``: print the assistant's tool schemas."""

from __future__ import annotations

import json
from typing import Optional

import typer

from ._common import fail


def tools(
    toolbox: str = typer.Option("full", help="full | medium | compact | mini"),
    app_name: Optional[str] = typer.Option(None, "--app", help="only this app's tools"),
) -> None:
    """Print the OpenAI-format schema of every assistant tool, one JSON object per line."""
    from mmtsb_env.tools.catalog import tools_in
    from mmtsb_env.tools.variants import TOOLBOXES

    if toolbox not in TOOLBOXES:
        fail(f"--toolbox {toolbox!r} is not valid; choose one of: {', '.join(TOOLBOXES)}")
    chosen = tools_in(toolbox)
    apps = sorted({t.app for t in chosen})
    if app_name is not None and app_name not in apps:
        fail(f"--app {app_name!r} has no tools in the {toolbox} toolbox; choose one of: {', '.join(apps)}")
    for t in chosen:
        if app_name is None or t.app == app_name:
            typer.echo(json.dumps(t.schema, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    app.command()(tools)
