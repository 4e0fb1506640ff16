"""``mmtsb play``: a person plays the assistant seat in the terminal against the scripted user."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Optional

import typer

from ._common import as_flag, fail


def play(
    scenario: Optional[str] = typer.Option(None, help="scenario id, e.g. demo/note_from_receipt (default: seeded draw)"),
    suite: str = typer.Option("demo", help="suite name or folder"),
    mode: Optional[str] = typer.Option(None, help="tool | code (default: the harness's, else tool)"),
    harness: Optional[str] = typer.Option(None, help="preset: paper | tool | search | search_code | code (docs/harness.md)"),
    toolbox: Optional[str] = typer.Option(None, help="full | medium | compact | mini"),
    tool_search: Optional[bool] = typer.Option(None, "--tool-search/--no-tool-search", help="discover tools with the search tool"),
    seed: int = typer.Option(0),
    image_dir: Optional[Path] = typer.Option(None, help="where new images are written (default: a temp folder)"),
) -> None:
    """Play the assistant seat against the scripted user.

    Type a tool call as JSON ({"name": ..., "arguments": {...}}), a ```python block in code mode
    (end it with a line of three backticks), or plain text to answer the user. Commands (never
    sent to the user): :tools lists the tools with their parameters, :help lists the commands,
    :quit leaves.
    """
    import mmtsb_env

    options = {k: v for k, v in {"harness": harness, "toolbox": toolbox, "tool_search": tool_search}.items() if v is not None}
    try:
        env = mmtsb_env.make_env(suite=suite, mode=mode, **options)
        obs, info = env.reset(seed=seed, options={"scenario": scenario} if scenario else None)
    except (ValueError, KeyError, FileNotFoundError) as exc:
        fail(as_flag(str(exc).strip("'\"")))
    mode = env.options.mode
    out = image_dir or Path(tempfile.mkdtemp(prefix="mmtsb_play_"))
    out.mkdir(parents=True, exist_ok=True)
    typer.echo(f"Scenario {info['scenario_id']} ({mode} mode). New images are written to {out}")

    def show(obs, info) -> None:
        typer.echo(obs["text"])
        for image_id, image in info["images"].items():
            path = out / f"image_{image_id}.png"
            image.save(path)
            typer.echo(f"  [image {image_id}] saved to {path}")

    show(obs, info)
    while True:
        try:
            lines = [input("\nassistant> ")]
            if lines[0].lstrip().startswith("```"):
                while len(lines) == 1 or lines[-1].strip() != "```":
                    lines.append(input("... "))
        except EOFError:
            typer.echo("")
            break
        action = "\n".join(lines)
        command = action.strip()
        if command == ":quit":
            break
        if command == ":tools":
            typer.echo(tool_listing(env, info))
            continue
        if command.startswith(":") and command[1:2].isalpha() and " " not in command:
            known = "" if command == ":help" else f"unknown command {command}; "
            typer.echo(f"{known}commands: {', '.join(f'{c} ({what})' for c, what in COMMANDS.items())}. "
                       "Anything else is your action: a JSON tool call, a ```python block in code mode, or a reply.")
            continue
        obs, reward, terminated, truncated, info = env.step(action)
        show(obs, info)
        typer.echo(f"  (reward {reward:+.3f}, entity F1 {info['reward_components']['entity_f1']:.3f})")
        if terminated or truncated:
            verdict = info.get("verdict", {})
            typer.echo(f"Episode over ({'ended by the user' if terminated else 'a message, step or time limit was reached'}): {'PASS' if verdict.get('pass') else 'FAIL'}")
            for c in verdict.get("criteria", []):
                typer.echo(f"  {'ok ' if c['pass'] else 'NO '} {c['criterion']}: {c['reason']}")
            break
    env.close()


COMMANDS = {":tools": "the tools on offer, with their parameters", ":help": "this list", ":quit": "leave"}


def signature(schema: dict) -> str:
    """``name(required: type, optional: type = None)`` of an OpenAI-format tool schema."""
    fn = schema.get("function", schema)
    params = fn.get("parameters") or {}
    required = set(params.get("required") or [])
    parts = []
    for name, spec in (params.get("properties") or {}).items():
        kind = spec.get("type", "any")
        kinds = [k for k in (kind if isinstance(kind, list) else [kind]) if k != "null"]
        text = f"{name}: {'|'.join(kinds) or 'any'}"
        parts.append(text if name in required else text + " = None")
    return f"{fn['name']}({', '.join(parts)})"


def tool_listing(env, info) -> str:
    """One line per tool on offer: its signature (code mode: the python functions the code can call)."""
    schemas = list(info.get("tools") or [])
    if not schemas and env.options.mode == "code":
        from mmtsb_env.tools.catalog import get_tool

        schemas = [get_tool(name).schema for name in env.episode._code_tool_names()]
    return "\n".join(f"  {signature(s)}" for s in schemas) or "(no tools on offer)"


def register(app: typer.Typer) -> None:
    app.command()(play)
