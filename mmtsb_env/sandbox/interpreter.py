"""The public sandbox API: :class:`Interpreter`, :class:`Limits`, :class:`ExecResult`."""

from __future__ import annotations

import keyword
import threading
import time
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .compiler import compile_snippet, compile_unguarded
from .engine import Engine, Unit
from .jail import JAIL_MODES
from .isolated import IsolatedBackend, JailRefused

ERROR_KINDS = ("syntax", "runtime", "violation", "timeout", "output_limit", "memory", "recursion")


ISOLATION_MODES = ("process", "thread")
THREAD_WARNING = (
    'code isolation "thread" runs agent code inside this process, where no kernel jail is possible: '
    "use it for trusted code only"
)
# Test-only: agent code runs as plain Python (plain compile, real builtins, no runtime guards) so
# tests can show what the kernel jail alone holds. Nothing outside tests sets it.
GUARD_DISABLED_FOR_TESTS = False
_thread_warned = False


def warn_thread_mode_once() -> None:
    """Print :data:`THREAD_WARNING` (a ``RuntimeWarning``) the first time thread mode is chosen."""
    global _thread_warned
    if not _thread_warned:
        _thread_warned = True
        warnings.warn(THREAD_WARNING, RuntimeWarning, stacklevel=3)


def refusal_line(reason: str) -> str:
    """The one line a run gets when the jail is required and cannot be set up."""
    return (f"SandboxError: agent code was not run: the kernel jail for code is unavailable here ({reason}); "
            'to run it anyway in an unjailed worker process (trusted code only) set code_jail="off" '
            '(Limits(jail="off"))')


@dataclass(frozen=True)
class Limits:
    """Per-run limits and the isolation mode.

    ``isolation="process"`` (the default) runs agent code in a clean worker process (forked from a
    template that was exec'd fresh, never from the host) whose address space may grow by at most
    ``memory_mb`` MiB (``RLIMIT_AS``, ``None``: no cap); a run stuck in one C call is stopped by
    killing the worker. ``isolation="thread"`` runs it in-process on a private executor thread: faster
    to start, but a single long C call only stops when it returns and memory is bounded only by
    heuristics (``soft_memory_mb``: interrupt a run whose process RSS grew by more than that) --
    an explicit opt-in for trusted code (warned about once per process).

    ``jail="required"`` (the default) starts the worker processes inside the kernel jail
    (:mod:`.jail`); where it cannot be set up, runs are refused with one line saying why.
    ``jail="off"`` runs them in an unjailed worker (trusted code only).
    """

    timeout_s: float = 5.0
    max_output_chars: int = 10_000
    recursion_limit: int = 200
    memory_mb: int | None = 1024
    soft_memory_mb: int | None = 2048
    isolation: str = "process"
    jail: str = "required"

    def __post_init__(self) -> None:
        if not self.timeout_s > 0:
            raise ValueError("timeout_s must be positive")
        if self.max_output_chars < 0:
            raise ValueError("max_output_chars must be >= 0")
        if self.recursion_limit < 1:
            raise ValueError("recursion_limit must be >= 1")
        if self.memory_mb is not None and self.memory_mb < 16:
            raise ValueError("memory_mb must be at least 16")
        if self.isolation not in ISOLATION_MODES:
            raise ValueError(f"isolation must be one of {ISOLATION_MODES}, got {self.isolation!r}")
        if self.jail not in JAIL_MODES:
            raise ValueError(f"jail must be one of {JAIL_MODES}, got {self.jail!r}")


@dataclass(frozen=True)
class ExecResult:
    """The outcome of :meth:`Interpreter.run`."""

    ok: bool
    output: str
    error: str | None
    error_kind: str | None
    duration_s: float


def _encodable(text: str) -> str:
    """``text`` without lone surrogates (``print(chr(0xD800))``), so it always encodes as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


class Interpreter:
    """A persistent, restricted Python REPL whose provided functions are plain callables.

    ``run()`` never raises for anything the agent writes. Safe to call from any thread (runs are
    serialised); provided functions always run on the thread that called ``run()``. ``seed`` seeds
    the agent's private ``random``; ``clock`` (a ``datetime``) is what ``datetime.now()``,
    ``date.today()`` and ``time.time()`` return inside the sandbox (default: the host clock).
    ``images(image_id) -> bytes`` lets ``PIL.Image.open(image_id)`` (or a tool result with an
    ``image_id``) load the caller's images (process isolation only, like numpy).
    """

    def __init__(
        self,
        functions: Mapping[str, Callable[..., Any]] | None = None,
        limits: Limits | None = None,
        *,
        seed: int | None = None,
        clock: Any = None,
        images: Callable[[int], bytes] | None = None,
    ) -> None:
        functions = dict(functions or {})
        for name, fn in functions.items():
            if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_"):
                raise ValueError(f"invalid function name {name!r}")
            if not callable(fn):
                raise TypeError(f"function {name!r} is not callable")
        self.limits = limits or Limits()
        self._names = frozenset(functions)
        self._lock = threading.Lock()
        self._closed = False
        self._unguarded = GUARD_DISABLED_FOR_TESTS
        if self.limits.isolation == "thread":
            warn_thread_mode_once()
            self._backend: Any = Engine(functions, self.limits, allow_numpy=False,
                                        soft_memory_mb=self.limits.soft_memory_mb, seed=seed, clock=clock,
                                        unguarded=self._unguarded)
        else:
            self._backend = IsolatedBackend(functions, self.limits, seed, clock, images, unguarded=self._unguarded)

    @property
    def isolated(self) -> bool:
        return isinstance(self._backend, IsolatedBackend)

    def run(self, code: str, timeout_s: float | None = None) -> ExecResult:
        """Run ``code``; ``timeout_s`` (never more than ``limits.timeout_s``) bounds this run."""
        start = time.perf_counter()
        if isinstance(code, bytes):
            code = code.decode("utf-8", "replace")
        if not isinstance(code, str):
            return ExecResult(False, "", f"code must be a string, not {type(code).__name__}", "syntax", 0.0)
        with self._lock:
            if self._closed:
                raise RuntimeError("this Interpreter is closed")
            unit = compile_unguarded(code) if self._unguarded else compile_snippet(code)
            if unit.code is None:
                return ExecResult(False, "", "\n".join(unit.errors), unit.error_kind,
                                  time.perf_counter() - start)
            clash = sorted(unit.bound_names & self._names)
            if clash:
                names = ", ".join(repr(n) for n in clash)
                return ExecResult(
                    False, "", f"SandboxViolation: cannot assign to {names}: provided functions cannot be rebound",
                    "violation", time.perf_counter() - start,
                )
            if isinstance(self._backend, Engine):
                outcome = self._backend.run(Unit(unit.code, unit.filename, unit.source), timeout_s)
            else:
                try:
                    outcome = self._backend.run(unit, timeout_s)
                except JailRefused as exc:
                    return ExecResult(False, "", refusal_line(str(exc)), "runtime", time.perf_counter() - start)
                except RuntimeError as exc:  # the worker process could not be started
                    return ExecResult(False, "", f"SandboxError: {exc}", "runtime", time.perf_counter() - start)
        return ExecResult(
            ok=bool(outcome["ok"]),
            output=_encodable(outcome["output"]),
            error=None if outcome["error"] is None else _encodable(outcome["error"]),
            error_kind=outcome["error_kind"],
            duration_s=time.perf_counter() - start,
        )

    def warm_up(self) -> None:
        """Start the worker process (or executor thread) now instead of at the first run."""
        with self._lock:
            if not self._closed:
                start = getattr(self._backend, "start", None) or self._backend.warm_up
                start()

    def variables(self) -> list[str]:
        """Sorted names the agent defined (variables, functions, classes, imported modules)."""
        with self._lock:
            if self._closed:
                return []
            return self._backend.variables()

    def close(self) -> None:
        """Release the executor thread / worker process. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._backend.close()

    def __enter__(self) -> "Interpreter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            if not self._closed:
                self._backend.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
