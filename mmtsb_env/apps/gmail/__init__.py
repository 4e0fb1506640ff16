"""Gmail: emails, threads, drafts and attachments.

Importing the package registers its tables, base data and tools, in this order."""

from . import tables, data, tools  # noqa: F401
