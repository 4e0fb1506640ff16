"""ReferenceOracleAgent: a perfect agent for imported reference scenarios, through the tools.

The reference's scenario files carry no solutions, only the expected final world (its
``entity_diff_specs``, our ``expected_changes``). :func:`plan_reference_calls` turns those into
the tool calls that produce them -- one recipe per (table, operation) pair, :data:`RECIPES` --
and :class:`ReferenceOracleAgent` plays the calls like :class:`~.oracle.OracleAgent` plays a
solution (tool search, ``$ref`` to earlier results), then answers each later round briefly.

The plan reads the scenario and its starting world (what a scripted solution author would look
up: a receiver's phone number, the path of the file to delete); everything it writes goes
through the tools. Ids the reference gave rows the agent creates (``project_id: 400`` of a new
project) are not ours: a foreign key that names no starting row of the owner's is bound to the
matching created row through the create call's result. Rows that the reference lists but one of
our tools writes as a side effect of another (the two ``user_text_messages`` rows of a sent text,
a new group's members, an expense's shares, an order's items) have recipe ``None`` with the call
that produces them named in :data:`PRODUCED_BY`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable, Iterable

from ..scenario.model import ExpectedChange, Scenario
from ..world.schema import TABLES
from .oracle import OracleAgent

# (table, operation) -> the create/update/delete call that produces it elsewhere, for rows our
# tools write as a side effect of another expected change.
PRODUCED_BY = {
    ("phone.user_text_messages", "create"): "messages_send_text_message (the sender's and the receiver's copies)",
    ("splitwise.group_members", "create"): "splitwise_create_group (member_emails) or splitwise_add_member_to_group",
    ("splitwise.expense_shares", "create"): "splitwise_record_expense (debtor_emails, debt_amounts)",
    ("amazon.order_items", "create"): "amazon_add_product_to_cart then amazon_place_order",
    ("gmail.global_email_threads", "create"): "gmail_send_email (a new thread's record)",
    ("gmail.global_email_threads", "update"): "gmail_reply_to_email (the thread's record gains the reply)",
    ("gmail.user_email_threads", "create"): "gmail_send_email (the records of the sender's and each recipient's mailbox)",
    ("gmail.user_email_threads", "update"): "gmail_reply_to_email (each participant's record gains the reply)",
}
# Create order: a row is created after the rows it refers to.
ORDER = ("todoist.labels", "todoist.projects", "todoist.tasks", "todoist.sub_tasks", "todoist.task_comments",
         "todoist.task_label_links", "splitwise.groups", "splitwise.expenses", "spotify.playlists", "spotify.playlist_songs",
         "spotify.playlist_likes", "file_system.directories", "file_system.files", "gmail.drafts", "gmail.attachments",
         "amazon.orders", "amazon.cart_entries")
# What a create call returns the new row's id under, by table.
RESULT_KEYS = {"todoist.labels": "label_id", "todoist.projects": "project_id", "todoist.tasks": "task_id",
               "todoist.sub_tasks": "sub_task_id", "splitwise.groups": "group_id", "splitwise.expenses": "expense_id",
               "spotify.playlists": "playlist_id", "gmail.drafts": "draft_id", "simple_note.notes": "note_id",
               "amazon.orders": "order_id"}


@dataclasses.dataclass
class Plan:
    """The tool calls for one scenario (solution steps) and the expected changes left unmapped."""

    steps: list[dict[str, Any]]
    unmapped: list[str]
    # the steps each expected change took, in plan order (a slice of ``steps``; PRODUCED_BY rows take none)
    chunks: list[tuple[ExpectedChange, list[dict[str, Any]]]] = dataclasses.field(default_factory=list)


def _given(row: dict[str, Any], *cols: str, **renames: str) -> dict[str, Any]:
    """The columns of ``row`` that hold a value, as call arguments (``renames``: argument=column)."""
    out = {c: row[c] for c in cols if row.get(c) not in (None, "", [])}
    out.update({arg: row[col] for arg, col in renames.items() if row.get(col) not in (None, "", [])})
    return out


class _Planner:
    def __init__(self, scenario: Scenario, world: Any, reachable: Iterable[str] | None = None) -> None:
        self.scenario, self.world, self.owner = scenario, world, scenario.user_id
        self.reachable = set(reachable) if reachable is not None else None
        self.steps: list[dict[str, Any]] = []
        self.unmapped: list[str] = []
        self.chunks: list[tuple[ExpectedChange, list[dict[str, Any]]]] = []
        self.created: dict[str, list[str]] = {}  # table -> labels of the create calls, in order
        self._label = 0
        creates = [c for c in scenario.expected_changes if c.operation == "create"]
        self.creates_by_table: dict[str, list[ExpectedChange]] = {}
        for c in creates:
            self.creates_by_table.setdefault(c.table, []).append(c)
        # reference id -> index of the created row, per table (see _bind)
        self._bindings: dict[str, dict[Any, int]] = {}

    # ------------------------------------------------------------------ helpers
    def call(self, name: str, arguments: dict[str, Any], *, save: bool = False) -> str | None:
        label = None
        step: dict[str, Any] = {"name": name, "arguments": arguments}
        if save:
            self._label += 1
            label = f"r{self._label}"
            step["save_as"] = label
        self.steps.append(step)
        return label

    def can_call(self, name: str) -> bool:
        return self.reachable is None or name in self.reachable

    def row(self, table: str, key: Any) -> dict[str, Any] | None:
        return self.world.get(table, key)

    def rows(self, table: str, **where: Any) -> list[dict[str, Any]]:
        return [r for r in self.world.rows(table) if all(r.get(k) == v for k, v in where.items())]

    def is_starting_row(self, table: str, key: Any) -> bool:
        """Whether ``key`` names a row the scenario stages. The reference's expected rows can name
        only those or rows the task creates: its base world is not ours, so an id that happens to
        exist in our base world means nothing to it."""
        spec_key = "reminder_id" if table == "reminder.reminders" else "id"
        return any(r.get(spec_key, r.get("id")) == key for r in self.scenario.initial_entities.get(table, []))

    def ref(self, table: str, value: Any) -> Any:
        """``value`` of a foreign key into ``table``: a starting row's key as it is, else the id of
        the created row the reference meant (created rows get ids in the order they are made, so the
        k-th smallest id that names no staged row is the k-th created row)."""
        if value is None or self.is_starting_row(table, value) or table not in self.creates_by_table:
            return value
        bound = self._bindings.setdefault(table, {})
        if value not in bound:
            bound[value] = len(bound)
        index = bound[value]
        labels = self.created.get(table, [])
        if index >= len(labels):
            return value  # created later or not at all: the call will say what is wrong
        return {"$ref": f"{labels[index]}.{RESULT_KEYS[table]}"}

    def prebind(self, table: str, values: Iterable[Any]) -> None:
        """Bind the reference ids used for ``table``'s created rows in ascending order."""
        unknown = sorted({v for v in values if isinstance(v, int) and not self.is_starting_row(table, v)})
        bound = self._bindings.setdefault(table, {})
        for v in unknown:
            bound.setdefault(v, len(bound))

    def email_of(self, user_id: Any, app: str = "gmail") -> str | None:
        for table in (f"{app}.users", "gmail.users", "supervisor.profiles", "phone.users"):
            row = self.row(table, user_id)
            if row and row.get("email"):
                return row["email"]
        return None

    def phone_of(self, user_id: Any) -> str | None:
        row = self.row("phone.users", user_id)
        return (row or {}).get("phone_number")

    def base_folder(self) -> str:
        """Where the reference's relative paths live: the owner's top-level folder staged outside
        their home (``/E/``), else their home folder."""
        staged = [r["path"] for r in self.scenario.initial_entities.get("file_system.directories", [])
                  if r.get("user_id") == self.owner and str(r.get("path", "")).count("/") == 2
                  and str(r["path"]).startswith("/") and not str(r["path"]).startswith("/home/")]
        if staged:
            return sorted(staged)[0]
        homes = sorted(r["path"] for r in self.rows("file_system.directories", user_id=self.owner)
                       if str(r["path"]).startswith("/home/") and r["path"].count("/") == 3)
        return homes[0] if homes else "~/"

    def absolute(self, path: str) -> str:
        return path if path.startswith(("/", "~")) else self.base_folder() + path

    # ------------------------------------------------------------------ planning
    def plan(self) -> Plan:
        changes = list(self.scenario.expected_changes)
        rank = {t: i for i, t in enumerate(ORDER)}
        creates = sorted((c for c in changes if c.operation == "create"), key=lambda c: rank.get(c.table, -1))
        # ids the expected rows use for other created rows, bound in ascending order before any call
        for table, _ in self.creates_by_table.items():
            app = table.split(".")[0]
            stem = table.split(".")[1].rstrip("s")
            self.prebind(table, [(c.row or {}).get(f"{stem}_id") for cs in self.creates_by_table.values() for c in cs
                                 if c.table.startswith(app + ".")])
        done: set[int] = set()
        for c in creates:
            if id(c) in done:
                continue
            self.dispatch(c, done)
        for c in changes:
            if c.operation == "update":
                self.dispatch(c, done)
        for c in changes:
            if c.operation == "delete":
                self.dispatch(c, done)
        return Plan(self.steps, self.unmapped, self.chunks)

    def dispatch(self, change: ExpectedChange, done: set[int]) -> None:
        pair = (change.table, change.operation)
        if pair in PRODUCED_BY:
            return
        recipe = RECIPES.get(pair)
        if recipe is None:
            self.unmapped.append(f"{change.operation} {change.table}: no recipe")
            return
        start = len(self.steps)
        problem = recipe(self, change, done)
        beyond = sorted({s["name"] for s in self.steps[start:] if not self.can_call(s["name"])})
        if beyond:
            del self.steps[start:]
            problem = f"needs {', '.join(beyond)}, which this scenario's apps do not offer"
        if problem:
            self.unmapped.append(f"{change.operation} {change.table}: {problem}")
        if len(self.steps) > start:
            self.chunks.append((change, self.steps[start:]))


Recipe = Callable[[_Planner, ExpectedChange, set], "str | None"]


def _save_created(p: _Planner, table: str, label: str | None) -> None:
    if label is not None:
        p.created.setdefault(table, []).append(label)


# ------------------------------------------------------------------------ recipes, by app
def _cart_entry(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("amazon_add_product_to_cart", {"product_id": row["product_id"], "quantity": row.get("quantity") or 1})
    if row.get("gift_wrap_quantity"):
        p.call("amazon_add_gift_wrapping_to_product", {"product_id": row["product_id"], "quantity": row["gift_wrap_quantity"]})
    return None


def _wish_list_entry(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("amazon_add_product_to_wish_list", {"product_id": row["product_id"], "quantity": row.get("quantity") or 1})
    return None


def _wish_list_delete(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = p.row(c.table, c.key)
    if row is None:
        return f"no wish-list entry {c.key!r} in the starting world"
    p.call("amazon_delete_product_from_wish_list", {"product_id": row["product_id"]})
    return None


def _order(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    """An order: its items (the expected order_items with the same reference order id) go to the
    cart, then the order is placed with the owner's card and the expected address."""
    row = c.row or {}
    orders = p.creates_by_table.get("amazon.orders", [])
    items = p.creates_by_table.get("amazon.order_items", [])
    order_ids = sorted({i.row.get("order_id") for i in items if i.row})
    mine = orders.index(c)
    wanted = [i for i in items if len(orders) == 1 or (mine < len(order_ids) and i.row.get("order_id") == order_ids[mine])]
    if not wanted:
        return "no order items name this order"
    for k, item in enumerate(wanted):
        args = {"product_id": item.row["product_id"], "quantity": item.row.get("ordered_quantity") or 1}
        if k == 0:
            args["clear_cart_first"] = True
        p.call("amazon_add_product_to_cart", args)
        if item.row.get("gift_wrap_quantity"):
            p.call("amazon_add_gift_wrapping_to_product", {"product_id": item.row["product_id"],
                                                           "quantity": item.row["gift_wrap_quantity"]})
    card = row.get("payment_card_id")
    if card is None or p.row("amazon.payment_cards", card) is None:
        cards = p.rows("amazon.payment_cards", user_id=p.owner)
        digits = str(row.get("payment_card_digits") or "")
        pick = next((k for k in cards if digits and str(k.get("card_number", "")).endswith(digits)), cards[0] if cards else None)
        if pick is None:
            return "the owner has no payment card"
        card = pick["id"]
    address = row.get("address_id")
    if address is None or p.row("amazon.addresses", address) is None:
        addresses = p.rows("amazon.addresses", user_id=p.owner)
        if not addresses:
            return "the owner has no address"
        address = addresses[0]["id"]
    _save_created(p, "amazon.orders", p.call("amazon_place_order", {"payment_card_id": card, "address_id": address}, save=True))
    return None


def _event(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = dict(c.row or {})
    calendars = [r for r in p.world.rows("calendar.calendars")]
    calendar = row.get("calendar_id") if p.row("calendar.calendars", row.get("calendar_id")) else (calendars[0]["id"] if calendars else None)
    if calendar is None:
        return "no calendar to add the event to"
    args = {"calendar_id": calendar, **_given(row, "title", "start_datetime", "end_datetime", "description", "recurrence_frequency",
                                              "recurrence_interval", "recurrence_until_datetime", "latitude", "longitude", "place_id",
                                              "formatted_address", "attendee_names", "attendee_emails")}
    if row.get("is_all_day"):
        args["is_all_day"] = True
    p.call("create_calendar_event", args)
    return None


def _directory(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    p.call("file_system_create_directory", {"directory_path": p.absolute(str((c.row or {})["path"])), "recursive": True,
                                            "allow_if_exists": True})
    return None


def _file(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    """A new file: an archive of a folder the plan also creates when the name ends ``.zip``, a copy
    of a starting file with the same name when there is one, else a new file with the content."""
    row = c.row or {}
    path = p.absolute(str(row["path"]))
    if path.endswith(".zip"):
        p.call("file_system_compress_directory", {"directory_path": path[:-4] + "/", "compressed_file_path": path, "overwrite": True})
        return None
    name = path.rsplit("/", 1)[-1]
    sources = [r["path"] for r in p.rows("file_system.files", user_id=p.owner) if str(r["path"]).endswith("/" + name)]
    if sources:
        p.call("file_system_copy_file", {"source_file_path": sources[0], "destination_file_path": path, "overwrite": True})
    else:
        p.call("file_system_create_file", {"file_path": path, "content": str(row.get("content") or ""), "overwrite": True})
    return None


def _file_delete(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = p.row(c.table, c.key)
    if row is None:
        return f"no file {c.key!r} in the starting world"
    p.call("file_system_delete_file", {"file_path": row["path"]})
    return None


def _draft(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    recipients = list(row.get("recipient_email_addresses") or []) or [e for e in map(p.email_of, row.get("recipient_ids") or []) if e]
    args = {"recipient_email_addresses": recipients, "body": row.get("body") or "", **_given(row, "subject", "scheduled_send_at")}
    # the draft's attachments (expected gmail.attachments naming a draft) go with it, as files of the owner
    attachments = [a for a in p.creates_by_table.get("gmail.attachments", []) if a.row and a.row.get("draft_id") is not None]
    drafts = p.creates_by_table.get("gmail.drafts", [])
    if attachments and drafts.index(c) == 0 and p.can_call("file_system_create_file"):
        paths = []
        for a in attachments:
            path = p.absolute(str(a.row["file_name"]))
            p.call("file_system_create_file", {"file_path": path, "content": str(a.row.get("file_content") or ""), "overwrite": True})
            paths.append(path)
            done.add(id(a))
        args.update(attachment_file_paths=paths, file_system_access_token="session")
    _save_created(p, "gmail.drafts", p.call("gmail_create_draft", args, save=True))
    return None


def _attachment(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    if id(c) in done:
        return None
    if not p.can_call("file_system_create_file"):
        return "an attachment is a file of the owner's: needs file_system_create_file, which this scenario's apps do not offer"
    return "an attachment that names no new draft (attaching to an existing draft or email is not mapped)"


def _draft_update(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    fields = c.fields or {}
    args = {"draft_id": c.key, **_given(fields, "subject", "body", "scheduled_send_at", email_addresses="recipient_email_addresses")}
    p.call("gmail_update_draft", args)
    return None


def _email(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    if row.get("sender_id") not in (None, p.owner):
        return f"an email from user {row.get('sender_id')}, not the owner ({p.owner})"
    recipients = [p.email_of(u) for u in row.get("recipient_ids") or []]
    if not recipients or None in recipients:
        return f"recipient ids {row.get('recipient_ids')} have no gmail address"
    original = p.row("gmail.emails", row.get("response_to_email_id")) if row.get("response_to_email_id") is not None else None
    if original is not None and original.get("email_thread_id") is not None and p.owner in (original.get("recipient_ids") or []):
        # a reply to an email the owner received: in its thread, to the given recipients
        p.call("gmail_reply_to_email", {"email_thread_id": original["email_thread_id"], "email_id": original["id"],
                                        "body": row.get("body") or "", "email_addresses": recipients})
        return None
    p.call("gmail_send_email", {"email_addresses": recipients, "subject": row.get("subject") or "", "body": row.get("body") or ""})
    return None


def _contact(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    args = {"first_name": row.get("first_name") or "", "last_name": row.get("last_name") or "", "email": row.get("email") or "",
            **_given(row, "phone_number", "relationships", "birthday", "home_address", "work_address")}
    p.call("contacts_add_contact", args)
    return None


def _text(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    if row.get("sender_id") not in (None, p.owner):
        return f"a text from user {row.get('sender_id')}, not the owner ({p.owner})"
    phone = p.phone_of(row.get("receiver_id"))
    if not phone:
        return f"receiver {row.get('receiver_id')} has no phone number"
    p.call("messages_send_text_message", {"phone_number": phone, "message": row.get("message") or ""})
    return None


def _reminder(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("add_reminder", {"content": row.get("content") or "", "reminder_datetime": row.get("reminder_datetime"),
                            **_given(row, "latitude", "longitude")})
    return None


def _note(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    args = {"title": row.get("title") or "", "content": row.get("content") or "", **_given(row, "tags")}
    if row.get("pinned"):
        args["pinned"] = True
    _save_created(p, c.table, p.call("simple_note_create_note", args, save=True))
    return None


def _note_update(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    p.call("simple_note_update_note", {"note_id": c.key, **_given(c.fields or {}, "title", "content", "tags", "pinned")})
    return None


def _group(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    groups = p.creates_by_table.get("splitwise.groups", [])
    members = p.creates_by_table.get("splitwise.group_members", [])
    ref_ids = sorted({m.row.get("group_id") for m in members if m.row})
    mine = groups.index(c)
    ids = {m.row["user_id"] for m in members if m.row and (len(groups) == 1 or (mine < len(ref_ids) and m.row.get("group_id") == ref_ids[mine]))}
    emails = [p.email_of(u, "splitwise") for u in sorted(ids - {p.owner})]
    if None in emails:
        return "a member has no splitwise email"
    label = p.call("splitwise_create_group", {"name": row.get("name") or "", "member_emails": emails, **_given(row, "description")},
                   save=True)
    _save_created(p, c.table, label)
    return None


def _expense(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    expenses = p.creates_by_table.get("splitwise.expenses", [])
    shares = [s.row for s in p.creates_by_table.get("splitwise.expense_shares", []) if s.row]
    ref_ids = sorted({s.get("expense_id") for s in shares})
    mine = expenses.index(c)
    mine_shares = [s for s in shares if len(expenses) == 1 or (mine < len(ref_ids) and s.get("expense_id") == ref_ids[mine])]
    payer = p.email_of(row.get("payer_id") or p.owner, "splitwise")
    debtors = [p.email_of(s["debtor_id"], "splitwise") for s in mine_shares]
    if payer is None or None in debtors:
        return "the payer or a debtor has no splitwise email"
    args = {"description": row.get("description") or "", "paid_amount": row.get("amount"), "payer_email": payer,
            "debtor_emails": debtors, "debt_amounts": [s["share_amount"] for s in mine_shares]}
    if row.get("group_id") is not None:
        args["group_id"] = p.ref("splitwise.groups", row["group_id"])
    _save_created(p, c.table, p.call("splitwise_record_expense", args, save=True))
    return None


def _playlist(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    _save_created(p, c.table, p.call("spotify_create_playlist", {"title": row.get("title") or "", "is_public": bool(row.get("is_public"))},
                                     save=True))
    return None


def _playlist_song(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("spotify_add_song_to_playlist", {"playlist_id": p.ref("spotify.playlists", row.get("playlist_id")), "song_id": row["song_id"]})
    return None


def _playlist_like(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    p.call("spotify_like_playlist", {"playlist_id": p.ref("spotify.playlists", (c.row or {}).get("playlist_id"))})
    return None


def _library_album(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    p.call("spotify_add_album_to_library", {"album_id": (c.row or {})["album_id"]})
    return None


def _library_album_delete(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = p.row(c.table, c.key)
    if row is None:
        return f"no library album row {c.key!r} in the starting world"
    p.call("spotify_remove_album_from_library", {"album_id": row["album_id"]})
    return None


def _label(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    _save_created(p, c.table, p.call("todoist_create_label", {"name": row.get("name") or "", **_given(row, "color")}, save=True))
    return None


def _project(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    args = {"name": row.get("name") or "", **_given(row, "color", "description")}
    if row.get("is_favorite"):
        args["is_favorite"] = True
    _save_created(p, c.table, p.call("todoist_create_project", args, save=True))
    return None


_TASK_FIELDS = ("description", "due_date", "duration", "duration_unit", "priority")


def _task(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    args = {"project_id": p.ref("todoist.projects", row.get("project_id")), "title": row.get("title") or "",
            **_given(row, "section_id", *_TASK_FIELDS)}
    label = p.call("todoist_create_task", args, save=True)
    _save_created(p, c.table, label)
    if row.get("is_completed"):
        p.call("todoist_update_task", {"task_id": {"$ref": f"{label}.task_id"}, "is_completed": True})
    return None


def _sub_task(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    args = {"task_id": p.ref("todoist.tasks", row.get("task_id")), "title": row.get("title") or "", **_given(row, *_TASK_FIELDS)}
    label = p.call("todoist_create_sub_task", args, save=True)
    _save_created(p, c.table, label)
    if row.get("is_completed"):
        p.call("todoist_update_sub_task", {"sub_task_id": {"$ref": f"{label}.sub_task_id"}, "is_completed": True})
    return None


def _comment(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("todoist_post_task_comment", {"task_id": p.ref("todoist.tasks", row.get("task_id")), "content": row.get("content") or ""})
    return None


def _label_link(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    row = c.row or {}
    p.call("todoist_add_label_to_task", {"task_id": p.ref("todoist.tasks", row.get("task_id")),
                                         "label_id": p.ref("todoist.labels", row.get("label_id"))})
    return None


def _task_update(p: _Planner, c: ExpectedChange, done: set) -> str | None:
    fields = _given(c.fields or {}, "title", "is_completed", "project_id", "section_id", "order_index", *_TASK_FIELDS)
    if (c.fields or {}).get("is_completed") is False:
        fields["is_completed"] = False
    p.call("todoist_update_task", {"task_id": c.key, **fields})
    return None


def _delete(tool: str, argument: str) -> Recipe:
    def recipe(p: _Planner, c: ExpectedChange, done: set) -> str | None:
        p.call(tool, {argument: c.key})
        return None

    return recipe


RECIPES: dict[tuple[str, str], Recipe] = {
    ("amazon.cart_entries", "create"): _cart_entry,
    ("amazon.wish_list_entries", "create"): _wish_list_entry,
    ("amazon.wish_list_entries", "delete"): _wish_list_delete,
    ("amazon.orders", "create"): _order,
    ("calendar.events", "create"): _event,
    ("file_system.directories", "create"): _directory,
    ("file_system.files", "create"): _file,
    ("file_system.files", "delete"): _file_delete,
    ("gmail.attachments", "create"): _attachment,
    ("gmail.drafts", "create"): _draft,
    ("gmail.drafts", "update"): _draft_update,
    ("gmail.drafts", "delete"): _delete("gmail_delete_draft", "draft_id"),
    ("gmail.emails", "create"): _email,
    ("phone.contacts", "create"): _contact,
    ("phone.global_text_messages", "create"): _text,
    ("reminder.reminders", "create"): _reminder,
    ("reminder.reminders", "delete"): _delete("remove_reminder", "reminder_id"),
    ("simple_note.notes", "create"): _note,
    ("simple_note.notes", "update"): _note_update,
    ("simple_note.notes", "delete"): _delete("simple_note_delete_note", "note_id"),
    ("splitwise.groups", "create"): _group,
    ("splitwise.expenses", "create"): _expense,
    ("spotify.playlists", "create"): _playlist,
    ("spotify.playlist_songs", "create"): _playlist_song,
    ("spotify.playlist_likes", "create"): _playlist_like,
    ("spotify.user_library_albums", "create"): _library_album,
    ("spotify.user_library_albums", "delete"): _library_album_delete,
    ("todoist.labels", "create"): _label,
    ("todoist.projects", "create"): _project,
    ("todoist.projects", "delete"): _delete("todoist_delete_project", "project_id"),
    ("todoist.tasks", "create"): _task,
    ("todoist.tasks", "update"): _task_update,
    ("todoist.tasks", "delete"): _delete("todoist_delete_task", "task_id"),
    ("todoist.sub_tasks", "create"): _sub_task,
    ("todoist.task_comments", "create"): _comment,
    ("todoist.task_label_links", "create"): _label_link,
}


def starting_world(scenario: Scenario) -> Any:
    """The world ``scenario`` starts in (no images drawn)."""
    from ..episode.engine import Episode

    return Episode(scenario, images=[]).world


def plan_reference_calls(scenario: Scenario, world: Any | None = None) -> Plan:
    """The tool calls that turn ``scenario``'s starting world into its expected final world, using
    only the tools an episode of it can reach (its apps')."""
    world = world if world is not None else starting_world(scenario)
    return _Planner(scenario, world, world.services.get("tool_universe")).plan()


def _button(prefix: str, label: str, action: str, context: dict[str, Any], primary: bool = True) -> list[dict[str, Any]]:
    return [{"id": f"{prefix}_label", "component": {"Text": {"text": label}}},
            {"id": prefix, "component": {"Button": {"child": f"{prefix}_label", "primary": primary, "action": {
                "name": action, "context": [{"key": k, "value": v} for k, v in context.items()]}}}}]


def _priced_options(scenario: Scenario, world: Any, product_ids: Iterable[Any] | None = None) -> list[tuple[str, str]]:
    """The products the expected changes put in the cart (else in the wish list or an order), or
    ``product_ids``, with their prices in the starting world: the options a price comparison
    screen shows. (The items they were compared with are in the images, which the oracle does
    not read.)"""
    out = []
    if product_ids is None:
        tables = {c.table for c in scenario.expected_changes if c.operation == "create"}
        table = next((t for t in ("amazon.cart_entries", "amazon.wish_list_entries", "amazon.order_items") if t in tables), None)
        product_ids = [(c.row or {}).get("product_id") for c in scenario.expected_changes if c.operation == "create" and c.table == table]
    for pid in product_ids:
        product = world.get("amazon.products", pid) if pid is not None else None
        if product is not None and product.get("price") is not None:
            option = (str(product.get("name") or product.get("title") or pid), f"${float(product['price']):,.2f}")
            if option not in out:
                out.append(option)
    return out


def _row_label(row: dict[str, Any]) -> str:
    person = " ".join(str(row[c]) for c in ("first_name", "last_name") if row.get(c))
    return person or str(row.get("title") or row.get("name") or "")


def _named_options(scenario: Scenario, needle: str) -> list[str]:
    """The option the user named and the staged rows it must be told apart from, as a choice
    screen lists them; exactly one option holds the user's words. A describing word ("the
    personal one") stands for the staged row whose name holds it ("Backup Log - Personal"), shown
    with the rows of its table sharing its first word; a name is shown with the staged rows
    sharing its first word (the other Charlies)."""
    def like(label: str, word: str) -> bool:
        return bool(label) and len(label) <= 60 and re.search(rf"\b{re.escape(word.lower())}\b", label.lower()) is not None

    staged = [(table, _row_label(row)) for table, rows in scenario.initial_entities.items() for row in rows]
    holder = next(((t, label) for t, label in staged if like(label, needle)), None)
    if needle.islower() and holder is not None:  # a describing word: the staged row it describes
        table, option = holder
        labels = [option, *(label for t, label in staged if t == table and like(label, option.split()[0]) and not like(label, needle))]
    else:  # a name: it, and the staged rows sharing its first word that it must be told from
        labels = [needle, *(label for _, label in staged if like(label, needle.split()[0]) and not like(label, needle))]
    return sorted(dict.fromkeys(labels))[:4]


def ui_round_steps(scenario: Scenario, ui: Any, world: Any, product_ids: Iterable[Any] | None = None) -> list[dict[str, Any]]:
    """The screen the oracle shows in a UI round: the options the round's decision needs (the
    named one among the staged rows like it; the products with their prices; the several named
    options as one multiple-choice field with a Submit button; a Confirm and a Cancel button),
    shown to the user,
    then a line asking them to choose. The user's choice (private to it) is then made on it."""
    rule = next(k for k in ui.pick if k != "action") if ui.pick else None
    components: list[dict[str, Any]] = [{"id": "title", "component": {"Text": {"text": "Please choose", "usageHint": "h2"}}}]
    rows = []
    if rule in ("approve", "every"):
        # "every": the options are what the images show (the pink notes, the papers' years), which the
        # oracle does not read; it offers Confirm and Cancel, on which the user finds nothing to choose
        components += _button("confirm", "Confirm", "confirm", {}) + _button("cancel", "Cancel", "cancel", {}, primary=False)
        rows = ["confirm", "cancel"]
    elif rule == "labels_contain":  # several at once: a multiple-choice field of the named options and a submit button
        names = [str(n) for n in ui.pick[rule]]
        components.append({"id": "options", "component": {"MultipleChoice": {
            "selections": {"path": "/choice/selected"}, "maxAllowedSelections": len(names),
            "options": [{"label": {"literalString": n}, "value": f"o{i}"} for i, n in enumerate(names)]}}})
        components += _button("submit", "Submit", "submit", {})
        rows = ["options", "submit"]
    else:
        options = ([(name, "") for name in _named_options(scenario, str(ui.pick["label_contains"]))] if rule == "label_contains"
                   else _priced_options(scenario, world, product_ids))
        for i, (name, price) in enumerate(options):
            text = f"{name} | {price}" if price else name
            components.append({"id": f"o{i}_t", "component": {"Text": {"text": text, "usageHint": "h4"}}})
            components += _button(f"o{i}", "Select", "select", {"name": name, **({"price": price} if price else {})})
            components.append({"id": f"o{i}_row", "component": {"Row": {"children": [f"o{i}_t", f"o{i}"], "alignment": "center"}}})
            rows.append(f"o{i}_row")
    components.insert(0, {"id": "root", "component": {"Column": {"children": ["title", *rows]}}})
    screen = [{"surfaceUpdate": {"surfaceId": "choice", "components": components}},
              {"beginRendering": {"surfaceId": "choice", "root": "root"}}]
    return [{"name": "render_ui_screen", "arguments": {"ui_json": screen}}, {"name": "show_ui_to_user", "arguments": {}},
            {"say": "I put the options on your screen; please make your choice there."}]


PRICE_PICKS = ("cheapest", "most_expensive")


def _holds(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name`` as a whole (not inside a longer word), any case."""
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text, re.I) is not None


def _written(change: ExpectedChange) -> list[Any]:
    """The values an expected change writes (list values flattened)."""
    out: list[Any] = []
    for v in (*(change.row or {}).values(), *(change.fields or {}).values()):
        out.extend(v if isinstance(v, list) else [v])
    return out


def _staged_key(table: str, row: dict[str, Any]) -> Any:
    spec = TABLES.get(table)
    return row.get(spec.key if spec is not None else "id")


def _writes_picked_row(scenario: Scenario, name: str, change: ExpectedChange) -> bool:
    """Whether ``change`` writes a staged row named ``name`` or a reference to one (an email to the
    Alex the user picked: its ``recipient_ids`` hold that person's id in the same app)."""
    for table, rows in scenario.initial_entities.items():
        for row in rows:
            if not _holds(_row_label(row), name):
                continue
            key = _staged_key(table, row)
            if change.table == table and change.key == key:
                return True
            if change.table.split(".")[0] != table.split(".")[0]:
                continue
            for col, value in (*(change.row or {}).items(), *(change.fields or {}).items()):
                if (col == "id" or col.endswith(("_id", "_ids"))) and (value == key or (isinstance(value, list) and key in value)):
                    return True
    return False


def _follows_choice(scenario: Scenario, k: int, change: ExpectedChange) -> bool:
    """Whether ``change`` carries what round ``k``'s user picks by name: the named row (or a
    reference to it), or one of the several named options in its text."""
    pick = scenario.rounds[k].ui.pick or {}
    if "label_contains" in pick:
        return _writes_picked_row(scenario, str(pick["label_contains"]), change)
    if "labels_contain" in pick:
        texts = [v for v in _written(change) if isinstance(v, str)]
        return any(_holds(t, str(n)) for t in texts for n in pick["labels_contain"])
    return False


def _product_of(scenario: Scenario, change: ExpectedChange) -> Any:
    """The staged product a change writes: its ``product_id`` (a cart, wish-list or order row), or
    the product whose full name its text holds (a text recommending "the Yard-O-Led silver pencil")."""
    if change.table.startswith("amazon.") and (change.row or {}).get("product_id") is not None:
        return change.row["product_id"]
    texts = [v for v in _written(change) if isinstance(v, str)]
    return next((p["id"] for p in scenario.initial_entities.get("amazon.products", [])
                 if any(_holds(t, str(p.get("name") or "")) for t in texts)), None)


def _route_to_ui_rounds(scenario: Scenario, plan: Plan, world: Any) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[Any]]]:
    """For a scenario with two or more UI rounds: round index -> the plan's steps made in it, and
    price-choice round -> the products its screen offers. Each change follows the UI round whose
    choice it carries, by what the change writes, never by what the round's words call it:

    1. the row the user picked by name, or a reference to it (round 4's "Alexander Riddle" -> the
       email whose recipient is that person), or one of the several options picked in its text;
    2. a product (its ``product_id``, or its full name in a text) -> a price-choice round: the last
       one whose text names that product; the others go to the price rounds no product went to,
       one each when they are as many (the pricier product to the "most expensive" choice when the
       choices differ, else in plan order), else all to the last such round (a later comparison
       replaces an earlier one);
    3. a change no choice decides goes to the first UI round, as in a file with one UI round;

    and never before a change whose result it uses."""
    ui_rounds = [k for k, r in enumerate(scenario.rounds) if r.ui]
    price = [k for k in ui_rounds if set(PRICE_PICKS) & set(scenario.rounds[k].ui.pick or {})]
    round_of: dict[int, int] = {}
    for i, (change, _) in enumerate(plan.chunks):
        hits = [k for k in ui_rounds if _follows_choice(scenario, k, change)]
        if hits:
            round_of[i] = hits[-1]
    products = {i: p for i, (c, _) in enumerate(plan.chunks) if price and i not in round_of
                and (p := _product_of(scenario, c)) is not None}
    texts = {k: f"{scenario.rounds[k].query} {scenario.rounds[k].instructions}" for k in price}
    staged = {p["id"]: p for p in scenario.initial_entities.get("amazon.products", [])}
    rest = []
    for i, pid in products.items():
        hits = [k for k in price if pid in staged and _holds(texts[k], str(staged[pid].get("name") or ""))]
        if hits:
            round_of[i] = hits[-1]
        else:
            rest.append(i)
    free = [k for k in price if k not in round_of.values()] or price[-1:]
    if rest and len(rest) == len(free):
        if len({next(x for x in PRICE_PICKS if x in scenario.rounds[k].ui.pick) for k in free}) > 1:
            cost = {i: float((world.get("amazon.products", products[i]) or {}).get("price") or 0) for i in rest}
            rest = sorted(rest, key=lambda i: cost[i])
            free = sorted(free, key=lambda k: ("most_expensive" in scenario.rounds[k].ui.pick, k))
        round_of.update(zip(rest, free))
    else:
        round_of.update((i, free[-1]) for i in rest)
    made: dict[int, list[dict[str, Any]]] = {}
    shown: dict[int, list[Any]] = {}
    round_of_label: dict[str, int] = {}
    for i, (change, steps) in enumerate(plan.chunks):
        k = round_of.get(i, ui_rounds[0])
        used = re.findall(r"'\$ref': '(r\d+)\.", repr([st.get("arguments") for st in steps]))
        k = max([k, *(round_of_label.get(label, k) for label in used)])
        for st in steps:
            if st.get("save_as"):
                round_of_label[st["save_as"]] = k
        made.setdefault(k, []).extend(steps)
        if i in products and k in price:
            shown.setdefault(k, []).append(products[i])
    return made, shown


class ReferenceOracleAgent(OracleAgent):
    """The perfect agent for scenarios with expected changes but no solutions (imported reference
    scenarios): one round makes every expected change through the tools (:func:`plan_reference_calls`),
    each round ends with a short reply. A round with a UI decision first shows a screen with the
    options it needs (:func:`ui_round_steps`) and lets the user choose on it; the changes are made
    in the first such round, after the choice (round 1 when there is none), since the reference
    does not say which round makes which change -- except that, with two or more UI rounds, each
    change follows the round whose choice it carries by what it writes (:func:`_route_to_ui_rounds`).
    Scenarios that have solutions are played as written.

    ``unmapped[scenario_id]`` lists the expected changes no recipe could produce.
    """

    ANSWER = "Done: I made the changes you asked for."

    @classmethod
    def answer_for(cls, rnd: Any) -> str:
        """The round's short reply: :attr:`ANSWER`; for a round whose request asks for information
        back ("Compare the prices ...", "Describe the charts ..."), of which the reference's files
        hold no answer, :attr:`ANSWER` naming a few of the request's own words."""
        from ..users.reading import content_words, expectation

        words = sorted(content_words(rnd.query or ""))[:3]
        if expectation(rnd) == ("done",) or not words:
            return cls.ANSWER
        return f"{cls.ANSWER[:-1]}: {', '.join(words)}."

    def __init__(self, scenarios: Iterable[Scenario], mode: str = "tool", search: bool | None = None) -> None:
        planned = []
        self.unmapped: dict[str, list[str]] = {}
        for s in scenarios:
            if s.expected_changes and not any(r.solution for r in s.rounds):
                world = starting_world(s)
                plan = plan_reference_calls(s, world)
                self.unmapped[s.id] = plan.unmapped
                # the changes are made once, after the first choice the user makes on a screen (or in
                # round 1); where each of several price choices adds one item to the cart, in its round
                first = next((k for k, r in enumerate(s.rounds) if s.ui and r.ui), 0)
                made, shown = {first: plan.steps}, {}
                if s.ui and sum(1 for r in s.rounds if r.ui) >= 2:
                    made, shown = _route_to_ui_rounds(s, plan, world)
                rounds = [dataclasses.replace(r, solution=tuple(
                              (ui_round_steps(s, r.ui, world, shown.get(k)) if s.ui and r.ui else []) + made.get(k, [])),
                              answer=r.answer or self.answer_for(r))
                          for k, r in enumerate(s.rounds)]
                s = dataclasses.replace(s, rounds=tuple(rounds))
            planned.append(s)
        super().__init__(planned, mode=mode, search=search)
