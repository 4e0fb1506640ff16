"""Helpers shared by the commands: one-line errors, logging set-up, option parsing."""

from __future__ import annotations

import logging
from typing import NoReturn, Optional

import typer


def fail(message: str) -> NoReturn:
    """End the command with one ``error: ...`` line on stderr (exit code 2)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code=2)


# Env option -> CLI flag where the two are not simply the same words.
_FLAGS = {"time_limit_s": "--time-limit", "code_timeout_s": "--code-timeout"}


def as_flag(message: str) -> str:
    """An option error (``"toolbox='huge' is not valid..."``) phrased with the CLI flag (``--toolbox 'huge' ...``)."""
    name, sep, rest = message.partition("=")
    if not sep or not name.isidentifier():
        return message
    return f"{_FLAGS.get(name, '--' + name.replace('_', '-'))} {rest}"


def setup_logging(verbose: bool = False, quiet: bool = False) -> None:
    """``mmtsb_env`` loggers to stderr: INFO with ``--verbose``, WARNING otherwise, ERROR with ``--quiet``."""
    if verbose and quiet:
        fail("--verbose and --quiet exclude each other")
    level = logging.INFO if verbose else (logging.ERROR if quiet else logging.WARNING)
    logger = logging.getLogger("mmtsb_env")
    logger.setLevel(level)
    if not any(getattr(h, "_mmtsb", False) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        handler._mmtsb = True  # type: ignore[attr-defined]
        logger.addHandler(handler)


def parse_seeds(text: Optional[str], default: int) -> list[int]:
    """``"0,1,2"`` -> ``[0, 1, 2]`` (None -> ``[default]``); a bad list fails with one line."""
    if text is None:
        return [default]
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        fail(f"--seeds {text!r} is not valid; give comma-separated integers, e.g. 0,1,2")
    if not seeds or len(set(seeds)) != len(seeds):
        fail(f"--seeds {text!r} is not valid; give distinct comma-separated integers, e.g. 0,1,2")
    return seeds


def parse_image_size(text: Optional[str]) -> Optional[tuple[int, int]]:
    """``"336"`` -> ``(336, 336)``, ``"224x320"`` -> ``(224, 320)``; None stays None."""
    if text is None:
        return None
    parts = text.lower().replace("*", "x").split("x")
    try:
        values = [int(p) for p in parts]
    except ValueError:
        fail(f"--image-size {text!r} is not valid; give N or HxW, e.g. 336 or 224x320")
    if len(values) == 1:
        values *= 2
    if len(values) != 2:
        fail(f"--image-size {text!r} is not valid; give N or HxW, e.g. 336 or 224x320")
    return values[0], values[1]
