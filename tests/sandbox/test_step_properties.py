"""Properties of ``step()`` under arbitrary input, the tool registry under concurrency, code-mode
determinism across processes, and profilers beside the sandbox."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import mmtsb_env

from .hostile_corpus import CORPUS

_ENVS: dict[str, object] = {}


def _env(mode: str):
    env = _ENVS.get(mode)
    if env is None:
        env = _ENVS[mode] = mmtsb_env.make_env(suite="demo", mode=mode, code_timeout_s=0.3, max_messages=60)
        env.reset(seed=0)
    return env


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
tool_names = st.sampled_from(["simple_note_search_notes", "simple_note_create_note", "execute_code", "nope", "",
                              "api_docs_search_api_docs", "end_conversation", "simple_note_delete_note"])
calls = st.builds(lambda n, a: json.dumps({"name": n, "arguments": a}), tool_names, json_values)
tagged = st.builds(lambda c, p: f"{p}<tool_call>{c}</tool_call>", calls, st.text(max_size=20))
snippets = st.sampled_from([entry[1] for entry in CORPUS if "timeout" not in entry[2]] + ["1 + 1", "print('hi')"])
code_blocks = st.builds(lambda c, p: f"{p}```python\n{c}\n```", snippets, st.text(max_size=10))
actions = st.one_of(st.text(max_size=200), calls, tagged, code_blocks, json_values.map(json.dumps),
                    st.builds(lambda n: "[" * n, st.integers(0, 5000)),
                    st.builds(lambda n: '{"name": "a", "arguments": {"x": ' + "9" * n + "}}", st.integers(0, 6000)))


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=actions, mode=st.sampled_from(["tool", "code"]))
def test_no_input_to_step_raises(action, mode):
    env = _env(mode)
    obs, reward, terminated, truncated, info = env.step(action)
    assert isinstance(obs["text"], str) and isinstance(reward, float)
    if terminated or truncated or env.episode.turn != "assistant":
        env.reset(seed=0)


def _run_python(script: str, env_vars: dict[str, str] | None = None, timeout: float = 300) -> str:
    environ = dict(os.environ, **(env_vars or {}))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=timeout, env=environ)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_registry_loads_completely_under_concurrent_first_resets():
    out = _run_python("""
        import json, threading
        import mmtsb_env
        from mmtsb_env.episode.engine import _tool_universe
        from mmtsb_env.scenario.suites import load_suite
        suite = load_suite("demo")
        barrier = threading.Barrier(8)
        counts, errors = [], []
        def work():
            try:
                barrier.wait()
                env = mmtsb_env.make_env(suite=suite, mode="tool")
                env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
                counts.append(sorted(t["function"]["name"] for t in env.episode.offered_tools("assistant")))
                env.step('{"name": "simple_note_search_notes", "arguments": {"query": ""}}')
            except BaseException as exc:
                errors.append(repr(exc))
        threads = [threading.Thread(target=work) for _ in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        s = next(x for x in suite if x.id == "demo/note_from_receipt")
        expected = sorted(_tool_universe.__wrapped__("full", tuple(s.domains), s.ui))
        print(json.dumps({"counts": counts, "errors": errors, "expected": expected}))
    """)
    data = json.loads(out.strip().splitlines()[-1])
    assert data["errors"] == []
    assert len(data["counts"]) == 8
    assert "execute_code" in data["expected"] and "api_docs_search_api_docs" in data["expected"]
    for offered in data["counts"]:
        assert offered == data["expected"]


DETERMINISM_SCRIPT = """
    import json, mmtsb_env
    env = mmtsb_env.make_env(suite="demo", mode="code")
    out = []
    for seed in (11, 11, 12):
        env.reset(seed=seed, options={"scenario": "demo/note_from_receipt"})
        code = (
            "import random, datetime, time\\n"
            "print(random.random(), random.randint(0, 10**9), random.sample(range(100), 3))\\n"
            "print(datetime.datetime.now(), datetime.date.today(), time.time(), datetime.datetime.utcnow())\\n"
            "print({'banana', 'apple', 'cherry', 'date', 'elder', 'fig'})\\n"
            "print(set('abcdefghij'), frozenset(['x', 'yy', 'zzz']))\\n"
            "print(hash('abc'), hash(('a', 1)))\\n"
            "print({str(i): i for i in range(3)}, dict.fromkeys('cab'))\\n"
            "class A:\\n    pass\\n"
            "print(A(), object())\\n"
            "notes = simple_note_search_notes(query='')\\n"
            "print(len(notes), sorted(n['title'] for n in notes)[:2])\\n"
        )
        obs, *_ = env.step("```python\\n" + code + "```")
        out.append(obs["text"])
    env.close()
    print(json.dumps(out))
"""


def test_code_mode_is_deterministic_across_processes():
    first = json.loads(_run_python(DETERMINISM_SCRIPT, {"PYTHONHASHSEED": "1"}).strip().splitlines()[-1])
    second = json.loads(_run_python(DETERMINISM_SCRIPT, {"PYTHONHASHSEED": "2"}).strip().splitlines()[-1])
    assert first == second
    assert first[0] == first[1]  # same seed, same output
    assert first[0].split("\n")[1] != first[2].split("\n")[1]  # another seed, another random stream
    assert "2026-04-16 09:00:00 2026-04-16 1776330000.0 2026-04-16 09:00:00" in first[0]
    assert "Error" not in first[0], first[0]


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_cprofile_around_a_code_mode_rollout_finishes(isolation):
    out = _run_python(f"""
        import cProfile, pstats, io
        import mmtsb_env
        env = mmtsb_env.make_env(suite="demo", mode="code", code_isolation={isolation!r})
        env.reset(seed=0, options={{"scenario": "demo/note_from_receipt"}})
        env.step("```python\\nx = 1\\n```")  # the sandbox has run before profiling starts
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(3):
            env.reset(seed=i, options={{"scenario": "demo/note_from_receipt"}})
            env.step("```python\\nnotes = simple_note_search_notes(query='')\\nsum(range(1000))\\n```")
            env.step("```python\\nwhile True:\\n    pass\\n```")
        profiler.disable()
        env.close()
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats("cumulative").print_stats(3)
        print("PROFILED", "function calls" in stream.getvalue())
    """, timeout=240)
    assert "PROFILED True" in out
