"""Phone: the carrier account's table plus the tables of the phone app's data.

The phone app holds the device owner's contact book and the text and voice messages exchanged
with other phone users. The tools working on those tables live in ``apps/contacts/`` and
``apps/messages/``; the phone account tools in :mod:`.tools`.

Messages are stored once globally (``global_*_messages``) and each participant keeps their own
copy row (``user_*_messages``): deleting a message removes only the owner's copy.
"""

from __future__ import annotations

import re
from typing import Any

from ...tools import NotFound
from ...world import define_table
from .._accounts import define_accounts

APP = "phone"
USERS = "phone.users"
CONTACTS = "phone.contacts"
GLOBAL_TEXTS = "phone.global_text_messages"
USER_TEXTS = "phone.user_text_messages"
GLOBAL_VOICES = "phone.global_voice_messages"
USER_VOICES = "phone.user_voice_messages"

define_accounts(APP)

define_table(
    CONTACTS,
    columns={
        "id": None, "user_id": None, "first_name": "", "last_name": "", "email": None,
        "phone_number": None, "relationships": [], "birthday": None, "home_address": None,
        "work_address": None, "is_self": False, "created_at": None,
    },
    auto_columns=("created_at",),
    # the reference's names: the full name, and one relationship (ours keeps a list)
    derived={"name": lambda r: " ".join(p for p in (r["first_name"], r["last_name"]) if p),
             "relationship": lambda r: (r["relationships"] or [None])[0]},
)
for _global, _user, _fk in (
    (GLOBAL_TEXTS, USER_TEXTS, "global_text_message_id"),
    (GLOBAL_VOICES, USER_VOICES, "global_voice_message_id"),
):
    define_table(
        _global,
        columns={"id": None, "sender_id": None, "receiver_id": None, "message": "", "created_at": None},
        auto_columns=("created_at",),
    )
    define_table(
        _user,
        columns={"id": None, "user_id": None, _fk: None, "created_at": None},
        auto_columns=("created_at",),
    )

_NON_DIGIT = re.compile(r"\D")


def phone_digits(number: str | None) -> str:
    """Digits of a phone number, without a leading US country code (``+1 (555) 010-1`` -> ``5550101``)."""
    digits = _NON_DIGIT.sub("", number or "")
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    return digits


def find_phone_user(world: Any, phone_number: str) -> dict[str, Any] | None:
    """The ``phone.users`` row with this number (formatting ignored), or ``None``."""
    wanted = phone_digits(phone_number)
    if not wanted:
        return None
    for row in world.rows(USERS):
        if phone_digits(row.get("phone_number")) == wanted:
            return dict(row)
    return None


def require_phone_user(world: Any, phone_number: str) -> dict[str, Any]:
    user = find_phone_user(world, phone_number)
    if user is None:
        raise NotFound(
            f"no phone user has the number {phone_number!r}; look the number up with contacts_search_contacts"
        )
    return user


def full_name(row: dict[str, Any] | None) -> str:
    if not row:
        return "Unknown"
    return " ".join(p for p in (row.get("first_name"), row.get("last_name")) if p) or "Unknown"
