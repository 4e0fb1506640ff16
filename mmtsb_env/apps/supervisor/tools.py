"""Supervisor: the device owner's profile, addresses and payment cards."""

from __future__ import annotations

from typing import Any

from ...tools import NotFound, tool
from ...world import TABLES
from .tables import ADDRESSES, APP, PAYMENT_CARDS, PROFILES


def _own(world: Any, table: str) -> list[dict[str, Any]]:
    rows = [dict(r) for r in world.rows(table) if r["user_id"] == world.user_id]
    rows.sort(key=lambda r: r["id"])
    return rows


@tool(app=APP)
def supervisor_show_profile(world) -> dict:
    """Show your own profile as the device owner: name, email, phone number and birthday."""
    row = world.get(PROFILES, world.user_id)
    if row is None:
        raise NotFound("the device owner has no profile on this device")
    return {k: row[k] for k in ("first_name", "last_name", "email", "phone_number", "birthday")}


@tool(app=APP)
def supervisor_show_addresses(world) -> list:
    """List your saved addresses (home, work, ...) for deliveries and forms."""
    return [
        {"address_id": r["id"], **{k: r[k] for k in ("name", "street_address", "city", "state", "country", "zip_code")}}
        for r in _own(world, ADDRESSES)
    ]


@tool(app=APP)
def supervisor_show_payment_cards(world) -> list:
    """List your payment cards with number, expiry and security code (check the expiry before paying)."""
    return [
        {"payment_card_id": r["id"], **{k: r[k] for k in (
            "card_name", "owner_name", "card_number", "expiry_year", "expiry_month", "cvv_number")}}
        for r in _own(world, PAYMENT_CARDS)
    ]


@tool(app=APP)
def supervisor_show_account_passwords(world) -> list:
    """List the passwords of your accounts in every online app on the device (use them to log in)."""
    out = []
    for table in sorted(TABLES):
        app, _, name = table.partition(".")
        if name != "users":
            continue
        row = world.get(table, world.user_id)
        if row is not None and row.get("password") is not None:
            out.append({"account_name": app, "password": row["password"]})
    return out
