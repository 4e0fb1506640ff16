"""Reminders: things to be reminded of at a time, optionally tied to a place (a native app).

``creation_datetime`` is set from the frozen clock when a reminder is added and again whenever
it is modified. Date-times are stored as ISO 8601 with a UTC offset; values typed without an
offset are read as UTC.
"""

from __future__ import annotations

from datetime import date, timedelta, timezone

from ...tools import NOT_GIVEN
from ...world import define_table, format_datetime_tz
from ...world.populators import BASE_TIME, BaseBuilder, populator
from ..calendar.tables import PLACES, local

APP = "reminder"
REMINDERS = "reminder.reminders"
NotGiven = type(NOT_GIVEN)

define_table(
    REMINDERS,
    key="reminder_id",
    columns={"reminder_id": None, "content": "", "creation_datetime": None, "reminder_datetime": None,
             "latitude": None, "longitude": None},
    auto_columns=("creation_datetime",),
)


# ====================================================================== base data
_CONTENTS = [
    "Take out the trash", "Call the dentist to reschedule", "Pick up prescription at the pharmacy",
    "Buy a gift for Emma", "Submit expense report", "Water the plants", "Renew passport", "Pay credit card bill",
    "Move the car for street cleaning", "Bring reusable bags", "Send birthday wishes to {person}",
    "Call {person} back", "Return library books", "Book a table for date night", "Check the oven timer",
    "Cancel the free trial before it renews", "Pack lunch for Emma", "Email the landlord about the heater",
    "Order more coffee beans", "Change the HVAC filter", "Sign the permission slip", "Call mom",
    "Call mom about Sunday lunch", "Pay the water bill", "Pay the electricity bill", "Stretch after the run",
    "Pick up dry cleaning", "Refill the bird feeder", "Back up the laptop", "Reply to {person}'s email",
    "Schedule car service", "Buy milk", "Buy milk and eggs",
]
_PLACE_CONTENTS = [("Buy milk at Safeway", 37.3225, -122.0330), ("Drop off donations at Goodwill", 37.3507, -122.0146),
                   ("Pick up the package at the post office", 37.3288, -122.0411)]


@populator(APP, order=40)
def _populate(b: BaseBuilder) -> None:
    rng = b.rng
    people = b.others(8)
    n = 0
    base = BASE_TIME.replace(tzinfo=None)
    items = [(c.format(person=rng.choice(people).full_name), None, None) for c in _CONTENTS] + _PLACE_CONTENTS
    items.append(("Book club tonight: bring the book", PLACES[11][2], PLACES[11][3]))
    for text, lat, lon in items:
        n += 1
        day = date(2026, 2, 1) + timedelta(days=rng.randint(0, 140))
        when = local(day, rng.choice((7, 8, 9, 12, 17, 18, 20)), rng.choice((0, 15, 30, 45)))
        created = min(when.astimezone(timezone.utc).replace(tzinfo=None) - timedelta(days=rng.randint(1, 20)),
                      base - timedelta(hours=rng.randint(1, 200)))
        b.add(REMINDERS, {
            "reminder_id": f"reminder_{n}", "content": text,
            "creation_datetime": format_datetime_tz(created.replace(tzinfo=timezone.utc)),
            "reminder_datetime": format_datetime_tz(when), "latitude": lat, "longitude": lon,
        })
