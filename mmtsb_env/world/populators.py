"""What the apps need to populate the base world: the shared cast of :class:`Person` objects, the
:class:`BaseBuilder` each populator adds rows to, and the ``@populator`` registration.

Each app registers a *populator* that adds its rows; populators run in ``order`` and can use
the shared cast, so the same people appear in contacts, gmail, venmo, splitwise... with the same
ids, names, emails and phone numbers. Building the world from them is :mod:`.base`'s job.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable

from .schema import table_spec

if TYPE_CHECKING:  # faker is imported only when a base world is actually built
    from faker import Faker

N_PEOPLE = 120
SUPERVISOR_ID = 1
BASE_TIME = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # base rows are all older than this


@dataclass(frozen=True)
class Person:
    """Someone who exists in the world; id is the same in every app's ``users`` table."""

    id: int
    first_name: str
    last_name: str
    email: str
    phone_number: str
    birthday: str
    home_address: str
    work_address: str
    password: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


@dataclass
class BaseBuilder:
    """What a populator receives: seeded generators, the cast, and ``add`` for rows."""

    seed: int
    rng: random.Random
    fake: "Faker"
    people: list[Person]
    supervisor: Person
    rows: dict[str, dict[Any, dict[str, Any]]] = field(default_factory=dict)
    shared: dict[str, Any] = field(default_factory=dict)  # facts populators hand to each other
    _max_id: dict[str, int] = field(default_factory=dict)

    def add(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        spec = table_spec(table)
        if row.get(spec.key) is None:
            row = {**row, spec.key: self.next_id(table)}
        full = spec.complete(row)
        rows = self.rows.setdefault(table, {})
        if full[spec.key] in rows:
            raise ValueError(f"base world: duplicate key {full[spec.key]!r} in {table}")
        rows[full[spec.key]] = full
        key = full[spec.key]
        if isinstance(key, int) and key > self._max_id.get(table, 0):
            self._max_id[table] = key
        return full

    def next_id(self, table: str) -> int:
        """One above the largest integer key added so far (O(1))."""
        return self._max_id.get(table, 0) + 1

    def past(self, max_days: int = 365, min_days: int = 1) -> datetime:
        """A random moment before BASE_TIME (naive UTC, second precision)."""
        seconds = self.rng.randint(min_days * 86400, max_days * 86400)
        return (BASE_TIME - timedelta(seconds=seconds)).replace(tzinfo=None, microsecond=0)

    def others(self, k: int) -> list[Person]:
        """``k`` distinct people other than the supervisor."""
        pool = [p for p in self.people if p.id != self.supervisor.id]
        return self.rng.sample(pool, k)


_POPULATORS: list[tuple[int, str, Callable[[BaseBuilder], None]]] = []


def populator(app: str, order: int = 100) -> Callable[[Callable[[BaseBuilder], None]], Callable[[BaseBuilder], None]]:
    """Register ``fn(builder)`` to add an app's rows to the base world."""

    def register(fn: Callable[[BaseBuilder], None]) -> Callable[[BaseBuilder], None]:
        if all(existing is not fn for _, _, existing in _POPULATORS):
            _POPULATORS.append((order, app, fn))
        return fn

    return register


def _birthday(fake: "Faker", youngest: int, oldest: int) -> str:
    """A birthday of someone aged ``youngest``-``oldest`` on BASE_TIME's day (Faker's own
    ``date_of_birth`` counts ages from the real clock, so the base world changed every day)."""
    day = BASE_TIME.date()
    start = day.replace(year=day.year - oldest - 1)
    end = day.replace(year=day.year - youngest)
    return fake.date_time_ad(start_datetime=start, end_datetime=end).date().isoformat()


def _make_people(fake: "Faker", rng: random.Random) -> list[Person]:
    people = []
    seen_emails: set[str] = set()
    for pid in range(1, N_PEOPLE + 1):
        first, last = fake.first_name(), fake.last_name()
        local = f"{first}.{last}".lower().replace("'", "").replace(" ", "")
        email = f"{local}@{rng.choice(['gmail.com', 'yahoo.com', 'outlook.com', 'proton.me'])}"
        while email in seen_emails:
            email = f"{local}{rng.randint(2, 99)}@gmail.com"
        seen_emails.add(email)
        phone = f"{rng.randint(201, 989)}{rng.randint(200, 999)}{rng.randint(1000, 9999)}"
        birthday = _birthday(fake, 18, 80)
        people.append(
            Person(
                id=pid,
                first_name=first,
                last_name=last,
                email=email,
                phone_number=phone,
                birthday=birthday,
                home_address=fake.address().replace("\n", ", "),
                work_address=fake.address().replace("\n", ", "),
                password=fake.password(length=12),
            )
        )
    return people
