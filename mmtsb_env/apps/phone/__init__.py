"""Phone: the phone app's users and contacts tables and its account; its tools are the account tools
(``_accounts``).

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables  # noqa: F401
