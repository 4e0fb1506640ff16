"""A clean template process that forks sandbox workers on request.

The host never forks itself for the sandbox: its memory holds the scenario (expected changes,
reference solution, the user's script). Instead, once per host process, a *fresh* interpreter is
exec'd (``subprocess``, not ``fork``) that imports only this package's sandbox modules (plus numpy
and PIL), with ``PYTHONHASHSEED=0``, an empty environment and ``/`` as working directory. It then
waits on a Unix socket; for each request carrying a socket end (``SCM_RIGHTS``) it forks one worker
that serves an :class:`~.worker.IsolatedBackend` over that socket. Forking the small, clean
template is fast (a few ms) and every worker starts from the same state, so nothing one worker
does can reach another, and no worker ever held host data.

Host side: :func:`spawn_worker` (thread-safe; restarts the template if it died or the host forked).
"""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import threading

_PID = struct.Struct(">q")
_SAFE_PATH = ("-P",) if sys.version_info >= (3, 11) else ()  # no cwd on sys.path (the cwd is "/" anyway)
REQUEST_TIMEOUT_S = 60.0

# Runs in the fresh interpreter: make ``mmtsb_env`` a bare namespace so importing the sandbox does
# not import the rest of the package (envs, scenarios, ...).
_BOOT = (
    "import sys, types\n"
    "pkg = types.ModuleType('mmtsb_env'); pkg.__path__ = [sys.argv[2]]; sys.modules['mmtsb_env'] = pkg\n"
    "from mmtsb_env.sandbox.zygote import serve\n"
    "serve(int(sys.argv[1]))\n"
)


def _preload() -> None:
    """Import everything agent code may import (workers cannot open files later: RLIMIT_NOFILE)."""
    import importlib

    from . import policy, worker  # noqa: F401 - imported for the forked workers

    import encodings
    import pkgutil

    lazy = ["_strptime", "traceback", "linecache"]  # imported on first use by the stdlib itself
    codecs = [f"encodings.{m.name}" for m in pkgutil.iter_modules(encodings.__path__)]  # str.encode(...)
    for name in [*policy.MODULE_RULES, *policy.NUMPY_RULES, *policy.PIL_RULES, *lazy, *codecs]:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - optional dependencies (numpy, PIL)
            pass
    try:
        from PIL import Image

        Image.init()  # registers every decoder plugin now
    except Exception:  # noqa: BLE001
        pass
    policy.warm_caches()


def serve(fd: int) -> None:
    """Template main loop (runs in the exec'd process)."""
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # workers are reaped automatically
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host's Ctrl-C is the host's business
    _preload()
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 16, 4)
        except OSError:
            return
        if not msg:
            return  # the host went away
        if not fds:
            continue
        pid = os.fork()
        if pid == 0:
            code = 70
            try:
                sock.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for extra in fds[1:]:
                    os.close(extra)
                from .worker import child_main

                child_main(fds[0])
                code = 0
            except BaseException:  # noqa: BLE001 - never return into the template loop
                pass
            finally:
                os._exit(code)
        for f in fds:
            os.close(f)
        try:
            sock.sendall(_PID.pack(pid))
        except OSError:
            return


class _Template:
    def __init__(self) -> None:
        parent, child = socket.socketpair()
        package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env = {
            "PYTHONHASHSEED": "0",
            "PATH": os.defpath,
            "OPENBLAS_NUM_THREADS": "1",
            "OMP_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-s", *_SAFE_PATH, "-c", _BOOT, str(child.fileno()), package_dir],
                pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env, cwd="/", start_new_session=True,
            )
        finally:
            child.close()
        self.sock = parent
        self.sock.settimeout(REQUEST_TIMEOUT_S)
        self.owner = os.getpid()

    def spawn(self) -> tuple[int, socket.socket]:
        ours, theirs = socket.socketpair()
        try:
            socket.send_fds(self.sock, [b"w"], [theirs.fileno()])
            data = b""
            while len(data) < _PID.size:
                chunk = self.sock.recv(_PID.size - len(data))
                if not chunk:
                    raise OSError("the sandbox template process exited")
                data += chunk
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        (pid,) = _PID.unpack(data)
        return pid, ours

    def close(self) -> None:
        try:
            self.sock.close()
        finally:
            try:
                self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_lock = threading.Lock()
_template: _Template | None = None


def spawn_worker() -> tuple[int, socket.socket]:
    """Fork a fresh worker from the template: its pid and the host's end of its socket."""
    global _template
    with _lock:
        for attempt in range(2):
            if _template is None or _template.owner != os.getpid() or _template.proc.poll() is not None:
                _template = _Template()  # first use, after a fork of the host, or after it died
            try:
                return _template.spawn()
            except OSError:
                if attempt:
                    raise
                _template = None
        raise AssertionError("unreachable")


def prestart() -> None:
    """Start the template now (otherwise the first isolated run starts it, ~0.5 s)."""
    global _template
    with _lock:
        if _template is None or _template.owner != os.getpid() or _template.proc.poll() is not None:
            _template = _Template()
