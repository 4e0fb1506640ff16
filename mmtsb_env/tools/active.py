"""The assistant's active tool set: which tools are offered right now.

Without tool search every tool of the scenario's domains is offered. With tool search the
assistant starts with the pinned system tools only; tools returned by a search join the set,
which is a bounded LRU (calling a tool refreshes it; pinned tools are never evicted).

>>> s = ActiveToolSet(["a", "b", "c"], pinned=["p"], limit=3, search=True)
>>> s.offered()
['p']
>>> s.add(["a", "b", "c"])  # the limit of 3 (pinned included) evicts the oldest
['a']
>>> s.offered()
['p', 'b', 'c']
>>> s.allows("a"), s.allows("c")
(False, True)
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Iterable

PINNED_TOOLS = ("api_docs_search_api_docs",)


class ActiveToolSet:
    def __init__(self, universe: Iterable[str], *, pinned: Iterable[str] = PINNED_TOOLS, limit: int = 100, search: bool = False) -> None:
        self.universe = list(dict.fromkeys(universe))
        self._universe_set = set(self.universe)
        self.pinned = [p for p in dict.fromkeys(pinned)]
        self.limit = limit
        self.search = search
        self._lru: OrderedDict[str, None] = OrderedDict()
        self.version = 0  # bumped whenever offered() may change
        if not search:
            for name in self.universe:
                self._lru[name] = None

    def offered(self) -> list[str]:
        return self.pinned + [n for n in self._lru if n not in self.pinned]

    def allows(self, name: str) -> bool:
        return name in self.pinned or name in self._lru

    def touch(self, name: str) -> None:
        if self.search and name in self._lru:
            self._lru.move_to_end(name)
            self.version += 1

    def add(self, names: Iterable[str]) -> list[str]:
        """Make tools available (searching); returns the ones evicted to respect the limit."""
        evicted = []
        self.version += 1
        for name in names:
            if name in self.pinned or name not in self._universe_set:
                continue
            self._lru[name] = None
            self._lru.move_to_end(name)
        if self.search:
            budget = max(0, self.limit - len(self.pinned))
            while len(self._lru) > budget:
                evicted.append(self._lru.popitem(last=False)[0])
        return evicted
