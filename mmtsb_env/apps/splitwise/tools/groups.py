"""Splitwise: users, activity, groups, balances and notifications."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, paginate, search_rank, sort_rows

from ..tables import (
    APP, EXPENSES, GROUPS, MEMBERS, NOTIFICATIONS, PAYMENTS, REQ, USERS, debts, deleted_groups, friends_since,
    full_name, group_name, group_nets, group_view, groups_of, me, member_ids, money, new_invitation_code, notify,
    pair_balances, person, require_group, shares_by_expense, user_by_email,
)


@tool(app=APP, requires=REQ)
def splitwise_search_users(world, query: str | None = "", include_self: bool | None = False,
                           page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Search Splitwise users by name or email; people you share groups or expenses with come first.

    Args:
        query: words to match against first name, last name and email (empty lists everyone).
        include_self: also list your own account.
        page_index: page to return, from 0.
        page_limit: users per page (1-20).
    """
    user = me(world)
    since = friends_since(world, user["id"])
    rows = [r for r in world.rows(USERS) if include_self or r["id"] != user["id"]]
    rows.sort(key=lambda r: (r["id"] not in since, r["id"]))
    ranked = search_rank(rows, query, ("first_name", "last_name", "email"))
    return [
        {"user_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"], "name": full_name(r),
         "email": r["email"], "registered_at": r["created_at"], "friends_since": since.get(r["id"])}
        for r in paginate(ranked, page_index, page_limit)
    ]


@tool(app=APP, requires=REQ)
def splitwise_show_activity(world, show_expenses: bool | None = True, show_payments: bool | None = True,
                            page_index: int | None = 0, page_limit: int | None = 5,
                            sort_by: str | None = "-created_at") -> list:
    """Your activity feed: expenses and payments in your groups or involving you, with their effect on your balance.

    Args:
        show_expenses: include expenses.
        show_payments: include payments.
        page_index: page to return, from 0.
        page_limit: items per page (1-20).
        sort_by: "created_at" or "amount", prefix "-" for descending (default newest first).
    """
    uid = me(world)["id"]
    mine = groups_of(world, uid)
    dead = deleted_groups(world)
    shares = shares_by_expense(world)
    items: list[dict[str, Any]] = []
    if show_expenses is not False:
        for exp in world.rows(EXPENSES):
            if exp["deleted"] or exp["group_id"] in dead:
                continue
            parts = shares.get(exp["id"], ())
            involved = exp["payer_id"] == uid or any(s["user_id"] == uid for s in parts)
            if not involved and exp["group_id"] not in mine:
                continue
            if exp["payer_id"] == uid:
                effect = sum(round(s["amount"] * 100) for s in parts if s["user_id"] != uid)
            else:
                effect = -sum(round(s["amount"] * 100) for s in parts if s["user_id"] == uid)
            items.append({"type": "expense", "expense_id": exp["id"], "description": exp["description"],
                          "amount": exp["paid_amount"], "payer": person(world, exp["payer_id"]),
                          "group_id": exp["group_id"], "group_name": group_name(world, exp["group_id"]),
                          "created_at": exp["created_at"], "your_balance_change": money(effect)})
    if show_payments is not False:
        for pay in world.rows(PAYMENTS):
            if pay["deleted"] or pay["group_id"] in dead:
                continue
            if uid not in (pay["payer_id"], pay["receiver_id"]) and pay["group_id"] not in mine:
                continue
            cents = round(pay["amount"] * 100)
            effect = cents if pay["payer_id"] == uid else -cents if pay["receiver_id"] == uid else 0
            items.append({"type": "payment", "payment_id": pay["id"], "description": pay["description"],
                          "amount": pay["amount"], "payer": person(world, pay["payer_id"]),
                          "receiver": person(world, pay["receiver_id"]), "group_id": pay["group_id"],
                          "group_name": group_name(world, pay["group_id"]), "created_at": pay["created_at"],
                          "your_balance_change": money(effect)})
    items = sort_rows(items, sort_by or "-created_at", ("created_at", "amount"))
    return paginate(items, page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_create_group(world, name: str, member_emails: list[str], description: str | None = None) -> dict:
    """Create a group with you and the given people as members; you become its creator.

    Args:
        name: name of the group.
        member_emails: emails of the other members (you are added automatically).
        description: what the group is for.
    """
    uid = me(world)["id"]
    nonblank(name, "name")
    members = [uid]
    for email in member_emails:
        other = user_by_email(world, email)
        if other["id"] not in members:
            members.append(other["id"])
    gid = world.new_id(GROUPS)
    now = now_str(world)
    world.insert(GROUPS, {"id": gid, "name": name.strip(), "description": description, "creator_id": uid,
                          "invitation_code": new_invitation_code(world, gid), "deleted": False,
                          "created_at": now, "updated_at": now})
    for member in members:
        world.insert(MEMBERS, {"id": world.new_id(MEMBERS), "group_id": gid, "user_id": member, "created_at": now})
    notify(world, members, "group_added", f"{full_name(me(world))} added you to the group \"{name.strip()}\".",
           actor_id=uid, group_id=gid)
    return {"message": "Group created.", "group_id": gid}


@tool(app=APP, requires=REQ)
def splitwise_show_groups(world, delete: bool | None = False, page_index: int | None = 0,
                          page_limit: int | None = 5) -> list:
    """List the groups you are a member of, newest first.

    Args:
        delete: false (default) lists your active groups; true lists your deleted groups (which can be undeleted).
        page_index: page to return, from 0.
        page_limit: groups per page (1-20).
    """
    uid = me(world)["id"]
    mine = groups_of(world, uid)
    rows = [g for g in world.rows(GROUPS) if g["id"] in mine and bool(g["deleted"]) == bool(delete)]
    rows.sort(key=lambda g: (g["created_at"], g["id"]), reverse=True)
    return [group_view(world, g) for g in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def splitwise_show_group(world, group_id: int) -> dict:
    """Show a group you are a member of: members, creator, invitation code and your balance in it.

    Args:
        group_id: id of the group.
    """
    uid = me(world)["id"]
    return group_view(world, require_group(world, uid, group_id), viewer=uid)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_update_group(world, group_id: int, name: str | None = None, description: str | None = None) -> dict:
    """Rename a group or change its description (any member may).

    Args:
        group_id: id of the group.
        name: new name.
        description: new description.
    """
    uid = me(world)["id"]
    require_group(world, uid, group_id, active=True)
    if name is None and description is None:
        raise InvalidArgument("nothing to update: give name, description or both")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = nonblank(name, "name").strip()
    if description is not None:
        changes["description"] = description
    world.update(GROUPS, group_id, **changes, updated_at=now_str(world))
    return {"message": "Group updated.", "group_id": group_id}


def set_deleted(world: Any, table: str, row: dict[str, Any], what: str, deleted: bool) -> dict:
    """Soft-delete (or restore) a group, expense or payment row that is in the other state."""
    if row["deleted"] == deleted:
        raise Conflict(f"{what} {row['id']} is {'already deleted' if deleted else 'not deleted'}")
    world.update(table, row["id"], deleted=deleted, updated_at=now_str(world))
    return {"message": f"{what.title()} {'deleted' if deleted else 'restored'}.", f"{what}_id": row["id"]}


def _set_group_deleted(world: Any, group_id: int, deleted: bool) -> dict:
    """Delete or undelete a group: only its creator may."""
    uid = me(world)["id"]
    group = require_group(world, uid, group_id)
    if group["creator_id"] != uid:
        action = "delete" if deleted else "undelete"
        raise PermissionDenied(f"only the creator of group {group_id} ({group['name']}) can {action} it")
    return set_deleted(world, GROUPS, group, "group", deleted)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_group(world, group_id: int) -> dict:
    """Delete a group you created; its expenses and payments stop counting toward balances until it is undeleted.

    Args:
        group_id: id of the group.
    """
    return _set_group_deleted(world, group_id, True)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_undelete_group(world, group_id: int) -> dict:
    """Restore a deleted group you created.

    Args:
        group_id: id of the group.
    """
    return _set_group_deleted(world, group_id, False)


def _add_member(world: Any, group_id: int, user_id: int) -> None:
    world.insert(MEMBERS, {"id": world.new_id(MEMBERS), "group_id": group_id, "user_id": user_id,
                           "created_at": now_str(world)})


@tool(app=APP, writes=True, requires=REQ)
def splitwise_add_member_to_group(world, group_id: int, user_email: str) -> dict:
    """Add a Splitwise user to a group you are a member of.

    Args:
        group_id: id of the group.
        user_email: email of the user to add.
    """
    user = me(world)
    group = require_group(world, user["id"], group_id, active=True)
    other = user_by_email(world, user_email)
    if other["id"] in member_ids(world, group_id):
        raise Conflict(f"{user_email} is already a member of group {group_id}")
    _add_member(world, group_id, other["id"])
    notify(world, [other["id"]], "group_added", f"{full_name(user)} added you to the group \"{group['name']}\".",
           actor_id=user["id"], group_id=group_id)
    return {"message": "Member added.", "group_id": group_id}


def _remove_link(world: Any, group_id: int, user_id: int) -> None:
    for link in world.select(MEMBERS, group_id=group_id, user_id=user_id):
        world.delete(MEMBERS, link["id"])


@tool(app=APP, writes=True, requires=REQ)
def splitwise_remove_member_from_group(world, group_id: int, user_email: str) -> dict:
    """Remove another member from a group; only possible when their balance in the group is settled.

    Args:
        group_id: id of the group.
        user_email: email of the member to remove.
    """
    uid = me(world)["id"]
    group = require_group(world, uid, group_id, active=True)
    other = user_by_email(world, user_email)
    if other["id"] == uid:
        raise InvalidArgument("to leave a group yourself use splitwise_exit_group")
    if other["id"] not in member_ids(world, group_id):
        raise NotFound(f"{user_email} is not a member of group {group_id}")
    net = group_nets(world, group_id).get(other["id"], 0)
    if net:
        raise Conflict(f"{user_email} has an unsettled balance of {money(net):.2f} in group \"{group['name']}\"; settle up first")
    _remove_link(world, group_id, other["id"])
    return {"message": "Member removed.", "group_id": group_id}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_exit_group(world, group_id: int) -> dict:
    """Leave a group; only possible when your balance in it is settled.

    Args:
        group_id: id of the group.
    """
    uid = me(world)["id"]
    group = require_group(world, uid, group_id)
    net = group_nets(world, group_id).get(uid, 0) if not group["deleted"] else 0
    if net:
        raise Conflict(f"your balance in group \"{group['name']}\" is {money(net):.2f}; settle up before leaving")
    _remove_link(world, group_id, uid)
    return {"message": "You left the group.", "group_id": group_id}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_regenerate_invitation_code(world, group_id: int) -> dict:
    """Replace a group's invitation code (the old one stops working).

    Args:
        group_id: id of the group.
    """
    uid = me(world)["id"]
    require_group(world, uid, group_id, active=True)
    code = new_invitation_code(world, group_id)
    world.update(GROUPS, group_id, invitation_code=code, updated_at=now_str(world))
    return {"message": "Invitation code regenerated.", "group_id": group_id, "invitation_code": code}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_accept_group_invitation(world, invitation_code: str) -> dict:
    """Join a group with its invitation code.

    Args:
        invitation_code: the code shared by a member of the group.
    """
    user = me(world)
    code = invitation_code.strip().lower()
    group = next((g for g in world.rows(GROUPS) if g["invitation_code"] == code and not g["deleted"]), None)
    if not code or group is None:
        raise NotFound(f"no active group has invitation code {invitation_code!r}")
    if user["id"] in member_ids(world, group["id"]):
        raise Conflict(f"you are already a member of group {group['id']} ({group['name']})")
    _add_member(world, group["id"], user["id"])
    notify(world, member_ids(world, group["id"]), "member_joined",
           f"{full_name(user)} joined the group \"{group['name']}\".", actor_id=user["id"], group_id=group["id"])
    return {"message": "You joined the group.", "group_id": group["id"]}


# --------------------------------------------------------------------------------- balances
@tool(app=APP, requires=REQ)
def splitwise_show_person_balance(world, email: str) -> dict:
    """Your balance with one person, in total and per group (positive: they owe you; negative: you owe them).

    Args:
        email: email of the other person.
    """
    uid = me(world)["id"]
    other = user_by_email(world, email)
    if other["id"] == uid:
        raise InvalidArgument("that is your own email; give someone else's")
    pairs = pair_balances(world, uid)
    groups = [
        {"group_id": gid, "group_name": group_name(world, gid) if gid is not None else "Non-group expenses",
         "balance": money(cents)}
        for (gid, oid), cents in sorted(pairs.items(), key=lambda kv: (kv[0][0] is not None, kv[0][0] or 0))
        if oid == other["id"] and cents
    ]
    total = sum(c for (gid, oid), c in pairs.items() if oid == other["id"])
    return {"name": full_name(other), "email": other["email"], "balance": money(total), "groups": groups}


@tool(app=APP, requires=REQ)
def splitwise_show_people_balance(world) -> dict:
    """Your overall balance with every person you have an open balance with, plus totals."""
    uid = me(world)["id"]
    per: dict[int, int] = defaultdict(int)
    for (gid, oid), cents in pair_balances(world, uid).items():
        per[oid] += cents
    people = []
    for oid, cents in sorted(per.items(), key=lambda kv: (-kv[1], kv[0])):
        if cents:
            p = person(world, oid)
            people.append({"name": p["name"], "email": p["email"], "balance": money(cents)})
    owed = sum(c for c in per.values() if c > 0)
    owing = -sum(c for c in per.values() if c < 0)
    return {"total_owed_to_you": money(owed), "total_you_owe": money(owing), "net_balance": money(owed - owing),
            "people": people}


@tool(app=APP, requires=REQ)
def splitwise_show_group_balance(world, group_id: int | None = None, email: str | None = None) -> dict:
    """Balances inside a group: each member's net (positive: is owed money), or one member's balance with each other member.

    Args:
        group_id: id of the group; omit for your expenses and payments outside any group.
        email: a member's email to see who owes them and whom they owe (positive: the other member owes them).
    """
    uid = me(world)["id"]
    if group_id is not None:
        group = require_group(world, uid, group_id)
        members = member_ids(world, group_id)
        nets = group_nets(world, group_id) if not group["deleted"] else {}
        name = group["name"]
    else:
        nets = group_nets(world, None, only_with=uid)
        members = [uid] + sorted(k for k in nets if k != uid)
        name = "Non-group expenses"
    people = list(dict.fromkeys(members + [k for k, v in nets.items() if v]))
    if email is None:
        return {"group_id": group_id, "group_name": name, "your_balance": money(nets.get(uid, 0)),
                "members": [{**person(world, p), "balance": money(nets.get(p, 0))} for p in people]}
    target = user_by_email(world, email)
    tid = target["id"]
    if group_id is not None:
        if tid not in people:
            raise NotFound(f"{email} is not a member of group {group_id}")
        others = [p for p in people if p != tid]
    else:
        others = [p for p in people if p != uid] if tid == uid else [uid]
    owed: dict[int, int] = defaultdict(int)
    if group_id is None or not group["deleted"]:
        for gid, debtor, creditor, cents in debts(world):
            if gid == group_id and creditor == tid:
                owed[debtor] += cents
            elif gid == group_id and debtor == tid:
                owed[creditor] -= cents
    with_members = [{**person(world, p), "balance": money(owed.get(p, 0))} for p in others]
    return {"group_id": group_id, "group_name": name, "email": target["email"], "name": full_name(target),
            "balance": money(sum(owed.get(p, 0) for p in others)), "with_members": with_members}


@tool(app=APP, requires=REQ)
def splitwise_show_groups_balance(world) -> list:
    """Your net balance in each of your active groups and outside groups (positive: you are owed)."""
    uid = me(world)["id"]
    pairs = pair_balances(world, uid)
    per_group: dict[int | None, int] = defaultdict(int)
    for (gid, _), cents in pairs.items():
        per_group[gid] += cents
    mine = groups_of(world, uid)
    rows = sorted((g for g in world.rows(GROUPS) if g["id"] in mine and not g["deleted"]), key=lambda g: g["id"])
    out = [{"group_id": g["id"], "name": g["name"], "balance": money(per_group.get(g["id"], 0))} for g in rows]
    out.append({"group_id": None, "name": "Non-group expenses", "balance": money(per_group.get(None, 0))})
    return out


# ---------------------------------------------------------------------------- notifications
def _notification_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"notification_id": row["id"], "type": row["type"], "message": row["message"], "read": row["read"],
            "group_id": row["group_id"], "expense_id": row["expense_id"], "payment_id": row["payment_id"],
            "created_at": row["created_at"]}


def _my_notifications(world: Any, read: bool | None = None) -> list[dict[str, Any]]:
    uid = me(world)["id"]
    rows = [r for r in world.rows(NOTIFICATIONS) if r["user_id"] == uid and (read is None or r["read"] == read)]
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    return rows


def _my_notification(world: Any, notification_id: int) -> dict[str, Any]:
    uid = me(world)["id"]
    row = world.get(NOTIFICATIONS, notification_id)
    if row is None or row["user_id"] != uid:
        raise NotFound(f"notification with id {notification_id} does not exist in your account")
    return row


@tool(app=APP, requires=REQ)
def splitwise_show_notifications(world, read: bool | None = None, page_index: int | None = 0,
                                 page_limit: int | None = 5) -> list:
    """List your notifications, newest first.

    Args:
        read: only read (true) or only unread (false) notifications; omit for all.
        page_index: page to return, from 0.
        page_limit: notifications per page (1-20).
    """
    return [_notification_view(r) for r in paginate(_my_notifications(world, read), page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_notifications(world) -> dict:
    """Delete all your notifications."""
    rows = _my_notifications(world)
    for row in rows:
        world.delete(NOTIFICATIONS, row["id"])
    return {"message": "Notifications deleted.", "deleted": len(rows)}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_mark_notifications(world, read: bool) -> dict:
    """Mark all your notifications as read or as unread.

    Args:
        read: true to mark them read, false to mark them unread.
    """
    changed = 0
    for row in _my_notifications(world, not read):
        world.update(NOTIFICATIONS, row["id"], read=read)
        changed += 1
    return {"message": f"Notifications marked {'read' if read else 'unread'}.", "changed": changed}


@tool(app=APP, requires=REQ)
def splitwise_show_notifications_count(world, read: bool | None = None) -> dict:
    """Count your notifications.

    Args:
        read: count only read (true) or only unread (false) ones; omit for all.
    """
    return {"count": len(_my_notifications(world, read))}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_notification(world, notification_id: int) -> dict:
    """Delete one of your notifications.

    Args:
        notification_id: id of the notification.
    """
    _my_notification(world, notification_id)
    world.delete(NOTIFICATIONS, notification_id)
    return {"message": "Notification deleted.", "notification_id": notification_id}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_mark_notification(world, notification_id: int, read: bool) -> dict:
    """Mark one notification as read or unread.

    Args:
        notification_id: id of the notification.
        read: true for read, false for unread.
    """
    _my_notification(world, notification_id)
    world.update(NOTIFICATIONS, notification_id, read=read)
    return {"message": f"Notification marked {'read' if read else 'unread'}.", "notification_id": notification_id}
