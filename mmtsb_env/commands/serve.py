"""``mmtsb serve``: episodes over HTTP for remote rollout workers (see docs/training.md, "Env server")."""

from __future__ import annotations

import json
from typing import Optional

import typer

from ._common import fail


def _env_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            fail(f"--env {pair!r} is not KEY=VALUE (e.g. --env max_images=1 --env image_size=[224,224])")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value  # a plain word: a string option
    return options


def serve(
    host: str = typer.Option("127.0.0.1", help="address to listen on"),
    port: int = typer.Option(8765, min=0, max=65535, help="port (0: any free one)"),
    suite: str = typer.Option("demo", help="suite name or folder the episodes draw from"),
    mode: Optional[str] = typer.Option(None, help="tool | code (default: the harness's, else tool)"),
    env: list[str] = typer.Option([], "--env", help="env option KEY=VALUE (JSON value), repeatable; see EnvOptions"),
    idle_timeout: float = typer.Option(600.0, min=0.01, help="seconds an episode may sit idle before it is closed"),
    max_episodes: int = typer.Option(1024, min=1, help="live episodes at most"),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="log every request"),
) -> None:
    """Serve episodes over HTTP: POST /reset, POST /step, GET /state, POST /close, GET /health."""
    import mmtsb_env
    from mmtsb_env.remote import EnvServer

    options = _env_options(env)
    try:
        mmtsb_env.make_env(suite=suite, mode=mode, **options).close()  # refuse bad options now, not per request
    except (ValueError, TypeError, KeyError, FileNotFoundError) as exc:
        fail(str(exc).strip("'\""))

    def make_env():
        return mmtsb_env.make_env(suite=suite, mode=mode, **options)

    try:
        server = EnvServer((host, port), make_env, idle_timeout_s=idle_timeout, max_episodes=max_episodes, verbose=verbose)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port} ({exc.strerror or exc})")
    typer.echo(f"serving {suite} episodes on {server.url} (idle timeout {idle_timeout:g} s, at most {max_episodes})")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def register(app: typer.Typer) -> None:
    app.command(name="serve")(serve)
