"""Procedural images from JSON specs, with the ground-truth facts they show.

A spec is plain JSON data::

    {"kind": "receipt", "content": {"merchant": "Blue Door Cafe"}, "seed": 0, "difficulty": 0}

:func:`render` returns a :class:`Rendered` (a PIL image and a ``facts`` dict of the values drawn).
Missing content fields get plausible defaults from the seed; ``difficulty`` 0-3 adds smaller
fonts, distractor text, rotation, blur, noise and JPEG artifacts. The same spec always gives
the same pixels, and results are cached by a hash of the spec's canonical JSON.

>>> r = render({"kind": "receipt", "content": {"merchant": "Corner Deli", "items": [{"name": "Tea", "price": 2.5}]}})
>>> r.facts["merchant"], r.facts["subtotal"]
('Corner Deli', 2.5)
>>> render({"kind": "receipt", "content": {"merchant": "Corner Deli", "items": [{"name": "Tea", "price": 2.5}]}}).image is r.image
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from PIL import Image

from ._common import Check, Ctx, Obj

SPEC_KEYS = ("kind", "content", "seed", "difficulty")


@dataclass(frozen=True)
class Rendered:
    """A rendered image and the ground truth drawn in it. Do not modify ``image``."""

    image: Image.Image
    facts: dict[str, Any]
    key: str = ""  # content hash of the spec

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size


@dataclass(frozen=True)
class Family:
    kind: str
    fields: dict[str, Check]
    draw: Callable[[Ctx], tuple[Image.Image, dict[str, Any]]]
    description: str = ""
    required: tuple[str, ...] = field(default=())

    def validate(self, content: Any) -> dict[str, Any]:
        return Obj(self.fields, self.required)(content, "content")


FAMILIES: dict[str, Family] = {}


def family(kind: str, fields: dict[str, Check], required: tuple[str, ...] = ()) -> Callable:
    """Register ``draw(ctx) -> (image, facts)`` as the renderer of ``kind``."""

    def register(draw: Callable[[Ctx], tuple[Image.Image, dict[str, Any]]]) -> Callable:
        doc = (draw.__doc__ or "").strip().split("\n")[0]
        FAMILIES[kind] = Family(kind, dict(fields), draw, doc, tuple(required))
        return draw

    return register


def kinds() -> list[str]:
    return sorted(FAMILIES)


def canonical(spec: Any) -> str:
    """Canonical JSON of a spec (sorted keys, no spaces); ValueError if it is not JSON data."""
    try:
        return json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"spec must be JSON data: {exc}") from None


def spec_key(spec: Any) -> str:
    return hashlib.sha256(canonical(spec).encode()).hexdigest()


def normalize(spec: Any) -> tuple[Family, Ctx]:
    """Validate a spec; ValueError naming the offending field."""
    if not isinstance(spec, dict):
        raise ValueError(f"spec must be an object, got {type(spec).__name__}")
    unknown = [k for k in spec if k not in SPEC_KEYS]
    if unknown:
        raise ValueError(f"spec has unknown field(s) {', '.join(map(repr, unknown))}; known: {', '.join(SPEC_KEYS)}")
    kind = spec.get("kind")
    if not isinstance(kind, str):
        raise ValueError(f"spec field 'kind' must be a string, got {type(kind).__name__}")
    fam = FAMILIES.get(kind)
    if fam is None:
        raise ValueError(f"spec field 'kind': unknown kind {kind!r}; known: {', '.join(kinds())}")
    seed = spec.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"spec field 'seed' must be an integer, got {type(seed).__name__} {seed!r}")
    difficulty = spec.get("difficulty", 0)
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 0 <= difficulty <= 3:
        raise ValueError(f"spec field 'difficulty' must be an integer 0-3, got {difficulty!r}")
    content = spec.get("content", {})
    try:
        content = fam.validate({} if content is None else content)
    except ValueError as exc:
        raise ValueError(f"{kind} spec: {exc}") from None
    return fam, Ctx(kind=kind, content=content, seed=seed, difficulty=difficulty)


# ---------------------------------------------------------------------------- cache


class _LRU:
    """Thread-safe LRU of rendered images bounded by entry count and total pixel bytes."""

    def __init__(self, max_entries: int = 128, max_bytes: int = 384 * 2**20) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._data: OrderedDict[str, Rendered] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self.hits = self.misses = 0

    @staticmethod
    def _cost(r: Rendered) -> int:
        w, h = r.image.size
        return w * h * 3

    def get(self, key: str) -> Rendered | None:
        with self._lock:
            r = self._data.get(key)
            if r is not None:
                self._data.move_to_end(key)
                self.hits += 1
            return r

    def key_lock(self, key: str) -> threading.Lock:
        with self._lock:
            return self._key_locks.setdefault(key, threading.Lock())

    def drop_key_lock(self, key: str) -> None:
        with self._lock:
            self._key_locks.pop(key, None)

    def put(self, key: str, r: Rendered) -> None:
        with self._lock:
            self.misses += 1
            if key in self._data:
                return
            self._data[key] = r
            self._bytes += self._cost(r)
            while self._data and (len(self._data) > self.max_entries or self._bytes > self.max_bytes):
                _, old = self._data.popitem(last=False)
                self._bytes -= self._cost(old)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def info(self) -> dict[str, int]:
        with self._lock:
            return {"entries": len(self._data), "bytes": self._bytes, "hits": self.hits, "misses": self.misses,
                    "max_entries": self.max_entries, "max_bytes": self.max_bytes}


CACHE = _LRU()


def _cheap_copy(r: Rendered) -> Rendered:
    # The image is shared (images are immutable by convention); facts are small and copied so a
    # caller editing them cannot corrupt the cache.
    return Rendered(r.image, copy.deepcopy(r.facts), r.key)


def render(spec: dict[str, Any], *, use_cache: bool = True) -> Rendered:
    """Render a spec (see module docs); ValueError for a bad spec."""
    key = spec_key(spec)
    if use_cache:
        hit = CACHE.get(key)
        if hit is not None:
            return _cheap_copy(hit)
        with CACHE.key_lock(key):  # concurrent renders of one spec draw it once
            try:
                hit = CACHE.get(key)
                if hit is not None:
                    return _cheap_copy(hit)
                out = _draw(spec, key)
                CACHE.put(key, out)
                return _cheap_copy(out)
            finally:
                CACHE.drop_key_lock(key)
    return _draw(spec, key)


def _draw(spec: dict[str, Any], key: str) -> Rendered:
    fam, ctx = normalize(spec)
    image, facts = fam.draw(ctx)
    if image.mode != "RGB":
        image = image.convert("RGB")
    facts = {"kind": fam.kind, **facts}
    if ctx.distractors:
        facts["distractors"] = list(ctx.distractors)
    return Rendered(image, facts, key)


def clear_cache() -> None:
    CACHE.clear()


def cache_info() -> dict[str, int]:
    return CACHE.info()


# Register the families (each module calls ``family`` at import).
from . import (  # noqa: E402,F401
    business_card, charts, event_poster, handwritten_note, invoice, price_tag, receipt, sign, table_document,
)

__all__ = ["CACHE", "FAMILIES", "Rendered", "cache_info", "canonical", "clear_cache", "family", "kinds",
           "normalize", "render", "spec_key"]
