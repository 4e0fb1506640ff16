"""Offline web search: the ``web_search.pages`` table and the BM25 ranking the search tool uses.

Web pages are rows of the world like any other app's: the base world holds the corpus derived
from its own data (``data``), and a scenario adds the pages its task needs -- a shop's opening
hours, a venue's address, a product's spec, and look-alike pages beside them -- as initial rows
of ``web_search.pages``. Ranking is BM25 over each page's title (counted twice), snippet and
content; scenario pages come first, so they win ties. Deterministic: the same world and query
give the same results.

>>> from mmtsb_env.world import World, build_layer
>>> from mmtsb_env.world.base import base_world
>>> layer = build_layer({PAGES: [{"id": 90001, "title": "Harbor Museum - opening hours",
...     "url": "https://harbor.example/hours", "snippet": "Open Tuesday to Sunday, 10am to 6pm."}]})
>>> search(World(base_world(0).layer, layer), "harbor museum opening hours")[0]["link"]
'https://harbor.example/hours'
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from ...world import define_table

APP = "web_search"
PAGES = "web_search.pages"
MAX_RESULTS = 8

define_table(PAGES, columns={"id": None, "title": "", "url": "", "snippet": "", "content": ""})

_tokens_cache: dict[int, tuple[dict[str, Any], list[str]]] = {}
_index_cache: dict[tuple[int, str], tuple[Any, list[dict[str, Any]], Any]] = {}
_lock = threading.Lock()


def _tokens(page: dict[str, Any]) -> list[str]:
    """A page's search tokens: its title twice, its snippet and its content (cached per row object)."""
    from ...tools.discovery import tokenize

    hit = _tokens_cache.get(id(page))
    if hit is not None and hit[0] is page:
        return hit[1]
    title = tokenize(page.get("title"))
    tokens = title + title + tokenize(page.get("snippet")) + tokenize(page.get("content"))
    if len(_tokens_cache) > 50_000:
        _tokens_cache.clear()
    _tokens_cache[id(page)] = (page, tokens)  # the row is held, so its id is not reused
    return tokens


def corpus(world: Any) -> tuple[list[dict[str, Any]], Any]:
    """The pages searchable in ``world`` (the scenario's and the episode's first, then the base
    world's) and their BM25 index; built once per base table and set of scenario pages."""
    from ...tools.discovery import Bm25Index

    base = world.base_table(PAGES) if hasattr(world, "base_table") else {}
    overlay = list(world.overlay_rows(PAGES)) if hasattr(world, "overlay_rows") else list(world.rows(PAGES))
    hidden = world.overlay_keys(PAGES) if hasattr(world, "overlay_keys") else set()
    digest = hashlib.sha256(json.dumps([sorted(map(str, hidden)), overlay], sort_keys=True, default=str).encode()).hexdigest() \
        if overlay or hidden else ""
    key = (id(base), digest)
    with _lock:
        hit = _index_cache.get(key)
        if hit is None or hit[0] is not base:  # (an id can only be reused once its table is gone)
            pages = overlay + [r for k, r in base.items() if k not in hidden]
            hit = (base, pages, Bm25Index([_tokens(p) for p in pages]))
            if len(_index_cache) > 64:
                _index_cache.clear()
            _index_cache[key] = hit
    return hit[1], hit[2]


def search(world: Any, query: str, limit: int = MAX_RESULTS) -> list[dict[str, Any]]:
    """Organic results for ``query``: ``{title, link, snippet, position}``, best first."""
    import numpy as np

    from ...tools.discovery import tokenize

    tokens = tokenize(query)
    if not tokens:
        return []
    pages, index = corpus(world)
    scores = index.scores(tokens)
    results = []
    for i in np.argsort(-scores, kind="stable")[:limit]:
        if scores[i] <= 0:
            break
        page = pages[i]
        results.append({"title": page["title"], "link": page["url"], "snippet": page["snippet"], "position": len(results) + 1})
    return results
