"""The kernel jail alone: agent code run as *plain Python* (the restricted layer switched off with
the test-only ``GUARD_DISABLED_FOR_TESTS``) in the default worker reaches no answer key, no host
process, no socket, no file outside the jail, and leaves no process behind. Where the jail cannot
be had, code is refused with one line saying why and how to opt out."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import mmtsb_env
from mmtsb_env.sandbox import Interpreter, Limits, interpreter, jail, zygote

from .test_env_hostile import MARKERS, SCENARIO, code, jail_processes, process_memory_contains

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the jail is Linux's")


@pytest.fixture
def unguarded(monkeypatch):
    monkeypatch.setattr(interpreter, "GUARD_DISABLED_FOR_TESTS", True)


def result_line(text: str, tag: str) -> dict:
    match = re.search(rf"{tag} (\{{.*\}})", text)
    assert match, text[-2000:]
    return json.loads(match.group(1))


def jail_snapshot(worker: int) -> tuple[int, set[int]]:
    """The jail's PID 1 (the template) and every other process of the jail but ``worker`` (the
    workers of other interpreters of this test process, if any)."""
    pids = set(jail_processes(worker))
    for pid in pids:
        with open(f"/proc/{pid}/status") as fh:
            nspid = next(line.split()[1:] for line in fh if line.startswith("NSpid:"))
        if nspid[-1] == "1":
            return pid, pids - {pid}
    raise AssertionError("no PID 1 in the jail")


def wait_gone(pids: list[int], limit_s: float = 10.0) -> list[int]:
    """The pids of ``pids`` still present after up to ``limit_s`` seconds (zombies count as gone)."""
    deadline = time.monotonic() + limit_s
    while True:
        alive = []
        for pid in pids:
            try:
                with open(f"/proc/{pid}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] != "Z":
                        alive.append(pid)
            except OSError:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


# Every file the worker can read, every /proc entry and every other process's memory: any of the
# scenario's markers is reported. The worker's own memory holds this source (with the markers), so
# it is scanned from the host instead. fds 0-2 are closed first so files can be opened under
# RLIMIT_NOFILE (what an escaped policy would do).
SEARCH = r'''
import os, json, stat
for fd in (0, 1, 2):
    try:
        os.close(fd)
    except OSError:
        pass
NEEDLES = __NEEDLES__
PREFIX = b"MARKER"
CONTROL = b"def _fscodec"  # in os.py: the search does read the files it can reach
found, s = set(), {"files": 0, "bytes": 0, "unreadable": 0, "proc_files": 0, "pids": [], "mem_bytes": {},
                   "control": False}

def scan(data):
    i = data.find(PREFIX)
    while i != -1:
        for needle in NEEDLES:
            if data.startswith(needle, i):
                found.add(needle.decode())
        i = data.find(PREFIX, i + 1)
    if CONTROL in data:
        s["control"] = True

def read(path, limit=None):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        s["unreadable"] += 1
        return 0
    total, tail = 0, b""
    try:
        while limit is None or total < limit:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            scan(tail + chunk)
            tail = chunk[-32:]
            total += len(chunk)
    except OSError:
        pass
    finally:
        os.close(fd)
    s["bytes"] += total
    return total

for root, dirs, files in os.walk("/"):
    if root == "/":
        dirs[:] = [d for d in dirs if d != "proc"]
    for name in files:
        path = os.path.join(root, name)
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                continue
        except OSError:
            continue
        s["files"] += 1
        read(path)

me = str(os.getpid())
for entry in sorted(os.listdir("/proc")):
    if entry in ("self", "thread-self", me, "kcore", "kmsg"):
        continue
    top = "/proc/" + entry
    if entry.isdigit():
        s["pids"].append(int(entry))
    for root, dirs, files in ([(os.path.dirname(top), [], [entry])] if not os.path.isdir(top) else os.walk(top)):
        for name in files:
            if name in ("mem", "pagemap", "kcore", "kmsg"):
                continue
            s["proc_files"] += 1
            read(os.path.join(root, name), limit=1 << 20)
    if entry.isdigit():
        readable = 0
        try:
            fd = os.open(top + "/mem", os.O_RDONLY)
        except OSError:
            fd = None
        if fd is not None:
            try:
                with open(top + "/maps") as maps:
                    regions = [line.split()[0] for line in maps]
            except OSError:
                regions = []
            for region in regions:
                start, end = (int(x, 16) for x in region.split("-"))
                while start < min(end, 1 << 62):
                    try:
                        data = os.pread(fd, min(1 << 20, end - start), start)
                    except OSError:
                        break
                    if not data:
                        break
                    readable += len(data)
                    scan(data)
                    start += len(data)
            os.close(fd)
        s["mem_bytes"][entry] = readable
s["found"] = sorted(found)
print("JAILSCAN", json.dumps(s))
'''


def test_the_switch_really_turns_the_guard_off(monkeypatch):
    """Without this the searches below would prove nothing: plain Python runs, imports included."""
    guarded = Interpreter({})
    monkeypatch.setattr(interpreter, "GUARD_DISABLED_FOR_TESTS", True)
    plain = Interpreter({})
    try:
        assert guarded.run("import os").error_kind == "violation"
        res = plain.run("import os, ctypes, subprocess\nprint('plain', type(ctypes.CDLL).__name__)")
        assert res.ok and res.output == "plain type\n", res.error
    finally:
        guarded.close()
        plain.close()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_unguarded_code_finds_no_marker_in_any_file_proc_entry_or_process_memory(unguarded):
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=300.0, code_memory_mb=1024)
    try:
        env.reset(seed=11)
        # what the worker and the rest of the jail hold, scanned from the host (before the search
        # below puts the markers into the worker's own memory)
        obs, *_ = env.step(code("notes = simple_note_search_notes(query='')\nprint(len(notes))"))
        worker = env.episode._interpreter._backend.pid
        needles = [m.encode() for m in MARKERS.values()]
        for pid in [worker, *jail_processes(worker)]:
            assert process_memory_contains(pid, needles) == []
        assert process_memory_contains(os.getpid(), needles[:1]) == needles[:1]  # the host does hold them
        obs, *_ = env.step(code(SEARCH.replace("__NEEDLES__", repr(needles))))
        scan = result_line(obs["text"], "JAILSCAN")
        assert scan["found"] == [], scan["found"]
        assert scan["control"] and scan["files"] > 1000 and scan["bytes"] > 10**7  # it did read the view
        assert scan["pids"] and scan["proc_files"] > 100
        assert all(n == 0 for n in scan["mem_bytes"].values()), scan["mem_bytes"]  # no other memory readable
    finally:
        env.close()


PROBES = r'''
import ctypes, errno, os, socket, json
for fd in (0, 1, 2):
    os.close(fd)
libc = ctypes.CDLL(None, use_errno=True)
out = {}
def attempt(name, fn):
    try:
        fn()
        out[name] = "ok"
    except OSError as exc:
        out[name] = errno.errorcode.get(exc.errno, str(exc.errno))
def call(fn, *args):
    if fn(*args) == -1:
        raise OSError(ctypes.get_errno(), "")
host = host_pid()
attempt("kill host", lambda: os.kill(host, 0))
attempt("kill everyone", lambda: os.kill(-1, 0))
attempt("kill jail init", lambda: os.kill(1, 0))
attempt("raw kill syscall", lambda: call(libc.syscall, 62, host, 0))
for family, kind in ((socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM),
                     (socket.AF_UNIX, socket.SOCK_STREAM), (socket.AF_NETLINK, socket.SOCK_RAW),
                     (socket.AF_PACKET, socket.SOCK_RAW), (socket.AF_INET, socket.SOCK_RAW)):
    attempt(f"socket {int(family)}/{int(kind)}", lambda: socket.socket(family, kind).close())
attempt("socketpair", lambda: [s.close() for s in socket.socketpair()])
attempt("unshare user", lambda: call(libc.unshare, 0x10000000))
attempt("unshare net", lambda: call(libc.unshare, 0x40000000))
attempt("mount", lambda: call(libc.mount, b"none", b"/tmp", b"tmpfs", 0, None))
attempt("ptrace attach", lambda: call(libc.ptrace, 16, 1, None, None))
attempt("setns", lambda: call(libc.setns, -1, 0))
for path in ("/x", "/usr/x", "/jail/site/x", "/jail/site/mmtsb_env/sandbox/policy.py", "/root/x", "/etc/x",
             "/dev/x", "/proc/sys/kernel/hostname", "/tmp/x"):
    attempt("write " + path, lambda: os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)))
def fill():
    fd = os.open("/tmp/y", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.write(fd, b"x")
    finally:
        os.close(fd)
attempt("write bytes /tmp/y", fill)
print("JAILPROBE", json.dumps(out))
'''


def test_unguarded_code_cannot_signal_connect_or_write_anywhere(unguarded):
    it = Interpreter({"host_pid": os.getpid}, Limits(timeout_s=20))
    try:
        res = it.run(PROBES)
        assert res.ok, res.error
        out = result_line(res.output, "JAILPROBE")
    finally:
        it.close()
    denied = {"EPERM", "EACCES", "EROFS", "ENOENT", "ESRCH", "EFBIG"}
    for name, outcome in out.items():
        assert outcome in denied, (name, outcome)
    assert out["write /tmp/x"] == out["write bytes /tmp/y"] == "EROFS"  # /tmp is read-only too
    assert out["kill host"] == out["raw kill syscall"] == "EPERM"  # seccomp; and invisible anyway
    assert all(out[k] == "EPERM" for k in out if k.startswith("socket"))


FORKS = r'''
import os, errno, threading, json, time
for fd in (0, 1, 2):
    os.close(fd)
out = {}
try:
    pid = os.fork()
    if pid == 0:
        if os.fork() == 0:
            time.sleep(3600)  # the double-forked grandchild
        os._exit(0)
    out["fork"] = "ok"
except OSError as exc:
    out["fork"] = errno.errorcode[exc.errno]
import subprocess
try:
    subprocess.Popen(["/bin/sh", "-c", "sleep 3600"])
    out["popen"] = "ok"
except OSError as exc:
    out["popen"] = errno.errorcode[exc.errno]
try:
    os.posix_spawn(os.__file__, [os.__file__], {})
    out["posix_spawn"] = "ok"
except OSError as exc:
    out["posix_spawn"] = errno.errorcode[exc.errno]
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
out["raw clone"] = "ok" if libc.syscall(56, 17, 0, 0, 0, 0) >= 0 else errno.errorcode[ctypes.get_errno()]
try:
    threading.Thread(target=lambda: [None for _ in iter(int, 1)], daemon=True).start()
    out["thread"] = "ok"
except RuntimeError:  # the worker is sealed once its two threads run
    out["thread"] = "refused"
print("JAILFORK", json.dumps(out))
'''


def test_nothing_it_starts_survives_close_or_a_timeout(unguarded):
    it = Interpreter({}, Limits(timeout_s=2))
    try:
        assert it.run("1").ok
        worker = it._backend.pid
        template, others = jail_snapshot(worker)  # others: workers of other interpreters, if any
        res = it.run(FORKS)
        assert res.ok, res.error
        out = result_line(res.output, "JAILFORK")
        assert out.pop("popen") in ("EPERM", "EMFILE")  # refused either way (no pipe, or no clone)
        assert out == {"fork": "EPERM", "posix_spawn": "EPERM", "raw clone": "EPERM", "thread": "refused"}
        assert set(jail_processes(worker)) == others | {template}  # nothing was started
        # a single C call past the deadline: the host kills the worker
        res = it.run("import re\nre.match(r'(a+)+$', 'a' * 40 + 'b')")
        assert res.error_kind == "timeout" and "killed" in res.error
        assert wait_gone([worker]) == []
        assert set(jail_processes(template)) <= others  # nothing it started is left
        res = it.run("print('fresh', 6 * 7)")
        assert res.output == "fresh 42\n"
        second = it._backend.pid
    finally:
        it.close()
    assert wait_gone([second]) == []
    assert set(jail_processes(template)) <= others


def test_env_close_leaves_no_worker():
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code")
    env.reset(seed=12)
    env.step(code("x = 1"))
    worker = env.episode._interpreter._backend.pid
    template, others = jail_snapshot(worker)
    env.close()
    assert wait_gone([worker]) == []
    assert set(jail_processes(template)) <= others


def test_the_whole_jail_dies_with_its_host():
    script = textwrap.dedent("""
        import os, sys
        from mmtsb_env.sandbox import Interpreter, Limits
        it = Interpreter({})
        assert it.run("1").ok
        print(it._backend.pid, flush=True)
        sys.stdin.read()
    """)
    host = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        worker = int(host.stdout.readline())
        jailed = [worker, *jail_processes(worker)]
        assert len(jailed) == 2  # the worker and the template
    finally:
        host.send_signal(signal.SIGKILL)
        host.wait()
    assert wait_gone(jailed) == []


FAKE_BWRAP = "#!/bin/sh\necho 'bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n"


@pytest.fixture
def failing_bwrap(monkeypatch):
    """A launcher that fails the way bwrap does on a kernel without unprivileged user namespaces
    (in a directory ``nobody`` can read: the jail is launched as nobody when the host is root)."""
    import shutil
    import tempfile

    where = tempfile.mkdtemp(prefix="mmtsb-fake-bwrap-")
    os.chmod(where, 0o755)
    fake = os.path.join(where, "bwrap")
    with open(fake, "w") as fh:
        fh.write(FAKE_BWRAP)
    os.chmod(fake, 0o755)
    monkeypatch.setattr(jail, "BWRAP", fake)
    yield
    shutil.rmtree(where, ignore_errors=True)


def test_without_the_jail_code_is_refused_with_one_line(failing_bwrap, monkeypatch):
    monkeypatch.setattr(zygote, "_templates", {})
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code")
    try:
        env.reset(seed=13)
        obs, reward, terminated, truncated, info = env.step(code(
            "simple_note_create_note(title='jail', content='x')\nprint('ran')"))
        lines = [line for line in obs["text"].splitlines() if "SandboxError" in line]
        assert len(lines) == 1, obs["text"]
        assert "kernel does not allow non-privileged user namespaces" in lines[0]
        assert 'code_jail="off"' in lines[0]
        assert "ran" not in obs["text"] and info["action_error"]
        assert env.episode.world.diff() == {}  # nothing ran
    finally:
        env.close()
    opted_out = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_jail="off")
    try:
        opted_out.reset(seed=13)
        obs, *_ = opted_out.step(code("print('ran', 6 * 7)"))
        assert "ran 42" in obs["text"]
        pid = opted_out.episode._interpreter._backend.pid
        with open(f"/proc/{pid}/status") as fh:
            assert "Seccomp:\t0" in fh.read()  # an unjailed worker, as asked
    finally:
        opted_out.close()
        for template in zygote._templates.values():
            template.close()


def test_thread_mode_warns_once(monkeypatch):
    monkeypatch.setattr(interpreter, "_thread_warned", False)
    with pytest.warns(RuntimeWarning, match="trusted code only"):
        Interpreter({}, Limits(isolation="thread")).close()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Interpreter({}, Limits(isolation="thread")).close()


def _execute_code(env, source: str) -> dict:
    obs, *_ = env.step(json.dumps({"name": "execute_code", "arguments": {"code": source}}))
    return json.loads(obs["text"].split(": ", 1)[1])


def test_execute_code_in_tool_mode_runs_in_the_same_jail(unguarded):
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="tool")
    try:
        env.reset(seed=14)
        result = _execute_code(env, "import os\nos.kill(1, 0)")
        assert not result["ok"] and "PermissionError" in str(result), result  # seccomp, as in code mode
        pid = env.episode._interpreter._backend.pid
        with open(f"/proc/{pid}/status") as fh:
            assert "Seccomp:\t2" in fh.read()
        assert os.readlink(f"/proc/{pid}/ns/pid") != os.readlink("/proc/self/ns/pid")
    finally:
        env.close()


def test_execute_code_in_tool_mode_is_refused_without_the_jail(failing_bwrap, monkeypatch):
    monkeypatch.setattr(zygote, "_templates", {})
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="tool")
    try:
        env.reset(seed=15)
        result = _execute_code(env, "simple_note_create_note(title='jail', content='x')")
        assert not result["ok"] and 'code_jail="off"' in str(result), result
        assert env.episode.world.diff() == {}
    finally:
        env.close()


def test_choosing_thread_mode_for_an_env_warns_when_it_is_built(monkeypatch):
    monkeypatch.setattr(interpreter, "_thread_warned", False)
    with pytest.warns(RuntimeWarning, match="trusted code only"):
        mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_isolation="thread").close()


# ---------------------------------------------------------------------------------------------
# One worker against the others, the template and later episodes (the red team's findings)

SIGNAL_OTHERS = r'''
import os, fcntl, signal, errno, json
os.close(0); os.close(1)
out = {}
for t in [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, os.getpid())]:
    r, w = os.pipe()
    for name, args in (("F_SETOWN", (fcntl.F_SETOWN, t)), ("F_SETSIG", (fcntl.F_SETSIG, signal.SIGKILL))):
        try:
            fcntl.fcntl(r, *args)
            out[name] = "ok"
        except OSError as exc:
            out[name] = errno.errorcode[exc.errno]
    fcntl.fcntl(r, fcntl.F_SETFL, os.O_ASYNC | os.O_NONBLOCK)
    os.write(w, b"x")
    os.close(r); os.close(w)
print("JAILSIG", json.dumps(out))
'''


def test_unguarded_code_cannot_have_the_kernel_signal_another_worker(unguarded):
    victim, attacker = Interpreter({}), Interpreter({})
    try:
        assert victim.run("x = 41").ok
        victim_pid = victim._backend.pid
        res = attacker.run(SIGNAL_OTHERS)
        assert res.ok, res.error
        assert result_line(res.output, "JAILSIG") == {"F_SETOWN": "EPERM", "F_SETSIG": "EPERM"}
        time.sleep(0.2)  # a SIGIO/SIGKILL would have been delivered at the write
        res = victim.run("print(x + 1)")
        assert res.output == "42\n" and victim._backend.pid == victim_pid
    finally:
        victim.close()
        attacker.close()


ROUTES = r'''
import ctypes, errno, os, struct, json
os.close(0); os.close(1)
libc = ctypes.CDLL(None, use_errno=True)
out = {}
def sys(name, nr, *args):
    out[name] = "ok" if libc.syscall(nr, *args) >= 0 else errno.errorcode[ctypes.get_errno()]
r, w = os.pipe()
sys("fcntl F_SETOWN_EX", 72, r, 15, 0)
sys("fcntl F_SETOWN (high bits)", 72, r, ctypes.c_ulong(8 | 1 << 32), 1)
sys("ioctl FIOSETOWN", 16, r, 0x8901, 0)
sys("ioctl SIOCSPGRP", 16, r, 0x8902, 0)
sys("sched_setattr template", 314, 1, struct.pack("IIQiIQQQ", 48, 5, 0, 19, 0, 0, 0, 0), 0)
sys("sched_setattr self", 314, 0, struct.pack("IIQiIQQQ", 48, 5, 0, 19, 0, 0, 0, 0), 0)
sys("shmget", 29, 0, 40 << 20, 0o1600)
sys("msgget", 68, 0, 0o1600)
sys("semget", 64, 0, 1, 0o1600)
sys("mq_open", 240, b"q", 0o102, 0o600, 0)
sys("memfd_create", 319, b"m", 0)
sys("setxattr /tmp", 188, b"/tmp", b"user.x", b"v", 1, 0)
sys("fsetxattr pipe", 190, r, b"user.x", b"v", 1, 0)
os.close(r); os.close(w)
sys("mkdir /tmp/d", 83, b"/tmp/d", 0o700)
with open("/proc/self/mountinfo") as fh:
    mounts = {line.split()[4]: line.split()[5].split(",")[0] for line in fh}
print("JAILROUTES", json.dumps(out))
print("JAILMOUNTS", json.dumps(mounts))
'''


def test_unguarded_code_has_no_route_to_signal_slow_down_or_leave_anything_behind(unguarded):
    """Signals through fcntl/ioctl, the template's scheduling, IPC objects and memfds (which outlive
    the worker in the template's IPC namespace), files and extended attributes (in /tmp): all
    refused, and nothing is left for a later worker to read."""
    it = Interpreter({}, Limits(timeout_s=10))
    try:
        res = it.run(ROUTES)
        assert res.ok, res.error
        out, mounts = result_line(res.output, "JAILROUTES"), result_line(res.output, "JAILMOUNTS")
    finally:
        it.close()
    for name, outcome in out.items():
        assert outcome == ("EROFS" if name.startswith("mkdir") else "EPERM"), (name, outcome)
    assert {mounts[path] for path in ("/", "/tmp", "/dev", "/proc")} == {"ro"}, mounts
    assert all(path.startswith("/dev/") for path, mode in mounts.items() if mode == "rw"), mounts  # device nodes only


def test_a_worker_that_never_reads_its_replies_cannot_block_the_host(unguarded):
    """It sends many image requests without reading a reply, then sleeps holding the GIL (so no
    CPU limit fires): the host's writes wait on the run's deadline, then the worker is killed."""
    flood = ("import os, struct, ctypes\n"
             "frame = b'{\"t\":\"call\",\"name\":\"<image>\",\"args\":[0],\"kwargs\":{}}'\n"
             "for _ in range(40):\n"
             "    os.write(3, struct.pack('>I', len(frame)) + frame)\n"
             "ctypes.PyDLL(None).pause()\n")
    it = Interpreter({}, Limits(timeout_s=2), images=lambda image_id: b"\x89PNG" + b"x" * 1_000_000)
    results = []
    runner = threading.Thread(target=lambda: results.append(it.run(flood)), daemon=True)
    try:
        runner.start()
        runner.join(120)  # a hang detector only: the run ends at its deadline (2.5 s)
        assert not runner.is_alive(), "env.step() blocked on the worker"
        res = results[0]
        assert res.error_kind == "timeout" and "killed" in res.error
        assert it.run("print('fresh')").output.endswith("fresh\n")
    finally:
        if not runner.is_alive():
            it.close()


@pytest.fixture
def small_jail(monkeypatch):
    """A template whose jail holds 7 tasks: itself and three sealed workers (two threads each)."""
    def restart():
        with zygote._lock:
            template = zygote._templates.pop("required", None)
            if template is not None:
                template.close()

    restart()
    monkeypatch.setattr(jail, "JAIL_PROCESSES", 7)
    yield 3
    monkeypatch.undo()
    restart()


def test_a_full_jail_refuses_one_interpreter_in_one_line_and_the_others_live_on(small_jail, unguarded):
    live = [Interpreter({}) for _ in range(small_jail)]
    extra = Interpreter({})
    try:
        for i, it in enumerate(live):
            assert it.run(f"x = {i}").ok
        pids = [it._backend.pid for it in live]
        res = live[0].run("import threading\nthreading.Thread(target=print).start()")
        assert "can't start new thread" in res.error  # a worker cannot take another's share
        res = extra.run("print('extra')")
        assert not res.ok and "\n" not in res.error, res.error
        assert "could not start another worker process" in res.error and "at most 3 interpreters" in res.error
        for i, it in enumerate(live):  # the template did not die: every other worker lives on
            assert it.run("print(x)").output == f"{i}\n" and it._backend.pid == pids[i]
        live[0].close()
        assert wait_gone(pids[:1]) == []
        for _ in range(50):  # room again once the template has reaped the closed worker (it does so between requests)
            res = extra.run("print('extra')")
            if res.ok:
                break
            time.sleep(0.1)
        assert res.output == "extra\n", res.error
    finally:
        for it in [*live, extra]:
            it.close()


def test_numpy_submodules_it_imports_lazily_were_imported_by_the_template():
    """A worker opens no file: numpy functions that import a submodule on first use (np.unique of
    strings needs numpy.ma) work, instead of failing with a path of the jail."""
    it = Interpreter({})
    try:
        res = it.run("import numpy as np\nprint(np.unique(np.array(['b', 'a', 'b'])))")
        assert res.output == "['a' 'b']\n", res.error
        res = it.run("import re\nre.template")
        assert res.error_kind == "violation" and "'re.template' is not available" in res.error
    finally:
        it.close()
