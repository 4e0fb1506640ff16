"""Memoisation for pure functions of text whose memory stays bounded whatever the text.

``functools.lru_cache`` keeps every argument and result whole: one 17 MB text written by a
policy stays in memory (with its token tuples) until thousands of later texts push it out, and
episodes pile such texts up. :func:`text_cache` differs in three ways:

* a call whose text arguments are longer than ``max_chars`` in total is computed and not kept
  (the functions are linear, so a long text costs its own time once, never memory afterwards);
* so a key is at most ``max_chars`` characters: the text itself (its hash is cached by Python, so
  a hit costs no pass over the text; a digest would cost one per call);
* at most ``maxsize`` entries and ``budget`` characters of argument text are kept, the least
  recently used going first.

So a cache holds at most ``budget`` characters' worth of results, and :func:`clear_text_caches`
empties every one of them (``MMToolSandboxEnv.close`` does not need to: the bound holds anyway).

>>> @text_cache(maxsize=4, max_chars=10)
... def shout(text):
...     return text.upper()
>>> shout("hi"), shout("x" * 11)[:3], shout.cache_info()["entries"]
('HI', 'XXX', 1)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import wraps
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_CACHES: list["_BoundedCache"] = []


def _size(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, tuple):
        try:
            return sum(map(len, value)) + len(value)  # a tuple of texts (tokens): at C speed
        except TypeError:
            return sum(_size(v) for v in value) + len(value)
    return 1


class _BoundedCache:
    def __init__(self, fn: Callable[..., Any], maxsize: int, max_chars: int, budget: int) -> None:
        self.fn, self.maxsize, self.max_chars, self.budget = fn, maxsize, max_chars, budget
        self.entries: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self.chars = 0
        self.hits = self.misses = 0
        self.lock = threading.Lock()

    def miss(self, args: tuple) -> Any:
        """Compute ``fn(*args)``; keep it when the texts are short enough, evicting to stay in bounds."""
        self.misses += 1
        value = self.fn(*args)
        size = sum(_size(a) for a in args)
        if size > self.max_chars:
            return value
        with self.lock:
            if args not in self.entries:
                self.entries[args] = (value, size)
                self.chars += size
                while len(self.entries) > self.maxsize or self.chars > self.budget:
                    _, (_, dropped) = self.entries.popitem(last=False)
                    self.chars -= dropped
        return value

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()
            self.chars = 0

    def info(self) -> dict[str, int]:
        return {"entries": len(self.entries), "chars": self.chars, "hits": self.hits, "misses": self.misses,
                "maxsize": self.maxsize, "max_chars": self.max_chars, "budget": self.budget}


def text_cache(maxsize: int = 4096, max_chars: int = 65_536, budget: int = 2_000_000) -> Callable[[F], F]:
    """Memoise a pure function of texts (or tuples of texts) within the bounds above."""

    def wrap(fn: F) -> F:
        cache = _BoundedCache(fn, maxsize, max_chars, budget)
        _CACHES.append(cache)
        entries, miss = cache.entries, cache.miss

        @wraps(fn)
        def cached(*args: Any) -> Any:
            found = entries.get(args)  # a hit is one dict lookup (a text's hash is cached) and a move
            if found is None:
                return miss(args)
            try:
                entries.move_to_end(args)
            except KeyError:  # evicted by another thread meanwhile
                pass
            cache.hits += 1
            return found[0]

        cached.cache_clear = cache.clear  # type: ignore[attr-defined]
        cached.cache_info = cache.info  # type: ignore[attr-defined]
        return cached  # type: ignore[return-value]

    return wrap


def clear_text_caches() -> None:
    """Empty every :func:`text_cache` (tests and memory measurements)."""
    for cache in _CACHES:
        cache.clear()


def text_cache_chars() -> int:
    """Characters of argument text held by all text caches together."""
    return sum(c.chars for c in _CACHES)
