"""Gmail: emails, threads, drafts and attachments of every gmail user.

Storage model
-------------
* ``gmail.emails`` holds every sent email once (sender, recipients, thread, reply link).
  A user's mailbox is every email they sent or received, minus those they deleted.
* ``gmail.email_states`` keeps a user's per-email state (read, deleted). Without a row an email
  is read by its sender and unread by its recipients, so emails that a scenario adds arrive unread.
* ``gmail.thread_states`` keeps a user's per-thread state (label, starred, archived, spam,
  snoozed_until); without a row every flag is off.
* ``gmail.global_email_threads`` (one row per thread: its emails) and ``gmail.user_email_threads``
  (one row per thread and person whose mailbox holds it: which of its emails they have, whether
  they received and sent in it, read, label and flags, the senders and recipients, attachments)
  are the thread records the reference's gmail keeps, with its columns. They are derived from the
  tables above and rewritten by every tool that sends an email or changes a mailbox state
  (:func:`_sync_thread`), so they are never out of step after a tool call.
* ``gmail.drafts`` are private to their author; ``gmail.attachments`` hold file contents that
  emails and drafts reference by id (a forward shares the original's attachments).

Attachments move to and from the file_system app through its helper API, so file paths follow
that app's rules (``~/downloads/report.csv`` etc.).

This module holds the tables and the shared helpers; the tools are in ``tools.threads``
(reading and organizing the mailbox) and ``tools.compose`` (sending, drafts, attachments),
the base data in ``data``.
"""

from __future__ import annotations

from typing import Any

from ...tools import InvalidArgument, NotFound
from ...world import define_table
from ...world.clock import format_datetime
from .._accounts import define_accounts
from .._common import now_str, paginate, parse_when, sort_rows, text_score
from ..file_system.tables import file_system_user_for_token, read_user_file

APP = "gmail"
REQ = ("network", "login:gmail")
USERS = "gmail.users"
EMAILS = "gmail.emails"
DRAFTS = "gmail.drafts"
ATTACHMENTS = "gmail.attachments"
EMAIL_STATES = "gmail.email_states"
THREAD_STATES = "gmail.thread_states"
GLOBAL_THREADS = "gmail.global_email_threads"
USER_THREADS = "gmail.user_email_threads"

GMAIL_ACCOUNT_TOOLS = (
    "show_account", "signup", "delete_account", "update_account_name", "login", "logout",
    "send_password_reset_code", "reset_password", "show_profile",
)

define_accounts(APP, extra_columns={"status_expiry": None})
define_table(
    EMAILS,
    columns={
        "id": None, "sender_id": None, "recipient_ids": [], "subject": "", "body": "", "attachment_ids": [],
        "response_to_email_id": None, "email_thread_id": None, "created_at": None,
    },
    auto_columns=("created_at", "email_thread_id"),
)
define_table(
    DRAFTS,
    columns={
        "id": None, "user_id": None, "recipient_ids": [], "recipient_email_addresses": [], "recipient_names": [],
        "subject": "", "body": "", "attachment_ids": [], "belongs_to_email_thread_id": None,
        "response_to_email_id": None, "scheduled_send_at": None, "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at"),
)
define_table(
    ATTACHMENTS,
    columns={"id": None, "user_id": None, "file_name": "", "content": "", "size": 0, "download_count": 0, "created_at": None},
    auto_columns=("created_at", "size", "download_count"), derived={"file_content": lambda r: r["content"]},
)
define_table(
    EMAIL_STATES,
    columns={"id": None, "user_id": None, "email_id": None, "read": False, "deleted": False, "updated_at": None},
    auto_columns=("updated_at",),
)
define_table(
    THREAD_STATES,
    columns={
        "id": None, "user_id": None, "email_thread_id": None, "label": None, "starred": False,
        "archived": False, "spam": False, "snoozed_until": None, "updated_at": None,
    },
    auto_columns=("updated_at",),
)

define_table(
    GLOBAL_THREADS,
    columns={"id": None, "email_ids": [], "created_at": None, "updated_at": None},
    auto_columns=("created_at", "updated_at"),
)
define_table(
    USER_THREADS,
    columns={
        "id": None, "global_email_thread_id": None, "user_id": None, "email_ids": [], "incoming": False, "outgoing": False,
        "read": False, "label": None, "starred": False, "archived": False, "spam": False, "sender_email_addresses": [],
        "sender_names": [], "recipient_email_addresses": [], "recipient_names": [], "has_attachments": False,
        "snoozed_until": None, "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at"),
)

_EARLIEST = "1500-01-01"
_LATEST = "3000-01-01"


# ------------------------------------------------------------------------------ mailbox view
def _person(users: dict[int, dict[str, Any]], user_id: int) -> dict[str, Any]:
    row = users.get(user_id)
    if row is None:
        return {"name": "Unknown", "email": None}
    return {"name": f"{row['first_name']} {row['last_name']}".strip(), "email": row["email"]}


class _Mailbox:
    """The device owner's mailbox, computed once per call from the tables."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.uid = uid = world.user_id
        self.now = now_str(world)
        self.users = {r["id"]: r for r in world.rows(USERS)}
        self.email_states = {s["email_id"]: s for s in world.rows(EMAIL_STATES) if s["user_id"] == uid}
        self.thread_states = {s["email_thread_id"]: s for s in world.rows(THREAD_STATES) if s["user_id"] == uid}
        self.threads: dict[int, list[dict[str, Any]]] = {}
        self.emails: dict[int, dict[str, Any]] = {}
        for email in world.rows(EMAILS):
            if email["sender_id"] != uid and uid not in (email["recipient_ids"] or []):
                continue
            state = self.email_states.get(email["id"])
            if state is not None and state["deleted"]:
                continue
            self.emails[email["id"]] = email
            self.threads.setdefault(email["email_thread_id"], []).append(email)
        for emails in self.threads.values():
            emails.sort(key=lambda e: (e["created_at"] or "", e["id"]))

    # -- lookups
    def thread(self, thread_id: int) -> list[dict[str, Any]]:
        emails = self.threads.get(thread_id)
        if not emails:
            raise NotFound(f"email thread with id {thread_id} does not exist in your mailbox")
        return emails

    def email(self, email_id: int, thread_id: int | None = None) -> dict[str, Any]:
        email = self.emails.get(email_id)
        if email is None:
            raise NotFound(f"email with id {email_id} does not exist in your mailbox")
        if thread_id is not None and email["email_thread_id"] != thread_id:
            raise NotFound(f"email {email_id} is not in email thread {thread_id}")
        return email

    def is_read(self, email: dict[str, Any]) -> bool:
        state = self.email_states.get(email["id"])
        return state["read"] if state is not None else email["sender_id"] == self.uid

    def flags(self, thread_id: int) -> dict[str, Any]:
        state = self.thread_states.get(thread_id) or {}
        until = state.get("snoozed_until")
        active = until if until and until > self.now else None
        return {
            "label": state.get("label"), "starred": bool(state.get("starred")),
            "archived": bool(state.get("archived")), "spam": bool(state.get("spam")),
            "snoozed": active is not None, "snoozed_until": active,
        }

    # -- rendering
    def email_view(self, email: dict[str, Any], with_body: bool = True) -> dict[str, Any]:
        view = {
            "email_id": email["id"],
            "email_thread_id": email["email_thread_id"],
            "sender": _person(self.users, email["sender_id"]),
            "recipients": [_person(self.users, r) for r in email["recipient_ids"]],
            "subject": email["subject"],
        }
        if with_body:
            view["body"] = email["body"]
        view.update({
            "attachments": _attachment_views(self.world, email["attachment_ids"]),
            "response_to_email_id": email["response_to_email_id"],
            "read": self.is_read(email),
            "created_at": email["created_at"],
        })
        return view

    def participants(self, thread_id: int) -> list[dict[str, Any]]:
        seen: list[int] = []
        for email in self.threads[thread_id]:
            for uid in [email["sender_id"], *email["recipient_ids"]]:
                if uid not in seen:
                    seen.append(uid)
        return [_person(self.users, uid) for uid in seen]

    def summary(self, thread_id: int) -> dict[str, Any]:
        emails = self.threads[thread_id]
        first, last = emails[0], emails[-1]
        flags = self.flags(thread_id)
        return {
            "email_thread_id": thread_id,
            "subject": first["subject"],
            "participants": self.participants(thread_id),
            "email_count": len(emails),
            "latest_email": {
                "email_id": last["id"], "sender": _person(self.users, last["sender_id"]),
                "snippet": " ".join(last["body"].split())[:120], "created_at": last["created_at"],
            },
            "read": all(self.is_read(e) for e in emails),
            "starred": flags["starred"], "archived": flags["archived"], "spam": flags["spam"],
            "snoozed_until": flags["snoozed_until"], "label": flags["label"],
            "has_attachment": any(e["attachment_ids"] for e in emails),
            "created_at": first["created_at"],
            "updated_at": last["created_at"],
        }

    def search_text(self, thread_id: int) -> list[Any]:
        parts: list[Any] = []
        for email in self.threads[thread_id]:
            parts.extend((email["subject"], email["body"]))
        for person in self.participants(thread_id):
            parts.extend((person["name"], person["email"]))
        return parts


def _attachment_views(world: Any, ids: list[int]) -> list[dict[str, Any]]:
    out = []
    for att_id in ids or []:
        row = world.get(ATTACHMENTS, att_id)
        if row is not None:
            out.append({"attachment_id": row["id"], "file_name": row["file_name"], "size": row["size"]})
    return out


# ------------------------------------------------------------------------------ arguments
def _datetime(value: str, name: str) -> str:
    return format_datetime(parse_when(value, name))


def _window(min_created_at: str | None, max_created_at: str | None) -> tuple[str, str]:
    low = _datetime(min_created_at or _EARLIEST, "min_created_at")
    raw_high = (max_created_at or _LATEST).strip()
    high = _datetime(raw_high, "max_created_at")
    if len(raw_high) == 10:  # a bare date includes that whole day
        high = high[:10] + "T23:59:59"
    if low > high:
        raise InvalidArgument("min_created_at must not be after max_created_at")
    return low, high


def _future(world: Any, value: str, name: str) -> str:
    stamp = _datetime(value, name)
    if stamp <= now_str(world):
        raise InvalidArgument(f"{name} must be in the future (now is {now_str(world)}), got {value!r}")
    return stamp


def _resolve_recipients(world: Any, addresses: list[str], name: str) -> list[dict[str, Any]]:
    """gmail.users rows for the addresses (case-insensitive, duplicates dropped, order kept)."""
    if not addresses:
        raise InvalidArgument(f"{name} must contain at least one email address")
    by_email = {(r["email"] or "").lower(): r for r in world.rows(USERS)}
    out: list[dict[str, Any]] = []
    for address in addresses:
        row = by_email.get(address.strip().lower())
        if row is None:
            raise NotFound(
                f"no gmail user has the address {address!r}; "
                "check it with gmail_search_users or contacts_search_contacts"
            )
        if all(r["id"] != row["id"] for r in out):
            out.append(dict(row))
    return out


def _new_thread_id(world: Any) -> int:
    top = max((r["id"] for r in world.rows(GLOBAL_THREADS)), default=0)
    for email in world.rows(EMAILS):
        top = max(top, email["email_thread_id"] or 0)
    for state in world.rows(THREAD_STATES):
        top = max(top, state["email_thread_id"] or 0)
    for draft in world.rows(DRAFTS):
        top = max(top, draft["belongs_to_email_thread_id"] or 0)
    return top + 1


def _strip_prefix(subject: str, prefix: str) -> str:
    text = subject.strip()
    while text.lower().startswith(prefix.lower()):
        text = text[len(prefix):].strip()
    return text


# ------------------------------------------------------------------------------ writes
def _deliver(
    world: Any, recipients: list[dict[str, Any]], subject: str, body: str, attachment_ids: list[int],
    thread_id: int | None, response_to: int | None,
) -> dict[str, Any]:
    email = world.insert(EMAILS, {
        "id": world.new_id(EMAILS), "sender_id": world.user_id, "recipient_ids": [r["id"] for r in recipients],
        "subject": subject, "body": body, "attachment_ids": list(attachment_ids),
        "response_to_email_id": response_to,
        "email_thread_id": thread_id if thread_id is not None else _new_thread_id(world),
        "created_at": now_str(world),
    })
    _sync_thread(world, email["email_thread_id"])
    return email


def _set_state(world: Any, table: str, column: str, key: int, changes: dict[str, Any]) -> None:
    """Change the owner's state row for one email or thread, creating it on first use."""
    state = world.first(table, user_id=world.user_id, **{column: key})
    if state is None:
        world.insert(table, {
            "id": world.new_id(table), "user_id": world.user_id, column: key, **changes, "updated_at": now_str(world),
        })
    else:
        world.update(table, state["id"], **changes, updated_at=now_str(world))
    _sync_thread(world, key if table == THREAD_STATES else (world.get(EMAILS, key) or {}).get("email_thread_id"))


def _set_email_state(world: Any, email_id: int, **changes: Any) -> None:
    _set_state(world, EMAIL_STATES, "email_id", email_id, changes)


def _set_thread_state(world: Any, thread_id: int, **changes: Any) -> None:
    _set_state(world, THREAD_STATES, "email_thread_id", thread_id, changes)


def _forget_thread(world: Any, thread_id: int) -> int:
    """After the owner's last email of a thread is gone: drop their thread state and drafts in it."""
    state = world.first(THREAD_STATES, user_id=world.user_id, email_thread_id=thread_id)
    if state is not None:
        world.delete(THREAD_STATES, state["id"])
        _sync_thread(world, thread_id)
    drafts = world.select(DRAFTS, user_id=world.user_id, belongs_to_email_thread_id=thread_id)
    for draft in drafts:
        world.delete(DRAFTS, draft["id"])
        _drop_unused_attachments(world, draft["attachment_ids"])
    return len(drafts)


def thread_records(
    thread_id: int, emails: list[dict[str, Any]], users: dict[int, dict[str, Any]],
    email_state: Any, thread_state: Any,
) -> tuple[list[int], dict[int, dict[str, Any]]]:
    """The records of one thread, derived from its emails: the ids of all its emails (oldest first)
    and, per person whose mailbox holds some of them, their ``user_email_threads`` columns.

    ``email_state(user_id, email_id)`` and ``thread_state(user_id)`` give that person's state row
    of an email or of the thread (None without one). A person's emails are those they sent or
    received and did not delete; the thread is read when all of them are (an email without a
    state row is read by its sender only); its label is the one they gave it, else INBOX when
    they received in it and SENT when they only sent.
    """
    emails = sorted(emails, key=lambda e: (e["created_at"] or "", e["id"]))

    def people(ids: list[int]) -> tuple[list[Any], list[str]]:
        rows = [users.get(u) or {} for u in ids]
        return ([r.get("email") for r in rows],
                [f"{r.get('first_name') or ''} {r.get('last_name') or ''}".strip() for r in rows])

    members = list(dict.fromkeys(u for e in emails for u in [e["sender_id"], *(e["recipient_ids"] or [])]))
    out: dict[int, dict[str, Any]] = {}
    for uid in members:
        box = [(e, email_state(uid, e["id"])) for e in emails if e["sender_id"] == uid or uid in (e["recipient_ids"] or [])]
        box = [(e, st) for e, st in box if not (st and st.get("deleted"))]
        if not box:
            continue
        state = thread_state(uid) or {}
        incoming = any(uid in (e["recipient_ids"] or []) for e, _ in box)
        senders = people(list(dict.fromkeys(e["sender_id"] for e, _ in box)))
        recipients = people(list(dict.fromkeys(r for e, _ in box for r in e["recipient_ids"] or [])))
        out[uid] = {
            "global_email_thread_id": thread_id, "user_id": uid, "email_ids": [e["id"] for e, _ in box],
            "incoming": incoming, "outgoing": any(e["sender_id"] == uid for e, _ in box),
            "read": all(bool(st["read"]) if st is not None else e["sender_id"] == uid for e, st in box),
            "label": state.get("label") or ("INBOX" if incoming else "SENT"),
            "starred": bool(state.get("starred")), "archived": bool(state.get("archived")), "spam": bool(state.get("spam")),
            "sender_email_addresses": senders[0], "sender_names": senders[1],
            "recipient_email_addresses": recipients[0], "recipient_names": recipients[1],
            "has_attachments": any(e["attachment_ids"] for e, _ in box), "snoozed_until": state.get("snoozed_until"),
        }
    return [e["id"] for e in emails], out


def _sync_thread(world: Any, thread_id: int | None) -> None:
    """Rewrite the thread records of ``thread_id`` from its emails and states (only what changed)."""
    if thread_id is None:
        return
    emails = world.select(EMAILS, email_thread_id=thread_id)
    ids = {e["id"] for e in emails}
    members = {u for e in emails for u in [e["sender_id"], *(e["recipient_ids"] or [])]}
    email_states = {(s["user_id"], s["email_id"]): s for s in world.rows(EMAIL_STATES) if s["email_id"] in ids}
    thread_states = {s["user_id"]: s for s in world.select(THREAD_STATES, email_thread_id=thread_id)}
    users = {u: world.get(USERS, u) or {} for u in members}
    email_ids, records = thread_records(thread_id, emails, users, lambda u, e: email_states.get((u, e)), thread_states.get)
    now = now_str(world)
    record = world.get(GLOBAL_THREADS, thread_id)
    if not emails:
        if record is not None:
            world.delete(GLOBAL_THREADS, thread_id)
    elif record is None:
        world.insert(GLOBAL_THREADS, {"id": thread_id, "email_ids": email_ids, "created_at": now, "updated_at": now})
    elif list(record["email_ids"]) != email_ids:
        world.update(GLOBAL_THREADS, thread_id, email_ids=email_ids, updated_at=now)
    existing = {r["user_id"]: r for r in world.select(USER_THREADS, global_email_thread_id=thread_id)}
    for uid, columns in records.items():
        row = existing.pop(uid, None)
        if row is None:
            world.insert(USER_THREADS, {"id": world.new_id(USER_THREADS), **columns, "created_at": now, "updated_at": now})
            continue
        changes = {k: v for k, v in columns.items() if row.get(k) != v}
        if changes:
            world.update(USER_THREADS, row["id"], **changes, updated_at=now)
    for row in existing.values():
        world.delete(USER_THREADS, row["id"])


def _drop_unused_attachments(world: Any, ids: list[int]) -> None:
    """Delete attachment rows no email or draft refers to any more."""
    if not ids:
        return
    used: set[int] = set()
    for table in (EMAILS, DRAFTS):
        for row in world.rows(table):
            used.update(row["attachment_ids"] or [])
    for att_id in ids:
        if att_id not in used and world.exists(ATTACHMENTS, att_id):
            world.delete(ATTACHMENTS, att_id)


def _file_name(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _attach_files(world: Any, paths: list[str] | None, token: str | None) -> list[int]:
    """Copy files from the file_system app into new attachment rows; their ids."""
    if not paths:
        return []
    fs_user = file_system_user_for_token(world, token)
    ids = []
    for path in paths:
        found = read_user_file(world, fs_user, path)
        row = world.insert(ATTACHMENTS, {
            "id": world.new_id(ATTACHMENTS), "user_id": world.user_id, "file_name": _file_name(found["path"]),
            "content": found["content"], "size": found.get("size") or len(found["content"].encode("utf-8")),
            "created_at": now_str(world),
        })
        ids.append(row["id"])
    return ids


def _owned_draft(world: Any, draft_id: int) -> dict[str, Any]:
    draft = world.get(DRAFTS, draft_id)
    if draft is None or draft["user_id"] != world.user_id:
        raise NotFound(f"draft with id {draft_id} does not exist in your account")
    return draft


def _draft_view(world: Any, draft: dict[str, Any]) -> dict[str, Any]:
    return {
        "draft_id": draft["id"],
        "recipient_email_addresses": list(draft["recipient_email_addresses"]),
        "recipient_names": list(draft["recipient_names"]),
        "subject": draft["subject"],
        "body": draft["body"],
        "attachments": _attachment_views(world, draft["attachment_ids"]),
        "belongs_to_email_thread_id": draft["belongs_to_email_thread_id"],
        "response_to_email_id": draft["response_to_email_id"],
        "scheduled_send_at": draft["scheduled_send_at"],
        "created_at": draft["created_at"],
        "updated_at": draft["updated_at"],
    }


def _recipient_columns(recipients: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {
        "recipient_ids": [r["id"] for r in recipients],
        "recipient_email_addresses": [r["email"] for r in recipients],
        "recipient_names": [f"{r['first_name']} {r['last_name']}".strip() for r in recipients],
    }


def _forward_block(box: _Mailbox, email: dict[str, Any]) -> str:
    sender = _person(box.users, email["sender_id"])
    to = ", ".join(f"{p['name']} <{p['email']}>" for p in (_person(box.users, r) for r in email["recipient_ids"]))
    return (
        "---------- Forwarded message ----------\n"
        f"From: {sender['name']} <{sender['email']}>\nDate: {email['created_at']}\n"
        f"Subject: {email['subject']}\nTo: {to}\n\n{email['body']}"
    )


def _forward(
    world: Any, box: _Mailbox, emails: list[dict[str, Any]], addresses: list[str], draft_not_send: bool | None
) -> dict:
    recipients = _resolve_recipients(world, addresses, "email_addresses")
    subject = "Fwd: " + _strip_prefix(_strip_prefix(emails[0]["subject"], "Re:"), "Fwd:")
    body = "\n\n".join(_forward_block(box, e) for e in emails)
    attachment_ids: list[int] = []
    for email in emails:
        attachment_ids.extend(a for a in email["attachment_ids"] if a not in attachment_ids)
    if draft_not_send:
        now = now_str(world)
        draft = world.insert(DRAFTS, {
            "id": world.new_id(DRAFTS), "user_id": world.user_id, **_recipient_columns(recipients),
            "subject": subject, "body": body, "attachment_ids": attachment_ids, "created_at": now, "updated_at": now,
        })
        return {"message": "Forward saved as a draft.", "draft_id": draft["id"]}
    email = _deliver(world, recipients, subject, body, attachment_ids, None, None)
    return {"message": "Email forwarded.", "email_id": email["id"], "email_thread_id": email["email_thread_id"]}


# ------------------------------------------------------------------------------ thread lists
_BOXES = ("inbox", "outbox", "snoozed", "starred", "archived", "spam")
_THREAD_SORTS = ("created_at", "updated_at", "subject", "email_count")


def _list_threads(
    world: Any, box_name: str, *, query: str | None = "", label: str | None = None, starred: bool | None = None,
    archived: bool | None = None, spam: bool | None = None, snoozed: bool | None = None, read: bool | None = None,
    attachment: bool | None = None, from_email: str | None = None, to_email: str | None = None,
    min_created_at: str | None = _EARLIEST, max_created_at: str | None = _LATEST,
    page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = None, count_only: bool = False,
) -> Any:
    box = _Mailbox(world)
    low, high = _window(min_created_at, max_created_at)
    by_email = {(r["email"] or "").lower(): r["id"] for r in box.users.values()}
    from_id = by_email.get(from_email.strip().lower(), -1) if from_email is not None else None
    to_id = by_email.get(to_email.strip().lower(), -1) if to_email is not None else None
    picked: list[tuple[float, dict[str, Any]]] = []
    for thread_id, emails in box.threads.items():
        flags = box.flags(thread_id)
        if box_name == "inbox" and not any(box.uid in e["recipient_ids"] for e in emails):
            continue
        if box_name == "outbox" and not any(e["sender_id"] == box.uid for e in emails):
            continue
        if box_name in ("snoozed", "starred", "archived", "spam") and not flags[box_name]:
            continue
        wanted = {"starred": starred, "archived": archived, "spam": spam, "snoozed": snoozed}
        if any(v is not None and flags[k] != v for k, v in wanted.items()):
            continue
        if label is not None and (flags["label"] or "").lower() != label.strip().lower():
            continue
        if read is not None and all(box.is_read(e) for e in emails) != read:
            continue
        if attachment is not None and any(e["attachment_ids"] for e in emails) != attachment:
            continue
        if from_id is not None and not any(e["sender_id"] == from_id for e in emails):
            continue
        if to_id is not None and not any(to_id in e["recipient_ids"] for e in emails):
            continue
        if not any(low <= (e["created_at"] or "") <= high for e in emails):
            continue
        score = text_score(query, *box.search_text(thread_id)) if query else 1.0
        if score > 0:
            picked.append((score, box.summary(thread_id)))
    if count_only:
        return len(picked)
    picked.sort(key=lambda item: (item[1]["updated_at"] or "", item[1]["email_thread_id"]), reverse=True)
    picked.sort(key=lambda item: -item[0])
    rows = sort_rows([s for _, s in picked], sort_by, _THREAD_SORTS)
    return paginate(rows, page_index, page_limit)
