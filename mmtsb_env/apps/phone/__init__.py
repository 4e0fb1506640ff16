"""Phone: the phone app's users, contacts and messages tables, and its carrier account tools.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, tools  # noqa: F401
