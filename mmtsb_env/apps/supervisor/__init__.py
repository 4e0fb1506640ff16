"""Supervisor: the device owner's profile, addresses and payment cards.

Importing the package registers its tables, base data and tools, in this order."""

from . import tables, tools  # noqa: F401
