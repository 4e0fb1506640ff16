"""Phone alarms: alarm CRUD (medium) and one alarms tool with the clock (compact and mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

consolidate(
    "alarms_manage_alarm", app="alarms", toolboxes=("medium",),
    summary="Create, show, update or delete an alarm on the phone.",
    routes=actions("alarms_", create="create_alarm", show="show_alarm", update="update_alarm", delete="delete_alarm"),
)
consolidate(
    "alarms", app="alarms", toolboxes=("compact", "mini"),
    summary="Phone alarms and clock: list, create, show, update or delete alarms, or read the current date and time.",
    routes=actions("alarms_", list="show_alarms", create="create_alarm", show="show_alarm", update="update_alarm",
                   delete="delete_alarm", current_date_and_time="get_current_date_and_time"),
)
