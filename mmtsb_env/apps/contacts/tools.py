"""Contacts: search, show, add, update and delete the owner's contacts."""

from __future__ import annotations

from datetime import date
from typing import Any

from ...tools import Conflict, InvalidArgument, tool
from .._common import nonblank, now_str, paginate, public_user, require_owned, score_table, words
from ..phone.tables import CONTACTS, USERS, phone_digits, require_phone_user
from .tables import APP, _own_contacts, _view


_SEARCH_FIELDS = ("first_name", "last_name", "email", "phone_number", "relationships", "home_address", "work_address")


def _clean_relationships(values: list[str] | None) -> list[str]:
    out: list[str] = []
    for value in values or []:
        cleaned = " ".join(value.split()).lower()
        if not cleaned:
            raise InvalidArgument("relationships must not contain empty strings")
        if cleaned not in out:
            out.append(cleaned)
    return out


def _check_email(email: str) -> str:
    email = email.strip()
    local, at, domain = email.partition("@")
    if not (local and at and "." in domain):
        raise InvalidArgument(f"{email!r} is not a valid email address (expected name@domain.tld)")
    return email


def _check_birthday(birthday: str) -> str:
    try:
        day = date.fromisoformat(birthday.strip())
    except ValueError:
        raise InvalidArgument(f"birthday must be a date in YYYY-MM-DD form, got {birthday!r}") from None
    return day.isoformat()


def _check_phone(number: str) -> str:
    if len(phone_digits(number)) < 7:
        raise InvalidArgument(f"{number!r} is not a valid phone number (need at least 7 digits)")
    return number.strip()


def _email_taken(world: Any, email: str, except_id: int | None = None) -> bool:
    wanted = email.lower()
    return any(
        (r.get("email") or "").lower() == wanted and r["id"] != except_id for r in _own_contacts(world)
    )


@tool(app=APP)
def contacts_show_contact_relationships(world) -> list:
    """List the relationship names used in your contact book (friend, coworker, sibling, ...)."""
    found = {rel for row in _own_contacts(world) for rel in row["relationships"]}
    return sorted(found)


@tool(app=APP)
def contacts_search_contacts(
    world,
    query: str | None = "",
    relationship: str | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """Find people in your contact book by name, email, phone number or relationship.

    Results are ordered by how well they match, then by name.

    Args:
        query: words to match against names, emails, phone numbers, addresses and relationships (empty lists everyone).
        relationship: only contacts having this relationship to you (e.g. "sibling").
        page_index: page to return, from 0.
        page_limit: contacts per page (1-20).
    """
    wanted_rel = " ".join(relationship.split()).lower() if relationship is not None else None

    def keep(r: dict[str, Any]) -> bool:
        return r["user_id"] == world.user_id and (wanted_rel is None or wanted_rel in r["relationships"])

    if query and any(ch.isdigit() for ch in query) and len(phone_digits(query)) >= 4:
        digits = phone_digits(query)
        by_number = sorted((r for r in world.rows(CONTACTS) if keep(r) and digits in phone_digits(r.get("phone_number"))),
                           key=_name_order)
        if by_number:
            return [_view(r) for r in paginate(by_number, page_index, page_limit)]
    # the rows matching some query word (all of them for an empty query), looked up in the indexes
    scored = score_table(world, CONTACTS, query, _search_texts, name="contacts.contact_text", keep=keep,
                         order_key=_name_order)
    rows = [row for _, row in scored]
    if query:
        # Whole-word name matches ("Matthew") rank above prefix matches ("Matthews").
        wanted = set(words(query))
        scored = [(score + len(wanted & set(words(f"{row['first_name']} {row['last_name']}"))), row) for score, row in scored]
        scored.sort(key=lambda item: -item[0])
        rows = [row for _, row in scored]
    return [_view(r) for r in paginate(rows, page_index, page_limit)]


def _name_order(r: dict[str, Any]) -> tuple:
    return r["first_name"].lower(), r["last_name"].lower(), r["id"]


def _search_texts(r: dict[str, Any]) -> list[Any]:
    return [r.get(f) for f in _SEARCH_FIELDS]


@tool(app=APP, writes=True)
def contacts_add_contact(
    world,
    first_name: str,
    last_name: str,
    email: str,
    phone_number: str | None = None,
    relationships: list[str] | None = None,
    birthday: str | None = None,
    home_address: str | None = None,
    work_address: str | None = None,
) -> dict:
    """Add a person to your contact book. Each contact must have a different email address.

    Args:
        first_name: first name of the person.
        last_name: last name of the person.
        email: their email address (not used by another of your contacts); "" for a contact without one.
        phone_number: their phone number.
        relationships: how they relate to you, e.g. ["friend", "coworker"].
        birthday: their birthday as YYYY-MM-DD.
        home_address: their home address.
        work_address: their work address.
    """
    nonblank(first_name, "first_name")
    email = _check_email(email) if email.strip() else ""
    if email and _email_taken(world, email):
        raise Conflict(f"a contact with email {email} already exists; update it with contacts_update_contact instead")
    row = world.insert(CONTACTS, {
        "id": world.new_id(CONTACTS), "user_id": world.user_id, "first_name": first_name.strip(),
        "last_name": last_name.strip(), "email": email,
        "phone_number": _check_phone(phone_number) if phone_number is not None else None,
        "relationships": _clean_relationships(relationships),
        "birthday": _check_birthday(birthday) if birthday is not None else None,
        "home_address": home_address, "work_address": work_address, "created_at": now_str(world),
    })
    return {"message": "Contact added.", "contact_id": row["id"]}


@tool(app=APP, writes=True)
def contacts_update_contact(
    world,
    contact_id: int,
    first_name: str | None = None,
    last_name: str | None = None,
    phone_number: str | None = None,
    email: str | None = None,
    relationships: list[str] | None = None,
    birthday: str | None = None,
    home_address: str | None = None,
    work_address: str | None = None,
) -> dict:
    """Change details of one of your contacts; fields you leave out stay as they are.

    Args:
        contact_id: id of the contact (from contacts_search_contacts).
        first_name: new first name.
        last_name: new last name.
        phone_number: new phone number.
        email: new email address (not used by another of your contacts).
        relationships: new list of relationships (replaces the old list).
        birthday: new birthday as YYYY-MM-DD.
        home_address: new home address.
        work_address: new work address.
    """
    require_owned(world, CONTACTS, contact_id, "contact")
    changes: dict[str, Any] = {}
    if first_name is not None:
        changes["first_name"] = nonblank(first_name, "first_name").strip()
    if last_name is not None:
        changes["last_name"] = last_name.strip()
    if phone_number is not None:
        changes["phone_number"] = _check_phone(phone_number)
    if email is not None:
        email = _check_email(email)
        if _email_taken(world, email, except_id=contact_id):
            raise Conflict(f"another contact already has the email {email}")
        changes["email"] = email
    if relationships is not None:
        changes["relationships"] = _clean_relationships(relationships)
    if birthday is not None:
        changes["birthday"] = _check_birthday(birthday)
    if home_address is not None:
        changes["home_address"] = home_address
    if work_address is not None:
        changes["work_address"] = work_address
    if not changes:
        raise InvalidArgument("nothing to update: give at least one field to change")
    row = world.update(CONTACTS, contact_id, **changes)
    return {"message": "Contact updated.", "contact": _view(row)}


@tool(app=APP, writes=True)
def contacts_delete_contact(world, contact_id: int) -> dict:
    """Remove a contact from your contact book.

    Args:
        contact_id: id of the contact (from contacts_search_contacts).
    """
    require_owned(world, CONTACTS, contact_id, "contact")
    world.delete(CONTACTS, contact_id)
    return {"message": "Contact deleted."}


@tool(app=APP)
def contacts_show_profile(world, phone_number: str | None = None) -> dict:
    """Show the public phone profile of the user with a phone number (yours if none is given).

    Args:
        phone_number: the phone number to look up; any formatting is accepted.
    """
    if phone_number is None:
        row = world.get(USERS, world.user_id)
        if row is None:
            raise InvalidArgument("you have no phone account; give the phone_number of the user to show")
        return public_user(row)
    return public_user(require_phone_user(world, phone_number))
