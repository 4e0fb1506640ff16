"""The synthetic base world: built once per (process, seed) and shared read-only by every env.

It is built by running every app's populator (:mod:`.populators`) over a fresh cast of people;
this module imports the apps (which import the populator registration, never this module).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any

from .populators import _POPULATORS, SUPERVISOR_ID, BaseBuilder, Person, _make_people
from .store import Layer


@dataclass(frozen=True)
class BaseWorld:
    seed: int
    layer: Layer
    people: tuple[Person, ...]
    supervisor_id: int
    shared: dict[str, Any]

    def person(self, person_id: int) -> Person:
        return self.people[person_id - 1]


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
