"""supervisor: the device owner's profile, addresses, payment cards and app passwords."""

from __future__ import annotations

from mmtsb_env.apps.supervisor.tables import ADDRESSES, PAYMENT_CARDS, PROFILES, split_address
from mmtsb_env.world import TABLES, World
from mmtsb_env.world.base import base_world
from mmtsb_env.world.schema import define_table

DOMAIN = "supervisor"


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog(DOMAIN, count=4)
    for tool in ours.values():
        assert tool.writes is False and tool.requires == ()


def test_profile(call, world):
    person = base_world(0).person(world.user_id)
    prof = call("supervisor_show_profile")
    assert prof == {
        "first_name": person.first_name, "last_name": person.last_name, "email": person.email,
        "phone_number": person.phone_number, "birthday": person.birthday,
    }


def test_profile_follows_the_device_owner(world):
    from mmtsb_env.tools.calling import invoke

    other = World(base_world(0).layer, now=world.now, user_id=7)
    out = invoke(other, "supervisor_show_profile", {})
    assert out.ok and out.result["email"] == base_world(0).person(7).email
    missing = World(base_world(0).layer, now=world.now, user_id=500)
    out = invoke(missing, "supervisor_show_profile", {})
    assert not out.ok and out.error_kind == "not_found"
    assert invoke(missing, "supervisor_show_addresses", {}).result == []


def test_addresses(call, world):
    person = base_world(0).person(world.user_id)
    addresses = call("supervisor_show_addresses")
    assert [a["name"] for a in addresses] == ["Home", "Work"]
    home = addresses[0]
    assert person.home_address.startswith(home["street_address"])
    if home["city"]:
        assert f"{home['city']}, {home['state']} {home['zip_code']}" in person.home_address
    assert all(r["user_id"] == world.user_id for r in world.rows(ADDRESSES) if r["id"] in {a["address_id"] for a in addresses})
    world.insert(ADDRESSES, {"id": 9999, "user_id": world.user_id, "name": "Cabin", "street_address": "1 Lake Rd"})
    assert call("supervisor_show_addresses")[-1]["name"] == "Cabin"


def test_split_address():
    assert split_address("12 Main St Apt. 4, Springfield, IL 62704") == {
        "street_address": "12 Main St Apt. 4", "city": "Springfield", "state": "IL", "zip_code": "62704"}
    assert split_address("PSC 9230, Box 2258, APO AA 15864") == {
        "street_address": "PSC 9230, Box 2258", "city": "APO", "state": "AA", "zip_code": "15864"}
    assert split_address("somewhere odd")["street_address"] == "somewhere odd"


def test_payment_cards(call, world):
    cards = call("supervisor_show_payment_cards")
    rows = sorted((r for r in world.rows(PAYMENT_CARDS) if r["user_id"] == world.user_id), key=lambda r: r["id"])
    assert [c["payment_card_id"] for c in cards] == [r["id"] for r in rows] and len(cards) == 3
    person = base_world(0).person(world.user_id)
    for card in cards:
        assert card["owner_name"] == person.full_name and card["card_number"].isdigit()
        assert len(card["card_number"]) in (15, 16) and 1 <= card["expiry_month"] <= 12
        assert len(card["cvv_number"]) in (3, 4)
    assert sum(1 for c in cards if c["expiry_year"] < 2026) == 1  # one expired card to notice
    assert any(r["user_id"] != world.user_id for r in world.rows(PAYMENT_CARDS))


def test_account_passwords_cover_every_online_app(call, world):
    passwords = {p["account_name"]: p["password"] for p in call("supervisor_show_account_passwords")}
    apps = {t.split(".")[0] for t in TABLES if t.endswith(".users") and world.get(t, world.user_id) is not None}
    assert set(passwords) == apps and {"gmail", "phone"} <= apps
    assert passwords["gmail"] == world.get("gmail.users", world.user_id)["password"]
    # They are read at call time: a changed password shows up, a deleted account disappears.
    world.update("gmail.users", world.user_id, password="changed!")
    world.delete("phone.users", world.user_id)
    again = {p["account_name"]: p["password"] for p in call("supervisor_show_account_passwords")}
    assert again["gmail"] == "changed!" and "phone" not in again
    # They log in.
    call("gmail_logout")
    call("gmail_login", username=world.get("gmail.users", world.user_id)["email"], password=again["gmail"])


def test_apps_added_later_are_listed(call, world):
    define_table("latecomer.users", columns={"id": None, "password": ""})
    try:
        world.insert("latecomer.users", {"id": world.user_id, "password": "late-pw"})
        passwords = {p["account_name"]: p["password"] for p in call("supervisor_show_account_passwords")}
        assert passwords["latecomer"] == "late-pw"
    finally:
        TABLES.pop("latecomer.users", None)


def test_profile_table_for_every_person(world):
    assert world.count(PROFILES) == 120
