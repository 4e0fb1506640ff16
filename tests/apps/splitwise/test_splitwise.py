"""splitwise: every tool, success and error paths, checked against the world's tables and balances."""

from __future__ import annotations

from collections import defaultdict

import pytest

from mmtsb_env.apps._accounts import CODES, SESSIONS
from mmtsb_env.apps.file_system.tables import FILES, home_directory
from mmtsb_env.apps.splitwise.tables import (
    EXPENSE_COMMENTS, EXPENSES, GROUPS, MEMBERS, NOTIFICATIONS, PAYMENT_COMMENTS, PAYMENTS, SHARES, USERS, distribute,
    friends_since, member_ids, pair_balances, split_amount,
)
from mmtsb_env.tools import InvalidArgument

NOW = "2026-04-16T23:51:15"


# ---------------------------------------------------------------------------- helpers
def email(world, user_id):
    return world.get(USERS, user_id)["email"]


def my_email(world):
    return email(world, world.user_id)


def my_groups(world, *, creator=None, deleted=False):
    out = []
    for g in sorted(world.rows(GROUPS), key=lambda g: g["id"]):
        if world.user_id in member_ids(world, g["id"]) and g["deleted"] == deleted:
            if creator is None or (g["creator_id"] == world.user_id) == creator:
                out.append(dict(g))
    return out


def foreign_group(world):
    return next(g for g in world.rows(GROUPS) if world.user_id not in member_ids(world, g["id"]))


def others_in(world, group_id):
    return [u for u in member_ids(world, group_id) if u != world.user_id]


def outsider(world, group_id):
    members = set(member_ids(world, group_id))
    return next(r["id"] for r in world.rows(USERS) if r["id"] not in members)


def shares_of(world, expense_id):
    return sorted(world.select(SHARES, expense_id=expense_id), key=lambda r: r["id"])


def fresh_group(call, world, n_others=3):
    """A new group created by the owner with people who have no other ties in the test."""
    ties = friends_since(world, world.user_id)
    picks = [r["id"] for r in sorted(world.rows(USERS), key=lambda r: -r["id"])
             if r["id"] not in ties and r["id"] != world.user_id][:n_others]
    gid = call("splitwise_create_group", name="Test House", member_emails=[email(world, u) for u in picks])["group_id"]
    return gid, picks


def balance_with(call, mail):
    return call("splitwise_show_person_balance", email=mail)["balance"]


# ---------------------------------------------------------------------------- catalog and base data
def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("splitwise", count=65)
    assert all("network" in t.requires for t in ours.values())
    defaults = {p.name: p.default for p in ours["splitwise_show_group_expenses"].params}
    assert defaults["min_created_at"] == "1500-01-01" and defaults["max_amount"] == 9.22e18
    assert {p.name: p.default for p in ours["splitwise_settle_up"].params}["description"] == "Settle up balance."


def test_base_data_is_rich_and_consistent(world):
    groups = my_groups(world)
    assert len(groups) >= 15
    assert all(3 <= len(member_ids(world, g["id"])) <= 8 for g in groups)
    assert my_groups(world, deleted=True), "a deleted group to restore"
    assert any(g["creator_id"] != world.user_id for g in groups) and any(g["creator_id"] == world.user_id for g in groups)
    expenses = list(world.rows(EXPENSES))
    assert len(expenses) >= 400
    assert any(e["deleted"] for e in expenses) and any(e["receipt_file_name"] for e in expenses)
    by_exp = defaultdict(list)
    for s in world.rows(SHARES):
        by_exp[s["expense_id"]].append(round(s["amount"] * 100))
    for e in expenses:
        assert 0 < sum(by_exp[e["id"]]) <= round(e["paid_amount"] * 100), e["id"]
    assert len({e["description"] for e in expenses}) > 60
    assert len(list(world.rows(PAYMENTS))) >= 50
    # some relationships are fully settled: payments exist and the pair balance is zero
    pairs = pair_balances(world, world.user_id)
    settled = [p for p in world.rows(PAYMENTS) if world.user_id in (p["payer_id"], p["receiver_id"])
               and p["group_id"] is not None
               and pairs.get((p["group_id"], p["payer_id"] if p["receiver_id"] == world.user_id else p["receiver_id"]), 0) == 0]
    assert settled
    assert world.count(NOTIFICATIONS, user_id=world.user_id) >= 30
    assert world.count(EXPENSE_COMMENTS) >= 50 and world.count(PAYMENT_COMMENTS) >= 10


def test_split_arithmetic_is_exact():
    assert distribute(10000, [1, 1, 1]) == [3334, 3333, 3333]
    assert sum(distribute(9999, [1, 2, 3, 4])) == 9999
    assert split_amount(10000, 3, None) == [3334, 3333, 3333]
    assert split_amount(10000, 3, [33.33, 33.33, 33.33]) == [3334, 3333, 3333]
    assert split_amount(10000, 2, [30, 20]) == [3000, 2000]
    with pytest.raises(InvalidArgument):
        split_amount(10000, 2, [60, 50])
    with pytest.raises(InvalidArgument):
        split_amount(10000, 2, [10])


# ---------------------------------------------------------------------------- users and activity
def test_search_users(call, world):
    target = next(r for r in world.rows(USERS) if r["id"] != world.user_id)
    hits = call("splitwise_search_users", query=f"{target['first_name']} {target['last_name']}", page_limit=20)
    assert target["email"] in [h["email"] for h in hits]
    first = call("splitwise_search_users")
    assert len(first) == 5 and all(h["friends_since"] for h in first)
    assert my_email(world) not in [h["email"] for h in call("splitwise_search_users", query=my_email(world))]
    assert call("splitwise_search_users", query=my_email(world), include_self=True)[0]["email"] == my_email(world)
    stranger = next(h for p in range(30) for h in call("splitwise_search_users", page_index=p, page_limit=20)
                    if h["friends_since"] is None)
    assert stranger["user_id"] != world.user_id
    assert "page_limit" in call.fail("splitwise_search_users", page_limit=0)


def test_activity_feed(call, world):
    gid, picks = fresh_group(call, world)
    eid = call("splitwise_record_expense", description="Welcome dinner", paid_amount=80, payer_email=my_email(world),
               debtor_emails=[my_email(world)] + [email(world, u) for u in picks])["expense_id"]
    feed = call("splitwise_show_activity", page_limit=20)
    top = feed[0]
    assert top["expense_id"] == eid and top["your_balance_change"] == 60.0 and top["created_at"] == NOW
    assert all(a["created_at"] >= b["created_at"] for a, b in zip(feed, feed[1:]))
    only_payments = call("splitwise_show_activity", show_expenses=False, page_limit=20)
    assert only_payments and all(i["type"] == "payment" for i in only_payments)
    assert call("splitwise_show_activity", show_expenses=False, show_payments=False) == []
    by_amount = call("splitwise_show_activity", sort_by="-amount", page_limit=3)
    assert by_amount[0]["amount"] >= by_amount[1]["amount"] >= by_amount[2]["amount"]
    assert "sort_by" in call.fail("splitwise_show_activity", sort_by="color")


# ---------------------------------------------------------------------------- groups
def test_create_show_update_group(call, world):
    gid, picks = fresh_group(call, world)
    group = world.get(GROUPS, gid)
    assert group["creator_id"] == world.user_id and group["created_at"] == NOW and len(group["invitation_code"]) == 5
    assert member_ids(world, gid) == [world.user_id] + picks
    assert {n["user_id"] for n in world.diff()[NOTIFICATIONS].created} == set(picks)
    shown = call("splitwise_show_group", group_id=gid)
    assert shown["name"] == "Test House" and shown["your_balance"] == 0.0 and len(shown["members"]) == 4
    listed = call("splitwise_show_groups", page_limit=20)
    assert listed[0]["group_id"] == gid
    call("splitwise_update_group", group_id=gid, description="Our new place")
    call("splitwise_update_group", group_id=gid, name="  The House ")
    assert (world.get(GROUPS, gid)["name"], world.get(GROUPS, gid)["description"]) == ("The House", "Our new place")
    assert "nothing to update" in call.fail("splitwise_update_group", group_id=gid)
    assert "must not be empty" in call.fail("splitwise_update_group", group_id=gid, name=" ")
    assert "must not be empty" in call.fail("splitwise_create_group", name="", member_emails=[])
    assert "no splitwise user" in call.fail("splitwise_create_group", name="X", member_emails=["nobody@nowhere.org"])
    hidden = foreign_group(world)["id"]
    assert "not a member" in call.fail("splitwise_show_group", group_id=hidden)
    assert "not a member" in call.fail("splitwise_update_group", group_id=hidden, name="Mine")
    deleted = my_groups(world, deleted=True)[0]["id"]
    assert "is deleted" in call.fail("splitwise_update_group", group_id=deleted, name="Back")


def test_delete_and_undelete_group(call, world):
    own = next(g for g in my_groups(world, creator=True) if pair_balances(world, world.user_id))
    before = call("splitwise_show_groups_balance")
    call("splitwise_delete_group", group_id=own["id"])
    assert world.get(GROUPS, own["id"])["deleted"] is True
    after = call("splitwise_show_groups_balance")
    assert own["id"] not in [g["group_id"] for g in after] and len(after) == len(before) - 1
    assert own["id"] in [g["group_id"] for g in call("splitwise_show_groups", delete=True, page_limit=20)]
    assert own["id"] not in [g["group_id"] for g in call("splitwise_show_groups", page_limit=20)]
    assert "already deleted" in call.fail("splitwise_delete_group", group_id=own["id"])
    assert "is deleted" in call.fail("splitwise_record_expense", description="x", paid_amount=5, group_id=own["id"],
                                     payer_email=my_email(world), debtor_emails=[email(world, others_in(world, own["id"])[0])])
    call("splitwise_undelete_group", group_id=own["id"])
    assert world.get(GROUPS, own["id"])["deleted"] is False and call("splitwise_show_groups_balance") == before
    assert "not deleted" in call.fail("splitwise_undelete_group", group_id=own["id"])
    theirs = my_groups(world, creator=False)[0]["id"]
    assert "only the creator" in call.fail("splitwise_delete_group", group_id=theirs)
    assert "only the creator" in call.fail("splitwise_undelete_group", group_id=theirs)
    assert "not a member" in call.fail("splitwise_delete_group", group_id=foreign_group(world)["id"])


def test_members_join_leave_and_invitations(call, world):
    gid, picks = fresh_group(call, world, n_others=2)
    newcomer = outsider(world, gid)
    call("splitwise_add_member_to_group", group_id=gid, user_email=email(world, newcomer))
    assert newcomer in member_ids(world, gid)
    assert world.first(NOTIFICATIONS, user_id=newcomer, type="group_added", group_id=gid) is not None
    assert "already a member" in call.fail("splitwise_add_member_to_group", group_id=gid, user_email=email(world, newcomer))
    assert "no splitwise user" in call.fail("splitwise_add_member_to_group", group_id=gid, user_email="ghost@x.org")
    # a member with an open balance cannot be removed
    call("splitwise_record_expense", description="Pizza", paid_amount=30, payer_email=my_email(world),
         debtor_emails=[email(world, picks[0])], group_id=gid)
    assert "unsettled balance" in call.fail("splitwise_remove_member_from_group", group_id=gid,
                                            user_email=email(world, picks[0]))
    call("splitwise_remove_member_from_group", group_id=gid, user_email=email(world, newcomer))
    assert newcomer not in member_ids(world, gid)
    assert "not a member of group" in call.fail("splitwise_remove_member_from_group", group_id=gid,
                                                user_email=email(world, newcomer))
    assert "splitwise_exit_group" in call.fail("splitwise_remove_member_from_group", group_id=gid,
                                               user_email=my_email(world))
    assert "settle up before leaving" in call.fail("splitwise_exit_group", group_id=gid)
    # invitation codes
    old = world.get(GROUPS, gid)["invitation_code"]
    new = call("splitwise_regenerate_invitation_code", group_id=gid)["invitation_code"]
    assert new != old and world.get(GROUPS, gid)["invitation_code"] == new
    assert "no active group" in call.fail("splitwise_accept_group_invitation", invitation_code=old)
    foreign = foreign_group(world)
    call("splitwise_accept_group_invitation", invitation_code=foreign["invitation_code"].upper())
    assert world.user_id in member_ids(world, foreign["id"])
    assert call("splitwise_show_group", group_id=foreign["id"])["group_id"] == foreign["id"]
    assert "already a member" in call.fail("splitwise_accept_group_invitation", invitation_code=foreign["invitation_code"])
    call("splitwise_exit_group", group_id=foreign["id"])
    assert world.user_id not in member_ids(world, foreign["id"])
    assert "not a member" in call.fail("splitwise_exit_group", group_id=foreign["id"])
    assert "not a member" in call.fail("splitwise_regenerate_invitation_code", group_id=foreign["id"])


# ---------------------------------------------------------------------------- expenses
def test_record_expense_splits_exactly_and_moves_balances(call, world):
    gid, picks = fresh_group(call, world)
    me, a, b, c = my_email(world), *(email(world, u) for u in picks)
    eid = call("splitwise_record_expense", description="Groceries", paid_amount=100, payer_email=me,
               debtor_emails=[me, a, b], group_id=gid)["expense_id"]
    exp = world.get(EXPENSES, eid)
    assert (exp["payer_id"], exp["creator_id"], exp["group_id"], exp["paid_amount"]) == (world.user_id, world.user_id, gid, 100.0)
    assert [s["amount"] for s in shares_of(world, eid)] == [33.34, 33.33, 33.33]
    assert balance_with(call, a) == 33.33 and balance_with(call, c) == 0.0
    assert call("splitwise_show_group", group_id=gid)["your_balance"] == 66.66
    notified = {n["user_id"] for n in world.diff()[NOTIFICATIONS].created if n["expense_id"] == eid}
    assert notified == {picks[0], picks[1]}
    # custom amounts; remainder is the payer's own share
    eid2 = call("splitwise_record_expense", description="Tickets", paid_amount=90, payer_email=c,
                debtor_emails=[me, a], debt_amounts=[20, 30], group_id=gid)["expense_id"]
    assert [s["amount"] for s in shares_of(world, eid2)] == [20.0, 30.0]
    assert balance_with(call, c) == -20.0
    view = call("splitwise_show_expense", expense_id=eid2)
    assert view["payer"]["email"] == c and view["your_balance_change"] == -20.0 and view["group_name"] == "Test House"
    # outside any group: must involve me
    solo = call("splitwise_record_expense", description="Cab", paid_amount=25.5, payer_email=a, debtor_emails=[me])
    assert world.get(EXPENSES, solo["expense_id"])["group_id"] is None and balance_with(call, a) == 7.83
    errors = {
        "description must not be empty": dict(description=" ", paid_amount=5, payer_email=me, debtor_emails=[a]),
        "more than 0": dict(description="x", paid_amount=0, payer_email=me, debtor_emails=[a]),
        "at least one person": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[]),
        "appears twice": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[a, a.upper()]),
        "nobody would owe": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[me]),
        "one amount per debtor": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[a, b], debt_amounts=[5]),
        "more than the paid amount": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[a], debt_amounts=[9]),
        "must not be negative": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[a, b], debt_amounts=[6, -1]),
        "must involve you": dict(description="x", paid_amount=5, payer_email=a, debtor_emails=[b]),
        "no splitwise payer": dict(description="x", paid_amount=5, payer_email="ghost@x.org", debtor_emails=[a]),
        "not in group": dict(description="x", paid_amount=5, payer_email=me, group_id=gid,
                             debtor_emails=[email(world, outsider(world, gid))]),
        "not a member": dict(description="x", paid_amount=5, payer_email=me, debtor_emails=[a],
                             group_id=foreign_group(world)["id"]),
    }
    for message, args in errors.items():
        assert message in call.fail("splitwise_record_expense", **args), message
    assert "'debtor_emails'" in call.fail("splitwise_record_expense", description="x", paid_amount=5, payer_email=me,
                                          debtor_emails=a)


def test_show_expense_visibility(call, world):
    foreign = foreign_group(world)
    hidden = next(e for e in world.rows(EXPENSES) if e["group_id"] == foreign["id"])
    assert "not visible" in call.fail("splitwise_show_expense", expense_id=hidden["id"])
    assert "not visible" in call.fail("splitwise_show_expense", expense_id=10**7)
    mine = next(e for e in world.rows(EXPENSES) if e["group_id"] == my_groups(world)[0]["id"])
    view = call("splitwise_show_expense", expense_id=mine["id"])
    assert view["expense_id"] == mine["id"] and len(view["shares"]) == len(shares_of(world, mine["id"]))
    # members see every expense of their group; after leaving, only those they took part in
    call("splitwise_accept_group_invitation", invitation_code=foreign["invitation_code"])
    assert call("splitwise_show_expense", expense_id=hidden["id"])["expense_id"] == hidden["id"]
    others = [u for u in member_ids(world, foreign["id"]) if u != world.user_id]
    mine = call("splitwise_record_expense", description="Snacks", paid_amount=12, payer_email=email(world, others[0]),
                debtor_emails=[my_email(world)], group_id=foreign["id"])["expense_id"]
    call("splitwise_settle_up", email=email(world, others[0]), group_id=foreign["id"])
    call("splitwise_exit_group", group_id=foreign["id"])
    assert "not visible" in call.fail("splitwise_show_expense", expense_id=hidden["id"])
    assert call("splitwise_show_expense", expense_id=mine)["your_balance_change"] == -12.0


def test_update_expense(call, world):
    gid, picks = fresh_group(call, world)
    me, a, b, c = my_email(world), *(email(world, u) for u in picks)
    eid = call("splitwise_record_expense", description="Dinner", paid_amount=60, payer_email=me,
               debtor_emails=[me, a, b], group_id=gid)["expense_id"]
    share_ids = [s["id"] for s in shares_of(world, eid)]
    call("splitwise_update_expense", expense_id=eid, description="Dinner at Nopa")
    assert world.get(EXPENSES, eid)["description"] == "Dinner at Nopa" and [s["id"] for s in shares_of(world, eid)] == share_ids
    call("splitwise_update_expense", expense_id=eid, paid_amount=90)
    assert [s["amount"] for s in shares_of(world, eid)] == [30.0, 30.0, 30.0] and balance_with(call, a) == 30.0
    call("splitwise_update_expense", expense_id=eid, debtor_emails=[a, c], debt_amounts=[50, 40])
    assert {s["user_id"]: s["amount"] for s in shares_of(world, eid)} == {picks[0]: 50.0, picks[2]: 40.0}
    assert balance_with(call, b) == 0.0 and balance_with(call, c) == 40.0
    call("splitwise_update_expense", expense_id=eid, payer_email=a)
    assert balance_with(call, a) == 0.0 and balance_with(call, c) == 0.0
    assert world.get(EXPENSES, eid)["updated_at"] == NOW
    assert "nothing to update" in call.fail("splitwise_update_expense", expense_id=eid)
    assert "only debtor" in call.fail("splitwise_update_expense", expense_id=eid, debtor_emails=[a])
    assert "not in group" in call.fail("splitwise_update_expense", expense_id=eid,
                                       debtor_emails=[email(world, outsider(world, gid))])
    assert "one amount per debtor" in call.fail("splitwise_update_expense", expense_id=eid, debt_amounts=[1, 2, 3])
    assert "must not be empty" in call.fail("splitwise_update_expense", expense_id=eid, description="")
    call("splitwise_delete_expense", expense_id=eid)
    assert "is deleted" in call.fail("splitwise_update_expense", expense_id=eid, description="y")
    hidden = next(e for e in world.rows(EXPENSES) if e["group_id"] == foreign_group(world)["id"])
    assert "not visible" in call.fail("splitwise_update_expense", expense_id=hidden["id"], description="mine now")


def test_delete_and_undelete_expense(call, world):
    gid, picks = fresh_group(call, world)
    a = email(world, picks[0])
    eid = call("splitwise_record_expense", description="Gas", paid_amount=40, payer_email=my_email(world),
               debtor_emails=[a], group_id=gid)["expense_id"]
    assert balance_with(call, a) == 40.0
    call("splitwise_delete_expense", expense_id=eid)
    assert world.get(EXPENSES, eid)["deleted"] is True and balance_with(call, a) == 0.0
    assert "already deleted" in call.fail("splitwise_delete_expense", expense_id=eid)
    call("splitwise_undelete_expense", expense_id=eid)
    assert world.get(EXPENSES, eid)["deleted"] is False and balance_with(call, a) == 40.0
    assert "not deleted" in call.fail("splitwise_undelete_expense", expense_id=eid)
    assert "not visible" in call.fail("splitwise_delete_expense", expense_id=10**7)
    assert "not visible" in call.fail("splitwise_undelete_expense", expense_id=10**7)


def test_search_group_and_no_group_expenses(call, world):
    group = max(my_groups(world), key=lambda g: world.count(EXPENSES, group_id=g["id"]))
    gid = group["id"]
    live = [e for e in world.rows(EXPENSES) if e["group_id"] == gid and not e["deleted"]]
    page = call("splitwise_show_group_expenses", group_id=gid, page_limit=20)
    assert len(page) == min(20, len(live)) and all(a["created_at"] >= b["created_at"] for a, b in zip(page, page[1:]))
    second = call("splitwise_show_group_expenses", group_id=gid, page_index=1, page_limit=20)
    assert not {e["expense_id"] for e in page} & {e["expense_id"] for e in second}
    word = live[0]["description"].split()[0]
    hits = call("splitwise_show_group_expenses", group_id=gid, query=word, page_limit=20)
    assert hits and all(word.lower() in h["description"].lower() for h in hits)
    payer = live[0]["payer_id"]
    for e in call("splitwise_show_group_expenses", group_id=gid, participant_email=email(world, payer), page_limit=20):
        assert payer == world.get(EXPENSES, e["expense_id"])["payer_id"] or payer in [
            s["user_id"] for s in shares_of(world, e["expense_id"])]
    ranged = call("splitwise_show_group_expenses", group_id=gid, min_amount=50, max_amount=150, page_limit=20)
    assert all(50 <= e["paid_amount"] <= 150 for e in ranged)
    day = live[0]["created_at"][:10]
    same_day = call("splitwise_show_group_expenses", group_id=gid, min_created_at=day, max_created_at=day, page_limit=20)
    assert live[0]["id"] in [e["expense_id"] for e in same_day] and all(e["created_at"][:10] == day for e in same_day)
    cheap = call("splitwise_show_group_expenses", group_id=gid, sort_by="paid_amount", page_limit=5)
    assert [e["paid_amount"] for e in cheap] == sorted(e["paid_amount"] for e in cheap)
    assert cheap[0]["paid_amount"] == min(e["paid_amount"] for e in live)
    dead = next(e for e in world.rows(EXPENSES) if e["deleted"] and e["group_id"] in {g["id"] for g in my_groups(world)})
    gone = call("splitwise_show_group_expenses", group_id=dead["group_id"], deleted=True, page_limit=20)
    assert dead["id"] in [e["expense_id"] for e in gone] and all(e["deleted"] for e in gone)
    assert "not a member" in call.fail("splitwise_show_group_expenses", group_id=foreign_group(world)["id"])
    assert "cannot read" in call.fail("splitwise_show_group_expenses", group_id=gid, min_created_at="last week")
    assert "sort_by" in call.fail("splitwise_show_group_expenses", group_id=gid, sort_by="payer")
    assert "min_amount" in call.fail("splitwise_show_group_expenses", group_id=gid, min_amount=10, max_amount=5)
    assert "no splitwise participant" in call.fail("splitwise_show_group_expenses", group_id=gid, participant_email="x@y.z")
    # no-group expenses: only mine, never a group's
    solo = call("splitwise_show_no_group_expenses", page_limit=20)
    assert solo and all(e["group_id"] is None for e in solo)
    assert all(world.user_id == world.get(EXPENSES, e["expense_id"])["payer_id"]
               or world.user_id in [s["user_id"] for s in shares_of(world, e["expense_id"])] for e in solo)
    friend = next(s["email"] for s in solo[0]["shares"] if s["email"] != my_email(world))
    with_friend = call("splitwise_show_no_group_expenses", participant_email=friend, page_limit=20)
    assert with_friend and all(friend in [s["email"] for s in e["shares"]] + [e["payer"]["email"]] for e in with_friend)
    assert call("splitwise_show_no_group_expenses", query="zzzz-no-such-thing") == []
    assert "page_limit" in call.fail("splitwise_show_no_group_expenses", page_limit=21)


# ---------------------------------------------------------------------------- receipts
def test_expense_receipts_flow_through_the_file_system(call, world):
    home = home_directory(world, world.user_id)
    receipt = sorted(r["path"] for r in world.rows(FILES) if r["user_id"] == world.user_id and "/receipts/" in r["path"])[0]
    content = next(r["content"] for r in world.rows(FILES) if r["path"] == receipt and r["user_id"] == world.user_id)
    gid, picks = fresh_group(call, world)
    a = email(world, picks[0])
    eid = call("splitwise_record_expense", description="Hardware", paid_amount=42, payer_email=my_email(world),
               debtor_emails=[a], group_id=gid, receipt_file_path=receipt, file_system_access_token="fs")["expense_id"]
    row = world.get(EXPENSES, eid)
    assert row["receipt_file_name"] == receipt.rsplit("/", 1)[1] and row["receipt_file_content"] == content
    out = call("splitwise_download_expense_receipt_file", expense_id=eid, file_system_access_token="fs")
    assert out["file_path"] == home + "downloads/" + row["receipt_file_name"]
    assert world.get(EXPENSES, eid)["receipt_download_count"] == 1
    assert any(r["path"] == out["file_path"] and r["content"] == content for r in world.rows(FILES))
    assert "already exists" in call.fail("splitwise_download_expense_receipt_file", expense_id=eid,
                                         file_system_access_token="fs")
    custom = call("splitwise_download_expense_receipt_file", expense_id=eid, file_system_access_token="fs",
                  download_to_file_path="~/documents/hw.txt")
    assert custom["file_path"] == home + "documents/hw.txt"
    call("splitwise_download_expense_receipt_file", expense_id=eid, file_system_access_token="fs",
         download_to_file_path="~/documents/hw.txt", overwrite=True)
    other = "~/documents/personal/resume.txt"
    assert "already has a receipt" in call.fail("splitwise_attach_expense_receipt_file", expense_id=eid,
                                                receipt_file_path=other, file_system_access_token="fs")
    call("splitwise_attach_expense_receipt_file", expense_id=eid, receipt_file_path=other,
         file_system_access_token="fs", overwrite=True)
    assert world.get(EXPENSES, eid)["receipt_file_name"] == "resume.txt"
    call("splitwise_delete_expense_receipt_file", expense_id=eid)
    assert world.get(EXPENSES, eid)["receipt_file_name"] is None
    assert "has no receipt" in call.fail("splitwise_delete_expense_receipt_file", expense_id=eid)
    assert "no receipt file to download" in call.fail("splitwise_download_expense_receipt_file", expense_id=eid,
                                                      file_system_access_token="fs")
    assert "does not exist" in call.fail("splitwise_attach_expense_receipt_file", expense_id=eid,
                                         receipt_file_path="~/nope.txt", file_system_access_token="fs")
    assert "compressed file" in call.fail("splitwise_attach_expense_receipt_file", expense_id=eid,
                                          receipt_file_path="~/backups/photos_2024.zip", file_system_access_token="fs")
    assert "file_system_access_token is required" in call.fail(
        "splitwise_record_expense", description="x", paid_amount=5, payer_email=my_email(world), debtor_emails=[a],
        receipt_file_path=receipt)
    call("file_system_logout")
    assert "not logged in to file_system" in call.fail("splitwise_attach_expense_receipt_file", expense_id=eid,
                                                       receipt_file_path=receipt, file_system_access_token="fs")
    hidden = next(e for e in world.rows(EXPENSES) if e["group_id"] == foreign_group(world)["id"])
    assert "not visible" in call.fail("splitwise_delete_expense_receipt_file", expense_id=hidden["id"])


def test_payment_receipts(call, world):
    home = home_directory(world, world.user_id)
    gid, picks = fresh_group(call, world)
    a = email(world, picks[0])
    pid = call("splitwise_record_payment", payer_email=my_email(world), receiver_email=a, amount=12, group_id=gid,
               receipt_file_path="~/downloads/invoice_1042.pdf", file_system_access_token="t")["payment_id"]
    assert world.get(PAYMENTS, pid)["receipt_file_name"] == "invoice_1042.pdf"
    out = call("splitwise_download_payment_receipt_file", payment_id=pid, file_system_access_token="t",
               download_to_file_path="~/documents/")
    assert out["file_path"] == home + "documents/invoice_1042.pdf"
    assert "already has a receipt" in call.fail("splitwise_attach_payment_receipt_file", payment_id=pid,
                                                receipt_file_path="~/downloads/podcast_list.txt", file_system_access_token="t")
    call("splitwise_attach_payment_receipt_file", payment_id=pid, receipt_file_path="~/downloads/podcast_list.txt",
         file_system_access_token="t", overwrite=True)
    assert "Planet Money" in world.get(PAYMENTS, pid)["receipt_file_content"]
    call("splitwise_delete_payment_receipt_file", payment_id=pid)
    assert world.get(PAYMENTS, pid)["receipt_file_content"] is None
    assert "has no receipt" in call.fail("splitwise_delete_payment_receipt_file", payment_id=pid)
    assert "no receipt file" in call.fail("splitwise_download_payment_receipt_file", payment_id=pid,
                                          file_system_access_token="t")
    assert "file_system_access_token is required" in call.fail(
        "splitwise_attach_payment_receipt_file", payment_id=pid, receipt_file_path="~/downloads/podcast_list.txt",
        file_system_access_token=" ")
    call("splitwise_delete_payment", payment_id=pid)
    assert "is deleted" in call.fail("splitwise_attach_payment_receipt_file", payment_id=pid,
                                     receipt_file_path="~/downloads/podcast_list.txt", file_system_access_token="t")


# ---------------------------------------------------------------------------- payments
def test_record_show_update_delete_payment(call, world):
    gid, picks = fresh_group(call, world)
    me, a, b = my_email(world), email(world, picks[0]), email(world, picks[1])
    call("splitwise_record_expense", description="Rent", paid_amount=300, payer_email=me,
         debtor_emails=[me, a, b], group_id=gid)
    pid = call("splitwise_record_payment", payer_email=a, receiver_email=me, amount=60, group_id=gid,
               description="Part of rent")["payment_id"]
    row = world.get(PAYMENTS, pid)
    assert (row["payer_id"], row["receiver_id"], row["amount"], row["creator_id"]) == (picks[0], world.user_id, 60.0, world.user_id)
    assert balance_with(call, a) == 40.0
    assert world.first(NOTIFICATIONS, user_id=picks[0], payment_id=pid) is not None
    view = call("splitwise_show_payment", payment_id=pid)
    assert view["payer"]["email"] == a and view["description"] == "Part of rent" and view["group_name"] == "Test House"
    between_others = call("splitwise_record_payment", payer_email=b, receiver_email=a, amount=5, group_id=gid)
    assert world.get(PAYMENTS, between_others["payment_id"])["description"] == "Payment"
    call("splitwise_update_payment", payment_id=pid, amount=100)
    assert balance_with(call, a) == 0.0 and world.get(PAYMENTS, pid)["updated_at"] == NOW
    call("splitwise_update_payment", payment_id=pid, description="All of it")
    assert world.get(PAYMENTS, pid)["description"] == "All of it"
    assert "nothing to update" in call.fail("splitwise_update_payment", payment_id=pid)
    assert "more than 0" in call.fail("splitwise_update_payment", payment_id=pid, amount=-3)
    call("splitwise_delete_payment", payment_id=pid)
    assert world.get(PAYMENTS, pid)["deleted"] is True and balance_with(call, a) == 100.0
    assert "already deleted" in call.fail("splitwise_delete_payment", payment_id=pid)
    assert "is deleted" in call.fail("splitwise_update_payment", payment_id=pid, amount=1)
    call("splitwise_undelete_payment", payment_id=pid)
    assert balance_with(call, a) == 0.0
    assert "not deleted" in call.fail("splitwise_undelete_payment", payment_id=pid)
    solo = call("splitwise_record_payment", payer_email=me, receiver_email=b, amount=7.5)
    assert world.get(PAYMENTS, solo["payment_id"])["group_id"] is None
    errors = {
        "must be different": dict(payer_email=a, receiver_email=a, amount=5),
        "more than 0": dict(payer_email=me, receiver_email=a, amount=0),
        "must involve you": dict(payer_email=a, receiver_email=b, amount=5),
        "not in group": dict(payer_email=me, receiver_email=email(world, outsider(world, gid)), amount=5, group_id=gid),
        "not a member": dict(payer_email=me, receiver_email=a, amount=5, group_id=foreign_group(world)["id"]),
        "no splitwise receiver": dict(payer_email=me, receiver_email="ghost@x.org", amount=5),
    }
    for message, args in errors.items():
        assert message in call.fail("splitwise_record_payment", **args), message
    hidden = next(p for p in world.rows(PAYMENTS) if world.user_id not in member_ids(world, p["group_id"] or 0)
                  and world.user_id not in (p["payer_id"], p["receiver_id"]))
    for name in ("splitwise_show_payment", "splitwise_delete_payment", "splitwise_undelete_payment"):
        assert "not visible" in call.fail(name, payment_id=hidden["id"])
    assert "not visible" in call.fail("splitwise_update_payment", payment_id=hidden["id"], amount=1)


def test_search_payments(call, world):
    gid = max(my_groups(world), key=lambda g: world.count(PAYMENTS, group_id=g["id"]))["id"]
    live = [p for p in world.rows(PAYMENTS) if p["group_id"] == gid and not p["deleted"]]
    listed = call("splitwise_show_group_payments", group_id=gid, page_limit=20)
    assert len(listed) == min(20, len(live))
    assert all(p["group_id"] == gid for p in listed)
    who = live[0]["payer_id"]
    mine = call("splitwise_show_group_payments", group_id=gid, participant_email=email(world, who), page_limit=20)
    assert mine and all(email(world, who) in (p["payer"]["email"], p["receiver"]["email"]) for p in mine)
    big = call("splitwise_show_group_payments", group_id=gid, sort_by="-amount", page_limit=20)
    assert [p["amount"] for p in big] == sorted((p["amount"] for p in big), reverse=True)
    assert call("splitwise_show_group_payments", group_id=gid, min_amount=10**9) == []
    assert call("splitwise_show_group_payments", group_id=gid, max_created_at="2000-01-01") == []
    partial = call("splitwise_show_group_payments", group_id=gid, query="partial", page_limit=20)
    assert all("partial" in p["description"].lower() for p in partial)
    assert "not a member" in call.fail("splitwise_show_group_payments", group_id=foreign_group(world)["id"])
    assert "sort_by" in call.fail("splitwise_show_group_payments", group_id=gid, sort_by="-payer")
    solo = call("splitwise_show_no_group_payments", page_limit=20)
    assert solo and all(p["group_id"] is None and my_email(world) in (p["payer"]["email"], p["receiver"]["email"])
                        for p in solo)
    call("splitwise_delete_payment", payment_id=solo[0]["payment_id"])
    gone = call("splitwise_show_no_group_payments", deleted=True)
    assert [p["payment_id"] for p in gone] == [solo[0]["payment_id"]]
    assert "cannot read" in call.fail("splitwise_show_no_group_payments", max_created_at="soon")


def test_settle_up(call, world):
    gid, picks = fresh_group(call, world)
    me, a, b = my_email(world), email(world, picks[0]), email(world, picks[1])
    call("splitwise_record_expense", description="Boat", paid_amount=120, payer_email=a, debtor_emails=[me, a, b], group_id=gid)
    call("splitwise_record_expense", description="Coffee", paid_amount=10, payer_email=me, debtor_emails=[a])
    assert balance_with(call, a) == -30.0
    out = call("splitwise_settle_up", email=a, group_id=gid)
    pay = world.get(PAYMENTS, out["payment_ids"][0])
    assert (pay["payer_id"], pay["receiver_id"], pay["amount"], pay["group_id"]) == (world.user_id, picks[0], 40.0, gid)
    assert pay["description"] == "Settle up balance."
    assert balance_with(call, a) == 10.0
    assert "already settled up in group" in call.fail("splitwise_settle_up", email=a, group_id=gid)
    everything = call("splitwise_settle_up", email=a, description="Even now")
    assert len(everything["payment_ids"]) == 1 and balance_with(call, a) == 0.0
    assert world.get(PAYMENTS, everything["payment_ids"][0])["payer_id"] == picks[0]
    assert "already settled up anywhere" in call.fail("splitwise_settle_up", email=a)
    # a friend with balances in several groups gets one payment per group
    friend = max(call("splitwise_show_people_balance")["people"],
                 key=lambda p: len(call("splitwise_show_person_balance", email=p["email"])["groups"]))
    groups = call("splitwise_show_person_balance", email=friend["email"])["groups"]
    settled = call("splitwise_settle_up", email=friend["email"])
    assert len(settled["payment_ids"]) == len(groups) and balance_with(call, friend["email"]) == 0.0
    assert "yourself" in call.fail("splitwise_settle_up", email=me)
    assert "not a member" in call.fail("splitwise_settle_up", email=a, group_id=foreign_group(world)["id"])
    assert "no splitwise user" in call.fail("splitwise_settle_up", email="ghost@x.org")


# ---------------------------------------------------------------------------- balances
def test_balance_views_agree(call, world):
    people = call("splitwise_show_people_balance")
    assert people["net_balance"] == round(people["total_owed_to_you"] - people["total_you_owe"], 2)
    assert round(sum(p["balance"] for p in people["people"]), 2) == people["net_balance"]
    assert all(p["balance"] != 0 for p in people["people"])
    top = people["people"][0]
    detail = call("splitwise_show_person_balance", email=top["email"])
    assert detail["balance"] == top["balance"] and round(sum(g["balance"] for g in detail["groups"]), 2) == top["balance"]
    per_group = call("splitwise_show_groups_balance")
    assert round(sum(g["balance"] for g in per_group), 2) == people["net_balance"]
    assert per_group[-1]["group_id"] is None
    gid = next(g["group_id"] for g in per_group if g["balance"])
    group = call("splitwise_show_group_balance", group_id=gid)
    assert group["your_balance"] == next(g["balance"] for g in per_group if g["group_id"] == gid)
    assert round(sum(m["balance"] for m in group["members"]), 2) == 0.0
    member = next(m for m in group["members"] if m["email"] != my_email(world))
    pairwise = call("splitwise_show_group_balance", group_id=gid, email=member["email"])
    assert pairwise["balance"] == member["balance"]
    assert round(sum(m["balance"] for m in pairwise["with_members"]), 2) == member["balance"]
    mine = next(m for m in pairwise["with_members"] if m["email"] == my_email(world))
    with_me = [g["balance"] for g in call("splitwise_show_person_balance", email=member["email"])["groups"]
               if g["group_id"] == gid]
    assert mine["balance"] == -(with_me[0] if with_me else 0.0)
    loose = call("splitwise_show_group_balance")
    assert loose["group_id"] is None and loose["your_balance"] == per_group[-1]["balance"]
    friend = next(m for m in loose["members"] if m["email"] != my_email(world) and m["balance"])
    one = call("splitwise_show_group_balance", email=friend["email"])
    assert [m["email"] for m in one["with_members"]] == [my_email(world)]
    assert "not a member of group" in call.fail("splitwise_show_group_balance", group_id=gid,
                                                email=email(world, outsider(world, gid)))
    assert "not a member" in call.fail("splitwise_show_group_balance", group_id=foreign_group(world)["id"])
    assert "your own email" in call.fail("splitwise_show_person_balance", email=my_email(world))
    assert "no splitwise user" in call.fail("splitwise_show_person_balance", email="ghost@x.org")


def test_person_balance_is_signed_from_my_side(call, world):
    gid, picks = fresh_group(call, world)
    a = email(world, picks[0])
    call("splitwise_record_expense", description="Lunch", paid_amount=20, payer_email=a, debtor_emails=[my_email(world)],
         group_id=gid)
    detail = call("splitwise_show_person_balance", email=a)
    assert detail == {"name": detail["name"], "email": a, "balance": -20.0,
                      "groups": [{"group_id": gid, "group_name": "Test House", "balance": -20.0}]}
    assert call("splitwise_show_group_balance", group_id=gid, email=a)["with_members"][0]["balance"] == 20.0


# ---------------------------------------------------------------------------- comments
def test_expense_comments(call, world):
    gid, picks = fresh_group(call, world)
    eid = call("splitwise_record_expense", description="Cake", paid_amount=30, payer_email=email(world, picks[0]),
               debtor_emails=[my_email(world)], group_id=gid)["expense_id"]
    cid = call("splitwise_post_expense_comment", expense_id=eid, comment="Delicious!")["comment_id"]
    row = world.get(EXPENSE_COMMENTS, cid)
    assert (row["expense_id"], row["user_id"], row["comment"], row["created_at"]) == (eid, world.user_id, "Delicious!", NOW)
    assert world.first(NOTIFICATIONS, user_id=picks[0], type="comment_posted", expense_id=eid) is not None
    call("splitwise_post_expense_comment", expense_id=eid, comment="Second")
    listed = call("splitwise_show_expense_comments", expense_id=eid)
    assert [c["comment"] for c in listed] == ["Delicious!", "Second"] and listed[0]["author"]["email"] == my_email(world)
    assert call("splitwise_show_expense_comments", expense_id=eid, page_index=1, page_limit=1)[0]["comment"] == "Second"
    call("splitwise_update_expense_comment", comment_id=cid, comment="Really delicious")
    assert call("splitwise_show_expense_comment", comment_id=cid)["comment"] == "Really delicious"
    call("splitwise_delete_expense_comment", comment_id=cid)
    assert world.get(EXPENSE_COMMENTS, cid) is None
    assert "does not exist" in call.fail("splitwise_show_expense_comment", comment_id=cid)
    assert "does not exist" in call.fail("splitwise_update_expense_comment", comment_id=cid, comment="x")
    assert "must not be empty" in call.fail("splitwise_post_expense_comment", expense_id=eid, comment="  ")
    visible_groups = {g["id"] for g in my_groups(world)}
    theirs = next(c for c in world.rows(EXPENSE_COMMENTS) if c["user_id"] != world.user_id
                  and world.get(EXPENSES, c["expense_id"])["group_id"] in visible_groups)
    assert call("splitwise_show_expense_comment", comment_id=theirs["id"])["comment"] == theirs["comment"]
    assert "only change your own" in call.fail("splitwise_update_expense_comment", comment_id=theirs["id"], comment="x")
    assert "only change your own" in call.fail("splitwise_delete_expense_comment", comment_id=theirs["id"])
    hidden_exp = next(e for e in world.rows(EXPENSES) if e["group_id"] == foreign_group(world)["id"])
    assert "not visible" in call.fail("splitwise_post_expense_comment", expense_id=hidden_exp["id"], comment="hi")
    assert "not visible" in call.fail("splitwise_show_expense_comments", expense_id=hidden_exp["id"])
    world.insert(EXPENSE_COMMENTS, {"id": world.new_id(EXPENSE_COMMENTS), "expense_id": hidden_exp["id"],
                                    "user_id": hidden_exp["payer_id"], "comment": "secret"})
    secret = max(r["id"] for r in world.rows(EXPENSE_COMMENTS))
    assert "does not exist" in call.fail("splitwise_show_expense_comment", comment_id=secret)
    assert "does not exist" in call.fail("splitwise_delete_expense_comment", comment_id=secret)


def test_payment_comments(call, world):
    gid, picks = fresh_group(call, world)
    pid = call("splitwise_record_payment", payer_email=email(world, picks[0]), receiver_email=my_email(world),
               amount=9, group_id=gid)["payment_id"]
    cid = call("splitwise_post_payment_comment", payment_id=pid, comment="Thanks!")["comment_id"]
    assert world.get(PAYMENT_COMMENTS, cid)["payment_id"] == pid
    for i in range(6):
        call("splitwise_post_payment_comment", payment_id=pid, comment=f"note {i}")
    assert len(call("splitwise_show_payment_comments", payment_id=pid)) == 7  # not paginated
    call("splitwise_update_payment_comment", comment_id=cid, comment="Thanks a lot!")
    assert call("splitwise_show_payment_comment", comment_id=cid)["comment"] == "Thanks a lot!"
    call("splitwise_delete_payment_comment", comment_id=cid)
    assert world.get(PAYMENT_COMMENTS, cid) is None
    assert "does not exist" in call.fail("splitwise_delete_payment_comment", comment_id=cid)
    assert "must not be empty" in call.fail("splitwise_update_payment_comment", comment_id=cid + 1, comment="")
    theirs = next(c for c in world.rows(PAYMENT_COMMENTS) if c["user_id"] != world.user_id
                  and world.get(PAYMENTS, c["payment_id"])["group_id"] in {g["id"] for g in my_groups(world)})
    assert "only change your own" in call.fail("splitwise_update_payment_comment", comment_id=theirs["id"], comment="x")
    assert "not visible" in call.fail("splitwise_post_payment_comment", payment_id=10**7, comment="x")
    assert "not visible" in call.fail("splitwise_show_payment_comments", payment_id=10**7)
    assert "does not exist" in call.fail("splitwise_show_payment_comment", comment_id=10**7)


# ---------------------------------------------------------------------------- notifications
def test_notifications(call, world):
    uid = world.user_id
    unread = world.count(NOTIFICATIONS, user_id=uid, read=False)
    total = world.count(NOTIFICATIONS, user_id=uid)
    assert 0 < unread < total
    assert call("splitwise_show_notifications_count") == {"count": total}
    assert call("splitwise_show_notifications_count", read=False) == {"count": unread}
    newest = call("splitwise_show_notifications", page_limit=20)
    assert all(a["created_at"] >= b["created_at"] for a, b in zip(newest, newest[1:]))
    assert all(not n["read"] for n in call("splitwise_show_notifications", read=False, page_limit=20))
    nid = newest[0]["notification_id"]
    call("splitwise_mark_notification", notification_id=nid, read=True)
    assert world.get(NOTIFICATIONS, nid)["read"] is True
    call("splitwise_mark_notification", notification_id=nid, read=False)
    assert world.get(NOTIFICATIONS, nid)["read"] is False
    out = call("splitwise_mark_notifications", read=True)
    assert out["changed"] == unread and call("splitwise_show_notifications_count", read=False) == {"count": 0}
    call("splitwise_mark_notifications", read=False)
    assert call("splitwise_show_notifications_count", read=True) == {"count": 0}
    call("splitwise_delete_notification", notification_id=nid)
    assert world.get(NOTIFICATIONS, nid) is None
    assert "does not exist" in call.fail("splitwise_delete_notification", notification_id=nid)
    assert "does not exist" in call.fail("splitwise_mark_notification", notification_id=nid, read=True)
    gid, picks = fresh_group(call, world)  # notifies others, not me
    foreign = world.first(NOTIFICATIONS, user_id=picks[0])
    assert "does not exist" in call.fail("splitwise_delete_notification", notification_id=foreign["id"])
    assert call("splitwise_delete_notifications")["deleted"] == total - 1
    assert world.count(NOTIFICATIONS, user_id=uid) == 0 and world.get(NOTIFICATIONS, foreign["id"]) is not None
    assert call("splitwise_show_notifications") == []
    assert "'read'" in call.fail("splitwise_mark_notifications", read="yes")


# ---------------------------------------------------------------------------- device and accounts
def test_needs_network_and_login(call):
    call.go_offline()
    assert "no network" in call.fail("splitwise_show_groups")
    call("set_wifi_status", on=True)
    call("splitwise_logout")
    assert "not logged in" in call.fail("splitwise_show_people_balance")


def test_acting_as_another_user(call, world):
    foreign = foreign_group(world)
    member = world.get(USERS, member_ids(world, foreign["id"])[0])
    call("splitwise_logout")
    call("splitwise_login", username=member["email"], password=member["password"])
    assert foreign["id"] in [g["group_id"] for g in call("splitwise_show_groups", page_limit=20)]
    assert call("splitwise_show_group", group_id=foreign["id"])["name"] == foreign["name"]
    mine = next(g["id"] for g in my_groups(world) if member["id"] not in member_ids(world, g["id"]))
    assert "not a member" in call.fail("splitwise_show_group", group_id=mine)


def test_account_tools(call, world):
    me = world.get(USERS, world.user_id)
    assert call("splitwise_show_account")["email"] == me["email"] and "password" not in call("splitwise_show_account")
    other = next(r for r in world.rows(USERS) if r["id"] != world.user_id)
    assert call("splitwise_show_profile", email=other["email"])["last_name"] == other["last_name"]
    call("splitwise_update_account_name", first_name="Maggie")
    assert world.get(USERS, world.user_id)["first_name"] == "Maggie"
    call("splitwise_send_password_reset_code", email=me["email"])
    code = world.first(CODES, app="splitwise", identity=me["email"], purpose="password_reset")["code"]
    call("splitwise_reset_password", email=me["email"], password_reset_code=code, new_password="brandnew1")
    call("splitwise_logout")
    assert world.get(SESSIONS, "splitwise")["logged_in"] is False
    call("splitwise_login", username=me["email"], password="brandnew1")
    new = call("splitwise_signup", first_name="Ann", last_name="Lee", email="ann.lee@example.com", password="secret1")
    call("splitwise_send_verification_code", email="ann.lee@example.com")
    vcode = world.first(CODES, app="splitwise", identity="ann.lee@example.com", purpose="verification")["code"]
    assert "invalid" in call.fail("splitwise_verify_account", email="ann.lee@example.com", verification_code="1")
    call("splitwise_verify_account", email="ann.lee@example.com", verification_code=vcode)
    assert world.get(USERS, new["user_id"])["verified"] is True
    assert "already exists" in call.fail("splitwise_signup", first_name="A", last_name="B", email=me["email"],
                                         password="secret1")
    call("splitwise_delete_account")
    assert world.get(USERS, world.user_id) is None
    assert "not logged in" in call.fail("splitwise_show_groups")
    assert world.count(MEMBERS, user_id=world.user_id) > 0  # memberships stay for the history of others


def test_account_and_listing_error_paths(call, world):
    me = world.get(USERS, world.user_id)
    assert "no splitwise user" in call.fail("splitwise_show_profile", email="ghost@x.org")
    assert "no account" in call.fail("splitwise_send_verification_code", email="ghost@x.org")
    assert "no account" in call.fail("splitwise_send_password_reset_code", email="ghost@x.org")
    assert "invalid or expired" in call.fail("splitwise_reset_password", email=me["email"], password_reset_code="1",
                                             new_password="abcdef1")
    assert "give first_name" in call.fail("splitwise_update_account_name")
    assert "invalid username" in call.fail("splitwise_login", username=me["email"], password="wrong-password")
    assert "page_limit" in call.fail("splitwise_show_notifications", page_limit=50)
    assert "'read'" in call.fail("splitwise_show_notifications_count", read="no")
    call("splitwise_logout")
    for name in ("splitwise_show_account", "splitwise_logout", "splitwise_delete_account", "splitwise_show_groups_balance",
                 "splitwise_delete_notifications", "splitwise_show_profile"):
        assert "not logged in" in call.fail(name), name
