"""Alarms: the phone's own alarm clock (device-local, works without network or login).

Times are stored as 24-hour ``"HH:MM"``; repeat days as lower-case weekday names in week order
(an empty list is a one-time alarm).
"""

from __future__ import annotations

import re

from ...tools import InvalidArgument
from ...world import define_table
from ...world.populators import BaseBuilder, populator

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


