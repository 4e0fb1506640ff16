"""File system: every user's directories and files, archives.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
