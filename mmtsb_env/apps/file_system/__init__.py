"""File system: every user's directories and files, archives.

Importing the package registers its tables, base data and tools, in this order."""

from . import tables, data, tools  # noqa: F401
