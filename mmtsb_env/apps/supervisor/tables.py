"""Supervisor: what the device owner knows about themselves (profile, addresses, cards, passwords).

Account passwords are read at call time from every ``<app>.users`` table, so apps added later
show up without changes here.
"""

from __future__ import annotations

import re

from ...world import define_table
from ...world.populators import BaseBuilder, populator

APP = "supervisor"
PROFILES = "supervisor.profiles"
ADDRESSES = "supervisor.addresses"
PAYMENT_CARDS = "supervisor.payment_cards"

define_table(
    PROFILES,
    columns={
        "id": None, "first_name": "", "last_name": "", "email": None, "phone_number": None,
        "birthday": None, "created_at": None,
    },
    auto_columns=("created_at",),
)
define_table(
    ADDRESSES,
    columns={
        "id": None, "user_id": None, "name": "", "street_address": "", "city": "", "state": "",
        "country": "United States", "zip_code": "", "created_at": None,
    },
    auto_columns=("created_at",),
)
define_table(
    PAYMENT_CARDS,
    columns={
        "id": None, "user_id": None, "card_name": "", "owner_name": "", "card_number": "",
        "expiry_year": None, "expiry_month": None, "cvv_number": "", "created_at": None,
    },
    auto_columns=("created_at",),
)

_ADDRESS = re.compile(r"^(?P<street>.+), (?P<city>[^,]+), (?P<state>[A-Z]{2}) (?P<zip>\d{5})$")
_MILITARY = re.compile(r"^(?P<street>.+?),? (?P<city>APO|FPO|DPO) (?P<state>A[AEP]) (?P<zip>\d{5})$")
_CARD_BRANDS = (("Visa", "4"), ("Mastercard", "5"), ("Amex", "37"), ("Discover", "6011"))
_CARD_LABELS = ("Personal", "Travel Rewards", "Cash Back", "Business", "Everyday")


def split_address(text: str) -> dict[str, str]:
    """Cut a one-line US address into street, city, state and zip (best effort)."""
    for pattern in (_ADDRESS, _MILITARY):
        m = pattern.match(text.strip())
        if m:
            return {"street_address": m["street"], "city": m["city"], "state": m["state"], "zip_code": m["zip"]}
    return {"street_address": text, "city": "", "state": "", "zip_code": ""}


def _card_number(b: BaseBuilder, prefix: str) -> str:
    length = 15 if prefix == "37" else 16
    return prefix + "".join(str(b.rng.randint(0, 9)) for _ in range(length - len(prefix)))


@populator(APP, order=20)
def _populate(b: BaseBuilder) -> None:
    address_id, card_id = b.next_id(ADDRESSES), b.next_id(PAYMENT_CARDS)  # explicit ids are faster
    for p in b.people:
        created = b.past(1500, 400).isoformat()
        b.add(PROFILES, {
            "id": p.id, "first_name": p.first_name, "last_name": p.last_name, "email": p.email,
            "phone_number": p.phone_number, "birthday": p.birthday, "created_at": created,
        })
        for label, text in (("Home", p.home_address), ("Work", p.work_address)):
            b.add(ADDRESSES, {
                "id": address_id, "user_id": p.id, "name": label, **split_address(text), "created_at": created,
            })
            address_id += 1
        n_cards = 3 if p.id == b.supervisor.id else b.rng.randint(1, 2)
        for i, (brand, prefix) in enumerate(b.rng.sample(_CARD_BRANDS, n_cards)):
            # The owner's last card is expired: checkouts must pick a valid one.
            expired = p.id == b.supervisor.id and i == n_cards - 1
            b.add(PAYMENT_CARDS, {
                "id": card_id, "user_id": p.id, "card_name": f"{brand} {b.rng.choice(_CARD_LABELS)}",
                "owner_name": p.full_name,
                "card_number": _card_number(b, prefix),
                "expiry_year": 2025 if expired else b.rng.randint(2027, 2031),
                "expiry_month": b.rng.randint(1, 12),
                "cvv_number": f"{b.rng.randint(0, 9999 if prefix == '37' else 999):0{4 if prefix == '37' else 3}d}",
                "created_at": created,
            })
            card_id += 1


