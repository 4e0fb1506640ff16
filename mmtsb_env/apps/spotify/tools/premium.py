"""Spotify payment cards and premium subscriptions (plans, subscribing, history, receipts)."""

from __future__ import annotations

import calendar
from datetime import datetime
from typing import Any, Literal

from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import nonblank, now_str, paginate
from ...file_system.tables import file_system_user_for_token, write_user_file
from ..tables import APP, PAYMENT_CARDS, PLAN_PRICES, PUBLIC, REQ, SUBSCRIPTIONS, me, user_brief

_PLAN_TEXT = {
    "monthly": "Premium billed every month: ad-free music, any song on demand, offline downloads.",
    "yearly": "Premium billed once a year (about two months free compared with monthly).",
}


def _card_out(card: dict[str, Any]) -> dict[str, Any]:
    return {
        "payment_card_id": card["id"], "card_name": card["card_name"], "owner_name": card["owner_name"],
        "card_number": card["card_number"], "expiry_year": card["expiry_year"],
        "expiry_month": card["expiry_month"], "created_at": card["created_at"],
    }


def _own_card(world: Any, payment_card_id: int, uid: int) -> dict[str, Any]:
    card = world.get(PAYMENT_CARDS, payment_card_id)
    if card is None or card["user_id"] != uid:
        raise NotFound(f"payment card with id {payment_card_id} does not exist in your account; see spotify_show_payment_cards")
    return card


def _expired(world: Any, year: int, month: int) -> bool:
    now = world.now
    return (year, month) < (now.year, now.month)


@tool(app=APP, requires=REQ)
def spotify_show_payment_cards(world) -> list:
    """List the payment cards saved in your Spotify account."""
    uid = me(world)
    cards = sorted((c for c in world.rows(PAYMENT_CARDS) if c["user_id"] == uid), key=lambda c: c["id"])
    return [_card_out(c) for c in cards]


@tool(app=APP, writes=True, requires=REQ)
def spotify_add_payment_card(
    world, card_name: str, owner_name: str, card_number: int, expiry_year: int, expiry_month: int, cvv_number: int
) -> dict:
    """Save a new payment card to your account.

    Args:
        card_name: a name for the card, e.g. "Work Visa".
        owner_name: the name printed on the card.
        card_number: the 16-digit card number.
        expiry_year: year of expiry, e.g. 2028.
        expiry_month: month of expiry, 1-12.
        cvv_number: the 3- or 4-digit security code.
    """
    uid = me(world)
    nonblank(card_name, "card_name")
    nonblank(owner_name, "owner_name")
    if not 10**15 <= card_number < 10**16:
        raise InvalidArgument("card_number must have exactly 16 digits")
    if not 1 <= expiry_month <= 12:
        raise InvalidArgument(f"expiry_month must be between 1 and 12, got {expiry_month}")
    if _expired(world, expiry_year, expiry_month):
        raise InvalidArgument(f"the card expired in {expiry_month:02d}/{expiry_year}; add a valid card")
    if not 100 <= cvv_number <= 9999:
        raise InvalidArgument("cvv_number must have 3 or 4 digits")
    if world.first(PAYMENT_CARDS, user_id=uid, card_number=card_number) is not None:
        raise Conflict("this card number is already saved in your account")
    row = world.insert(PAYMENT_CARDS, {
        "id": world.new_id(PAYMENT_CARDS), "user_id": uid, "card_name": card_name.strip(),
        "owner_name": owner_name.strip(), "card_number": card_number, "expiry_year": expiry_year,
        "expiry_month": expiry_month, "cvv_number": cvv_number, "created_at": now_str(world),
    })
    return {"message": "Payment card added.", "payment_card_id": row["id"]}


@tool(app=APP, requires=REQ)
def spotify_show_payment_card(world, payment_card_id: int) -> dict:
    """Show one of your payment cards.

    Args:
        payment_card_id: id of the payment card.
    """
    return _card_out(_own_card(world, payment_card_id, me(world)))


@tool(app=APP, writes=True, requires=REQ)
def spotify_update_payment_card(world, payment_card_id: int, card_name: str) -> dict:
    """Rename one of your payment cards.

    Args:
        payment_card_id: id of the payment card.
        card_name: the new name for the card.
    """
    _own_card(world, payment_card_id, me(world))
    nonblank(card_name, "card_name")
    world.update(PAYMENT_CARDS, payment_card_id, card_name=card_name.strip())
    return {"message": "Payment card updated."}


@tool(app=APP, writes=True, requires=REQ)
def spotify_delete_payment_card(world, payment_card_id: int) -> dict:
    """Remove one of your payment cards from your account.

    Args:
        payment_card_id: id of the payment card.
    """
    _own_card(world, payment_card_id, me(world))
    world.delete(PAYMENT_CARDS, payment_card_id)
    return {"message": "Payment card deleted."}


@tool(app=APP, requires=PUBLIC)
def spotify_show_premium_plans(world) -> list:
    """Show the premium plans on offer with their prices in USD."""
    return [{"plan": plan, "price": price, "currency": "USD", "description": _PLAN_TEXT[plan]}
            for plan, price in PLAN_PRICES.items()]


def _add_months(dt: datetime, months: int) -> datetime:
    month0 = dt.month - 1 + months
    year, month = dt.year + month0 // 12, month0 % 12 + 1
    day = min(dt.day, calendar.monthrange(year, month)[1])
    return dt.replace(year=year, month=month, day=day)


def _subscription_out(world: Any, sub: dict[str, Any]) -> dict[str, Any]:
    now = now_str(world)
    return {
        "premium_subscription_id": sub["id"], "plan": sub["plan"], "amount": sub["amount"],
        "payment_card_id": sub["payment_card_id"], "start_date": sub["start_date"], "end_date": sub["end_date"],
        "is_active": sub["start_date"] <= now < sub["end_date"], "created_at": sub["created_at"],
    }


@tool(app=APP, writes=True, requires=REQ)
def spotify_subscribe_premium(world, payment_card_id: int, duration: Literal["monthly", "yearly"]) -> dict:
    """Buy premium for a month or a year, charged to one of your payment cards.

    If you already have premium, the new period starts when the current one ends.

    Args:
        payment_card_id: id of the payment card to charge.
        duration: "monthly" or "yearly".
    """
    uid = me(world)
    card = _own_card(world, payment_card_id, uid)
    if _expired(world, card["expiry_year"], card["expiry_month"]):
        raise Conflict(f"payment card {payment_card_id} has expired; use another card")
    now = now_str(world)
    mine = [s for s in world.rows(SUBSCRIPTIONS) if s["user_id"] == uid]
    start = max([now] + [s["end_date"] for s in mine if s["end_date"] > now])
    end = _add_months(datetime.fromisoformat(start), 1 if duration == "monthly" else 12).isoformat()
    row = world.insert(SUBSCRIPTIONS, {
        "id": world.new_id(SUBSCRIPTIONS), "user_id": uid, "payment_card_id": payment_card_id, "plan": duration,
        "amount": PLAN_PRICES[duration], "start_date": start, "end_date": end, "created_at": now,
    })
    return {"message": f"Subscribed to {duration} premium.", "premium_subscription_id": row["id"],
            "start_date": start, "end_date": end, "amount": row["amount"]}


@tool(app=APP, requires=REQ)
def spotify_show_premium_subscriptions(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List your premium subscriptions, newest first, with whether each is active now.

    Args:
        page_index: page to return, from 0.
        page_limit: subscriptions per page (1-20).
    """
    uid = me(world)
    subs = sorted((s for s in world.rows(SUBSCRIPTIONS) if s["user_id"] == uid),
                  key=lambda s: (s["start_date"], s["id"]), reverse=True)
    return [_subscription_out(world, s) for s in paginate(subs, page_index, page_limit)]


def _receipt(world: Any, sub: dict[str, Any]) -> str:
    card = world.get(PAYMENT_CARDS, sub["payment_card_id"])
    digits = str(card["card_number"])[-4:] if card else "????"
    buyer = user_brief(world, sub["user_id"])
    return "\n".join([
        "Spotify Premium - Receipt",
        f"Receipt number: SP-{sub['id']:06d}",
        f"Customer: {buyer['name']} <{buyer['email']}>",
        f"Plan: {sub['plan']}",
        f"Period: {sub['start_date']} to {sub['end_date']}",
        f"Paid with card ending in {digits}",
        f"Amount: ${sub['amount']:.2f} USD",
        f"Purchased: {sub['created_at']}",
    ]) + "\n"


@tool(app=APP, writes=True, requires=REQ)
def spotify_download_premium_subscription_receipt(
    world,
    premium_subscription_id: int,
    file_system_access_token: str,
    download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save the receipt of one of your premium subscriptions as a text file in your file system.

    Args:
        premium_subscription_id: id of the premium subscription.
        file_system_access_token: proof of your file_system login (log in to file_system first; any non-empty value while logged in).
        download_to_file_path: where to save the file; defaults to ~/downloads/spotify_premium_receipt_<id>.txt. A path ending in "/" is taken as a directory.
        overwrite: replace the file if it already exists.
    """
    uid = me(world)
    sub = world.get(SUBSCRIPTIONS, premium_subscription_id)
    if sub is None or sub["user_id"] != uid:
        raise NotFound(f"premium subscription with id {premium_subscription_id} does not exist in your account")
    fs_user = file_system_user_for_token(world, file_system_access_token)
    name = f"spotify_premium_receipt_{premium_subscription_id}.txt"
    path = download_to_file_path or f"~/downloads/{name}"
    if path.endswith("/"):
        path += name
    saved = write_user_file(world, fs_user, path, _receipt(world, sub), overwrite=bool(overwrite))
    return {"message": "Receipt downloaded.", "file_path": saved}
