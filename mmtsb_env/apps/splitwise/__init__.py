"""Splitwise: groups, shared expenses, payments, balances and notifications.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
