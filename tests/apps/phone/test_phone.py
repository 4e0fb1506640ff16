"""phone: the 8 account tools (identity = phone number) and the shared phone tables."""

from __future__ import annotations

from mmtsb_env.apps._accounts import CODES, SESSIONS
from mmtsb_env.apps.phone.tables import CONTACTS, GLOBAL_TEXTS, USERS, find_phone_user, full_name, phone_digits
from mmtsb_env.world import TABLES

DOMAIN = "phone"


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog(DOMAIN, count=8)
    assert ours["phone_show_account"].writes is False and ours["phone_login"].writes is True
    assert "login:phone" in ours["phone_logout"].requires and "login:phone" not in ours["phone_login"].requires


def test_tables_follow_reference_names():
    assert set(TABLES[CONTACTS].columns) >= {
        "id", "user_id", "first_name", "last_name", "email", "phone_number", "relationships", "birthday",
        "home_address", "work_address", "created_at",
    }
    assert list(TABLES[GLOBAL_TEXTS].columns) == ["id", "sender_id", "receiver_id", "message", "created_at"]
    assert list(TABLES["phone.user_text_messages"].columns) == ["id", "user_id", "global_text_message_id", "created_at"]
    assert list(TABLES["phone.user_voice_messages"].columns) == ["id", "user_id", "global_voice_message_id", "created_at"]


def test_number_helpers(world):
    assert phone_digits("+1 (555) 010-1234") == "5550101234" and phone_digits(None) == ""
    me = world.get(USERS, world.user_id)
    n = me["phone_number"]
    assert find_phone_user(world, f"{n[:3]}.{n[3:6]}.{n[6:]}")["id"] == world.user_id
    assert find_phone_user(world, "") is None and find_phone_user(world, "999") is None
    assert full_name(me) == f"{me['first_name']} {me['last_name']}" and full_name(None) == "Unknown"


def test_show_account_and_update_name(call, world):
    acct = call("phone_show_account")
    assert acct["id"] == world.user_id and "password" not in acct and acct["phone_number"]
    call("phone_update_account_name", first_name="Meg")
    assert world.get(USERS, world.user_id)["first_name"] == "Meg"
    assert "give first_name" in call.fail("phone_update_account_name")


def test_login_logout(call, world):
    me = world.get(USERS, world.user_id)
    call("phone_logout")
    assert world.get(SESSIONS, "phone")["logged_in"] is False
    assert "not logged in" in call.fail("phone_show_account")
    assert "not logged in" in call.fail("phone_logout")
    assert "invalid username or password" in call.fail("phone_login", username=me["phone_number"], password="wrong")
    assert "invalid username or password" in call.fail("phone_login", username=me["email"], password=me["password"])
    call("phone_login", username=me["phone_number"], password=me["password"])
    assert world.get(SESSIONS, "phone")["logged_in"] is True
    assert world.get(USERS, world.user_id)["last_logged_in"] == "2026-04-16T23:51:15"


def test_signup(call, world):
    out = call("phone_signup", first_name="Nia", last_name="Lopez", phone_number="5550199999", password="secret1")
    row = world.get(USERS, out["user_id"])
    assert row["phone_number"] == "5550199999" and row["verified"] is False and row["email"] is None
    taken = world.get(USERS, 2)["phone_number"]
    assert "already exists" in call.fail("phone_signup", first_name="A", last_name="B", phone_number=taken, password="secret1")
    assert "at least 6" in call.fail("phone_signup", first_name="A", last_name="B", phone_number="5550100000", password="123")


def test_password_reset(call, world):
    me = world.get(USERS, world.user_id)
    call("phone_send_password_reset_code", phone_number=me["phone_number"])
    code = next(r for r in world.rows(CODES) if r["app"] == "phone" and r["identity"] == me["phone_number"])["code"]
    assert "invalid or expired" in call.fail(
        "phone_reset_password", phone_number=me["phone_number"], password_reset_code="000000", new_password="newpass1")
    assert "at least 6" in call.fail(
        "phone_reset_password", phone_number=me["phone_number"], password_reset_code=code, new_password="x")
    call("phone_reset_password", phone_number=me["phone_number"], password_reset_code=code, new_password="newpass1")
    assert world.get(USERS, world.user_id)["password"] == "newpass1"
    assert "invalid or expired" in call.fail(
        "phone_reset_password", phone_number=me["phone_number"], password_reset_code=code, new_password="again12")
    assert "no account" in call.fail("phone_send_password_reset_code", phone_number="0000000000")


def test_delete_account_stops_texting(call, world):
    friend = next(r for r in world.rows(CONTACTS) if r["user_id"] == world.user_id)
    call("phone_delete_account")
    assert world.get(USERS, world.user_id) is None
    assert "not logged in" in call.fail("phone_show_account")
    assert "phone account does not exist" in call.fail(
        "messages_send_text_message", phone_number=friend["phone_number"], message="hi")


def test_account_tools_need_network(call):
    call.go_offline()
    assert "no network" in call.fail("phone_show_account")
