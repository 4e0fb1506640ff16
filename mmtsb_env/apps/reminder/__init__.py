"""Reminders: the phone owner's reminders.

Importing the package registers its tables, base data and tools, in this order."""

from . import tables, tools  # noqa: F401
