"""reminder: every tool, success and error paths, against real world state."""

from mmtsb_env.apps.reminder.tables import REMINDERS


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("reminder", count=4)
    assert not any(t.requires for t in ours.values())  # a device app: works offline


def test_base_data():
    from mmtsb_env.world.base import base_world
    rows = list(base_world(0).layer.tables[REMINDERS].values())
    assert len(rows) >= 30
    assert sum(1 for r in rows if r["latitude"] is not None) >= 3
    assert all(r["reminder_datetime"][-6] in "+-" for r in rows)


def test_add_reminder_stores_row(call, world):
    rid = call("add_reminder", content="Call the plumber", reminder_datetime="2026-04-18T09:00:00-07:00",
               latitude=37.33, longitude=-122.03)
    row = world.get(REMINDERS, rid)
    assert row == {"reminder_id": rid, "content": "Call the plumber", "creation_datetime": "2026-04-16T23:51:15+00:00",
                   "reminder_datetime": "2026-04-18T09:00:00-07:00", "latitude": 37.33, "longitude": -122.03}
    assert [r["reminder_id"] for r in world.diff()[REMINDERS].created] == [rid]
    # ids are deterministic and never collide with base rows
    assert rid.startswith("reminder_") and world.get(REMINDERS, "reminder_1") is not None and rid != "reminder_1"
    rid2 = call("add_reminder", content="Naive time", reminder_datetime="2026-04-18 09:00")
    assert world.get(REMINDERS, rid2)["reminder_datetime"] == "2026-04-18T09:00:00+00:00"


def test_add_reminder_errors(call):
    assert "content must not be empty" in call.fail("add_reminder", content="  ", reminder_datetime="2026-04-18T09:00:00Z")
    assert "ISO 8601" in call.fail("add_reminder", content="x", reminder_datetime="next tuesday")
    assert "together" in call.fail("add_reminder", content="x", reminder_datetime="2026-04-18T09:00:00Z", latitude=3.0)
    assert "latitude" in call.fail("add_reminder", content="x", reminder_datetime="2026-04-18T09:00:00Z",
                                   latitude=100.0, longitude=1.0)
    assert "'content'" in call.fail("add_reminder", content=5, reminder_datetime="2026-04-18T09:00:00Z")


def test_modify_reminder_updates_creation_time(call, world):
    before = world.get(REMINDERS, "reminder_1")
    call("modify_reminder", reminder_id="reminder_1", content="Take out the trash and recycling")
    after = world.get(REMINDERS, "reminder_1")
    assert after["content"] == "Take out the trash and recycling"
    assert after["creation_datetime"] == "2026-04-16T23:51:15+00:00" != before["creation_datetime"]
    assert after["reminder_datetime"] == before["reminder_datetime"]
    call("modify_reminder", reminder_id="reminder_1", reminder_datetime="2026-04-20T08:00:00-07:00",
         latitude=37.3, longitude=-122.0)
    row = world.get(REMINDERS, "reminder_1")
    assert (row["reminder_datetime"], row["latitude"], row["longitude"]) == ("2026-04-20T08:00:00-07:00", 37.3, -122.0)
    # explicit nulls remove the place; other nulls mean "unchanged"
    call("modify_reminder", reminder_id="reminder_1", content=None, latitude=None, longitude=None)
    row = world.get(REMINDERS, "reminder_1")
    assert row["latitude"] is None and row["longitude"] is None and row["content"] == "Take out the trash and recycling"


def test_modify_reminder_errors(call, world):
    assert "does not exist" in call.fail("modify_reminder", reminder_id="reminder_999", content="x")
    assert "nothing to modify" in call.fail("modify_reminder", reminder_id="reminder_1")
    assert "nothing to modify" in call.fail("modify_reminder", reminder_id="reminder_1", content=None)
    assert "together" in call.fail("modify_reminder", reminder_id="reminder_1", latitude=10.0)
    assert "ISO 8601" in call.fail("modify_reminder", reminder_id="reminder_1", reminder_datetime="soon")
    assert "empty" in call.fail("modify_reminder", reminder_id="reminder_1", content="")


def test_search_reminder_filters(call, world):
    everything = call("search_reminder")
    assert len(everything) == world.count(REMINDERS)
    times = [r["reminder_datetime"] for r in everything]
    from mmtsb_env.world import parse_datetime
    assert [parse_datetime(t) for t in times] == sorted(parse_datetime(t) for t in times)
    moms = call("search_reminder", content="call mom")
    assert {r["content"] for r in moms} == {"Call mom", "Call mom about Sunday lunch"}
    assert call("search_reminder", reminder_id="reminder_3") == [world.get(REMINDERS, "reminder_3")]
    window = call("search_reminder", reminder_datetime_lowerbound="2026-04-01T00:00:00-07:00",
                  reminder_datetime_upperbound="2026-04-30T23:59:59-07:00")
    assert window and all("2026-04" in r["reminder_datetime"] for r in window)
    expected = sum(1 for r in world.rows(REMINDERS) if r["reminder_datetime"].startswith("2026-04"))
    assert len(window) == expected
    created = call("search_reminder", creation_datetime_lowerbound="2026-02-20T00:00:00Z",
                   creation_datetime_upperbound="2026-02-25T00:00:00Z")
    assert all("2026-02-2" in r["creation_datetime"] for r in created)
    near = call("search_reminder", latitude=37.3225, longitude=-122.033)
    assert [r["content"] for r in near] == ["Buy milk at Safeway"]
    assert call("search_reminder", content="zebra crossing lessons") == []


def test_search_reminder_errors(call):
    assert "ISO 8601" in call.fail("search_reminder", reminder_datetime_lowerbound="tomorrow")
    assert "'latitude'" in call.fail("search_reminder", latitude="north")


def test_remove_reminder(call, world):
    call("remove_reminder", reminder_id="reminder_5")
    assert world.get(REMINDERS, "reminder_5") is None
    assert [r["reminder_id"] for r in world.diff()[REMINDERS].deleted] == ["reminder_5"]
    assert "does not exist" in call.fail("remove_reminder", reminder_id="reminder_5")


def test_works_without_network(call, world):
    call.go_offline()
    rid = call("add_reminder", content="Offline", reminder_datetime="2026-04-18T09:00:00Z")
    assert world.get(REMINDERS, rid)["content"] == "Offline"
