"""Procedural images from JSON specs, with the ground-truth facts they show.

A spec is plain JSON data::

    {"kind": "receipt", "content": {"merchant": "Blue Door Cafe"}, "seed": 0, "difficulty": 0}

:func:`render` returns a :class:`Rendered`: a ``facts`` dict of the values the image shows and
the PIL ``image``. Missing content fields get plausible defaults from the seed; ``difficulty``
0-3 adds smaller fonts, distractor text, rotation, blur, noise and JPEG artifacts. The same spec
always gives the same pixels, and results are cached by a hash of the spec's canonical JSON.

Facts come from a cheap draft pass (layout and text, no textures or degradations); the pixels
are drawn the first time ``image`` is read, so checking what a scenario's images say costs a
fraction of drawing them.

>>> r = render({"kind": "receipt", "content": {"merchant": "Corner Deli", "items": [{"name": "Tea", "price": 2.5}]}})
>>> r.facts["merchant"], r.facts["subtotal"]
('Corner Deli', 2.5)
>>> r.drawn
False
>>> render({"kind": "receipt", "content": {"merchant": "Corner Deli", "items": [{"name": "Tea", "price": 2.5}]}}).image is r.image
True
>>> r.drawn
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from PIL import Image

from ._common import Ctx, draft
from ._family import Family
from .families import FAMILIES, kinds

SPEC_KEYS = ("kind", "content", "seed", "difficulty")


class _Job:
    """One spec's facts and pixels, each worked out on first use (once, thread-safe).

    Facts asked for first come from a draft pass; drawing the pixels yields the facts too (and
    checks them against the draft's).
    """

    __slots__ = ("spec", "key", "_facts", "_image", "_lock")

    def __init__(self, spec: dict[str, Any], key: str | None = None) -> None:
        self.spec = copy.deepcopy(spec)  # the caller may change its dict before anything is drawn
        self.key = key
        # facts outlive the job in FACTS (small, pure in the spec): an evicted job is not redrafted
        self._facts: dict[str, Any] | None = FACTS.get(key) if key is not None else None
        self._image: Image.Image | None = None
        self._lock = threading.Lock()

    @property
    def drawn(self) -> bool:
        return self._image is not None

    def facts(self) -> dict[str, Any]:
        if self._facts is None:
            with self._lock:
                if self._facts is None:
                    with draft():
                        self._facts = _run(self.spec)[1]
                    if self.key is not None:
                        FACTS.put(self.key, self._facts)
        return self._facts

    def image(self) -> Image.Image:
        if self._image is None:
            with self._lock:
                if self._image is None:
                    image, facts = _run(self.spec)
                    if self._facts is None:
                        self._facts = facts
                        if self.key is not None:
                            FACTS.put(self.key, facts)
                    elif facts != self._facts:  # a family let a pixel-only step decide a fact
                        raise RuntimeError(f"{self.spec.get('kind')} spec: the drawn image shows other facts than its draft")
                    self._image = image if image.mode == "RGB" else image.convert("RGB")
        return self._image


class Rendered:
    """The ground truth an image shows (``facts``) and the image (``image``), each made when first read.

    Copies returned by :func:`render` share the work (and the pixels) but each has its own
    ``facts`` dict, so editing it never changes another caller's.
    """

    __slots__ = ("key", "_job", "_facts")

    def __init__(self, key: str, job: _Job) -> None:
        self.key, self._job = key, job
        self._facts: dict[str, Any] | None = None

    @property
    def facts(self) -> dict[str, Any]:
        if self._facts is None:
            self._facts = copy.deepcopy(self._job.facts())
        return self._facts

    @property
    def image(self) -> Image.Image:
        """The RGB image (do not modify it)."""
        return self._job.image()

    @property
    def drawn(self) -> bool:
        return self._job.drawn

    @property
    def size(self) -> tuple[int, int]:
        return self.image.size

    def __repr__(self) -> str:
        return f"Rendered(kind={self._job.spec.get('kind')!r}, key={self.key[:12]!r}, drawn={self.drawn})"


def canonical(spec: Any) -> str:
    """Canonical JSON of a spec (sorted keys, no spaces); ValueError if it is not JSON data."""
    try:
        return json.dumps(spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"spec must be JSON data: {exc}") from None


def spec_key(spec: Any) -> str:
    return hashlib.sha256(canonical(spec).encode()).hexdigest()


def normalize(spec: Any) -> tuple[Family, Ctx]:
    """Validate a spec completely (without drawing); ValueError naming the offending field."""
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
    ctx = Ctx(kind=kind, content=content, seed=seed, difficulty=difficulty)
    if fam.check is not None:
        fam.check(ctx)
    return fam, ctx


# ---------------------------------------------------------------------------- cache


class _LRU:
    """Thread-safe LRU of render jobs bounded by entry count and the bytes of the pixels drawn."""

    def __init__(self, max_entries: int = 128, max_bytes: int = 384 * 2**20) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._data: OrderedDict[str, _Job] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def _cost(job: _Job) -> int:
        if not job.drawn:
            return 0
        w, h = job.image().size
        return w * h * 3

    def get(self, key: str) -> _Job | None:
        with self._lock:
            job = self._data.get(key)
            if job is not None:
                self._data.move_to_end(key)
                self.hits += 1
            return job

    def put(self, key: str, job: _Job) -> _Job:
        """Cache ``job`` and return it -- or the job another thread cached first (one job per spec)."""
        with self._lock:
            self.misses += 1
            if key in self._data:
                return self._data[key]
            self._data[key] = job
            # jobs are drawn after they are cached, so count the pixels that exist now
            self._bytes = sum(self._cost(j) for j in self._data.values())
            while self._data and (len(self._data) > self.max_entries or self._bytes > self.max_bytes):
                _, old = self._data.popitem(last=False)
                self._bytes -= self._cost(old)
            return job

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


class _FactsMemo:
    """Facts by spec key, kept longer than the jobs in :data:`CACHE` (a few hundred bytes each,
    where a job may hold megabytes of pixels): reading an evicted spec's facts again (the user
    judge lists every image's values after each episode) does not draw it again."""

    def __init__(self, max_entries: int = 20_000) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            return self._data.get(key)

    def put(self, key: str, facts: dict[str, Any]) -> None:
        with self._lock:
            self._data[key] = facts
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


FACTS = _FactsMemo()


def render(spec: dict[str, Any], *, use_cache: bool = True) -> Rendered:
    """Render a spec (see module docs); ValueError for a bad spec."""
    key = spec_key(spec)
    if use_cache:
        hit = CACHE.get(key)
        if hit is not None:
            return Rendered(key, hit)
    normalize(spec)  # a bad spec fails here, not when its facts or pixels are first read
    job = _Job(spec, key if use_cache else None)
    if use_cache:
        job = CACHE.put(key, job)
    return Rendered(key, job)


def _run(spec: dict[str, Any]) -> tuple[Image.Image, dict[str, Any]]:
    fam, ctx = normalize(spec)
    image, facts = fam.draw(ctx)
    facts = {"kind": fam.kind, **facts}
    if ctx.distractors:
        facts["distractors"] = list(ctx.distractors)
    return image, facts


def clear_cache() -> None:
    CACHE.clear()
    FACTS.clear()


def cache_info() -> dict[str, int]:
    return CACHE.info()


__all__ = ["CACHE", "FAMILIES", "Family", "Rendered", "cache_info", "canonical", "clear_cache", "kinds", "normalize",
           "render", "spec_key"]
