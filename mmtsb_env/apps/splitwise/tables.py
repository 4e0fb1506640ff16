"""Splitwise: shared expenses between people, in groups or one to one, and the balances they leave.

An expense has one payer and a list of *shares* (``splitwise.expense_shares``): each debtor owes
the payer their share. A payment (``splitwise.payments``) from A to B reduces what A owes B.
Balances are never stored: they are computed from the non-deleted expenses and payments of
non-deleted groups (and of no group). Amounts are handled in cents so splits add up exactly.

This module holds the tables, the ledger arithmetic and the shared lookups; the base data is in
``data``; ``tools.groups`` holds the user, group, balance, activity and notification tools and
``tools.ledger`` the expense, payment, comment, receipt and settle-up tools.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable

from ...tools import Conflict, InvalidArgument, NotFound
from ...world import define_table, format_datetime
from .._accounts import define_accounts, logged_in_user
from .._common import now_str, parse_when

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
