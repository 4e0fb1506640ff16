"""The base world is the same whatever day the clock shows (it once held birthdays counted from
the real date, so a stored snapshot and every scenario over it drifted at midnight)."""

from __future__ import annotations

from datetime import datetime, timedelta

import faker.providers.date_time as faker_dates

from mmtsb_env.world.base import build_base_world


def _rows(world):
    return {t: sorted(rows.items(), key=repr) for t, rows in world.layer.tables.items()}


def test_the_base_world_does_not_depend_on_the_clock(monkeypatch):
    today = _rows(build_base_world(0))

    class LaterClock(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + timedelta(days=400)

    monkeypatch.setattr(faker_dates, "datetime", LaterClock)
    assert _rows(build_base_world(0)) == today
