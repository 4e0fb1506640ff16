"""Splitwise tools, one module per area (registered in this order)."""

from . import groups, ledger  # noqa: F401
