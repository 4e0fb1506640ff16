"""Venmo: profile, friends, balance, payment cards, payments and requests, the social feed.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
