"""The hostile corpus plus targeted checks that host state stays untouched."""

from __future__ import annotations

import collections.abc
import decimal
import json
import math
import random

import pytest

from mmtsb_env.sandbox import Interpreter, Limits

from .conftest import FakePhone
from .hostile_corpus import C_LEVEL, CORPUS

NORMAL = "values = [n * 2 for n in range(4)]\nsum(values)"


def test_corpus_is_large_and_unique():
    ids = [entry[0] for entry in CORPUS + C_LEVEL]
    assert len(ids) >= 150
    assert len(set(ids)) == len(ids)


CASES = [pytest.param(*entry, mode, id=f"{entry[0]}-{mode}") for mode in ("process", "thread") for entry in CORPUS]
CASES += [pytest.param(*entry, "process", id=f"{entry[0]}-process") for entry in C_LEVEL]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # generator finaliser entry
@pytest.mark.parametrize("name,code,kinds,mode", CASES)
def test_hostile_snippet_is_refused_or_contained(name, code, kinds, mode):
    phone = FakePhone()
    notes_before = json.dumps(phone.notes)
    interp = Interpreter(phone.functions(), Limits(timeout_s=0.5, soft_memory_mb=256, isolation=mode))
    try:
        res = interp.run(code)
        assert not res.ok, f"{name} ran successfully: {res.output!r}"
        assert res.error_kind in kinds, f"{name}: kind {res.error_kind!r}, error {res.error!r}"
        assert res.error
        assert phone.calls == 0, f"{name} invoked a provided function"
        assert json.dumps(phone.notes) == notes_before
        after = interp.run(NORMAL)
        assert after.ok and after.output == "12", after
        # the provided functions still work and are still the real ones
        check = interp.run("len(simple_note_search_notes(query='rome'))")
        assert check.ok and check.output == "2", check
        assert phone.calls == 1
    finally:
        interp.close()


def test_host_modules_unchanged_after_tampering(interp):
    snippets = [
        "import json\ntry:\n    json.dumps = None\nexcept Exception:\n    pass",
        "import random\nrandom.seed(12345)\nx = random.random()",
        "import decimal\nwith decimal.localcontext(prec=3):\n    d = decimal.Decimal(1) / 3",
        "import collections.abc\ntry:\n    collections.abc.Mapping.register(list)\nexcept Exception:\n    pass",
        "import math\ntry:\n    math.pi = 3\nexcept Exception:\n    pass",
        "import copy\ntry:\n    copy.dispatch_table\nexcept Exception:\n    pass",
        "import string\nL = string.ascii_letters",
    ]
    random.seed(7)
    expected = random.random()
    random.seed(7)
    prec = decimal.getcontext().prec
    for code in snippets:
        assert interp.run(code).ok
    assert json.dumps([1]) == "[1]"
    assert random.random() == expected  # the sandbox has its own RNG
    assert decimal.getcontext().prec == prec
    assert not isinstance([], collections.abc.Mapping)
    assert math.pi == pytest.approx(3.141592653589793)


def test_tool_results_are_copies(interp, phone):
    res = interp.run(
        "notes = simple_note_search_notes(query='rome')\n"
        "notes[0]['title'] = 'HACKED'\nnotes[0]['tags'].append('x')\nnotes.clear()\n"
        "len(simple_note_search_notes(query='rome'))"
    )
    assert res.ok and res.output == "2"
    assert phone.notes[0]["title"] == "Trip to Rome"
    assert phone.notes[0]["tags"] == ["travel"]


def test_tool_arguments_are_copies(interp, phone):
    res = interp.run("tags = ['a']\nn = simple_note_create_note(title='t', tags=tags)\ntags.append('b')\nn['tags']")
    assert res.ok and res.output == "['a']"
    assert phone.notes[-1]["tags"] == ["a"]


def test_tool_arguments_must_be_json_like(interp, phone):
    res = interp.run("class A:\n    pass\nsimple_note_create_note(title=A())")
    assert not res.ok and res.error_kind == "runtime"
    assert "JSON-like" in res.error
    assert phone.calls == 0


def test_violation_can_be_caught_by_agent_code(interp):
    res = interp.run("try:\n    import os\nexcept ImportError as e:\n    msg = str(e)\nmsg")
    assert res.ok and "not allowed" in res.output


def test_hasattr_does_not_leak(interp):
    res = interp.run("hasattr(simple_note_create_note, '__globals__'), hasattr([], 'gi_frame')")
    assert res.ok and res.output == "(False, False)"


def test_module_proxy_is_read_only_and_not_copyable(interp):
    res = interp.run("import json, copy\ncopy.deepcopy(json)")
    assert not res.ok and res.error_kind == "runtime"
    res = interp.run("import json\njson")
    assert res.ok and "sandboxed" in res.output


def test_type_hides_metaclasses(interp):
    res = interp.run("t = type(int)\nt is type, isinstance(int, type), type([]) is list")
    assert res.ok and res.output == "(True, True, True)"
    res = interp.run("type(int)('X', (), {})")
    assert not res.ok and res.error_kind == "violation"


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_generator_finalizer_outside_a_run_cannot_loop(phone):
    interp = Interpreter(phone.functions(), Limits(timeout_s=1.0))
    try:
        res = interp.run(
            "def g():\n    try:\n        yield 1\n    finally:\n        while True:\n            pass\n"
            "keep = g()\nnext(keep)"
        )
        assert res.ok
    finally:
        interp.close()  # dropping the namespace finalises the generator: its loop must stop at once


def test_interpreters_do_not_share_state(phone):
    a = Interpreter(phone.functions())
    b = Interpreter(phone.functions())
    try:
        assert a.run("import json\nshared = 1\nclass K:\n    count = 0\nK.count += 5").ok
        res = b.run("shared")
        assert not res.ok and "NameError" in res.error
        assert b.run("import json\njson.dumps([1])").output == "'[1]'"
        assert a.run("K.count").output == "5"
    finally:
        a.close()
        b.close()


def test_str_format_fast_and_guarded_paths_agree(interp):
    out = interp.run("p = {'a': [10, 20]}\n'{0[a][1]} {x:>3} {0[a]!r}'.format(p, x=7)")
    assert out.ok and out.output == "'20   7 [10, 20]'"


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_finaliser_run_by_the_gc_on_a_host_thread_stops_at_once(isolation):
    """The cyclic GC may finalise agent objects on whatever thread allocates -- here the host thread
    serving a tool call, mid-run (the halt flag is down). Agent code there must stop at once."""
    import gc
    import threading

    interp = Interpreter({"collect": lambda: gc.collect()}, Limits(timeout_s=5.0, isolation=isolation))
    box: dict = {}

    def target():
        box["res"] = interp.run(
            "def g():\n    try:\n        yield 1\n    finally:\n        while True:\n            pass\n"
            "class Box:\n    pass\n"
            "for i in range(20):\n    b = Box()\n    b.me = b\n    b.gen = g()\n    next(b.gen)\n"
            "b = None\ncollect()\n'after collect'"
        )

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "a finaliser looped on the host thread"  # (close() would wait for it)
    interp.close()
    assert box["res"].ok and box["res"].output == "'after collect'", box["res"]


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_host_objects_never_cross_back_to_the_agent(isolation):
    class Secret:
        answer = "the expected changes"

    interp = Interpreter({"leaky": lambda: {"ok": [1, (2, 3)], "obj": Secret()}, "plain": lambda: {"a": (1, b"x")}},
                         Limits(isolation=isolation))
    try:
        res = interp.run("leaky()")
        assert not res.ok and "plain data" in res.error and "Secret" in res.error
        res = interp.run("plain()")
        assert res.ok and res.output == "{'a': (1, b'x')}"
    finally:
        interp.close()


def test_with_blocks_never_hand_a_traceback_to_exit():
    """``with m:`` enters ``m`` through ``_with_``: its ``__exit__`` gets the exception, not the
    traceback (which leads to frames and the real builtins)."""
    from mmtsb_env.sandbox.compiler import compile_snippet
    from mmtsb_env.sandbox.policy import TracebackFreeContext

    unit = compile_snippet("with m as x:\n    y = x")
    assert "_with_" in unit.code.co_names

    class Recorder:
        def __enter__(self):
            return "entered"

        def __exit__(self, *args):
            self.seen = args
            return True  # suppresses, as the manager asks

    recorder = Recorder()
    with TracebackFreeContext(recorder) as value:
        assert value == "entered"
        1 / 0
    exc_type, exc, traceback = recorder.seen
    assert exc_type is ZeroDivisionError and isinstance(exc, ZeroDivisionError) and traceback is None
    with pytest.raises(TypeError, match="context manager protocol"):
        TracebackFreeContext(42)


def test_typing_and_dataclasses_keep_working_without_handing_out_type(interp):
    res = interp.run(
        "import typing, dataclasses\n"
        "print(typing.get_origin(typing.List[int]), typing.get_args(typing.Dict[str, int]))\n"
        "@dataclasses.dataclass\nclass P:\n    x: int = 1\n    y: typing.Optional[str] = None\n"
        "p = dataclasses.replace(P(), x=2)\n"
        "print(p, dataclasses.asdict(p), dataclasses.astuple(p), [f.name for f in dataclasses.fields(P)])\n"
        "class Q(typing.NamedTuple):\n    a: int\n"
        "T = typing.TypeVar('T')\nclass Box(typing.Generic[T]):\n    pass\n"
        "import decimal\nwith decimal.localcontext() as ctx:\n    print(ctx.prec)\n"
        "print(Q(1), Box())"
    )
    assert res.ok, res.error
    lines = res.output.splitlines()
    assert lines[0] == "<class 'list'> (<class 'str'>, <class 'int'>)"
    assert lines[1] == "P(x=2, y=None) {'x': 2, 'y': None} (2, None) ['x', 'y']"
    assert lines[2] == "28"
