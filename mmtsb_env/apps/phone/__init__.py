"""Phone: the phone app's users and contacts tables and its account; its tools are the account tools
(``_accounts``).

Importing the package registers its tables, base data and tools, in this order."""

from . import tables  # noqa: F401
