"""Gmail tools, one module per area (registered in this order)."""

from . import compose, threads  # noqa: F401
