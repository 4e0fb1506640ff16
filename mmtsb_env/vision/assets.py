"""Process-wide caches of image products, keyed by what the image IS (its render spec or file).

Two byte-budgeted LRU caches, each entry budgeted at its real size:

* :data:`PRODUCTS` -- compact products a model consumes: the image fitted to the model's
  resolution (an array, the observation tensor's content) and its PNG data URL (base64, what
  ``info["messages"]`` carries). ~0.05-0.35 MB per image: the shipped nominal suite's ~1,470 images (its scenarios'
  and the crops and contrasts its solutions make) take ~420 MB at 336x336 and fit.
  They are also kept on disk (:mod:`~mmtsb_env.vision.disk`: on by default, capped at 512 MB;
  ``MMTSB_IMAGE_CACHE_DIR=""`` turns it off), so a fresh process draws nothing it drew before.
* :data:`PIXELS` -- full-resolution drawings (1-4 MB each), for tools that read pixels. Smaller:
  a drawing is recomputed from its spec when evicted.

Keys start with an image's *content key* (``("render", canonical spec JSON)`` or ``("file",
path)``), so two scenarios showing the same image share its products, and nothing about a
scenario object's identity leaks into the cache.

>>> cache = AssetCache(100)
>>> cache.get("a", lambda: b"x" * 60) == b"x" * 60, cache.get("b", lambda: b"y" * 60) == b"y" * 60
(True, True)
>>> cache.keys(), cache.nbytes  # "b" does not fit and is used no more than "a": not kept
(['a'], 60)
>>> _ = [cache.get("b", lambda: b"y" * 60) for _ in range(2)]  # "b" is now used more: it replaces "a"
>>> cache.keys()
['b']
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


def size_of(value: Any) -> int:
    """Bytes held by a cached value: arrays and bytes by their buffer, PIL images by w*h*bands."""
    if isinstance(value, (bytes, bytearray, str)):
        return len(value)
    nbytes = getattr(value, "nbytes", None)
    if isinstance(nbytes, int):
        return nbytes
    size = getattr(value, "size", None)
    bands = getattr(value, "getbands", None)
    if isinstance(size, tuple) and len(size) == 2 and callable(bands):
        return size[0] * size[1] * len(bands())
    return 1024


class AssetCache:
    """A thread-safe LRU cache bounded by the real byte size of its values, with a frequency
    admission rule that resists scans.

    Every lookup counts toward its key's use count. When a new value does not fit, it is kept
    only if its key was used more often than each entry it would evict (least recent first);
    otherwise the cache stays as it is and the value is returned unkept. A run that cycles
    through more images than fit (a whole suite, pass after pass) therefore keeps a stable part
    of them resident, where a plain LRU evicts each one just before its next use and never hits.
    The counts are halved every ``8 x entries`` lookups, so a change of workload (another
    suite) displaces what is no longer used.
    """

    def __init__(self, max_bytes: int, *, disk: bool = False) -> None:
        self.max_bytes = int(max_bytes)
        self.disk = disk  # read and write misses through the disk cache (mmtsb_env.vision.disk)
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._uses: dict[Hashable, int] = {}
        self._lookups = 0
        self._bytes = 0
        self._lock = threading.Lock()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    @property
    def nbytes(self) -> int:
        return self._bytes

    def keys(self) -> list[Hashable]:
        """The keys held, least recently used first."""
        with self._lock:
            return list(self._items)

    def _count(self, key: Hashable) -> None:
        self._uses[key] = self._uses.get(key, 0) + 1
        self._lookups += 1
        if self._lookups >= 8 * max(64, len(self._items)):  # age the counts
            self._lookups = 0
            self._uses = {k: n // 2 for k, n in self._uses.items() if n > 1}

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """The cached value of ``key``, made (outside the lock) and stored on a miss if admitted."""
        with self._lock:
            self._count(key)
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit[0]
        value = self._load(key) if self.disk else None
        if value is None:
            value = make()
            if self.disk:
                from . import disk

                disk.store(key, value)
        self.put(key, value)
        return value

    @staticmethod
    def _load(key: Hashable) -> Any:
        from . import disk

        return disk.load(key) if disk.folder() is not None else None

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` under ``key`` if it fits, or if its key is used more than what it evicts."""
        size = size_of(value)
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.max_bytes:
                return  # larger than the whole budget: used once, never kept
            uses, freed, victims = self._uses.get(key, 0), 0, 0
            for other, (_, other_size) in self._items.items():  # least recent first
                if self._bytes - freed + size <= self.max_bytes:
                    break
                if self._uses.get(other, 0) >= uses:
                    return  # not admitted: what it would evict is used at least as often
                freed += other_size
                victims += 1
            for _ in range(victims):
                self._bytes -= self._items.popitem(last=False)[1][1]
            self._items[key] = (value, size)
            self._bytes += size

    def discard(self, predicate: Callable[[Hashable], bool]) -> None:
        """Drop every entry whose key satisfies ``predicate``."""
        with self._lock:
            for key in [k for k in self._items if predicate(k)]:
                self._bytes -= self._items.pop(key)[1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._uses.clear()
            self._lookups = 0
            self._bytes = 0


PRODUCTS = AssetCache(512 * 2**20, disk=True)
PIXELS = AssetCache(128 * 2**20)


def render_key(spec: Any) -> tuple[str, str]:
    """The content key of a render spec (canonical JSON: equal specs draw equal images)."""
    return ("render", json.dumps(spec, sort_keys=True, separators=(",", ":"), default=str))


def clear() -> None:
    """Empty both caches (tests that count drawings start from nothing)."""
    PRODUCTS.clear()
    PIXELS.clear()
