"""Reminders: the phone owner's reminders.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, tools  # noqa: F401
