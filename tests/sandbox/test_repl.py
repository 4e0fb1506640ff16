"""REPL semantics and what a data-wrangling agent expects to work."""

from __future__ import annotations

import threading

import pytest

from mmtsb_env.sandbox import ExecResult, Interpreter, Limits, SandboxViolation, ToolError
from mmtsb_env.sandbox.compiler import cache_info, compile_snippet


def run_ok(interp: Interpreter, code: str) -> str:
    res = interp.run(code)
    assert res.ok, res.error
    assert res.error is None and res.error_kind is None
    return res.output


def test_public_api_shapes(interp):
    res = interp.run("1 + 1")
    assert isinstance(res, ExecResult)
    assert res.output == "2" and res.duration_s >= 0
    assert Limits().timeout_s == 5.0 and Limits().max_output_chars == 10_000
    assert Limits().recursion_limit == 200 and Limits().memory_mb == 1024
    assert Limits().isolation == "process"
    assert issubclass(SandboxViolation, Exception) and issubclass(ToolError, Exception)


def test_variables_persist_across_runs(interp):
    assert run_ok(interp, "x = 20\ndef double(v):\n    return v * 2\nclass Box:\n    pass") == ""
    assert run_ok(interp, "x += 1\ndouble(x)") == "42"
    assert interp.variables() == ["Box", "double", "x"]


def test_final_expression_value_follows_printed_output(interp):
    assert run_ok(interp, "print('a')\nprint('b', 1, sep='-', end='!')\n[1, 2]") == "a\nb-1!\n[1, 2]"
    assert run_ok(interp, "print('only')") == "only\n"
    assert run_ok(interp, "y = 3") == ""
    assert run_ok(interp, "None") == ""
    assert run_ok(interp, "'text'") == "'text'"
    assert run_ok(interp, "") == ""


def test_expression_value_only_for_final_statement(interp):
    assert run_ok(interp, "1\n2\n3") == "3"
    assert run_ok(interp, "for i in range(2):\n    i") == ""


def test_runtime_error_reports_agent_line(interp):
    res = interp.run("a = 1\nb = [1, 2]\nc = b[5]\nd = 4")
    assert not res.ok and res.error_kind == "runtime"
    assert "line 3, in <agent code>" in res.error
    assert "c = b[5]" in res.error
    assert res.error.endswith("IndexError: list index out of range")
    assert "mmtsb_env" not in res.error and "File " not in res.error


def test_error_in_function_defined_earlier(interp):
    run_ok(interp, "def parse(d):\n    return d['missing']")
    res = interp.run("rows = [{}]\nparse(rows[0])")
    assert "line 2, in <agent code>" in res.error and "line 2, in parse" in res.error
    assert "return d['missing']" in res.error and res.error.endswith("KeyError: 'missing'")


def test_output_before_error_is_kept(interp):
    res = interp.run("print('step 1')\n1 / 0")
    assert not res.ok and res.output == "step 1\n"
    assert res.error.endswith("ZeroDivisionError: division by zero")


def test_syntax_error(interp):
    res = interp.run("x = (1,\nprint(x")
    assert not res.ok and res.error_kind == "syntax"
    assert "SyntaxError" in res.error and res.output == ""


def test_restricted_compile_error_is_a_violation(interp):
    res = interp.run("x = 1\ny = x.__class__")
    assert not res.ok and res.error_kind == "violation"
    assert "Line 2" in res.error and "__class__" in res.error


def test_calling_provided_functions(interp, phone):
    out = run_ok(
        interp,
        "notes = simple_note_search_notes(query='rome')\n"
        "titles = sorted(n['title'] for n in notes)\n"
        "print(len(notes))\ntitles",
    )
    assert out == "2\n['Rome hotels', 'Trip to Rome']"
    assert phone.calls == 1
    out = run_ok(interp, "n = simple_note_create_note('Call mom', content='Sunday')\nn['id'], n['title']")
    assert out == "(4, 'Call mom')"
    assert phone.notes[-1]["title"] == "Call mom"
    assert run_ok(interp, "api_docs_search_api_docs(query='notes')[0]['name']") == "'simple_note_search_notes'"


def test_tool_errors_can_be_caught(interp, phone):
    out = run_ok(
        interp,
        "try:\n    simple_note_delete_note(note_id=99)\nexcept Exception as e:\n    print(type(e).__name__, e)\n"
        "try:\n    simple_note_create_note(title='')\nexcept ValueError as e:\n    print('value error:', e)\n"
        "try:\n    simple_note_delete_note(note_id=98)\nexcept ToolError as e:\n    print(e.kind)",
    )
    assert out == "NotFound note 99 does not exist\nvalue error: title must not be empty\nnot_found\n"


def test_uncaught_tool_error_shows_agent_line(interp):
    res = interp.run("x = 1\nsimple_note_delete_note(note_id=7)")
    assert not res.ok and res.error_kind == "runtime"
    assert "line 2, in <agent code>" in res.error
    assert res.error.endswith("NotFound: note 7 does not exist")


def test_data_wrangling_features(interp):
    code = """
from collections import Counter, defaultdict
import json, re, math, statistics, itertools, functools
from datetime import datetime, timedelta
rows = [{"name": "a", "n": 3, "when": "2024-05-01"}, {"name": "b", "n": 5, "when": "2024-05-03"},
        {"name": "a", "n": 4, "when": "2024-05-02"}]
totals = defaultdict(int)
for r in rows:
    totals[r["name"]] += r["n"]
by_day = {r["when"]: r for r in rows}
latest = max(rows, key=lambda r: datetime.strptime(r["when"], "%Y-%m-%d"))
words = Counter(re.findall(r"\\w+", "the cat and the hat"))
pairs = list(itertools.combinations("abc", 2))
mean = statistics.mean(r["n"] for r in rows)
total = functools.reduce(lambda a, b: a + b, [r["n"] for r in rows])
s = f"{mean:.2f}|{total:>4}|{'x'!r}|{math.floor(2.7)}"
(dict(totals), latest["name"], words.most_common(1), pairs[:2], s, json.dumps(sorted(by_day))[:14])
"""
    out = run_ok(interp, code)
    assert out == (
        "({'a': 7, 'b': 5}, 'b', [('the', 2)], [('a', 'b'), ('a', 'c')], \"4.00|  12|'x'|2\", '[\"2024-05-01\",')"
    )


def test_classes_dataclasses_and_super(interp):
    code = """
from dataclasses import dataclass, field
@dataclass(order=True)
class Note:
    title: str
    tags: list = field(default_factory=list)
class Base:
    def __init__(self, name):
        self.name = name
class Child(Base):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age
        self.age += 1
    @property
    def label(self):
        return f"{self.name}:{self.age}"
notes = sorted([Note("b"), Note("a", ["x"])])
(notes[0], Child("z", 1).label)
"""
    assert run_ok(interp, code) == "(Note(title='a', tags=['x']), 'z:2')"


def test_generators_closures_and_unpacking(interp):
    code = """
def gen(n):
    for i in range(n):
        yield i * i
def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = counter(); c()
a, (b, *rest) = 1, (2, 3, 4)
d = {"k": [1]}
d["k"] += [2]
(list(gen(4)), c(), a, b, rest, d, [x for x in range(10) if x % 3 == 0])
"""
    assert run_ok(interp, code) == "([0, 1, 4, 9], 2, 1, 2, [3, 4], {'k': [1, 2]}, [0, 3, 6, 9])"


def test_format_methods(interp):
    out = run_ok(interp, "'{} {name} {0[a]} {:,}'.format({'a': 1}, 1234, name='n'), '%s-%03d' % ('x', 7)")
    assert out == "(\"{'a': 1} n 1 1,234\", 'x-007')"


def test_bare_except_still_catches_errors(interp):
    assert run_ok(interp, "try:\n    1 / 0\nexcept:\n    r = 'caught'\nr") == "'caught'"


def test_type_and_isinstance(interp):
    assert run_ok(interp, "type(1) is int, type('a') == str, isinstance({}, dict)") == "(True, True, True)"


def test_large_but_reasonable_work_is_fine(interp):
    assert run_ok(interp, "sum(i * i for i in range(200_000))") == str(sum(i * i for i in range(200_000)))
    assert run_ok(interp, "len([0] * 1_000_000), len('ab' * 100_000)") == "(1000000, 200000)"


def test_random_is_seedable_and_private(phone):
    a = Interpreter(phone.functions(), seed=3)
    b = Interpreter(phone.functions(), seed=3)
    try:
        code = "import random\n[random.randint(1, 100) for _ in range(5)]"
        assert a.run(code).output == b.run(code).output
    finally:
        a.close()
        b.close()


def test_compile_cache_reuses_code():
    source = "zz_cached = 41 + 1"
    first = compile_snippet(source)
    hits = cache_info()["hits"]
    assert compile_snippet(source) is first
    assert cache_info()["hits"] == hits + 1


def test_rebinding_a_provided_function_is_refused(interp, phone):
    res = interp.run("simple_note_search_notes = None")
    assert not res.ok and res.error_kind == "violation"
    assert run_ok(interp, "len(simple_note_search_notes(query=''))") == "3"


def test_run_from_several_threads(phone):
    interp = Interpreter(phone.functions(), Limits(timeout_s=2.0))
    results: list = []

    def worker(k: int) -> None:
        results.append(interp.run(f"v{k} = {k} * 2\nv{k}").output)

    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["0", "2", "4", "6"]
        assert interp.variables() == ["v0", "v1", "v2", "v3"]
    finally:
        interp.close()


def test_close_is_idempotent_and_final(phone):
    interp = Interpreter(phone.functions())
    assert interp.run("1").ok
    interp.close()
    interp.close()
    assert interp.variables() == []
    with pytest.raises(RuntimeError):
        interp.run("1")


def test_invalid_function_names_are_rejected():
    with pytest.raises(ValueError):
        Interpreter({"_private": print})
    with pytest.raises(ValueError):
        Interpreter({"class": print})
