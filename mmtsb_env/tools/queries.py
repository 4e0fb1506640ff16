"""Search queries: the words of a text and the bound on a query's words every search tool applies
(the apps' searches, tool search, the UI docs search)."""

from __future__ import annotations

import re

from .errors import InvalidArgument

_WORD = re.compile(r"\w+", re.UNICODE)

MAX_QUERY_WORDS = 100  # a search query's words; scoring work grows with their number


def words(text: str | None) -> list[str]:
    """The lower-cased words of a text."""
    return _WORD.findall((text or "").lower())


def query_words(query: str | None) -> list[str]:
    """The words of a search query, or InvalidArgument past :data:`MAX_QUERY_WORDS` of them."""
    q = words(query)
    if len(q) > MAX_QUERY_WORDS:
        raise InvalidArgument(f"the query has {len(q):,} words; a search takes at most {MAX_QUERY_WORDS} "
                              "(use the few words that matter)")
    return q
