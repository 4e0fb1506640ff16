"""Gmail tools that write mail: sending, replying, forwarding, drafts and attachments."""

from __future__ import annotations

from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import nonblank, now_str, paginate, search_rank, sort_rows
from ...file_system.tables import file_system_user_for_token, write_user_file
from ..tables import (
    APP, ATTACHMENTS, DRAFTS, REQ, USERS, _attach_files, _attachment_views, _deliver, _draft_view,
    _drop_unused_attachments, _forward, _future, _Mailbox, _owned_draft, _recipient_columns, _resolve_recipients,
    _strip_prefix, _window,
)


@tool(app=APP, writes=True, requires=REQ)
def gmail_send_email(
    world,
    email_addresses: list[str],
    subject: str,
    body: str,
    attachment_file_paths: list[str] | None = None,
    file_system_access_token: str | None = None,
) -> dict:
    """Send a new email (it starts a new thread).

    Args:
        email_addresses: addresses of the recipients; each must be a gmail user.
        subject: subject line.
        body: text of the email.
        attachment_file_paths: files of your file_system app to attach (e.g. "~/documents/report.txt").
        file_system_access_token: needed with attachments; you must be logged in to file_system.
    """
    recipients = _resolve_recipients(world, email_addresses, "email_addresses")
    if not subject.strip() and not body.strip():
        raise InvalidArgument("an email needs a subject or a body")
    attachment_ids = _attach_files(world, attachment_file_paths, file_system_access_token)
    email = _deliver(world, recipients, subject, body, attachment_ids, None, None)
    return {"message": "Email sent.", "email_id": email["id"], "email_thread_id": email["email_thread_id"]}


@tool(app=APP, writes=True, requires=REQ)
def gmail_reply_to_email(
    world,
    email_thread_id: int,
    email_id: int,
    body: str,
    email_addresses: list[str] | None = None,
    attachment_file_paths: list[str] | None = None,
    file_system_access_token: str | None = None,
) -> dict:
    """Reply to an email; the reply joins the same thread.

    Without email_addresses the reply goes to the email's sender (or, when you sent it, to its recipients).

    Args:
        email_thread_id: id of the thread the email is in.
        email_id: id of the email you answer.
        body: text of the reply.
        email_addresses: recipients, to override the default.
        attachment_file_paths: files of your file_system app to attach.
        file_system_access_token: needed with attachments; you must be logged in to file_system.
    """
    box = _Mailbox(world)
    box.thread(email_thread_id)
    original = box.email(email_id, email_thread_id)
    nonblank(body, "body")
    if email_addresses is not None:
        recipients = _resolve_recipients(world, email_addresses, "email_addresses")
    else:
        ids = original["recipient_ids"] if original["sender_id"] == world.user_id else [original["sender_id"]]
        recipients = [box.users[i] for i in ids if i in box.users]
        if not recipients:
            raise NotFound("the people of this email no longer have gmail accounts; give email_addresses")
    attachment_ids = _attach_files(world, attachment_file_paths, file_system_access_token)
    subject = "Re: " + _strip_prefix(original["subject"], "Re:")
    email = _deliver(world, recipients, subject, body, attachment_ids, email_thread_id, email_id)
    return {"message": "Reply sent.", "email_id": email["id"], "email_thread_id": email_thread_id}


@tool(app=APP, writes=True, requires=REQ)
def gmail_forward_email_from_thread(
    world, email_thread_id: int, email_id: int, email_addresses: list[str], draft_not_send: bool | None = False
) -> dict:
    """Forward one email of a thread, with its attachments, as a new email (or save it as a draft).

    Args:
        email_thread_id: id of the thread the email is in.
        email_id: id of the email to forward.
        email_addresses: addresses to forward to; each must be a gmail user.
        draft_not_send: if true, save the forward as a draft instead of sending it.
    """
    box = _Mailbox(world)
    box.thread(email_thread_id)
    email = box.email(email_id, email_thread_id)
    return _forward(world, box, [email], email_addresses, draft_not_send)


@tool(app=APP, writes=True, requires=REQ)
def gmail_forward_email_thread(
    world, email_thread_id: int, email_addresses: list[str], draft_not_send: bool | None = False
) -> dict:
    """Forward a whole thread (every email, oldest first, and all attachments) in one new email.

    Args:
        email_thread_id: id of the thread.
        email_addresses: addresses to forward to; each must be a gmail user.
        draft_not_send: if true, save the forward as a draft instead of sending it.
    """
    box = _Mailbox(world)
    return _forward(world, box, box.thread(email_thread_id), email_addresses, draft_not_send)


def _thread_links(
    world: Any, box: _Mailbox, thread_id: int | None, response_to: int | None
) -> tuple[int | None, int | None]:
    if response_to is not None:
        email = box.email(response_to)
        if thread_id is not None and thread_id != email["email_thread_id"]:
            raise InvalidArgument(
                f"email {response_to} is in thread {email['email_thread_id']}, not in thread {thread_id}"
            )
        return email["email_thread_id"], response_to
    if thread_id is not None:
        box.thread(thread_id)
    return thread_id, None


@tool(app=APP, writes=True, requires=REQ)
def gmail_create_draft(
    world,
    recipient_email_addresses: list[str],
    body: str,
    subject: str | None = None,
    belongs_to_email_thread_id: int | None = None,
    response_to_email_id: int | None = None,
    attachment_file_paths: list[str] | None = None,
    scheduled_send_at: str | None = None,
    file_system_access_token: str | None = None,
) -> dict:
    """Save a draft email, optionally as a reply inside a thread or scheduled for later.

    Args:
        recipient_email_addresses: addresses of the recipients; each must be a gmail user.
        body: text of the draft.
        subject: subject line (defaults to "Re: <thread subject>" for a draft in a thread).
        belongs_to_email_thread_id: the thread the draft belongs to.
        response_to_email_id: the email the draft answers (its thread is used).
        attachment_file_paths: files of your file_system app to attach.
        scheduled_send_at: when to send it, YYYY-MM-DD|HH:MM:SS in the future.
        file_system_access_token: needed with attachments; you must be logged in to file_system.
    """
    recipients = _resolve_recipients(world, recipient_email_addresses, "recipient_email_addresses")
    box = _Mailbox(world)
    thread_id, response_to = _thread_links(world, box, belongs_to_email_thread_id, response_to_email_id)
    if subject is None:
        subject = "Re: " + _strip_prefix(box.threads[thread_id][0]["subject"], "Re:") if thread_id is not None else ""
    scheduled = _future(world, scheduled_send_at, "scheduled_send_at") if scheduled_send_at is not None else None
    attachment_ids = _attach_files(world, attachment_file_paths, file_system_access_token)
    now = now_str(world)
    draft = world.insert(DRAFTS, {
        "id": world.new_id(DRAFTS), "user_id": world.user_id, **_recipient_columns(recipients),
        "subject": subject, "body": body, "attachment_ids": attachment_ids,
        "belongs_to_email_thread_id": thread_id, "response_to_email_id": response_to,
        "scheduled_send_at": scheduled, "created_at": now, "updated_at": now,
    })
    return {"message": "Draft saved.", "draft_id": draft["id"]}


@tool(app=APP, requires=REQ)
def gmail_show_drafts(
    world,
    query: str | None = "",
    recipient_email: str | None = None,
    attachment: bool | None = None,
    scheduled: bool | None = None,
    belongs_to_email_thread_id: int | None = None,
    response_to_email_id: int | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search your drafts (most recently edited first).

    Args:
        query: words to find in subject, body or recipients (empty lists all).
        recipient_email: only drafts addressed to this email address.
        attachment: only drafts with (true) or without (false) attachments.
        scheduled: only drafts scheduled to be sent (true) or not (false).
        belongs_to_email_thread_id: only drafts in this thread.
        response_to_email_id: only drafts answering this email.
        min_created_at: only drafts created at or after this date/time (YYYY-MM-DD or YYYY-MM-DD|HH:MM:SS).
        max_created_at: only drafts created at or before this date/time.
        page_index: page to return, from 0.
        page_limit: drafts per page (1-20).
        sort_by: "created_at", "updated_at", "subject" or "scheduled_send_at"; prefix "-" for descending.
    """
    low, high = _window(min_created_at, max_created_at)
    rows = []
    for d in world.rows(DRAFTS):
        if d["user_id"] != world.user_id or not low <= (d["created_at"] or "") <= high:
            continue
        if recipient_email is not None and recipient_email.strip().lower() not in (
            (a or "").lower() for a in d["recipient_email_addresses"]
        ):
            continue
        if attachment is not None and bool(d["attachment_ids"]) != attachment:
            continue
        if scheduled is not None and (d["scheduled_send_at"] is not None) != scheduled:
            continue
        if belongs_to_email_thread_id is not None and d["belongs_to_email_thread_id"] != belongs_to_email_thread_id:
            continue
        if response_to_email_id is not None and d["response_to_email_id"] != response_to_email_id:
            continue
        rows.append(d)
    rows.sort(key=lambda d: (d["updated_at"] or "", d["id"]), reverse=True)
    rows = search_rank(rows, query, ("subject", "body", "recipient_email_addresses", "recipient_names"))
    rows = sort_rows(rows, sort_by, ("created_at", "updated_at", "subject", "scheduled_send_at"))
    return [_draft_view(world, d) for d in paginate(rows, page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def gmail_update_draft(
    world,
    draft_id: int,
    email_addresses: list[str] | None = None,
    subject: str | None = None,
    body: str | None = None,
    belongs_to_email_thread_id: int | None = None,
    response_to_email_id: int | None = None,
    scheduled_send_at: str | None = None,
) -> dict:
    """Change a draft; fields you leave out stay as they are.

    Args:
        draft_id: id of the draft.
        email_addresses: new recipients (replace the old ones); each must be a gmail user.
        subject: new subject line.
        body: new text (replaces the old text).
        belongs_to_email_thread_id: move the draft into this thread.
        response_to_email_id: make the draft answer this email (its thread is used).
        scheduled_send_at: new send time, YYYY-MM-DD|HH:MM:SS in the future; "" removes the schedule.
    """
    draft = _owned_draft(world, draft_id)
    changes: dict[str, Any] = {}
    if email_addresses is not None:
        changes.update(_recipient_columns(_resolve_recipients(world, email_addresses, "email_addresses")))
    if subject is not None:
        changes["subject"] = subject
    if body is not None:
        changes["body"] = body
    if belongs_to_email_thread_id is not None or response_to_email_id is not None:
        box = _Mailbox(world)
        thread_id, response_to = _thread_links(world, box, belongs_to_email_thread_id, response_to_email_id)
        if response_to is None and draft["response_to_email_id"] is not None:
            kept = box.emails.get(draft["response_to_email_id"])
            if kept is not None and kept["email_thread_id"] == thread_id:
                response_to = kept["id"]
        changes.update(belongs_to_email_thread_id=thread_id, response_to_email_id=response_to)
    if scheduled_send_at is not None:
        changes["scheduled_send_at"] = (
            _future(world, scheduled_send_at, "scheduled_send_at") if scheduled_send_at.strip() else None
        )
    if not changes:
        raise InvalidArgument("nothing to update: give at least one field to change")
    row = world.update(DRAFTS, draft_id, **changes, updated_at=now_str(world))
    return {"message": "Draft updated.", "draft": _draft_view(world, row)}


@tool(app=APP, writes=True, requires=REQ)
def gmail_delete_draft(world, draft_id: int) -> dict:
    """Discard a draft.

    Args:
        draft_id: id of the draft.
    """
    draft = _owned_draft(world, draft_id)
    world.delete(DRAFTS, draft_id)
    _drop_unused_attachments(world, draft["attachment_ids"])
    return {"message": "Draft deleted."}


@tool(app=APP, requires=REQ)
def gmail_show_draft(world, draft_id: int) -> dict:
    """Show one of your drafts in full.

    Args:
        draft_id: id of the draft.
    """
    return _draft_view(world, _owned_draft(world, draft_id))


@tool(app=APP, writes=True, requires=REQ)
def gmail_send_email_from_draft(world, draft_id: int, file_system_access_token: str | None = None) -> dict:
    """Send a draft now; the draft becomes an email (in its thread, if it has one) and is removed.

    Args:
        draft_id: id of the draft.
        file_system_access_token: not needed (attachments are already in the draft); accepted for compatibility.
    """
    draft = _owned_draft(world, draft_id)
    if not draft["recipient_ids"]:
        raise InvalidArgument("the draft has no recipients; add them with gmail_update_draft")
    users = {r["id"]: r for r in world.rows(USERS)}
    missing = [rid for rid in draft["recipient_ids"] if rid not in users]
    if missing:
        raise NotFound(f"recipient(s) {missing} of the draft no longer have gmail accounts; update the recipients")
    if not draft["subject"].strip() and not draft["body"].strip():
        raise InvalidArgument("the draft is empty; give it a subject or a body first")
    box = _Mailbox(world)
    thread_id = draft["belongs_to_email_thread_id"]
    if thread_id is not None and thread_id not in box.threads:
        thread_id = None
    response_to = draft["response_to_email_id"] if draft["response_to_email_id"] in box.emails else None
    email = _deliver(
        world, [users[r] for r in draft["recipient_ids"]], draft["subject"], draft["body"],
        draft["attachment_ids"], thread_id, response_to,
    )
    world.delete(DRAFTS, draft_id)
    return {"message": "Draft sent.", "email_id": email["id"], "email_thread_id": email["email_thread_id"]}


def _visible_attachment(world: Any, attachment_id: int) -> dict[str, Any]:
    row = world.get(ATTACHMENTS, attachment_id)
    if row is not None:
        box = _Mailbox(world)
        if any(attachment_id in e["attachment_ids"] for e in box.emails.values()) or any(
            d["user_id"] == world.user_id and attachment_id in d["attachment_ids"] for d in world.rows(DRAFTS)
        ):
            return row
    raise NotFound(f"attachment with id {attachment_id} is not in any of your emails or drafts")


@tool(app=APP, writes=True, requires=REQ)
def gmail_download_attachment(
    world,
    attachment_id: int,
    file_system_access_token: str,
    download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save an attachment as a file in your file_system app (you must be logged in to file_system).

    Args:
        attachment_id: id of the attachment (see gmail_show_email or gmail_show_thread).
        file_system_access_token: access to your file_system app.
        download_to_file_path: where to save it; a path ending in "/" is a directory (default "~/downloads/").
        overwrite: replace an existing file at that path.
    """
    attachment = _visible_attachment(world, attachment_id)
    fs_user = file_system_user_for_token(world, file_system_access_token)
    path = download_to_file_path or "~/downloads/"
    if path.endswith("/"):
        path += attachment["file_name"]
    saved = write_user_file(world, fs_user, path, attachment["content"], overwrite=bool(overwrite))
    world.update(ATTACHMENTS, attachment_id, download_count=attachment.get("download_count", 0) + 1)
    return {"message": "Attachment downloaded.", "file_path": saved}


@tool(app=APP, writes=True, requires=REQ)
def gmail_upload_attachments_to_draft(
    world,
    draft_id: int,
    attachment_file_paths: list[str],
    file_system_access_token: str,
    overwrite: bool | None = False,
) -> dict:
    """Attach files from your file_system app to a draft.

    Args:
        draft_id: id of the draft.
        attachment_file_paths: the files to attach.
        file_system_access_token: access to your file_system app.
        overwrite: replace an attachment of the draft that has the same file name (otherwise that is an error).
    """
    draft = _owned_draft(world, draft_id)
    if not attachment_file_paths:
        raise InvalidArgument("attachment_file_paths must contain at least one file path")
    current = list(draft["attachment_ids"])
    names = {a["file_name"]: a["attachment_id"] for a in _attachment_views(world, current)}
    new_ids = _attach_files(world, attachment_file_paths, file_system_access_token)
    replaced: list[int] = []
    for att_id in new_ids:
        name = world.get(ATTACHMENTS, att_id)["file_name"]
        if name in names:
            if not overwrite:
                raise Conflict(f"the draft already has an attachment named {name}; pass overwrite=true to replace it")
            current.remove(names[name])
            replaced.append(names[name])
        names[name] = att_id
        current.append(att_id)
    world.update(DRAFTS, draft_id, attachment_ids=current, updated_at=now_str(world))
    _drop_unused_attachments(world, replaced)
    return {"message": f"{len(new_ids)} attachment(s) added.", "attachment_ids": new_ids}


@tool(app=APP, writes=True, requires=REQ)
def gmail_remove_attachment_from_draft(world, draft_id: int, attachment_id: int) -> dict:
    """Remove an attachment from a draft.

    Args:
        draft_id: id of the draft.
        attachment_id: id of the attachment to remove.
    """
    draft = _owned_draft(world, draft_id)
    if attachment_id not in draft["attachment_ids"]:
        raise NotFound(f"draft {draft_id} has no attachment with id {attachment_id}")
    remaining = [a for a in draft["attachment_ids"] if a != attachment_id]
    world.update(DRAFTS, draft_id, attachment_ids=remaining, updated_at=now_str(world))
    _drop_unused_attachments(world, [attachment_id])
    return {"message": "Attachment removed."}
