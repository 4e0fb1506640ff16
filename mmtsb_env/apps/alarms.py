"""Alarms: the phone's own alarm clock (device-local, works without network or login).

Times are stored as 24-hour ``"HH:MM"``; repeat days as lower-case weekday names in week order
(an empty list is a one-time alarm).
"""

from __future__ import annotations

import re
from typing import Any

from ..tools import InvalidArgument, tool
from ..world import define_table
from ..world.base import BaseBuilder, populator
from ._common import now_str, paginate, require_owned

APP = "alarms"
ALARMS = "phone.alarms"

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY_ALIASES = {**{d: d for d in WEEKDAYS}, **{d[:3]: d for d in WEEKDAYS},
                "tues": "tuesday", "wed": "wednesday", "thur": "thursday", "thurs": "thursday"}
_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([aApP]\.?[mM]\.?)?")  # fullmatch on the stripped text: linear
MAX_SNOOZE = 60
MAX_LABEL = 100

define_table(
    ALARMS,
    columns={
        "id": None, "user_id": None, "time": "", "repeat_days": [], "label": None, "enabled": True,
        "snooze_minutes": 15, "vibration": True, "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at"),
)


def normalize_time(value: str) -> str:
    """``"7:05"``, ``"07:05:00"`` or ``"7:05 pm"`` -> ``"07:05"`` / ``"19:05"``; InvalidArgument otherwise."""
    m = _TIME.fullmatch(value.strip()) if isinstance(value, str) else None
    if m is None:
        raise InvalidArgument(f"time must look like HH:MM (24-hour, e.g. 07:30 or 19:45), got {value!r}")
    hour, minute, second, meridiem = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
    if second is not None and int(second) != 0:
        raise InvalidArgument(f"time is set to the minute: drop the seconds from {value!r}")
    if meridiem:
        if not 1 <= hour <= 12:
            raise InvalidArgument(f"time with am/pm needs an hour from 1 to 12, got {value!r}")
        hour = hour % 12 + (12 if meridiem[0] in "pP" else 0)
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        raise InvalidArgument(f"time {value!r} is not a valid time of day (hours 00-23, minutes 00-59)")
    return f"{hour:02d}:{minute:02d}"


def normalize_days(days: list[str]) -> list[str]:
    """Weekday names (any case, full or 3-letter) -> unique lower-case full names in week order."""
    found = set()
    for day in days:
        key = day.strip().lower().rstrip(".")
        if key not in _DAY_ALIASES:
            raise InvalidArgument(f"{day!r} is not a day of the week; use names such as monday or sat")
        found.add(_DAY_ALIASES[key])
    return [d for d in WEEKDAYS if d in found]


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


_OWNER_ALARMS = [
    ("06:30", WEEKDAYS[:5], "Wake up", True, 10),
    ("07:00", WEEKDAYS[:5], "Backup wake up", True, 5),
    ("08:30", WEEKDAYS[5:], "Weekend wake up", True, 15),
    ("05:45", ["monday", "wednesday", "friday"], "Gym 💪", True, 10),
    ("12:15", [], "Take medication", False, 5),
    ("15:00", ["tuesday", "thursday"], "Pick up kids", True, 10),
    ("22:30", list(WEEKDAYS), "Bedtime", True, 15),
    ("09:00", ["sunday"], "Call Mom", False, 15),
]
_OTHER_LABELS = ["Wake up", "Work", "Meds", "Nap", "Run", None, "School run", "Meeting prep"]


@populator(APP, order=30)
def _populate(b: BaseBuilder) -> None:
    rng = b.rng
    n = 0
    for time, days, label, enabled, snooze in _OWNER_ALARMS:
        n += 1
        created = b.past(400, 5).isoformat()
        b.add(ALARMS, {"id": n, "user_id": b.supervisor.id, "time": time, "repeat_days": list(days), "label": label,
                       "enabled": enabled, "snooze_minutes": snooze, "vibration": rng.random() < 0.8,
                       "created_at": created, "updated_at": created})
    for p in b.others(20):
        for _ in range(rng.randint(1, 3)):
            n += 1
            created = b.past(400, 5).isoformat()
            days = sorted(rng.sample(range(7), rng.choice([0, 2, 5, 7])))
            b.add(ALARMS, {"id": n, "user_id": p.id, "time": f"{rng.randint(5, 10):02d}:{rng.choice([0, 15, 30, 45]):02d}",
                           "repeat_days": [WEEKDAYS[d] for d in days], "label": rng.choice(_OTHER_LABELS),
                           "enabled": rng.random() < 0.85, "snooze_minutes": rng.choice([5, 9, 10, 15]),
                           "vibration": rng.random() < 0.7, "created_at": created, "updated_at": created})


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
