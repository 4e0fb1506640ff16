"""Gmail: emails, threads, drafts and attachments.

Importing the package registers its parts (tables, base data, tools), in this order."""

from . import tables, data, tools  # noqa: F401
