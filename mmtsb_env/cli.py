"""The ``mmtsb`` command. Each module of ``mmtsb_env.commands`` adds its subcommands via ``register(app)``."""

from __future__ import annotations

import pkgutil
from importlib import import_module

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, help="MM-ToolSandBox reinforcement-learning environment.")


def _load_commands() -> None:
    import mmtsb_env.commands as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            import_module(f"{package.__name__}.{info.name}").register(app)


_load_commands()


def main() -> None:
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
