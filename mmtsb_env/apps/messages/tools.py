"""Messages: send, search, show and delete text and voice messages."""

from __future__ import annotations

from ...tools import tool

from .tables import APP, SEND_REQ, TEXT, VOICE, _Order, _delete, _search, _send, _show, _window


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
