"""Splitwise: groups, shared expenses, payments, balances and notifications.

Importing the package registers its tables, base data and tools, in this order."""

from . import tables, data, tools  # noqa: F401
