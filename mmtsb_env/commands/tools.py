"""``mmtsb tools``: print the assistant's tool schemas."""

from __future__ import annotations

import json
from typing import Optional

import typer


def tools(
    toolbox: str = typer.Option("full", help="full | medium | compact | mini"),
    app_name: Optional[str] = typer.Option(None, "--app", help="only this app's tools"),
) -> None:
    """Print the OpenAI-format schema of every assistant tool, one JSON object per line."""
    from mmtsb_env.tools import tools_in

    for t in tools_in(toolbox):
        if app_name is None or t.app == app_name:
            typer.echo(json.dumps(t.schema, ensure_ascii=False))


def register(app: typer.Typer) -> None:
    app.command()(tools)
