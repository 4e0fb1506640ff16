"""simple_note: every tool, success and error paths, against real world state."""

from mmtsb_env.apps.simple_note.tables import NOTES


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("simple_note", count=17)
    assert all("network" in t.requires for t in ours.values())


def test_create_then_show_and_search(call, world):
    created = call("simple_note_create_note", title="Trip packing list", content="socks, charger", tags=["travel"])
    note = call("simple_note_show_note", note_id=created["note_id"])
    assert note["title"] == "Trip packing list" and note["user_id"] == world.user_id
    assert note["created_at"] == "2026-04-16T23:51:15"
    hits = call("simple_note_search_notes", query="packing charger")
    assert hits[0]["id"] == created["note_id"] and "content" not in hits[0]
    assert [n["id"] for n in world.diff()[NOTES].created] == [created["note_id"]]


def test_update_append_and_delete(call, world):
    nid = call("simple_note_create_note", title="Log", content="b")["note_id"]
    call("simple_note_add_content_to_note", note_id=nid, append_or_prepend="prepend", added_content="a")
    call("simple_note_add_content_to_note", note_id=nid, append_or_prepend="append", added_content="c")
    call("simple_note_update_note", note_id=nid, pinned=True)
    assert world.get(NOTES, nid)["content"] == "abc" and world.get(NOTES, nid)["pinned"] is True
    call("simple_note_delete_note", note_id=nid)
    assert world.get(NOTES, nid) is None and NOTES not in world.diff()


def test_errors_name_the_problem(call, world):
    other = next(r for r in world.rows(NOTES) if r["user_id"] != world.user_id)
    assert "does not exist" in call.fail("simple_note_show_note", note_id=other["id"])
    assert "does not exist" in call.fail("simple_note_delete_note", note_id=10**6)
    assert "'append_or_prepend'" in call.fail("simple_note_add_content_to_note", note_id=1, append_or_prepend="middle", added_content="x")
    assert "nothing to update" in call.fail("simple_note_update_note", note_id=1)
    assert "title must not be empty" in call.fail("simple_note_create_note", title=" ", content="x")
    assert "page_limit" in call.fail("simple_note_search_notes", page_limit=500)


def test_needs_network_and_login(call):
    call.go_offline()
    assert "no network" in call.fail("simple_note_search_notes")
    call("set_wifi_status", on=True)
    call("simple_note_logout")
    assert "not logged in" in call.fail("simple_note_search_notes")
