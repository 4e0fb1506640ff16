"""contacts: the owner's contact book (phone.contacts), every tool with success and error paths."""

from __future__ import annotations

from collections import Counter

from mmtsb_env.apps.phone.tables import CONTACTS, USERS

DOMAIN = "contacts"
WRITERS = {"contacts_add_contact", "contacts_update_contact", "contacts_delete_contact"}


def mine(world):
    return [r for r in world.rows(CONTACTS) if r["user_id"] == world.user_id]


def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog(DOMAIN, count=6)
    for name, tool in ours.items():
        assert tool.requires == ()
        assert tool.writes == (name in WRITERS)


def test_base_contact_book(world):
    rows = mine(world)
    assert 70 <= len(rows) <= 90
    firsts = Counter(r["first_name"] for r in rows)
    assert any(n >= 2 for n in firsts.values())
    rels = Counter(rel for r in rows for rel in r["relationships"])
    assert rels["friend"] > 10 and rels["coworker"] > 10 and rels["manager"] == 1 and rels["parent"] == 2
    # Contacts are real phone users with the same numbers.
    numbers = {u["phone_number"] for u in world.rows(USERS)}
    assert all(r["phone_number"] in numbers for r in rows)
    assert any(r["user_id"] != world.user_id for r in world.rows(CONTACTS))


def test_show_relationships(call, world):
    rels = call("contacts_show_contact_relationships")
    assert rels == sorted({rel for r in mine(world) for rel in r["relationships"]})
    assert {"friend", "coworker", "sibling", "parent", "manager"} <= set(rels)
    cid = call("contacts_add_contact", first_name="Zed", last_name="Q", email="zed@example.com", relationships=["Yoga Buddy"])["contact_id"]
    assert "yoga buddy" in call("contacts_show_contact_relationships")
    call("contacts_delete_contact", contact_id=cid)
    assert "yoga buddy" not in call("contacts_show_contact_relationships")


def test_search_by_name_relationship_and_number(call, world):
    rows = mine(world)
    twin = next(name for name, n in Counter(r["first_name"] for r in rows).items() if n >= 2)
    hits = call("contacts_search_contacts", query=twin, page_limit=20)
    exact = [h for h in hits if h["first_name"] == twin]
    assert len(exact) >= 2 and hits[: len(exact)] == exact  # whole-name matches first
    manager = call("contacts_search_contacts", relationship="manager")
    assert len(manager) == 1 and "manager" in manager[0]["relationships"]
    siblings = call("contacts_search_contacts", relationship="Sibling", page_limit=20)
    assert siblings and all("sibling" in h["relationships"] for h in siblings)
    target = rows[3]
    number = target["phone_number"]
    formatted = f"+1 ({number[:3]}) {number[3:6]}-{number[6:]}"
    assert call("contacts_search_contacts", query=formatted)[0]["contact_id"] == target["id"]
    assert call("contacts_search_contacts", query=target["email"])[0]["contact_id"] == target["id"]
    everyone = [c for i in range(5) for c in call("contacts_search_contacts", page_index=i, page_limit=20)]
    assert len(everyone) == len(rows) and {c["contact_id"] for c in everyone} == {r["id"] for r in rows}
    assert call("contacts_search_contacts", query="zzzzqqq") == []
    assert call("contacts_search_contacts", relationship="astronaut") == []
    assert "page_limit" in call.fail("contacts_search_contacts", page_limit=21)
    assert "page_index" in call.fail("contacts_search_contacts", page_index=-1)
    assert "'relationship'" in call.fail("contacts_search_contacts", relationship=5)


def test_add_contact(call, world):
    out = call(
        "contacts_add_contact", first_name=" Alice ", last_name="Carter", email="alice.carter@example.com",
        phone_number="555-0101", relationships=["Archivist", "archivist", "friend"], birthday="1990-02-03",
        home_address="1 Main St", work_address="2 Work Rd",
    )
    row = world.get(CONTACTS, out["contact_id"])
    assert row["user_id"] == world.user_id and row["first_name"] == "Alice"
    assert row["relationships"] == ["archivist", "friend"] and row["birthday"] == "1990-02-03"
    assert row["created_at"] == "2026-04-16T23:51:15" and row["phone_number"] == "555-0101"
    assert [r["id"] for r in world.diff()[CONTACTS].created] == [out["contact_id"]]
    minimal = call("contacts_add_contact", first_name="Bo", last_name="", email="bo@example.com")
    assert world.get(CONTACTS, minimal["contact_id"])["relationships"] == []


def test_add_contact_without_an_email(call, world):
    """The email parameter is required (as the reference's is) but may be "": a business known only by
    its number or address. Such contacts do not clash with each other; a non-empty email is still checked."""
    a = call("contacts_add_contact", first_name="Black Oak", last_name="Casino", email="", phone_number="1-877-747-8777")
    b = call("contacts_add_contact", first_name="G-House", last_name="Studio", email=" ", work_address="172-20 JAMAICA AVE")
    assert [world.get(CONTACTS, x["contact_id"])["email"] for x in (a, b)] == ["", ""]
    assert "valid email" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email="casino")


def test_add_contact_errors(call, world):
    existing = mine(world)[0]
    assert "already exists" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email=existing["email"].upper())
    assert "valid email" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email="not-an-email")
    assert "birthday" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email="x@y.com", birthday="03/02/1990")
    assert "phone number" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email="x@y.com", phone_number="12")
    assert "first_name" in call.fail("contacts_add_contact", first_name=" ", last_name="Y", email="x@y.com")
    assert "missing required" in call.fail("contacts_add_contact", first_name="X", last_name="Y")
    assert "empty strings" in call.fail("contacts_add_contact", first_name="X", last_name="Y", email="x@y.com", relationships=[" "])
    # Another user's book does not count for uniqueness.
    others = next(r for r in world.rows(CONTACTS) if r["user_id"] != world.user_id
                  and all((m["email"] or "").lower() != (r["email"] or "").lower() for m in mine(world)))
    call("contacts_add_contact", first_name="X", last_name="Y", email=others["email"])


def test_update_contact(call, world):
    row = mine(world)[0]
    out = call("contacts_update_contact", contact_id=row["id"], relationships=["Sibling"], birthday="1985-07-09",
               phone_number="(555) 123-4567", email="new.mail@example.com", home_address="9 Elm St",
               work_address="10 Oak Ave", first_name="Renamed", last_name="Person")
    after = world.get(CONTACTS, row["id"])
    assert after["relationships"] == ["sibling"] and after["birthday"] == "1985-07-09"
    assert after["email"] == "new.mail@example.com" and after["first_name"] == "Renamed"
    assert out["contact"]["contact_id"] == row["id"] and out["contact"]["home_address"] == "9 Elm St"
    # Keeping one's own email is not a conflict.
    call("contacts_update_contact", contact_id=row["id"], email="NEW.mail@example.com")
    assert world.get(CONTACTS, row["id"])["created_at"] == row["created_at"]


def test_update_contact_errors(call, world):
    a, b = mine(world)[:2]
    other = next(r for r in world.rows(CONTACTS) if r["user_id"] != world.user_id)
    assert "does not exist" in call.fail("contacts_update_contact", contact_id=other["id"], first_name="X")
    assert "does not exist" in call.fail("contacts_update_contact", contact_id=10**6, first_name="X")
    assert "nothing to update" in call.fail("contacts_update_contact", contact_id=a["id"])
    assert "another contact" in call.fail("contacts_update_contact", contact_id=a["id"], email=b["email"])
    assert "birthday" in call.fail("contacts_update_contact", contact_id=a["id"], birthday="tomorrow")
    assert "valid email" in call.fail("contacts_update_contact", contact_id=a["id"], email="nope")
    assert "first_name" in call.fail("contacts_update_contact", contact_id=a["id"], first_name="")
    assert "'contact_id'" in call.fail("contacts_update_contact", contact_id="one", first_name="X")


def test_delete_contact(call, world):
    row = mine(world)[5]
    call("contacts_delete_contact", contact_id=row["id"])
    assert world.get(CONTACTS, row["id"]) is None
    assert [r["id"] for r in world.diff()[CONTACTS].deleted] == [row["id"]]
    assert "does not exist" in call.fail("contacts_delete_contact", contact_id=row["id"])
    other = next(r for r in world.rows(CONTACTS) if r["user_id"] != world.user_id)
    assert "does not exist" in call.fail("contacts_delete_contact", contact_id=other["id"])


def test_show_profile(call, world):
    me = call("contacts_show_profile")
    assert me["id"] == world.user_id and "password" not in me
    target = mine(world)[2]
    number = target["phone_number"]
    prof = call("contacts_show_profile", phone_number=f"{number[:3]}-{number[3:6]}-{number[6:]}")
    assert prof["first_name"] == target["first_name"] and prof["phone_number"] == number and "password" not in prof
    assert "no phone user" in call.fail("contacts_show_profile", phone_number="000-000-0000")
    call("phone_delete_account")
    assert "no phone account" in call.fail("contacts_show_profile")


def test_contacts_work_offline(call, world):
    call("set_low_battery_mode_status", on=True)
    assert call("contacts_search_contacts", page_limit=1)
    call("contacts_add_contact", first_name="Off", last_name="Line", email="off@line.com")
