"""A clean template process that forks sandbox workers on request.

The host never forks itself for the sandbox: its memory holds the scenario (expected changes,
reference solution, the user's script). Instead, once per host process, a *fresh* interpreter is
exec'd (``subprocess``, not ``fork``) that imports only this package's sandbox modules (plus numpy
and PIL), with ``PYTHONHASHSEED=0``, an empty environment and ``/`` as working directory. It then
waits on a Unix socket; for each request carrying a socket end (``SCM_RIGHTS``) it forks one worker
that runs :func:`.worker.child_main` for the host's :class:`~.isolated.IsolatedBackend` over that
socket. Forking the small, clean template is fast (a few ms) and every worker starts from the same
state, so nothing one worker does can reach another, and no worker ever held host data.

By default (``jail="required"``) the template starts inside the kernel jail of :mod:`.jail` and is
its PID 1: the jail's filesystem holds only the runtime and the sandbox's packages, each worker
adds its own seccomp filter right after the fork, and when the template exits the kernel kills
every process of the jail. If the jail cannot be set up, :class:`~.jail.JailUnavailable` carries the
launcher's last error line. ``jail="off"`` starts the same template unjailed.

Host side: :func:`spawn_worker` (thread-safe; restarts the template if it died or the host forked).
"""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading

_PID = struct.Struct(">q")
_SAFE_PATH = ("-P",) if sys.version_info >= (3, 11) else ()  # no cwd on sys.path (the cwd is "/" anyway)
REQUEST_TIMEOUT_S = 60.0
START_TIMEOUT_S = 60.0
READY = b"R"

# Runs in the fresh, unjailed interpreter (``jail="off"``): make ``mmtsb_env`` a bare namespace so
# importing the sandbox does not import the rest of the package (envs, scenarios, ...).
_BOOT = (
    "import sys, types\n"
    "pkg = types.ModuleType('mmtsb_env'); pkg.__path__ = [sys.argv[2]]; sys.modules['mmtsb_env'] = pkg\n"
    "from mmtsb_env.sandbox.zygote import serve\n"
    "serve(int(sys.argv[1]))\n"
)
# Runs in the jail (``python -s -S -P``: no site-packages; the environment is the one given
# below): the jail's filesystem holds only the runtime and ``jail.SITE``, where ``mmtsb_env`` is a
# directory holding only ``sandbox/``.
_JAIL_BOOT = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[2])\n"
    "from mmtsb_env.sandbox.zygote import serve\n"
    "serve(int(sys.argv[1]), bytes.fromhex(sys.argv[3]), bytes.fromhex(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))\n"
)


def _preload() -> None:
    """Import everything agent code may import (workers cannot open files later: RLIMIT_NOFILE)."""
    import importlib

    from . import policy, worker  # noqa: F401 - imported for the forked workers

    import encodings
    import pkgutil

    # imported on first use by the stdlib itself, or by numpy's module __getattr__ (which would
    # fail in a worker and name a file of the jail)
    lazy = ["_strptime", "traceback", "linecache", "numpy.ma", "numpy.char", "numpy.strings", "numpy.rec",
            "numpy.polynomial", "numpy.fft", "numpy.exceptions", "numpy.dtypes", "numpy.matrixlib"]
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


def serve(fd: int, worker_filter: bytes = b"", sealing_filter: bytes = b"", seccomp_nr: int = 0,
          tasks: int = 0) -> None:
    """Template main loop (runs in the exec'd process). In the jail: ``worker_filter`` is the
    seccomp program each worker loads right after the fork, ``sealing_filter`` the one it adds
    (through system call ``seccomp_nr``) once its threads run, ``tasks`` the jail's ceiling on
    tasks; all empty without the jail.

    A fork that fails (the ceiling reached) is answered with ``-errno`` instead of a pid: the
    template never exits over it, so the other workers live on."""
    sock = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # workers are reaped automatically
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the host's Ctrl-C is the host's business
    if worker_filter:
        from .jail import confine_template

        confine_template(tasks)
    _preload()
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)  # start-up errors went to the host; later ones go nowhere
        os.close(devnull)
        sock.sendall(READY)
    except OSError:
        return
    while True:
        try:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 16, 4)
        except OSError:
            return
        if not msg:
            return  # the host went away
        if not fds:
            continue
        try:
            pid = os.fork()
        except OSError as exc:  # EAGAIN: the jail's task ceiling (RLIMIT_NPROC) is reached
            pid = -(exc.errno or 1)
        if pid == 0:
            code = 70
            try:
                sock.close()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                for extra in fds[1:]:
                    os.close(extra)
                if worker_filter:
                    from .jail import confine_worker

                    confine_worker(worker_filter)  # before any thread exists: all inherit it
                from .worker import child_main

                child_main(fds[0], sealing_filter, seccomp_nr)
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
    """The template process (jailed unless ``jail="off"``) and the host's socket to it."""

    def __init__(self, jail: str) -> None:
        self.jail = jail
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
        keep = [child.fileno()]
        filter_read = None
        self.max_workers = 0
        if jail == "off":
            command = [sys.executable, "-s", *_SAFE_PATH, "-c", _BOOT, str(child.fileno()), package_dir]
        else:
            from . import jail as kernel_jail

            try:
                jail_bpf, worker_bpf = kernel_jail.jail_filter(), kernel_jail.worker_filter()
                sealing_bpf, seccomp_nr = kernel_jail.sealing_filter(), kernel_jail.seccomp_syscall()
            except kernel_jail.JailUnavailable:
                parent.close()
                child.close()
                raise
            filter_read, filter_write = os.pipe()
            os.write(filter_write, jail_bpf)  # a few hundred bytes: fits the pipe's buffer
            os.close(filter_write)
            keep.append(filter_read)
            command = kernel_jail.launch_command(
                ["-s", "-S", *_SAFE_PATH, "-c", _JAIL_BOOT, str(child.fileno()), kernel_jail.SITE, worker_bpf.hex(),
                 sealing_bpf.hex(), str(seccomp_nr), str(kernel_jail.JAIL_PROCESSES)], filter_read)
            self.max_workers = (kernel_jail.JAIL_PROCESSES - 1) // kernel_jail.WORKER_TASKS
        # start-up errors (the launcher's, the template's before it is ready) go to an unlinked file:
        # read if the start fails; never a pipe that a later write could block on or break
        self.errors = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(
                command, pass_fds=tuple(keep), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=self.errors, env=env, cwd="/", start_new_session=True,
            )
        except OSError as exc:
            parent.close()
            self.errors.close()
            raise self._unavailable(f"{command[0]}: {exc.strerror or exc}") from None
        finally:
            child.close()
            if filter_read is not None:
                os.close(filter_read)
        self.sock = parent
        self.owner = os.getpid()
        self._await_ready()

    def _unavailable(self, reason: str) -> Exception:
        if self.jail == "off":
            return OSError(f"the sandbox template process failed to start ({reason})")
        from .jail import JailUnavailable

        return JailUnavailable(reason)

    def _await_ready(self) -> None:
        """Wait for the template's ready byte; if it died, raise with the last line it printed."""
        self.sock.settimeout(START_TIMEOUT_S)
        try:
            ready = self.sock.recv(1)
        except OSError:
            ready = b""
        if ready == READY:
            self.sock.settimeout(REQUEST_TIMEOUT_S)
            self.errors.close()
            return
        self.sock.close()
        try:
            self.proc.kill()
        except OSError:
            pass
        self.proc.wait()
        self.errors.seek(0)
        err = self.errors.read(65536).decode("utf-8", "replace").strip()
        self.errors.close()
        lines = [line for line in err.splitlines() if line.strip()]
        raise self._unavailable(lines[-1].strip() if lines else f"exit status {self.proc.returncode}")

    def spawn(self) -> tuple[int, socket.socket]:
        ours, theirs = socket.socketpair()
        try:
            ours.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
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
        if pid < 0:
            ours.close()
            most = f": at most {self.max_workers} interpreters can be live at once in one process" if self.max_workers else ""
            raise JailFull(f"the sandbox template could not start another worker process ({os.strerror(-pid)}){most}; "
                           "close some")
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


class JailFull(RuntimeError):
    """The template could not fork a worker (the jail's task ceiling); the template lives on."""


_lock = threading.Lock()
_templates: dict[str, _Template] = {}


def _template(jail: str) -> _Template:
    current = _templates.get(jail)
    if current is None or current.owner != os.getpid() or current.proc.poll() is not None:
        current = _templates[jail] = _Template(jail)  # first use, after a fork of the host, or after it died
    return current


def spawn_worker(jail: str = "required") -> tuple[int, socket.socket]:
    """Fork a fresh worker from the template: its pid *as the template sees it* (in the jail's PID
    namespace) and the host's end of its socket (``SO_PASSCRED`` set: the worker's first byte
    carries its pid as the host sees it)."""
    with _lock:
        for attempt in range(2):
            template = _template(jail)
            try:
                return template.spawn()
            except OSError:
                if attempt:
                    raise
                _templates.pop(jail, None)
        raise AssertionError("unreachable")


def prestart(jail: str = "required") -> None:
    """Start the template now (otherwise the first isolated run starts it, ~0.5 s)."""
    with _lock:
        _template(jail)
