"""Offline web search: the tool (the pages are rows of ``web_search.pages``; ranking in ``tables``)."""

from __future__ import annotations

from ...tools import InvalidArgument, tool
from .._common import query_words

from .tables import APP, search


@tool(app=APP, requires=("network",))
def web_search_serper(world, query: str) -> list:
    """Search the web and return the top results (title, link, snippet), best first.

    Args:
        query: what to search for, in a few words.
    """
    if not query or not query.strip():
        raise InvalidArgument("query must not be empty")
    query_words(query)  # at most MAX_QUERY_WORDS
    return search(world, query)
