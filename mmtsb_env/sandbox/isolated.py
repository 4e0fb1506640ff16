"""The host's end of an isolated interpreter: one worker process, started lazily and again after it died.

:class:`IsolatedBackend` asks the template (:func:`.zygote.spawn_worker`) for a fresh worker, sends
it the configuration, and then serves its runs over the frame protocol of :mod:`.worker`: the
worker's tool calls run here, on the real callables, and their results go back as data. Every read
and write waits on a deadline; a worker that overruns, dies or sends a malformed frame is killed
and the next run starts a fresh one (the result says that variables were lost).
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
import select
import signal
import socket
import struct
import time
from typing import Any, Callable

from .compiler import CompiledUnit
from .engine import IMAGE_CALL, run_timeout
from .jail import JailUnavailable
from .policy import plain_result, scalar_args
from .worker import FRAME_HEADER, HELLO, child_frame_cap
from .zygote import spawn_worker

_UCRED = struct.Struct("iII")  # struct ucred: pid, uid, gid
PARENT_EXTRA_GRACE_S = 0.5  # a run still busy this long after its deadline: the worker is killed
START_TIMEOUT_S = 30.0
CLOSE_GRACE_S = 0.2  # how long a closing host waits for the worker to take "close" (then kills it)
ERROR_KINDS = {None, "syntax", "runtime", "violation", "timeout", "output_limit", "memory", "recursion"}


class WorkerDied(Exception):
    """The worker did not start, or did not answer as the protocol says."""


def _write_frame_deadline(fd: int, payload: bytes, deadline: float) -> bool:
    """Write one frame to the worker's non-blocking socket by ``deadline``; False when
    the worker did not take it in time (it is not reading: the caller kills it)."""
    view = memoryview(FRAME_HEADER.pack(len(payload)) + payload)
    poller = select.poll()
    poller.register(fd, select.POLLOUT | select.POLLHUP | select.POLLERR)
    while view:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        if not poller.poll(max(1, int(remaining * 1000))):
            continue
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            continue
        view = view[written:]
    return True


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
        try:
            chunk = os.read(fd, min(n, 1 << 20))
        except BlockingIOError:
            continue
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


class JailRefused(RuntimeError):
    """The jail is required but cannot be had: agent code is not run."""


def _hello(sock: socket.socket, deadline: float) -> tuple[int, int]:
    """Read the worker's first byte and the credentials the kernel attached to it: the worker's
    pid in the host's PID namespace (the template only knows its pid inside the jail), held as a
    pidfd so that a later kill can never hit a recycled pid."""
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
    while not poller.poll(max(1, int((deadline - time.monotonic()) * 1000))):
        if time.monotonic() >= deadline:
            raise WorkerDied("the sandbox worker did not start in time")
    data, ancillary, _flags, _addr = sock.recvmsg(1, socket.CMSG_SPACE(_UCRED.size))
    if data != HELLO:
        raise WorkerDied("the sandbox worker failed to start")
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and len(payload) >= _UCRED.size:
            pid = _UCRED.unpack(payload[:_UCRED.size])[0]
            return pid, os.pidfd_open(pid)
    raise WorkerDied("the sandbox worker's credentials were missing")


class IsolatedBackend:
    """Owns one worker process; starts it lazily and again after it died."""

    def __init__(self, functions: dict[str, Callable[..., Any]], limits: Any, seed: int | None,
                 clock: Any = None, images: Callable[[int], bytes] | None = None, *,
                 unguarded: bool = False) -> None:
        self.functions = dict(functions)
        self.unguarded = unguarded
        if images is not None:
            self.functions[IMAGE_CALL] = images
        self.limits = limits
        self.seed = seed
        self.clock = clock
        self.pid: int | None = None  # as the host sees it
        self.pidfd: int | None = None
        self.sock: socket.socket | None = None
        self.rfd: int | None = None
        self.wfd: int | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> None:
        if self.pid is None:
            self._start()

    def _start(self) -> None:
        try:
            _template_pid, sock = spawn_worker(self.limits.jail)
        except JailUnavailable as exc:
            raise JailRefused(str(exc)) from None
        except OSError as exc:
            raise RuntimeError(f"could not start the sandbox worker process: {exc}") from None
        self.sock = sock
        self.rfd = self.wfd = sock.fileno()
        try:
            self.pid, self.pidfd = _hello(sock, time.monotonic() + START_TIMEOUT_S)
        except (OSError, WorkerDied) as exc:
            sock.close()
            self.sock = None
            self.rfd = self.wfd = None
            raise RuntimeError(f"could not start the sandbox worker process: {exc}") from None
        sock.setblocking(False)  # every read and write of the host waits on a deadline
        config = {"tools": sorted(n for n in self.functions if n != IMAGE_CALL), "limits": self.limits,
                  "seed": self.seed, "clock": self.clock, "images": IMAGE_CALL in self.functions,
                  "unguarded": self.unguarded}
        try:
            if not _write_frame_deadline(self.wfd, pickle.dumps(config), time.monotonic() + START_TIMEOUT_S):
                raise WorkerDied("the sandbox worker did not start in time")
            frame = _read_exact_deadline(self.rfd, FRAME_HEADER.size, time.monotonic() + START_TIMEOUT_S)
            if frame is None:
                raise WorkerDied("the sandbox worker did not start in time")
            (size,) = FRAME_HEADER.unpack(frame)
            if size > 1024:
                raise WorkerDied("unexpected start-up message")
            body = _read_exact_deadline(self.rfd, size, time.monotonic() + START_TIMEOUT_S)
            if body is None or json.loads(body).get("t") != "ready":
                raise WorkerDied("the sandbox worker failed to start")
        except (EOFError, OSError, ValueError, WorkerDied) as exc:
            self._kill()
            raise RuntimeError(f"could not start the sandbox worker process: {exc}") from None

    def _kill(self) -> None:
        self.pid = None
        pidfd, self.pidfd = self.pidfd, None
        sock, self.sock = self.sock, None
        self.rfd = self.wfd = None
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass
        if pidfd is not None:
            try:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)  # the template reaps it
            except (ProcessLookupError, PermissionError, OSError):
                pass
            finally:
                os.close(pidfd)

    def close(self) -> None:
        if self.pid is None:
            return
        try:
            _write_frame_deadline(self.wfd, pickle.dumps({"t": "close"}), time.monotonic() + CLOSE_GRACE_S)
        except OSError:
            pass
        self._kill()

    @property
    def alive(self) -> bool:
        return self.pid is not None

    # -- runs ----------------------------------------------------------------------------------
    def _reap_if_dead(self) -> bool:
        """True when a started worker has exited (or spoke out of turn) since the last run."""
        if self.pid is None:
            return False
        poller = select.poll()  # not select(): a host with many envs has descriptors past FD_SETSIZE
        poller.register(self.rfd, select.POLLIN | select.POLLHUP | select.POLLERR)
        if not poller.poll(0):
            return False
        self._kill()  # EOF (dead) or an unsolicited message: either way it cannot be trusted
        return True

    def run(self, unit: CompiledUnit, timeout_s: float | None = None) -> dict[str, Any]:
        note = None
        if self._reap_if_dead():
            note = "[the sandbox worker process had exited and was restarted: variables from earlier runs were lost]"
        if self.pid is None:
            self._start()
        outcome = self._run(unit, run_timeout(self.limits, timeout_s))
        if note:
            if outcome["error"]:
                outcome["error"] = outcome["error"] + "\n" + note
            else:
                outcome["output"] = note + ("\n" + outcome["output"] if outcome["output"] else "")
        return outcome

    def _run(self, unit: CompiledUnit, timeout_s: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s + PARENT_EXTRA_GRACE_S
        message = {"t": "run", "code": marshal.dumps(unit.code), "filename": unit.filename, "source": unit.source,
                   "timeout_s": timeout_s}
        try:
            sent = _write_frame_deadline(self.wfd, pickle.dumps(message), deadline)
            while True:
                event = self._receive(deadline) if sent else None
                if event is None:
                    self._kill()
                    return self._lost(
                        "timeout",
                        f"TimeoutError: execution exceeded the time limit of {timeout_s:g} s; "
                        "the sandbox worker was killed",
                    )
                tag = event.get("t")
                if tag == "call":
                    sent = self._serve_call(event, deadline)
                elif tag == "done":
                    outcome = self._validate_outcome(event)
                    if outcome.get("abandoned"):
                        self._kill()
                    return outcome
                else:
                    raise ValueError("unexpected message")
        except (EOFError, BrokenPipeError, ConnectionError, OSError):
            self._kill()
            return self._lost("memory", "MemoryError: the sandbox worker process died (most likely out of memory)")
        except (ValueError, TypeError, KeyError, RecursionError):
            self._kill()
            return self._lost("violation", "SandboxViolation: the sandbox worker sent a malformed message")

    def variables(self) -> list[str]:
        if self.pid is None:
            return []
        deadline = time.monotonic() + 5.0
        try:
            event = self._receive(deadline) if _write_frame_deadline(self.wfd, pickle.dumps({"t": "vars"}), deadline) else None
        except (EOFError, OSError, ValueError):
            self._kill()
            return []
        if event is None:  # it did not answer in time
            self._kill()
            return []
        if event.get("t") != "vars" or not isinstance(event.get("names"), list):
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
        header = _read_exact_deadline(self.rfd, FRAME_HEADER.size, deadline)
        if header is None:
            return None
        (size,) = FRAME_HEADER.unpack(header)
        if size > child_frame_cap(self.limits):
            raise ValueError("message too large")
        body = _read_exact_deadline(self.rfd, size, deadline)
        if body is None:
            return None
        event = json.loads(body.decode("utf-8", "surrogatepass"), parse_constant=float)
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

    def _serve_call(self, event: dict[str, Any], deadline: float) -> bool:
        """Run one tool call for the worker and send the reply by ``deadline`` (False: not taken)."""
        name, args, kwargs = event.get("name"), event.get("args"), event.get("kwargs")
        if not isinstance(name, str) or not isinstance(args, list) or not isinstance(kwargs, dict):
            raise ValueError("malformed call")
        fn = self.functions.get(name)
        if fn is None:
            reply = {"ok": False, "type": "NameError", "args": (f"unknown function {name!r}",), "kind": None}
        else:
            try:
                reply = {"ok": True, "value": plain_result(fn(*args, **kwargs))}
            except Exception as exc:  # noqa: BLE001 - any tool failure goes back to the agent
                kind = getattr(exc, "kind", None)
                reply = {"ok": False, "type": type(exc).__name__, "args": scalar_args(exc),
                         "kind": kind if isinstance(kind, str) else None}
        try:
            payload = pickle.dumps(reply)
        except Exception as exc:  # noqa: BLE001 - an unpicklable result
            payload = pickle.dumps({"ok": False, "type": "TypeError",
                                    "args": (f"the result of {name} could not be sent: {exc}",), "kind": None})
        return _write_frame_deadline(self.wfd, payload, deadline)
