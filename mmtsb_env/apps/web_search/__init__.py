"""Offline web search over the world's web pages (the base corpus and a scenario's own pages).

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
