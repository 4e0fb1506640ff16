"""Offline web search over a corpus derived from the base world.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import data, tools  # noqa: F401
