"""Alarms: read an alarm or the clock, create / update / delete alarms."""

from typing import Any

from ..rows import OWNER, Look, Read, Rows, Write, table

MINE = Rows("phone.alarms", {"user_id": OWNER}, unique="label")
TIMES = ("05:45", "06:10", "06:50", "07:25", "08:05", "21:15", "22:40")
LABELS = ("Gym bag", "Take vitamins", "Call grandma", "Water the plants", "Leave for the station", "Stretch")

ROWS = table(
    "alarms",
    Read("alarms_show_alarm", {"alarm_id": "{id}"}, "time",
         ("What time is my '{label}' alarm set for?", "when does the '{label}' alarm go off?"),
         "Your '{label}' alarm is set for {v}.", MINE, pre=(("alarms_show_alarms", {}),)),
    Read("alarms_show_alarm", {"alarm_id": "{id}"}, "snooze_minutes",
         ("How long is the snooze on my '{label}' alarm?", "snooze length of the '{label}' alarm?"),
         "The '{label}' alarm snoozes for {v} minutes.", MINE),
    Read("alarms_show_alarms", {"page_limit": 1}, "0.time",
         ("What time is my earliest alarm?", "earliest alarm i have set?"), "Your earliest alarm is at {v}."),
    Read("alarms_get_current_date_and_time", {}, "day_of_week",
         ("What day of the week is it today on my phone?", "which weekday is it today?"), "Today is a {v}."),
    Read("alarms_get_current_date_and_time", {}, "date",
         ("What's today's date on my phone?", "what's the date today according to the phone?"), "Today's date is {v}."),
    Write("alarms_create_alarm", {"time": "{time}", "label": "{label}"},
          ("Set an alarm for {time} called '{label}'.", "add an alarm at {time}, label it '{label}'"),
          "I set a {time} alarm called '{label}'.", ("create", "phone.alarms"), values={"time": TIMES, "label": LABELS}),
    Write("alarms_update_alarm", {"alarm_id": "{id}", "time": "{new_time}"},
          ("Move my '{label}' alarm to {new_time}.", "change the '{label}' alarm to {new_time} please"),
          "Your '{label}' alarm now goes off at {new_time}.", ("update", "phone.alarms"), MINE, values={"new_time": TIMES}),
    Write("alarms_update_alarm", {"alarm_id": "{id}", "snooze_minutes": "{snooze}"},
          ("Make the snooze on my '{label}' alarm {snooze} minutes.", "set snooze to {snooze} min on the '{label}' alarm"),
          "The '{label}' alarm now snoozes for {snooze} minutes.", ("update", "phone.alarms"), MINE, values={"snooze": (3, 7, 12, 15)}),
    Write("alarms_delete_alarm", {"alarm_id": "{id}"},
          ("Delete my '{label}' alarm, I don't need it any more.", "get rid of the '{label}' alarm"),
          "I deleted your '{label}' alarm.", ("delete", "phone.alarms"), MINE),
)


def _other_time(b: Any, row: dict[str, Any]) -> dict[str, Any]:
    h, m = (int(x) for x in str(row.get("time") or "07:00").split(":"))
    return {"time": f"{(h + b.rng.choice([-3, -2, 2, 3])) % 24:02d}:{m:02d}"}


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {"phone.alarms": Look("label", fixed={"enabled": False}, by="name", vary=_other_time)}
