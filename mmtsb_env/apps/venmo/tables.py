"""Venmo: balances, payment cards, bank transfers, friends and the shared helpers of the app.

This module holds the tables and the shared helpers (the base data is in ``data``); the tools are in
``tools.account`` (profile, friends, balance, bank transfers, cards), ``tools.social``
(transactions, likes, comments, feed) and ``tools.requests`` (payment requests, notifications). Every user has a ``venmo_balance`` on the
``venmo.users`` row; money moves between balances and the owner's payment cards, and each card
has ``available_balance`` (what its issuer still allows to be charged).
"""

from __future__ import annotations

import math
from typing import Any

from ...tools import Conflict, InvalidArgument, NotFound
from ...world import define_table
from .._accounts import define_accounts, logged_in_user
from .._common import now_str, parse_when
from ..file_system.tables import file_system_user_for_token, write_user_file

APP = "venmo"
REQ = ("network", "login:venmo")

USERS = "venmo.users"
FRIENDSHIPS = "venmo.friendships"
TRANSACTIONS = "venmo.transactions"
TRANSACTION_LIKES = "venmo.transaction_likes"
COMMENTS = "venmo.transaction_comments"
COMMENT_LIKES = "venmo.transaction_comment_likes"
REQUESTS = "venmo.payment_requests"
CARDS = "venmo.payment_cards"
BANK_TRANSFERS = "venmo.bank_transfers"
NOTIFICATIONS = "venmo.notifications"

NEW_CARD_AVAILABLE_BALANCE = 5000.0

define_accounts(APP, extra_columns={"venmo_balance": 0.0})
define_table(FRIENDSHIPS, columns={"id": None, "user_id": None, "friend_id": None, "created_at": None},
             auto_columns=("created_at",))
define_table(
    TRANSACTIONS,
    columns={
        "id": None, "sender_id": None, "receiver_id": None, "amount": 0.0, "description": "",
        "private": False, "payment_card_id": None, "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at"),
)
define_table(TRANSACTION_LIKES, columns={"id": None, "user_id": None, "transaction_id": None, "created_at": None},
             auto_columns=("created_at",))
define_table(
    COMMENTS,
    columns={"id": None, "transaction_id": None, "user_id": None, "comment": "", "created_at": None, "updated_at": None},
    auto_columns=("created_at", "updated_at"),
)
define_table(COMMENT_LIKES, columns={"id": None, "user_id": None, "comment_id": None, "created_at": None},
             auto_columns=("created_at",))
define_table(
    REQUESTS,
    columns={
        "id": None, "sender_id": None, "receiver_id": None, "amount": 0.0, "description": "",
        "private": False, "status": "pending", "transaction_id": None, "reminder_count": 0,
        "last_reminded_at": None, "created_at": None, "updated_at": None, "approved_at": None,
        "denied_at": None,
    },
    auto_columns=("created_at", "updated_at", "approved_at", "denied_at", "last_reminded_at"),
)
define_table(
    CARDS,
    columns={
        "id": None, "user_id": None, "card_name": "", "owner_name": "", "card_number": None,
        "expiry_year": None, "expiry_month": None, "cvv_number": None,
        "available_balance": NEW_CARD_AVAILABLE_BALANCE, "created_at": None,
    },
    auto_columns=("created_at",),
)
define_table(
    BANK_TRANSFERS,
    columns={
        "id": None, "user_id": None, "transfer_type": "", "amount": 0.0, "payment_card_id": None,
        "payment_card_digits": "", "receipt_download_count": 0, "created_at": None,
    },
    auto_columns=("created_at",),
)
define_table(
    NOTIFICATIONS,
    columns={"id": None, "user_id": None, "type": "", "message": "", "data": {}, "read": False, "created_at": None},
    auto_columns=("created_at",),
)


# ---------------------------------------------------------------------------- helpers
def me(world: Any) -> dict[str, Any]:
    """The logged-in Venmo user (the tools act as this account)."""
    return logged_in_user(world, APP)


def money(value: float) -> float:
    return round(float(value) + 0.0, 2)


def check_amount(amount: float, name: str = "amount") -> float:
    """A positive dollar amount with at most two decimals, rounded to cents."""
    if not math.isfinite(amount) or amount <= 0:
        raise InvalidArgument(f"{name} must be a positive number of dollars, got {amount}")
    if abs(round(amount, 2) - amount) > 1e-9:
        raise InvalidArgument(f"{name} can have at most two decimal places (cents), got {amount}")
    return money(amount)


def user_by_email(world: Any, email: str) -> dict[str, Any]:
    user = world.first(USERS, email=email)
    if user is None:
        raise NotFound(f"no Venmo user has the email {email!r}; find people with venmo_search_users")
    return user


def person(world: Any, user_id: int | None) -> dict[str, Any]:
    """Short public description of a user for embedding in other rows."""
    row = world.get(USERS, user_id) if user_id is not None else None
    if row is None:
        return {"id": user_id, "name": "(deleted account)", "email": None}
    return {"id": row["id"], "name": f"{row['first_name']} {row['last_name']}", "email": row["email"]}


def name_of(world: Any, user_id: int) -> str:
    return person(world, user_id)["name"]


def friendship(world: Any, a: int, b: int) -> dict[str, Any] | None:
    for row in world.rows(FRIENDSHIPS):
        if (row["user_id"] == a and row["friend_id"] == b) or (row["user_id"] == b and row["friend_id"] == a):
            return dict(row)
    return None


def friend_ids(world: Any, user_id: int) -> set[int]:
    out = set()
    for row in world.rows(FRIENDSHIPS):
        if row["user_id"] == user_id:
            out.add(row["friend_id"])
        elif row["friend_id"] == user_id:
            out.add(row["user_id"])
    return out


def notify(world: Any, user_id: int, kind: str, message: str, /, **data: Any) -> None:
    """Leave a notification for ``user_id`` (no notification to a deleted account)."""
    if world.get(USERS, user_id) is None:
        return
    world.insert(NOTIFICATIONS, {
        "id": world.new_id(NOTIFICATIONS), "user_id": user_id, "type": kind, "message": message,
        "data": data, "read": False, "created_at": now_str(world),
    })


def dollars(amount: float) -> str:
    return f"${amount:,.2f}"


def adjust_balance(world: Any, user_id: int, delta: float) -> float:
    row = world.get(USERS, user_id)
    if row is None:
        raise NotFound(f"Venmo user with id {user_id} does not exist")
    new = money(row["venmo_balance"] + delta)
    world.update(USERS, user_id, venmo_balance=new)
    return new


def own_card(world: Any, user_id: int, payment_card_id: int) -> dict[str, Any]:
    card = world.get(CARDS, payment_card_id)
    if card is None or card["user_id"] != user_id:
        raise NotFound(f"payment card with id {payment_card_id} does not exist in your account; "
                       "see venmo_show_payment_cards")
    return card


def card_expired(world: Any, card: dict[str, Any]) -> bool:
    return (card["expiry_year"], card["expiry_month"]) < (world.now.year, world.now.month)


def usable_card(world: Any, user_id: int, payment_card_id: int) -> dict[str, Any]:
    card = own_card(world, user_id, payment_card_id)
    if card_expired(world, card):
        raise Conflict(f"payment card {payment_card_id} ({card['card_name']}) expired in "
                       f"{card['expiry_month']:02d}/{card['expiry_year']}; use another card")
    return card


def charge_card(world: Any, card: dict[str, Any], amount: float) -> None:
    if card["available_balance"] + 1e-9 < amount:
        raise Conflict(f"payment card {card['id']} ({card['card_name']}) was declined: it has only "
                       f"{dollars(card['available_balance'])} available for a charge of {dollars(amount)}")
    world.update(CARDS, card["id"], available_balance=money(card["available_balance"] - amount))


def card_digits(card: dict[str, Any]) -> str:
    return str(card["card_number"])[-4:]


def parse_bound(value: str | None, name: str, end_of_day: bool) -> str | None:
    """A date/datetime filter as a naive ISO string comparable with stored timestamps."""
    if value is None:
        return None
    text = parse_when(value, name).replace(tzinfo=None).isoformat()
    if end_of_day and len(value.strip()) == 10:
        text = text[:10] + "T23:59:59"
    return text


def user_search_text(world: Any) -> dict[int, str]:
    return {r["id"]: f"{r['first_name']} {r['last_name']} {r['email']}" for r in world.rows(USERS)}


def save_receipt(
    world: Any, token: str, path: str | None, overwrite: bool | None, default_name: str, content: str
) -> dict[str, Any]:
    """Write a receipt into the file system of the account the access token stands for."""
    fs_user = file_system_user_for_token(world, token)
    target = path if path is not None else f"~/downloads/{default_name}"
    if not target.strip():
        raise InvalidArgument("download_to_file_path must not be empty")
    written = write_user_file(world, fs_user, target, content, overwrite=bool(overwrite))
    return {"message": "Receipt downloaded.", "file_path": written}


# ---------------------------------------------------------------------------- payments (used by transactions and requests)
def make_payment(
    world: Any, payer: dict[str, Any], payee_id: int, amount: float, description: str, private: bool,
    payment_card_id: int | None,
) -> dict[str, Any]:
    """Move ``amount`` from the payer (balance, or the given card) to the payee's balance."""
    if payment_card_id is not None:
        card = usable_card(world, payer["id"], payment_card_id)
        charge_card(world, card, amount)
    elif payer["venmo_balance"] + 1e-9 < amount:
        raise Conflict(f"insufficient balance: your Venmo balance is {dollars(payer['venmo_balance'])}, less than "
                       f"{dollars(amount)}; pass payment_card_id to pay with a card, or add money with "
                       "venmo_add_to_venmo_balance")
    else:
        adjust_balance(world, payer["id"], -amount)
    adjust_balance(world, payee_id, amount)
    now = now_str(world)
    tx = world.insert(TRANSACTIONS, {
        "id": world.new_id(TRANSACTIONS), "sender_id": payer["id"], "receiver_id": payee_id, "amount": amount,
        "description": description, "private": private, "payment_card_id": payment_card_id,
        "created_at": now, "updated_at": now,
    })
    notify(world, payee_id, "transaction_received",
           f"{payer['first_name']} {payer['last_name']} paid you {dollars(amount)} for \"{description}\"",
           transaction_id=tx["id"])
    return tx
