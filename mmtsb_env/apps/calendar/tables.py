"""Calendar: the device's calendars and their events, with recurring series (a native app).

Date-times are ISO 8601 strings with a UTC offset (``2026-04-20T10:00:00-07:00``); an event
covers ``[start_datetime, end_datetime)``.

A recurring event is one stored row (the *parent*) with ``recurrence_frequency`` /
``recurrence_interval`` and an optional inclusive ``recurrence_until_datetime``. Its
occurrences are computed when a search gives a date-time range, never stored: each has the id
``<parent id>@<occurrence start>`` and ``recurrence_parent_id`` set to the parent. Removing an
occurrence adds its start to the parent's ``recurrence_exclude_datetime``; modifying one
detaches it into a stored event of its own (still pointing at the parent); removing the parent
removes the whole series with its detached occurrences.
"""

from __future__ import annotations

import calendar as _cal
import hashlib
from datetime import date, datetime, timedelta, timezone
from typing import Any

from ...tools import InvalidArgument, NOT_GIVEN
from ...world import define_table, format_datetime_tz
from ...world.populators import BaseBuilder, populator
from .._common import text_score, words

APP = "calendar"
CALENDARS = "calendar.calendars"
EVENTS = "calendar.events"
FREQUENCIES = ("daily", "weekly", "monthly", "yearly")
NotGiven = type(NOT_GIVEN)
MAX_OCCURRENCES = 2000

define_table(CALENDARS, key="calendar_id", columns={"calendar_id": None, "title": ""})
define_table(
    EVENTS,
    key="calendar_event_id",
    columns={
        "calendar_event_id": None, "calendar_id": None, "title": "", "description": None,
        "start_datetime": None, "end_datetime": None, "is_all_day": False,
        "recurrence_frequency": None, "recurrence_interval": None, "recurrence_until_datetime": None,
        "recurrence_parent_id": None, "recurrence_exclude_datetime": [],
        "latitude": None, "longitude": None, "place_id": None, "formatted_address": None,
        "attendee_names": [], "attendee_emails": [],
    },
)


# ====================================================================== shared helpers
_STOP_WORDS = {"a", "an", "the", "of", "for", "with", "and", "to", "in", "on", "at", "about", "my", "our", "is"}


def fuzzy_match(query: str, *fields: Any, threshold: float = 0.6) -> bool:
    """Word-level fuzzy match: enough of the query's meaningful words (or prefixes) occur in ``fields``."""
    q = [w for w in words(query) if w not in _STOP_WORDS] or words(query)
    if not q:
        return True
    return text_score(" ".join(q), *fields) >= threshold


def fresh_id(world: Any, table: str, prefix: str) -> str:
    """A deterministic id ``<prefix>_<n>`` not used yet in ``table``."""
    while True:
        key = world.new_token(prefix)
        if not world.exists(table, key):
            return key


def parse_tz(value: str, name: str) -> datetime:
    """An aware datetime from an ISO 8601 string that must carry a UTC offset (or ``Z``)."""
    text = value.strip()
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        raise InvalidArgument(
            f"{name} must be an ISO 8601 date-time with a UTC offset such as 2026-04-20T10:00:00-07:00, got {value!r}"
        ) from None
    if dt.tzinfo is None:
        raise InvalidArgument(f"{name} {value!r} has no UTC offset; add one such as -07:00, +00:00 or Z")
    return dt


def _given(value: Any) -> bool:
    return value is not NOT_GIVEN and value is not None


def _shift(dt: datetime, frequency: str, steps: int) -> datetime:
    if frequency == "daily":
        return dt + timedelta(days=steps)
    if frequency == "weekly":
        return dt + timedelta(weeks=steps)
    months = steps if frequency == "monthly" else 12 * steps
    year, month = divmod(dt.month - 1 + months, 12)
    year += dt.year
    day = min(dt.day, _cal.monthrange(year, month + 1)[1])
    return dt.replace(year=year, month=month + 1, day=day)


def occurrences(parent: dict[str, Any], lower: datetime, upper: datetime) -> list[tuple[datetime, datetime]]:
    """(start, end) of the parent's non-excluded occurrences overlapping ``[lower, upper)``."""
    freq, interval = parent["recurrence_frequency"], parent["recurrence_interval"]
    start0 = datetime.fromisoformat(parent["start_datetime"])
    length = datetime.fromisoformat(parent["end_datetime"]) - start0
    until = parent["recurrence_until_datetime"]
    until_dt = datetime.fromisoformat(until) if until else None
    excluded = {datetime.fromisoformat(x) for x in parent["recurrence_exclude_datetime"] or []}
    k = 0
    if freq in ("daily", "weekly"):
        period = timedelta(days=interval if freq == "daily" else 7 * interval)
        k = max(0, int((lower - length - start0) / period) - 1)
    out = []
    for _ in range(100_000):
        start = _shift(start0, freq, k * interval)
        if start >= upper or (until_dt is not None and start > until_dt):
            break
        if start + length > lower and start not in excluded:
            out.append((start, start + length))
            if len(out) > MAX_OCCURRENCES:
                raise InvalidArgument("the date-time range holds too many occurrences of a recurring event; narrow it")
        k += 1
    return out


def _instance(parent: dict[str, Any], start: datetime, end: datetime) -> dict[str, Any]:
    row = dict(parent)
    row.update(
        calendar_event_id=f"{parent['calendar_event_id']}@{format_datetime_tz(start)}",
        start_datetime=format_datetime_tz(start), end_datetime=format_datetime_tz(end),
        recurrence_frequency=None, recurrence_interval=None, recurrence_until_datetime=None,
        recurrence_exclude_datetime=[], recurrence_parent_id=parent["calendar_event_id"],
        attendee_names=list(parent["attendee_names"] or []), attendee_emails=list(parent["attendee_emails"] or []),
    )
    return row


def _resolve_instance(world: Any, event_id: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(parent, occurrence) for an occurrence id ``<parent>@<start>``, or None if it is not one."""
    if "@" not in event_id:
        return None
    parent_id, _, when = event_id.partition("@")
    parent = world.get(EVENTS, parent_id)
    if parent is None or not parent["recurrence_frequency"]:
        return None
    try:
        start = datetime.fromisoformat(when)
    except ValueError:
        return None
    if start.tzinfo is None:
        return None
    for s, e in occurrences(parent, start, start + timedelta(seconds=1)):
        if s == start:
            return parent, _instance(parent, s, e)
    return None


# ====================================================================== base data
def local_tz(day: date) -> timezone:
    """US Pacific offset for a day of 2026 (daylight time from March 8 to October 31)."""
    return timezone(timedelta(hours=-7)) if date(2026, 3, 8) <= day < date(2026, 11, 1) else timezone(timedelta(hours=-8))


def local(day: date, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=local_tz(day))


PLACES = [  # name, address, latitude, longitude
    ("Blue Bottle Coffee", "1 Ferry Building, San Francisco, CA 94111", 37.7955, -122.3937),
    ("Philz Coffee", "20686 Stevens Creek Blvd, Cupertino, CA 95014", 37.3229, -122.0397),
    ("Cupertino Dental Care", "10383 Torre Ave, Cupertino, CA 95014", 37.3197, -122.0305),
    ("Bright Smile Dentistry", "2110 El Camino Real, Santa Clara, CA 95050", 37.3523, -121.9606),
    ("El Camino Hospital", "2500 Grant Rd, Mountain View, CA 94040", 37.3678, -122.0806),
    ("Santana Row", "377 Santana Row, San Jose, CA 95128", 37.3209, -121.9478),
    ("Shoreline Amphitheatre", "1 Amphitheatre Pkwy, Mountain View, CA 94043", 37.4268, -122.0807),
    ("Memorial Park", "21975 San Fernando Ave, Cupertino, CA 95014", 37.3236, -122.0437),
    ("Office - Building 4", "1 Infinite Loop, Cupertino, CA 95014", 37.3318, -122.0312),
    ("Office - Main Campus", "One Apple Park Way, Cupertino, CA 95014", 37.3349, -122.0090),
    ("Monta Vista High School", "21840 McClellan Rd, Cupertino, CA 95014", 37.3157, -122.0560),
    ("Cupertino Library", "10800 Torre Ave, Cupertino, CA 95014", 37.3183, -122.0296),
    ("SFO International Terminal", "San Francisco International Airport, CA 94128", 37.6152, -122.3899),
    ("Sunnyvale Animal Clinic", "1195 W El Camino Real, Sunnyvale, CA 94087", 37.3715, -122.0446),
    ("The Table", "1110 Willow St, San Jose, CA 95125", 37.3087, -121.8967),
    ("Yoga Source", "16185 Los Gatos Blvd, Los Gatos, CA 95032", 37.2452, -121.9600),
]
_WORK = ["Client call with {company}", "Design review", "Budget review", "All-hands meeting", "Quarterly planning",
         "Vendor demo: {company}", "Interview: {person}", "Lunch with {person}", "Performance review with {person}",
         "Workshop: {topic}", "Project kickoff: {project}", "Roadmap sync", "Customer escalation review",
         "Team retro", "Architecture review: {project}"]
_PERSONAL = ["Dentist appointment", "Haircut", "Doctor's appointment", "Coffee with {person}", "Dinner with {person}",
             "Gym with {person}", "Concert at Shoreline", "Movie night", "Car service", "Tax appointment with accountant",
             "Volunteer at the food bank", "Eye exam", "Massage", "Pottery class", "Call with {person}"]
_FAMILY = ["Emma's soccer game", "Parent-teacher conference", "Family dinner at Grandma's", "Vet appointment for Max",
           "Kids' swimming lesson", "School play rehearsal", "Pediatrician checkup", "Grocery run with the kids",
           "Movie afternoon with the kids", "Visit Aunt Carol"]
_COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Logistics", "Wayne Foods", "Hooli"]
_TOPICS = ["prompt engineering", "accessibility", "negotiation", "data privacy", "public speaking"]
_PROJECTS = ["Atlas", "Beacon", "Cobalt", "Delta migration", "Evergreen"]


def _place_id(name: str) -> str:
    return "ChIJ" + hashlib.sha1(name.encode()).hexdigest()[:23]


@populator(APP, order=40)
def _populate(b: BaseBuilder) -> None:
    rng = b.rng
    cal_ids = {}
    for i, title in enumerate(("Personal", "Work", "Family"), start=1):
        cal_ids[title] = b.add(CALENDARS, {"calendar_id": f"calendar_{i}", "title": title})["calendar_id"]
    counter = iter(range(1, 10_000))
    friends = b.others(24)

    def add(cal: str, title: str, start: datetime, end: datetime, *, all_day: bool = False, freq: str | None = None,
            interval: int | None = None, until: datetime | None = None, place: tuple | None = None,
            people: list | None = None, description: str | None = None) -> None:
        row = {
            "calendar_event_id": f"calendar_event_{next(counter)}", "calendar_id": cal_ids[cal], "title": title,
            "description": description, "start_datetime": format_datetime_tz(start),
            "end_datetime": format_datetime_tz(end), "is_all_day": all_day, "recurrence_frequency": freq,
            "recurrence_interval": interval, "recurrence_until_datetime": format_datetime_tz(until) if until else None,
            "attendee_names": [p.full_name for p in people or []], "attendee_emails": [p.email for p in people or []],
        }
        if place is not None:
            row.update(latitude=place[2], longitude=place[3], place_id=_place_id(place[0]), formatted_address=place[1])
        b.add(EVENTS, row)

    office, main = PLACES[8], PLACES[9]
    manager, mom = friends[0], friends[1]
    team = friends[2:7]
    # recurring series (starting after the switch to daylight time, so their offset stays -07:00)
    add("Work", "Team sync", local(date(2026, 3, 9), 10), local(date(2026, 3, 9), 11), freq="weekly", interval=1,
        place=main, people=team, description="Weekly status round")
    add("Work", f"1:1 with {manager.first_name}", local(date(2026, 3, 12), 14), local(date(2026, 3, 12), 14, 30),
        freq="weekly", interval=2, people=[manager])
    add("Work", "Sprint planning", local(date(2026, 3, 10), 13), local(date(2026, 3, 10), 14), freq="weekly",
        interval=2, until=local(date(2026, 6, 30), 23, 59), place=office, people=team)
    add("Work", "Quarterly business review", local(date(2026, 3, 18), 15), local(date(2026, 3, 18), 17),
        freq="monthly", interval=3, place=main)
    add("Personal", "Book club", local(date(2026, 3, 19), 19), local(date(2026, 3, 19), 21), freq="monthly", interval=1,
        place=PLACES[11], description="Bring the book and a snack")
    add("Personal", "Yoga class", local(date(2026, 3, 11), 18, 30), local(date(2026, 3, 11), 19, 30), freq="weekly",
        interval=1, until=local(date(2026, 5, 27), 23, 59), place=PLACES[15])
    add("Personal", "Pay rent", local(date(2026, 4, 1)), local(date(2026, 4, 2)), all_day=True, freq="monthly", interval=1)
    add("Personal", "Morning run", local(date(2026, 4, 1), 6, 30), local(date(2026, 4, 1), 7), freq="daily", interval=1,
        until=local(date(2026, 4, 30), 23, 59), place=PLACES[7])
    add("Family", "Piano lesson (Emma)", local(date(2026, 3, 14), 10), local(date(2026, 3, 14), 10, 45), freq="weekly",
        interval=1)
    add("Family", "Trash and recycling pickup", local(date(2026, 3, 12)), local(date(2026, 3, 13)), all_day=True,
        freq="weekly", interval=1)
    bday = date(2026, 2, 14 + rng.randint(0, 10))
    add("Family", f"{mom.first_name}'s birthday", local(bday), local(bday + timedelta(days=1)), all_day=True,
        freq="yearly", interval=1, people=[mom])
    add("Family", "Date night", local(date(2026, 3, 27), 19), local(date(2026, 3, 27), 22), freq="monthly", interval=1,
        place=PLACES[14])
    # all-day one-offs
    for cal, title, first, days in (
        ("Personal", "Presidents' Day", date(2026, 2, 16), 1), ("Family", "Spring break", date(2026, 3, 30), 5),
        ("Work", "Conference: DevWorld", date(2026, 5, 12), 3), ("Personal", "Memorial Day", date(2026, 5, 25), 1),
        ("Personal", "Trip to Lisbon", date(2026, 5, 15), 9), ("Family", "Emma's birthday", date(2026, 4, 25), 1),
        ("Work", "Team offsite", date(2026, 6, 10), 2), ("Family", "Grandma visiting", date(2026, 4, 9), 4),
    ):
        add(cal, title, local(first), local(first + timedelta(days=days)), all_day=True)
    add("Personal", "Flight to Lisbon (TP 236)", local(date(2026, 5, 15), 16, 40), local(date(2026, 5, 16), 1, 10),
        place=PLACES[12], description="Confirmation code QX7T2M")
    add("Family", "Emma's birthday party", local(date(2026, 4, 25), 14), local(date(2026, 4, 25), 17),
        place=PLACES[7], people=rng.sample(friends, 4))
    # near-duplicates that need disambiguation
    add("Personal", "Dentist appointment", local(date(2026, 2, 11), 9), local(date(2026, 2, 11), 10), place=PLACES[2])
    add("Personal", "Dentist appointment", local(date(2026, 5, 6), 15), local(date(2026, 5, 6), 16), place=PLACES[3])
    add("Work", "Team sync (rescheduled)", local(date(2026, 4, 21), 10), local(date(2026, 4, 21), 11), place=main,
        people=team)
    # many ordinary one-off events
    start_day = date(2026, 1, 1)
    for _ in range(150):
        day = start_day + timedelta(days=rng.randint(0, 180))
        cal = rng.choices(("Work", "Personal", "Family"), weights=(5, 4, 3))[0]
        if cal == "Work" and day.weekday() >= 5:
            day -= timedelta(days=day.weekday() - 4)
        template = rng.choice({"Work": _WORK, "Personal": _PERSONAL, "Family": _FAMILY}[cal])
        who = rng.choice(friends)
        title = template.format(company=rng.choice(_COMPANIES), person=who.full_name, topic=rng.choice(_TOPICS),
                                project=rng.choice(_PROJECTS))
        hour = rng.randint(9, 16) if cal == "Work" else rng.choice((8, 10, 12, 15, 17, 18, 19))
        minute = rng.choice((0, 0, 30))
        length = rng.choice((30, 60, 60, 90, 120))
        begin = local(day, hour, minute)
        people = [who] if "{person}" in template else (rng.sample(friends, rng.randint(2, 4)) if cal == "Work" and rng.random() < 0.5 else [])
        place = rng.choice(PLACES) if rng.random() < 0.55 else None
        if cal == "Work" and place is None and rng.random() < 0.6:
            place = rng.choice((office, main))
        add(cal, title, begin, begin + timedelta(minutes=length), place=place, people=people,
            description=rng.choice((None, None, "Agenda in the shared doc", "Bring laptop", "Parking on level 2")))
