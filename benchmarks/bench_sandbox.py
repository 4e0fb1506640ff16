"""Micro-benchmark of code mode (``python benchmarks/bench_sandbox.py``).

Prints medians for a 20-line data-wrangling snippet that makes four calls of *real* env tools
(``simple_note_search_notes`` x3, ``simple_note_show_note``) in the default configuration (a clean
worker process per interpreter): the code step through the episode (what ``env.step`` spends in
the sandbox and the tools), the whole ``env.step`` (plus observation building), the same snippet
with the in-process opt-in (``code_isolation="thread"``), the cold compile alone, and the one-off
costs of starting the worker template and of a fresh worker -- each for the jailed worker (the
default, ``code_jail="required"``) and the unjailed one (``code_jail="off"``, the design before the
jail).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mmtsb_env  # noqa: E402
from mmtsb_env.sandbox import Interpreter, Limits  # noqa: E402
from mmtsb_env.sandbox.compiler import _compile_uncached  # noqa: E402

SNIPPET = """\
trips = simple_note_search_notes(query="a")
food = simple_note_search_notes(query="e")
everything = simple_note_search_notes(query="")
first = simple_note_show_note(note_id=everything[0]["id"])
by_tag = {}
for note in everything:
    for tag in note.get("tags") or []:
        by_tag.setdefault(tag, []).append(note["id"])
counts = {tag: len(ids) for tag, ids in by_tag.items()}
titles = sorted(n["title"] for n in trips)
longest = max(everything, key=lambda n: len(n["title"]))
summary = []
for i, note in enumerate(food[:5]):
    flag = "*" if note.get("pinned") else " "
    summary.append(f"{i:>2}{flag} {note['title']}")
total = sum(len(n["title"]) for n in everything)
avg = total / len(everything)
report = {"trips": len(trips), "food": len(food), "avg": round(avg, 2), "first": sorted(first)[:3]}
print("\\n".join(summary))
report, titles[:2], longest["id"]
"""
ACTION = f"```python\n{SNIPPET}```"


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def episode_code_step(isolation: str, repeat: int, jail: str = "required") -> tuple[list[float], list[float], str]:
    env = mmtsb_env.make_env(suite="demo", mode="code", code_isolation=isolation, code_jail=jail,
                             max_messages=10**6)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    episode = env.episode
    text, ok, _ = episode._run_code(SNIPPET)
    assert ok, text
    in_sandbox = timed(lambda: episode._run_code(SNIPPET), repeat)
    whole = timed(lambda: env.step(ACTION), max(20, repeat // 3))
    env.close()
    return in_sandbox, whole, text


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    assert len(SNIPPET.strip().splitlines()) == 20

    from mmtsb_env.sandbox import zygote

    starts, fresh, code, step = {}, {}, {}, {}
    for jail in ("required", "off"):
        start = time.perf_counter()
        zygote.prestart(jail)
        probe = Interpreter({}, Limits(jail=jail))
        assert probe.run("1").ok
        starts[jail] = time.perf_counter() - start
        probe.close()
        fresh[jail] = timed(lambda: (lambda it: (it.run("1"), it.close()))(Interpreter({}, Limits(jail=jail))), 30)
        code[jail], step[jail], text = episode_code_step("process", args.repeat, jail)
    thread_code, thread_step, _ = episode_code_step("thread", args.repeat)
    counter = iter(range(10**9))
    cold_compile = timed(lambda: _compile_uncached(SNIPPET + f"# {next(counter)}\n"), max(50, args.repeat // 3))

    print(f"snippet: 20 lines, 4 real env tool calls, output {len(text)} chars")
    for jail, label in (("required", "jailed worker (default)"), ("off", "unjailed worker (code_jail=off)")):
        print(f"-- {label}")
        print(f"code step, warm                           : {median_ms(code[jail]):8.3f} ms median")
        print(f"env.step of it                            : {median_ms(step[jail]):8.3f} ms median")
        print(f"fresh worker (fork from template) + run   : {median_ms(fresh[jail]):8.3f} ms median")
        print(f"worker template start (once per process)  : {starts[jail] * 1000:8.3f} ms")
    print("-- in-process opt-in (code_isolation=thread)")
    print(f"code step, warm                           : {median_ms(thread_code):8.3f} ms median")
    print(f"env.step of it                            : {median_ms(thread_step):8.3f} ms median")
    print(f"cold compile only (RestrictedPython+AST)  : {median_ms(cold_compile):8.3f} ms median")


if __name__ == "__main__":
    main()
