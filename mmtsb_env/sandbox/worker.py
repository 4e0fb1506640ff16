"""The worker process (a clean process holding the agent namespace under RLIMIT_AS) and its wire protocol.

This module is what runs in the worker (:func:`child_main`) plus the frame format both ends share;
the host's end is :mod:`.isolated`. Workers are forked from a template process that was exec'd
fresh (see :mod:`.zygote`), never from the host: a worker has never held the scenario, the
solution, the user's script or any other host object. Tools are proxied to the host as data.

Protocol (length-prefixed frames over one Unix socket):

* host -> worker: pickle (the worker trusts its host): ``config`` (tool names, limits, seed,
  frozen clock), ``run`` (marshalled code object, filename, source), ``reply`` (result of a tool
  call), ``vars``, ``close``.
* worker -> host: **JSON only** (the host never unpickles anything from the untrusted worker):
  ``ready``, ``call`` (tool name + JSON arguments), ``done`` (the run outcome), ``vars``. JSON
  makes every value crossing back plain ``str``/``int``/``float``/``bool``/``None``/``list``/``dict``.

The worker runs the same :class:`~.engine.Engine` as in-process mode (executor thread +
supervisor); its "provided functions" are stubs that forward each call to the host, which runs the
real callable and sends back the result or the error's type name and message. It sets
``RLIMIT_FSIZE=0`` / ``RLIMIT_CORE=0``, ``RLIMIT_NOFILE`` = the descriptors it has (no file or
socket can be opened) and ``RLIMIT_AS`` = its address space + ``memory_mb`` (held across runs:
the bound is per interpreter, not per run).

A memory bomb raises ``MemoryError`` inside the worker (the namespace survives). If the worker dies
or stops answering ``timeout + 0.5 s`` after a run started (a single long C call: regex
backtracking, a huge ``pow``, sorting 10**7 items, ...) the host (:mod:`.isolated`) kills it and
the next run starts a fresh one; the result says that variables were lost.
"""

from __future__ import annotations

import json
import marshal
import os
import pickle
import re
import signal
import struct
from typing import Any, Callable

from .engine import IMAGE_CALL, Engine, RemoteToolError, Unit
from .arguments import check_arguments


def child_frame_cap(limits: Any) -> int:
    """Bytes a worker's frame may have: a tool call's, or a run's outcome (output and error at
    up to 6 bytes a character, a JSON escape)."""
    return 2 * MAX_CALL_FRAME + 6 * (int(limits.max_output_chars) + 20_200)

FRAME_HEADER = struct.Struct(">I")
# A tool call's frame from the worker: its stub refuses arguments over the limits.check_arguments
# caps, or whose JSON is longer than this, before sending; the host reads a frame no longer than
# child_frame_cap(limits) (a call, or a run's outcome with its output) and kills a worker that
# announces more, before reading or parsing it.
MAX_CALL_FRAME = 512 * 1024
HELLO = b"!"
# default object reprs show memory addresses, which differ between processes
_ADDRESS = re.compile(r"( at 0x)[0-9a-fA-F]{4,16}>")


def cpu_seconds(limits: Any) -> int:
    """``RLIMIT_CPU`` of a worker: its whole life (one episode), a backstop for threads left
    spinning between runs; each run is bounded by its timeout."""
    return int(max(120.0, 60.0 * float(limits.timeout_s)))


def _write_frame(fd: int, payload: bytes) -> None:
    data = FRAME_HEADER.pack(len(payload)) + payload
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
    (size,) = FRAME_HEADER.unpack(_read_exact_blocking(fd, FRAME_HEADER.size))
    return _read_exact_blocking(fd, size)


# ---------------------------------------------------------------------------------------------
# Worker side


def _vm_size() -> int:
    with open("/proc/self/statm", "rb") as fh:
        return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _close_other_fds(keep: int) -> None:
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd > 2 and fd != keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _die_with_template() -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001 - not Linux: the socket's EOF still ends the worker
        pass


def _scrub(outcome: dict[str, Any]) -> dict[str, Any]:
    for key in ("output", "error"):
        text = outcome.get(key)
        if isinstance(text, str) and " at 0x" in text:
            outcome[key] = _ADDRESS.sub(r"\g<1>...>", text)
    return outcome


def child_main(fd: int, sealing_filter: bytes = b"", seccomp_nr: int = 0) -> None:
    """Serve one host interpreter over socket ``fd`` (runs in a worker forked from the template);
    in the jail, ``sealing_filter`` is added to both threads once the executor thread runs."""
    import resource

    _die_with_template()
    _close_other_fds(fd)
    os.write(fd, HELLO)  # the kernel attaches this process's credentials: the host learns its pid
    if fd != 3:  # the socket becomes fd 3: fds 0-3 are all this process has (see RLIMIT_NOFILE below)
        os.dup2(fd, 3)
        os.close(fd)
        fd = 3
    config = pickle.loads(_read_frame_blocking(fd))
    limits = config["limits"]

    def encode(obj: dict[str, Any]) -> bytes:
        return json.dumps(obj, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")

    def send(obj: dict[str, Any]) -> None:
        _write_frame(fd, encode(obj))

    def refuse(problem: str) -> RemoteToolError:
        return RemoteToolError("ToolCallError", (f"Error (invalid_argument): {problem}",), "invalid_argument")

    def make_stub(name: str) -> Callable[..., Any]:
        def stub(*args, **kwargs):
            # the host's caps, applied before anything is sent (the host never parses more)
            problem = check_arguments([*args, kwargs])
            if problem:
                raise refuse(problem)
            frame = encode({"t": "call", "name": name, "args": list(args), "kwargs": kwargs})
            if len(frame) > MAX_CALL_FRAME:
                raise refuse(f"the arguments take {len(frame):,} bytes as JSON, over the cap of {MAX_CALL_FRAME:,} "
                             "bytes for one call; send less")
            _write_frame(fd, frame)
            reply = pickle.loads(_read_frame_blocking(fd))
            if reply.get("ok"):
                return reply.get("value")
            raise RemoteToolError(reply.get("type", "ToolError"), tuple(reply.get("args", ())), reply.get("kind"))

        return stub

    names = list(config["tools"]) + ([IMAGE_CALL] if config["images"] else [])
    engine = Engine({n: make_stub(n) for n in names}, limits, allow_numpy=True, soft_memory_mb=None,
                    seed=config["seed"], clock=config["clock"], unguarded=bool(config.get("unguarded")))
    engine.warm_up()
    if sealing_filter:
        from .jail import seal_worker

        seal_worker(sealing_filter, seccomp_nr)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    cpu = cpu_seconds(limits)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    if limits.memory_mb:
        cap = _vm_size() + int(limits.memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    # no new file descriptors: nothing in the worker can open a file or a socket, whatever the
    # restricted layer lets through (everything importable was imported by the template)
    resource.setrlimit(resource.RLIMIT_NOFILE, (fd + 1, fd + 1))
    send({"t": "ready"})
    while True:
        message = pickle.loads(_read_frame_blocking(fd))
        kind = message.get("t")
        if kind == "run":
            unit = Unit(marshal.loads(message["code"]), message["filename"], message["source"])
            try:
                outcome = engine.run(unit, message.get("timeout_s"))
            except MemoryError:
                outcome = {"ok": False, "output": "", "error": "MemoryError: out of memory", "error_kind": "memory",
                           "abandoned": False}
            send({"t": "done", **_scrub(outcome)})
            if outcome.get("abandoned"):
                return
        elif kind == "vars":
            names, size = [], 0
            for n in engine.variables():  # as many as fit one call frame
                size += len(n.encode("utf-8", "surrogatepass")) + 4
                if size > MAX_CALL_FRAME:
                    break
                names.append(n)
            send({"t": "vars", "names": names})
        elif kind == "close":
            return
