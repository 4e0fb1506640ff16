"""Micro-benchmark of the code-execution sandbox (``python benchmarks/bench_sandbox.py``).

Prints medians for a 20-line data-wrangling snippet that calls a cheap provided function three
times: a warm run (compile cache hit), the cold compile alone, a cold run, the per-run cost with
process isolation, and the one-off cost of starting an isolated worker.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mmtsb_env.sandbox import Interpreter, Limits  # noqa: E402
from mmtsb_env.sandbox.compiler import _compile_uncached  # noqa: E402

NOTES = [
    {"id": i, "title": f"Note {i}", "content": "trip to rome" if i % 3 == 0 else "groceries",
     "tags": ["a", "b"][: i % 3]}
    for i in range(20)
]


def search_notes(query: str = "", limit: int = 20) -> list:
    return [dict(n, tags=list(n["tags"])) for n in NOTES if query in n["content"]][:limit]


SNIPPET = """\
trips = simple_note_search_notes(query="rome")
food = simple_note_search_notes(query="groceries", limit=5)
everything = simple_note_search_notes(query="")
by_tag = {}
for note in everything:
    for tag in note["tags"]:
        by_tag.setdefault(tag, []).append(note["id"])
counts = {tag: len(ids) for tag, ids in by_tag.items()}
titles = sorted(n["title"] for n in trips)
longest = max(everything, key=lambda n: len(n["content"]))
summary = []
for i, note in enumerate(food):
    flag = "*" if note["id"] in by_tag.get("a", []) else " "
    summary.append(f"{i:>2}{flag} {note['title']}")
total = sum(len(n["content"]) for n in everything)
avg = total / len(everything)
report = {"trips": len(trips), "food": len(food), "avg": round(avg, 2)}
report["tags"] = counts
print("\\n".join(summary))
report, titles[:2], longest["id"]
"""


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    assert len(SNIPPET.strip().splitlines()) == 20
    functions = {"simple_note_search_notes": search_notes}

    interp = Interpreter(functions, Limits())
    first = interp.run(SNIPPET)
    assert first.ok, first.error
    warm = timed(lambda: interp.run(SNIPPET), args.repeat)

    counter = iter(range(10**9))
    cold_compile = timed(lambda: _compile_uncached(SNIPPET + f"# {next(counter)}\n"), max(50, args.repeat // 3))
    cold_run = timed(lambda: interp.run(SNIPPET + f"# cold {next(counter)}\n"), max(50, args.repeat // 3))
    interp.close()

    start = time.perf_counter()
    iso = Interpreter(functions, Limits(memory_mb=512))
    assert iso.run(SNIPPET).ok
    startup = time.perf_counter() - start
    isolated = timed(lambda: iso.run(SNIPPET), args.repeat)
    iso.close()

    print(f"snippet: 20 lines, 3 provided-function calls, output {len(first.output)} chars")
    print(f"warm run (compile cache hit), in-process : {median_ms(warm):8.3f} ms median")
    print(f"cold compile only (RestrictedPython+AST) : {median_ms(cold_compile):8.3f} ms median")
    print(f"cold run (compile + run), in-process     : {median_ms(cold_run):8.3f} ms median")
    print(f"warm run, process isolation (memory_mb)  : {median_ms(isolated):8.3f} ms median")
    print(f"isolated worker start (fork) + first run : {startup * 1000:8.3f} ms")


if __name__ == "__main__":
    main()
