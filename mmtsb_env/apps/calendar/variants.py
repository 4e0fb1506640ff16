"""Calendar: calendar and event CRUD (medium) and one calendar tool (compact and mini)."""

from __future__ import annotations

from ...tools.consolidate import consolidate

consolidate(
    "calendar_manage_calendar", app="calendar", toolboxes=("medium",),
    summary="Create, rename or delete a calendar (deleting removes its events).",
    routes={"create": "create_calendar", "update": "modify_calendar", "delete": "remove_calendar"},
)
consolidate(
    "calendar_manage_event", app="calendar", toolboxes=("medium",),
    summary="Create, change or delete a calendar event.",
    routes={"create": "create_calendar_event", "update": "modify_calendar_event", "delete": "remove_calendar_event"},
)
consolidate(
    "calendar", app="calendar", toolboxes=("compact", "mini"), selectors=("entity", "action"),
    selector_docs={"entity": "calendar or event", "action": "create, search, update or delete"},
    summary="Calendars and their events: create, search, update or delete either.",
    routes={
        ("calendar", "create"): "create_calendar", ("calendar", "search"): "search_calendars",
        ("calendar", "update"): "modify_calendar", ("calendar", "delete"): "remove_calendar",
        ("event", "create"): "create_calendar_event", ("event", "search"): "search_calendar_events",
        ("event", "update"): "modify_calendar_event", ("event", "delete"): "remove_calendar_event",
    },
)
