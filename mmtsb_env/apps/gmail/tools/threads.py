"""Gmail tools for reading and organizing the mailbox: thread lists, labels, flags, snoozing, deleting."""

from __future__ import annotations

from typing import Any, Literal

from ....tools import Conflict, InvalidArgument, PermissionDenied, tool
from ..._common import paginate, public_user, search_rank
from ..tables import (
    _BOXES, APP, DRAFTS, REQ, USERS, _draft_view, _forget_thread, _future, _list_threads, _Mailbox, _set_email_state,
    _set_thread_state,
)

@tool(app=APP, writes=True, requires=REQ)
def gmail_set_status(
    world, status: Literal["active", "do_not_disturb", "away"], status_expiry: str | None = None
) -> dict:
    """Set your availability status shown to other gmail users.

    Args:
        status: "active", "do_not_disturb" or "away".
        status_expiry: when the status ends, YYYY-MM-DD|HH:MM:SS in the future (never, if omitted).
    """
    if world.get(USERS, world.user_id) is None:
        raise PermissionDenied("you have no gmail account")
    expiry = _future(world, status_expiry, "status_expiry") if status_expiry is not None else None
    world.update(USERS, world.user_id, status=status, status_expiry=expiry)
    return {"message": f"Status set to {status}.", "status": status, "status_expiry": expiry}


@tool(app=APP, requires=REQ)
def gmail_search_users(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Find gmail users by name or email address.

    Args:
        query: words of the name or email address (empty lists everyone).
        page_index: page to return, from 0.
        page_limit: users per page (1-20).
    """
    rows = sorted(world.rows(USERS), key=lambda r: (r["first_name"].lower(), r["last_name"].lower(), r["id"]))
    rows = search_rank(rows, query, ("first_name", "last_name", "email"))
    return [public_user(r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def gmail_search_labels(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List the labels you put on your email threads, with how many threads carry each.

    Args:
        query: words of the label (empty lists all labels).
        page_index: page to return, from 0.
        page_limit: labels per page (1-20).
    """
    box = _Mailbox(world)
    counts: dict[str, int] = {}
    for thread_id in box.threads:
        label = box.flags(thread_id)["label"]
        if label:
            counts[label] = counts.get(label, 0) + 1
    rows = [{"label": k, "thread_count": v} for k, v in sorted(counts.items(), key=lambda kv: kv[0].lower())]
    rows = search_rank(rows, query, ("label",))
    return paginate(rows, page_index, page_limit)


@tool(app=APP, requires=REQ)
def gmail_show_inbox_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    starred: bool | None = None,
    archived: bool | None = False,
    spam: bool | None = False,
    snoozed: bool | None = False,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search threads in which you received at least one email (newest activity first).

    Archived, spam and snoozed threads are left out unless you ask for them; pass null to any flag
    to ignore it.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        starred: only starred (true) or unstarred (false) threads.
        archived: only archived (true) or unarchived (false) threads.
        spam: only spam (true) or non-spam (false) threads.
        snoozed: only snoozed (true) or not snoozed (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "inbox", query=query, label=label, starred=starred, archived=archived, spam=spam, snoozed=snoozed,
        read=read, attachment=attachment, from_email=from_email, to_email=to_email, min_created_at=min_created_at,
        max_created_at=max_created_at, page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_outbox_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    starred: bool | None = None,
    archived: bool | None = False,
    spam: bool | None = False,
    snoozed: bool | None = False,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search threads in which you sent at least one email (newest activity first).

    Archived, spam and snoozed threads are left out unless you ask for them; pass null to any flag
    to ignore it.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        starred: only starred (true) or unstarred (false) threads.
        archived: only archived (true) or unarchived (false) threads.
        spam: only spam (true) or non-spam (false) threads.
        snoozed: only snoozed (true) or not snoozed (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "outbox", query=query, label=label, starred=starred, archived=archived, spam=spam, snoozed=snoozed,
        read=read, attachment=attachment, from_email=from_email, to_email=to_email, min_created_at=min_created_at,
        max_created_at=max_created_at, page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_snoozed_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    starred: bool | None = None,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search the threads you snoozed that have not woken up yet.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        starred: only starred (true) or unstarred (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "snoozed", query=query, label=label, starred=starred, read=read, attachment=attachment,
        from_email=from_email, to_email=to_email, min_created_at=min_created_at, max_created_at=max_created_at,
        page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_starred_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    archived: bool | None = None,
    spam: bool | None = None,
    snoozed: bool | None = None,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search your starred threads.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        archived: only archived (true) or unarchived (false) threads.
        spam: only spam (true) or non-spam (false) threads.
        snoozed: only snoozed (true) or not snoozed (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "starred", query=query, label=label, archived=archived, spam=spam, snoozed=snoozed, read=read,
        attachment=attachment, from_email=from_email, to_email=to_email, min_created_at=min_created_at,
        max_created_at=max_created_at, page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_archived_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    starred: bool | None = None,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search your archived threads.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        starred: only starred (true) or unstarred (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "archived", query=query, label=label, starred=starred, read=read, attachment=attachment,
        from_email=from_email, to_email=to_email, min_created_at=min_created_at, max_created_at=max_created_at,
        page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_spam_threads(
    world,
    query: str | None = "",
    label: str | None = None,
    starred: bool | None = None,
    read: bool | None = None,
    attachment: bool | None = None,
    from_email: str | None = None,
    to_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search the threads marked as spam.

    Args:
        query: words to find in subjects, bodies, names or addresses (empty lists all).
        label: only threads with this label.
        starred: only starred (true) or unstarred (false) threads.
        read: only fully read (true) or threads with unread emails (false).
        attachment: only threads with (true) or without (false) attachments.
        from_email: only threads with an email sent by this address.
        to_email: only threads with an email sent to this address.
        min_created_at: only threads with an email at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only threads with an email at or before this date/time.
        page_index: page to return, from 0.
        page_limit: threads per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "email_count"; prefix "-" for descending.
    """
    return _list_threads(
        world, "spam", query=query, label=label, starred=starred, read=read, attachment=attachment,
        from_email=from_email, to_email=to_email, min_created_at=min_created_at, max_created_at=max_created_at,
        page_index=page_index, page_limit=page_limit, sort_by=sort_by,
    )


@tool(app=APP, requires=REQ)
def gmail_show_category_sizes(world, read: bool | None = None) -> dict:
    """Count your threads per mailbox category (inbox, outbox, starred, archived, spam, snoozed) and your drafts.

    Inbox and outbox counts leave out archived, spam and snoozed threads, as the lists do.

    Args:
        read: count only fully read (true) or only unread (false) threads; drafts are always all counted.
    """
    sizes = {}
    for name in _BOXES:
        defaults = {"archived": False, "spam": False, "snoozed": False} if name in ("inbox", "outbox") else {}
        sizes[name] = _list_threads(world, name, read=read, count_only=True, **defaults)
    sizes["drafts"] = sum(1 for d in world.rows(DRAFTS) if d["user_id"] == world.user_id)
    return sizes


@tool(app=APP, requires=REQ)
def gmail_show_thread(world, email_thread_id: int) -> dict:
    """Show an email thread: its flags, every email in it (oldest first) and your drafts in it.

    Args:
        email_thread_id: id of the thread.
    """
    box = _Mailbox(world)
    emails = box.thread(email_thread_id)
    summary = box.summary(email_thread_id)
    summary.pop("latest_email")
    drafts = [
        _draft_view(world, d) for d in world.rows(DRAFTS)
        if d["user_id"] == world.user_id and d["belongs_to_email_thread_id"] == email_thread_id
    ]
    return {**summary, "emails": [box.email_view(e) for e in emails], "drafts": drafts}


@tool(app=APP, writes=True, requires=REQ)
def gmail_delete_thread(world, email_thread_id: int) -> dict:
    """Delete an email thread from your mailbox, with your drafts in it (others keep their copies).

    Args:
        email_thread_id: id of the thread.
    """
    emails = _Mailbox(world).thread(email_thread_id)
    for email in emails:
        _set_email_state(world, email["id"], deleted=True)
    drafts = _forget_thread(world, email_thread_id)
    return {"message": f"Thread deleted ({len(emails)} emails, {drafts} drafts)."}


@tool(app=APP, requires=REQ)
def gmail_show_email(world, email_id: int) -> dict:
    """Show one email of your mailbox with its body and attachments.

    Args:
        email_id: id of the email.
    """
    box = _Mailbox(world)
    return box.email_view(box.email(email_id))


@tool(app=APP, writes=True, requires=REQ)
def gmail_label_thread(world, email_thread_id: int, label: str) -> dict:
    """Put a label on a thread (a thread has one label; a new one replaces the old).

    Args:
        email_thread_id: id of the thread.
        label: the label, e.g. "Work" or "Receipts".
    """
    _Mailbox(world).thread(email_thread_id)
    cleaned = " ".join(label.split())
    if not cleaned:
        raise InvalidArgument("label must not be empty")
    _set_thread_state(world, email_thread_id, label=cleaned)
    return {"message": f"Thread labelled {cleaned!r}."}


@tool(app=APP, writes=True, requires=REQ)
def gmail_unlabel_thread(world, email_thread_id: int) -> dict:
    """Remove the label from a thread.

    Args:
        email_thread_id: id of the thread.
    """
    _clear_thread_state(world, email_thread_id, "label", "label", "has no label")
    return {"message": "Label removed."}


def _clear_thread_state(world: Any, email_thread_id: int, flag: str, column: str, unset: str) -> None:
    """Reset ``column`` of the owner's thread state; Conflict("thread <id> <unset>") when ``flag`` is off."""
    box = _Mailbox(world)
    box.thread(email_thread_id)
    if not box.flags(email_thread_id)[flag]:
        raise Conflict(f"thread {email_thread_id} {unset}")
    _set_thread_state(world, email_thread_id, **{column: None})


def _mark_read(world: Any, email_thread_id: int, read: bool) -> dict:
    box = _Mailbox(world)
    changed = 0
    for email in box.thread(email_thread_id):
        if box.is_read(email) != read:
            _set_email_state(world, email["id"], read=read)
            changed += 1
    return {"message": f"Thread marked {'read' if read else 'unread'} ({changed} emails changed)."}


def _mark_flag(world: Any, email_thread_id: int, flag: str, value: bool, word: str) -> dict:
    box = _Mailbox(world)
    box.thread(email_thread_id)
    if box.flags(email_thread_id)[flag] != value:
        _set_thread_state(world, email_thread_id, **{flag: value})
        return {"message": f"Thread marked {word}."}
    return {"message": f"Thread was already {word}."}


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_read(world, email_thread_id: int) -> dict:
    """Mark every email of a thread as read.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_read(world, email_thread_id, True)


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_unread(world, email_thread_id: int) -> dict:
    """Mark every email of a thread as unread.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_read(world, email_thread_id, False)


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_archived(world, email_thread_id: int) -> dict:
    """Archive a thread: it leaves the inbox and outbox lists but is kept.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "archived", True, "archived")


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_unarchived(world, email_thread_id: int) -> dict:
    """Move an archived thread back to the inbox/outbox lists.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "archived", False, "unarchived")


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_spam(world, email_thread_id: int) -> dict:
    """Report a thread as spam.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "spam", True, "spam")


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_not_spam(world, email_thread_id: int) -> dict:
    """Take a thread out of spam.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "spam", False, "not spam")


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_starred(world, email_thread_id: int) -> dict:
    """Star a thread.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "starred", True, "starred")


@tool(app=APP, writes=True, requires=REQ)
def gmail_mark_thread_unstarred(world, email_thread_id: int) -> dict:
    """Remove the star from a thread.

    Args:
        email_thread_id: id of the thread.
    """
    return _mark_flag(world, email_thread_id, "starred", False, "unstarred")


@tool(app=APP, writes=True, requires=REQ)
def gmail_delete_email_in_thread(world, email_thread_id: int, email_id: int) -> dict:
    """Delete one email of a thread from your mailbox (the other people keep theirs).

    Args:
        email_thread_id: id of the thread the email is in.
        email_id: id of the email.
    """
    box = _Mailbox(world)
    box.thread(email_thread_id)
    box.email(email_id, email_thread_id)
    _set_email_state(world, email_id, deleted=True)
    if len(box.threads[email_thread_id]) == 1:
        _forget_thread(world, email_thread_id)
        return {"message": "Email deleted; the thread had no other email and is gone."}
    return {"message": "Email deleted."}


@tool(app=APP, writes=True, requires=REQ)
def gmail_snooze_thread(world, email_thread_id: int, snooze_until: str) -> dict:
    """Hide a thread from the inbox/outbox lists until a time in the future.

    Args:
        email_thread_id: id of the thread.
        snooze_until: when the thread comes back, YYYY-MM-DD|HH:MM:SS (UTC).
    """
    _Mailbox(world).thread(email_thread_id)
    until = _future(world, snooze_until, "snooze_until")
    _set_thread_state(world, email_thread_id, snoozed_until=until)
    return {"message": f"Thread snoozed until {until}."}


@tool(app=APP, writes=True, requires=REQ)
def gmail_unsnooze_thread(world, email_thread_id: int) -> dict:
    """Bring a snoozed thread back right away.

    Args:
        email_thread_id: id of the thread.
    """
    _clear_thread_state(world, email_thread_id, "snoozed", "snoozed_until", "is not snoozed")
    return {"message": "Thread unsnoozed."}
