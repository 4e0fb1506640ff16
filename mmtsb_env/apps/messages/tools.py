"""Messages: send, search, show and delete text and voice messages."""

from __future__ import annotations

from typing import Literal

from ...tools import InvalidArgument, NotFound, PermissionDenied, tool
from .._common import nonblank, now_str, paginate, sort_rows, text_score
from ..phone.tables import USERS, full_name, require_phone_user
from .tables import APP, SEND_REQ, TEXT, VOICE, _bound, _entries, _own_copy, _public


def _window(world, kind, phone_number, min_datetime, max_datetime, pagination_order, page_index, page_limit):
    other = require_phone_user(world, phone_number)
    low = _bound(min_datetime or "1500-01-01T00:00:00", "min_datetime")
    high = _bound(max_datetime or "3000-01-01T00:00:00", "max_datetime")
    if low > high:
        raise InvalidArgument("min_datetime must not be after max_datetime")
    rows = [e for e in _entries(world, kind) if e["_other"] == other["id"] and low <= e["created_at"] <= high]
    if (pagination_order or "descending") == "ascending":
        rows.reverse()
    return [_public(e) for e in paginate(rows, page_index, page_limit)]


def _search(world, kind, query, phone_number, only_latest_per_contact, page_index, page_limit, sort_by):
    rows = _entries(world, kind)
    if phone_number is not None:
        other = require_phone_user(world, phone_number)
        rows = [e for e in rows if e["_other"] == other["id"]]
    if only_latest_per_contact:
        seen: set[int] = set()
        latest = []
        for e in rows:
            if e["_other"] not in seen:
                seen.add(e["_other"])
                latest.append(e)
        rows = latest
    if query:
        scored = [(text_score(query, e["message"], e["_other_name"]), e) for e in rows]
        scored = [(s, e) for s, e in scored if s > 0]
        scored.sort(key=lambda item: -item[0])
        rows = [e for _, e in scored]
    rows = sort_rows(rows, sort_by, ("created_at",))
    return [_public(e) for e in paginate(rows, page_index, page_limit)]


def _show(world, kind, copy_id):
    _own_copy(world, kind, copy_id)
    for entry in _entries(world, kind):
        if entry[kind.id_name] == copy_id:
            return _public(entry)
    raise NotFound(f"{kind.word} message with id {copy_id} does not exist in your messages")


def _delete(world, kind, copy_id):
    _own_copy(world, kind, copy_id)
    world.delete(kind.user_table, copy_id)
    return {"message": f"{kind.word.capitalize()} message deleted."}


def _send(world, kind, phone_number, message):
    nonblank(message, "message")
    if world.get(USERS, world.user_id) is None:
        raise PermissionDenied("your phone account does not exist; messages cannot be sent without one")
    receiver = require_phone_user(world, phone_number)
    if receiver["id"] == world.user_id:
        raise InvalidArgument("that is your own phone number; give the number of someone else")
    now = now_str(world)
    msg = world.insert(kind.global_table, {
        "id": world.new_id(kind.global_table), "sender_id": world.user_id, "receiver_id": receiver["id"],
        "message": message, "created_at": now,
    })
    mine, _theirs = (
        world.insert(kind.user_table, {
            "id": world.new_id(kind.user_table), "user_id": owner, kind.fk: msg["id"], "created_at": now,
        })
        for owner in (world.user_id, receiver["id"])
    )
    return {"message": f"{kind.word.capitalize()} message sent to {full_name(receiver)}.", kind.id_name: mine["id"]}


_Order = Literal["ascending", "descending"]


@tool(app=APP)
def messages_show_text_message_window(
    world,
    phone_number: str,
    min_datetime: str | None = "1500-01-01|00:00:00",
    max_datetime: str | None = "3000-01-01|00:00:00",
    pagination_order: _Order | None = "descending",
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """Show your text conversation with one phone number within a time window.

    Args:
        phone_number: the other person's phone number.
        min_datetime: earliest message time to include, YYYY-MM-DD|HH:MM:SS (UTC).
        max_datetime: latest message time to include, YYYY-MM-DD|HH:MM:SS (UTC).
        pagination_order: "descending" lists newest first, "ascending" oldest first.
        page_index: page to return, from 0.
        page_limit: messages per page (1-20).
    """
    return _window(world, TEXT, phone_number, min_datetime, max_datetime, pagination_order, page_index, page_limit)


@tool(app=APP)
def messages_search_text_messages(
    world,
    query: str | None = "",
    phone_number: str | None = None,
    only_latest_per_contact: bool | None = False,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search your text messages (newest first unless a query ranks them).

    Args:
        query: words to find in the message text or the other person's name (empty lists all).
        phone_number: only messages exchanged with this phone number.
        only_latest_per_contact: keep only the most recent message of each conversation.
        page_index: page to return, from 0.
        page_limit: messages per page (1-20).
        sort_by: "created_at" (oldest first) or "-created_at" (newest first).
    """
    return _search(world, TEXT, query, phone_number, only_latest_per_contact, page_index, page_limit, sort_by)


@tool(app=APP)
def messages_show_text_message(world, text_message_id: int) -> dict:
    """Show one of your text messages with its sender, receiver and time.

    Args:
        text_message_id: id of the text message (from messages_search_text_messages).
    """
    return _show(world, TEXT, text_message_id)


@tool(app=APP, writes=True)
def messages_delete_text_message(world, text_message_id: int) -> dict:
    """Delete a text message from your phone (the other person keeps their copy).

    Args:
        text_message_id: id of the text message.
    """
    return _delete(world, TEXT, text_message_id)


@tool(app=APP, writes=True, requires=SEND_REQ)
def messages_send_text_message(world, phone_number: str, message: str) -> dict:
    """Send a text message to a phone number (needs cellular service).

    Args:
        phone_number: the receiver's phone number; any formatting is accepted.
        message: the text to send.
    """
    return _send(world, TEXT, phone_number, message)


@tool(app=APP)
def messages_show_voice_message_window(
    world,
    phone_number: str,
    min_datetime: str | None = "1500-01-01|00:00:00",
    max_datetime: str | None = "3000-01-01|00:00:00",
    pagination_order: _Order | None = "descending",
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """Show the voice messages exchanged with one phone number within a time window (as transcripts).

    Args:
        phone_number: the other person's phone number.
        min_datetime: earliest message time to include, YYYY-MM-DD|HH:MM:SS (UTC).
        max_datetime: latest message time to include, YYYY-MM-DD|HH:MM:SS (UTC).
        pagination_order: "descending" lists newest first, "ascending" oldest first.
        page_index: page to return, from 0.
        page_limit: messages per page (1-20).
    """
    return _window(world, VOICE, phone_number, min_datetime, max_datetime, pagination_order, page_index, page_limit)


@tool(app=APP)
def messages_search_voice_messages(
    world,
    query: str | None = "",
    phone_number: str | None = None,
    only_latest_per_contact: bool | None = False,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search your voice messages by their transcripts (newest first unless a query ranks them).

    Args:
        query: words to find in the transcript or the other person's name (empty lists all).
        phone_number: only messages exchanged with this phone number.
        only_latest_per_contact: keep only the most recent message of each conversation.
        page_index: page to return, from 0.
        page_limit: messages per page (1-20).
        sort_by: "created_at" (oldest first) or "-created_at" (newest first).
    """
    return _search(world, VOICE, query, phone_number, only_latest_per_contact, page_index, page_limit, sort_by)


@tool(app=APP)
def messages_show_voice_message(world, voice_message_id: int) -> dict:
    """Show one of your voice messages (transcript, sender, receiver, time).

    Args:
        voice_message_id: id of the voice message (from messages_search_voice_messages).
    """
    return _show(world, VOICE, voice_message_id)


@tool(app=APP, writes=True)
def messages_delete_voice_message(world, voice_message_id: int) -> dict:
    """Delete a voice message from your phone (the other person keeps their copy).

    Args:
        voice_message_id: id of the voice message.
    """
    return _delete(world, VOICE, voice_message_id)


@tool(app=APP, writes=True, requires=SEND_REQ)
def messages_send_voice_message(world, phone_number: str, message: str) -> dict:
    """Send a voice message to a phone number (needs cellular service).

    Args:
        phone_number: the receiver's phone number; any formatting is accepted.
        message: what you say in the voice message (stored as its transcript).
    """
    return _send(world, VOICE, phone_number, message)
