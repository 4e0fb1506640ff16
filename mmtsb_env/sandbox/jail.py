"""The kernel jail around the sandbox's template and worker processes (Linux).

Two maintained tools do the work; this module only says what they should do.

* **bubblewrap** (``bwrap``, Debian's package) starts the template in new user, PID, mount,
  network, IPC, UTS and cgroup namespaces with ``no_new_privs``, no capabilities, further user
  namespaces disabled, and a filesystem holding only: the interpreter, its shared library and
  standard library (without ``site-packages``), the system's shared libraries, the sandbox's own
  modules and the third-party packages agent code may import (:data:`PACKAGES`), all read-only; a
  fresh, read-only ``/proc`` of the new PID namespace, a minimal read-only ``/dev`` and an empty,
  read-only ``/tmp`` (nothing in the jail can create a file anywhere). The template is the jail's
  PID 1: when it exits the kernel kills every process of the jail.
* **libseccomp** (through ``pyseccomp``) compiles two seccomp filters on the host:
  :data:`JAIL_DENIED` for everything in the jail (given to ``bwrap --seccomp``), and
  :data:`WORKER_DENIED` (and the argument rules beside it) that each worker adds right after it
  was forked: no fork, no exec, no signal to anyone else by any route (``kill`` and its kin,
  ``fcntl``/``ioctl`` that would make the kernel signal another process), no scheduling or
  ``prlimit`` of another process, no System V or POSIX IPC, no ``memfd``, no extended attributes.
  Workers load it with the kernel's own ``prctl(PR_SET_SECCOMP)`` call (:func:`confine_worker`);
  once a worker's two threads run, it adds :data:`SEALED` (no ``clone`` at all) to both
  (:func:`seal_worker`), so a worker holds exactly two of the jail's :data:`JAIL_PROCESSES` tasks.

When the host runs as root, the jail does not run as root: the runtime's directories are first
bind-mounted into a private staging mount namespace (``unshare``), then ``setpriv`` drops to
``nobody`` and ``bwrap`` builds the jail from there (unprivileged user namespace). Outside the
jail its processes are ``nobody``: no signal to the host, no ``/proc/<host>/mem``, and
``RLIMIT_NPROC`` applies (the kernel exempts root).

:func:`launch_command` is the host side; :func:`confine_worker` and :func:`confine_template`
run inside the jail.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import shlex
import sys
import sysconfig
from functools import lru_cache

JAIL_MODES = ("required", "off")
BWRAP = "bwrap"  # the launcher (tests replace it to simulate a kernel without user namespaces)
SITE = "/jail/site"  # where the sandbox package and its third-party packages appear in the jail
STAGE = "/mnt"  # root only: mount point of the staging tmpfs (in a private mount namespace)
NOBODY = 65534
JAIL_PROCESSES = 2048  # RLIMIT_NPROC for the jail's uid: tasks (threads included) of the template and all workers
WORKER_TASKS = 2  # a sealed worker's threads: the main (protocol) thread and the executor
MAX_WORKERS = (JAIL_PROCESSES - 1) // WORKER_TASKS  # live interpreters per host process (1,023)
# top-level packages agent code may import (policy.MODULE_RULES etc. beyond the stdlib), with the
# directories of shared libraries their wheels ship beside them
PACKAGES = {"RestrictedPython": (), "numpy": ("numpy.libs",), "PIL": ("pillow.libs",)}

# system calls refused (EPERM) to every process in the jail
JAIL_DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "mount_setattr", "move_mount",
    "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon", "swapoff",
    "acct", "quotactl", "syslog", "name_to_handle_at", "open_by_handle_at", "iopl", "ioperm",
    "socket", "socketpair", "io_uring_setup", "personality",
)
# clone() with any of these flags (new namespaces) is refused in the jail; clone3 (whose flags a
# filter cannot read) answers ENOSYS, so the C library falls back to clone()
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x00000080)
CLONE_THREAD = 0x00010000
# refused to a worker on top of JAIL_DENIED: it starts no process and signals nobody
WORKER_DENIED = (
    "fork", "vfork", "execve", "execveat", "kill", "tkill", "tgkill", "rt_sigqueueinfo",
    "rt_tgsigqueueinfo", "pidfd_send_signal", "pidfd_open", "setpriority", "sched_setaffinity",
    "sched_setscheduler", "sched_setparam", "sched_setattr", "ioprio_set", "setsid", "setpgid",
    "migrate_pages", "move_pages", "process_madvise", "process_mrelease",
    # IPC objects outlive the worker (they belong to the jail's IPC namespace, i.e. the template)
    "shmget", "shmat", "shmctl", "shmdt", "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop",
    "semtimedop", "semctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify",
    "mq_getsetattr", "memfd_create", "memfd_secret",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
)
# fcntl/ioctl commands that make the kernel send a signal (any, SIGKILL included) to another
# process: the owner of an O_ASYNC descriptor, the signal it gets, a socket's process group. The
# command is an unsigned int: only its low 32 bits are compared (the kernel ignores the rest).
F_SETOWN, F_SETSIG, F_SETOWN_EX = 8, 10, 15
FIOSETOWN, SIOCSPGRP, TIOCSPGRP = 0x8901, 0x8902, 0x5410
SIGNAL_ROUTES = (("fcntl", (F_SETOWN, F_SETSIG, F_SETOWN_EX)), ("ioctl", (FIOSETOWN, SIOCSPGRP, TIOCSPGRP)))
# added to a worker once its threads run: no new task at all (clone3 already answers ENOSYS)
SEALED = ("clone",)


class JailUnavailable(RuntimeError):
    """The jail cannot be set up on this machine (no bwrap, no user namespaces, ...)."""


# ---------------------------------------------------------------------------------------------
# Host side


@lru_cache(maxsize=1)
def _filters() -> tuple[bytes, bytes, bytes]:
    """(jail filter, worker filter, sealing filter) as BPF programs compiled by libseccomp."""
    try:
        import pyseccomp as sc
    except (ImportError, OSError) as exc:  # the bindings or libseccomp.so.2 missing
        raise JailUnavailable(f"libseccomp is not available ({exc})") from None

    def compile_(rules) -> bytes:
        flt = sc.SyscallFilter(sc.ALLOW)
        for action, name, args in rules:
            try:
                flt.add_rule(action, name, *args)
            except OSError:  # a call this architecture does not have
                pass
        with os.fdopen(os.memfd_create("mmtsb-seccomp"), "w+b") as out:
            flt.export_bpf(out)
            out.seek(0)
            return out.read()

    eperm = sc.ERRNO(errno.EPERM)
    jail = [(eperm, name, ()) for name in JAIL_DENIED]
    jail += [(eperm, "clone", (sc.Arg(0, sc.MASKED_EQ, flag, flag),)) for flag in NAMESPACE_FLAGS]
    jail.append((sc.ERRNO(errno.ENOSYS), "clone3", ()))
    worker = [(eperm, name, ()) for name in WORKER_DENIED]
    worker.append((eperm, "clone", (sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0),)))  # threads only
    worker.append((eperm, "prlimit64", (sc.Arg(0, sc.NE, 0),)))  # its own limits only
    for call, commands in SIGNAL_ROUTES:
        worker += [(eperm, call, (sc.Arg(1, sc.MASKED_EQ, 0xFFFFFFFF, command),)) for command in commands]
    sealed = [(eperm, name, ()) for name in SEALED]
    return compile_(jail), compile_(worker), compile_(sealed)


def jail_filter() -> bytes:
    return _filters()[0]


def worker_filter() -> bytes:
    return _filters()[1]


def sealing_filter() -> bytes:
    return _filters()[2]


def seccomp_syscall() -> int:
    """The number of the ``seccomp`` system call on this machine (the jail cannot ask libseccomp)."""
    import pyseccomp as sc

    return sc.resolve_syscall(sc.Arch.NATIVE, "seccomp")


def _package_binds() -> list[tuple[str, str]]:
    """(host directory, jail directory) of the sandbox package and the third-party packages."""
    sandbox_dir = os.path.dirname(os.path.abspath(__file__))
    binds = [(sandbox_dir, f"{SITE}/mmtsb_env/sandbox")]
    for name, extras in PACKAGES.items():
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue  # optional (numpy, PIL): agent code then cannot import it
        package_dir = list(spec.submodule_search_locations)[0]
        binds.append((package_dir, f"{SITE}/{name}"))
        site = os.path.dirname(package_dir)
        for extra in extras:
            if os.path.isdir(os.path.join(site, extra)):
                binds.append((os.path.join(site, extra), f"{SITE}/{extra}"))
    return binds


def _runtime_binds() -> tuple[list[tuple[str, str]], list[str]]:
    """The runtime at its own paths: the interpreter, its shared library, the standard library
    (without the installation's ``site-packages`` and the stdlib's own test suite, which are covered
    by empty directories), and the system's shared libraries. Returns (binds, covered paths)."""
    executable = interpreter()
    stdlib = os.path.realpath(sysconfig.get_paths()["stdlib"])
    binds = [(executable, executable), (stdlib, stdlib)]
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    soname = sysconfig.get_config_var("INSTSONAME") or ""
    shared = os.path.join(libdir, soname) if libdir and soname else ""
    if shared and os.path.isfile(shared) and not shared.startswith(stdlib + os.sep):
        binds.append((os.path.realpath(shared), shared))
    multiarch = sysconfig.get_config_var("MULTIARCH") or ""
    for lib in (f"/usr/lib/{multiarch}" if multiarch else "/usr/lib", "/usr/lib64"):
        if os.path.isdir(lib) and not os.path.islink(lib):
            binds.append((lib, lib))
    covered = [path for path in (os.path.join(stdlib, "site-packages"), os.path.join(stdlib, "dist-packages"),
                                 os.path.join(stdlib, "test")) if os.path.isdir(path)]
    return binds, covered


def interpreter() -> str:
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


def launch_command(python_args: list[str], seccomp_fd: int) -> list[str]:
    """The command that starts ``python_args`` (after the interpreter) in the jail.

    ``seccomp_fd`` must be open, inherited, and hold the jail filter (:func:`jail_filter`)."""
    runtime, covered = _runtime_binds()
    binds = runtime + _package_binds()
    staged = os.geteuid() == 0
    args = [BWRAP, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--disable-userns", "--die-with-parent", "--new-session", "--as-pid-1"]
    for i, (source, target) in enumerate(binds):
        args += ["--ro-bind", f"{STAGE}/{i}" if staged else source, target]
    for path in covered:
        args += ["--perms", "0555", "--tmpfs", path]
    for link in ("lib", "lib64", "bin"):
        path = "/" + link
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
    if os.path.isfile("/etc/ld.so.cache"):
        args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    args += ["--proc", "/proc", "--dev", "/dev", "--perms", "0555", "--size", "4096", "--tmpfs", "/tmp"]
    for path in ("/", "/dev", "/tmp", "/proc", *covered):  # nothing writable: no file can be created
        args += ["--remount-ro", path]
    args += ["--chdir", "/", "--seccomp", str(seccomp_fd), "--", interpreter(), *python_args]
    if not staged:
        return args
    # root: bind every source into a staging tmpfs of a private mount namespace (as root, which
    # can read /root/...), then build the jail as nobody from there
    lines = ["set -e", f"mount -t tmpfs -o mode=0755,size=64k mmtsb-jail {STAGE}"]
    for i, (source, _target) in enumerate(binds):
        make = "mkdir" if os.path.isdir(source) else "touch"
        lines += [f"{make} {STAGE}/{i}", f"mount --bind {shlex.quote(source)} {STAGE}/{i}"]
    lines.append(f"exec setpriv --reuid={NOBODY} --regid={NOBODY} --clear-groups -- {shlex.join(args)}")
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", "\n".join(lines)]


# ---------------------------------------------------------------------------------------------
# Inside the jail


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def confine_template(tasks: int = JAIL_PROCESSES) -> None:
    """Template start-up: not dumpable (no worker can read its memory through /proc) and a
    ceiling on the jail's tasks."""
    import resource

    _libc().prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    resource.setrlimit(resource.RLIMIT_NPROC, (tasks, tasks))


def confine_worker(bpf: bytes) -> None:
    """Load the worker filter for this process and every thread it starts later."""
    import ctypes

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = _libc()
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS (bwrap set it already)
        raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
    program = ctypes.create_string_buffer(bpf, len(bpf))
    fprog = SockFprog(len(bpf) // 8, ctypes.addressof(program))
    if libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
        raise OSError(ctypes.get_errno(), "loading the worker's seccomp filter failed")


def seal_worker(bpf: bytes, seccomp_nr: int) -> None:
    """Add ``bpf`` (:data:`SEALED`) to every thread of this process at once (``seccomp()`` with
    ``SECCOMP_FILTER_FLAG_TSYNC``): from now on the worker starts no thread."""
    import ctypes

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = _libc()
    program = ctypes.create_string_buffer(bpf, len(bpf))
    fprog = SockFprog(len(bpf) // 8, ctypes.addressof(program))
    # SECCOMP_SET_MODE_FILTER 1, SECCOMP_FILTER_FLAG_TSYNC 1
    if libc.syscall(ctypes.c_long(seccomp_nr), ctypes.c_uint(1), ctypes.c_uint(1), ctypes.byref(fprog)) != 0:
        raise OSError(ctypes.get_errno(), "sealing the worker (seccomp TSYNC) failed")
