"""Simple Note: notes.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, tools  # noqa: F401
