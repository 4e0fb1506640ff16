"""Sinks: where a flow's result is written (a note, an email, calendar events, a Venmo request...).

Every sink knows how to phrase the request (:meth:`Sink.intent`), and produces the solution
steps to create the result, add to it (additive flows), replace it (recomputed flows), undo it
(goal changes) and repair a user's mistake (error corrections). Steps are plain tool calls; ids
of rows created during the episode travel through ``save_as`` / ``{"$ref": ...}``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime, timedelta
from typing import Any, Callable

from . import pools
from ._recipe_helpers import calendars, hours_after
from .core import Build, GenerationError, Payload, call, ref, say
from .images import dollars
from .world_index import norm

TZ = "+00:00"


def iso(d: str, t: str) -> str:
    return f"{d}T{t}:00{TZ}"


class Mistake:
    """A user's mistake in a request and how to repair it."""

    def __init__(self, wrong_text: str, right_text: str, correction: str, fix: list[dict[str, Any]], answer: str) -> None:
        self.wrong_text, self.right_text, self.correction, self.fix, self.answer = wrong_text, right_text, correction, fix, answer


class Sink(ABC):
    """Base class. ``kind`` is the payload a sink consumes: ``text``, ``entries`` or ``amount``.

    Every sink phrases its intent and creates its result; ``extend``, ``revise`` and ``undo`` are
    capabilities a sink declares with ``extendable``/``revisable``/``undoable``.
    """

    kind = "text"
    domains: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()  # entry fields required ("date", "person", ...)
    network = True
    cellular = False
    undoable = True
    revisable = True
    extendable = True
    noun = "result"

    def __init__(self, b: Build) -> None:
        self.b = b
        self.created = False
        self.setup_done = False
        self.clarify: dict[str, Any] | None = None
        self.pre_steps: list[dict[str, Any]] = []

    # phrasing -------------------------------------------------------------
    @abstractmethod
    def intent(self, desc: str = "") -> str:
        """The request's wording of what to do with the result."""

    def setup_request(self) -> tuple[str, list[dict[str, Any]], str] | None:
        """A text-only first round preparing the container (late image arrival), or None."""
        return None

    # writing ---------------------------------------------------------------
    @abstractmethod
    def create(self, p: Payload) -> list[dict[str, Any]]:
        """Tool calls writing the result for the first time."""

    def extend(self, p: Payload) -> list[dict[str, Any]]:
        raise GenerationError(f"{type(self).__name__} cannot add to what it wrote (extendable = {self.extendable})")

    def revise(self, p: Payload) -> list[dict[str, Any]]:
        raise GenerationError(f"{type(self).__name__} cannot rewrite what it wrote (revisable = {self.revisable})")

    def undo(self) -> list[dict[str, Any]]:
        raise GenerationError(f"{type(self).__name__} cannot remove what it wrote (undoable = {self.undoable})")

    def mistake(self) -> Mistake | None:
        return None

    def done(self) -> str:
        """The confirmation sentence of the oracle's answer."""
        return f"I saved it to the {self.noun}."

    def accepts(self, p: Payload) -> bool:
        if self.kind == "amount":
            return p.amount is not None and p.amount > 0
        if self.kind == "entries":
            return bool(p.entries) and all(all(e.get(n) is not None for n in self.needs) for e in p.entries)
        return bool(p.lines)

    def write(self, p: Payload, *, additive: bool) -> list[dict[str, Any]]:
        """Create on first use; afterwards extend (additive flows) or revise (recomputed flows)."""
        if not self.created:
            self.created = True
            return self.pre_steps + self.create(p)
        return self.extend(p) if additive else self.revise(p)


def _fresh_title(b: Build, stem_choices: list[str], table: str, column: str) -> str:
    taken = {norm(r.get(column, "")) for r in b.wi.tables.get(table, {}).values()}
    for _ in range(50):
        stem = b.rng.choice(stem_choices)
        suffix = b.rng.choice([s for s in ["- April", "- May", "(shared)", "list", "log", "summary"] if s not in stem.lower()])
        title = f"{stem} {suffix}"
        if norm(title) not in taken:
            return title
    return f"{stem_choices[0]} {b.rng.randint(100, 999)}"


# ---------------------------------------------------------------------------- text sinks
class NoteSink(Sink):
    domains = ("simple_note",)
    noun = "note"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        self.title = _fresh_title(b, pools.CONTAINER_TOPICS, "simple_note.notes", "title")
        self.label = b.label("note")
        self.content = ""

    def intent(self, desc: str = "") -> str:
        if self.setup_done:
            return f"put that into my '{self.title}' note, replacing 'pending'"
        return f"save it in a new note titled '{self.title}'"

    def setup_request(self):
        self.setup_done = True
        self.created = True
        self.content = "pending"
        req = f"Please create a note titled '{self.title}' with just the word 'pending' in it. I'll send you what goes in it shortly."
        return req, [call("simple_note_create_note", save_as=self.label, title=self.title, content="pending")], f"Created the note '{self.title}'."

    def create(self, p):
        self.content = p.body
        return [call("simple_note_create_note", save_as=self.label, title=self.title, content=p.body)]

    def extend(self, p):
        if self.content == "pending":
            return self.revise(p)
        self.content += "\n" + p.body
        return [call("simple_note_add_content_to_note", note_id=ref(self.label, "note_id"), append_or_prepend="append",
                     added_content="\n" + p.body)]

    def revise(self, p):
        self.content = p.body
        return [call("simple_note_update_note", note_id=ref(self.label, "note_id"), content=p.body)]

    def undo(self):
        return [call("simple_note_delete_note", note_id=ref(self.label, "note_id"))]

    def mistake(self):
        wrong = self.title
        right = wrong + " (final)" if not wrong.endswith(")") else wrong.rsplit(" (", 1)[0] + " - final"
        self.title = right
        return Mistake(wrong, right, f"Sorry, I gave you the wrong title. The note should be called '{right}', not '{wrong}'. Please rename it.",
                       [call("simple_note_update_note", note_id=ref(self.label, "note_id"), title=right)],
                       f"Renamed the note to '{right}'.")

    def done(self):
        return f"Saved in the note '{self.title}'."


class FileSink(Sink):
    domains = ("file_system",)
    noun = "file"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        slug = _fresh_title(b, pools.CONTAINER_TOPICS, "file_system.files", "path").lower()
        slug = "".join(ch if ch.isalnum() else "_" for ch in slug).strip("_")
        while "__" in slug:
            slug = slug.replace("__", "_")
        self.path = f"{b.wi.home()}documents/{slug}.txt"
        self.content = ""

    def intent(self, desc=""):
        if self.setup_done:
            return f"write that into the file {self.path}, replacing its placeholder text"
        return f"save it as a text file at {self.path}"

    def setup_request(self):
        self.setup_done = True
        self.created = True
        self.content = "TBD"
        req = f"Create a text file at {self.path} containing just 'TBD'. I'll send the details in a moment."
        return req, [call("file_system_create_file", file_path=self.path, content="TBD")], f"Created {self.path}."

    def create(self, p):
        self.content = p.body
        return [call("file_system_create_file", file_path=self.path, content=p.body)]

    def extend(self, p):
        self.content = p.body if self.content == "TBD" else self.content + "\n" + p.body
        return [call("file_system_show_file", file_path=self.path), call("file_system_update_file", file_path=self.path, content=self.content)]

    def revise(self, p):
        self.content = p.body
        return [call("file_system_update_file", file_path=self.path, content=p.body)]

    def undo(self):
        return [call("file_system_delete_file", file_path=self.path)]

    def mistake(self):
        wrong = self.path
        right = wrong[:-4] + "_final.txt"
        self.path = right
        return Mistake(wrong, right, f"My mistake: the file should be at {right}, not {wrong}. Please move it there.",
                       [call("file_system_move_file", source_file_path=wrong, destination_file_path=right)],
                       f"Moved the file to {right}.")

    def done(self):
        return f"Saved to {self.path}."


class _PersonSink(Sink):
    """Sinks addressed to one of the owner's contacts (found with a contacts search)."""

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b)
        if ambiguous is None:
            ambiguous = b.rng.random() < 0.35
        self.person, self.namesakes = b.contact(ambiguous=ambiguous)
        self.full = f"{self.person['first_name']} {self.person['last_name']}"
        self.spoken = self.person["first_name"] if self.namesakes else self.full
        if self.namesakes:
            others = ", ".join(f"{c['first_name']} {c['last_name']}" for c in [self.person] + self.namesakes)
            question = f"I found several contacts named {self.person['first_name']}: {others}. Which one do you mean?"
            self.clarify = {"keywords": [self.person["first_name"].lower(), "which"], "answer": f"I mean {self.full}."}
            self.pre_steps = [call("contacts_search_contacts", query=self.person["first_name"]), say(question)]
        else:
            self.pre_steps = [call("contacts_search_contacts", query=self.full)]


class EmailSink(_PersonSink):
    domains = ("gmail", "contacts")
    undoable = False
    noun = "email"

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b, ambiguous)
        self.subject = ""

    def intent(self, desc=""):
        return f"email it to {self.spoken}"

    def create(self, p):
        self.subject = p.headline
        return [call("gmail_send_email", email_addresses=[self.person["email"]], subject=p.headline, body=p.body)]

    def extend(self, p):
        return [call("gmail_send_email", email_addresses=[self.person["email"]], subject=f"More: {p.headline}", body=p.body)]

    def revise(self, p):
        return [call("gmail_send_email", email_addresses=[self.person["email"]], subject=f"Update: {p.headline}", body=p.body)]

    def done(self):
        return f"Emailed it to {self.full}."


class DraftSink(_PersonSink):
    domains = ("gmail", "contacts")
    noun = "draft"

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b, ambiguous)
        self.label = b.label("draft")
        self.body = ""
        self.subject = ""

    def intent(self, desc=""):
        return f"put it in an email draft to {self.spoken} (don't send it)"

    def create(self, p):
        self.body, self.subject = p.body, p.headline
        return [call("gmail_create_draft", save_as=self.label, recipient_email_addresses=[self.person["email"]],
                     subject=p.headline, body=p.body)]

    def extend(self, p):
        self.body += "\n" + p.body
        return [call("gmail_update_draft", draft_id=ref(self.label, "draft_id"), body=self.body)]

    def revise(self, p):
        self.body = p.body
        return [call("gmail_update_draft", draft_id=ref(self.label, "draft_id"), body=p.body)]

    def undo(self):
        return [call("gmail_delete_draft", draft_id=ref(self.label, "draft_id"))]

    def mistake(self):
        wrong = self.subject
        right = wrong + " - please review"
        self.subject = right
        return Mistake(wrong, right, f"Oops, the draft's subject should be '{right}'. Please fix it.",
                       [call("gmail_update_draft", draft_id=ref(self.label, "draft_id"), subject=right)],
                       f"Changed the draft's subject to '{right}'.")

    def done(self):
        return f"Drafted an email to {self.full}."


class TextSink(_PersonSink):
    domains = ("messages", "contacts")
    cellular = True
    network = False
    undoable = False
    noun = "text message"

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b, ambiguous)
        self.with_number = "phone" in b.prefer or b.rng.random() < 0.3
        if self.with_number:
            self.domains = ("messages", "contacts", "phone")
            self.network = True

    def intent(self, desc=""):
        extra = ", and add my own phone number at the end" if self.with_number else ""
        return f"text it to {self.spoken}{extra}"

    def _message(self, p: Payload) -> str:
        text = p.body.replace("\n", "; ")
        if self.with_number:
            text += f". My number: {self.b.owner.phone_number}"
        return text

    def create(self, p):
        steps = [call("phone_show_account")] if self.with_number else []
        return steps + [call("messages_send_text_message", phone_number=self.person["phone_number"], message=self._message(p))]

    def extend(self, p):
        return [call("messages_send_text_message", phone_number=self.person["phone_number"], message=self._message(p))]

    revise = extend

    def done(self):
        return f"Texted it to {self.full}."


class TaskSink(Sink):
    """One Todoist task whose description carries the result."""

    domains = ("todoist",)
    noun = "task"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        projects = [r for r in b.wi.rows("todoist.projects", user_id=b.wi.owner_id) if not r["is_inbox"]]
        self.project = b.rng.choice(projects)
        self.title = "Review " + b.rng.choice(pools.CONTAINER_TOPICS).lower()
        self.label = b.label("task")
        self.description = ""

    def intent(self, desc=""):
        return f"add a task '{self.title}' to my '{self.project['name']}' project with that in its description"

    def create(self, p):
        self.description = p.body
        return [call("todoist_show_projects", query=self.project["name"]),
                call("todoist_create_task", save_as=self.label, project_id=self.project["id"], title=self.title, description=p.body)]

    def extend(self, p):
        self.description += "\n" + p.body
        return [call("todoist_update_task", task_id=ref(self.label, "task_id"), description=self.description)]

    def revise(self, p):
        self.description = p.body
        return [call("todoist_update_task", task_id=ref(self.label, "task_id"), description=p.body)]

    def undo(self):
        return [call("todoist_delete_task", task_id=ref(self.label, "task_id"))]

    def mistake(self):
        projects = [r for r in self.b.wi.rows("todoist.projects", user_id=self.b.wi.owner_id) if not r["is_inbox"] and r["id"] != self.project["id"]]
        right = self.b.rng.choice(projects)
        wrong = self.project
        self.project = right
        return Mistake(wrong["name"], right["name"],
                       f"Sorry, wrong project: that task belongs in '{right['name']}', not '{wrong['name']}'. Please move it.",
                       [call("todoist_show_projects", query=right["name"]),
                        call("todoist_update_task", task_id=ref(self.label, "task_id"), project_id=right["id"])],
                       f"Moved the task to '{right['name']}'.")

    def done(self):
        return f"Added the task '{self.title}' to '{self.project['name']}'."


class ReminderSink(Sink):
    """One reminder carrying the result, at a time the user chooses."""

    domains = ("reminder",)
    network = False
    noun = "reminder"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        day = (b.now + timedelta(days=b.rng.randint(1, 6))).date()
        self.hour = b.rng.choice([8, 9, 18, 19])
        self.day = day
        self.label = b.label("reminder")
        self.content = ""

    def _when(self) -> str:
        return iso(self.day.isoformat(), f"{self.hour:02d}:00")

    def intent(self, desc=""):
        return f"set a reminder for {self.day.strftime('%A, %B')} {self.day.day} at {self._hour_text()} with that as its text"

    def _hour_text(self) -> str:
        h = self.hour
        return f"{h % 12 or 12} {'AM' if h < 12 else 'PM'}"

    def create(self, p):
        self.content = p.body.replace("\n", "; ")
        return [call("add_reminder", save_as=self.label, content=self.content, reminder_datetime=self._when())]

    def extend(self, p):
        self.content += "; " + p.body.replace("\n", "; ")
        return [call("modify_reminder", reminder_id=ref(self.label, ""), content=self.content)]

    def revise(self, p):
        self.content = p.body.replace("\n", "; ")
        return [call("modify_reminder", reminder_id=ref(self.label, ""), content=self.content)]

    def undo(self):
        return [call("remove_reminder", reminder_id=ref(self.label, ""))]

    def mistake(self):
        wrong = self._hour_text()
        self.hour = self.hour + 1
        right = self._hour_text()
        return Mistake(wrong, right, f"Sorry, I said {wrong} but I meant {right}. Please move the reminder.",
                       [call("modify_reminder", reminder_id=ref(self.label, ""), reminder_datetime=self._when())],
                       f"Moved the reminder to {right}.")

    def done(self):
        return f"Set the reminder for {self.day.isoformat()} at {self._hour_text()}."


# ---------------------------------------------------------------------------- entry sinks
class _EntriesSink(Sink):
    kind = "entries"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        self.made: list[tuple[str, dict[str, Any]]] = []  # (save_as label, entry)

    @abstractmethod
    def one(self, e: dict[str, Any], label: str) -> list[dict[str, Any]]:
        """Tool calls creating one entry (saved as ``label``)."""

    @abstractmethod
    def remove(self, label: str, e: dict[str, Any]) -> list[dict[str, Any]]:
        """Tool calls deleting the entry saved as ``label``."""

    def create(self, p):
        return self.extend(p)

    def extend(self, p):
        steps = []
        for e in p.entries:
            label = self.b.label(self.noun.replace(" ", "_"))
            self.made.append((label, e))
            steps += self.one(e, label)
        return steps

    def revise(self, p):
        keep = {e["title"] for e in p.entries}
        steps = []
        for label, e in list(self.made):
            if e["title"] not in keep:
                steps += self.remove(label, e)
                self.made.remove((label, e))
        have = {e["title"] for _, e in self.made}
        return steps + self.extend(Payload(p.headline, entries=[e for e in p.entries if e["title"] not in have]))

    def undo(self):
        steps = []
        for label, e in self.made:
            steps += self.remove(label, e)
        self.made = []
        return steps

    def _update_made(self, tool: str, id_arg: str, ref_field: str,
                     fields: Callable[[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
        """One ``tool`` call per entry made so far: ``id_arg`` from its saved ``ref_field``, then ``fields(entry)``."""
        return [call(tool, **{id_arg: ref(label, ref_field)}, **fields(e)) for label, e in self.made]


class TasksSink(_EntriesSink):
    domains = ("todoist",)
    noun = "task"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        projects = [r for r in b.wi.rows("todoist.projects", user_id=b.wi.owner_id) if not r["is_inbox"]]
        self.project = b.rng.choice(projects)
        self.pre_steps = [call("todoist_show_projects", query=self.project["name"])]

    def intent(self, desc=""):
        return f"add one task per item to my '{self.project['name']}' project" + (", due on its due date" if desc == "dated" else "")

    def one(self, e, label):
        args: dict[str, Any] = {"project_id": self.project["id"], "title": e["title"]}
        if e.get("date"):
            args["due_date"] = e["date"]
        return [call("todoist_create_task", save_as=label, **args)]

    def remove(self, label, e):
        return [call("todoist_delete_task", task_id=ref(label, "task_id"))]

    def mistake(self):
        projects = [r for r in self.b.wi.rows("todoist.projects", user_id=self.b.wi.owner_id) if not r["is_inbox"] and r["id"] != self.project["id"]]
        right, wrong = self.b.rng.choice(projects), self.project
        self.project = right
        fix = [call("todoist_show_projects", query=right["name"])]
        fix += self._update_made("todoist_update_task", "task_id", "task_id", lambda e: {"project_id": right["id"]})
        return Mistake(wrong["name"], right["name"],
                       f"Sorry, I meant my '{right['name']}' project, not '{wrong['name']}'. Please move those tasks.",
                       fix, f"Moved the tasks to '{right['name']}'.")

    def done(self):
        return f"Added the tasks to '{self.project['name']}'."


class RemindersSink(_EntriesSink):
    domains = ("reminder",)
    needs = ("date",)
    network = False
    noun = "reminder"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        self.days_before = b.rng.choice([0, 1])

    def _when(self, e) -> str:
        d = (datetime.fromisoformat(e["date"]) - timedelta(days=self.days_before)).date().isoformat()
        return iso(d, e.get("time") or "09:00")

    def intent(self, desc=""):
        when = "on the day" if self.days_before == 0 else "one day before"
        return f"set a reminder for each one {when}, at its time (9 AM if none is given)"

    def one(self, e, label):
        return [call("add_reminder", save_as=label, content=e["title"], reminder_datetime=self._when(e))]

    def remove(self, label, e):
        return [call("remove_reminder", reminder_id=ref(label, ""))]

    def mistake(self):
        wrong = "one day before" if self.days_before else "on the day"
        self.days_before = 1 - self.days_before
        right = "one day before" if self.days_before else "on the day"
        fix = self._update_made("modify_reminder", "reminder_id", "", lambda e: {"reminder_datetime": self._when(e)})
        return Mistake(wrong, right, f"Sorry, I got that wrong: the reminders should be {right}, not {wrong}. Please move them.",
                       fix, f"Moved the reminders to {right}.")

    def done(self):
        return "Set the reminders."


class CalendarSink(_EntriesSink):
    domains = ("calendar",)
    needs = ("date",)
    network = False
    noun = "event"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        cals = calendars(b.wi)
        self.calendar = b.rng.choice(cals)
        self.hours = b.rng.choice([1, 2])
        self.pre_steps = [call("search_calendars", title=self.calendar["title"])]

    def intent(self, desc=""):
        return f"add each one to my {self.calendar['title']} calendar as a {self.hours}-hour event"

    def one(self, e, label):
        start = iso(e["date"], e.get("time") or "09:00")
        args: dict[str, Any] = {"calendar_id": self.calendar["calendar_id"], "title": e["title"], "start_datetime": start,
                                "end_datetime": hours_after(start, self.hours)}
        if e.get("venue"):
            args["formatted_address"] = e["venue"]
        return [call("create_calendar_event", save_as=label, **args)]

    def remove(self, label, e):
        return [call("remove_calendar_event", calendar_event_id=ref(label, ""))]

    def mistake(self):
        cals = calendars(self.b.wi)
        right = self.b.rng.choice([c for c in cals if c["calendar_id"] != self.calendar["calendar_id"]])
        wrong, self.calendar = self.calendar, right
        fix = [call("search_calendars", title=right["title"])]
        fix += self._update_made("modify_calendar_event", "calendar_event_id", "", lambda e: {"calendar_id": right["calendar_id"]})
        return Mistake(wrong["title"], right["title"],
                       f"Oops, those belong in my {right['title']} calendar, not {wrong['title']}. Please move them.",
                       fix, f"Moved the events to the {right['title']} calendar.")

    def done(self):
        return f"Added them to the {self.calendar['title']} calendar."


class AlarmsSink(_EntriesSink):
    domains = ("alarms",)
    needs = ("time",)
    network = False
    noun = "alarm"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        self.before = b.rng.choice([30, 60])

    def _time(self, e) -> str:
        hh, mm = map(int, e["time"].split(":"))
        t = datetime(2000, 1, 1, hh, mm) - timedelta(minutes=self.before)
        return t.strftime("%H:%M")

    def intent(self, desc=""):
        return f"set an alarm {self.before} minutes before each start time, labelled with its name"

    def one(self, e, label):
        return [call("alarms_create_alarm", save_as=label, time=self._time(e), label=e["title"])]

    def remove(self, label, e):
        return [call("alarms_delete_alarm", alarm_id=ref(label, "alarm_id"))]

    def mistake(self):
        wrong = self.before
        self.before = 90 if wrong != 90 else 45
        fix = self._update_made("alarms_update_alarm", "alarm_id", "alarm_id", lambda e: {"time": self._time(e)})
        return Mistake(f"{wrong} minutes", f"{self.before} minutes",
                       f"Sorry, I meant {self.before} minutes before, not {wrong}. Please change the alarms.",
                       fix, f"Changed the alarms to {self.before} minutes before.")

    def done(self):
        return "Set the alarms."


class ContactsSink(_EntriesSink):
    domains = ("contacts",)
    needs = ("person",)
    network = False
    noun = "contact"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        self.tag = b.rng.choice(["colleague", "client", "conference"])

    def intent(self, desc=""):
        return f"add each person to my contacts with their phone number and email, tagged '{self.tag}'"

    def one(self, e, label):
        pr = e["person"]
        return [call("contacts_add_contact", save_as=label, first_name=pr["first_name"], last_name=pr["last_name"],
                     email=pr["email"], phone_number=pr["phone"], relationships=[self.tag])]

    def remove(self, label, e):
        return [call("contacts_delete_contact", contact_id=ref(label, "contact_id"))]

    def mistake(self):
        wrong = self.tag
        self.tag = {"colleague": "client", "client": "supplier", "conference": "partner"}[wrong]
        fix = self._update_made("contacts_update_contact", "contact_id", "contact_id", lambda e: {"relationships": [self.tag]})
        return Mistake(wrong, self.tag, f"Sorry, wrong tag: they should be tagged '{self.tag}', not '{wrong}'. Please fix them.",
                       fix, f"Retagged them as '{self.tag}'.")

    def done(self):
        return "Added them to your contacts."


# ---------------------------------------------------------------------------- amount sinks
class VenmoRequestSink(_PersonSink):
    kind = "amount"
    domains = ("venmo", "contacts")
    noun = "payment request"

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b, ambiguous)
        self.label = b.label("request")
        self.note = b.rng.choice(["shared costs", "your share", "split from last week"])

    def intent(self, desc=""):
        return f"request that amount from {self.spoken} on Venmo with the note '{self.note}'"

    def create(self, p):
        return [call("venmo_create_payment_request", save_as=self.label, user_email=self.person["email"], amount=round(p.amount, 2),
                     description=self.note)]

    def revise(self, p):
        return [call("venmo_update_payment_request", payment_request_id=ref(self.label, "payment_request_id"), amount=round(p.amount, 2))]

    extend = revise

    def undo(self):
        return [call("venmo_delete_payment_request", payment_request_id=ref(self.label, "payment_request_id"))]

    def mistake(self):
        wrong = self.note
        self.note = wrong + " (April)"
        return Mistake(wrong, self.note, f"Sorry, the note on that request should say '{self.note}'. Please change it.",
                       [call("venmo_update_payment_request", payment_request_id=ref(self.label, "payment_request_id"), description=self.note)],
                       f"Changed the request's note to '{self.note}'.")

    def done(self):
        return f"Requested it from {self.full} on Venmo."


class VenmoPaySink(_PersonSink):
    kind = "amount"
    domains = ("venmo", "contacts")
    undoable = False
    revisable = False
    extendable = False
    noun = "payment"

    def __init__(self, b: Build, ambiguous: bool | None = None) -> None:
        super().__init__(b, ambiguous)
        self.note = b.rng.choice(["thanks for covering", "paying you back", "my part"])
        cards = sorted(b.wi.rows("venmo.payment_cards", user_id=b.wi.owner_id), key=lambda c: -c["available_balance"])
        self.card = cards[0]

    def accepts(self, p: Payload) -> bool:
        return super().accepts(p) and p.amount <= 0.9 * self.card["available_balance"]

    def intent(self, desc=""):
        return f"send {self.spoken} that amount on Venmo from my {self.card['card_name']} card with the note '{self.note}'"

    def create(self, p):
        return [call("venmo_show_payment_cards"),
                call("venmo_create_transaction", receiver_email=self.person["email"], amount=round(p.amount, 2), description=self.note,
                     payment_card_id=self.card["id"])]

    def done(self):
        return f"Sent it to {self.full} on Venmo."


class SplitwiseSink(Sink):
    kind = "amount"
    domains = ("splitwise", "supervisor")
    noun = "expense"

    def __init__(self, b: Build) -> None:
        super().__init__(b)
        owner = b.wi.owner_id
        links = b.wi.rows("splitwise.group_member_links", user_id=owner)
        groups = [b.wi.tables["splitwise.groups"][l["group_id"]] for l in links]
        groups = [g for g in groups if not g["deleted"]]
        self.group = b.rng.choice(sorted(groups, key=lambda g: g["id"]))
        members = sorted(l["user_id"] for l in b.wi.rows("splitwise.group_member_links", group_id=self.group["id"]))
        self.debtors = [b.wi.person(m).email for m in members if m != owner]
        self.description = b.rng.choice(["Shared receipts", "Group purchase", "Supplies run", "Weekend costs"])
        self.label = b.label("expense")

    def intent(self, desc=""):
        return f"record that amount as an expense I paid in my '{self.group['name']}' Splitwise group, split equally, described as '{self.description}'"

    def create(self, p):
        return [call("supervisor_show_profile"), call("splitwise_show_groups"),
                call("splitwise_record_expense", save_as=self.label, description=self.description, paid_amount=round(p.amount, 2),
                     payer_email=self.b.owner.email, debtor_emails=self.debtors, group_id=self.group["id"])]

    def revise(self, p):
        return [call("splitwise_update_expense", expense_id=ref(self.label, "expense_id"), paid_amount=round(p.amount, 2))]

    extend = revise

    def undo(self):
        return [call("splitwise_delete_expense", expense_id=ref(self.label, "expense_id"))]

    def mistake(self):
        wrong = self.description
        self.description = wrong + " (April)"
        return Mistake(wrong, self.description, f"Sorry, I meant to call that expense '{self.description}'. Please rename it.",
                       [call("splitwise_update_expense", expense_id=ref(self.label, "expense_id"), description=self.description)],
                       f"Renamed the expense to '{self.description}'.")

    def done(self):
        return f"Recorded it in '{self.group['name']}'."


TEXT_SINKS = (NoteSink, FileSink, EmailSink, DraftSink, TextSink, TaskSink, ReminderSink)
ENTRY_SINKS = (TasksSink, RemindersSink, CalendarSink, AlarmsSink, ContactsSink)
AMOUNT_SINKS = (VenmoRequestSink, VenmoPaySink, SplitwiseSink)
ALL_SINKS = TEXT_SINKS + ENTRY_SINKS + AMOUNT_SINKS


def money_text(x: float) -> str:
    return dollars(x)
