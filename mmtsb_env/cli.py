"""The ``mmtsb`` command. Each module of ``mmtsb_env.commands`` adds its subcommands via ``register(app)``."""

from __future__ import annotations

import pkgutil
from importlib import import_module

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None, pretty_exceptions_enable=False,
                  context_settings={"max_content_width": 100},
                  help="MM-ToolSandBox reinforcement-learning environment.")


def _load_commands() -> None:
    import mmtsb_env.commands as package

    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            import_module(f"{package.__name__}.{info.name}").register(app)


_load_commands()


def _click_errors(name: str) -> tuple[type, ...]:
    """``name`` (``UsageError``, ``Abort``) from click and from the copy of click newer typers carry."""
    found = []
    for module in ("typer._click.exceptions", "click.exceptions"):
        try:
            found.append(getattr(import_module(module), name))
        except (ImportError, AttributeError):
            pass
    return tuple(found)


def main() -> None:
    """Entry point: a usage error (unknown flag, a value of the wrong type) is one ``error: ...`` line, exit code 2."""
    import sys

    try:
        code = app(standalone_mode=False)
    except _click_errors("UsageError") as exc:
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            print(ctx.get_help())
            sys.exit(0)
        command = f"mmtsb {ctx.info_name} --help" if ctx is not None and ctx.parent is not None else "mmtsb --help"
        print(f"error: {exc.format_message()} (see `{command}`)", file=sys.stderr)
        sys.exit(2)
    except _click_errors("Abort"):
        print("aborted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
