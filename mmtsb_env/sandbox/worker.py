"""Process isolation: a forked, long-lived worker holds the agent namespace under RLIMIT_AS.

Protocol (length-prefixed frames over two pipes):

* parent -> child: pickle (the child trusts its parent): ``run`` (marshalled code object, filename,
  source), ``reply`` (result of a tool call), ``vars``, ``close``.
* child -> parent: **JSON only** (the parent never unpickles anything from the untrusted child):
  ``ready``, ``call`` (tool name + JSON-like arguments), ``done`` (the run outcome), ``vars``.

The child runs the same :class:`~.engine.Engine` as in-process mode (executor thread + supervisor);
its "provided functions" are stubs that forward each call to the parent, which runs the real
callable and sends back the result or the error's type name and message. Before serving, the child
closes every inherited file descriptor, points stdio at /dev/null, clears the environment, sets
``RLIMIT_FSIZE=0`` / ``RLIMIT_CORE=0`` and ``RLIMIT_AS`` = its current address space + ``memory_mb``.

A memory bomb raises ``MemoryError`` inside the child (the namespace survives). If the child dies
(or stops answering ``timeout + 1.5 s`` after a run started) the parent kills and reaps it and the
next run forks a fresh worker; the result says that variables were lost.
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
import select
import signal
import struct
import sys
import time
from typing import Any, Callable

from .compiler import CompiledUnit
from .engine import Engine, RemoteToolError, Unit
from .policy import copy_result, scalar_args

_HEADER = struct.Struct(">I")
MAX_CHILD_MESSAGE = 64 * 1024 * 1024
PARENT_EXTRA_GRACE_S = 1.5
START_TIMEOUT_S = 30.0
ERROR_KINDS = {None, "syntax", "runtime", "violation", "timeout", "output_limit", "memory", "recursion"}


class WorkerDied(Exception):
    pass


def _write_frame(fd: int, payload: bytes) -> None:
    data = _HEADER.pack(len(payload)) + payload
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exact_blocking(fd: int, n: int) -> bytes:
    chunks = []
    while n:
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def _read_frame_blocking(fd: int) -> bytes:
    (size,) = _HEADER.unpack(_read_exact_blocking(fd, _HEADER.size))
    return _read_exact_blocking(fd, size)


def _read_exact_deadline(fd: int, n: int, deadline: float) -> bytes | None:
    chunks = []
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    while n:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        if not poller.poll(max(1, int(remaining * 1000))):
            continue
        chunk = os.read(fd, min(n, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


# ---------------------------------------------------------------------------------------------
# Child side


_INHERITED: list[Any] = []


def _sanitize_child(keep: set[int]) -> None:
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        if fd not in keep:
            os.dup2(devnull, fd)
    for fd in fds:
        if fd > 2 and fd not in keep and fd != devnull:
            try:
                os.close(fd)
            except OSError:
                pass
    os.close(devnull)
    # keep the inherited stdio objects alive: finalising them could wait on a lock another
    # parent thread held at fork time
    _INHERITED.extend([sys.stdin, sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__])
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGUSR2, signal.SIGALRM):
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
    os.environ.clear()
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"


def _vm_size() -> int:
    with open("/proc/self/statm", "rb") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _child_main(rfd: int, wfd: int, tool_names: list[str], limits: Any, seed: int | None) -> None:
    import resource

    _sanitize_child({rfd, wfd})

    def send(obj: dict[str, Any]) -> None:
        _write_frame(wfd, json.dumps(obj, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass"))

    def make_stub(name: str) -> Callable[..., Any]:
        def stub(*args, **kwargs):
            send({"t": "call", "name": name, "args": list(args), "kwargs": kwargs})
            reply = pickle.loads(_read_frame_blocking(rfd))
            if reply.get("ok"):
                return reply.get("value")
            raise RemoteToolError(reply.get("type", "ToolError"), tuple(reply.get("args", ())), reply.get("kind"))

        return stub

    engine = Engine({n: make_stub(n) for n in tool_names}, limits, allow_numpy=True, soft_memory_mb=None, seed=seed)
    engine.warm_up()
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    if limits.memory_mb:
        cap = _vm_size() + int(limits.memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    send({"t": "ready"})
    while True:
        message = pickle.loads(_read_frame_blocking(rfd))
        kind = message.get("t")
        if kind == "run":
            unit = Unit(marshal.loads(message["code"]), message["filename"], message["source"])
            try:
                outcome = engine.run(unit)
            except MemoryError:
                outcome = {"ok": False, "output": "", "error": "MemoryError: out of memory", "error_kind": "memory",
                           "abandoned": False}
            send({"t": "done", **outcome})
            if outcome.get("abandoned"):
                return
        elif kind == "vars":
            send({"t": "vars", "names": engine.variables()})
        elif kind == "close":
            return


# ---------------------------------------------------------------------------------------------
# Parent side


class IsolatedBackend:
    """Owns one worker process; forks it lazily and again after it died."""

    def __init__(self, functions: dict[str, Callable[..., Any]], limits: Any, seed: int | None) -> None:
        self.functions = dict(functions)
        self.limits = limits
        self.seed = seed
        self.pid: int | None = None
        self.rfd: int | None = None  # child -> parent
        self.wfd: int | None = None  # parent -> child

    # -- lifecycle -----------------------------------------------------------------------------
    def _start(self) -> None:
        p2c_r, p2c_w = os.pipe()
        c2p_r, c2p_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            code = 0
            try:
                os.close(p2c_w)
                os.close(c2p_r)
                _child_main(p2c_r, c2p_w, sorted(self.functions), self.limits, self.seed)
            except BaseException:  # noqa: BLE001 - never return into the parent's code
                code = 70
            finally:
                os._exit(code)
        os.close(p2c_r)
        os.close(c2p_w)
        self.pid, self.rfd, self.wfd = pid, c2p_r, p2c_w
        try:
            frame = _read_exact_deadline(self.rfd, _HEADER.size, time.monotonic() + START_TIMEOUT_S)
            if frame is None:
                raise WorkerDied("the sandbox worker did not start in time")
            (size,) = _HEADER.unpack(frame)
            if size > 1024:
                raise WorkerDied("unexpected start-up message")
            body = _read_exact_deadline(self.rfd, size, time.monotonic() + START_TIMEOUT_S)
            if body is None or json.loads(body).get("t") != "ready":
                raise WorkerDied("the sandbox worker failed to start")
        except (EOFError, ValueError, WorkerDied) as exc:
            self._kill()
            raise RuntimeError(f"could not start the sandbox worker process: {exc}") from None

    def _kill(self) -> int | None:
        status = None
        pid, self.pid = self.pid, None
        for fd in (self.rfd, self.wfd):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.rfd = self.wfd = None
        if pid is not None:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:
                status = None
        return status

    def close(self) -> None:
        if self.pid is None:
            return
        try:
            _write_frame(self.wfd, pickle.dumps({"t": "close"}))
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline:
                done, _status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    self.pid = None
                    break
                time.sleep(0.005)
        except OSError:
            pass
        self._kill()

    @property
    def alive(self) -> bool:
        return self.pid is not None

    # -- runs ----------------------------------------------------------------------------------
    def _reap_if_dead(self) -> bool:
        """True when a started worker has exited since the last run (it is then cleaned up)."""
        if self.pid is None:
            return False
        try:
            done, _status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            done = self.pid
        if not done:
            return False
        self.pid = None
        self._kill()
        return True

    def run(self, unit: CompiledUnit) -> dict[str, Any]:
        note = None
        if self._reap_if_dead():
            note = "[the sandbox worker process had exited and was restarted: variables from earlier runs were lost]"
        if self.pid is None:
            self._start()
        outcome = self._run(unit)
        if note:
            if outcome["error"]:
                outcome["error"] = outcome["error"] + "\n" + note
            else:
                outcome["output"] = note + ("\n" + outcome["output"] if outcome["output"] else "")
        return outcome

    def _run(self, unit: CompiledUnit) -> dict[str, Any]:
        deadline = time.monotonic() + float(self.limits.timeout_s) + PARENT_EXTRA_GRACE_S
        message = {"t": "run", "code": marshal.dumps(unit.code), "filename": unit.filename, "source": unit.source}
        try:
            _write_frame(self.wfd, pickle.dumps(message))
            while True:
                event = self._receive(deadline)
                if event is None:
                    self._kill()
                    return self._lost(
                        "timeout",
                        f"TimeoutError: execution exceeded the time limit of {float(self.limits.timeout_s):g} s; "
                        "the sandbox worker was killed",
                    )
                tag = event.get("t")
                if tag == "call":
                    self._serve_call(event)
                elif tag == "done":
                    outcome = self._validate_outcome(event)
                    if outcome.get("abandoned"):
                        self._kill()
                    return outcome
                else:
                    raise ValueError("unexpected message")
        except (EOFError, BrokenPipeError, ConnectionError, OSError):
            status = self._kill()
            return self._lost("memory", _death_message(status))
        except (ValueError, TypeError, KeyError, RecursionError):
            self._kill()
            return self._lost("violation", "SandboxViolation: the sandbox worker sent a malformed message")

    def variables(self) -> list[str]:
        if self.pid is None:
            return []
        try:
            _write_frame(self.wfd, pickle.dumps({"t": "vars"}))
            event = self._receive(time.monotonic() + 5.0)
        except (EOFError, OSError, ValueError):
            self._kill()
            return []
        if not event or event.get("t") != "vars" or not isinstance(event.get("names"), list):
            return []
        return [n for n in event["names"] if isinstance(n, str)]

    def _lost(self, kind: str, head: str) -> dict[str, Any]:
        return {
            "ok": False,
            "output": "",
            "error": head + "\nThe interpreter was restarted: all variables from earlier runs were lost.",
            "error_kind": kind,
            "abandoned": True,
        }

    def _receive(self, deadline: float) -> dict[str, Any] | None:
        header = _read_exact_deadline(self.rfd, _HEADER.size, deadline)
        if header is None:
            return None
        (size,) = _HEADER.unpack(header)
        if size > MAX_CHILD_MESSAGE:
            raise ValueError("message too large")
        body = _read_exact_deadline(self.rfd, size, deadline)
        if body is None:
            return None
        event = json.loads(body.decode("utf-8", "surrogatepass"))
        if not isinstance(event, dict):
            raise ValueError("malformed message")
        return event

    def _validate_outcome(self, event: dict[str, Any]) -> dict[str, Any]:
        ok, output, error, kind = event.get("ok"), event.get("output"), event.get("error"), event.get("error_kind")
        limit = int(self.limits.max_output_chars) + 200
        if (
            not isinstance(ok, bool)
            or not isinstance(output, str)
            or len(output) > limit
            or not (error is None or (isinstance(error, str) and len(error) <= 20_000))
            or kind not in ERROR_KINDS
        ):
            raise ValueError("malformed outcome")
        return {"ok": ok, "output": output, "error": error, "error_kind": kind,
                "abandoned": bool(event.get("abandoned"))}

    def _serve_call(self, event: dict[str, Any]) -> None:
        name, args, kwargs = event.get("name"), event.get("args"), event.get("kwargs")
        if not isinstance(name, str) or not isinstance(args, list) or not isinstance(kwargs, dict):
            raise ValueError("malformed call")
        fn = self.functions.get(name)
        if fn is None:
            reply = {"ok": False, "type": "NameError", "args": (f"unknown function {name!r}",), "kind": None}
        else:
            try:
                reply = {"ok": True, "value": copy_result(fn(*args, **kwargs))}
            except Exception as exc:  # noqa: BLE001 - any tool failure goes back to the agent
                kind = getattr(exc, "kind", None)
                reply = {"ok": False, "type": type(exc).__name__, "args": scalar_args(exc),
                         "kind": kind if isinstance(kind, str) else None}
        try:
            payload = pickle.dumps(reply)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result
            payload = pickle.dumps({"ok": False, "type": "TypeError",
                                    "args": (f"the result of {name} could not be sent: {exc}",), "kind": None})
        _write_frame(self.wfd, payload)


def _death_message(status: int | None) -> str:
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            sig_name = signal.Signals(sig).name
        except ValueError:
            sig_name = str(sig)
        return f"MemoryError: the sandbox worker process died (signal {sig_name}), most likely out of memory"
    if status is not None and os.WIFEXITED(status):
        return f"MemoryError: the sandbox worker process exited unexpectedly (status {os.WEXITSTATUS(status)})"
    return "MemoryError: the sandbox worker process died"
