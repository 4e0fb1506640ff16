"""Helpers every app module uses: pagination, text matching, timestamps, people lookups."""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from datetime import datetime
from typing import Any, Iterable, Sequence

from ..tools.errors import InvalidArgument, NotFound
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


_WORD = re.compile(r"\w+", re.UNICODE)


def words(text: str | None) -> list[str]:
    return _WORD.findall((text or "").lower())


@lru_cache(maxsize=200_000)
def _sorted_words(text: str) -> tuple[str, ...]:
    """The distinct words of a stored text, sorted (texts are immutable: searches reuse this)."""
    return tuple(sorted(set(_WORD.findall(text.lower()))))


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
    q = words(query)
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
    q = words(query)
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
    q = words(query)
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
