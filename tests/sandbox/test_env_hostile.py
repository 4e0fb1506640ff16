"""A hostile policy against the whole env in code mode: the answer key never leaks, nothing hangs,
nothing raises out of ``step()``/``reset()``, the world stays as it was."""

from __future__ import annotations

import json
import os
import re
import time

import pytest

import mmtsb_env
from mmtsb_env.scenario.model import Scenario

from .hostile_corpus import C_LEVEL, CORPUS

MARKERS = {
    "expected": "MARKERexpected7f3a",
    "solution": "MARKERsolution91c2",
    "answer": "MARKERanswer55d0",
    "clarification": "MARKERclarify0b7e",
    "instructions": "MARKERinstruct3e19",
    "criteria": "MARKERcriteria6a44",
    "fact": "MARKERfact2d8b",
    "description": "MARKERdescribe8f01",
    "later_round": "MARKERround2c9d1",
    "report": "MARKERreport4b6e",
    "image_fact": "MARKERimagefact93a5",
}


def marker_scenario() -> Scenario:
    """demo/note_from_receipt with a marker planted in every field the assistant must not see."""
    base = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/note_from_receipt")
    data = base.to_dict()
    data["id"] = "test/markers"
    first = data["rounds"][0]
    first["instructions"] = f"Only accept {MARKERS['instructions']} as the title."
    first["clarifications"] = [{"answer": f"Use {MARKERS['clarification']}.", "keywords": ["which"]}]
    first["solution"] = [{"name": "simple_note_create_note",
                          "arguments": {"title": "Lunch expense", "content": MARKERS["solution"]}}]
    first["answer"] = f"Saved {MARKERS['answer']}."
    first["report"] = [MARKERS["report"]]
    second = dict(first, query=f"Now also file {MARKERS['later_round']} please.", image_ids=[], clarifications=[],
                  answer="ok", solution=[], report=[])
    data["rounds"] = [first, second]
    data["expected_changes"][0]["row"]["content"] = MARKERS["expected"]
    data["completion_criteria"] = f"The note mentions {MARKERS['criteria']}."
    data["facts"] = [MARKERS["fact"]]
    data["description"] = f"The user wants {MARKERS['description']}."
    data["images"][0]["facts"] = {"merchant_code": MARKERS["image_fact"]}
    data["metadata"]["num_rounds"] = 2
    return Scenario.from_dict(data)


SCENARIO = marker_scenario()


def seen_by_agent(obs, info) -> str:
    return obs["text"] + "\n" + json.dumps(info, default=repr)


def assert_no_marker(text: str, where: str) -> None:
    for field, marker in MARKERS.items():
        assert marker not in text, f"{where}: the scenario's {field} leaked"


def process_memory_contains(pid: int, needles: list[bytes]) -> list[bytes]:
    """Which ``needles`` occur anywhere in the readable memory of process ``pid``."""
    found = set()
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for line in maps:
            parts = line.split()
            start, end = (int(x, 16) for x in parts[0].split("-"))
            if "r" not in parts[1] or (len(parts) > 5 and parts[5] in ("[vvar]", "[vsyscall]", "[vvar_vclock]")):
                continue
            if end - start > 1 << 30:
                continue
            pos, tail = start, b""
            while pos < end:
                try:
                    chunk = os.pread(mem.fileno(), min(1 << 22, end - pos), pos)
                except OSError:
                    break
                if not chunk:
                    break
                window = tail + chunk
                for needle in needles:
                    if needle in window:
                        found.add(needle)
                tail = chunk[-64:]
                pos += len(chunk)
    return sorted(found)


def jail_processes(pid: int) -> list[int]:
    """Host pids of the live processes in the PID namespace of ``pid`` (the jail), ``pid`` excluded
    (a killed worker is a zombie for a moment until the template's kernel-side reaping)."""
    target = os.readlink(f"/proc/{pid}/ns/pid")
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != pid:
            try:
                if os.readlink(f"/proc/{entry}/ns/pid") == target:
                    with open(f"/proc/{entry}/stat") as fh:
                        if fh.read().rsplit(")", 1)[1].split()[0] != "Z":
                            found.append(int(entry))
            except OSError:
                pass
    return sorted(found)


def code(text: str) -> str:
    return f"```python\n{text}\n```"


@pytest.fixture(params=["process", "thread"])
def env(request):
    # one long episode: the terminal step's info carries the judge's verdict (evaluation output, by
    # design), so the corpus must not truncate the episode midway
    e = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=0.5, code_isolation=request.param,
                           max_messages=10_000)
    e.mode_name = request.param
    yield e
    e.close()


def _corpus_for(mode: str):
    return CORPUS + (C_LEVEL if mode == "process" else [])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_whole_corpus_through_the_env_leaks_nothing_and_changes_nothing(env):
    obs, info = env.reset(seed=1)
    assert_no_marker(seen_by_agent(obs, info), "reset")
    for name, snippet, _kinds in _corpus_for(env.mode_name):
        obs, reward, terminated, truncated, info = env.step(code(snippet))
        assert_no_marker(seen_by_agent(obs, info), name)
        assert info["action_error"], f"{name} ran without an error"
        assert reward == 0.0 and not terminated, name
        assert env.episode.world.diff() == {}, f"{name} changed the world"
        assert not truncated, name
    obs, *_ = env.step(code("print('alive', 6 * 7)"))
    assert "alive 42" in obs["text"]


def test_reading_for_the_answer_key_finds_nothing(env):
    """What a policy would try first: every name, module and object reachable from the namespace."""
    env.reset(seed=2)
    probes = [
        "print(dir(simple_note_create_note))",
        "print(sorted(x for x in dir(ToolError)))",
        "import json, datetime, collections, functools, itertools, re, random, string, typing\n"
        "for m in (json, datetime, collections, functools, itertools, re, random, string, typing):\n"
        "    print(m, dir(m))",
        "print(repr(simple_note_search_notes), simple_note_search_notes.__doc__, simple_note_search_notes.__name__)",
        "print(simple_note_search_notes(query=''))",
        "try:\n    simple_note_delete_note(note_id=10**9)\nexcept Exception as e:\n    print(repr(e), e.args)",
    ]
    for probe in probes:
        obs, _r, _t, _tr, info = env.step(code(probe))
        assert_no_marker(seen_by_agent(obs, info), probe)


def test_worker_and_template_hold_no_scenario_data():
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=2.0)
    try:
        env.reset(seed=3)
        obs, *_ = env.step(code("x = simple_note_search_notes(query='')\nlen(x)"))
        assert "Execution result" in obs["text"]
        backend = env.episode._interpreter._backend

        needles = [m.encode() for m in MARKERS.values()]
        assert process_memory_contains(backend.pid, needles) == []
        for pid in jail_processes(backend.pid):  # the template and the jail's init
            assert process_memory_contains(pid, needles) == []
        # the host itself does hold them: the scan would find a leak
        assert process_memory_contains(os.getpid(), needles[:1]) == needles[:1]
    finally:
        env.close()


EXHAUSTION = [entry for entry in CORPUS if entry[2] & {"timeout", "memory"} and "bomb" not in entry[0]] + C_LEVEL


@pytest.mark.parametrize("name,snippet,kinds", EXHAUSTION, ids=[e[0] for e in EXHAUSTION])
def test_exhaustion_is_stopped_within_the_limit_in_the_default_mode(name, snippet, kinds):
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=1.0)
    try:
        env.reset(seed=4)
        start = time.monotonic()
        obs, reward, terminated, truncated, info = env.step(code(snippet))
        elapsed = time.monotonic() - start
        assert info["action_error"] and re.search(r"TimeoutError|MemoryError", obs["text"]), obs["text"]
        assert elapsed < 1.0 + 4.0, f"{name} took {elapsed:.1f} s"  # generous: the point is "bounded"
        obs, *_ = env.step(code("1 + 1"))
        assert obs["text"].endswith("2")
    finally:
        env.close()


def test_memory_is_bounded_per_env_across_steps():
    env = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=20.0, code_memory_mb=300)
    other = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_timeout_s=20.0, code_memory_mb=300)
    try:
        env.reset(seed=5)
        other.reset(seed=5)
        results = []
        for i in range(4):
            obs, *_ = env.step(code(f"keep{i} = bytearray(100 * 10**6)\nlen(keep{i})"))
            results.append(obs["text"])
        assert results[0].endswith("100000000") and results[1].endswith("100000000")
        assert any("MemoryError" in r for r in results[2:]), results  # 4 x 100 MB > 300 MiB held
        obs, *_ = other.step(code("b = [bytearray(90 * 10**6) for _ in range(2)]\nsum(len(x) for x in b)"))
        assert obs["text"].endswith("180000000")  # the other env is unaffected
    finally:
        env.close()
        other.close()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_str_subclass_kwargs_keys_never_reach_host_code(env):
    env.reset(seed=6)
    obs, *_ = env.step(code(
        "class K(str):\n    def __lt__(self, other):\n        while True:\n            pass\n"
        "    def __eq__(self, other):\n        while True:\n            pass\n"
        "k = {}\ntry:\n    k[K('title')] = 1\nexcept TypeError as e:\n    print('unhashable', e)\n"
        "class L(str):\n    def __lt__(self, other):\n        while True:\n            pass\n"
        "r = simple_note_create_note(**{L('title'): L('t'), L('content'): L('c')})\nprint(sorted(r))"
    ))
    assert "unhashable" in obs["text"] and "Error" not in obs["text"].split("unhashable", 1)[1], obs["text"]
    call = [c for c in env.episode.calls if c.outcome.name == "simple_note_create_note"][-1]
    assert call.outcome.ok and all(type(k) is str for k in call.outcome.arguments)
    assert all(type(v) is str for v in call.outcome.arguments.values())
    # the judge sorts keys (json.dumps(sort_keys=True)) after the run: it must not call agent code
    start = time.monotonic()
    env.episode.evidence()
    json.dumps([c.to_json() for c in env.episode.calls], sort_keys=True)
    assert time.monotonic() - start < 5.0


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_generator_finally_at_reset_and_close_does_not_run_on_the_host(env):
    env.reset(seed=7)
    obs, *_ = env.step(code(
        "def g():\n    try:\n        yield 1\n    finally:\n        while True:\n            pass\n"
        "keep = g()\nnext(keep)\nhold = [g() for _ in range(3)]\n[next(h) for h in hold]"
    ))
    assert "[1, 1, 1]" in obs["text"]
    start = time.monotonic()
    obs, info = env.reset(seed=7)  # drops the namespace
    assert time.monotonic() - start < 5.0
    obs, *_ = env.step(code("print('fresh')"))
    assert "fresh" in obs["text"]


def test_shared_host_state_is_not_reachable_through_instances():
    import textwrap

    a = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_isolation="thread")
    b = mmtsb_env.make_env(suite=[SCENARIO], mode="code", code_isolation="thread")
    try:
        a.reset(seed=8)
        b.reset(seed=8)
        obs, *_ = a.step(code(
            "import textwrap\nt = textwrap.TextWrapper()\nt.unicode_whitespace_trans[10] = ord('X')\n"
            "textwrap.TextWrapper().unicode_whitespace_trans[10]"
        ))
        assert obs["text"].endswith("32")  # a fresh instance still sees the host's table
        assert textwrap.TextWrapper.unicode_whitespace_trans[10] == 32
        obs, *_ = b.step(code("import textwrap\ntextwrap.fill('banana\\nbread', 20)"))
        assert obs["text"].endswith("'banana bread'")
        obs, *_ = a.step(code("import decimal\nc = type(decimal.Context().copy())(prec=10**9)"))
        assert "MemoryError" in obs["text"]
    finally:
        a.close()
        b.close()
