"""venmo: every tool, success and error paths, checked against the world's tables."""

from __future__ import annotations

import pytest

from mmtsb_env.apps.venmo.tables import (
    BANK_TRANSFERS, CARDS, COMMENT_LIKES, COMMENTS, FRIENDSHIPS, NOTIFICATIONS, REQUESTS, TRANSACTION_LIKES,
    TRANSACTIONS, USERS, friend_ids,
)
from mmtsb_env.world.base import base_world


# ---------------------------------------------------------------------------- helpers
def owner(world):
    return world.get(USERS, world.user_id)


def email(world, user_id):
    return world.get(USERS, user_id)["email"]


def a_friend(world):
    return min(friend_ids(world, world.user_id))


def a_stranger(world):
    friends = friend_ids(world, world.user_id)
    return next(r["id"] for r in world.rows(USERS) if r["id"] not in friends and r["id"] != world.user_id)


def others_tx(world, private):
    uid = world.user_id
    return next(t for t in world.rows(TRANSACTIONS)
                if t["private"] is private and uid not in (t["sender_id"], t["receiver_id"]))


def my_tx(world, direction="sent", private=None):
    col = "sender_id" if direction == "sent" else "receiver_id"
    return next(t for t in world.rows(TRANSACTIONS)
                if t[col] == world.user_id and (private is None or t["private"] is private))


def my_cards(world):
    return sorted((c for c in world.rows(CARDS) if c["user_id"] == world.user_id), key=lambda c: c["id"])


def valid_card(world):
    return next(c for c in my_cards(world) if c["expiry_year"] >= 2027)


def expired_card(world):
    return next(c for c in my_cards(world) if c["expiry_year"] < 2026)


def request_row(world, *, sent: bool, status: str):
    col = "sender_id" if sent else "receiver_id"
    return next(r for r in world.rows(REQUESTS) if r[col] == world.user_id and r["status"] == status)


def created(world, table):
    d = world.diff().get(table)
    return d.created if d else []


# ---------------------------------------------------------------------------- catalog and base data
def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("venmo", count=54)
    logged_out = {"venmo_signup", "venmo_login", "venmo_send_verification_code", "venmo_verify_account",
                  "venmo_send_password_reset_code", "venmo_reset_password"}
    for name, t in ours.items():
        assert ("login:venmo" in t.requires) == (name not in logged_out), name
        assert "network" in t.requires


def test_base_world_is_rich(world):
    bw = base_world(0)
    uid = world.user_id
    friends = friend_ids(world, uid)
    assert len(friends) >= 40
    namesakes = bw.shared["venmo.namesake_friend_ids"]
    assert len(namesakes) == 2 and set(namesakes) <= friends
    assert len({world.get(USERS, i)["first_name"] for i in namesakes}) == 1
    txs = list(world.rows(TRANSACTIONS))
    assert len(txs) >= 400
    assert sum(uid in (t["sender_id"], t["receiver_id"]) for t in txs) >= 200
    assert any(not t["description"].isascii() for t in txs)  # emoji
    assert any(t["private"] for t in txs) and any(not t["private"] for t in txs)
    reqs = list(world.rows(REQUESTS))
    for col in ("sender_id", "receiver_id"):
        assert {r["status"] for r in reqs if r[col] == uid} == {"pending", "approved", "denied"}
    for r in reqs:
        if r["status"] == "approved":
            tx = world.get(TRANSACTIONS, r["transaction_id"])
            assert (tx["sender_id"], tx["receiver_id"], tx["amount"]) == (r["receiver_id"], r["sender_id"], r["amount"])
    assert owner(world)["venmo_balance"] > 0
    assert world.count(NOTIFICATIONS, user_id=uid, read=False) > 0
    assert world.count(BANK_TRANSFERS, user_id=uid) >= 10
    assert world.count(COMMENTS) >= 150 and world.count(TRANSACTION_LIKES) >= 200


def test_populate_is_deterministic():
    from mmtsb_env.world.base import _cache
    bw = base_world(0)
    saved = _cache.pop(0)
    try:
        again = base_world(0)
        for table in (TRANSACTIONS, REQUESTS, FRIENDSHIPS, CARDS, NOTIFICATIONS):
            assert again.layer.tables[table] == bw.layer.tables[table]
    finally:
        _cache[0] = saved


# ---------------------------------------------------------------------------- account tools
def test_account_tools(call, world):
    me = call("venmo_show_account")
    assert me["venmo_balance"] == owner(world)["venmo_balance"] and "password" not in me
    call("venmo_update_account_name", last_name="Newname")
    assert owner(world)["last_name"] == "Newname"
    assert "give first_name" in call.fail("venmo_update_account_name")
    call("venmo_logout")
    assert "not logged in" in call.fail("venmo_show_account")
    assert "invalid username or password" in call.fail("venmo_login", username=me["email"], password="wrong!")
    call("venmo_login", username=me["email"], password=owner(world)["password"])
    assert call("venmo_show_account")["id"] == world.user_id

    new = call("venmo_signup", first_name="Zed", last_name="Quinn", email="zed.quinn@example.com", password="secret12")
    row = world.get(USERS, new["user_id"])
    assert row["venmo_balance"] == 0.0 and row["verified"] is False
    assert "already exists" in call.fail("venmo_signup", first_name="Z", last_name="Q", email="zed.quinn@example.com",
                                         password="secret12")
    call("venmo_send_verification_code", email="zed.quinn@example.com")
    code = next(r for r in world.rows("device.verification_codes") if r["identity"] == "zed.quinn@example.com")["code"]
    assert "invalid or expired" in call.fail("venmo_verify_account", email="zed.quinn@example.com", verification_code="000000")
    call("venmo_verify_account", email="zed.quinn@example.com", verification_code=code)
    assert world.get(USERS, new["user_id"])["verified"] is True
    assert "no account" in call.fail("venmo_send_password_reset_code", email="nobody@example.com")
    call("venmo_send_password_reset_code", email="zed.quinn@example.com")
    code = [r for r in world.rows("device.verification_codes") if r["purpose"] == "password_reset"][-1]["code"]
    call("venmo_reset_password", email="zed.quinn@example.com", password_reset_code=code, new_password="another1")
    assert world.get(USERS, new["user_id"])["password"] == "another1"

    # Acting as the new account: its balance starts empty; then delete it.
    call("venmo_login", username="zed.quinn@example.com", password="another1")
    assert call("venmo_show_venmo_balance") == {"venmo_balance": 0.0}
    assert "insufficient balance" in call.fail("venmo_create_transaction", receiver_email=me["email"], amount=1.0)
    call("venmo_delete_account")
    assert world.get(USERS, new["user_id"]) is None
    assert "not logged in" in call.fail("venmo_show_venmo_balance")


def test_needs_network_and_login(call):
    call.go_offline()
    assert "no network" in call.fail("venmo_show_venmo_balance")
    call("set_wifi_status", on=True)
    call("venmo_logout")
    assert "not logged in" in call.fail("venmo_show_transactions")


# ---------------------------------------------------------------------------- profiles, users, friends
def test_show_profile_with_friendship(call, world):
    mine = call("venmo_show_profile")
    assert mine["id"] == world.user_id and "is_friend" not in mine and "password" not in mine
    friend = call("venmo_show_profile", email=email(world, a_friend(world)))
    assert friend["is_friend"] is True and friend["friends_since"]
    stranger = call("venmo_show_profile", email=email(world, a_stranger(world)))
    assert stranger["is_friend"] is False and stranger["friends_since"] is None
    assert "no Venmo user" in call.fail("venmo_show_profile", email="ghost@example.com")


def test_search_users(call, world):
    target = world.get(USERS, a_stranger(world))
    hits = call("venmo_search_users", query=f"{target['first_name']} {target['last_name']}")
    assert hits[0]["id"] == target["id"] and hits[0]["is_friend"] is False
    everyone = [u for i in range(10) for u in call("venmo_search_users", page_index=i, page_limit=20)]
    assert len(everyone) == world.count(USERS) - 1 and world.user_id not in {u["id"] for u in everyone}
    assert "page_limit" in call.fail("venmo_search_users", page_limit=50)


def test_search_friends(call, world):
    bw = base_world(0)
    mine = [u for i in range(5) for u in call("venmo_search_friends", page_index=i, page_limit=20)]
    assert {u["id"] for u in mine} == friend_ids(world, world.user_id)
    assert all(u["is_friend"] for u in mine)
    a, b = bw.shared["venmo.namesake_friend_ids"]
    first = world.get(USERS, a)["first_name"]
    hits = call("venmo_search_friends", query=first, page_limit=20)
    assert {a, b} <= {u["id"] for u in hits}
    friend = a_friend(world)
    theirs = call("venmo_search_friends", user_email=email(world, friend), page_limit=20)
    assert world.user_id in {u["id"] for u in theirs}
    assert {u["id"] for u in theirs} <= friend_ids(world, friend)
    assert "no Venmo user" in call.fail("venmo_search_friends", user_email="ghost@example.com")


def test_add_and_remove_friend(call, world):
    stranger = a_stranger(world)
    call("venmo_add_friend", user_email=email(world, stranger))
    assert stranger in friend_ids(world, world.user_id)
    assert [n["type"] for n in created(world, NOTIFICATIONS)] == ["friend_added"]
    assert created(world, NOTIFICATIONS)[0]["user_id"] == stranger
    assert "already your friend" in call.fail("venmo_add_friend", user_email=email(world, stranger))
    assert "yourself" in call.fail("venmo_add_friend", user_email=owner(world)["email"])
    assert "no Venmo user" in call.fail("venmo_add_friend", user_email="ghost@example.com")

    friend = a_friend(world)
    call("venmo_remove_friend", user_email=email(world, friend))
    assert friend not in friend_ids(world, world.user_id)
    assert "not your friend" in call.fail("venmo_remove_friend", user_email=email(world, friend))
    assert "no Venmo user" in call.fail("venmo_remove_friend", user_email="ghost@example.com")


# ---------------------------------------------------------------------------- balance, cards, bank transfers
def test_add_to_balance_moves_money_from_card(call, world):
    card = valid_card(world)
    before = owner(world)["venmo_balance"]
    out = call("venmo_add_to_venmo_balance", amount=100.25, payment_card_id=card["id"])
    assert owner(world)["venmo_balance"] == round(before + 100.25, 2) == out["venmo_balance"]
    assert world.get(CARDS, card["id"])["available_balance"] == round(card["available_balance"] - 100.25, 2)
    transfer = world.get(BANK_TRANSFERS, out["bank_transfer_id"])
    assert transfer["transfer_type"] == "card_to_venmo" and transfer["amount"] == 100.25
    assert transfer["payment_card_digits"] == str(card["card_number"])[-4:]
    assert call("venmo_show_venmo_balance") == {"venmo_balance": out["venmo_balance"]}


def test_add_to_balance_errors(call, world):
    card = valid_card(world)
    assert "expired" in call.fail("venmo_add_to_venmo_balance", amount=10.0, payment_card_id=expired_card(world)["id"])
    other = next(c for c in world.rows(CARDS) if c["user_id"] != world.user_id)
    assert "does not exist" in call.fail("venmo_add_to_venmo_balance", amount=10.0, payment_card_id=other["id"])
    assert "positive" in call.fail("venmo_add_to_venmo_balance", amount=-5.0, payment_card_id=card["id"])
    assert "two decimal" in call.fail("venmo_add_to_venmo_balance", amount=1.005, payment_card_id=card["id"])
    assert "declined" in call.fail("venmo_add_to_venmo_balance", amount=card["available_balance"] + 1,
                                   payment_card_id=card["id"])
    assert "'amount'" in call.fail("venmo_add_to_venmo_balance", amount="ten", payment_card_id=card["id"])


def test_withdraw_from_balance(call, world):
    card = valid_card(world)
    before = owner(world)["venmo_balance"]
    out = call("venmo_withdraw_from_venmo_balance", amount=84.63, payment_card_id=card["id"])
    assert owner(world)["venmo_balance"] == round(before - 84.63, 2)
    assert world.get(CARDS, card["id"])["available_balance"] == round(card["available_balance"] + 84.63, 2)
    assert world.get(BANK_TRANSFERS, out["bank_transfer_id"])["transfer_type"] == "venmo_to_card"
    assert "insufficient balance" in call.fail("venmo_withdraw_from_venmo_balance", amount=before + 1000,
                                               payment_card_id=card["id"])
    assert "expired" in call.fail("venmo_withdraw_from_venmo_balance", amount=1.0,
                                  payment_card_id=expired_card(world)["id"])
    assert "does not exist" in call.fail("venmo_withdraw_from_venmo_balance", amount=1.0, payment_card_id=10**6)
    assert "positive" in call.fail("venmo_withdraw_from_venmo_balance", amount=0.0, payment_card_id=card["id"])


def test_bank_transfer_history(call, world):
    uid = world.user_id
    mine = sorted((r for r in world.rows(BANK_TRANSFERS) if r["user_id"] == uid),
                  key=lambda r: (r["created_at"], r["id"]), reverse=True)
    assert [r["id"] for r in call("venmo_show_bank_transfer_history", page_limit=20)] == [r["id"] for r in mine[:20]]
    adds = call("venmo_show_bank_transfer_history", transfer_type="card_to_venmo", page_limit=20)
    assert adds and {r["transfer_type"] for r in adds} == {"card_to_venmo"}
    assert len(adds) == sum(r["transfer_type"] == "card_to_venmo" for r in mine)
    out = call("venmo_add_to_venmo_balance", amount=5.0, payment_card_id=valid_card(world)["id"])
    assert call("venmo_show_bank_transfer_history", page_limit=1)[0]["id"] == out["bank_transfer_id"]
    assert "'transfer_type'" in call.fail("venmo_show_bank_transfer_history", transfer_type="sideways")
    assert "page_index" in call.fail("venmo_show_bank_transfer_history", page_index=-1)


def test_download_bank_transfer_receipt(call, world):
    uid = world.user_id
    transfer = next(r for r in world.rows(BANK_TRANSFERS) if r["user_id"] == uid)
    out = call("venmo_download_bank_transfer_receipt", bank_transfer_id=transfer["id"], file_system_access_token="t")
    files = created(world, "file_system.files")
    assert [f["path"] for f in files] == [out["file_path"]] and out["file_path"].endswith(".txt")
    assert f"${transfer['amount']:,.2f}" in files[0]["content"]
    assert world.get(BANK_TRANSFERS, transfer["id"])["receipt_download_count"] == 1
    path = "~/receipts/transfer.txt"
    call("venmo_download_bank_transfer_receipt", bank_transfer_id=transfer["id"], file_system_access_token="t",
         download_to_file_path=path)
    assert "already exists" in call.fail("venmo_download_bank_transfer_receipt", bank_transfer_id=transfer["id"],
                                         file_system_access_token="t", download_to_file_path=path)
    call("venmo_download_bank_transfer_receipt", bank_transfer_id=transfer["id"], file_system_access_token="t",
         download_to_file_path=path, overwrite=True)
    other = next(r for r in world.rows(BANK_TRANSFERS) if r["user_id"] != uid)
    assert "does not exist" in call.fail("venmo_download_bank_transfer_receipt", bank_transfer_id=other["id"],
                                         file_system_access_token="t")
    assert "file_system_access_token" in call.fail("venmo_download_bank_transfer_receipt",
                                                   bank_transfer_id=transfer["id"], file_system_access_token=" ")
    call("file_system_logout")
    assert "not logged in to file_system" in call.fail("venmo_download_bank_transfer_receipt",
                                                       bank_transfer_id=transfer["id"], file_system_access_token="t")


def test_payment_cards(call, world):
    cards = call("venmo_show_payment_cards")
    assert [c["id"] for c in cards] == [c["id"] for c in my_cards(world)]
    assert [c["expired"] for c in cards].count(True) == 1
    one = call("venmo_show_payment_card", payment_card_id=cards[0]["id"])
    assert one["card_number"] == cards[0]["card_number"] and one["cvv_number"] == cards[0]["cvv_number"]
    other = next(c for c in world.rows(CARDS) if c["user_id"] != world.user_id)
    assert "does not exist" in call.fail("venmo_show_payment_card", payment_card_id=other["id"])

    call("venmo_update_payment_card", payment_card_id=cards[0]["id"], card_name="Everyday Visa")
    assert world.get(CARDS, cards[0]["id"])["card_name"] == "Everyday Visa"
    assert "must not be empty" in call.fail("venmo_update_payment_card", payment_card_id=cards[0]["id"], card_name=" ")
    assert "does not exist" in call.fail("venmo_update_payment_card", payment_card_id=other["id"], card_name="x")

    call("venmo_delete_payment_card", payment_card_id=cards[0]["id"])
    assert world.get(CARDS, cards[0]["id"]) is None
    assert "does not exist" in call.fail("venmo_delete_payment_card", payment_card_id=cards[0]["id"])
    assert "does not exist" in call.fail("venmo_delete_payment_card", payment_card_id=other["id"])


def test_add_payment_card(call, world):
    good = dict(card_name="Travel Card", owner_name="Me", card_number=4111111111111111, expiry_year=2029,
                expiry_month=6, cvv_number=123)
    out = call("venmo_add_payment_card", **good)
    row = world.get(CARDS, out["payment_card_id"])
    assert row["user_id"] == world.user_id and row["card_number"] == 4111111111111111
    assert row["available_balance"] > 0 and row["created_at"] == "2026-04-16T23:51:15"
    assert "already saved" in call.fail("venmo_add_payment_card", **good)
    assert "expiry_month" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                                    "expiry_month": 13})
    assert "expired" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                               "expiry_year": 2026, "expiry_month": 3})
    assert "13 to 19 digits" in call.fail("venmo_add_payment_card", **{**good, "card_number": 1234})
    assert "cvv_number" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                                  "cvv_number": 123456})
    assert "card_name" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                                 "card_name": ""})
    assert "owner_name" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                                  "owner_name": " "})
    assert "four-digit" in call.fail("venmo_add_payment_card", **{**good, "card_number": 4222222222222222,
                                                                  "expiry_year": 29})
    # The new card works for payments.
    call("venmo_add_to_venmo_balance", amount=20.0, payment_card_id=out["payment_card_id"])


# ---------------------------------------------------------------------------- transactions
def test_send_money_from_balance(call, world):
    friend = a_friend(world)
    me_before, friend_before = owner(world)["venmo_balance"], world.get(USERS, friend)["venmo_balance"]
    out = call("venmo_create_transaction", receiver_email=email(world, friend), amount=42.5,
               description="🍕 pizza night", private=True)
    tx = world.get(TRANSACTIONS, out["transaction_id"])
    assert (tx["sender_id"], tx["receiver_id"], tx["amount"], tx["private"], tx["payment_card_id"]) == \
        (world.user_id, friend, 42.5, True, None)
    assert owner(world)["venmo_balance"] == round(me_before - 42.5, 2) == out["venmo_balance"]
    assert world.get(USERS, friend)["venmo_balance"] == round(friend_before + 42.5, 2)
    [note] = created(world, NOTIFICATIONS)
    assert note["user_id"] == friend and note["type"] == "transaction_received"
    assert note["data"] == {"transaction_id": tx["id"]}


def test_send_money_with_card_leaves_balance(call, world):
    friend, card = a_friend(world), valid_card(world)
    me_before = owner(world)["venmo_balance"]
    amount = me_before + 500  # more than the balance: the card pays
    out = call("venmo_create_transaction", receiver_email=email(world, friend), amount=round(amount, 2),
               payment_card_id=card["id"])
    assert owner(world)["venmo_balance"] == me_before
    assert world.get(CARDS, card["id"])["available_balance"] == round(card["available_balance"] - round(amount, 2), 2)
    assert world.get(TRANSACTIONS, out["transaction_id"])["payment_card_id"] == card["id"]


def test_send_money_errors(call, world):
    friend_email = email(world, a_friend(world))
    balance = owner(world)["venmo_balance"]
    assert "insufficient balance" in call.fail("venmo_create_transaction", receiver_email=friend_email,
                                               amount=balance + 0.01)
    assert "yourself" in call.fail("venmo_create_transaction", receiver_email=owner(world)["email"], amount=1.0)
    assert "no Venmo user" in call.fail("venmo_create_transaction", receiver_email="ghost@example.com", amount=1.0)
    assert "positive" in call.fail("venmo_create_transaction", receiver_email=friend_email, amount=-1.0)
    assert "expired" in call.fail("venmo_create_transaction", receiver_email=friend_email, amount=1.0,
                                  payment_card_id=expired_card(world)["id"])
    assert "declined" in call.fail("venmo_create_transaction", receiver_email=friend_email, amount=10**6,
                                   payment_card_id=valid_card(world)["id"])
    assert "missing required" in call.fail("venmo_create_transaction", receiver_email=friend_email)


def test_show_transaction_respects_privacy(call, world):
    private_mine = my_tx(world, "received", private=True)
    shown = call("venmo_show_transaction", transaction_id=private_mine["id"])
    assert shown["direction"] == "received" and shown["amount"] == private_mine["amount"]
    assert shown["like_count"] == world.count(TRANSACTION_LIKES, transaction_id=private_mine["id"])
    assert shown["comment_count"] == world.count(COMMENTS, transaction_id=private_mine["id"])
    assert "payment_card_id" not in shown
    sent = call("venmo_show_transaction", transaction_id=my_tx(world, "sent")["id"])
    assert sent["direction"] == "sent" and sent["payment_method"] in ("venmo_balance", "payment_card")
    public_other = others_tx(world, private=False)
    assert "direction" not in call("venmo_show_transaction", transaction_id=public_other["id"])
    assert "does not exist" in call.fail("venmo_show_transaction", transaction_id=others_tx(world, private=True)["id"])
    assert "does not exist" in call.fail("venmo_show_transaction", transaction_id=10**6)


def test_update_transaction(call, world):
    tx = my_tx(world, "sent", private=False)
    call("venmo_update_transaction", transaction_id=tx["id"], description="rent 🏠 - April", private=True)
    row = world.get(TRANSACTIONS, tx["id"])
    assert row["description"] == "rent 🏠 - April" and row["private"] is True
    assert row["updated_at"] == "2026-04-16T23:51:15" and row["created_at"] == tx["created_at"]
    assert "nothing to update" in call.fail("venmo_update_transaction", transaction_id=tx["id"])
    received = my_tx(world, "received")
    assert "only the sender" in call.fail("venmo_update_transaction", transaction_id=received["id"], private=True)
    assert "only the sender" in call.fail("venmo_update_transaction", transaction_id=others_tx(world, False)["id"],
                                          description="x")
    assert "does not exist" in call.fail("venmo_update_transaction", transaction_id=others_tx(world, True)["id"],
                                         description="x")


def _mine(world):
    uid = world.user_id
    return [t for t in world.rows(TRANSACTIONS) if uid in (t["sender_id"], t["receiver_id"])]


def _all_pages(call, **kwargs):
    out = []
    for i in range(100):
        page = call("venmo_show_transactions", page_index=i, page_limit=20, **kwargs)
        out.extend(page)
        if len(page) < 20:
            return out
    raise AssertionError("too many pages")


def test_show_transactions_default_and_filters(call, world):
    uid = world.user_id
    mine = sorted(_mine(world), key=lambda t: (t["created_at"], t["id"]), reverse=True)
    first = call("venmo_show_transactions")
    assert [t["id"] for t in first] == [t["id"] for t in mine[:5]]

    sent = _all_pages(call, direction="sent")
    assert {t["id"] for t in sent} == {t["id"] for t in mine if t["sender_id"] == uid}
    received = _all_pages(call, direction="received")
    assert {t["id"] for t in received} == {t["id"] for t in mine if t["receiver_id"] == uid}

    friend = a_friend(world)
    with_friend = _all_pages(call, user_email=email(world, friend))
    assert {t["id"] for t in with_friend} == {t["id"] for t in mine if friend in (t["sender_id"], t["receiver_id"])}

    ranged = _all_pages(call, min_amount=50, max_amount=100)
    assert {t["id"] for t in ranged} == {t["id"] for t in mine if 50 <= t["amount"] <= 100}
    private = _all_pages(call, private=True)
    assert {t["id"] for t in private} == {t["id"] for t in mine if t["private"]}

    dated = _all_pages(call, min_created_at="2025-10-01", max_created_at="2025-12-31")
    assert dated and {t["id"] for t in dated} == {
        t["id"] for t in mine if "2025-10-01" <= t["created_at"] <= "2025-12-31T23:59:59"}

    liked = _all_pages(call, min_like_count=2, max_like_count=3)
    likes = {t["id"]: world.count(TRANSACTION_LIKES, transaction_id=t["id"]) for t in mine}
    assert liked and {t["id"] for t in liked} == {i for i, n in likes.items() if 2 <= n <= 3}


def test_show_transactions_query_and_sort(call, world):
    hits = call("venmo_show_transactions", query="pizza", page_limit=20)
    assert hits and all("pizza" in t["description"].lower() for t in hits)
    friend = world.get(USERS, a_friend(world))
    by_name = call("venmo_show_transactions", query=f"{friend['first_name']} {friend['last_name']}", page_limit=20)
    assert by_name and friend["id"] in (by_name[0]["sender_id"], by_name[0]["receiver_id"])
    big = call("venmo_show_transactions", sort_by="-amount", page_limit=3)
    top = sorted((t["amount"] for t in _mine(world)), reverse=True)[:3]
    assert [t["amount"] for t in big] == top
    popular = call("venmo_show_transactions", sort_by="-like_count", page_limit=1)[0]
    assert popular["like_count"] == max(world.count(TRANSACTION_LIKES, transaction_id=t["id"]) for t in _mine(world))


def test_show_transactions_errors(call, world):
    assert "sort_by" in call.fail("venmo_show_transactions", sort_by="color")
    assert "min_created_at" in call.fail("venmo_show_transactions", min_created_at="last tuesday")
    assert "'direction'" in call.fail("venmo_show_transactions", direction="sideways")
    assert "your own email" in call.fail("venmo_show_transactions", user_email=owner(world)["email"])
    assert "no Venmo user" in call.fail("venmo_show_transactions", user_email="ghost@example.com")


def test_download_transaction_receipt(call, world):
    tx = my_tx(world, "sent")
    out = call("venmo_download_transaction_receipt", transaction_id=tx["id"], file_system_access_token="tok",
               download_to_file_path="~/documents/venmo_receipt.txt")
    [f] = created(world, "file_system.files")
    assert f["path"] == out["file_path"] and f["path"].endswith("/documents/venmo_receipt.txt")
    assert tx["description"] in f["content"]
    assert "already exists" in call.fail("venmo_download_transaction_receipt", transaction_id=tx["id"],
                                         file_system_access_token="tok",
                                         download_to_file_path="~/documents/venmo_receipt.txt")
    assert "only download receipts" in call.fail("venmo_download_transaction_receipt",
                                                 transaction_id=others_tx(world, False)["id"],
                                                 file_system_access_token="tok")
    assert "does not exist" in call.fail("venmo_download_transaction_receipt",
                                         transaction_id=others_tx(world, True)["id"], file_system_access_token="tok")


def test_like_and_unlike_transaction(call, world):
    tx = next(t for t in _mine(world) if world.first(TRANSACTION_LIKES, transaction_id=t["id"],
                                                     user_id=world.user_id) is None)
    call("venmo_like_transaction", transaction_id=tx["id"])
    assert world.first(TRANSACTION_LIKES, transaction_id=tx["id"], user_id=world.user_id) is not None
    assert call("venmo_show_transaction", transaction_id=tx["id"])["liked_by_you"] is True
    other_party = tx["receiver_id"] if tx["sender_id"] == world.user_id else tx["sender_id"]
    assert [(n["user_id"], n["type"]) for n in created(world, NOTIFICATIONS)] == [(other_party, "transaction_liked")]
    assert "already like" in call.fail("venmo_like_transaction", transaction_id=tx["id"])
    call("venmo_unlike_transaction", transaction_id=tx["id"])
    assert world.first(TRANSACTION_LIKES, transaction_id=tx["id"], user_id=world.user_id) is None
    assert "not liked" in call.fail("venmo_unlike_transaction", transaction_id=tx["id"])
    hidden = others_tx(world, True)
    assert "does not exist" in call.fail("venmo_like_transaction", transaction_id=hidden["id"])
    assert "does not exist" in call.fail("venmo_unlike_transaction", transaction_id=hidden["id"])
    # A public transaction of strangers can be liked too; both parties hear about it.
    uid = world.user_id
    public = next(t for t in world.rows(TRANSACTIONS) if not t["private"] and uid not in (t["sender_id"], t["receiver_id"])
                  and world.first(TRANSACTION_LIKES, transaction_id=t["id"], user_id=uid) is None)
    call("venmo_like_transaction", transaction_id=public["id"])
    told = {n["user_id"] for n in created(world, NOTIFICATIONS) if n["data"]["transaction_id"] == public["id"]}
    assert told == {public["sender_id"], public["receiver_id"]}


# ---------------------------------------------------------------------------- comments
def test_comments_lifecycle(call, world):
    tx = my_tx(world, "received")
    existing = sorted(world.select(COMMENTS, transaction_id=tx["id"]), key=lambda c: (c["created_at"], c["id"]))
    listed = call("venmo_show_transaction_comments", transaction_id=tx["id"], page_limit=20)
    assert [c["id"] for c in listed] == [c["id"] for c in existing]

    out = call("venmo_create_transaction_comment", transaction_id=tx["id"], comment="thanks!! 🙌")
    row = world.get(COMMENTS, out["comment_id"])
    assert (row["user_id"], row["transaction_id"], row["comment"]) == (world.user_id, tx["id"], "thanks!! 🙌")
    assert [n["user_id"] for n in created(world, NOTIFICATIONS)] == [tx["sender_id"]]
    listed = call("venmo_show_transaction_comments", transaction_id=tx["id"], page_limit=20)
    assert listed[-1]["id"] == out["comment_id"] and listed[-1]["user"]["id"] == world.user_id

    shown = call("venmo_show_transaction_comment", comment_id=out["comment_id"])
    assert shown["comment"] == "thanks!! 🙌" and shown["like_count"] == 0
    call("venmo_update_transaction_comment", comment_id=out["comment_id"], comment="thank you!")
    assert world.get(COMMENTS, out["comment_id"])["comment"] == "thank you!"

    call("venmo_like_transaction_comment", comment_id=out["comment_id"])
    assert call("venmo_show_transaction_comment", comment_id=out["comment_id"])["like_count"] == 1
    assert "already like" in call.fail("venmo_like_transaction_comment", comment_id=out["comment_id"])
    call("venmo_unlike_transaction_comment", comment_id=out["comment_id"])
    assert "not liked" in call.fail("venmo_unlike_transaction_comment", comment_id=out["comment_id"])
    call("venmo_like_transaction_comment", comment_id=out["comment_id"])

    call("venmo_delete_transaction_comment", comment_id=out["comment_id"])
    assert world.get(COMMENTS, out["comment_id"]) is None
    assert world.count(COMMENT_LIKES, comment_id=out["comment_id"]) == 0
    assert "does not exist" in call.fail("venmo_show_transaction_comment", comment_id=out["comment_id"])


def test_comment_errors(call, world):
    tx = my_tx(world, "sent")
    assert "must not be empty" in call.fail("venmo_create_transaction_comment", transaction_id=tx["id"], comment="  ")
    hidden = others_tx(world, True)
    assert "does not exist" in call.fail("venmo_create_transaction_comment", transaction_id=hidden["id"], comment="hi")
    assert "does not exist" in call.fail("venmo_show_transaction_comments", transaction_id=hidden["id"])
    theirs = next(c for c in world.rows(COMMENTS) if c["user_id"] != world.user_id
                  and world.user_id in (world.get(TRANSACTIONS, c["transaction_id"])["sender_id"],
                                        world.get(TRANSACTIONS, c["transaction_id"])["receiver_id"])
                  and world.first(COMMENT_LIKES, comment_id=c["id"], user_id=world.user_id) is None)
    assert "only change your own" in call.fail("venmo_update_transaction_comment", comment_id=theirs["id"], comment="x")
    assert "only change your own" in call.fail("venmo_delete_transaction_comment", comment_id=theirs["id"])
    hidden_comment = next(c for c in world.rows(COMMENTS) if world.get(TRANSACTIONS, c["transaction_id"])["private"]
                          and world.user_id not in (world.get(TRANSACTIONS, c["transaction_id"])["sender_id"],
                                                    world.get(TRANSACTIONS, c["transaction_id"])["receiver_id"]))
    for name in ("venmo_show_transaction_comment", "venmo_delete_transaction_comment", "venmo_like_transaction_comment",
                 "venmo_unlike_transaction_comment"):
        assert "does not exist" in call.fail(name, comment_id=hidden_comment["id"])
    mine = call("venmo_create_transaction_comment", transaction_id=tx["id"], comment="ok")["comment_id"]
    assert "must not be empty" in call.fail("venmo_update_transaction_comment", comment_id=mine, comment="")
    call("venmo_like_transaction_comment", comment_id=theirs["id"])
    assert any(n["type"] == "comment_liked" and n["user_id"] == theirs["user_id"] for n in created(world, NOTIFICATIONS))


# ---------------------------------------------------------------------------- payment requests
def test_show_payment_requests(call, world):
    uid = world.user_id
    received = [r for i in range(10) for r in call("venmo_show_received_payment_requests", page_index=i,
                                                   page_limit=20)]
    assert {r["id"] for r in received} == {r["id"] for r in world.rows(REQUESTS) if r["receiver_id"] == uid}
    pending = call("venmo_show_received_payment_requests", status="pending", page_limit=20)
    assert pending and all(r["status"] == "pending" and r["receiver_id"] == uid for r in pending)
    assert [r["created_at"] for r in pending] == sorted((r["created_at"] for r in pending), reverse=True)
    sent = call("venmo_show_sent_payment_requests", status="denied", page_limit=20)
    assert sent and all(r["status"] == "denied" and r["sender_id"] == uid for r in sent)
    target = request_row(world, sent=False, status="pending")
    requester = world.get(USERS, target["sender_id"])
    hits = call("venmo_show_received_payment_requests", query=f"{requester['first_name']} {requester['last_name']}")
    assert target["id"] in {r["id"] for r in hits} and hits[0]["sender"]["id"] == requester["id"]
    assert "'status'" in call.fail("venmo_show_sent_payment_requests", status="paid")
    assert "page_limit" in call.fail("venmo_show_received_payment_requests", page_limit=0)


def test_create_payment_request(call, world):
    friend = a_friend(world)
    out = call("venmo_create_payment_request", user_email=email(world, friend), amount=18.5,
               description="movie night 🍿")
    row = world.get(REQUESTS, out["payment_request_id"])
    assert (row["sender_id"], row["receiver_id"], row["amount"], row["status"]) == (world.user_id, friend, 18.5, "pending")
    [note] = created(world, NOTIFICATIONS)
    assert note["user_id"] == friend and note["type"] == "payment_request_received"
    assert call("venmo_show_sent_payment_requests", page_limit=1)[0]["id"] == row["id"]
    assert "yourself" in call.fail("venmo_create_payment_request", user_email=owner(world)["email"], amount=1.0)
    assert "no Venmo user" in call.fail("venmo_create_payment_request", user_email="ghost@example.com", amount=1.0)
    assert "positive" in call.fail("venmo_create_payment_request", user_email=email(world, friend), amount=0.0)


def test_update_payment_request(call, world):
    mine = request_row(world, sent=True, status="pending")
    call("venmo_update_payment_request", payment_request_id=mine["id"], amount=25.0, description="dinner", private=True)
    row = world.get(REQUESTS, mine["id"])
    assert (row["amount"], row["description"], row["private"]) == (25.0, "dinner", True)
    assert "nothing to update" in call.fail("venmo_update_payment_request", payment_request_id=mine["id"])
    assert "two decimal" in call.fail("venmo_update_payment_request", payment_request_id=mine["id"], amount=1.234)
    theirs = request_row(world, sent=False, status="pending")
    assert "only the person who sent" in call.fail("venmo_update_payment_request", payment_request_id=theirs["id"],
                                                   amount=1.0)
    done = request_row(world, sent=True, status="approved")
    assert "already approved" in call.fail("venmo_update_payment_request", payment_request_id=done["id"], amount=1.0)
    stranger = next(r for r in world.rows(REQUESTS) if world.user_id not in (r["sender_id"], r["receiver_id"]))
    assert "does not exist" in call.fail("venmo_update_payment_request", payment_request_id=stranger["id"], amount=1.0)


def test_delete_payment_request(call, world):
    pending = request_row(world, sent=True, status="pending")
    call("venmo_delete_payment_request", payment_request_id=pending["id"])
    assert world.get(REQUESTS, pending["id"]) is None
    denied = request_row(world, sent=True, status="denied")
    call("venmo_delete_payment_request", payment_request_id=denied["id"])
    assert world.get(REQUESTS, denied["id"]) is None
    approved = request_row(world, sent=True, status="approved")
    assert "already paid" in call.fail("venmo_delete_payment_request", payment_request_id=approved["id"])
    theirs = request_row(world, sent=False, status="pending")
    assert "only the person who sent" in call.fail("venmo_delete_payment_request", payment_request_id=theirs["id"])
    assert "does not exist" in call.fail("venmo_delete_payment_request", payment_request_id=10**6)


def test_approve_payment_request_pays(call, world):
    req = request_row(world, sent=False, status="pending")
    world.update(USERS, world.user_id, venmo_balance=max(owner(world)["venmo_balance"], req["amount"] + 10))
    me_before = owner(world)["venmo_balance"]
    them_before = world.get(USERS, req["sender_id"])["venmo_balance"]
    out = call("venmo_approve_payment_request", payment_request_id=req["id"])
    row = world.get(REQUESTS, req["id"])
    assert row["status"] == "approved" and row["approved_at"] == "2026-04-16T23:51:15"
    assert row["transaction_id"] == out["transaction_id"]
    tx = world.get(TRANSACTIONS, out["transaction_id"])
    assert (tx["sender_id"], tx["receiver_id"], tx["amount"], tx["description"]) == \
        (world.user_id, req["sender_id"], req["amount"], req["description"])
    assert owner(world)["venmo_balance"] == round(me_before - req["amount"], 2)
    assert world.get(USERS, req["sender_id"])["venmo_balance"] == round(them_before + req["amount"], 2)
    assert {n["type"] for n in created(world, NOTIFICATIONS)} == {"transaction_received", "payment_request_approved"}
    assert "already approved" in call.fail("venmo_approve_payment_request", payment_request_id=req["id"])


def test_approve_payment_request_needs_money_or_card(call, world):
    req = request_row(world, sent=False, status="pending")
    world.update(USERS, world.user_id, venmo_balance=0.0)
    assert "insufficient balance" in call.fail("venmo_approve_payment_request", payment_request_id=req["id"])
    card = valid_card(world)
    call("venmo_approve_payment_request", payment_request_id=req["id"], payment_card_id=card["id"])
    assert owner(world)["venmo_balance"] == 0.0
    assert world.get(CARDS, card["id"])["available_balance"] == round(card["available_balance"] - req["amount"], 2)
    mine = request_row(world, sent=True, status="pending")
    assert "only the person asked to pay" in call.fail("venmo_approve_payment_request", payment_request_id=mine["id"])
    other = request_row(world, sent=False, status="pending")
    assert "expired" in call.fail("venmo_approve_payment_request", payment_request_id=other["id"],
                                  payment_card_id=expired_card(world)["id"])


def test_deny_payment_request(call, world):
    req = request_row(world, sent=False, status="pending")
    balance = owner(world)["venmo_balance"]
    call("venmo_deny_payment_request", payment_request_id=req["id"])
    row = world.get(REQUESTS, req["id"])
    assert row["status"] == "denied" and row["denied_at"] == "2026-04-16T23:51:15" and row["transaction_id"] is None
    assert owner(world)["venmo_balance"] == balance and TRANSACTIONS not in world.diff()
    [note] = created(world, NOTIFICATIONS)
    assert note["user_id"] == req["sender_id"] and note["type"] == "payment_request_denied"
    assert "already denied" in call.fail("venmo_deny_payment_request", payment_request_id=req["id"])
    mine = request_row(world, sent=True, status="pending")
    assert "only the person asked to pay" in call.fail("venmo_deny_payment_request", payment_request_id=mine["id"])


def test_remind_payment_request(call, world):
    req = request_row(world, sent=True, status="pending")
    call("venmo_remind_payment_request", payment_request_id=req["id"])
    row = world.get(REQUESTS, req["id"])
    assert row["reminder_count"] == req["reminder_count"] + 1 and row["last_reminded_at"] == "2026-04-16T23:51:15"
    [note] = created(world, NOTIFICATIONS)
    assert note["user_id"] == req["receiver_id"] and note["type"] == "payment_request_reminder"
    assert "24 hours" in call.fail("venmo_remind_payment_request", payment_request_id=req["id"])
    theirs = request_row(world, sent=False, status="pending")
    assert "only the person who sent" in call.fail("venmo_remind_payment_request", payment_request_id=theirs["id"])
    done = request_row(world, sent=True, status="denied")
    assert "already denied" in call.fail("venmo_remind_payment_request", payment_request_id=done["id"])


# ---------------------------------------------------------------------------- feed and notifications
def test_social_feed(call, world):
    uid = world.user_id
    friends = friend_ids(world, uid)
    feed = [t for i in range(3) for t in call("venmo_show_social_feed", page_index=i, page_limit=20)]
    assert len(feed) == 60
    assert all(t["sender_id"] in friends or t["receiver_id"] in friends for t in feed)
    assert all(not t["private"] or uid in (t["sender_id"], t["receiver_id"]) for t in feed)
    assert [t["created_at"] for t in feed] == sorted((t["created_at"] for t in feed), reverse=True)
    out = call("venmo_create_transaction", receiver_email=email(world, a_friend(world)), amount=1.0, description="☕")
    assert call("venmo_show_social_feed", page_limit=1)[0]["id"] == out["transaction_id"]
    assert "page_limit" in call.fail("venmo_show_social_feed", page_limit=21)


def test_notifications(call, world):
    uid = world.user_id
    total = world.count(NOTIFICATIONS, user_id=uid)
    unread = world.count(NOTIFICATIONS, user_id=uid, read=False)
    assert call("venmo_show_notifications_count") == {"count": total}
    assert call("venmo_show_notifications_count", read=False) == {"count": unread}
    listed = call("venmo_show_notifications", read=False, page_limit=20)
    assert len(listed) == min(unread, 20) and all(n["read"] is False and n["user_id"] == uid for n in listed)

    first = listed[0]
    call("venmo_mark_notification", notification_id=first["id"], read=True)
    assert world.get(NOTIFICATIONS, first["id"])["read"] is True
    assert call("venmo_show_notifications_count", read=False) == {"count": unread - 1}
    assert "does not exist" in call.fail("venmo_mark_notification", notification_id=10**6, read=True)
    call("venmo_delete_notification", notification_id=first["id"])
    assert world.get(NOTIFICATIONS, first["id"]) is None
    assert "does not exist" in call.fail("venmo_delete_notification", notification_id=first["id"])

    out = call("venmo_mark_notifications", read=True)
    assert out["changed"] == unread - 1 and call("venmo_show_notifications_count", read=False) == {"count": 0}
    call("venmo_mark_notifications", read=False)
    assert call("venmo_show_notifications_count", read=True) == {"count": 0}
    assert "'read'" in call.fail("venmo_mark_notifications", read="yes")

    # Another user's notification is invisible.
    call("venmo_create_transaction", receiver_email=email(world, a_friend(world)), amount=1.0)
    theirs = created(world, NOTIFICATIONS)[-1]
    assert theirs["user_id"] != uid
    assert "does not exist" in call.fail("venmo_delete_notification", notification_id=theirs["id"])
    assert "does not exist" in call.fail("venmo_mark_notification", notification_id=theirs["id"], read=True)

    deleted = call("venmo_delete_notifications")["deleted"]
    assert deleted == total - 1 and world.count(NOTIFICATIONS, user_id=uid) == 0
    assert world.get(NOTIFICATIONS, theirs["id"]) is not None
    assert call("venmo_show_notifications") == []


@pytest.mark.parametrize("name,args", [
    ("venmo_show_transaction", {"transaction_id": "one"}),
    ("venmo_like_transaction", {}),
    ("venmo_create_transaction", {"receiver_email": "a@b.c", "amount": 1.0, "colour": "red"}),
])
def test_bad_arguments_are_refused(call, name, args):
    assert "Error (invalid_argument)" in call.fail(name, **args)
