"""Limits layer: runs compiled snippets on a dedicated executor thread under a supervisor.

Design
------
* Agent code never runs on the caller's thread. Each namespace *generation* owns one daemon
  executor thread; :meth:`Engine.run` hands it the compiled unit and then supervises from the
  calling thread (any thread: no signals are used).
* Provided functions run on the **calling** thread: the executor sends a request, the supervisor
  calls the real callable, copies the result and sends it back. Tool code therefore never receives
  an asynchronous interrupt, sees the caller's thread-local state, and is atomic w.r.t. timeouts.
* Timeout: at the deadline the supervisor sets ``RunState.halt`` -- the compiled code checks it at
  every loop iteration and function entry (``_tick_``/``_enter_``) and the ticking iterators check it
  per item -- then, if the code is still running, injects ``SandboxTimeout`` into the executor thread
  with ``PyThreadState_SetAsyncExc`` every 100 ms (reaches any Python bytecode). Code stuck inside
  one C call cannot be interrupted in-process: if that call releases the GIL, the generation is
  abandoned after ``timeout + 1 s`` (fresh namespace next run, variables lost, reported in the
  error); if it holds the GIL, nothing in this process runs until it returns (use isolation).
* Recursion: ``_enter_``/``_exit_`` count nested calls of functions the agent defined and raise
  ``RecursionError`` past ``Limits.recursion_limit``; the process-wide ``sys.setrecursionlimit`` is
  never changed (other threads are unaffected); lambdas/generators fall back on Python's own limit,
  which the fresh executor stack reaches cleanly. Both are reported as ``recursion``.
* Memory (in-process): the supervisor samples the process RSS every 50 ms and interrupts the run if
  it grew more than ``soft_memory_mb`` (process isolation with RLIMIT_AS is the hard guarantee).
"""

from __future__ import annotations

import ctypes
import os
import queue
import threading
import time
import traceback
from dataclasses import dataclass
from types import CodeType
from typing import Any, Callable

from .compiler import FILENAME_PREFIX, RESULT_NAME
from .errors import (
    ResourceLimitError,
    SandboxIdle,
    SandboxInterrupt,
    SandboxMemoryExceeded,
    SandboxOutputLimit,
    SandboxTimeout,
    SandboxViolation,
    make_tool_error,
)
from .policy import OutputCollector, RunState, TooManyValues, build_namespace, plain_call, plain_result, scalar_args

IMAGE_CALL = "<image>"  # reserved function name (never an identifier): image bytes by id, for PIL
COOPERATIVE_GRACE_S = 0.05  # wait this long after setting the halt flag before injecting
INJECT_INTERVAL_S = 0.1
HARD_GRACE_S = 1.0  # after timeout + this, a run stuck in C code is abandoned
MEMORY_POLL_S = 0.05
MAX_ERROR_CHARS = 4000
MAX_TRACEBACK_FRAMES = 8
EXECUTOR_STACK_BYTES = 32 * 1024 * 1024

_NOTHING = object()
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

_set_async_exc = ctypes.pythonapi["PyThreadState_SetAsyncExc"]
_set_async_exc.argtypes = [ctypes.c_ulong, ctypes.py_object]
_set_async_exc.restype = ctypes.c_int
# Never call PyThreadState_SetAsyncExc(tid, NULL) to "clear" an injection: on CPython 3.11 that
# leaves the interpreter's eval-breaker signalled with nothing to deliver, and a thread running
# under a profiler (cProfile, pyinstrument) then spins at 100% CPU forever. A pending injection
# is instead delivered and dropped on the executor thread (``_quiesce``).


def _checkpoint() -> None:
    """A Python call: a pending asynchronous exception is raised here at the latest."""


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class Unit:
    """What the engine needs of a compiled snippet."""

    code: CodeType
    filename: str
    source: str


class RemoteToolError(Exception):
    """A tool failure relayed from another process, carrying the original type name."""

    def __init__(self, type_name: str, args: tuple[Any, ...], kind: str | None) -> None:
        super().__init__(*args)
        self.type_name = type_name
        self.error_args = args
        self.kind = kind


class _Generation:
    """One agent namespace plus the executor thread that runs code in it."""

    def __init__(self, engine: "Engine", number: int) -> None:
        limits = engine.limits
        self.number = number
        self.state = RunState(limits.recursion_limit)
        self.collector = OutputCollector(self.state, limits.max_output_chars)
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.replies: queue.SimpleQueue = queue.SimpleQueue()
        self.lock = threading.Lock()
        self.running = False
        self.abandoned = False
        self.call_seq = 0
        self.sources: dict[str, list[str]] = {}
        self.memory_mb = getattr(limits, "memory_mb", None)
        tools = {name: self._make_tool(name) for name in engine.functions}
        image_loader = tools.pop(IMAGE_CALL, None)  # PIL.Image.open(image_id), served like a tool call
        if engine.unguarded:
            self.globals = _plain_namespace(self.collector, tools)
        else:
            self.namespace = build_namespace(
                self.state, self.collector, tools, allow_numpy=engine.allow_numpy, seed=engine.seed,
                clock=engine.clock, image_loader=image_loader,
            )
            self.globals = self.namespace.globals
        self.thread: threading.Thread | None = None
        self.thread_id = 0

    # -- agent side of a tool call (runs on the executor thread) --------------------------------
    def _make_tool(self, name: str) -> Callable[..., Any]:
        state, events, replies, gen = self.state, self.events, self.replies, self

        def tool(*args, **kwargs):
            if state.halt or threading.get_ident() != state.thread:
                state.stop()
            try:
                plain_args, plain_kw = plain_call(args, kwargs)
            except TooManyValues as exc:  # refused here: nothing of it is copied or sent
                raise make_tool_error("ToolCallError", (f"Error (invalid_argument): {exc}",), "invalid_argument") from None
            gen.call_seq += 1
            call_id = gen.call_seq
            events.put(("call", call_id, name, plain_args, plain_kw))
            while True:
                reply_id, status, payload = replies.get()
                if reply_id == call_id:
                    break
            if status == "ok":
                return payload
            type_name, err_args, kind = payload
            raise make_tool_error(type_name, tuple(err_args), kind)

        tool.__name__ = name
        tool.__qualname__ = name
        return tool

    def start_thread(self) -> None:
        ready = threading.Event()
        thread = threading.Thread(target=self._main, args=(ready,), name=f"sandbox-exec-{self.number}", daemon=True)
        # a roomy stack: recursion through C calls (repr, sorted(key=...), ...) uses the C stack
        previous = threading.stack_size()
        try:
            threading.stack_size(EXECUTOR_STACK_BYTES)
        except (ValueError, RuntimeError):
            previous = None
        try:
            thread.start()
        finally:
            if previous is not None:
                threading.stack_size(previous)
        ready.wait()
        self.thread = thread

    # -- executor thread -----------------------------------------------------------------------
    def _main(self, ready: threading.Event) -> None:
        self.thread_id = self.state.thread = threading.get_ident()
        ready.set()
        while True:
            try:
                job = self.jobs.get()
                if job is None:
                    return
                if job == "close":
                    self._clear()
                    return
                token, unit, timeout_s = job
                try:
                    outcome = self._execute(unit, timeout_s)
                except BaseException as exc:  # noqa: BLE001 - a late interrupt during bookkeeping
                    outcome = _interrupt_outcome(exc, timeout_s, self.collector)
                self._quiesce()
                self.events.put(("done", token, outcome))
            except BaseException:  # noqa: BLE001 - an interrupt that arrived after a run: keep serving
                try:
                    self._quiesce()
                except BaseException:  # noqa: BLE001
                    pass

    def _clear(self) -> None:
        """Drop the namespace on this thread: finalisers of agent objects (a generator's
        ``finally``, ...) then run here, where the halted run state stops them, never on a host
        thread."""
        try:
            self.globals.clear()
        except BaseException:  # noqa: BLE001 - a finaliser interrupted by the halt flag
            pass

    def _quiesce(self) -> None:
        """Stop further injections, then let one that may be pending fire here and drop it."""
        while True:
            try:
                with self.lock:
                    self.running = False
                _checkpoint()
                return
            except BaseException:  # noqa: BLE001 - the late injection itself
                continue

    def _execute(self, unit: Unit, timeout_s: float) -> dict[str, Any]:
        g = self.globals
        collector = self.collector
        collector.reset()
        g.pop(RESULT_NAME, None)
        self._remember(unit)
        rendered: str | None = None
        try:
            exec(unit.code, g)
            value = g.pop(RESULT_NAME, _NOTHING)
            if value is not _NOTHING and value is not None:
                rendered = repr(value)
            state = self.state
            if state.halt and state.reason in ("timeout", "memory", "output"):
                # the interrupt was raised but swallowed where Python ignores exceptions (a
                # generator finaliser, ...): the run still counts as stopped
                state.stop()
            error = None
            kind = None
        except BaseException as exc:  # noqa: BLE001 - everything the agent code raises
            g.pop(RESULT_NAME, None)
            kind, error = self._describe(exc, timeout_s)
            exc.__traceback__ = None
            del exc
        return {"ok": error is None, "output": _render_output(collector, rendered), "error": error,
                "error_kind": kind, "abandoned": False}

    def _remember(self, unit: Unit) -> None:
        if unit.filename not in self.sources:
            if len(self.sources) >= 512:
                self.sources.pop(next(iter(self.sources)))
            self.sources[unit.filename] = unit.source.splitlines()

    def _describe(self, exc: BaseException, timeout_s: float) -> tuple[str, str]:
        kind = classify(exc)
        lines = []
        frame = None
        for frame, lineno in traceback.walk_tb(exc.__traceback__):
            filename = frame.f_code.co_filename
            if not filename.startswith(FILENAME_PREFIX):
                continue
            name = frame.f_code.co_name
            where = "<agent code>" if name == "<module>" else name
            source = self.sources.get(filename)
            text = source[lineno - 1].strip() if source and 0 < lineno <= len(source) else ""
            lines.append((f"  line {lineno}, in {where}", f"    {text}" if text else ""))
        del frame
        if len(lines) > MAX_TRACEBACK_FRAMES:
            skipped = len(lines) - MAX_TRACEBACK_FRAMES
            lines = lines[:3] + [(f"  ... {skipped} more frames ...", "")] + lines[-(MAX_TRACEBACK_FRAMES - 3):]
        out = []
        if lines:
            out.append("Traceback (most recent call last):")
            for head, text in lines:
                out.append(head)
                if text:
                    out.append(text)
        line = exception_line(exc, timeout_s, self.collector.hard)
        if line == "MemoryError" and self.memory_mb:
            line = f"MemoryError: out of memory (the sandbox may use about {self.memory_mb} MiB)"
        out.append(line)
        return kind, _clip("\n".join(out), MAX_ERROR_CHARS)


def _plain_namespace(collector: OutputCollector, tools: dict[str, Callable[..., Any]]) -> dict[str, Any]:
    """Test-only: the real builtins, the tool stubs, and a ``print`` into the output collector."""
    import builtins

    def plain_print(*args: Any, sep: str = " ", end: str = "\n", **_ignored: Any) -> None:
        collector.write(sep.join(str(a) for a in args) + end)

    return {"__builtins__": builtins, "__name__": "__agent__", "print": plain_print, **tools}


def classify(exc: BaseException) -> str:
    if isinstance(exc, SandboxInterrupt):
        return exc.error_kind
    if isinstance(exc, SandboxViolation):
        return "violation"
    if isinstance(exc, RecursionError):
        return "recursion"
    if isinstance(exc, MemoryError):
        return "memory"
    return "runtime"


def run_timeout(limits: Any, timeout_s: float | None) -> float:
    """The time limit of one run: ``timeout_s`` when given (a replay's share of its budget), never
    more than the limits' ``timeout_s``; at least a millisecond."""
    cap = float(limits.timeout_s)
    if timeout_s is None:
        return cap
    try:
        value = float(timeout_s)
    except (TypeError, ValueError):
        return cap
    return cap if value != value else max(0.001, min(cap, value))


def exception_line(exc: BaseException, timeout_s: float, output_hard: int) -> str:
    if isinstance(exc, SandboxTimeout):
        return f"TimeoutError: execution exceeded the time limit of {timeout_s:g} s and was stopped"
    if isinstance(exc, SandboxMemoryExceeded):
        return "MemoryError: the run used too much memory and was stopped"
    if isinstance(exc, SandboxOutputLimit):
        return f"OutputLimitError: the run printed more than {output_hard:,} characters and was stopped"
    if isinstance(exc, SandboxIdle):
        return "SandboxViolation: agent code cannot run outside an active run"
    name = type(exc).__name__
    if isinstance(exc, ResourceLimitError):
        name = "MemoryError"
    try:
        message = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__
        message = "<unprintable message>"
    message = _clip(message, 2000)
    return f"{name}: {message}" if message else name


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit:,} more characters]"


def _render_output(collector: OutputCollector, rendered: str | None) -> str:
    printed = collector.text()
    total = collector.total
    if rendered is not None:
        sep = "\n" if printed and not printed.endswith("\n") else ""
        total += len(sep) + len(rendered)
        room = collector.cap - len(printed)
        if room > 0:
            printed = printed + (sep + rendered)[:room]
    if total > collector.cap:
        return printed + f"\n[output truncated: {total - collector.cap:,} more characters]"
    return printed


def _interrupt_outcome(exc: BaseException, timeout_s: float, collector: OutputCollector) -> dict[str, Any]:
    return {"ok": False, "output": _render_output(collector, None), "error": exception_line(exc, timeout_s,
            collector.hard), "error_kind": classify(exc), "abandoned": False}


class Engine:
    """Runs compiled units in a persistent namespace; provided functions run on the calling thread."""

    def __init__(
        self,
        functions: dict[str, Callable[..., Any]],
        limits: Any,
        *,
        allow_numpy: bool = False,
        soft_memory_mb: int | None = None,
        seed: int | None = None,
        clock: Any = None,
        unguarded: bool = False,
    ) -> None:
        self.functions = dict(functions)
        self.unguarded = unguarded  # test-only: plain Python (see interpreter.GUARD_DISABLED_FOR_TESTS)
        self.limits = limits
        self.allow_numpy = allow_numpy
        self.soft_memory_mb = soft_memory_mb
        self.seed = seed
        self.clock = clock
        self._generation: _Generation | None = None
        self._generations = 0
        self._token = 0

    # -- public --------------------------------------------------------------------------------
    def run(self, unit: Unit, timeout_s: float | None = None) -> dict[str, Any]:
        """Run ``unit``; ``timeout_s`` (at most the limits') bounds this run instead of the limits'."""
        gen = self._ensure_generation()
        try:
            return self._supervise(gen, unit, timeout_s)
        except BaseException:
            self._abandon(gen)
            raise

    def variables(self) -> list[str]:
        gen = self._generation
        if gen is None:
            return []
        return sorted(n for n in list(gen.globals) if not n.startswith("_"))

    def close(self) -> None:
        gen, self._generation = self._generation, None
        if gen is not None:
            gen.state.halt = True
            gen.state.reason = "idle"
            if gen.thread is not None and gen.thread.is_alive() and gen.thread is not threading.current_thread():
                gen.jobs.put("close")  # the namespace is cleared on the executor thread
                gen.thread.join(timeout=0.5)
            else:
                gen.jobs.put(None)

    def warm_up(self) -> None:
        self._ensure_generation()

    # -- internals -----------------------------------------------------------------------------
    def _ensure_generation(self) -> _Generation:
        gen = self._generation
        if gen is None:
            self._generations += 1
            gen = _Generation(self, self._generations)
            gen.start_thread()
            self._generation = gen
        elif gen.thread is None or not gen.thread.is_alive():
            gen.start_thread()
        return gen

    def _abandon(self, gen: _Generation) -> None:
        gen.abandoned = True
        gen.state.reason = "timeout"
        gen.state.halt = True
        gen.jobs.put(None)
        if self._generation is gen:
            self._generation = None

    def _inject(self, gen: _Generation, exc_type: type) -> None:
        with gen.lock:
            if gen.running:
                _set_async_exc(gen.thread_id, exc_type)

    def _supervise(self, gen: _Generation, unit: Unit, timeout_s: float | None = None) -> dict[str, Any]:
        limits = self.limits
        timeout_s = run_timeout(limits, timeout_s)
        state = gen.state
        self._token += 1
        token = self._token
        while True:  # drop replies a previous interrupted call may have left behind
            try:
                gen.replies.get_nowait()
            except queue.Empty:
                break
        state.depth = 0
        state.reason = None
        state.halt = False
        with gen.lock:
            gen.running = True
        start = time.monotonic()
        deadline = start + timeout_s
        halted_at: float | None = None
        next_inject = 0.0
        soft_limit = None
        if self.soft_memory_mb:
            soft_limit = rss_bytes() + int(self.soft_memory_mb) * 1024 * 1024
        next_poll = start + MEMORY_POLL_S
        gen.jobs.put((token, unit, timeout_s))
        try:
            while True:
                now = time.monotonic()
                wake = deadline if halted_at is None else min(next_inject, halted_at + HARD_GRACE_S)
                if soft_limit is not None and halted_at is None:
                    wake = min(wake, next_poll)
                try:
                    event = gen.events.get(timeout=max(0.0, wake - now))
                except queue.Empty:
                    now = time.monotonic()
                    if halted_at is None:
                        if soft_limit is not None and now >= next_poll:
                            next_poll = now + MEMORY_POLL_S
                            if rss_bytes() > soft_limit:
                                state.reason = "memory"
                                state.halt = True
                                halted_at = now
                                next_inject = now
                                continue
                        if now >= deadline:
                            state.reason = "timeout"
                            state.halt = True
                            halted_at = now
                            next_inject = now + COOPERATIVE_GRACE_S
                        continue
                    if now >= halted_at + HARD_GRACE_S:
                        self._abandon(gen)
                        reason = state.reason
                        kind = "memory" if reason == "memory" else "timeout"
                        head = (
                            f"TimeoutError: execution exceeded the time limit of {timeout_s:g} s"
                            if kind == "timeout"
                            else "MemoryError: the run used too much memory"
                        )
                        return {
                            "ok": False,
                            "output": _render_output(gen.collector, None),
                            "error": head + " and could not be interrupted (stuck inside a built-in "
                            "operation); the interpreter was reset and all variables were lost",
                            "error_kind": kind,
                            "abandoned": True,
                        }
                    if now >= next_inject:
                        exc_type = SandboxMemoryExceeded if state.reason == "memory" else SandboxTimeout
                        self._inject(gen, exc_type)
                        next_inject = now + INJECT_INTERVAL_S
                    continue
                tag = event[0]
                if tag == "call":
                    gen.replies.put(self._serve_call(event))
                elif tag == "done" and event[1] == token:
                    return event[2]
        finally:
            if not gen.abandoned:
                state.reason = "idle"
                state.halt = True

    def _serve_call(self, event: tuple) -> tuple:
        _, call_id, name, args, kwargs = event
        fn = self.functions.get(name)
        if fn is None:
            return call_id, "err", ("NameError", (f"unknown function {name!r}",), None)
        try:
            result = fn(*args, **kwargs)
        except RemoteToolError as exc:
            return call_id, "err", (exc.type_name, exc.error_args, exc.kind)
        except Exception as exc:  # noqa: BLE001 - any tool failure goes back to the agent
            kind = getattr(exc, "kind", None)
            return call_id, "err", (type(exc).__name__, scalar_args(exc), kind if isinstance(kind, str) else None)
        try:
            return call_id, "ok", plain_result(result)
        except Exception as exc:  # noqa: BLE001
            return call_id, "err", ("TypeError", (f"the result of {name} could not be copied: {exc}",), None)
