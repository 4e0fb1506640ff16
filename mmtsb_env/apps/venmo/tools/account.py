"""Venmo: profile, users and friends, the Venmo balance and bank transfers, payment cards."""

from __future__ import annotations

from typing import Any, Literal
from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import nonblank, now_str, paginate, public_user, search_rank

from ..tables import (
    APP, BANK_TRANSFERS, CARDS, FRIENDSHIPS, REQ, USERS, adjust_balance, card_digits, card_expired, charge_card,
    check_amount, dollars, friend_ids, friendship, me, money, notify, own_card, save_receipt, usable_card,
    user_by_email,
)


# ---------------------------------------------------------------------------- profile, users, friends
def _profile(world: Any, me_id: int, row: dict[str, Any]) -> dict[str, Any]:
    out = public_user(row)
    if row["id"] != me_id:
        link = friendship(world, me_id, row["id"])
        out["is_friend"] = link is not None
        out["friends_since"] = link["created_at"] if link else None
    return out


@tool(app=APP, requires=REQ)
def venmo_show_profile(world, email: str | None = None) -> dict:
    """Show a Venmo user's public profile and whether you are friends (your own if no email is given).

    Args:
        email: email address of the user to look up; omit it for your own profile.
    """
    user = me(world)
    target = user if email is None else user_by_email(world, email)
    return _profile(world, user["id"], target)


def _people_page(rows: list[dict[str, Any]], query: str | None, friends: set[int], page_index: int | None,
                 page_limit: int | None) -> list[dict[str, Any]]:
    """One page of users matching ``query``, each marked with whether they are your friend."""
    rows = search_rank(rows, query, ("first_name", "last_name", "email"))
    return [{**public_user(r), "is_friend": r["id"] in friends} for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def venmo_search_users(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Search Venmo users by name or email; each result says whether they are your friend.

    Args:
        query: words of the person's name or email (empty lists everyone).
        page_index: page to return, from 0.
        page_limit: users per page (1-20).
    """
    user = me(world)
    mine = friend_ids(world, user["id"])
    rows = sorted((r for r in world.rows(USERS) if r["id"] != user["id"]), key=lambda r: r["id"])
    return _people_page(rows, query, mine, page_index, page_limit)


@tool(app=APP, requires=REQ)
def venmo_search_friends(
    world,
    query: str | None = "",
    user_email: str | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """Search your friends, or the friends of another user, by name or email.

    Args:
        query: words of the friend's name or email (empty lists all friends).
        user_email: email of the user whose friends to search; omit it for your own friends.
        page_index: page to return, from 0.
        page_limit: friends per page (1-20).
    """
    user = me(world)
    whose = user if user_email is None else user_by_email(world, user_email)
    mine = friend_ids(world, user["id"])
    ids = friend_ids(world, whose["id"])
    rows = sorted((r for r in world.rows(USERS) if r["id"] in ids), key=lambda r: r["id"])
    return _people_page(rows, query, mine, page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def venmo_add_friend(world, user_email: str) -> dict:
    """Add a Venmo user as your friend; they are told about it.

    Args:
        user_email: email of the user to befriend.
    """
    user = me(world)
    other = user_by_email(world, user_email)
    if other["id"] == user["id"]:
        raise InvalidArgument("you cannot add yourself as a friend")
    if friendship(world, user["id"], other["id"]) is not None:
        raise Conflict(f"{other['first_name']} {other['last_name']} is already your friend")
    row = world.insert(FRIENDSHIPS, {"id": world.new_id(FRIENDSHIPS), "user_id": user["id"],
                                     "friend_id": other["id"], "created_at": now_str(world)})
    notify(world, other["id"], "friend_added", f"{user['first_name']} {user['last_name']} added you as a friend",
           user_id=user["id"])
    return {"message": f"{other['first_name']} {other['last_name']} is now your friend.", "friendship_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def venmo_remove_friend(world, user_email: str) -> dict:
    """Remove a user from your Venmo friends.

    Args:
        user_email: email of the friend to remove.
    """
    user = me(world)
    other = user_by_email(world, user_email)
    link = friendship(world, user["id"], other["id"])
    if link is None:
        raise Conflict(f"{other['first_name']} {other['last_name']} is not your friend")
    world.delete(FRIENDSHIPS, link["id"])
    return {"message": f"{other['first_name']} {other['last_name']} was removed from your friends."}


# ---------------------------------------------------------------------------- balance and bank transfers
@tool(app=APP, requires=REQ)
def venmo_show_venmo_balance(world) -> dict:
    """Show how much money is in your Venmo balance."""
    return {"venmo_balance": me(world)["venmo_balance"]}


@tool(app=APP, writes=True, requires=REQ)
def venmo_add_to_venmo_balance(world, amount: float, payment_card_id: int) -> dict:
    """Move money from one of your payment cards into your Venmo balance.

    Args:
        amount: dollars to add (positive, at most two decimals).
        payment_card_id: id of the card to charge (see venmo_show_payment_cards).
    """
    user = me(world)
    amount = check_amount(amount)
    card = usable_card(world, user["id"], payment_card_id)
    charge_card(world, card, amount)
    balance = adjust_balance(world, user["id"], amount)
    row = world.insert(BANK_TRANSFERS, {
        "id": world.new_id(BANK_TRANSFERS), "user_id": user["id"], "transfer_type": "card_to_venmo",
        "amount": amount, "payment_card_id": card["id"], "payment_card_digits": card_digits(card),
        "created_at": now_str(world),
    })
    return {"message": f"Added {dollars(amount)} to your Venmo balance.", "bank_transfer_id": row["id"],
            "venmo_balance": balance}


@tool(app=APP, writes=True, requires=REQ)
def venmo_withdraw_from_venmo_balance(world, amount: float, payment_card_id: int) -> dict:
    """Transfer money out of your Venmo balance to one of your payment cards.

    Args:
        amount: dollars to withdraw (positive, at most two decimals, no more than your balance).
        payment_card_id: id of the card that receives the money (see venmo_show_payment_cards).
    """
    user = me(world)
    amount = check_amount(amount)
    card = usable_card(world, user["id"], payment_card_id)
    if user["venmo_balance"] + 1e-9 < amount:
        raise Conflict(f"insufficient balance: your Venmo balance is {dollars(user['venmo_balance'])}, "
                       f"less than {dollars(amount)}")
    balance = adjust_balance(world, user["id"], -amount)
    world.update(CARDS, card["id"], available_balance=money(card["available_balance"] + amount))
    row = world.insert(BANK_TRANSFERS, {
        "id": world.new_id(BANK_TRANSFERS), "user_id": user["id"], "transfer_type": "venmo_to_card",
        "amount": amount, "payment_card_id": card["id"], "payment_card_digits": card_digits(card),
        "created_at": now_str(world),
    })
    return {"message": f"Withdrew {dollars(amount)} to card ending in {card_digits(card)}.",
            "bank_transfer_id": row["id"], "venmo_balance": balance}


@tool(app=APP, requires=REQ)
def venmo_show_bank_transfer_history(
    world,
    transfer_type: Literal["card_to_venmo", "venmo_to_card"] | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """List your transfers between payment cards and your Venmo balance, newest first.

    Args:
        transfer_type: "card_to_venmo" (money added) or "venmo_to_card" (money withdrawn); omit for both.
        page_index: page to return, from 0.
        page_limit: transfers per page (1-20).
    """
    user = me(world)
    rows = [r for r in world.rows(BANK_TRANSFERS) if r["user_id"] == user["id"]
            and (transfer_type is None or r["transfer_type"] == transfer_type)]
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    return [dict(r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def venmo_download_bank_transfer_receipt(
    world,
    bank_transfer_id: int,
    file_system_access_token: str,
    download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save the receipt of one of your bank transfers as a file in your file system.

    Args:
        bank_transfer_id: id of the bank transfer.
        file_system_access_token: access token of your file system account (from logging in to it).
        download_to_file_path: where to save the receipt; defaults to ~/downloads/.
        overwrite: replace a file that already exists at that path.
    """
    user = me(world)
    row = world.get(BANK_TRANSFERS, bank_transfer_id)
    if row is None or row["user_id"] != user["id"]:
        raise NotFound(f"bank transfer with id {bank_transfer_id} does not exist in your account")
    direction = "Added to Venmo from" if row["transfer_type"] == "card_to_venmo" else "Withdrawn from Venmo to"
    content = "\n".join([
        "Venmo bank transfer receipt",
        f"Transfer id: {row['id']}",
        f"Date: {row['created_at']}",
        f"Account: {user['first_name']} {user['last_name']} <{user['email']}>",
        f"{direction} card ending in {row['payment_card_digits']}",
        f"Amount: {dollars(row['amount'])}",
    ]) + "\n"
    out = save_receipt(world, file_system_access_token, download_to_file_path, overwrite,
                       f"venmo_bank_transfer_{row['id']}_receipt.txt", content)
    world.update(BANK_TRANSFERS, row["id"], receipt_download_count=row["receipt_download_count"] + 1)
    return out


# ---------------------------------------------------------------------------- payment cards
def _card_view(card: dict[str, Any], world: Any) -> dict[str, Any]:
    return {**card, "expired": card_expired(world, card)}


@tool(app=APP, requires=REQ)
def venmo_show_payment_cards(world) -> list:
    """List the payment cards saved in your Venmo account."""
    user = me(world)
    return [_card_view(dict(c), world) for c in sorted(
        (c for c in world.rows(CARDS) if c["user_id"] == user["id"]), key=lambda c: c["id"])]


@tool(app=APP, requires=REQ)
def venmo_show_payment_card(world, payment_card_id: int) -> dict:
    """Show the details of one of your payment cards.

    Args:
        payment_card_id: id of the card.
    """
    return _card_view(own_card(world, me(world)["id"], payment_card_id), world)


@tool(app=APP, writes=True, requires=REQ)
def venmo_add_payment_card(
    world, card_name: str, owner_name: str, card_number: int, expiry_year: int, expiry_month: int, cvv_number: int
) -> dict:
    """Save a new payment card to your Venmo account.

    Args:
        card_name: a name for the card, e.g. "Chase Sapphire".
        owner_name: the card holder's name as printed on the card.
        card_number: the card number (13 to 19 digits).
        expiry_year: four-digit expiry year.
        expiry_month: expiry month, 1-12.
        cvv_number: the 3 or 4 digit security code.
    """
    user = me(world)
    nonblank(card_name, "card_name")
    nonblank(owner_name, "owner_name")
    if card_number <= 0 or not 13 <= len(str(card_number)) <= 19:
        raise InvalidArgument(f"card_number must have 13 to 19 digits, got {card_number}")
    if not 1 <= expiry_month <= 12:
        raise InvalidArgument(f"expiry_month must be between 1 and 12, got {expiry_month}")
    if not 1000 <= expiry_year <= 9999:
        raise InvalidArgument(f"expiry_year must be a four-digit year, got {expiry_year}")
    if not 0 <= cvv_number <= 9999 or len(str(cvv_number)) > 4:
        raise InvalidArgument("cvv_number must be the 3 or 4 digit code on the card")
    if (expiry_year, expiry_month) < (world.now.year, world.now.month):
        raise InvalidArgument(f"the card expired in {expiry_month:02d}/{expiry_year}; add a valid card")
    if any(c["user_id"] == user["id"] and c["card_number"] == card_number for c in world.rows(CARDS)):
        raise Conflict("this card is already saved in your account")
    card = world.insert(CARDS, {
        "id": world.new_id(CARDS), "user_id": user["id"], "card_name": card_name.strip(),
        "owner_name": owner_name.strip(), "card_number": card_number, "expiry_year": expiry_year,
        "expiry_month": expiry_month, "cvv_number": cvv_number, "created_at": now_str(world),
    })
    return {"message": "Payment card added.", "payment_card_id": card["id"]}


@tool(app=APP, writes=True, requires=REQ)
def venmo_update_payment_card(world, payment_card_id: int, card_name: str) -> dict:
    """Rename one of your payment cards.

    Args:
        payment_card_id: id of the card.
        card_name: the new name of the card.
    """
    own_card(world, me(world)["id"], payment_card_id)
    nonblank(card_name, "card_name")
    world.update(CARDS, payment_card_id, card_name=card_name.strip())
    return {"message": "Payment card updated."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_delete_payment_card(world, payment_card_id: int) -> dict:
    """Remove one of your payment cards from your Venmo account.

    Args:
        payment_card_id: id of the card.
    """
    own_card(world, me(world)["id"], payment_card_id)
    world.delete(CARDS, payment_card_id)
    return {"message": "Payment card deleted."}
