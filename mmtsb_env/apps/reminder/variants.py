"""Reminders: reminder CRUD (medium) and one reminders tool with search (compact and mini)."""

from __future__ import annotations

from ...tools.consolidate import consolidate

consolidate(
    "reminder_manage_reminder", app="reminder", toolboxes=("medium",),
    summary="Add, change or delete a reminder.",
    routes={"add": "add_reminder", "update": "modify_reminder", "delete": "remove_reminder"},
)
consolidate(
    "reminder", app="reminder", toolboxes=("compact", "mini"),
    summary="Reminders: search them, add one, change one or delete one.",
    routes={"search": "search_reminder", "add": "add_reminder", "update": "modify_reminder", "delete": "remove_reminder"},
)
