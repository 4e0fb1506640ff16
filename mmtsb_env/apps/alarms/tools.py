"""Alarms: create, show, update, snooze and delete the phone's alarms."""

from __future__ import annotations

from typing import Any

from ...tools import InvalidArgument, tool
from .._common import now_str, paginate, require_owned
from .tables import ALARMS, APP, MAX_LABEL, MAX_SNOOZE, normalize_days, normalize_time


def _check_snooze(minutes: int) -> int:
    if not 1 <= minutes <= MAX_SNOOZE:
        raise InvalidArgument(f"snooze_minutes must be between 1 and {MAX_SNOOZE}, got {minutes}")
    return minutes


def _check_label(label: str | None) -> str | None:
    if label is None:
        return None
    label = label.strip()
    if len(label) > MAX_LABEL:
        raise InvalidArgument(f"label is too long ({len(label)} characters, at most {MAX_LABEL})")
    return label or None


def _sorted_alarms(world: Any) -> list[dict[str, Any]]:
    rows = [r for r in world.rows(ALARMS) if r["user_id"] == world.user_id]
    return sorted(rows, key=lambda r: (r["time"], r["id"]))


@tool(app=APP)
def alarms_show_alarms(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List your alarms ordered by time of day.

    Args:
        page_index: page to return, from 0.
        page_limit: alarms per page (1-20).
    """
    return [dict(r) for r in paginate(_sorted_alarms(world), page_index, page_limit)]


@tool(app=APP, writes=True)
def alarms_create_alarm(
    world,
    time: str,
    repeat_days: list[str] | None = None,
    label: str | None = None,
    enabled: bool = True,
    snooze_minutes: int = 15,
    vibration: bool | None = True,
) -> dict:
    """Create an alarm.

    Args:
        time: time of day, 24-hour "HH:MM" (e.g. "06:45"; "6:45 pm" is also understood).
        repeat_days: weekdays on which it rings, e.g. ["monday", "friday"]; omit for a one-time alarm.
        label: a short name shown when it rings.
        enabled: whether the alarm is switched on.
        snooze_minutes: length of a snooze, 1-60 minutes.
        vibration: whether the phone vibrates when it rings.
    """
    row = world.insert(ALARMS, {
        "id": world.new_id(ALARMS), "user_id": world.user_id, "time": normalize_time(time),
        "repeat_days": normalize_days(repeat_days or []), "label": _check_label(label), "enabled": enabled,
        "snooze_minutes": _check_snooze(snooze_minutes), "vibration": True if vibration is None else vibration,
        "created_at": now_str(world), "updated_at": now_str(world),
    })
    return {"message": f"Alarm set for {row['time']}.", "alarm_id": row["id"]}


@tool(app=APP)
def alarms_show_alarm(world, alarm_id: int) -> dict:
    """Show one alarm.

    Args:
        alarm_id: id of the alarm.
    """
    return require_owned(world, ALARMS, alarm_id, "alarm")


@tool(app=APP, writes=True)
def alarms_update_alarm(
    world,
    alarm_id: int,
    time: str | None = None,
    repeat_days: list[str] | None = None,
    label: str | None = None,
    enabled: bool | None = None,
    snooze_minutes: int | None = None,
    vibration: bool | None = None,
) -> dict:
    """Change an alarm; settings left out stay as they are.

    Args:
        alarm_id: id of the alarm.
        time: new time of day, 24-hour "HH:MM".
        repeat_days: new list of weekdays (an empty list makes it a one-time alarm).
        label: new label (an empty string removes it).
        enabled: switch the alarm on (true) or off (false).
        snooze_minutes: new snooze length, 1-60 minutes.
        vibration: whether the phone vibrates.
    """
    require_owned(world, ALARMS, alarm_id, "alarm")
    changes: dict[str, Any] = {}
    if time is not None:
        changes["time"] = normalize_time(time)
    if repeat_days is not None:
        changes["repeat_days"] = normalize_days(repeat_days)
    if label is not None:
        changes["label"] = _check_label(label)
    if enabled is not None:
        changes["enabled"] = enabled
    if snooze_minutes is not None:
        changes["snooze_minutes"] = _check_snooze(snooze_minutes)
    if vibration is not None:
        changes["vibration"] = vibration
    if not changes:
        raise InvalidArgument("nothing to update: give at least one of time, repeat_days, label, enabled, "
                              "snooze_minutes, vibration")
    world.update(ALARMS, alarm_id, **changes, updated_at=now_str(world))
    return {"message": "Alarm updated."}


@tool(app=APP, writes=True)
def alarms_delete_alarm(world, alarm_id: int) -> dict:
    """Delete an alarm.

    Args:
        alarm_id: id of the alarm.
    """
    require_owned(world, ALARMS, alarm_id, "alarm")
    world.delete(ALARMS, alarm_id)
    return {"message": "Alarm deleted."}


@tool(app=APP)
def alarms_get_current_date_and_time(world) -> dict:
    """Show the phone's current date, time and day of the week."""
    now = world.now
    return {
        "date": now.strftime("%Y-%m-%d"),
        "time": now.strftime("%H:%M:%S"),
        "day_of_week": now.strftime("%A"),
        "datetime": now.replace(microsecond=0).isoformat(),
    }
