"""calendar: every tool, success and error paths, recurrence semantics, against real world state."""

from datetime import datetime

import pytest

from mmtsb_env.apps.calendar.tables import CALENDARS, EVENTS
from mmtsb_env.world.base import base_world

REFERENCE_EVENT_COLUMNS = [
    "calendar_event_id", "calendar_id", "title", "description", "start_datetime", "end_datetime", "is_all_day",
    "recurrence_frequency", "recurrence_interval", "recurrence_until_datetime", "recurrence_parent_id",
    "recurrence_exclude_datetime", "latitude", "longitude", "place_id", "formatted_address", "attendee_names",
    "attendee_emails",
]
APRIL_20 = dict(datetime_range_lowerbound="2026-04-20T00:00:00-07:00",
                datetime_range_upperbound="2026-04-21T00:00:00-07:00")


def _series(world, title):
    return next(r for r in world.rows(EVENTS) if r["title"] == title and r["recurrence_frequency"])


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("calendar", count=8)
    assert not any(t.requires for t in ours.values())


def test_base_data():
    tables = base_world(0).layer.tables
    assert sorted(r["title"] for r in tables[CALENDARS].values()) == ["Family", "Personal", "Work"]
    events = list(tables[EVENTS].values())
    assert len(events) >= 150
    assert sum(1 for e in events if e["recurrence_frequency"]) >= 8
    assert sum(1 for e in events if e["is_all_day"]) >= 5
    assert all(list(e) == REFERENCE_EVENT_COLUMNS for e in events)
    assert all(datetime.fromisoformat(e["start_datetime"]).tzinfo is not None for e in events)
    assert all(e["start_datetime"] >= "2026-01" and e["start_datetime"] < "2026-07" for e in events)
    assert sum(1 for e in events if e["title"] == "Dentist appointment") >= 2  # near-duplicates to disambiguate


def test_calendar_crud(call, world):
    cid = call("create_calendar", title="Holidays")
    assert cid == "calendar_4" and world.get(CALENDARS, cid) == {"calendar_id": cid, "title": "Holidays"}
    assert call("search_calendars", title="holiday") == [{"calendar_id": cid, "title": "Holidays"}]
    assert call("search_calendars", calendar_id="calendar_2") == [{"calendar_id": "calendar_2", "title": "Work"}]
    assert call("search_calendars", calendar_id="calendar_2", title="family") == []
    call("modify_calendar", calendar_id=cid, title="Public holidays")
    assert world.get(CALENDARS, cid)["title"] == "Public holidays"
    work_events = world.count(EVENTS, calendar_id="calendar_2")
    assert work_events > 20
    out = call("remove_calendar", calendar_id="calendar_2")
    assert world.get(CALENDARS, "calendar_2") is None and world.count(EVENTS, calendar_id="calendar_2") == 0
    assert str(work_events) in out["message"] and len(world.diff()[EVENTS].deleted) == work_events


def test_calendar_errors(call):
    assert "title must not be empty" in call.fail("create_calendar", title=" ")
    assert "give calendar_id and/or title" in call.fail("search_calendars")
    assert "does not exist" in call.fail("modify_calendar", calendar_id="calendar_99", title="x")
    assert "title must not be empty" in call.fail("modify_calendar", calendar_id="calendar_1", title="")
    assert "does not exist" in call.fail("remove_calendar", calendar_id="calendar_99")


def test_create_event_like_the_reference_scenario(call, world):
    eid = call("create_calendar_event", calendar_id="calendar_2", title="Call Modicon, Inc. about OSIRIS",
               start_datetime="2026-04-20T10:00:00Z", end_datetime="2026-04-20T11:00:00Z")
    row = world.get(EVENTS, eid)
    assert list(row) == REFERENCE_EVENT_COLUMNS
    assert row == {
        "calendar_event_id": eid, "calendar_id": "calendar_2", "title": "Call Modicon, Inc. about OSIRIS",
        "description": None, "start_datetime": "2026-04-20T10:00:00+00:00", "end_datetime": "2026-04-20T11:00:00+00:00",
        "is_all_day": False, "recurrence_frequency": None, "recurrence_interval": None,
        "recurrence_until_datetime": None, "recurrence_parent_id": None, "recurrence_exclude_datetime": [],
        "latitude": None, "longitude": None, "place_id": None, "formatted_address": None,
        "attendee_names": [], "attendee_emails": [],
    }
    assert eid.startswith("calendar_event_") and len(world.diff()[EVENTS].created) == 1
    found = call("search_calendar_events", title="Modicon OSIRIS call")
    assert [e["calendar_event_id"] for e in found] == [eid]


def test_create_event_all_day_recurring_with_attendees(call, world):
    eid = call("create_calendar_event", calendar_id="calendar_1", title="Conference", start_datetime="2026-05-04T15:30:00-07:00",
               end_datetime="2026-05-05T09:00:00-07:00", is_all_day=True, description="Badge pickup at 8",
               latitude=37.4, longitude=-122.1, place_id="p1", formatted_address="1 Main St",
               attendee_names=["Ann Lee", "Bo Chan"], attendee_emails=["ann@x.org", ""])
    row = world.get(EVENTS, eid)
    assert (row["start_datetime"], row["end_datetime"]) == ("2026-05-04T00:00:00-07:00", "2026-05-06T00:00:00-07:00")
    assert row["attendee_names"] == ["Ann Lee", "Bo Chan"] and row["attendee_emails"] == ["ann@x.org", ""]
    rid = call("create_calendar_event", calendar_id="calendar_1", title="Standup", start_datetime="2026-04-17T09:00:00-07:00",
               end_datetime="2026-04-17T09:15:00-07:00", recurrence_frequency="DAILY", recurrence_interval=1,
               recurrence_until_datetime="2026-04-21T09:00:00-07:00")
    row = world.get(EVENTS, rid)
    assert row["recurrence_frequency"] == "daily" and row["recurrence_until_datetime"] == "2026-04-21T09:00:00-07:00"
    hits = call("search_calendar_events", title="standup", datetime_range_lowerbound="2026-04-01T00:00:00-07:00",
                datetime_range_upperbound="2026-05-01T00:00:00-07:00")
    instances = [h for h in hits if h["recurrence_parent_id"] == rid]
    assert [h["start_datetime"][:10] for h in instances] == ["2026-04-17", "2026-04-18", "2026-04-19", "2026-04-20",
                                                              "2026-04-21"]  # until is inclusive
    assert [h["calendar_event_id"] for h in hits if h["recurrence_parent_id"] is None] == [rid]  # plus the parent


@pytest.mark.parametrize("kwargs, message", [
    (dict(calendar_id="calendar_9"), "does not exist"),
    (dict(start_datetime="2026-04-20T10:00:00"), "no UTC offset"),
    (dict(start_datetime="next monday"), "ISO 8601"),
    (dict(end_datetime="2026-04-20T09:00:00-07:00"), "must be later"),
    (dict(recurrence_frequency="weekly"), "together"),
    (dict(recurrence_frequency="fortnightly", recurrence_interval=1), "must be one of"),
    (dict(recurrence_frequency="weekly", recurrence_interval=0), "1 or more"),
    (dict(recurrence_until_datetime="2026-05-01T00:00:00Z"), "needs recurrence_frequency"),
    (dict(recurrence_frequency="weekly", recurrence_interval=1, recurrence_until_datetime="2026-01-01T00:00:00Z"),
     "must not be before"),
    (dict(attendee_names=["A"]), "same length"),
    (dict(attendee_names=["A"], attendee_emails=["a@x", "b@x"]), "same length"),
    (dict(latitude=91.0), "latitude"),
    (dict(title="  "), "title must not be empty"),
    (dict(is_all_day="yes"), "'is_all_day'"),
])
def test_create_event_errors(call, kwargs, message):
    args = dict(calendar_id="calendar_1", title="Lunch", start_datetime="2026-04-20T12:00:00-07:00",
                end_datetime="2026-04-20T13:00:00-07:00")
    args.update(kwargs)
    assert message in call.fail("create_calendar_event", **args)


def test_search_by_fields(call, world):
    dentist = call("search_calendar_events", title="dentist")
    assert len(dentist) >= 2 and all("Dentist" in e["title"] for e in dentist)
    assert {"2026-02-11", "2026-05-06"} <= {e["start_datetime"][:10] for e in dentist}
    dentist = [e for e in dentist if e["start_datetime"][:10] == "2026-02-11"]
    sync = _series(world, "Team sync")
    email = sync["attendee_emails"][0]
    by_email = call("search_calendar_events", attendee_emails=[email])
    assert sync["calendar_event_id"] in {e["calendar_event_id"] for e in by_email}
    assert all(email in e["attendee_emails"] for e in by_email)
    first_name = sync["attendee_names"][0].split()[0]
    by_name = call("search_calendar_events", attendee_names=[first_name])
    assert by_name and all(any(first_name in n for n in e["attendee_names"]) for e in by_name)
    family = call("search_calendar_events", calendar_id="calendar_3")
    assert len(family) == world.count(EVENTS, calendar_id="calendar_3")
    weekly = call("search_calendar_events", recurrence_frequency="weekly", recurrence_interval=2)
    assert {e["title"] for e in weekly} >= {"Sprint planning"}
    assert all(e["recurrence_interval"] == 2 for e in weekly)
    near = call("search_calendar_events", latitude=37.3197, longitude=-122.0305)
    assert near and all(abs(e["latitude"] - 37.3197) <= 0.01 for e in near)
    by_place = call("search_calendar_events", place_id=dentist[0]["place_id"])
    assert dentist[0] in by_place and all(e["place_id"] == dentist[0]["place_id"] for e in by_place)
    assert len(by_place) == world.count(EVENTS, place_id=dentist[0]["place_id"])
    assert call("search_calendar_events", formatted_address="Torre Ave Cupertino")
    all_day = call("search_calendar_events", is_all_day=True)
    assert all_day and all(e["is_all_day"] for e in all_day)
    until = call("search_calendar_events", recurrence_until_datetime="2026-05-27T23:59:00-07:00")
    assert [e["title"] for e in until] == ["Yoga class"]
    assert call("search_calendar_events", description="agenda shared doc")
    assert call("search_calendar_events", title="xylophone recital") == []
    everything = call("search_calendar_events")
    assert len(everything) == world.count(EVENTS)


def test_search_range_unrolls_recurring_events(call, world):
    sync = _series(world, "Team sync")
    day = call("search_calendar_events", **APRIL_20)
    ids = [e["calendar_event_id"] for e in day]
    instance_id = f"{sync['calendar_event_id']}@2026-04-20T10:00:00-07:00"
    assert instance_id in ids and sync["calendar_event_id"] in ids
    instance = next(e for e in day if e["calendar_event_id"] == instance_id)
    assert instance["recurrence_parent_id"] == sync["calendar_event_id"] and instance["recurrence_frequency"] is None
    assert instance["end_datetime"] == "2026-04-20T11:00:00-07:00"
    lower = datetime.fromisoformat(APRIL_20["datetime_range_lowerbound"])
    upper = datetime.fromisoformat(APRIL_20["datetime_range_upperbound"])
    for e in day:  # everything but series parents overlaps the range
        if not e["recurrence_frequency"]:
            assert datetime.fromisoformat(e["end_datetime"]) > lower and datetime.fromisoformat(e["start_datetime"]) < upper
    one_offs = [r for r in world.rows(EVENTS) if not r["recurrence_frequency"]
                and datetime.fromisoformat(r["end_datetime"]) > lower and datetime.fromisoformat(r["start_datetime"]) < upper]
    assert {r["calendar_event_id"] for r in one_offs} <= set(ids)
    # an occurrence can be looked up by its id
    assert call("search_calendar_events", calendar_event_id=instance_id) == [instance]
    # the yoga series ends on May 27 (inclusive)
    yoga = call("search_calendar_events", title="yoga class", datetime_range_lowerbound="2026-05-20T00:00:00-07:00",
                datetime_range_upperbound="2026-06-30T00:00:00-07:00")
    assert [e["start_datetime"][:10] for e in yoga if e["recurrence_parent_id"]] == ["2026-05-20", "2026-05-27"]


def test_search_errors(call):
    assert "both" in call.fail("search_calendar_events", datetime_range_lowerbound="2026-04-20T00:00:00Z")
    assert "no UTC offset" in call.fail("search_calendar_events", datetime_range_lowerbound="2026-04-20T00:00:00",
                                        datetime_range_upperbound="2026-04-21T00:00:00Z")
    assert "later than" in call.fail("search_calendar_events", datetime_range_lowerbound="2026-04-21T00:00:00Z",
                                     datetime_range_upperbound="2026-04-20T00:00:00Z")
    call("create_calendar_event", calendar_id="calendar_1", title="Vitamins", start_datetime="2026-04-17T08:00:00Z",
         end_datetime="2026-04-17T08:05:00Z", recurrence_frequency="daily", recurrence_interval=1)
    assert "too many" in call.fail("search_calendar_events", title="vitamins",
                                   datetime_range_lowerbound="2026-01-01T00:00:00Z",
                                   datetime_range_upperbound="2036-01-01T00:00:00Z")


def test_remove_events(call, world):
    dentist = call("search_calendar_events", title="dentist")[0]["calendar_event_id"]
    call("remove_calendar_event", calendar_event_id=dentist)
    assert world.get(EVENTS, dentist) is None
    sync = _series(world, "Team sync")
    instance_id = f"{sync['calendar_event_id']}@2026-04-20T10:00:00-07:00"
    call("remove_calendar_event", calendar_event_id=instance_id)
    parent = world.get(EVENTS, sync["calendar_event_id"])
    assert parent["recurrence_exclude_datetime"] == ["2026-04-20T10:00:00-07:00"]
    ids = [e["calendar_event_id"] for e in call("search_calendar_events", **APRIL_20)]
    assert instance_id not in ids
    assert "does not exist" in call.fail("remove_calendar_event", calendar_event_id=instance_id)
    # the next week's occurrence is still there, and removing the parent removes the series
    detached = call("modify_calendar_event", calendar_event_id=f"{sync['calendar_event_id']}@2026-04-27T10:00:00-07:00",
                    title="Team sync (demo day)")["calendar_event_id"]
    call("remove_calendar_event", calendar_event_id=sync["calendar_event_id"])
    assert world.get(EVENTS, sync["calendar_event_id"]) is None and world.get(EVENTS, detached) is None


def test_remove_event_errors(call, world):
    sync = _series(world, "Team sync")
    assert "does not exist" in call.fail("remove_calendar_event", calendar_event_id="calendar_event_99999")
    assert "does not exist" in call.fail("remove_calendar_event",
                                         calendar_event_id=f"{sync['calendar_event_id']}@2026-04-20T10:30:00-07:00")
    assert "does not exist" in call.fail("remove_calendar_event", calendar_event_id="calendar_event_1@garbage")


def test_modify_plain_event(call, world):
    eid = call("create_calendar_event", calendar_id="calendar_1", title="Lunch", start_datetime="2026-04-20T12:00:00-07:00",
               end_datetime="2026-04-20T13:00:00-07:00")
    out = call("modify_calendar_event", calendar_event_id=eid, title="Lunch with Sam", calendar_id="calendar_3",
               start_datetime="2026-04-20T12:30:00-07:00", end_datetime="2026-04-20T13:30:00-07:00", description=None)
    row = world.get(EVENTS, eid)
    assert out["calendar_event_id"] == eid
    assert (row["title"], row["calendar_id"], row["start_datetime"], row["description"]) == (
        "Lunch with Sam", "calendar_3", "2026-04-20T12:30:00-07:00", None)
    call("modify_calendar_event", calendar_event_id=eid, attendee_names=["Sam Ortiz"], attendee_emails=["sam@x.org"])
    assert world.get(EVENTS, eid)["attendee_emails"] == ["sam@x.org"]


def test_modify_occurrence_detaches_it(call, world):
    sync = _series(world, "Team sync")
    pid = sync["calendar_event_id"]
    out = call("modify_calendar_event", calendar_event_id=f"{pid}@2026-04-20T10:00:00-07:00",
               start_datetime="2026-04-20T14:00:00-07:00", end_datetime="2026-04-20T15:00:00-07:00")
    new = world.get(EVENTS, out["calendar_event_id"])
    assert new["recurrence_parent_id"] == pid and new["recurrence_frequency"] is None
    assert (new["title"], new["start_datetime"]) == ("Team sync", "2026-04-20T14:00:00-07:00")
    assert world.get(EVENTS, pid)["recurrence_exclude_datetime"] == ["2026-04-20T10:00:00-07:00"]
    day = call("search_calendar_events", title="team sync", **APRIL_20)
    starts = sorted(e["start_datetime"] for e in day if e["calendar_event_id"] != pid)
    assert starts == ["2026-04-20T14:00:00-07:00"]


def test_modify_series(call, world):
    sync = _series(world, "Team sync")
    pid = sync["calendar_event_id"]
    call("remove_calendar_event", calendar_event_id=f"{pid}@2026-04-20T10:00:00-07:00")
    call("modify_calendar_event", calendar_event_id=pid, title="Weekly team sync")
    assert world.get(EVENTS, pid)["recurrence_exclude_datetime"] == ["2026-04-20T10:00:00-07:00"]  # kept
    detached = call("modify_calendar_event", calendar_event_id=f"{pid}@2026-04-27T10:00:00-07:00",
                    title="Demo day")["calendar_event_id"]
    call("modify_calendar_event", calendar_event_id=pid, start_datetime="2026-03-09T09:00:00-07:00",
         end_datetime="2026-03-09T09:30:00-07:00")
    parent = world.get(EVENTS, pid)
    assert parent["recurrence_exclude_datetime"] == [] and world.get(EVENTS, detached) is None
    day = call("search_calendar_events", title="weekly team sync", **APRIL_20)
    assert [e["start_datetime"] for e in day if e["recurrence_parent_id"] == pid] == ["2026-04-20T09:00:00-07:00"]
    call("modify_calendar_event", calendar_event_id=pid, recurrence_interval=4)
    day = call("search_calendar_events", title="weekly team sync", **APRIL_20)
    assert [e for e in day if e["recurrence_parent_id"] == pid] == []  # every 4th week from March 9: not April 20


def test_modify_errors(call, world):
    assert "nothing to modify" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1")
    assert "nothing to modify" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1", title=None)
    assert "does not exist" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_99999", title="x")
    assert "must be later" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1",
                                        end_datetime="2026-01-01T00:00:00Z")
    assert "does not exist" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1",
                                         calendar_id="calendar_42")
    assert "same length" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1",
                                      attendee_names=["Only One"])
    assert "title must not be empty" in call.fail("modify_calendar_event", calendar_event_id="calendar_event_1", title="")


def test_works_without_network(call, world):
    call.go_offline()
    eid = call("create_calendar_event", calendar_id="calendar_1", title="Offline", start_datetime="2026-04-20T12:00:00Z",
               end_datetime="2026-04-20T13:00:00Z")
    assert world.get(EVENTS, eid)["title"] == "Offline"
