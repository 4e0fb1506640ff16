"""alarms: every tool, success and error paths, against the phone.alarms table."""

from __future__ import annotations

import pytest

from mmtsb_env.apps.alarms.tables import ALARMS, normalize_days, normalize_time


def mine(world):
    return sorted((r for r in world.rows(ALARMS) if r["user_id"] == world.user_id), key=lambda r: (r["time"], r["id"]))


def someone_elses(world):
    return next(r for r in world.rows(ALARMS) if r["user_id"] != world.user_id)


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("alarms", count=6)
    for name, tool in ours.items():
        assert tool.requires == ()
        assert tool.writes == (name in {"alarms_create_alarm", "alarms_update_alarm", "alarms_delete_alarm"})


def test_base_alarms(world):
    rows = mine(world)
    assert 6 <= len(rows) <= 12
    assert any(r["repeat_days"] == [] for r in rows) and any(not r["enabled"] for r in rows)
    for r in rows:
        assert normalize_time(r["time"]) == r["time"] and normalize_days(r["repeat_days"]) == r["repeat_days"]
    assert any(r["user_id"] != world.user_id for r in world.rows(ALARMS))


def test_show_alarms_pages_in_time_order(call, world):
    rows = mine(world)
    first = call("alarms_show_alarms")
    assert [a["id"] for a in first] == [r["id"] for r in rows[:5]]
    second = call("alarms_show_alarms", page_index=1)
    assert [a["id"] for a in second] == [r["id"] for r in rows[5:10]]
    everything = call("alarms_show_alarms", page_limit=20)
    assert len(everything) == len(rows) and all(a["user_id"] == world.user_id for a in everything)
    assert "page_limit" in call.fail("alarms_show_alarms", page_limit=0)
    assert "page_index" in call.fail("alarms_show_alarms", page_index=-1)


def test_create_alarm_defaults_and_normalizing(call, world):
    out = call("alarms_create_alarm", time="6:45")
    row = world.get(ALARMS, out["alarm_id"])
    assert row == {
        "id": out["alarm_id"], "user_id": world.user_id, "time": "06:45", "repeat_days": [], "label": None,
        "enabled": True, "snooze_minutes": 15, "vibration": True,
        "created_at": "2026-04-16T23:51:15", "updated_at": "2026-04-16T23:51:15",
    }
    out = call("alarms_create_alarm", time="7:30 pm", repeat_days=["Fri", "monday", "MONDAY", "wed"], label=" Yoga ",
               enabled=False, snooze_minutes=5, vibration=False)
    row = world.get(ALARMS, out["alarm_id"])
    assert (row["time"], row["repeat_days"], row["label"], row["enabled"], row["snooze_minutes"], row["vibration"]) == \
        ("19:30", ["monday", "wednesday", "friday"], "Yoga", False, 5, False)
    assert call("alarms_create_alarm", time="12:00 am")["alarm_id"] in {a["id"] for a in call("alarms_show_alarms")}
    assert world.get(ALARMS, out["alarm_id"] + 1)["time"] == "00:00"
    assert len(world.diff()[ALARMS].created) == 3


@pytest.mark.parametrize("time", ["25:00", "7", "07:60", "noon", "13:00 pm", "07:30:15", ""])
def test_create_alarm_rejects_bad_times(call, time):
    assert "time" in call.fail("alarms_create_alarm", time=time)


def test_create_alarm_errors(call):
    assert "not a day of the week" in call.fail("alarms_create_alarm", time="07:00", repeat_days=["Funday"])
    assert "snooze_minutes" in call.fail("alarms_create_alarm", time="07:00", snooze_minutes=0)
    assert "snooze_minutes" in call.fail("alarms_create_alarm", time="07:00", snooze_minutes=61)
    assert "label is too long" in call.fail("alarms_create_alarm", time="07:00", label="x" * 101)
    assert "'repeat_days'" in call.fail("alarms_create_alarm", time="07:00", repeat_days="monday")
    assert "missing required" in call.fail("alarms_create_alarm")


def test_show_alarm(call, world):
    row = mine(world)[0]
    assert call("alarms_show_alarm", alarm_id=row["id"]) == row
    assert "does not exist" in call.fail("alarms_show_alarm", alarm_id=someone_elses(world)["id"])
    assert "does not exist" in call.fail("alarms_show_alarm", alarm_id=10**6)


def test_update_alarm(call, world):
    row = next(r for r in mine(world) if r["label"])
    call("alarms_update_alarm", alarm_id=row["id"], time="05:15", enabled=False)
    after = world.get(ALARMS, row["id"])
    assert (after["time"], after["enabled"], after["label"], after["repeat_days"]) == \
        ("05:15", False, row["label"], row["repeat_days"])
    assert after["updated_at"] == "2026-04-16T23:51:15" and after["created_at"] == row["created_at"]
    call("alarms_update_alarm", alarm_id=row["id"], repeat_days=[], label="", snooze_minutes=30, vibration=False)
    after = world.get(ALARMS, row["id"])
    assert (after["repeat_days"], after["label"], after["snooze_minutes"], after["vibration"]) == ([], None, 30, False)
    call("alarms_update_alarm", alarm_id=row["id"], repeat_days=["sat", "Sunday"])
    assert world.get(ALARMS, row["id"])["repeat_days"] == ["saturday", "sunday"]
    assert [r["id"] for r in call("alarms_show_alarms", page_limit=1)] == [row["id"]]  # 05:15 is now first


def test_update_alarm_errors(call, world):
    row = mine(world)[0]
    assert "nothing to update" in call.fail("alarms_update_alarm", alarm_id=row["id"])
    assert "time" in call.fail("alarms_update_alarm", alarm_id=row["id"], time="7.30")
    assert "not a day of the week" in call.fail("alarms_update_alarm", alarm_id=row["id"], repeat_days=["weekday"])
    assert "snooze_minutes" in call.fail("alarms_update_alarm", alarm_id=row["id"], snooze_minutes=-5)
    assert "'enabled'" in call.fail("alarms_update_alarm", alarm_id=row["id"], enabled="yes")
    assert "does not exist" in call.fail("alarms_update_alarm", alarm_id=someone_elses(world)["id"], enabled=False)


def test_delete_alarm(call, world):
    row = mine(world)[0]
    call("alarms_delete_alarm", alarm_id=row["id"])
    assert world.get(ALARMS, row["id"]) is None
    assert world.diff()[ALARMS].deleted == [row]
    assert "does not exist" in call.fail("alarms_delete_alarm", alarm_id=row["id"])
    assert "does not exist" in call.fail("alarms_delete_alarm", alarm_id=someone_elses(world)["id"])


def test_current_date_and_time_reads_the_frozen_clock(call, world):
    assert call("alarms_get_current_date_and_time") == {
        "date": "2026-04-16", "time": "23:51:15", "day_of_week": "Thursday", "datetime": "2026-04-16T23:51:15+00:00",
    }
    assert world.diff() == {}


def test_works_offline(call):
    call("set_low_battery_mode_status", on=True)
    out = call("alarms_create_alarm", time="08:00")
    assert call("alarms_show_alarm", alarm_id=out["alarm_id"])["time"] == "08:00"
