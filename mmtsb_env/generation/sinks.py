"""Sinks: where a flow's result is written (a note, an email, calendar events, a Venmo request...).

A sink is one row of data (:class:`SinkRow`: the tools it calls, their argument templates, its
sentences, what it can do) read by one interpreter, :class:`Sink`. The interpreter phrases the
request (:meth:`Sink.intent`) and produces the solution steps that create the result, add to it
(additive flows), replace it (recomputed flows), undo it (goal changes) and repair a user's
mistake (error corrections). Steps are plain tool calls; ids of rows created during the episode
travel through ``save_as`` / ``{"$ref": ...}``.

Argument templates (:func:`resolve`): ``"@field"`` is ``field`` of the result saved under the
sink's label (``"@"``: the whole result); ``"{name}"`` alone is the value itself (``None`` leaves
the argument out); any other string is formatted with the sink's values; lists are resolved item
by item. The values are what the row's ``draw`` chose, the contact (``person``, ``full``,
``spoken``), the payload (``new``, ``headline``, ``amount``; ``subject``: the first payload's
headline), the text so far (``text``; ``added``: what an addition appends), what
``derive`` computes from them and, per entry, ``e`` and what ``entry`` computes.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable

from ..world import pools
from ._recipe_helpers import calendars, hours_after
from .core import Build, Payload, call, ref, say
from .errors import GenerationError
from .world_index import norm

TZ = "+00:00"
_WHOLE = re.compile(r"^\{([^{}:!]+)\}$")
_FORMAT = string.Formatter()


def iso(d: str, t: str) -> str:
    return f"{d}T{t}:00{TZ}"


class Mistake:
    """A user's mistake in a request and how to repair it."""

    def __init__(self, wrong_text: str, right_text: str, correction: str, fix: list[dict[str, Any]], answer: str) -> None:
        self.wrong_text, self.right_text, self.correction, self.fix, self.answer = wrong_text, right_text, correction, fix, answer


# ---------------------------------------------------------------------------- the row format
@dataclass(frozen=True)
class Op:
    """One tool call of a sink: ``args`` are templates; ``save`` keeps the result under the label."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    save: bool = False
    only_if: str = ""  # a value that must be true for the call to be made


def op(tool: str, *, save: bool = False, only_if: str = "", **args: Any) -> Op:
    return Op(tool, args, save, only_if)


@dataclass(frozen=True)
class Fix:
    """A detail the user got wrong (the sink value ``field``) and the calls that repair it."""

    field: str
    right: Callable[["Sink", Any], Any]  # the value meant, from the sink and the wrong value
    say: str  # the user's correction ({wrong}/{right}: the values, {wrong_text}/{right_text}: as read)
    answer: str
    steps: tuple[Op, ...] = ()  # made once
    each: tuple[Op, ...] = ()  # made for every entry made so far (entry sinks)
    text: Callable[[Any], str] = str


@dataclass(frozen=True)
class Setup:
    """A text-only first round preparing the container (late arrival): it holds ``placeholder``."""

    request: str
    ops: tuple[Op, ...]
    answer: str
    placeholder: str
    then: str = "extend"  # which calls the first real addition uses ("revise": rewrite the placeholder)


@dataclass(frozen=True)
class SinkRow:
    """A sink as data. ``kind`` is the payload it consumes: ``text``, ``entries`` or ``amount``.

    Text and amount rows: ``create`` / ``extend`` / ``revise`` / ``undo`` are the calls of each
    operation (``None``: the sink cannot do it). Entry rows: ``create`` makes one entry and
    ``undo`` removes one; adding and replacing entries follow from those two.
    """

    name: str
    kind: str
    noun: str
    domains: tuple[str, ...]
    intent: dict[str, str]  # by the flow's description ("" for any other; "setup" after the setup round)
    done: str
    create: tuple[Op, ...]
    extend: tuple[Op, ...] | None = None
    revise: tuple[Op, ...] | None = None
    undo: tuple[Op, ...] | None = None
    draw: Callable[[Build], dict[str, Any]] = lambda b: {}
    label: str = ""  # the stem of the label the result is saved (and referred to) under ("": not saved)
    person: bool = False  # addressed to one of the owner's contacts (found with a contacts search)
    pre: tuple[Op, ...] = ()  # calls before the first write
    needs: tuple[str, ...] = ()  # entry fields required ("date", "person", ...)
    network: bool = True
    cellular: bool = False
    fix: Fix | None = None
    edit: str = ""  # what the user can take back: "entries", "lines" (of the text) or "amount"
    setup: Setup | None = None
    joiner: str = "\n"  # how an addition joins the text so far
    flat: bool = False  # the result's lines are joined with "; "
    derive: Callable[[dict[str, Any]], dict[str, Any]] = lambda v: {}
    entry: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] = lambda v, e: {}
    accepts: Callable[[dict[str, Any], Payload], bool] = lambda v, p: True

    @property
    def undoable(self) -> bool:
        return self.undo is not None

    @property
    def revisable(self) -> bool:
        return self.kind == "entries" or self.revise is not None

    @property
    def extendable(self) -> bool:
        return self.kind == "entries" or self.extend is not None

    def __call__(self, b: Build, ambiguous: bool | None = None) -> "Sink":
        return Sink(self, b, ambiguous)


def resolve(value: Any, v: dict[str, Any], label: str) -> Any:
    """A template filled from the values ``v`` (see the module docs)."""
    if isinstance(value, list):
        return [resolve(x, v, label) for x in value]
    if not isinstance(value, str):
        return value
    if value.startswith("@"):
        return ref(label, value[1:])
    m = _WHOLE.match(value)
    if m:
        return _FORMAT.get_field(m.group(1), (), v)[0]
    return value.format(**v) if "{" in value else value


def texts(templates: tuple[str, ...], v: dict[str, Any]) -> list[Any]:
    """The templates filled from ``v``, those resolving to None left out."""
    return [x for x in (resolve(t, v, "") for t in templates) if x is not None]


def fill(o: Op, v: dict[str, Any], label: str = "") -> dict[str, Any]:
    """The tool call of ``o`` with its templates filled from ``v`` (arguments resolving to None left out)."""
    args = {k: resolve(a, v, label) for k, a in o.args.items()}
    return call(o.tool, save_as=label if o.save else None, **{k: a for k, a in args.items() if a is not None})


# ---------------------------------------------------------------------------- the interpreter
class Sink:
    """One sink of a scenario: a :class:`SinkRow` and the values and rows it has made so far."""

    def __init__(self, row: SinkRow, b: Build, ambiguous: bool | None = None) -> None:
        self.row, self.b = row, b
        self.created = self.setup_done = False
        self.clarify: dict[str, Any] | None = None
        self.pre_steps: list[dict[str, Any]] = []
        self.made: list[tuple[str, dict[str, Any]]] = []  # entry sinks: (save_as label, entry)
        self.person: dict[str, Any] | None = None
        self.v: dict[str, Any] = {"text": ""}
        if row.person:
            self._address(b, ambiguous)
        self.v.update(row.draw(b))
        self.label = b.label(row.label) if row.label else ""
        self.pre_steps += self._calls(row.pre)

    def _address(self, b: Build, ambiguous: bool | None) -> None:
        if ambiguous is None:
            ambiguous = b.rng.random() < 0.35
        self.person, namesakes = b.contact(ambiguous=ambiguous)
        self.full = f"{self.person['first_name']} {self.person['last_name']}"
        self.spoken = self.person["first_name"] if namesakes else self.full
        self.v.update(person=self.person, full=self.full, spoken=self.spoken)
        if namesakes:
            others = ", ".join(f"{c['first_name']} {c['last_name']}" for c in [self.person] + namesakes)
            question = f"I found several contacts named {self.person['first_name']}: {others}. Which one do you mean?"
            self.clarify = {"keywords": [self.person["first_name"].lower(), "which"], "answer": f"I mean {self.full}."}
            self.pre_steps = [call("contacts_search_contacts", query=self.person["first_name"]), say(question)]
        else:
            self.pre_steps = [call("contacts_search_contacts", query=self.full)]

    # ------------------------------------------------------------------ what the row declares
    name = property(lambda self: self.row.name)
    kind = property(lambda self: self.row.kind)
    noun = property(lambda self: self.row.noun)
    domains = property(lambda self: self.row.domains)
    content = property(lambda self: self.v["text"])

    # ------------------------------------------------------------------ phrasing
    def intent(self, desc: str = "") -> str:
        """The request's wording of what to do with the result."""
        texts = self.row.intent
        return self._fmt(texts["setup"] if self.setup_done else texts.get(desc, texts[""]))

    def done(self) -> str:
        """The confirmation sentence of the oracle's answer."""
        return self._fmt(self.row.done)

    def setup_request(self) -> tuple[str, list[dict[str, Any]], str] | None:
        """A text-only first round preparing the container (late image arrival), or None."""
        s = self.row.setup
        if s is None:
            return None
        self.setup_done = self.created = True
        self.v["text"] = s.placeholder
        return self._fmt(s.request), self._calls(s.ops), self._fmt(s.answer)

    def accepts(self, p: Payload) -> bool:
        if self.kind == "amount":
            ok = p.amount is not None and p.amount > 0
        elif self.kind == "entries":
            ok = bool(p.entries) and all(all(e.get(n) is not None for n in self.row.needs) for e in p.entries)
        else:
            ok = bool(p.lines)
        return ok and self.row.accepts(self.v, p)

    # ------------------------------------------------------------------ writing
    def write(self, p: Payload, *, additive: bool) -> list[dict[str, Any]]:
        """Create on first use; afterwards extend (additive flows) or revise (recomputed flows)."""
        if not self.created:
            self.created = True
            return self.pre_steps + self.create(p)
        return self.extend(p) if additive else self.revise(p)

    def create(self, p: Payload) -> list[dict[str, Any]]:
        """Tool calls writing the result for the first time."""
        if self.kind == "entries":
            return self.extend(p)
        self._take(p, "")
        return self._calls(self.row.create)

    def extend(self, p: Payload) -> list[dict[str, Any]]:
        if self.kind == "entries":
            steps = []
            for e in p.entries:
                label = self.b.label(self.noun.replace(" ", "_"))
                self.made.append((label, e))
                steps += self._calls(self.row.create, e, label)
            return steps
        ops = self._can("extend", "add to what it wrote")
        s = self.row.setup
        if s is not None and self.v["text"] == s.placeholder:
            self._take(p, "")
            return self._calls(getattr(self.row, s.then))
        self._take(p, self.row.joiner)
        return self._calls(ops)

    def revise(self, p: Payload) -> list[dict[str, Any]]:
        if self.kind == "entries":
            keep = {e["title"] for e in p.entries}
            steps = []
            for label, e in list(self.made):
                if e["title"] not in keep:
                    steps += self.remove(label, e)
                    self.made.remove((label, e))
            have = {e["title"] for _, e in self.made}
            return steps + self.extend(Payload(p.headline, entries=[e for e in p.entries if e["title"] not in have]))
        ops = self._can("revise", "rewrite what it wrote")
        self._take(p, "")
        return self._calls(ops)

    def undo(self) -> list[dict[str, Any]]:
        ops = self._can("undo", "remove what it wrote")
        if self.kind != "entries":
            return self._calls(ops)
        steps = []
        for label, e in self.made:
            steps += self.remove(label, e)
        self.made = []
        return steps

    def remove(self, label: str, e: dict[str, Any]) -> list[dict[str, Any]]:
        """Tool calls deleting the entry saved as ``label`` (entry sinks)."""
        return self._calls(self.row.undo, e, label)

    def mistake(self) -> Mistake | None:
        """The user's correction of a detail they gave (the row's :class:`Fix`), applied to the sink."""
        fx = self.row.fix
        if fx is None:
            return None
        wrong = self.v[fx.field]
        right = fx.right(self, wrong)
        self.v[fx.field] = right
        extra = {"wrong": wrong, "right": right, "wrong_text": fx.text(wrong), "right_text": fx.text(right)}
        steps = self._calls(fx.steps, extra=extra)
        for label, e in self.made:
            steps += self._calls(fx.each, e, label, extra)
        return Mistake(fx.text(wrong), fx.text(right), self._fmt(fx.say, extra), steps, self._fmt(fx.answer, extra))

    # ------------------------------------------------------------------ the interpreter's parts
    def _can(self, what: str, doing: str) -> tuple[Op, ...]:
        ops = getattr(self.row, what)
        if ops is None:
            flag = {"extend": "extendable", "revise": "revisable", "undo": "undoable"}[what]
            raise GenerationError(f"{self.name} cannot {doing} ({flag} = False)")
        return ops

    def _take(self, p: Payload, joiner: str) -> None:
        """The payload's values; ``joiner`` adds the new text to the text so far ("": replaces it)."""
        new = p.body.replace("\n", "; ") if self.row.flat else p.body
        self.v.update(new=new, added=joiner + new, headline=p.headline,
                      amount=round(p.amount, 2) if p.amount is not None else None)
        self.v.setdefault("subject", p.headline)
        self.v["text"] = self.v["text"] + joiner + new if joiner else new

    def _values(self, e: dict[str, Any] | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        v = dict(self.v)
        v.update(self.row.derive(v))
        if e is not None:
            v["e"] = e
            v.update(self.row.entry(v, e))
        if extra:
            v.update(extra)
        return v

    def _fmt(self, text: str, extra: dict[str, Any] | None = None) -> str:
        return text.format(**self._values(extra=extra))

    def _calls(self, ops: tuple[Op, ...], e: dict[str, Any] | None = None, label: str = "",
               extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        v = self._values(e, extra)
        label = label or self.label
        return [fill(o, v, label) for o in ops if not o.only_if or v[o.only_if]]


# ---------------------------------------------------------------------------- what the rows draw
def _fresh_title(b: Build, stem_choices: list[str], table: str, column: str) -> str:
    taken = {norm(r.get(column, "")) for r in b.wi.tables.get(table, {}).values()}
    for _ in range(50):
        stem = b.rng.choice(stem_choices)
        suffix = b.rng.choice([s for s in ["- April", "- May", "(shared)", "list", "log", "summary"] if s not in stem.lower()])
        title = f"{stem} {suffix}"
        if norm(title) not in taken:
            return title
    return f"{stem_choices[0]} {b.rng.randint(100, 999)}"


def _file_path(b: Build) -> dict[str, Any]:
    slug = _fresh_title(b, pools.CONTAINER_TOPICS, "file_system.files", "path").lower()
    slug = "".join(ch if ch.isalnum() else "_" for ch in slug).strip("_")
    while "__" in slug:
        slug = slug.replace("__", "_")
    return {"path": f"{b.wi.home()}documents/{slug}.txt"}


def _projects(b: Build, other_than: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    return [r for r in b.wi.rows("todoist.projects", user_id=b.wi.owner_id)
            if not r["is_inbox"] and (other_than is None or r["id"] != other_than["id"])]


def _other_project(s: Sink, wrong: dict[str, Any]) -> dict[str, Any]:
    return s.b.rng.choice(_projects(s.b, wrong))


def _other_calendar(s: Sink, wrong: dict[str, Any]) -> dict[str, Any]:
    return s.b.rng.choice([c for c in calendars(s.b.wi) if c["calendar_id"] != wrong["calendar_id"]])


def _texting(b: Build) -> dict[str, Any]:
    with_number = "phone" in b.prefer or b.rng.random() < 0.3
    return {"with_number": with_number, "sign": f". My number: {b.owner.phone_number}" if with_number else "",
            "extra": ", and add my own phone number at the end" if with_number else ""}


def _reminder_day(b: Build) -> dict[str, Any]:
    day = (b.now + timedelta(days=b.rng.randint(1, 6))).date()
    return {"day": day, "hour": b.rng.choice([8, 9, 18, 19])}


def _hour_text(h: int) -> str:
    return f"{h % 12 or 12} {'AM' if h < 12 else 'PM'}"


def _splitwise_group(b: Build) -> dict[str, Any]:
    owner = b.wi.owner_id
    groups = [b.wi.tables["splitwise.groups"][link["group_id"]] for link in b.wi.rows("splitwise.group_members", user_id=owner)]
    group = b.rng.choice(sorted([g for g in groups if not g["deleted"]], key=lambda g: g["id"]))
    members = sorted(link["user_id"] for link in b.wi.rows("splitwise.group_members", group_id=group["id"]))
    return {"group": group, "debtors": [b.wi.person(m).email for m in members if m != owner],
            "description": b.rng.choice(["Shared receipts", "Group purchase", "Supplies run", "Weekend costs"]),
            "payer": b.owner.email}


def _minutes_before(v: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
    hh, mm = map(int, e["time"].split(":"))
    return {"at": (datetime(2000, 1, 1, hh, mm) - timedelta(minutes=v["before"])).strftime("%H:%M")}


def _days_before(v: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
    d = (datetime.fromisoformat(e["date"]) - timedelta(days=v["days_before"])).date().isoformat()
    return {"when": iso(d, e.get("time") or "09:00")}


def _event_times(v: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
    start = iso(e["date"], e.get("time") or "09:00")
    return {"start": start, "end": hours_after(start, v["hours"]), "venue": e.get("venue") or None}


_WHEN_TEXT = {0: "on the day", 1: "one day before"}
_RETAG = {"colleague": "client", "client": "supplier", "conference": "partner"}
_NOTE_ID, _DRAFT_ID, _TASK_ID, _REQUEST_ID, _EXPENSE_ID = "@note_id", "@draft_id", "@task_id", "@payment_request_id", "@expense_id"


# ---------------------------------------------------------------------------- the rows: text sinks
NoteSink = SinkRow(
    "NoteSink", "text", "note", ("simple_note",),
    intent={"": "save it in a new note titled '{title}'", "setup": "put that into my '{title}' note, replacing 'pending'"},
    done="Saved in the note '{title}'.", label="note", edit="lines",
    draw=lambda b: {"title": _fresh_title(b, pools.CONTAINER_TOPICS, "simple_note.notes", "title")},
    create=(op("simple_note_create_note", save=True, title="{title}", content="{text}"),),
    extend=(op("simple_note_add_content_to_note", note_id=_NOTE_ID, append_or_prepend="append", added_content="{added}"),),
    revise=(op("simple_note_update_note", note_id=_NOTE_ID, content="{text}"),),
    undo=(op("simple_note_delete_note", note_id=_NOTE_ID),),
    setup=Setup("Please create a note titled '{title}' with just the word 'pending' in it. I'll send you what goes in it shortly.",
                (op("simple_note_create_note", save=True, title="{title}", content="{text}"),), "Created the note '{title}'.",
                "pending", then="revise"),
    fix=Fix("title", lambda s, w: w + " (final)" if not w.endswith(")") else w.rsplit(" (", 1)[0] + " - final",
            "Sorry, I gave you the wrong title. The note should be called '{right}', not '{wrong}'. Please rename it.",
            "Renamed the note to '{right}'.", steps=(op("simple_note_update_note", note_id=_NOTE_ID, title="{right}"),)),
)

FileSink = SinkRow(
    "FileSink", "text", "file", ("file_system",),
    intent={"": "save it as a text file at {path}", "setup": "write that into the file {path}, replacing its placeholder text"},
    done="Saved to {path}.", edit="lines", draw=_file_path,
    create=(op("file_system_create_file", file_path="{path}", content="{text}"),),
    extend=(op("file_system_show_file", file_path="{path}"), op("file_system_update_file", file_path="{path}", content="{text}")),
    revise=(op("file_system_update_file", file_path="{path}", content="{text}"),),
    undo=(op("file_system_delete_file", file_path="{path}"),),
    setup=Setup("Create a text file at {path} containing just 'TBD'. I'll send the details in a moment.",
                (op("file_system_create_file", file_path="{path}", content="{text}"),), "Created {path}.", "TBD"),
    fix=Fix("path", lambda s, w: w[:-4] + "_final.txt", "My mistake: the file should be at {right}, not {wrong}. Please move it there.",
            "Moved the file to {right}.", steps=(op("file_system_move_file", source_file_path="{wrong}", destination_file_path="{right}"),)),
)

EmailSink = SinkRow(
    "EmailSink", "text", "email", ("gmail", "contacts"), person=True,
    intent={"": "email it to {spoken}"}, done="Emailed it to {full}.",
    create=(op("gmail_send_email", email_addresses=["{person[email]}"], subject="{headline}", body="{new}"),),
    extend=(op("gmail_send_email", email_addresses=["{person[email]}"], subject="More: {headline}", body="{new}"),),
    revise=(op("gmail_send_email", email_addresses=["{person[email]}"], subject="Update: {headline}", body="{new}"),),
)

DraftSink = SinkRow(
    "DraftSink", "text", "draft", ("gmail", "contacts"), person=True, label="draft",
    intent={"": "put it in an email draft to {spoken} (don't send it)"}, done="Drafted an email to {full}.",
    create=(op("gmail_create_draft", save=True, recipient_email_addresses=["{person[email]}"], subject="{headline}", body="{text}"),),
    extend=(op("gmail_update_draft", draft_id=_DRAFT_ID, body="{text}"),),
    revise=(op("gmail_update_draft", draft_id=_DRAFT_ID, body="{text}"),),
    undo=(op("gmail_delete_draft", draft_id=_DRAFT_ID),),
    fix=Fix("subject", lambda s, w: w + " - please review", "Oops, the draft's subject should be '{right}'. Please fix it.",
            "Changed the draft's subject to '{right}'.", steps=(op("gmail_update_draft", draft_id=_DRAFT_ID, subject="{right}"),)),
)

_TEXT = (op("messages_send_text_message", phone_number="{person[phone_number]}", message="{new}{sign}"),)
TextSink = SinkRow(
    "TextSink", "text", "text message", ("messages", "contacts"), person=True, cellular=True, network=False, flat=True,
    intent={"": "text it to {spoken}{extra}"}, done="Texted it to {full}.", draw=_texting,
    create=(op("phone_show_account", only_if="with_number"),) + _TEXT, extend=_TEXT, revise=_TEXT,
)

TaskSink = SinkRow(
    "TaskSink", "text", "task", ("todoist",), label="task",
    intent={"": "add a task '{title}' to my '{project[name]}' project with that in its description"},
    done="Added the task '{title}' to '{project[name]}'.",
    draw=lambda b: {"project": b.rng.choice(_projects(b)), "title": "Review " + b.rng.choice(pools.CONTAINER_TOPICS).lower()},
    create=(op("todoist_show_projects", query="{project[name]}"),
            op("todoist_create_task", save=True, project_id="{project[id]}", title="{title}", description="{text}")),
    extend=(op("todoist_update_task", task_id=_TASK_ID, description="{text}"),),
    revise=(op("todoist_update_task", task_id=_TASK_ID, description="{text}"),),
    undo=(op("todoist_delete_task", task_id=_TASK_ID),),
    fix=Fix("project", _other_project,
            "Sorry, wrong project: that task belongs in '{right[name]}', not '{wrong[name]}'. Please move it.",
            "Moved the task to '{right[name]}'.", text=lambda p: p["name"],
            steps=(op("todoist_show_projects", query="{right[name]}"), op("todoist_update_task", task_id=_TASK_ID, project_id="{right[id]}"))),
)

_REMIND = (op("modify_reminder", reminder_id="@", content="{text}"),)
ReminderSink = SinkRow(
    "ReminderSink", "text", "reminder", ("reminder",), label="reminder", network=False, flat=True, joiner="; ",
    intent={"": "set a reminder for {day:%A, %B} {day.day} at {hour_text} with that as its text"},
    done="Set the reminder for {day} at {hour_text}.", draw=_reminder_day,
    derive=lambda v: {"when": iso(v["day"].isoformat(), f"{v['hour']:02d}:00"), "hour_text": _hour_text(v["hour"])},
    create=(op("add_reminder", save=True, content="{text}", reminder_datetime="{when}"),), extend=_REMIND, revise=_REMIND,
    undo=(op("remove_reminder", reminder_id="@"),),
    fix=Fix("hour", lambda s, w: w + 1, "Sorry, I said {wrong_text} but I meant {right_text}. Please move the reminder.",
            "Moved the reminder to {right_text}.", text=_hour_text, steps=(op("modify_reminder", reminder_id="@", reminder_datetime="{when}"),)),
)

# ---------------------------------------------------------------------------- entry sinks (create: one entry; undo: remove one)
TasksSink = SinkRow(
    "TasksSink", "entries", "task", ("todoist",), edit="entries",
    intent={"": "add one task per item to my '{project[name]}' project",
            "dated": "add one task per item to my '{project[name]}' project, due on its due date"},
    done="Added the tasks to '{project[name]}'.",
    draw=lambda b: {"project": b.rng.choice(_projects(b))}, pre=(op("todoist_show_projects", query="{project[name]}"),),
    entry=lambda v, e: {"due": e.get("date") or None},
    create=(op("todoist_create_task", save=True, project_id="{project[id]}", title="{e[title]}", due_date="{due}"),),
    undo=(op("todoist_delete_task", task_id=_TASK_ID),),
    fix=Fix("project", _other_project,
            "Sorry, I meant my '{right[name]}' project, not '{wrong[name]}'. Please move those tasks.",
            "Moved the tasks to '{right[name]}'.", text=lambda p: p["name"],
            steps=(op("todoist_show_projects", query="{right[name]}"),), each=(op("todoist_update_task", task_id=_TASK_ID, project_id="{right[id]}"),)),
)

RemindersSink = SinkRow(
    "RemindersSink", "entries", "reminder", ("reminder",), needs=("date",), network=False, edit="entries",
    intent={"": "set a reminder for each one {when_text}, at its time (9 AM if none is given)"}, done="Set the reminders.",
    draw=lambda b: {"days_before": b.rng.choice([0, 1])}, derive=lambda v: {"when_text": _WHEN_TEXT[v["days_before"]]},
    entry=_days_before,
    create=(op("add_reminder", save=True, content="{e[title]}", reminder_datetime="{when}"),),
    undo=(op("remove_reminder", reminder_id="@"),),
    fix=Fix("days_before", lambda s, w: 1 - w, "Sorry, I got that wrong: the reminders should be {right_text}, not {wrong_text}. Please move them.",
            "Moved the reminders to {right_text}.", text=_WHEN_TEXT.get,
            each=(op("modify_reminder", reminder_id="@", reminder_datetime="{when}"),)),
)

CalendarSink = SinkRow(
    "CalendarSink", "entries", "event", ("calendar",), needs=("date",), network=False, edit="entries",
    intent={"": "add each one to my {calendar[title]} calendar as a {hours}-hour event"},
    done="Added them to the {calendar[title]} calendar.",
    draw=lambda b: {"calendar": b.rng.choice(calendars(b.wi)), "hours": b.rng.choice([1, 2])},
    pre=(op("search_calendars", title="{calendar[title]}"),), entry=_event_times,
    create=(op("create_calendar_event", save=True, calendar_id="{calendar[calendar_id]}", title="{e[title]}", start_datetime="{start}",
               end_datetime="{end}", formatted_address="{venue}"),),
    undo=(op("remove_calendar_event", calendar_event_id="@"),),
    fix=Fix("calendar", _other_calendar, "Oops, those belong in my {right[title]} calendar, not {wrong[title]}. Please move them.",
            "Moved the events to the {right[title]} calendar.", text=lambda c: c["title"],
            steps=(op("search_calendars", title="{right[title]}"),),
            each=(op("modify_calendar_event", calendar_event_id="@", calendar_id="{right[calendar_id]}"),)),
)

AlarmsSink = SinkRow(
    "AlarmsSink", "entries", "alarm", ("alarms",), needs=("time",), network=False, edit="entries",
    intent={"": "set an alarm {before} minutes before each start time, labelled with its name"}, done="Set the alarms.",
    draw=lambda b: {"before": b.rng.choice([30, 60])}, entry=_minutes_before,
    create=(op("alarms_create_alarm", save=True, time="{at}", label="{e[title]}"),),
    undo=(op("alarms_delete_alarm", alarm_id="@alarm_id"),),
    fix=Fix("before", lambda s, w: 90 if w != 90 else 45, "Sorry, I meant {right} minutes before, not {wrong}. Please change the alarms.",
            "Changed the alarms to {right} minutes before.", text=lambda n: f"{n} minutes",
            each=(op("alarms_update_alarm", alarm_id="@alarm_id", time="{at}"),)),
)

ContactsSink = SinkRow(
    "ContactsSink", "entries", "contact", ("contacts",), needs=("person",), network=False, edit="entries",
    intent={"": "add each person to my contacts with their phone number and email, tagged '{tag}'"}, done="Added them to your contacts.",
    draw=lambda b: {"tag": b.rng.choice(["colleague", "client", "conference"])},
    create=(op("contacts_add_contact", save=True, first_name="{e[person][first_name]}", last_name="{e[person][last_name]}",
               email="{e[person][email]}", phone_number="{e[person][phone]}", relationships=["{tag}"]),),
    undo=(op("contacts_delete_contact", contact_id="@contact_id"),),
    fix=Fix("tag", lambda s, w: _RETAG[w], "Sorry, wrong tag: they should be tagged '{right}', not '{wrong}'. Please fix them.",
            "Retagged them as '{right}'.", each=(op("contacts_update_contact", contact_id="@contact_id", relationships=["{tag}"]),)),
)

# ---------------------------------------------------------------------------- amount sinks
_REQUEST = (op("venmo_update_payment_request", payment_request_id=_REQUEST_ID, amount="{amount}"),)
VenmoRequestSink = SinkRow(
    "VenmoRequestSink", "amount", "payment request", ("venmo", "contacts"), person=True, label="request", edit="amount",
    intent={"": "request that amount from {spoken} on Venmo with the note '{note}'"}, done="Requested it from {full} on Venmo.",
    draw=lambda b: {"note": b.rng.choice(["shared costs", "your share", "split from last week"])},
    create=(op("venmo_create_payment_request", save=True, user_email="{person[email]}", amount="{amount}", description="{note}"),),
    extend=_REQUEST, revise=_REQUEST, undo=(op("venmo_delete_payment_request", payment_request_id=_REQUEST_ID),),
    fix=Fix("note", lambda s, w: w + " (April)", "Sorry, the note on that request should say '{right}'. Please change it.",
            "Changed the request's note to '{right}'.",
            steps=(op("venmo_update_payment_request", payment_request_id=_REQUEST_ID, description="{right}"),)),
)

VenmoPaySink = SinkRow(
    "VenmoPaySink", "amount", "payment", ("venmo", "contacts"), person=True,
    intent={"": "send {spoken} that amount on Venmo from my {card[card_name]} card with the note '{note}'"},
    done="Sent it to {full} on Venmo.",
    draw=lambda b: {"note": b.rng.choice(["thanks for covering", "paying you back", "my part"]),
                    "card": max(b.wi.rows("venmo.payment_cards", user_id=b.wi.owner_id), key=lambda c: c["available_balance"])},
    accepts=lambda v, p: p.amount <= 0.9 * v["card"]["available_balance"],
    create=(op("venmo_show_payment_cards"),
            op("venmo_create_transaction", receiver_email="{person[email]}", amount="{amount}", description="{note}", payment_card_id="{card[id]}")),
)

_EXPENSE = (op("splitwise_update_expense", expense_id=_EXPENSE_ID, paid_amount="{amount}"),)
SplitwiseSink = SinkRow(
    "SplitwiseSink", "amount", "expense", ("splitwise", "supervisor"), label="expense", edit="amount",
    intent={"": "record that amount as an expense I paid in my '{group[name]}' Splitwise group, split equally, described as '{description}'"},
    done="Recorded it in '{group[name]}'.", draw=_splitwise_group,
    create=(op("supervisor_show_profile"), op("splitwise_show_groups"),
            op("splitwise_record_expense", save=True, description="{description}", paid_amount="{amount}", payer_email="{payer}",
               debtor_emails="{debtors}", group_id="{group[id]}")),
    extend=_EXPENSE, revise=_EXPENSE, undo=(op("splitwise_delete_expense", expense_id=_EXPENSE_ID),),
    fix=Fix("description", lambda s, w: w + " (April)", "Sorry, I meant to call that expense '{right}'. Please rename it.",
            "Renamed the expense to '{right}'.", steps=(op("splitwise_update_expense", expense_id=_EXPENSE_ID, description="{right}"),)),
)

TEXT_SINKS = (NoteSink, FileSink, EmailSink, DraftSink, TextSink, TaskSink, ReminderSink)
ENTRY_SINKS = (TasksSink, RemindersSink, CalendarSink, AlarmsSink, ContactsSink)
AMOUNT_SINKS = (VenmoRequestSink, VenmoPaySink, SplitwiseSink)
ALL_SINKS = TEXT_SINKS + ENTRY_SINKS + AMOUNT_SINKS
