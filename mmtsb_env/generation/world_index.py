"""What the generator needs to know about the base world: the owner, their rows, and a text index.

The text index answers "does this value appear anywhere in the base world?" so image-only values
(a receipt total, a poster's venue) are never findable through a search tool.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..evaluation.judge import normalise
from ..world.base import BaseWorld, base_world


def norm(value: Any) -> str:
    """The normal form used for leak checks (the judge's: case, accents, spaces, thousands commas)."""
    return normalise(str(value))


@dataclass
class WorldIndex:
    """Read-only facts about one base world, built once per seed."""

    seed: int
    base: BaseWorld
    owner_id: int
    text: str = ""
    contacts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def tables(self) -> dict[str, dict[Any, Any]]:
        return self.base.layer.tables

    def rows(self, table: str, **equals: Any) -> list[dict[str, Any]]:
        return [r for r in self.tables.get(table, {}).values() if all(r.get(k) == v for k, v in equals.items())]

    def person(self, person_id: int):
        return self.base.person(person_id)

    @property
    def owner(self):
        return self.base.person(self.owner_id)

    def mentions(self, value: Any) -> bool:
        """True when ``value`` (normalised) occurs inside any text of the base world."""
        needle = norm(value)
        if len(needle) < 3:
            return bool(needle) and needle in self.text
        return self._substrings().contains(needle)

    def _substrings(self) -> "SubstringIndex":
        index = self.__dict__.get("_index")
        if index is None:
            index = self.__dict__["_index"] = SubstringIndex(self.text)
        return index

    def home(self) -> str:
        return f"/home/{self.owner.first_name.lower()}/"

    def max_key(self, table: str) -> int:
        keys = [k for k in self.tables.get(table, {}) if isinstance(k, int)]
        return max(keys, default=0)


class SubstringIndex:
    """Exact substring search in a fixed text, through a sorted table of its 3-character grams.

    A needle's rarest gram gives the few places it can start; those are checked character by
    character with numpy. Same answers as ``needle in text`` (a scan of megabytes), in
    microseconds.

    >>> SubstringIndex("the cat sat on the mat").contains("at on t"), SubstringIndex("abcabd").contains("abd")
    (True, True)
    >>> SubstringIndex("the cat sat").contains("cats")
    False
    """

    def __init__(self, text: str) -> None:
        self.chars = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        grams = self._grams(self.chars)
        self.order = np.argsort(grams, kind="stable")  # start positions, grouped by gram, ascending
        self.sorted_grams = grams[self.order]

    @staticmethod
    def _grams(chars: np.ndarray) -> np.ndarray:
        return (chars[:-2] << np.uint64(42)) | (chars[1:-1] << np.uint64(21)) | chars[2:]

    def contains(self, needle: str) -> bool:
        want = np.frombuffer(needle.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        if len(want) < 3:
            raise ValueError("needles shorter than 3 characters are not indexed")
        grams = self._grams(want)
        lo = np.searchsorted(self.sorted_grams, grams, "left")
        hi = np.searchsorted(self.sorted_grams, grams, "right")
        counts = hi - lo
        if not counts.all():
            return False
        k = int(np.argmin(counts))  # the rarest gram of the needle
        starts = self.order[lo[k]:hi[k]].astype(np.int64) - k
        starts = starts[(starts >= 0) & (starts + len(want) <= len(self.chars))]
        for j, ch in enumerate(want):
            if not len(starts):
                return False
            starts = starts[self.chars[starts + j] == ch]
        return bool(len(starts))


# the base world's web pages restate its rows in prose ("on Saturday, May 2"); leaving them out keeps
# "is it anywhere on the phone?" what it was (weekday names, prices as text would all be "found")
UNINDEXED = frozenset({"web_search.pages"})


def _text_of(tables: dict[str, dict[Any, Any]]) -> str:
    parts: list[str] = []
    for name, rows in tables.items():
        if name in UNINDEXED:
            continue
        for row in rows.values():
            if isinstance(row, dict):
                for value in row.values():
                    if isinstance(value, str):
                        parts.append(value)
                    elif isinstance(value, (int, float)) and not isinstance(value, bool):
                        parts.append(repr(value))
                    elif isinstance(value, (list, dict)):
                        parts.append(json.dumps(value, ensure_ascii=False, default=str))
    return normalise("\n".join(parts).replace("\n", " \u241e "))


_cache: dict[int, WorldIndex] = {}
_lock = threading.Lock()


def world_index(seed: int = 0) -> WorldIndex:
    """The (cached) index of base world ``seed``."""
    with _lock:
        hit = _cache.get(seed)
        if hit is not None:
            return hit
        bw = base_world(seed)
        idx = WorldIndex(seed=seed, base=bw, owner_id=bw.supervisor_id)
        idx.text = _text_of(bw.layer.tables)
        idx.contacts = sorted(idx.rows("phone.contacts", user_id=bw.supervisor_id), key=lambda r: r["id"])
        _cache[seed] = idx
        return idx


_WORD = re.compile(r"\w+")


def words(text: str) -> set[str]:
    return set(_WORD.findall(norm(text)))
