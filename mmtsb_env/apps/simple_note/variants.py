"""SimpleNote: note CRUD (medium) and one notes tool (compact and mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

consolidate(
    "simple_note_manage_note", app="simple_note", toolboxes=("medium",),
    summary="Create, show, update or delete one of your SimpleNote notes.",
    routes=actions("simple_note_", create="create_note", show="show_note", update="update_note", delete="delete_note"),
)
consolidate(
    "simple_note", app="simple_note", toolboxes=("compact", "mini"),
    summary="Everything about your SimpleNote notes: search them, create, show, update, delete, or add text to one.",
    routes=actions("simple_note_", search="search_notes", create="create_note", show="show_note", update="update_note",
                   delete="delete_note", add_content="add_content_to_note"),
)
