"""Splitwise: shared expenses between people, in groups or one to one, and the balances they leave.

An expense has one payer and a list of *shares* (``splitwise.expense_shares``): each debtor owes
the payer their share. A payment (``splitwise.payments``) from A to B reduces what A owes B.
Balances are never stored: they are computed from the non-deleted expenses and payments of
non-deleted groups (and of no group). Amounts are handled in cents so splits add up exactly.

This module holds the tables, the ledger arithmetic, the base data and the account, user,
group, balance, activity and notification tools; ``splitwise_ledger`` holds the expense,
payment, comment, receipt and settle-up tools.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from ..tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..world import define_table, format_datetime
from ._accounts import define_accounts, logged_in_user
from ._common import nonblank, now_str, paginate, parse_when, search_rank, sort_rows

APP = "splitwise"
REQ = ("network", "login:splitwise")
USERS = "splitwise.users"
GROUPS = "splitwise.groups"
MEMBERS = "splitwise.group_members"
EXPENSES = "splitwise.expenses"
SHARES = "splitwise.expense_shares"
PAYMENTS = "splitwise.payments"
EXPENSE_COMMENTS = "splitwise.expense_comments"
PAYMENT_COMMENTS = "splitwise.payment_comments"
NOTIFICATIONS = "splitwise.notifications"
STAMPS = ("created_at", "updated_at")

define_accounts(APP)
# The reference's names for our columns are derived columns (world.schema): groups.user_id and
# expenses.user_id are the creator, expenses.amount the amount paid, a share's debtor_id and
# share_amount its user_id and amount, a membership's joined_at its created_at.
define_table(GROUPS, columns={
    "id": None, "name": "", "description": None, "creator_id": None, "invitation_code": "",
    "deleted": False, "created_at": None, "updated_at": None,
}, auto_columns=STAMPS + ("invitation_code",), derived={"user_id": lambda r: r["creator_id"]})
define_table(MEMBERS, columns={"id": None, "group_id": None, "user_id": None, "created_at": None},
             auto_columns=("created_at",), derived={"joined_at": lambda r: r["created_at"]})
define_table(EXPENSES, columns={
    "id": None, "description": "", "paid_amount": 0.0, "payer_id": None, "group_id": None, "creator_id": None,
    "receipt_file_name": None, "receipt_file_content": None, "receipt_download_count": 0, "deleted": False,
    "created_at": None, "updated_at": None,
}, auto_columns=STAMPS + ("receipt_download_count",),
   derived={"user_id": lambda r: r["creator_id"], "amount": lambda r: r["paid_amount"]})
define_table(SHARES, columns={"id": None, "expense_id": None, "user_id": None, "amount": 0.0},
             derived={"debtor_id": lambda r: r["user_id"], "share_amount": lambda r: r["amount"]})
define_table(PAYMENTS, columns={
    "id": None, "payer_id": None, "receiver_id": None, "amount": 0.0, "group_id": None, "description": "",
    "creator_id": None, "receipt_file_name": None, "receipt_file_content": None, "receipt_download_count": 0,
    "deleted": False, "created_at": None, "updated_at": None,
}, auto_columns=STAMPS + ("receipt_download_count",))
for _table, _key in ((EXPENSE_COMMENTS, "expense_id"), (PAYMENT_COMMENTS, "payment_id")):
    define_table(_table, columns={"id": None, _key: None, "user_id": None, "comment": "", "created_at": None,
                                  "updated_at": None}, auto_columns=STAMPS)
define_table(NOTIFICATIONS, columns={
    "id": None, "user_id": None, "type": "", "message": "", "actor_id": None, "group_id": None,
    "expense_id": None, "payment_id": None, "read": False, "created_at": None,
}, auto_columns=("created_at",))

MAX_AMOUNT = 9.22e18


# ----------------------------------------------------------------------------- money helpers
def to_cents(value: float, what: str, *, allow_zero: bool = False) -> int:
    cents = round(float(value) * 100)
    if cents < 0 or (cents == 0 and not allow_zero):
        raise InvalidArgument(f"{what} must be {'0 or more' if allow_zero else 'more than 0'}, got {value}")
    if cents > 10**12:
        raise InvalidArgument(f"{what} is too large ({value})")
    return cents


def money(cents: int) -> float:
    return round(cents / 100, 2)


def distribute(total: int, weights: list[float]) -> list[int]:
    """Split ``total`` cents in proportion to ``weights`` so that the parts add up exactly."""
    weight_sum = sum(weights)
    if weight_sum <= 0:
        return [0] * len(weights)
    raw = [total * w / weight_sum for w in weights]
    parts = [int(r) for r in raw]
    left = total - sum(parts)
    order = sorted(range(len(raw)), key=lambda i: (-(raw[i] - parts[i]), i))
    for i in order[:left]:
        parts[i] += 1
    return parts


def split_amount(paid: int, n_debtors: int, debt_amounts: list[float] | None) -> list[int]:
    """Shares in cents of ``n_debtors`` debtors: equal split, or the given amounts made exact.

    Given amounts that add up to the paid amount (within a cent per debtor) are adjusted so the
    sum is exact; amounts adding up to less leave the rest as the payer's own share.
    """
    if debt_amounts is None:
        return distribute(paid, [1.0] * n_debtors)
    if len(debt_amounts) != n_debtors:
        raise InvalidArgument(
            f"debt_amounts has {len(debt_amounts)} amounts but debtor_emails has {n_debtors} people; give one amount per debtor"
        )
    if any(a < 0 for a in debt_amounts):
        raise InvalidArgument("debt_amounts must not be negative")
    raw_sum = sum(debt_amounts) * 100
    if abs(raw_sum - paid) <= n_debtors:
        return distribute(paid, [float(a) for a in debt_amounts])
    if raw_sum > paid:
        raise InvalidArgument(
            f"debt_amounts add up to {sum(debt_amounts):.2f}, more than the paid amount {money(paid):.2f}"
        )
    return [round(a * 100) for a in debt_amounts]


# ------------------------------------------------------------------------------ lookups
def me(world: Any) -> dict[str, Any]:
    return logged_in_user(world, APP)


def user_by_email(world: Any, email: str, what: str = "user") -> dict[str, Any]:
    row = world.first(USERS, email=(email or "").strip())
    if row is None:
        raise NotFound(f"no splitwise {what} with email {email!r}; find people with splitwise_search_users")
    return row


def person(world: Any, user_id: int | None) -> dict[str, Any] | None:
    if user_id is None:
        return None
    row = world.get(USERS, user_id)
    if row is None:
        return {"name": "Deleted user", "email": None}
    return {"name": f"{row['first_name']} {row['last_name']}", "email": row["email"]}


def member_ids(world: Any, group_id: int) -> list[int]:
    links = sorted((r for r in world.rows(MEMBERS) if r["group_id"] == group_id), key=lambda r: r["id"])
    return [r["user_id"] for r in links]


def groups_of(world: Any, user_id: int) -> set[int]:
    return {r["group_id"] for r in world.rows(MEMBERS) if r["user_id"] == user_id}


def require_group(world: Any, user_id: int, group_id: int, *, active: bool = False) -> dict[str, Any]:
    """The group if the user is a member (NotFound otherwise); ``active`` refuses deleted groups."""
    group = world.get(GROUPS, group_id)
    if group is None or user_id not in member_ids(world, group_id):
        raise NotFound(f"group with id {group_id} does not exist or you are not a member; see splitwise_show_groups")
    if active and group["deleted"]:
        raise Conflict(f"group {group_id} ({group['name']}) is deleted; undelete it first with splitwise_undelete_group")
    return group


def group_name(world: Any, group_id: int | None) -> str | None:
    if group_id is None:
        return None
    group = world.get(GROUPS, group_id)
    return group["name"] if group else None


def notify(world: Any, user_ids: Iterable[int], kind: str, message: str, *, actor_id: int,
           group_id: int | None = None, expense_id: int | None = None, payment_id: int | None = None) -> None:
    for uid in dict.fromkeys(user_ids):
        if uid == actor_id or world.get(USERS, uid) is None:
            continue
        world.insert(NOTIFICATIONS, {
            "id": world.new_id(NOTIFICATIONS), "user_id": uid, "type": kind, "message": message,
            "actor_id": actor_id, "group_id": group_id, "expense_id": expense_id, "payment_id": payment_id,
            "read": False, "created_at": now_str(world),
        })


def full_name(row: dict[str, Any]) -> str:
    return f"{row['first_name']} {row['last_name']}"


# ------------------------------------------------------------------------------- the ledger
def shares_by_expense(world: Any) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in world.rows(SHARES):
        out[row["expense_id"]].append(row)
    for rows in out.values():
        rows.sort(key=lambda r: r["id"])
    return out


def deleted_groups(world: Any) -> set[int]:
    return {g["id"] for g in world.rows(GROUPS) if g["deleted"]}


def debts(world: Any) -> Iterable[tuple[int | None, int, int, int]]:
    """Every live obligation as ``(group_id, debtor, creditor, cents)``."""
    dead = deleted_groups(world)
    shares = shares_by_expense(world)
    for exp in world.rows(EXPENSES):
        if exp["deleted"] or exp["group_id"] in dead:
            continue
        for share in shares.get(exp["id"], ()):
            if share["user_id"] != exp["payer_id"]:
                yield exp["group_id"], share["user_id"], exp["payer_id"], round(share["amount"] * 100)
    for pay in world.rows(PAYMENTS):
        if pay["deleted"] or pay["group_id"] in dead:
            continue
        yield pay["group_id"], pay["receiver_id"], pay["payer_id"], round(pay["amount"] * 100)


def pair_balances(world: Any, user_id: int) -> dict[tuple[int | None, int], int]:
    """``{(group_id, other): cents}``: positive when ``other`` owes ``user_id``."""
    out: dict[tuple[int | None, int], int] = defaultdict(int)
    for gid, debtor, creditor, cents in debts(world):
        if creditor == user_id:
            out[(gid, debtor)] += cents
        elif debtor == user_id:
            out[(gid, creditor)] -= cents
    return out


def group_nets(world: Any, group_id: int | None, only_with: int | None = None) -> dict[int, int]:
    """Net position of each person in a group (positive = is owed); non-group: pairs with ``only_with``."""
    out: dict[int, int] = defaultdict(int)
    for gid, debtor, creditor, cents in debts(world):
        if gid != group_id or (only_with is not None and only_with not in (debtor, creditor)):
            continue
        out[creditor] += cents
        out[debtor] -= cents
    return out


def pair_in_group(world: Any, group_id: int | None, a: int, b: int) -> int:
    """What ``b`` owes ``a`` in the group, in cents (negative: ``a`` owes ``b``)."""
    total = 0
    for gid, debtor, creditor, cents in debts(world):
        if gid != group_id:
            continue
        if creditor == a and debtor == b:
            total += cents
        elif creditor == b and debtor == a:
            total -= cents
    return total


def group_view(world: Any, group: dict[str, Any], viewer: int | None = None) -> dict[str, Any]:
    out = {
        "group_id": group["id"], "name": group["name"], "description": group["description"],
        "created_at": group["created_at"], "deleted": group["deleted"],
        "creator": person(world, group["creator_id"]),
        "members": [person(world, uid) for uid in member_ids(world, group["id"])],
        "invitation_code": group["invitation_code"],
    }
    if viewer is not None:
        out["your_balance"] = money(group_nets(world, group["id"]).get(viewer, 0))
    return out


def new_invitation_code(world: Any, group_id: int) -> str:
    taken = {g["invitation_code"] for g in world.rows(GROUPS)}
    while True:
        n = int(world.new_token("splitwise_invitation").rsplit("_", 1)[1])
        code = f"{(n * 2654435761 + group_id * 40503) % 16**5:05x}"
        if code not in taken:
            return code


def parse_bound(value: str | None, what: str, *, upper: bool) -> str | None:
    """A created_at bound as a stored timestamp string; a bare upper date covers that whole day."""
    if value is None:
        return None
    text = format_datetime(parse_when(value, what))
    if upper and len(value.strip()) <= 10:
        text = text[:10] + "T23:59:59"
    return text


# ------------------------------------------------------------------------------------ tools
def friends_since(world: Any, user_id: int) -> dict[int, str]:
    since: dict[int, str] = {}

    def seen(other: int, at: str) -> None:
        if other != user_id and (other not in since or at < since[other]):
            since[other] = at

    links: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for link in world.rows(MEMBERS):
        links[link["group_id"]].append(link)
    for group_links in links.values():
        mine = [lk for lk in group_links if lk["user_id"] == user_id]
        if mine:
            for lk in group_links:
                seen(lk["user_id"], max(lk["created_at"], mine[0]["created_at"]))
    shares = shares_by_expense(world)
    for exp in world.rows(EXPENSES):
        if exp["group_id"] is None:
            party = {exp["payer_id"], *(s["user_id"] for s in shares.get(exp["id"], ()))}
            if user_id in party:
                for other in party:
                    seen(other, exp["created_at"])
    for pay in world.rows(PAYMENTS):
        if user_id in (pay["payer_id"], pay["receiver_id"]):
            seen(pay["payer_id"], pay["created_at"])
            seen(pay["receiver_id"], pay["created_at"])
    return since


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
