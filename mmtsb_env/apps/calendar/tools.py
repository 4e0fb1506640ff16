"""Calendar: calendars and events."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...tools import NOT_GIVEN, InvalidArgument, NotFound, tool
from ...world import format_datetime_tz
from .._common import nonblank
from .tables import (
    APP, CALENDARS, EVENTS, FREQUENCIES, NotGiven, _given, _instance, _resolve_instance, fresh_id, fuzzy_match,
    occurrences, parse_tz,
)


def _occurrence(world: Any, event_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(series parent, occurrence) for an occurrence id; NotFound for an unknown event id."""
    found = _resolve_instance(world, event_id)
    if found is None:
        raise NotFound(f"calendar event {event_id!r} does not exist; find events with search_calendar_events")
    return found


def _exclude(world: Any, parent: dict[str, Any], instance: dict[str, Any]) -> None:
    """Drop one occurrence from its series."""
    excluded = list(parent["recurrence_exclude_datetime"] or []) + [instance["start_datetime"]]
    world.update(EVENTS, parent["calendar_event_id"], recurrence_exclude_datetime=excluded)


def _require_calendar(world: Any, calendar_id: str) -> None:
    if world.get(CALENDARS, calendar_id) is None:
        raise NotFound(f"calendar {calendar_id!r} does not exist")


def _prepare(world: Any, row: dict[str, Any]) -> dict[str, Any]:
    """Validate a full event row and normalise its date-times; returns the row to store."""
    if world.get(CALENDARS, row["calendar_id"]) is None:
        raise NotFound(f"calendar {row['calendar_id']!r} does not exist; find calendars with search_calendars")
    if not (row["title"] or "").strip():
        raise InvalidArgument("title must not be empty")
    start = parse_tz(row["start_datetime"], "start_datetime")
    end = parse_tz(row["end_datetime"], "end_datetime")
    if end <= start:
        raise InvalidArgument(f"end_datetime ({row['end_datetime']}) must be later than start_datetime ({row['start_datetime']})")
    if row["is_all_day"]:
        start = start.replace(hour=0, minute=0, second=0, microsecond=0)
        last = end - timedelta(microseconds=1)
        end = last.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    row["start_datetime"], row["end_datetime"] = format_datetime_tz(start), format_datetime_tz(end)
    freq, interval, until = row["recurrence_frequency"], row["recurrence_interval"], row["recurrence_until_datetime"]
    if (freq is None) != (interval is None):
        raise InvalidArgument("give recurrence_frequency and recurrence_interval together (e.g. weekly and 2 for every other week)")
    if freq is not None:
        freq = str(freq).lower()
        if freq not in FREQUENCIES:
            raise InvalidArgument(f"recurrence_frequency must be one of {', '.join(FREQUENCIES)}, got {row['recurrence_frequency']!r}")
        if interval < 1:
            raise InvalidArgument("recurrence_interval must be 1 or more")
        row["recurrence_frequency"] = freq
    if until is not None:
        if freq is None:
            raise InvalidArgument("recurrence_until_datetime needs recurrence_frequency and recurrence_interval")
        until_dt = parse_tz(until, "recurrence_until_datetime")
        if until_dt < start:
            raise InvalidArgument("recurrence_until_datetime must not be before start_datetime")
        row["recurrence_until_datetime"] = format_datetime_tz(until_dt)
    names, emails = row["attendee_names"], row["attendee_emails"]
    if (names is None) != (emails is None) or len(names or []) != len(emails or []):
        raise InvalidArgument("attendee_names and attendee_emails go together and must have the same length "
                              "(use an empty string for someone without an email)")
    row["attendee_names"], row["attendee_emails"] = list(names or []), list(emails or [])
    if row["latitude"] is not None and not -90 <= row["latitude"] <= 90:
        raise InvalidArgument("latitude must be between -90 and 90")
    if row["longitude"] is not None and not -180 <= row["longitude"] <= 180:
        raise InvalidArgument("longitude must be between -180 and 180")
    row["recurrence_exclude_datetime"] = list(row["recurrence_exclude_datetime"] or [])
    return row


# ====================================================================== calendars
@tool(app=APP, writes=True)
def create_calendar(world, title: str) -> str:
    """Create a calendar (such as Work or Holidays) and return its id.

    Args:
        title: name of the calendar.
    """
    nonblank(title, "title")
    calendar_id = fresh_id(world, CALENDARS, "calendar")
    world.insert(CALENDARS, {"calendar_id": calendar_id, "title": title.strip()})
    return calendar_id


@tool(app=APP)
def search_calendars(world, calendar_id: str | NotGiven = NOT_GIVEN, title: str | NotGiven = NOT_GIVEN) -> list:
    """Find calendars by exact id and/or by words of their title; give at least one of the two.

    Args:
        calendar_id: exact id of the calendar.
        title: words of the calendar title (fuzzy word match).
    """
    if not _given(calendar_id) and not _given(title):
        raise InvalidArgument("give calendar_id and/or title to search calendars")
    rows = sorted(world.rows(CALENDARS), key=lambda r: r["calendar_id"])
    if _given(calendar_id):
        rows = [r for r in rows if r["calendar_id"] == calendar_id]
    if _given(title):
        rows = [r for r in rows if fuzzy_match(title, r["title"])]
    return [dict(r) for r in rows]


@tool(app=APP, writes=True)
def modify_calendar(world, calendar_id: str, title: str) -> dict:
    """Rename a calendar.

    Args:
        calendar_id: id of the calendar.
        title: new name.
    """
    _require_calendar(world, calendar_id)
    nonblank(title, "title")
    world.update(CALENDARS, calendar_id, title=title.strip())
    return {"message": "Calendar renamed."}


@tool(app=APP, writes=True)
def remove_calendar(world, calendar_id: str) -> dict:
    """Delete a calendar together with all of its events.

    Args:
        calendar_id: id of the calendar.
    """
    _require_calendar(world, calendar_id)
    events = world.select(EVENTS, calendar_id=calendar_id)
    for event in events:
        world.delete(EVENTS, event["calendar_event_id"])
    world.delete(CALENDARS, calendar_id)
    return {"message": f"Calendar removed with {len(events)} event(s)."}


# ====================================================================== events
@tool(app=APP, writes=True)
def create_calendar_event(
    world,
    calendar_id: str,
    title: str,
    start_datetime: str,
    end_datetime: str,
    description: str | None = None,
    is_all_day: bool = False,
    recurrence_frequency: str | None = None,
    recurrence_interval: int | None = None,
    recurrence_until_datetime: str | None = None,
    latitude: float | None = None,
    longitude: float | None = None,
    place_id: str | None = None,
    formatted_address: str | None = None,
    attendee_names: list[str] | None = None,
    attendee_emails: list[str] | None = None,
) -> str:
    """Create an event in a calendar and return its id.

    Args:
        calendar_id: id of the calendar (see search_calendars).
        title: title of the event.
        start_datetime: start, ISO 8601 with UTC offset, e.g. 2026-04-20T10:00:00-07:00 (inclusive).
        end_datetime: end, ISO 8601 with UTC offset (exclusive); must be after the start.
        description: longer description.
        is_all_day: whether the event lasts whole days (times are then dropped; the end becomes the next midnight).
        recurrence_frequency: repeat unit: daily, weekly, monthly or yearly.
        recurrence_interval: repeat every N units (with recurrence_frequency), e.g. 2 with weekly = every other week.
        recurrence_until_datetime: last moment an occurrence may start (ISO 8601 with offset); repeats forever if omitted.
        latitude: latitude of the location.
        longitude: longitude of the location.
        place_id: map place id of the location.
        formatted_address: street address of the location.
        attendee_names: names of the attendees (same length as attendee_emails).
        attendee_emails: emails of the attendees, in the same order as attendee_names ("" when unknown).
    """
    row = _prepare(world, {
        "calendar_event_id": None, "calendar_id": calendar_id, "title": title, "description": description,
        "start_datetime": start_datetime, "end_datetime": end_datetime, "is_all_day": is_all_day,
        "recurrence_frequency": recurrence_frequency, "recurrence_interval": recurrence_interval,
        "recurrence_until_datetime": recurrence_until_datetime, "recurrence_parent_id": None,
        "recurrence_exclude_datetime": [], "latitude": latitude, "longitude": longitude, "place_id": place_id,
        "formatted_address": formatted_address, "attendee_names": attendee_names, "attendee_emails": attendee_emails,
    })
    row["title"] = title.strip()
    row["calendar_event_id"] = fresh_id(world, EVENTS, "calendar_event")
    world.insert(EVENTS, row)
    return row["calendar_event_id"]


@tool(app=APP)
def search_calendar_events(
    world,
    calendar_id: str | NotGiven = NOT_GIVEN,
    calendar_event_id: str | NotGiven = NOT_GIVEN,
    title: str | NotGiven = NOT_GIVEN,
    description: str | NotGiven = NOT_GIVEN,
    datetime_range_lowerbound: str | NotGiven = NOT_GIVEN,
    datetime_range_upperbound: str | NotGiven = NOT_GIVEN,
    is_all_day: bool | NotGiven = NOT_GIVEN,
    recurrence_frequency: str | NotGiven = NOT_GIVEN,
    recurrence_interval: int | NotGiven = NOT_GIVEN,
    recurrence_until_datetime: str | NotGiven = NOT_GIVEN,
    latitude: float | NotGiven = NOT_GIVEN,
    longitude: float | NotGiven = NOT_GIVEN,
    place_id: str | NotGiven = NOT_GIVEN,
    formatted_address: str | NotGiven = NOT_GIVEN,
    attendee_names: list[str] | NotGiven = NOT_GIVEN,
    attendee_emails: list[str] | NotGiven = NOT_GIVEN,
) -> list:
    """Find calendar events matching every criterion given, sorted by start time.

    With a date-time range (give both bounds) the result holds the events overlapping it and
    every occurrence of a matching recurring event inside it (id "<parent id>@<start>"), followed
    by that series' parent event; without a range recurring events appear only as their parent.

    Args:
        calendar_id: exact id of the calendar.
        calendar_event_id: exact id of an event (or of an occurrence "<parent id>@<start>").
        title: words of the title (fuzzy word match).
        description: words of the description (fuzzy word match).
        datetime_range_lowerbound: start of the range, ISO 8601 with offset; events ending after it match.
        datetime_range_upperbound: end of the range, ISO 8601 with offset; events starting before it match.
        is_all_day: only all-day (true) or timed (false) events.
        recurrence_frequency: only series repeating daily, weekly, monthly or yearly.
        recurrence_interval: only series with this interval.
        recurrence_until_datetime: only series ending at this date-time.
        latitude: location latitude (within 0.01 degree).
        longitude: location longitude (within 0.01 degree).
        place_id: exact map place id.
        formatted_address: words of the address (fuzzy word match).
        attendee_names: every name must match one attendee (all its words).
        attendee_emails: every email must be an attendee's email.
    """
    if _given(datetime_range_lowerbound) != _given(datetime_range_upperbound):
        raise InvalidArgument("give both datetime_range_lowerbound and datetime_range_upperbound, or neither")
    lower = upper = None
    if _given(datetime_range_lowerbound):
        lower = parse_tz(datetime_range_lowerbound, "datetime_range_lowerbound")
        upper = parse_tz(datetime_range_upperbound, "datetime_range_upperbound")
        if upper <= lower:
            raise InvalidArgument("datetime_range_upperbound must be later than datetime_range_lowerbound")
    until = parse_tz(recurrence_until_datetime, "recurrence_until_datetime") if _given(recurrence_until_datetime) else None
    frequency = recurrence_frequency.lower() if _given(recurrence_frequency) else None

    def keep(row: dict[str, Any]) -> bool:
        if _given(calendar_id) and row["calendar_id"] != calendar_id:
            return False
        if _given(title) and not fuzzy_match(title, row["title"]):
            return False
        if _given(description) and not fuzzy_match(description, row["description"]):
            return False
        if _given(is_all_day) and row["is_all_day"] != is_all_day:
            return False
        if frequency is not None and row["recurrence_frequency"] != frequency:
            return False
        if _given(recurrence_interval) and row["recurrence_interval"] != recurrence_interval:
            return False
        if until is not None and (not row["recurrence_until_datetime"]
                                  or datetime.fromisoformat(row["recurrence_until_datetime"]) != until):
            return False
        for col, value in (("latitude", latitude), ("longitude", longitude)):
            if _given(value) and (row[col] is None or abs(row[col] - value) > 0.01):
                return False
        if _given(place_id) and row["place_id"] != place_id:
            return False
        if _given(formatted_address) and not fuzzy_match(formatted_address, row["formatted_address"]):
            return False
        if _given(attendee_names):
            for name in attendee_names:
                if not any(fuzzy_match(name, have, threshold=1.0) for have in row["attendee_names"] or []):
                    return False
        if _given(attendee_emails):
            have = {e.lower() for e in row["attendee_emails"] or [] if e}
            if any(e.lower() not in have for e in attendee_emails):
                return False
        return True

    if _given(calendar_event_id):
        row = world.get(EVENTS, calendar_event_id)
        if row is None:
            found = _resolve_instance(world, calendar_event_id)
            row = found[1] if found else None
        candidates = [row] if row is not None else []
    else:
        candidates = [dict(r) for r in world.rows(EVENTS)]
    candidates = [r for r in candidates if keep(r)]
    if lower is None:
        result = candidates
    else:
        result = []
        for row in candidates:
            if row["recurrence_frequency"]:
                hits = occurrences(row, lower, upper)
                if hits:
                    result.extend(_instance(row, s, e) for s, e in hits)
                    result.append(row)
            elif datetime.fromisoformat(row["end_datetime"]) > lower and datetime.fromisoformat(row["start_datetime"]) < upper:
                result.append(row)
    result.sort(key=lambda r: (datetime.fromisoformat(r["start_datetime"]), r["recurrence_frequency"] is not None,
                               r["calendar_event_id"]))
    return result


@tool(app=APP, writes=True)
def remove_calendar_event(world, calendar_event_id: str) -> dict:
    """Remove an event; an occurrence id removes only that occurrence, a series' parent id removes the whole series.

    Args:
        calendar_event_id: id of the event, of one occurrence ("<parent id>@<start>"), or of a recurring series' parent.
    """
    row = world.get(EVENTS, calendar_event_id)
    if row is not None:
        world.delete(EVENTS, calendar_event_id)
        removed = 1
        if row["recurrence_frequency"]:
            for child in world.select(EVENTS, recurrence_parent_id=calendar_event_id):
                world.delete(EVENTS, child["calendar_event_id"])
                removed += 1
        return {"message": f"Removed {removed} event(s)."}
    parent, instance = _occurrence(world, calendar_event_id)
    _exclude(world, parent, instance)
    return {"message": f"Removed the occurrence starting {instance['start_datetime']}."}


@tool(app=APP, writes=True)
def modify_calendar_event(
    world,
    calendar_event_id: str,
    calendar_id: str | NotGiven = NOT_GIVEN,
    title: str | NotGiven = NOT_GIVEN,
    description: str | NotGiven = NOT_GIVEN,
    start_datetime: str | NotGiven = NOT_GIVEN,
    end_datetime: str | NotGiven = NOT_GIVEN,
    is_all_day: bool | NotGiven = NOT_GIVEN,
    recurrence_frequency: str | NotGiven = NOT_GIVEN,
    recurrence_interval: int | NotGiven = NOT_GIVEN,
    recurrence_until_datetime: str | NotGiven = NOT_GIVEN,
    latitude: float | NotGiven = NOT_GIVEN,
    longitude: float | NotGiven = NOT_GIVEN,
    place_id: str | NotGiven = NOT_GIVEN,
    formatted_address: str | NotGiven = NOT_GIVEN,
    attendee_names: list[str] | NotGiven = NOT_GIVEN,
    attendee_emails: list[str] | NotGiven = NOT_GIVEN,
) -> dict:
    """Change fields of an event; omitted (or null) fields stay as they are. Give at least one field.

    With an occurrence id only that occurrence changes: it becomes an event of its own with a new
    id. With a series' parent id every occurrence changes; if its timing or repeat rule changes,
    removed and individually changed occurrences are reset.

    Args:
        calendar_event_id: id of the event, of one occurrence ("<parent id>@<start>"), or of a series' parent.
        calendar_id: move the event to this calendar.
        title: new title.
        description: new description.
        start_datetime: new start, ISO 8601 with UTC offset.
        end_datetime: new end, ISO 8601 with UTC offset.
        is_all_day: whether the event lasts whole days.
        recurrence_frequency: new repeat unit: daily, weekly, monthly or yearly.
        recurrence_interval: new repeat interval.
        recurrence_until_datetime: new end of the series, ISO 8601 with UTC offset.
        latitude: new latitude.
        longitude: new longitude.
        place_id: new map place id.
        formatted_address: new address.
        attendee_names: new list of attendee names (give attendee_emails of the same length too).
        attendee_emails: new list of attendee emails.
    """
    fields = {
        "calendar_id": calendar_id, "title": title, "description": description, "start_datetime": start_datetime,
        "end_datetime": end_datetime, "is_all_day": is_all_day, "recurrence_frequency": recurrence_frequency,
        "recurrence_interval": recurrence_interval, "recurrence_until_datetime": recurrence_until_datetime,
        "latitude": latitude, "longitude": longitude, "place_id": place_id, "formatted_address": formatted_address,
        "attendee_names": attendee_names, "attendee_emails": attendee_emails,
    }
    changes = {k: v for k, v in fields.items() if _given(v)}
    if not changes:
        raise InvalidArgument("nothing to modify: give at least one field besides calendar_event_id")
    row = world.get(EVENTS, calendar_event_id)
    if row is not None:
        new = _prepare(world, {**row, **changes})
        if "title" in changes:
            new["title"] = new["title"].strip()
        timing = ("start_datetime", "end_datetime", "is_all_day", "recurrence_frequency", "recurrence_interval",
                  "recurrence_until_datetime")
        if row["recurrence_frequency"] and any(new[k] != row[k] for k in timing):
            new["recurrence_exclude_datetime"] = []
            for child in world.select(EVENTS, recurrence_parent_id=calendar_event_id):
                world.delete(EVENTS, child["calendar_event_id"])
        world.update(EVENTS, calendar_event_id, **{k: v for k, v in new.items() if k != "calendar_event_id"})
        return {"message": "Event modified.", "calendar_event_id": calendar_event_id}
    parent, instance = _occurrence(world, calendar_event_id)
    new = _prepare(world, {**instance, **changes})
    if "title" in changes:
        new["title"] = new["title"].strip()
    new["calendar_event_id"] = fresh_id(world, EVENTS, "calendar_event")
    _exclude(world, parent, instance)
    world.insert(EVENTS, new)
    return {"message": "The occurrence was changed and is now an event of its own.",
            "calendar_event_id": new["calendar_event_id"]}
