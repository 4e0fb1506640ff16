"""messages: text and voice messages (phone.global_*/user_* tables), success and error paths."""

from __future__ import annotations

import pytest

from mmtsb_env.apps.phone.tables import CONTACTS, GLOBAL_TEXTS, GLOBAL_VOICES, USER_TEXTS, USER_VOICES, USERS

DOMAIN = "messages"
KINDS = {
    "text": (GLOBAL_TEXTS, USER_TEXTS, "global_text_message_id"),
    "voice": (GLOBAL_VOICES, USER_VOICES, "global_voice_message_id"),
}


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog(DOMAIN, count=10)
    for name, tool in ours.items():
        assert tool.writes == ("_send_" in name or "_delete_" in name)
        assert tool.requires == (("cellular",) if "_send_" in name else ())


def conversations(world, kind):
    """{other user id: [(created_at, copy id, message)]} of the owner's copies."""
    global_table, user_table, fk = KINDS[kind]
    out: dict[int, list] = {}
    for copy in world.rows(user_table):
        if copy["user_id"] == world.user_id:
            msg = world.get(global_table, copy[fk])
            other = msg["receiver_id"] if msg["sender_id"] == world.user_id else msg["sender_id"]
            out.setdefault(other, []).append((msg["created_at"], copy["id"], msg["message"]))
    for rows in out.values():
        rows.sort(reverse=True)
    return out


def number_of(world, user_id):
    return world.get(USERS, user_id)["phone_number"]


def test_base_messages(world):
    texts = conversations(world, "text")
    assert sum(len(v) for v in texts.values()) >= 200 and len(texts) >= 25
    assert len(conversations(world, "voice")) >= 10
    # Every global message has exactly the sender's and the receiver's copy.
    copies: dict[int, set] = {}
    for copy in world.rows(USER_TEXTS):
        copies.setdefault(copy["global_text_message_id"], set()).add(copy["user_id"])
    for msg in world.rows(GLOBAL_TEXTS):
        assert copies[msg["id"]] == {msg["sender_id"], msg["receiver_id"]}
    assert any(world.user_id not in {m["sender_id"], m["receiver_id"]} for m in world.rows(GLOBAL_TEXTS))


@pytest.mark.parametrize("kind", ["text", "voice"])
def test_send_creates_one_message_and_two_copies(call, world, kind):
    global_table, user_table, fk = KINDS[kind]
    friend = next(r for r in world.rows(CONTACTS) if r["user_id"] == world.user_id)
    friend_user = next(u for u in world.rows(USERS) if u["phone_number"] == friend["phone_number"])
    n = friend["phone_number"]
    out = call(f"messages_send_{kind}_message", phone_number=f"+1 ({n[:3]}) {n[3:6]}-{n[6:]}", message="See you at 7!")
    diff = world.diff()
    [msg] = diff[global_table].created
    assert msg["sender_id"] == world.user_id and msg["receiver_id"] == friend_user["id"]
    assert msg["message"] == "See you at 7!" and msg["created_at"] == "2026-04-16T23:51:15"
    copies = diff[user_table].created
    assert sorted(c["user_id"] for c in copies) == sorted([world.user_id, friend_user["id"]])
    assert all(c[fk] == msg["id"] for c in copies)
    mine = next(c for c in copies if c["user_id"] == world.user_id)
    assert out[f"{kind}_message_id"] == mine["id"]
    shown = call(f"messages_show_{kind}_message", **{f"{kind}_message_id": mine["id"]})
    assert shown["message"] == "See you at 7!" and shown["receiver"]["phone_number"] == friend_user["phone_number"]
    assert shown["sender"]["name"] == f"{world.get(USERS, world.user_id)['first_name']} {world.get(USERS, world.user_id)['last_name']}"
    latest = call(f"messages_search_{kind}_messages", page_limit=1)
    assert latest[0][f"{kind}_message_id"] == mine["id"]


@pytest.mark.parametrize("kind", ["text", "voice"])
def test_send_errors(call, world, kind):
    me = world.get(USERS, world.user_id)
    friend = next(r for r in world.rows(CONTACTS) if r["user_id"] == world.user_id)
    name = f"messages_send_{kind}_message"
    assert "no phone user" in call.fail(name, phone_number="123-456-0000", message="hi")
    assert "own phone number" in call.fail(name, phone_number=me["phone_number"], message="hi")
    assert "must not be empty" in call.fail(name, phone_number=friend["phone_number"], message="   ")
    assert "missing required" in call.fail(name, phone_number=friend["phone_number"])
    call("set_cellular_service_status", on=False)
    assert "cellular" in call.fail(name, phone_number=friend["phone_number"], message="hi")
    call("set_cellular_service_status", on=True)
    call(name, phone_number=friend["phone_number"], message="hi")


def test_send_to_scenario_user_with_short_number(call, world):
    world.insert(USERS, {"id": 200, "first_name": "Alice", "last_name": "Carter", "phone_number": "555-0101", "password": "x"})
    call("messages_send_text_message", phone_number="5550101", message="The lady's name is Howland.")
    [msg] = world.diff()[GLOBAL_TEXTS].created
    assert msg["receiver_id"] == 200
    assert sorted(c["user_id"] for c in world.diff()[USER_TEXTS].created) == sorted([world.user_id, 200])


@pytest.mark.parametrize("kind", ["text", "voice"])
def test_search_filters_and_ordering(call, world, kind):
    convs = conversations(world, kind)
    everything = sorted((m for rows in convs.values() for m in rows), reverse=True)
    listed = call(f"messages_search_{kind}_messages", page_limit=20)
    assert [m[f"{kind}_message_id"] for m in listed] == [m[1] for m in everything[:20]]
    second = call(f"messages_search_{kind}_messages", page_limit=20, page_index=1)
    assert [m[f"{kind}_message_id"] for m in second] == [m[1] for m in everything[20:40]]
    oldest = call(f"messages_search_{kind}_messages", sort_by="created_at", page_limit=3)
    assert [m[f"{kind}_message_id"] for m in oldest] == [m[1] for m in sorted(everything)[:3]]
    other, rows = max(convs.items(), key=lambda kv: len(kv[1]))
    by_number = call(f"messages_search_{kind}_messages", phone_number=number_of(world, other), page_limit=20)
    assert [m[f"{kind}_message_id"] for m in by_number] == [r[1] for r in rows[:20]]
    latest = call(f"messages_search_{kind}_messages", only_latest_per_contact=True, page_limit=20)
    assert len(latest) == min(20, len(convs))
    assert {m[f"{kind}_message_id"] for m in latest} <= {rows[0][1] for rows in convs.values()}
    word = max(rows[0][2].split(), key=len).strip("!?.,")
    found = call(f"messages_search_{kind}_messages", query=word, page_limit=20)
    assert found and all(word.lower() in (m["message"] + m["sender"]["name"] + m["receiver"]["name"]).lower() for m in found)
    assert call(f"messages_search_{kind}_messages", query="xylophonequartz") == []
    name = f"messages_search_{kind}_messages"
    assert "sort_by" in call.fail(name, sort_by="message")
    assert "no phone user" in call.fail(name, phone_number="1112223333")
    assert "page_limit" in call.fail(name, page_limit=0)


@pytest.mark.parametrize("kind", ["text", "voice"])
def test_window(call, world, kind):
    convs = conversations(world, kind)
    other, rows = max(convs.items(), key=lambda kv: len(kv[1]))
    number = number_of(world, other)
    name = f"messages_show_{kind}_message_window"
    newest = call(name, phone_number=number, page_limit=20)
    assert [m[f"{kind}_message_id"] for m in newest] == [r[1] for r in rows[:20]]
    oldest = call(name, phone_number=number, pagination_order="ascending", page_limit=2)
    assert [m[f"{kind}_message_id"] for m in oldest] == [r[1] for r in sorted(rows)[:2]]
    pivot = sorted(rows)[len(rows) // 2][0]  # created_at of a middle message
    after = call(name, phone_number=number, min_datetime=pivot.replace("T", "|"), page_limit=20)
    assert after and all(m["created_at"] >= pivot for m in after)
    assert len(after) == sum(1 for r in rows if r[0] >= pivot)
    before = call(name, phone_number=number, max_datetime=pivot, page_limit=20)
    assert all(m["created_at"] <= pivot for m in before)
    assert "no phone user" in call.fail(name, phone_number="1112223333")
    assert "min_datetime" in call.fail(name, phone_number=number, min_datetime="yesterday")
    assert "must not be after" in call.fail(name, phone_number=number, min_datetime="2026-01-02", max_datetime="2026-01-01")
    assert "'pagination_order'" in call.fail(name, phone_number=number, pagination_order="sideways")


@pytest.mark.parametrize("kind", ["text", "voice"])
def test_show_and_delete_only_own_copy(call, world, kind):
    global_table, user_table, fk = KINDS[kind]
    convs = conversations(world, kind)
    copy_id = next(iter(convs.values()))[0][1]
    shown = call(f"messages_show_{kind}_message", **{f"{kind}_message_id": copy_id})
    assert shown[f"{kind}_message_id"] == copy_id and set(shown) >= {"sender", "receiver", "message", "created_at"}
    gid = world.get(user_table, copy_id)[fk]
    call(f"messages_delete_{kind}_message", **{f"{kind}_message_id": copy_id})
    assert world.get(user_table, copy_id) is None and world.get(global_table, gid) is not None
    other_copy = next(c for c in world.rows(user_table) if c[fk] == gid)
    assert other_copy["user_id"] != world.user_id  # the other person keeps theirs
    diff = world.diff()
    assert [c["id"] for c in diff[user_table].deleted] == [copy_id] and global_table not in diff
    arg = {f"{kind}_message_id": copy_id}
    assert "does not exist" in call.fail(f"messages_show_{kind}_message", **arg)
    assert "does not exist" in call.fail(f"messages_delete_{kind}_message", **arg)
    foreign = {f"{kind}_message_id": other_copy["id"]}
    assert "does not exist" in call.fail(f"messages_show_{kind}_message", **foreign)
    assert "does not exist" in call.fail(f"messages_delete_{kind}_message", **foreign)
    assert f"'{kind}_message_id'" in call.fail(f"messages_show_{kind}_message", **{f"{kind}_message_id": "x"})


def test_reading_and_deleting_work_offline(call, world):
    call("set_low_battery_mode_status", on=True)
    assert call("messages_search_text_messages", page_limit=1)
    copy_id = call("messages_search_voice_messages", page_limit=1)[0]["voice_message_id"]
    call("messages_delete_voice_message", voice_message_id=copy_id)
