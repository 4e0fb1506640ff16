"""Contacts: the device owner's contact book, stored in the phone app (``phone.contacts``)."""

from __future__ import annotations

from typing import Any

from ...world.populators import BaseBuilder, populator
from ..phone.tables import CONTACTS

APP = "contacts"

# How many of the owner's contacts get each relationship (the rest are friends).
_OWNER_RELATIONS = (
    ("parent", 2), ("sibling", 2), ("partner", 1), ("manager", 1), ("coworker", 22), ("cousin", 4),
    ("neighbor", 3), ("roommate", 1), ("classmate", 3), ("doctor", 1),
)
_OWNER_BOOK_SIZE = 80
_OTHER_BOOK_SIZE = 4
_OTHER_RELATIONS = ("friend", "coworker", "sibling", "neighbor", "cousin")


@populator(APP, order=20)
def _populate(b: BaseBuilder) -> None:
    owner = b.supervisor
    others = [p for p in b.people if p.id != owner.id]
    # Guarantee a same-first-name pair so that "text Matthew" needs a follow-up question.
    by_first: dict[str, list[Any]] = {}
    for p in others:
        by_first.setdefault(p.first_name, []).append(p)
    twins = next((group[:2] for group in by_first.values() if len(group) >= 2), [])
    rest = [p for p in others if p not in twins]
    chosen = twins + b.rng.sample(rest, _OWNER_BOOK_SIZE - len(twins))
    b.rng.shuffle(chosen)
    relations: list[list[str]] = []
    for name, count in _OWNER_RELATIONS:
        relations.extend([[name]] * count)
    relations.extend([["friend"]] * (len(chosen) - len(relations)))
    relationships_of: dict[int, list[str]] = {}
    next_id = iter(range(b.next_id(CONTACTS), 10**9))  # explicit ids: b.add's own lookup is O(n)
    for person, rel in zip(chosen, relations):
        rel = list(rel)
        if rel[0] in ("coworker", "neighbor", "classmate") and b.rng.random() < 0.25:
            rel.append("friend")
        relationships_of[person.id] = rel
        b.add(CONTACTS, {
            "id": next(next_id), "user_id": owner.id, "first_name": person.first_name, "last_name": person.last_name,
            "email": person.email, "phone_number": person.phone_number, "relationships": rel,
            "birthday": person.birthday if b.rng.random() < 0.85 else None,
            "home_address": person.home_address if b.rng.random() < 0.8 else None,
            "work_address": person.work_address if rel[0] in ("coworker", "manager") or b.rng.random() < 0.4 else None,
            "created_at": b.past(1500, 20).isoformat(),
        })
    b.shared["phone.owner_contacts"] = relationships_of
    for person in others:
        for friend in b.rng.sample([p for p in b.people if p.id != person.id], _OTHER_BOOK_SIZE):
            b.add(CONTACTS, {
                "id": next(next_id), "user_id": person.id,
                "first_name": friend.first_name, "last_name": friend.last_name,
                "email": friend.email, "phone_number": friend.phone_number,
                "relationships": [b.rng.choice(_OTHER_RELATIONS)], "birthday": friend.birthday,
                "home_address": friend.home_address, "created_at": b.past(1500, 20).isoformat(),
            })


def _view(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "contact_id": row["id"],
        **{k: row[k] for k in ("first_name", "last_name", "email", "phone_number", "relationships",
                               "birthday", "home_address", "work_address", "created_at")},
    }


def _own_contacts(world: Any) -> list[dict[str, Any]]:
    return [r for r in world.rows(CONTACTS) if r["user_id"] == world.user_id]


