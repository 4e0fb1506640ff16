"""Small private helpers shared by :mod:`.db_recipes` and :mod:`.sinks` (no public API)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any, Callable, Iterable


def calendars(wi: Any) -> list[dict[str, Any]]:
    """The world's calendars, in a stable order (by ``calendar_id``)."""
    return sorted(wi.tables["calendar.calendars"].values(), key=lambda c: c["calendar_id"])


def hours_after(start: str, hours: int) -> str:
    """ISO datetime ``hours`` after the ISO datetime ``start``."""
    return (datetime.fromisoformat(start) + timedelta(hours=hours)).isoformat()


def already_right(b: Any, k: int) -> bool:
    """Whether the ``k``-th target starts out correct (odd positions, 70 %; draws only on odd ``k``)."""
    return k % 2 == 1 and b.rng.random() < 0.7


def draw_dated(b: Any, category: str, n: int) -> tuple[list[int], set[str]]:
    """Draw ``n`` images of ``category``; return their ids and the set of their dates."""
    ids: list[int] = []
    taken: set[str] = set()
    for _ in range(n):
        i = b.img(category)
        taken.add(b.imgs[i].date)
        ids.append(i)
    return ids, taken


def shifted_date(b: Any, d: date, offsets: Iterable[int], taken: set[str],
                 ok: Callable[[date], bool] = lambda d2: True) -> date:
    """``d`` moved by a random offset to a day not in ``taken`` (and ``ok``); 20 tries, last one kept."""
    offsets = list(offsets)
    for _ in range(20):
        d2 = d + timedelta(days=b.rng.choice(offsets))
        if d2.isoformat() not in taken and ok(d2):
            break
    return d2
