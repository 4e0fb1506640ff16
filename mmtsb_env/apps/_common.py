"""Helpers every app module uses: pagination, text matching, timestamps, people lookups."""

from __future__ import annotations

import threading
from bisect import bisect_left, insort
from datetime import datetime
from typing import Any, Callable, Iterable, Sequence

from ..textcache import text_cache
from ..tools.errors import InvalidArgument, NotFound
from ..tools.queries import MAX_QUERY_WORDS, query_words, words  # noqa: F401  (the apps' searches use them from here)
from ..world.clock import format_datetime, parse_datetime

MAX_PAGE_LIMIT = 20


def paginate(items: Sequence[Any], page_index: int | None, page_limit: int | None, default_limit: int = 5) -> list[Any]:
    """One page of ``items``; ``page_index`` counts from 0, ``page_limit`` is capped at 20."""
    index = 0 if page_index is None else page_index
    limit = default_limit if page_limit is None else page_limit
    if index < 0:
        raise InvalidArgument("page_index must be 0 or more")
    if not 1 <= limit <= MAX_PAGE_LIMIT:
        raise InvalidArgument(f"page_limit must be between 1 and {MAX_PAGE_LIMIT}")
    start = index * limit
    return list(items[start:start + limit])


@text_cache(maxsize=200_000, budget=16_000_000)
def _sorted_words(text: str) -> tuple[str, ...]:
    """The distinct words of a stored text, sorted (texts are immutable: searches reuse this)."""
    return tuple(sorted(set(words(text))))


def _has_word_with_prefix(text: str, prefix: str) -> bool:
    """Whether a word of ``text`` starts with ``prefix`` (binary search in its sorted words)."""
    vocab = _sorted_words(text)
    i = bisect_left(vocab, prefix)
    return i < len(vocab) and vocab[i].startswith(prefix)


def _texts(fields: Iterable[Any]) -> list[str]:
    out = []
    for f in fields:
        if isinstance(f, (list, tuple)):
            out.extend(str(item) for item in f)
        elif f is not None:
            out.append(f if isinstance(f, str) else str(f))
    return out


def text_score(query: str | None, *fields: Any) -> float:
    """How well ``fields`` match ``query``: fraction of query words found (0 when none).

    An empty query matches everything with score 1. Matching is case-insensitive on words and
    also accepts a query word that is a prefix of a field word (``"bread"`` ~ ``"breadcrumbs"``).
    """
    q = query_words(query)
    if not q:
        return 1.0
    return _score_words(q, _texts(fields))


def _score_words(q: list[str], texts: list[str], masks: dict[str, int] | None = None) -> float:
    """Fraction of the query words (with repeats) some text has a word starting with.

    ``masks`` memoises, per text, which query positions it matches: one search sees the same
    artist, album or sender text on many rows, so each distinct text is examined once.
    """
    if masks is None:
        masks = {}
    matched = 0
    for t in texts:
        mask = masks.get(t)
        if mask is None:
            mask = masks[t] = sum(1 << k for k, w in enumerate(q) if _has_word_with_prefix(t, w))
        matched |= mask
    return matched.bit_count() / len(q)


def search_rank(rows: Iterable[dict[str, Any]], query: str | None, fields: Sequence[str]) -> list[dict[str, Any]]:
    """Rows matching ``query`` on ``fields``, best first (stable for ties)."""
    q = query_words(query)
    if not q:
        return list(rows)
    scored = []
    masks: dict[str, int] = {}
    for row in rows:
        score = _score_words(q, _texts(row.get(f) for f in fields), masks)
        if score > 0:
            scored.append((score, row))
    scored.sort(key=lambda item: -item[0])
    return [row for _, row in scored]


def rank_texts(items: Iterable[tuple[Any, Sequence[Any]]], query: str | None) -> list[Any]:
    """The items of ``(item, texts)`` pairs whose texts match ``query``, best first (stable for
    ties); the same ranking as :func:`search_rank` without building a row per item."""
    q = query_words(query)
    if not q:
        return [item for item, _ in items]
    scored = []
    masks: dict[str, int] = {}
    for item, texts in items:
        score = _score_words(q, _texts(texts), masks)
        if score > 0:
            scored.append((score, item))
    scored.sort(key=lambda pair: -pair[0])
    return [item for _, item in scored]


def nonblank(value: str, name: str) -> str:
    """``value`` unchanged, or InvalidArgument when it is empty or only white space."""
    if not value.strip():
        raise InvalidArgument(f"{name} must not be empty")
    return value


def parse_when(value: str, name: str) -> datetime:
    """An aware datetime from a tool argument (ISO 8601, ``YYYY-MM-DD|HH:MM:SS`` or a bare date).

    A value without an offset is UTC; an unreadable one is an InvalidArgument naming ``name``.
    """
    try:
        return parse_datetime(value)
    except ValueError as exc:
        raise InvalidArgument(f"{name}: {exc}") from None


def now_str(world: Any) -> str:
    """The frozen clock as AppWorld stores timestamps (naive UTC ISO, seconds)."""
    return format_datetime(world.now)


def require_row(world: Any, table: str, key: Any, what: str) -> dict[str, Any]:
    row = world.get(table, key)
    if row is None:
        raise NotFound(f"{what} with id {key} does not exist")
    return row


def require_owned(world: Any, table: str, key: Any, what: str, owner_column: str = "user_id") -> dict[str, Any]:
    """The row, if it exists and belongs to the device owner; NotFound otherwise (no leaks)."""
    row = world.get(table, key)
    if row is None or row.get(owner_column) != world.user_id:
        raise NotFound(f"{what} with id {key} does not exist in your account")
    return row


def sort_rows(rows: list[dict[str, Any]], sort_by: str | None, allowed: Sequence[str]) -> list[dict[str, Any]]:
    """Sort by ``"field"`` (ascending) or ``"-field"`` (descending); ``None`` keeps the order."""
    if not sort_by:
        return rows
    desc = sort_by.startswith("-")
    key = sort_by.lstrip("+-")
    if key not in allowed:
        raise InvalidArgument(f"sort_by must be one of {', '.join(allowed)} (prefix '-' for descending), got {sort_by!r}")
    present = [r for r in rows if r.get(key) is not None]
    missing = [r for r in rows if r.get(key) is None]
    present.sort(key=lambda r: r[key], reverse=desc)
    return present + missing


def public_user(row: dict[str, Any]) -> dict[str, Any]:
    """What an app shows about a user other than the owner."""
    return {
        k: row[k]
        for k in ("id", "first_name", "last_name", "email", "phone_number", "registered_at")
        if k in row
    }


# ------------------------------------------------------------------ indexed search over the base layer
class _BaseIndex:
    """Which base rows of one table have a word starting with a given query word.

    Built once per process for each (base tables, text function) and shared by every world on
    that base: the base layer is never written. ``order`` is the base rows in iteration order;
    ``postings`` maps each word of a row's texts to the positions (in ``order``) of the rows
    holding it; ``vocab`` is every word, sorted, so the words starting with a prefix are one
    contiguous slice found by binary search.
    """

    def __init__(self, sources: tuple[dict[Any, Any], ...], texts_of: Callable[[dict[str, Any]], Iterable[Any]]) -> None:
        self.sources = sources  # the base tables read (held: the cache is keyed on their ids)
        self.order = list(sources[0].items())
        postings: dict[str, list[int]] = {}
        for pos, (_, row) in enumerate(self.order):
            row_words = set()
            for t in _texts(texts_of(row)):
                row_words.update(_sorted_words(t))
            for w in row_words:
                postings.setdefault(w, []).append(pos)
        self.postings = postings
        self.vocab = sorted(postings)
        self._prefix: dict[str, frozenset[int]] = {}

    def having_prefix(self, prefix: str) -> frozenset[int]:
        """Positions of the rows with some word starting with ``prefix`` (memoised)."""
        found = self._prefix.get(prefix)
        if found is None:
            found = frozenset().union(*(self.postings[w] for w in _with_prefix(self.vocab, prefix)))
            if len(self._prefix) < 50_000:
                self._prefix[prefix] = found
        return found


class _OverlayIndex:
    """Which rows a world's scenario, user seat or episode wrote have a word starting with a query
    word: the overlay's counterpart of :class:`_BaseIndex`, kept per world and grown as rows appear.

    Entries are keyed by the identity of the row object (rows are copy-on-write, so a rewritten
    row is a new object; the object is held, so its id is never reused) and hold the row's
    words, computed once. A search walks :meth:`World.overlay_rows` (which rows are current and
    in which order), adds the rows it has not seen, and looks the query's prefixes up in the
    postings; entries of rows no longer current are dropped when they outnumber the live ones.
    """

    def __init__(self, texts_of: Callable[[dict[str, Any]], Iterable[Any]]) -> None:
        self.texts_of = texts_of
        self.rows: dict[int, tuple[dict[str, Any], tuple[str, ...]]] = {}
        self.postings: dict[str, set[int]] = {}
        self.vocab: list[str] = []  # every word of the postings, sorted

    def current(self, world: Any, table: str) -> list[dict[str, Any]]:
        """The table's overlay rows in order, every one of them indexed."""
        rows = list(world.overlay_rows(table))
        for row in rows:
            if id(row) not in self.rows:
                self._add(row, None)
        if len(self.rows) > 2 * len(rows) + 64:  # mostly stale: rebuild from the current rows
            old, self.rows, self.postings, self.vocab = self.rows, {}, {}, []
            for row in rows:
                self._add(row, old[id(row)][1])
        return rows

    def _add(self, row: dict[str, Any], row_words: tuple[str, ...] | None) -> None:
        if row_words is None:
            found: set[str] = set()
            for t in _texts(self.texts_of(row)):
                found.update(_sorted_words(t))
            row_words = tuple(found)
        self.rows[id(row)] = (row, row_words)
        for w in row_words:
            ids = self.postings.get(w)
            if ids is None:
                ids = self.postings[w] = set()
                insort(self.vocab, w)
            ids.add(id(row))

    def having_prefix(self, prefix: str) -> set[int]:
        """Ids of the indexed rows with some word starting with ``prefix`` (stale ones included)."""
        return set().union(*(self.postings[w] for w in _with_prefix(self.vocab, prefix)))


def _with_prefix(vocab: list[str], prefix: str) -> Iterable[str]:
    """The words of the sorted ``vocab`` that start with ``prefix`` (one contiguous run)."""
    i = bisect_left(vocab, prefix)
    while i < len(vocab) and vocab[i].startswith(prefix):
        yield vocab[i]
        i += 1


def _query_masks(q: list[str], having_prefix: Callable[[str], Iterable[int]]) -> dict[int, int]:
    """For each hit of an index, the bit set of the query words (by position in ``q``) it has."""
    masks: dict[int, int] = {}
    for k, w in enumerate(q):
        bit = 1 << k
        for hit in having_prefix(w):
            masks[hit] = masks.get(hit, 0) | bit
    return masks


def _overlay_index(world: Any, table: str, name: str,
                   texts_of: Callable[[dict[str, Any]], Iterable[Any]]) -> _OverlayIndex:
    indexes = getattr(world, "indexes", None)
    if indexes is None:  # a world-like object without a place for derived data: index afresh
        return _OverlayIndex(texts_of)
    index = indexes.get((name, table))
    if index is None:
        index = indexes[(name, table)] = _OverlayIndex(texts_of)
    return index


_INDEXES: dict[tuple[Any, ...], _BaseIndex] = {}
_INDEX_LOCK = threading.Lock()


def _base_index(world: Any, table: str, name: str, depends: Sequence[str],
                texts_of: Callable[[dict[str, Any]], Iterable[Any]]) -> _BaseIndex:
    """The shared index of ``table``'s base rows under ``texts_of``, keyed on the identity of the
    base tables it was built from (the table and those ``texts_of`` reads)."""
    sources = (world.base_table(table), *(world.base_table(t) for t in depends))
    key = (name, table, *map(id, sources))
    index = _INDEXES.get(key)
    if index is None or any(a is not b for a, b in zip(index.sources, sources)):
        with _INDEX_LOCK:
            index = _INDEXES.get(key)
            if index is None or any(a is not b for a, b in zip(index.sources, sources)):
                index = _INDEXES[key] = _BaseIndex(sources, texts_of)
    return index


def rank_table(world: Any, table: str, query: str | None, texts_of: Callable[[dict[str, Any]], Iterable[Any]],
               **options: Any) -> list[dict[str, Any]]:
    """The rows :func:`score_table` ranks (same arguments), best first, without their scores."""
    return [row for _, row in score_table(world, table, query, texts_of, **options)]


def score_table(
    world: Any,
    table: str,
    query: str | None,
    texts_of: Callable[[dict[str, Any]], Iterable[Any]],
    *,
    name: str,
    keep: Callable[[dict[str, Any]], bool] | None = None,
    depends: Sequence[str] = (),
    order_key: Callable[[dict[str, Any]], Any] | None = None,
) -> list[tuple[float, dict[str, Any]]]:
    """``(score, row)`` of the rows of ``table`` that pass ``keep`` and match ``query``, best first
    (the score is :func:`text_score`'s: the fraction of query words found; 1 for an empty query).

    The same result as ``rank_texts(((r, texts_of(r)) for r in rows if keep(r)), query)`` where
    ``rows`` is ``world.rows(table)`` (sorted by ``order_key`` when given; it must be unique per
    row, e.g. the key), but the base layer's rows are looked up in a shared inverted index and
    the rows the scenario or episode added or changed in the world's own index of them
    (:class:`_OverlayIndex`, grown as rows are written). ``name``
    identifies ``texts_of`` for the index cache; ``texts_of`` may read only the row and the base
    rows of ``depends`` (other tables): when any of those has an overlay the search falls back to
    the linear scan.
    """
    keep = keep or (lambda _row: True)
    q = query_words(query)
    linear = (not q or not hasattr(world, "base_table")
              or any(world.overlay_keys(t) for t in depends))
    if linear:
        rows = [r for r in world.rows(table) if keep(r)]
        if order_key is not None:
            rows.sort(key=order_key)
        if not q:
            return [(1.0, r) for r in rows]
        text_masks: dict[str, int] = {}
        scored = [(_score_words(q, _texts(texts_of(r)), text_masks), r) for r in rows]
        scored = [pair for pair in scored if pair[0] > 0]
        scored.sort(key=lambda item: -item[0])
        return scored
    index = _base_index(world, table, name, depends, texts_of)
    masks = _query_masks(q, index.having_prefix)
    hidden = world.overlay_keys(table)
    scored = []
    for pos in sorted(masks):
        key, row = index.order[pos]
        if key not in hidden and keep(row):
            scored.append((masks[pos].bit_count() / len(q), row))
    live = _overlay_index(world, table, name, texts_of)
    rows = live.current(world, table)
    row_masks = _query_masks(q, live.having_prefix)
    if row_masks:
        for row in rows:
            mask = row_masks.get(id(row))
            if mask is not None and keep(row):
                scored.append((mask.bit_count() / len(q), row))
    if order_key is not None:
        scored.sort(key=lambda item: order_key(item[1]))
    scored.sort(key=lambda item: -item[0])
    return scored
