"""Todoist tools, one module per area (registered in this order)."""

from . import projects, comments, tasks  # noqa: F401
