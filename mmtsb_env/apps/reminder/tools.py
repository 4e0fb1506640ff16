"""Reminders: add, search, modify and remove the owner's reminders."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ...tools import NOT_GIVEN, InvalidArgument, NotFound, tool
from ...world import format_datetime_tz, parse_datetime
from .._common import nonblank
from ..calendar.tables import fresh_id, fuzzy_match
from .tables import APP, REMINDERS, NotGiven


def _when(value: str, name: str) -> datetime:
    try:
        return parse_datetime(value)
    except ValueError:
        raise InvalidArgument(f"{name} must be an ISO 8601 date-time such as 2026-04-17T10:00:00+00:00, got {value!r}") from None


def _check_location(latitude: float | None, longitude: float | None) -> None:
    if (latitude is None) != (longitude is None):
        raise InvalidArgument("give latitude and longitude together (or neither)")
    if latitude is not None and not -90 <= latitude <= 90:
        raise InvalidArgument("latitude must be between -90 and 90")
    if longitude is not None and not -180 <= longitude <= 180:
        raise InvalidArgument("longitude must be between -180 and 180")


def _require(world: Any, reminder_id: str) -> dict[str, Any]:
    row = world.get(REMINDERS, reminder_id)
    if row is None:
        raise NotFound(f"reminder {reminder_id!r} does not exist; find reminders with search_reminder")
    return row


@tool(app=APP, writes=True)
def add_reminder(world, content: str, reminder_datetime: str, latitude: float | None = None,
                 longitude: float | None = None) -> str:
    """Add a reminder and return its id.

    Args:
        content: what to be reminded of.
        reminder_datetime: when to be reminded, ISO 8601 such as 2026-04-17T10:00:00-07:00 (UTC if no offset).
        latitude: latitude of a place the reminder is tied to (with longitude).
        longitude: longitude of a place the reminder is tied to (with latitude).
    """
    nonblank(content, "content")
    when = _when(reminder_datetime, "reminder_datetime")
    _check_location(latitude, longitude)
    reminder_id = fresh_id(world, REMINDERS, "reminder")
    world.insert(REMINDERS, {
        "reminder_id": reminder_id, "content": content, "creation_datetime": format_datetime_tz(world.now),
        "reminder_datetime": format_datetime_tz(when), "latitude": latitude, "longitude": longitude,
    })
    return reminder_id


@tool(app=APP, writes=True)
def modify_reminder(
    world,
    reminder_id: str,
    content: str | NotGiven = NOT_GIVEN,
    reminder_datetime: str | NotGiven = NOT_GIVEN,
    latitude: float | None | NotGiven = NOT_GIVEN,
    longitude: float | None | NotGiven = NOT_GIVEN,
) -> dict:
    """Change a reminder; its creation_datetime is set to now. Give at least one field.

    Args:
        reminder_id: id of the reminder.
        content: new content (omitted or null = unchanged).
        reminder_datetime: new time to be reminded, ISO 8601 (omitted or null = unchanged).
        latitude: new latitude; null removes the place (together with longitude).
        longitude: new longitude; null removes the place (together with latitude).
    """
    row = _require(world, reminder_id)
    changes: dict[str, Any] = {}
    if content is not NOT_GIVEN and content is not None:
        nonblank(content, "content")
        changes["content"] = content
    if reminder_datetime is not NOT_GIVEN and reminder_datetime is not None:
        changes["reminder_datetime"] = format_datetime_tz(_when(reminder_datetime, "reminder_datetime"))
    if latitude is not NOT_GIVEN:
        changes["latitude"] = latitude
    if longitude is not NOT_GIVEN:
        changes["longitude"] = longitude
    if not changes:
        raise InvalidArgument("nothing to modify: give content, reminder_datetime, latitude or longitude")
    _check_location(changes.get("latitude", row["latitude"]), changes.get("longitude", row["longitude"]))
    world.update(REMINDERS, reminder_id, **changes, creation_datetime=format_datetime_tz(world.now))
    return {"message": "Reminder modified.", "reminder_id": reminder_id}


@tool(app=APP)
def search_reminder(
    world,
    reminder_id: str | NotGiven = NOT_GIVEN,
    content: str | NotGiven = NOT_GIVEN,
    creation_datetime_lowerbound: str | NotGiven = NOT_GIVEN,
    creation_datetime_upperbound: str | NotGiven = NOT_GIVEN,
    reminder_datetime_lowerbound: str | NotGiven = NOT_GIVEN,
    reminder_datetime_upperbound: str | NotGiven = NOT_GIVEN,
    latitude: float | NotGiven = NOT_GIVEN,
    longitude: float | NotGiven = NOT_GIVEN,
) -> list:
    """Find reminders matching every criterion given (all reminders if none), by reminder time.

    Args:
        reminder_id: exact id of the reminder.
        content: words of the content (fuzzy word match).
        creation_datetime_lowerbound: created at or after this ISO 8601 date-time.
        creation_datetime_upperbound: created at or before this ISO 8601 date-time.
        reminder_datetime_lowerbound: due at or after this ISO 8601 date-time.
        reminder_datetime_upperbound: due at or before this ISO 8601 date-time.
        latitude: place latitude (within 0.001 degree, about 100 m).
        longitude: place longitude (within 0.001 degree).
    """
    bounds = []
    for col, value, name, op in (
        ("creation_datetime", creation_datetime_lowerbound, "creation_datetime_lowerbound", "ge"),
        ("creation_datetime", creation_datetime_upperbound, "creation_datetime_upperbound", "le"),
        ("reminder_datetime", reminder_datetime_lowerbound, "reminder_datetime_lowerbound", "ge"),
        ("reminder_datetime", reminder_datetime_upperbound, "reminder_datetime_upperbound", "le"),
    ):
        if value is not NOT_GIVEN and value is not None:
            bounds.append((col, _when(value, name), op))

    def keep(row: dict[str, Any]) -> bool:
        if reminder_id is not NOT_GIVEN and reminder_id is not None and row["reminder_id"] != reminder_id:
            return False
        if content is not NOT_GIVEN and content is not None and not fuzzy_match(content, row["content"]):
            return False
        for col, limit, op in bounds:
            value = parse_datetime(row[col])
            if (op == "ge" and value < limit) or (op == "le" and value > limit):
                return False
        for col, value in (("latitude", latitude), ("longitude", longitude)):
            if value is not NOT_GIVEN and value is not None and (row[col] is None or abs(row[col] - value) > 0.001):
                return False
        return True

    rows = [dict(r) for r in world.rows(REMINDERS) if keep(r)]
    rows.sort(key=lambda r: (parse_datetime(r["reminder_datetime"]), r["reminder_id"]))
    return rows


@tool(app=APP, writes=True)
def remove_reminder(world, reminder_id: str) -> dict:
    """Delete a reminder.

    Args:
        reminder_id: id of the reminder.
    """
    _require(world, reminder_id)
    world.delete(REMINDERS, reminder_id)
    return {"message": "Reminder removed."}
