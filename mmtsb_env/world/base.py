"""The synthetic base world: built once per (process, seed) and shared read-only by every env.

Each app registers a *populator* that adds its rows; populators run in ``order`` and can use
the shared cast of :class:`Person` objects, so the same people appear in contacts, gmail,
venmo, splitwise... with the same ids, names, emails and phone numbers.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any, Callable

from .schema import table_spec
from .store import Layer

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


@dataclass(frozen=True)
class BaseWorld:
    seed: int
    layer: Layer
    people: tuple[Person, ...]
    supervisor_id: int
    shared: dict[str, Any]

    def person(self, person_id: int) -> Person:
        return self.people[person_id - 1]


_POPULATORS: list[tuple[int, str, Callable[[BaseBuilder], None]]] = []


def populator(app: str, order: int = 100) -> Callable[[Callable[[BaseBuilder], None]], Callable[[BaseBuilder], None]]:
    """Register ``fn(builder)`` to add an app's rows to the base world."""

    def register(fn: Callable[[BaseBuilder], None]) -> Callable[[BaseBuilder], None]:
        if all(existing is not fn for _, _, existing in _POPULATORS):
            _POPULATORS.append((order, app, fn))
        return fn

    return register


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
        birthday = fake.date_of_birth(minimum_age=18, maximum_age=80).isoformat()
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


_cache: dict[int, BaseWorld] = {}
_cache_lock = threading.Lock()


CACHE_DIR_ENV = "MMTSB_CACHE_DIR"  # where built base worlds are kept; "" disables the disk cache


def _disk_path(seed: int) -> Any:
    """The cache file of ``seed``'s base world, keyed by everything that shapes it: the source of
    the world and app modules, the populators registered, and the faker/python versions."""
    import hashlib
    import importlib.util
    import os
    import sys
    from pathlib import Path

    root = os.environ.get(CACHE_DIR_ENV)
    if root == "":
        return None
    folder = Path(root) if root else Path.home() / ".cache" / "mmtsb_env"
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted([*package.glob("world/*.py"), *package.glob("apps/**/*.py")]):
        digest.update(path.relative_to(package).as_posix().encode() + path.read_bytes())
    digest.update(repr(sorted((o, n) for o, n, _ in _POPULATORS)).encode())
    # faker's version: its package's __init__ (which holds VERSION); read directly, because
    # importlib.metadata costs ~10 ms of start-up
    faker = importlib.util.find_spec("faker")
    digest.update(Path(faker.origin).read_bytes() if faker is not None and faker.origin else b"?")
    digest.update(f"{sys.version_info[:2]}".encode())
    return folder / f"base_world_{seed}_{digest.hexdigest()[:20]}.pickle"


def _load_disk(path: Any) -> "BaseWorld | None":
    import pickle

    try:
        with open(path, "rb") as f:
            world = pickle.load(f)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, TypeError, ValueError):
        return None  # absent, partial or from another layout: rebuild
    return world if isinstance(world, BaseWorld) else None


def _save_disk(path: Any, world: "BaseWorld") -> None:
    import os
    import pickle

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            pickle.dump(world, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # atomic: concurrent processes never read a partial file
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        # a read-only home, or a populator sharing something unpicklable: the cache is only an optimisation
        try:
            tmp.unlink()
        except OSError:
            pass


def build_base_world(seed: int) -> BaseWorld:
    """Build the base world of ``seed`` from its populators (no caching)."""
    import mmtsb_env.apps  # noqa: F401  (registers tables and populators)
    from faker import Faker

    rng = random.Random(seed)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    people = _make_people(fake, rng)
    builder = BaseBuilder(seed=seed, rng=rng, fake=fake, people=people, supervisor=people[SUPERVISOR_ID - 1])
    for _, _, fn in sorted(_POPULATORS, key=lambda item: (item[0], item[1])):
        fn(builder)
    return BaseWorld(seed=seed, layer=Layer(builder.rows), people=tuple(people), supervisor_id=SUPERVISOR_ID,
                     shared=builder.shared)


def base_world(seed: int = 0) -> BaseWorld:
    """The base world for ``seed``: built on first use, then shared by the process, and kept on
    disk (``$MMTSB_CACHE_DIR``, default ``~/.cache/mmtsb_env``) so the next process loads it."""
    with _cache_lock:
        cached = _cache.get(seed)
        if cached is not None:
            return cached
        import mmtsb_env.apps  # noqa: F401  (registers tables and populators: part of the cache key)

        path = _disk_path(seed)
        world = _load_disk(path) if path is not None else None
        if world is None:
            world = build_base_world(seed)
            if path is not None:
                _save_disk(path, world)
        _cache[seed] = world
        return world
