"""Timeouts (from any thread), output cap, recursion limit, memory with process isolation."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from mmtsb_env.sandbox import Interpreter, Limits

from .conftest import FakePhone


def run_in_thread(interp: Interpreter, code: str):
    box: dict = {}

    def target() -> None:
        start = time.monotonic()
        box["res"] = interp.run(code)
        box["elapsed"] = time.monotonic() - start

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    return box["res"], box["elapsed"]


@pytest.mark.parametrize(
    "code",
    [
        "while True:\n    pass",
        "x = 0\nwhile True:\n    x += 1",
        "[0 for _ in range(10**7) for _ in range(10**7)]",
        "f = lambda n: f(n + 1) + f(n + 1) if n < 50 else 0\nf(0)",
    ],
    ids=["while-pass", "counter", "comprehension", "lambda-tree"],
)
def test_timeout_from_a_non_main_thread(code):
    interp = Interpreter({}, Limits(timeout_s=1.0))
    try:
        res, elapsed = run_in_thread(interp, code)
        assert not res.ok and res.error_kind == "timeout"
        assert "time limit" in res.error
        assert elapsed < 1.0 + 1.5  # generous upper bound only
        assert interp.run("'alive'").output == "'alive'"
    finally:
        interp.close()


def test_timeout_keeps_variables(interp):
    assert interp.run("keep = [1, 2, 3]").ok
    res = interp.run("while True:\n    keep.append(0)\n    keep.pop()")
    assert res.error_kind == "timeout"
    assert interp.run("keep").output == "[1, 2, 3]"


def test_tool_call_is_not_interrupted_midway():
    calls = []

    def slow(x):
        time.sleep(0.6)
        calls.append(x)
        return x

    interp = Interpreter({"slow": slow}, Limits(timeout_s=0.3))
    try:
        res = interp.run("slow(1)\nwhile True:\n    pass")
        assert res.error_kind == "timeout"
        assert calls == [1]  # the provided function ran to completion on the caller's thread
    finally:
        interp.close()


def test_tools_run_on_the_calling_thread():
    seen = []
    interp = Interpreter({"where": lambda: seen.append(threading.get_ident()) or 1})
    try:
        res, _ = run_in_thread(interp, "where()")
        assert res.ok and len(seen) == 1 and seen[0] != threading.get_ident()
        assert interp.run("where()").ok and seen[1] == threading.get_ident()
    finally:
        interp.close()


def test_output_cap_with_marker(interp):
    res = interp.run("for i in range(3000):\n    print('line', i)")
    assert res.ok
    head, marker = res.output.rsplit("\n", 1)
    assert len(head) == 10_000
    assert marker.startswith("[output truncated: ") and marker.endswith(" more characters]")
    total = sum(len(f"line {i}\n") for i in range(3000))
    assert marker == f"[output truncated: {total - 10_000:,} more characters]"


def test_output_cap_applies_to_final_value(interp):
    res = interp.run("list(range(100_000))")
    assert res.ok and "[output truncated:" in res.output
    assert len(res.output) < 10_100


def test_endless_printing_stops_at_output_limit(interp):
    res = interp.run("while True:\n    print('x' * 1000)")
    assert not res.ok and res.error_kind == "output_limit"
    assert res.output.startswith("x" * 1000) and "[output truncated:" in res.output
    assert res.duration_s < 2.0 + 1.5


def test_small_output_cap():
    interp = Interpreter({}, Limits(max_output_chars=10))
    try:
        assert interp.run("print('abcdefghijklmnop')").output == "abcdefghij\n[output truncated: 7 more characters]"
    finally:
        interp.close()


def test_recursion_limit_is_per_interpreter_and_global_limit_untouched():
    before = sys.getrecursionlimit()
    shallow = Interpreter({}, Limits(recursion_limit=50))
    deep = Interpreter({}, Limits(recursion_limit=400))
    try:
        code = "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
        assert shallow.run(code + "depth(45)").output == "45"
        res = shallow.run(code + "depth(60)")
        assert not res.ok and res.error_kind == "recursion"
        assert "50 nested calls" in res.error
        assert deep.run(code + "depth(380)").output == "380"
        assert shallow.run("'alive'").ok
        res = deep.run("try:\n    depth(10_000)\nexcept RecursionError:\n    r = 'caught'\nr")
        assert res.output == "'caught'"
    finally:
        shallow.close()
        deep.close()
    assert sys.getrecursionlimit() == before


def test_builtin_holding_the_gil_only_delays_the_timeout_in_process():
    # A catastrophic regex holds the GIL inside C code: in-process the timeout can only act once
    # the call returns; the run is then stopped and the interpreter keeps working.
    interp = Interpreter({}, Limits(timeout_s=0.2, isolation="thread"))
    try:
        assert interp.run("keep = 1").ok
        res = interp.run("import re\nre.match('(a+)+$', 'a' * 22 + 'b')\nwhile True:\n    pass")
        assert not res.ok and res.error_kind == "timeout"
        assert interp.run("'alive'").ok
    finally:
        interp.close()


def test_soft_memory_limit_in_process():
    interp = Interpreter({}, Limits(timeout_s=5.0, soft_memory_mb=150, isolation="thread"))
    try:
        res = interp.run("chunks = []\nwhile True:\n    chunks.append(bytearray(10**6))")
        assert not res.ok and res.error_kind == "memory"
        assert interp.run("del chunks\n'alive'").output == "'alive'"
    finally:
        interp.close()


# -- process isolation -----------------------------------------------------------------------


@pytest.fixture
def isolated():
    phone = FakePhone()
    interp = Interpreter(phone.functions(), Limits(timeout_s=2.0, memory_mb=200))
    interp.phone = phone
    yield interp
    interp.close()


def test_isolated_repl_and_tools(isolated):
    assert isolated.isolated
    assert isolated.run("notes = simple_note_search_notes(query='rome')\nlen(notes)").output == "2"
    assert isolated.run("notes[0]['title']").output == "'Trip to Rome'"
    res = isolated.run(
        "try:\n    simple_note_delete_note(note_id=9)\nexcept Exception as e:\n    print(type(e).__name__, e)"
    )
    assert res.output == "NotFound note 9 does not exist\n"
    res = isolated.run("simple_note_create_note(title='')")
    assert not res.ok and res.error.endswith("ValueError: title must not be empty")
    assert isolated.phone.calls == 3
    assert isolated.variables() == ["notes"]


BOMBS = {
    "list-bomb": "x = [0] * 10**10",
    "str-bomb": "'a' * 10**11",
    "growth": "big = []\nwhile True:\n    big.append('a' * 10**6)",
    "bytearrays": "rows = [bytearray(50 * 10**6) for _ in range(20)]",
}


@pytest.mark.parametrize("bomb", list(BOMBS.values()), ids=list(BOMBS))
def test_isolated_memory_bomb_is_contained(bomb):
    phone = FakePhone()
    isolated = Interpreter(phone.functions(), Limits(timeout_s=30.0, memory_mb=200))  # memory, long before time
    assert isolated.run("survivor = 'still here'").ok
    res = isolated.run(bomb)
    assert not res.ok and res.error_kind == "memory", res
    after = isolated.run("survivor")
    isolated.close()
    assert after.ok
    assert after.output in ("'still here'", "")  # kept unless the worker had to be restarted


def test_isolated_worker_death_is_reported_and_restarted(isolated):
    import os
    import signal

    assert isolated.run("v = 1").ok
    os.kill(isolated._backend.pid, signal.SIGKILL)
    time.sleep(0.05)
    res = isolated.run("v")
    assert not res.ok
    # either the death is noticed before the run (fresh worker: NameError) or while sending it
    assert "variables from earlier runs were lost" in res.error
    assert isolated.run("w = 2\nw").output == "2"


def test_isolated_uninterruptible_code_is_killed(isolated):
    assert isolated.run("v = 1").ok
    start = time.monotonic()
    res = isolated.run("import re\nre.match('(a+)+$', 'a' * 40 + 'b')")
    assert not res.ok and res.error_kind == "timeout"
    assert time.monotonic() - start < 2.0 + 3.0
    assert "lost" in res.error
    assert isolated.run("'alive'").ok


def test_isolated_timeout_from_thread(isolated):
    res, elapsed = run_in_thread(isolated, "while True:\n    pass")
    assert res.error_kind == "timeout" and elapsed < 2.0 + 1.5
    assert isolated.run("1 + 1").output == "2"


def test_isolated_numpy_is_restricted(isolated):
    res = isolated.run("import numpy as np\na = np.arange(6).reshape(2, 3)\nint(a.sum()), a.shape")
    assert res.output == "(15, (2, 3))"
    for code in ["np.load('/etc/passwd')", "np.save", "np.ctypeslib", "np.lib", "a.ctypes", "a.tofile('/tmp/x')",
                 "np.ndarray((4,))", "np.empty(3)", "np.random.seed(1)", "a.dump('/tmp/x')", "np.fromfile"]:
        res = isolated.run(code)
        assert not res.ok and res.error_kind == "violation", (code, res)


def test_isolated_escapes_still_refused(isolated):
    for code in ["import datetime; datetime.sys.modules['os'].popen('id').read()",
                 "import json; json.codecs.open('/etc/passwd').read()", "import os", "open('/etc/passwd')"]:
        res = isolated.run(code)
        assert not res.ok and res.error_kind == "violation"
    assert isolated.phone.calls == 0
