"""Amazon: the store (catalog, cart, orders, returns, reviews, Prime) and its users.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
