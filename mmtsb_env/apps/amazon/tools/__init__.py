"""Amazon tools, one module per area (registered in this order)."""

from . import catalog, shop, returns, reviews  # noqa: F401
