"""Venmo tools, one module per area (registered in this order)."""

from . import account, requests, social  # noqa: F401
