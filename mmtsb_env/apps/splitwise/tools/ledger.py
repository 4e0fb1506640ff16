"""Splitwise expenses, payments, settle-ups, comments and receipt files.

Who may see what: a group expense or payment is visible to the group's members and to the
people it involves; one outside any group only to the people it involves. Anyone who can see
an expense may edit, delete or restore it (as in the real app); comments can only be changed
by their author. Receipt files are read from and written to the file_system app.
"""

from __future__ import annotations

from typing import Any, Callable

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ...file_system.tables import file_system_user_for_token, read_user_file, write_user_file
from ..tables import (
    APP, EXPENSE_COMMENTS, EXPENSES, GROUPS, MAX_AMOUNT, PAYMENT_COMMENTS, PAYMENTS, REQ, SHARES, USERS, full_name,
    group_name, me, member_ids, money, notify, pair_balances, pair_in_group, parse_bound, person, require_group,
    split_amount, to_cents, user_by_email,
)
from .groups import set_deleted
from ..._common import nonblank, now_str, paginate, search_rank, sort_rows


# ------------------------------------------------------------------------------- helpers
def _shares(world: Any, expense_id: int) -> list[dict[str, Any]]:
    return sorted(world.select(SHARES, expense_id=expense_id), key=lambda r: r["id"])


def _can_see(world: Any, uid: int, group_id: int | None, party: set[int]) -> bool:
    return uid in party or (group_id is not None and uid in member_ids(world, group_id))


def _expense(world: Any, uid: int, expense_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    exp = world.get(EXPENSES, expense_id)
    shares = _shares(world, expense_id) if exp else []
    if exp is None or not _can_see(world, uid, exp["group_id"], {exp["payer_id"], *(s["user_id"] for s in shares)}):
        raise NotFound(f"expense with id {expense_id} does not exist or is not visible to you")
    return exp, shares


def _payment(world: Any, uid: int, payment_id: int) -> dict[str, Any]:
    pay = world.get(PAYMENTS, payment_id)
    if pay is None or not _can_see(world, uid, pay["group_id"], {pay["payer_id"], pay["receiver_id"]}):
        raise NotFound(f"payment with id {payment_id} does not exist or is not visible to you")
    return pay


def _require_live(world: Any, row: dict[str, Any], what: str) -> None:
    if row["deleted"]:
        raise Conflict(f"{what} {row['id']} is deleted; restore it first with splitwise_undelete_{what}")
    if row["group_id"] is not None:
        group = world.get(GROUPS, row["group_id"])
        if group is not None and group["deleted"]:
            raise Conflict(f"the group of this {what} ({group['name']}) is deleted; undelete the group first")


def _effect(uid: int, exp: dict[str, Any], shares: list[dict[str, Any]]) -> float:
    if exp["payer_id"] == uid:
        return money(sum(round(s["amount"] * 100) for s in shares if s["user_id"] != uid))
    return money(-sum(round(s["amount"] * 100) for s in shares if s["user_id"] == uid))


def expense_view(world: Any, exp: dict[str, Any], shares: list[dict[str, Any]], viewer: int) -> dict[str, Any]:
    return {
        "expense_id": exp["id"], "description": exp["description"], "paid_amount": exp["paid_amount"],
        "group_id": exp["group_id"], "group_name": group_name(world, exp["group_id"]),
        "payer": person(world, exp["payer_id"]),
        "shares": [{**person(world, s["user_id"]), "amount": s["amount"]} for s in shares],
        "created_by": person(world, exp["creator_id"]), "receipt_file_name": exp["receipt_file_name"],
        "deleted": exp["deleted"], "created_at": exp["created_at"], "updated_at": exp["updated_at"],
        "your_balance_change": _effect(viewer, exp, shares),
    }


def payment_view(world: Any, pay: dict[str, Any]) -> dict[str, Any]:
    return {
        "payment_id": pay["id"], "amount": pay["amount"], "description": pay["description"],
        "group_id": pay["group_id"], "group_name": group_name(world, pay["group_id"]),
        "payer": person(world, pay["payer_id"]), "receiver": person(world, pay["receiver_id"]),
        "created_by": person(world, pay["creator_id"]), "receipt_file_name": pay["receipt_file_name"],
        "deleted": pay["deleted"], "created_at": pay["created_at"], "updated_at": pay["updated_at"],
    }


def _check_party(world: Any, uid: int, group: dict[str, Any] | None, people: list[dict[str, Any]], what: str) -> None:
    if group is not None:
        members = set(member_ids(world, group["id"]))
        outside = [p["email"] for p in people if p["id"] not in members]
        if outside:
            raise InvalidArgument(
                f"{', '.join(outside)} not in group {group['id']} ({group['name']}); add them with splitwise_add_member_to_group first"
            )
    elif uid not in {p["id"] for p in people}:
        raise InvalidArgument(f"a {what} outside any group must involve you; give a group_id for one between others")


def _debtors(world: Any, debtor_emails: list[str]) -> list[dict[str, Any]]:
    if not debtor_emails:
        raise InvalidArgument("debtor_emails must list at least one person")
    seen: set[str] = set()
    out = []
    for email in debtor_emails:
        key = (email or "").strip().lower()
        if key in seen:
            raise InvalidArgument(f"{email} appears twice in debtor_emails")
        seen.add(key)
        out.append(user_by_email(world, email, "debtor"))
    return out


def _write_shares(world: Any, expense_id: int, pairs: list[tuple[int, int]]) -> None:
    """Make the expense's share rows match ``pairs`` [(user_id, cents)], touching only what changed."""
    existing = {s["user_id"]: s for s in _shares(world, expense_id)}
    wanted = dict(pairs)
    for uid, row in existing.items():
        if uid not in wanted:
            world.delete(SHARES, row["id"])
        elif round(row["amount"] * 100) != wanted[uid]:
            world.update(SHARES, row["id"], amount=money(wanted[uid]))
    for uid, cents in pairs:
        if uid not in existing:
            world.insert(SHARES, {"id": world.new_id(SHARES), "expense_id": expense_id, "user_id": uid, "amount": money(cents)})


def _read_receipt(world: Any, path: str | None, token: str | None) -> tuple[str, str] | None:
    if path is None:
        return None
    fs_user = file_system_user_for_token(world, token)
    row = read_user_file(world, fs_user, path)
    if row["archive_format"]:
        raise InvalidArgument(f"{row['path']} is a compressed file; attach the receipt itself")
    return row["path"].rsplit("/", 1)[-1], row["content"]


def _filter_rows(rows: list[dict[str, Any]], *, amount_key: str, min_amount: float | None, max_amount: float | None,
                 min_created_at: str | None, max_created_at: str | None, deleted: bool | None) -> list[dict[str, Any]]:
    low = parse_bound(min_created_at, "min_created_at", upper=False)
    high = parse_bound(max_created_at, "max_created_at", upper=True)
    lo_amt = 0.0 if min_amount is None else min_amount
    hi_amt = MAX_AMOUNT if max_amount is None else max_amount
    if lo_amt > hi_amt:
        raise InvalidArgument("min_amount must not be larger than max_amount")
    return [
        r for r in rows
        if bool(r["deleted"]) == bool(deleted)
        and lo_amt - 1e-9 <= r[amount_key] <= hi_amt + 1e-9
        and (low is None or r["created_at"] >= low) and (high is None or r["created_at"] <= high)
    ]


def _order(rows: list[dict[str, Any]], query: str | None, sort_by: str | None, fields: tuple[str, ...],
           allowed: tuple[str, ...]) -> list[dict[str, Any]]:
    rows = sorted(rows, key=lambda r: (r["created_at"], r["id"]), reverse=True)
    rows = search_rank(rows, query, fields)
    return sort_rows(rows, sort_by, allowed)


# ------------------------------------------------------------------------------- expenses
@tool(app=APP, writes=True, requires=REQ)
def splitwise_record_expense(world, description: str, paid_amount: float, payer_email: str, debtor_emails: list[str],
                             debt_amounts: list[float] | None = None, group_id: int | None = None,
                             receipt_file_path: str | None = None, file_system_access_token: str | None = None) -> dict:
    """Record an expense one person paid and others share.

    Without debt_amounts the paid amount is split equally among the debtors (cents distributed so
    the shares add up exactly). Include the payer in debtor_emails when they take a share too.

    Args:
        description: what the expense was for.
        paid_amount: total amount paid.
        payer_email: email of the person who paid.
        debtor_emails: emails of the people sharing the cost (may include the payer).
        debt_amounts: each debtor's share, in the order of debtor_emails; if they add up to less than paid_amount, the rest is the payer's own share.
        group_id: group the expense belongs to (everyone involved must be a member); omit for an expense outside groups, which must involve you.
        receipt_file_path: path of a receipt file in your file system to attach.
        file_system_access_token: file_system access token, needed with receipt_file_path (you must be logged in to file_system).
    """
    uid = me(world)["id"]
    nonblank(description, "description")
    paid = to_cents(paid_amount, "paid_amount")
    group = require_group(world, uid, group_id, active=True) if group_id is not None else None
    payer = user_by_email(world, payer_email, "payer")
    debtors = _debtors(world, debtor_emails)
    if all(d["id"] == payer["id"] for d in debtors):
        raise InvalidArgument("the payer is the only debtor, so nobody would owe anything; list who shares the cost")
    _check_party(world, uid, group, [payer, *debtors], "expense")
    cents = split_amount(paid, len(debtors), debt_amounts)
    receipt = _read_receipt(world, receipt_file_path, file_system_access_token)
    now = now_str(world)
    eid = world.new_id(EXPENSES)
    world.insert(EXPENSES, {
        "id": eid, "description": description.strip(), "paid_amount": money(paid), "payer_id": payer["id"],
        "group_id": group_id, "creator_id": uid, "receipt_file_name": receipt[0] if receipt else None,
        "receipt_file_content": receipt[1] if receipt else None, "deleted": False, "created_at": now, "updated_at": now,
    })
    _write_shares(world, eid, [(d["id"], c) for d, c in zip(debtors, cents)])
    notify(world, [payer["id"], *(d["id"] for d in debtors)], "expense_added",
           f"{full_name(me(world))} added \"{description.strip()}\" (${money(paid):.2f}).",
           actor_id=uid, group_id=group_id, expense_id=eid)
    return {"message": "Expense recorded.", "expense_id": eid}


@tool(app=APP, requires=REQ)
def splitwise_show_expense(world, expense_id: int) -> dict:
    """Show an expense: payer, each person's share, group, receipt and how it changes your balance.

    Args:
        expense_id: id of the expense.
    """
    uid = me(world)["id"]
    exp, shares = _expense(world, uid, expense_id)
    return expense_view(world, exp, shares, uid)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_update_expense(world, expense_id: int, description: str | None = None, paid_amount: float | None = None,
                             payer_email: str | None = None, debtor_emails: list[str] | None = None,
                             debt_amounts: list[float] | None = None) -> dict:
    """Change an expense. Omitted fields stay; a new paid_amount or debtor list without debt_amounts is split equally.

    Args:
        expense_id: id of the expense.
        description: new description.
        paid_amount: new total amount.
        payer_email: email of the new payer.
        debtor_emails: new list of debtors (replaces the old one).
        debt_amounts: new shares, one per debtor (of the new list, or of the current debtors).
    """
    uid = me(world)["id"]
    exp, shares = _expense(world, uid, expense_id)
    _require_live(world, exp, "expense")
    if all(v is None for v in (description, paid_amount, payer_email, debtor_emails, debt_amounts)):
        raise InvalidArgument("nothing to update: give at least one field to change")
    if description is not None and not description.strip():
        raise InvalidArgument("description must not be empty")
    paid = to_cents(paid_amount, "paid_amount") if paid_amount is not None else round(exp["paid_amount"] * 100)
    payer = user_by_email(world, payer_email, "payer") if payer_email is not None else world.get(USERS, exp["payer_id"])
    if debtor_emails is not None:
        debtors = _debtors(world, debtor_emails)
    else:
        debtors = [world.get(USERS, s["user_id"]) for s in shares]
    if all(d["id"] == payer["id"] for d in debtors):
        raise InvalidArgument("the payer would be the only debtor, so nobody would owe anything")
    group = world.get(GROUPS, exp["group_id"]) if exp["group_id"] is not None else None
    _check_party(world, uid, group, [payer, *debtors], "expense")
    if debt_amounts is not None or debtor_emails is not None or paid_amount is not None:
        cents = split_amount(paid, len(debtors), debt_amounts)
    else:
        cents = [round(s["amount"] * 100) for s in shares]
    changes: dict[str, Any] = {"paid_amount": money(paid), "payer_id": payer["id"], "updated_at": now_str(world)}
    if description is not None:
        changes["description"] = description.strip()
    world.update(EXPENSES, expense_id, **changes)
    _write_shares(world, expense_id, [(d["id"], c) for d, c in zip(debtors, cents)])
    return {"message": "Expense updated.", "expense_id": expense_id}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_expense(world, expense_id: int) -> dict:
    """Mark an expense as deleted (it stops counting toward balances and can be restored).

    Args:
        expense_id: id of the expense.
    """
    exp, _ = _expense(world, me(world)["id"], expense_id)
    return set_deleted(world, EXPENSES, exp, "expense", True)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_undelete_expense(world, expense_id: int) -> dict:
    """Restore a deleted expense.

    Args:
        expense_id: id of the expense.
    """
    exp, _ = _expense(world, me(world)["id"], expense_id)
    return set_deleted(world, EXPENSES, exp, "expense", False)


def _list_expenses(world: Any, group_id: int | None, query: str | None, participant_email: str | None,
                   min_amount: float | None, max_amount: float | None, min_created_at: str | None,
                   max_created_at: str | None, deleted: bool | None, page_index: int | None, page_limit: int | None,
                   sort_by: str | None) -> list:
    uid = me(world)["id"]
    if group_id is not None:
        require_group(world, uid, group_id)
    participant = user_by_email(world, participant_email, "participant")["id"] if participant_email else None
    share_map: dict[int, list[dict[str, Any]]] = {}
    for s in world.rows(SHARES):
        share_map.setdefault(s["expense_id"], []).append(s)
    rows = []
    for exp in world.rows(EXPENSES):
        if exp["group_id"] != group_id:
            continue
        party = {exp["payer_id"], *(s["user_id"] for s in share_map.get(exp["id"], ()))}
        if group_id is None and uid not in party:
            continue
        if participant is not None and participant not in party:
            continue
        rows.append(exp)
    rows = _filter_rows(rows, amount_key="paid_amount", min_amount=min_amount, max_amount=max_amount,
                        min_created_at=min_created_at, max_created_at=max_created_at, deleted=deleted)
    rows = _order(rows, query, sort_by, ("description",), ("created_at", "updated_at", "paid_amount", "description"))
    return [expense_view(world, e, sorted(share_map.get(e["id"], []), key=lambda s: s["id"]), uid)
            for e in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def splitwise_show_group_expenses(world, group_id: int, query: str | None = "", participant_email: str | None = None,
                                  min_amount: float | None = 0.0, max_amount: float | None = MAX_AMOUNT,
                                  min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                                  deleted: bool | None = False, page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list:
    """Search the expenses of a group you are a member of (newest first, or best match for a query).

    Args:
        group_id: id of the group.
        query: words to look for in descriptions.
        participant_email: only expenses this person paid or shares.
        min_amount: smallest paid amount to include.
        max_amount: largest paid amount to include.
        min_created_at: earliest creation date/time to include (ISO, e.g. 2025-06-01).
        max_created_at: latest creation date/time to include (a bare date includes that whole day).
        deleted: false (default) for live expenses, true for deleted ones.
        page_index: page to return, from 0.
        page_limit: expenses per page (1-20).
        sort_by: "created_at", "updated_at", "paid_amount" or "description"; prefix "-" for descending.
    """
    return _list_expenses(world, group_id, query, participant_email, min_amount, max_amount, min_created_at,
                          max_created_at, deleted, page_index, page_limit, sort_by)


@tool(app=APP, requires=REQ)
def splitwise_show_no_group_expenses(world, query: str | None = "", participant_email: str | None = None,
                                     min_amount: float | None = 0.0, max_amount: float | None = MAX_AMOUNT,
                                     min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                                     deleted: bool | None = False, page_index: int | None = 0,
                                     page_limit: int | None = 5, sort_by: str | None = None) -> list:
    """Search your expenses that belong to no group (newest first, or best match for a query).

    Args:
        query: words to look for in descriptions.
        participant_email: only expenses this person paid or shares.
        min_amount: smallest paid amount to include.
        max_amount: largest paid amount to include.
        min_created_at: earliest creation date/time to include (ISO, e.g. 2025-06-01).
        max_created_at: latest creation date/time to include (a bare date includes that whole day).
        deleted: false (default) for live expenses, true for deleted ones.
        page_index: page to return, from 0.
        page_limit: expenses per page (1-20).
        sort_by: "created_at", "updated_at", "paid_amount" or "description"; prefix "-" for descending.
    """
    return _list_expenses(world, None, query, participant_email, min_amount, max_amount, min_created_at,
                          max_created_at, deleted, page_index, page_limit, sort_by)


# ------------------------------------------------------------------------------- receipts
def _attach(world: Any, table: str, row: dict[str, Any], what: str, path: str, token: str, overwrite: bool | None) -> dict:
    _require_live(world, row, what)
    if row["receipt_file_name"] is not None and not overwrite:
        raise Conflict(f"{what} {row['id']} already has a receipt ({row['receipt_file_name']}); pass overwrite=true to replace it")
    name, content = _read_receipt(world, path, token)
    world.update(table, row["id"], receipt_file_name=name, receipt_file_content=content, updated_at=now_str(world))
    return {"message": "Receipt attached.", f"{what}_id": row["id"], "receipt_file_name": name}


def _detach(world: Any, table: str, row: dict[str, Any], what: str) -> dict:
    if row["receipt_file_name"] is None:
        raise NotFound(f"{what} {row['id']} has no receipt file")
    world.update(table, row["id"], receipt_file_name=None, receipt_file_content=None, updated_at=now_str(world))
    return {"message": "Receipt deleted.", f"{what}_id": row["id"]}


def _download(world: Any, row: dict[str, Any], what: str, token: str, path: str | None, overwrite: bool | None) -> dict:
    if row["receipt_file_name"] is None:
        raise NotFound(f"{what} {row['id']} has no receipt file to download")
    fs_user = file_system_user_for_token(world, token)
    target = path if path is not None else "~/downloads/"
    if target.strip().endswith("/") or target.strip() == "~":
        target = target.strip().rstrip("/") + "/" + row["receipt_file_name"]
    saved = write_user_file(world, fs_user, target, row["receipt_file_content"] or "", overwrite=bool(overwrite))
    table = EXPENSES if what == "expense" else PAYMENTS
    world.update(table, row["id"], receipt_download_count=row.get("receipt_download_count", 0) + 1)
    return {"message": "Receipt downloaded.", "file_path": saved}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_attach_expense_receipt_file(world, expense_id: int, receipt_file_path: str, file_system_access_token: str,
                                          overwrite: bool | None = False) -> dict:
    """Attach a receipt file from your file system to an expense.

    Args:
        expense_id: id of the expense.
        receipt_file_path: path of the receipt file in your file system.
        file_system_access_token: file_system access token (you must be logged in to file_system).
        overwrite: replace a receipt that is already attached.
    """
    exp, _ = _expense(world, me(world)["id"], expense_id)
    return _attach(world, EXPENSES, exp, "expense", receipt_file_path, file_system_access_token, overwrite)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_expense_receipt_file(world, expense_id: int) -> dict:
    """Remove the receipt file attached to an expense.

    Args:
        expense_id: id of the expense.
    """
    exp, _ = _expense(world, me(world)["id"], expense_id)
    return _detach(world, EXPENSES, exp, "expense")


@tool(app=APP, writes=True, requires=REQ)
def splitwise_download_expense_receipt_file(world, expense_id: int, file_system_access_token: str,
                                            download_to_file_path: str | None = None, overwrite: bool | None = False) -> dict:
    """Save an expense's receipt file into your file system.

    Args:
        expense_id: id of the expense.
        file_system_access_token: file_system access token (you must be logged in to file_system).
        download_to_file_path: where to save it (a path ending in "/" is a directory); default ~/downloads/<receipt name>.
        overwrite: replace an existing file at that path.
    """
    exp, _ = _expense(world, me(world)["id"], expense_id)
    return _download(world, exp, "expense", file_system_access_token, download_to_file_path, overwrite)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_attach_payment_receipt_file(world, payment_id: int, receipt_file_path: str, file_system_access_token: str,
                                          overwrite: bool | None = False) -> dict:
    """Attach a receipt file from your file system to a payment.

    Args:
        payment_id: id of the payment.
        receipt_file_path: path of the receipt file in your file system.
        file_system_access_token: file_system access token (you must be logged in to file_system).
        overwrite: replace a receipt that is already attached.
    """
    pay = _payment(world, me(world)["id"], payment_id)
    return _attach(world, PAYMENTS, pay, "payment", receipt_file_path, file_system_access_token, overwrite)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_payment_receipt_file(world, payment_id: int) -> dict:
    """Remove the receipt file attached to a payment.

    Args:
        payment_id: id of the payment.
    """
    pay = _payment(world, me(world)["id"], payment_id)
    return _detach(world, PAYMENTS, pay, "payment")


@tool(app=APP, writes=True, requires=REQ)
def splitwise_download_payment_receipt_file(world, payment_id: int, file_system_access_token: str,
                                            download_to_file_path: str | None = None, overwrite: bool | None = False) -> dict:
    """Save a payment's receipt file into your file system.

    Args:
        payment_id: id of the payment.
        file_system_access_token: file_system access token (you must be logged in to file_system).
        download_to_file_path: where to save it (a path ending in "/" is a directory); default ~/downloads/<receipt name>.
        overwrite: replace an existing file at that path.
    """
    pay = _payment(world, me(world)["id"], payment_id)
    return _download(world, pay, "payment", file_system_access_token, download_to_file_path, overwrite)


# ------------------------------------------------------------------------------- payments
def _insert_payment(world: Any, uid: int, payer: int, receiver: int, cents: int, group_id: int | None,
                    description: str, receipt: tuple[str, str] | None = None) -> int:
    now = now_str(world)
    pid = world.new_id(PAYMENTS)
    world.insert(PAYMENTS, {
        "id": pid, "payer_id": payer, "receiver_id": receiver, "amount": money(cents), "group_id": group_id,
        "description": description, "creator_id": uid, "receipt_file_name": receipt[0] if receipt else None,
        "receipt_file_content": receipt[1] if receipt else None, "deleted": False, "created_at": now, "updated_at": now,
    })
    notify(world, [payer, receiver], "payment_recorded",
           f"{full_name(me(world))} recorded a payment of ${money(cents):.2f} from {person(world, payer)['name']} to {person(world, receiver)['name']}.",
           actor_id=uid, group_id=group_id, payment_id=pid)
    return pid


@tool(app=APP, writes=True, requires=REQ)
def splitwise_record_payment(world, payer_email: str, receiver_email: str, amount: float, group_id: int | None = None,
                             description: str | None = None, receipt_file_path: str | None = None,
                             file_system_access_token: str | None = None) -> dict:
    """Record that one person paid another back (no money moves; it only changes balances).

    Args:
        payer_email: email of the person who paid.
        receiver_email: email of the person who received the money.
        amount: amount paid.
        group_id: group the payment belongs to (both must be members); omit for one outside groups, which must involve you.
        description: note for the payment (default "Payment").
        receipt_file_path: path of a receipt file in your file system to attach.
        file_system_access_token: file_system access token, needed with receipt_file_path.
    """
    uid = me(world)["id"]
    cents = to_cents(amount, "amount")
    group = require_group(world, uid, group_id, active=True) if group_id is not None else None
    payer = user_by_email(world, payer_email, "payer")
    receiver = user_by_email(world, receiver_email, "receiver")
    if payer["id"] == receiver["id"]:
        raise InvalidArgument("payer and receiver must be different people")
    _check_party(world, uid, group, [payer, receiver], "payment")
    receipt = _read_receipt(world, receipt_file_path, file_system_access_token)
    text = description.strip() if description and description.strip() else "Payment"
    pid = _insert_payment(world, uid, payer["id"], receiver["id"], cents, group_id, text, receipt)
    return {"message": "Payment recorded.", "payment_id": pid}


@tool(app=APP, requires=REQ)
def splitwise_show_payment(world, payment_id: int) -> dict:
    """Show a payment.

    Args:
        payment_id: id of the payment.
    """
    return payment_view(world, _payment(world, me(world)["id"], payment_id))


@tool(app=APP, writes=True, requires=REQ)
def splitwise_update_payment(world, payment_id: int, amount: float | None = None, description: str | None = None) -> dict:
    """Change a payment's amount or description.

    Args:
        payment_id: id of the payment.
        amount: new amount.
        description: new description.
    """
    pay = _payment(world, me(world)["id"], payment_id)
    _require_live(world, pay, "payment")
    if amount is None and description is None:
        raise InvalidArgument("nothing to update: give amount, description or both")
    changes: dict[str, Any] = {"updated_at": now_str(world)}
    if amount is not None:
        changes["amount"] = money(to_cents(amount, "amount"))
    if description is not None:
        changes["description"] = description
    world.update(PAYMENTS, payment_id, **changes)
    return {"message": "Payment updated.", "payment_id": payment_id}


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_payment(world, payment_id: int) -> dict:
    """Mark a payment as deleted (it stops counting toward balances and can be restored).

    Args:
        payment_id: id of the payment.
    """
    return set_deleted(world, PAYMENTS, _payment(world, me(world)["id"], payment_id), "payment", True)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_undelete_payment(world, payment_id: int) -> dict:
    """Restore a deleted payment.

    Args:
        payment_id: id of the payment.
    """
    return set_deleted(world, PAYMENTS, _payment(world, me(world)["id"], payment_id), "payment", False)


def _list_payments(world: Any, group_id: int | None, query: str | None, participant_email: str | None,
                   min_amount: float | None, max_amount: float | None, min_created_at: str | None,
                   max_created_at: str | None, deleted: bool | None, page_index: int | None, page_limit: int | None,
                   sort_by: str | None) -> list:
    uid = me(world)["id"]
    if group_id is not None:
        require_group(world, uid, group_id)
    participant = user_by_email(world, participant_email, "participant")["id"] if participant_email else None
    rows = [
        p for p in world.rows(PAYMENTS)
        if p["group_id"] == group_id
        and (group_id is not None or uid in (p["payer_id"], p["receiver_id"]))
        and (participant is None or participant in (p["payer_id"], p["receiver_id"]))
    ]
    rows = _filter_rows(rows, amount_key="amount", min_amount=min_amount, max_amount=max_amount,
                        min_created_at=min_created_at, max_created_at=max_created_at, deleted=deleted)
    rows = _order(rows, query, sort_by, ("description",), ("created_at", "updated_at", "amount", "description"))
    return [payment_view(world, p) for p in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def splitwise_show_group_payments(world, group_id: int, query: str | None = "", participant_email: str | None = None,
                                  min_amount: float | None = 0.0, max_amount: float | None = MAX_AMOUNT,
                                  min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                                  deleted: bool | None = False, page_index: int | None = 0, page_limit: int | None = 5,
                                  sort_by: str | None = None) -> list:
    """Search the payments of a group you are a member of (newest first, or best match for a query).

    Args:
        group_id: id of the group.
        query: words to look for in descriptions.
        participant_email: only payments this person made or received.
        min_amount: smallest amount to include.
        max_amount: largest amount to include.
        min_created_at: earliest creation date/time to include (ISO).
        max_created_at: latest creation date/time to include (a bare date includes that whole day).
        deleted: false (default) for live payments, true for deleted ones.
        page_index: page to return, from 0.
        page_limit: payments per page (1-20).
        sort_by: "created_at", "updated_at", "amount" or "description"; prefix "-" for descending.
    """
    return _list_payments(world, group_id, query, participant_email, min_amount, max_amount, min_created_at,
                          max_created_at, deleted, page_index, page_limit, sort_by)


@tool(app=APP, requires=REQ)
def splitwise_show_no_group_payments(world, query: str | None = "", participant_email: str | None = None,
                                     min_amount: float | None = 0.0, max_amount: float | None = MAX_AMOUNT,
                                     min_created_at: str | None = "1500-01-01", max_created_at: str | None = "3000-01-01",
                                     deleted: bool | None = False, page_index: int | None = 0,
                                     page_limit: int | None = 5, sort_by: str | None = None) -> list:
    """Search your payments that belong to no group (newest first, or best match for a query).

    Args:
        query: words to look for in descriptions.
        participant_email: only payments this person made or received.
        min_amount: smallest amount to include.
        max_amount: largest amount to include.
        min_created_at: earliest creation date/time to include (ISO).
        max_created_at: latest creation date/time to include (a bare date includes that whole day).
        deleted: false (default) for live payments, true for deleted ones.
        page_index: page to return, from 0.
        page_limit: payments per page (1-20).
        sort_by: "created_at", "updated_at", "amount" or "description"; prefix "-" for descending.
    """
    return _list_payments(world, None, query, participant_email, min_amount, max_amount, min_created_at,
                          max_created_at, deleted, page_index, page_limit, sort_by)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_settle_up(world, email: str, group_id: int | None = None, description: str | None = "Settle up balance.") -> dict:
    """Settle your balance with a person by recording the payment(s) that bring it to zero.

    Args:
        email: email of the other person.
        group_id: settle only inside this group; omit to settle everything with them (one payment per group with an open balance, and one outside groups).
        description: note for the payment(s).
    """
    uid = me(world)["id"]
    other = user_by_email(world, email)
    if other["id"] == uid:
        raise InvalidArgument("you cannot settle up with yourself")
    if group_id is not None:
        group = require_group(world, uid, group_id, active=True)
        open_balances = [(group_id, pair_in_group(world, group_id, uid, other["id"]))]
        where = f"in group \"{group['name']}\""
    else:
        open_balances = sorted(((gid, c) for (gid, oid), c in pair_balances(world, uid).items() if oid == other["id"]),
                               key=lambda item: (item[0] is not None, item[0] or 0))
        where = "anywhere"
    open_balances = [(gid, c) for gid, c in open_balances if c]
    if not open_balances:
        raise Conflict(f"you and {email} are already settled up {where}")
    text = description.strip() if description and description.strip() else "Settle up balance."
    settled = []
    for gid, cents in open_balances:
        payer, receiver = (other["id"], uid) if cents > 0 else (uid, other["id"])
        pid = _insert_payment(world, uid, payer, receiver, abs(cents), gid, text)
        settled.append({"payment_id": pid, "group_id": gid, "amount": money(abs(cents)),
                        "payer": person(world, payer), "receiver": person(world, receiver)})
    return {"message": "Balance settled.", "payment_ids": [s["payment_id"] for s in settled], "payments": settled}


# ------------------------------------------------------------------------------- comments
def _comment_api(table: str, key: str, what: str, find: Callable[[Any, int, int], Any]):
    """Post/list/show/update/delete implementations for comments on ``what`` rows."""

    def view(world: Any, row: dict[str, Any]) -> dict[str, Any]:
        return {"comment_id": row["id"], key: row[key], "comment": row["comment"], "author": person(world, row["user_id"]),
                "created_at": row["created_at"], "updated_at": row["updated_at"]}

    def get(world: Any, comment_id: int, own: bool) -> dict[str, Any]:
        uid = me(world)["id"]
        row = world.get(table, comment_id)
        if row is None:
            raise NotFound(f"{what} comment with id {comment_id} does not exist")
        try:
            find(world, uid, row[key])
        except NotFound:
            raise NotFound(f"{what} comment with id {comment_id} does not exist") from None
        if own and row["user_id"] != uid:
            raise PermissionDenied(f"{what} comment {comment_id} was written by someone else; you can only change your own comments")
        return row

    def post(world: Any, parent_id: int, comment: str) -> dict:
        uid = me(world)["id"]
        parent = find(world, uid, parent_id)
        parent = parent[0] if isinstance(parent, tuple) else parent
        nonblank(comment, "comment")
        now = now_str(world)
        cid = world.new_id(table)
        world.insert(table, {"id": cid, key: parent_id, "user_id": uid, "comment": comment, "created_at": now, "updated_at": now})
        if what == "expense":
            party = [parent["payer_id"], *(s["user_id"] for s in _shares(world, parent_id))]
        else:
            party = [parent["payer_id"], parent["receiver_id"]]
        notify(world, party, "comment_posted", f"{full_name(me(world))} commented on {what} {parent_id}: {comment[:80]}",
               actor_id=uid, group_id=parent["group_id"], **{key: parent_id})
        return {"message": "Comment posted.", "comment_id": cid}

    def listing(world: Any, parent_id: int, page_index: int | None = None, page_limit: int | None = None,
                paged: bool = True) -> list:
        uid = me(world)["id"]
        find(world, uid, parent_id)
        rows = sorted((r for r in world.rows(table) if r[key] == parent_id), key=lambda r: (r["created_at"], r["id"]))
        if paged:
            rows = paginate(rows, page_index, page_limit)
        return [view(world, r) for r in rows]

    def show(world: Any, comment_id: int) -> dict:
        return view(world, get(world, comment_id, own=False))

    def update(world: Any, comment_id: int, comment: str) -> dict:
        get(world, comment_id, own=True)
        nonblank(comment, "comment")
        world.update(table, comment_id, comment=comment, updated_at=now_str(world))
        return {"message": "Comment updated.", "comment_id": comment_id}

    def delete(world: Any, comment_id: int) -> dict:
        get(world, comment_id, own=True)
        world.delete(table, comment_id)
        return {"message": "Comment deleted.", "comment_id": comment_id}

    return post, listing, show, update, delete


_e_post, _e_list, _e_show, _e_update, _e_delete = _comment_api(EXPENSE_COMMENTS, "expense_id", "expense", _expense)
_p_post, _p_list, _p_show, _p_update, _p_delete = _comment_api(PAYMENT_COMMENTS, "payment_id", "payment", _payment)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_post_expense_comment(world, expense_id: int, comment: str) -> dict:
    """Comment on an expense you can see.

    Args:
        expense_id: id of the expense.
        comment: text of the comment.
    """
    return _e_post(world, expense_id, comment)


@tool(app=APP, requires=REQ)
def splitwise_show_expense_comments(world, expense_id: int, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List the comments on an expense, oldest first.

    Args:
        expense_id: id of the expense.
        page_index: page to return, from 0.
        page_limit: comments per page (1-20).
    """
    return _e_list(world, expense_id, page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_update_expense_comment(world, comment_id: int, comment: str) -> dict:
    """Edit one of your comments on an expense.

    Args:
        comment_id: id of the comment.
        comment: new text.
    """
    return _e_update(world, comment_id, comment)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_expense_comment(world, comment_id: int) -> dict:
    """Delete one of your comments on an expense.

    Args:
        comment_id: id of the comment.
    """
    return _e_delete(world, comment_id)


@tool(app=APP, requires=REQ)
def splitwise_show_expense_comment(world, comment_id: int) -> dict:
    """Show a comment on an expense.

    Args:
        comment_id: id of the comment.
    """
    return _e_show(world, comment_id)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_post_payment_comment(world, payment_id: int, comment: str) -> dict:
    """Comment on a payment you can see.

    Args:
        payment_id: id of the payment.
        comment: text of the comment.
    """
    return _p_post(world, payment_id, comment)


@tool(app=APP, requires=REQ)
def splitwise_show_payment_comments(world, payment_id: int) -> list:
    """List all comments on a payment, oldest first.

    Args:
        payment_id: id of the payment.
    """
    return _p_list(world, payment_id, paged=False)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_update_payment_comment(world, comment_id: int, comment: str) -> dict:
    """Edit one of your comments on a payment.

    Args:
        comment_id: id of the comment.
        comment: new text.
    """
    return _p_update(world, comment_id, comment)


@tool(app=APP, writes=True, requires=REQ)
def splitwise_delete_payment_comment(world, comment_id: int) -> dict:
    """Delete one of your comments on a payment.

    Args:
        comment_id: id of the comment.
    """
    return _p_delete(world, comment_id)


@tool(app=APP, requires=REQ)
def splitwise_show_payment_comment(world, comment_id: int) -> dict:
    """Show a comment on a payment.

    Args:
        comment_id: id of the comment.
    """
    return _p_show(world, comment_id)
