"""Exception classes of the sandbox.

Public (visible to the host and, where noted, to agent code):

* :class:`SandboxViolation` -- agent code tried something the policy forbids (a dunder attribute,
  a module outside the whitelist, writing to a provided function, ...). It is an ``Exception`` so
  agent code *may* catch it and carry on; uncaught it ends the run with ``error_kind="violation"``.
* :class:`ToolError` -- a provided function failed. The sandbox re-raises every tool failure as a
  subclass of this class named after the original exception (``NotFound``, ``ValueError``, ...), so
  ``except Exception`` / ``except ToolError`` in agent code catches it and the traceback shows the
  original class name.

Internal interrupts derive from ``BaseException`` and are never given to agent code, so no
``except`` clause the agent can write catches them (bare ``except:`` is compiled as
``except Exception:``).
"""

from __future__ import annotations

import builtins
from typing import Any


class SandboxViolation(Exception):
    """Agent code attempted an operation the sandbox policy refuses."""


class ImportViolation(SandboxViolation, ImportError):
    """An import of a module outside the whitelist (also an ``ImportError``)."""


class AttributeViolation(SandboxViolation, AttributeError):
    """A refused attribute read (also an ``AttributeError`` so ``hasattr`` answers ``False``)."""


class ResourceLimitError(MemoryError):
    """A refused allocation (``[0] * 10**10``, ``10 ** 10**9``, ...); reported as ``memory``."""


class ToolError(Exception):
    """Base class of errors raised by provided functions, as seen by agent code.

    ``kind`` carries the tool error's ``kind`` attribute when it had a string one.
    """

    kind: str | None = None


_TOOL_ERROR_CLASSES: dict[str, type] = {}


def tool_error_class(name: str) -> type:
    """A (cached) ``ToolError`` subclass named ``name``; it also derives from the builtin
    exception of that name when there is one (so ``except ValueError`` still works)."""
    cls = _TOOL_ERROR_CLASSES.get(name)
    if cls is not None:
        return cls
    safe_name = name if name.isidentifier() else "ToolError"
    bases: tuple[type, ...] = (ToolError,)
    builtin = getattr(builtins, safe_name, None)
    if (
        isinstance(builtin, type)
        and issubclass(builtin, Exception)
        and builtin is not Exception
        and not issubclass(builtin, (OSError, UnicodeError))  # incompatible layouts / constructors
    ):
        bases = (ToolError, builtin)
    try:
        cls = type(safe_name, bases, {"__module__": "builtins"})
    except TypeError:
        cls = type(safe_name, (ToolError,), {"__module__": "builtins"})
    _TOOL_ERROR_CLASSES[name] = cls
    return cls


def make_tool_error(type_name: str, args: tuple[Any, ...], kind: str | None) -> ToolError:
    cls = tool_error_class(type_name)
    try:
        err = cls(*args)
    except Exception:  # noqa: BLE001 - odd constructor signature: fall back to the message
        err = cls(" ".join(str(a) for a in args))
    if isinstance(kind, str):
        err.kind = kind
    return err


# ---------------------------------------------------------------------------------------------
# Internal interrupts (BaseException: agent code cannot catch them)


class SandboxInterrupt(BaseException):
    """Base of the interrupts the sandbox raises inside agent code."""

    error_kind = "runtime"


class SandboxTimeout(SandboxInterrupt):
    error_kind = "timeout"


class SandboxMemoryExceeded(SandboxInterrupt):
    error_kind = "memory"


class SandboxOutputLimit(SandboxInterrupt):
    error_kind = "output_limit"


class SandboxIdle(SandboxInterrupt):
    """Agent code (a generator finaliser, ...) tried to run while no run is active."""

    error_kind = "violation"
