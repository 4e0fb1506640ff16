"""The staged world: look-alikes of the rows a scenario's task touches, added to its initial rows.

A user's phone holds more than the rows a task needs. The reference's scenarios stage the
records a task works on together with rows that punish careless matching: a second contact with
the same first name, last year's event with the same title, a task or note whose title is nearly
the same, an older draft to the same person. :func:`stage_lookalikes` does this for any recipe:
it plays the scenario's solution once, takes every row the solution creates, updates or deletes
(and the rows the recipe staged for it) in the tables of :data:`LOOKALIKES`, and adds look-alikes of
them made from data (one :class:`~.rows.Look` per table, in its domain's module
``generation/domains/<domain>.py`` (``LOOKALIKES``): the column a person names the row by, how a
look-alike differs, which columns get fresh values).

A look-alike is kept only when the scenario still means the same with it: the solution plays
without error, makes exactly the same expected changes, and every lookup in a round that reports
facts read from the phone returns the same (so no answer the oracle gives changes). It never
carries a value only the images show (a changed date, a near title, fresh contact details), except
that a dated row (an event, a reminder) may share the target's title when the user names it (never
a title read off the images: a compare winner on the phone would give the answer away) and the
date, moved back about a year by a drawn amount, tells them apart.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from typing import Any

from ..world import pools
from .core import Build, Part
from .domains import LOOKALIKE_TWINS, LOOKALIKES
from .world_index import norm

# a look-alike of a made row is told apart by what the request or image says; of a stored row, by
# the detail the image shows or the date
# (no word says which row is stale -- "old", "copy", "draft", last year -- or a blind rule "skip the
# marked rows" would never touch a look-alike: the red team of session 13 found 91 % marked)
NEUTRAL_TEXT = ("Notes for later.", "Shared with the family.", "Moved over from my other list.", "Quick note to self.",
                "Details to follow.")
TITLE_SUFFIXES = (" (shared)", " - team", " - personal", " 2", " (family)", " - misc")
TITLE_PREFIXES = ("My ", "Team ", "Shared: ")
SWAP_WORDS = ("notes", "list", "plan", "summary", "ideas", "items")
_WORD = re.compile(r"[A-Za-z0-9']+")


PER_TABLE = 4  # targets per table that get a look-alike
MIN_STAGED = 8  # below this many look-alikes, the targets get a second (and third) one


# ---------------------------------------------------------------------------- values
def _year_back(value: Any, back: timedelta) -> Any:
    """``value`` (an ISO date or datetime) ``back`` earlier: about a year, by a drawn amount, so the
    target's date cannot be worked out from its look-alike's."""
    if not isinstance(value, str) or len(value) < 10:
        return value
    try:
        if len(value) == 10:
            return (datetime.fromisoformat(value) - timedelta(days=back.days)).date().isoformat()
        return (datetime.fromisoformat(value) - back).isoformat()
    except ValueError:
        return value


def _about_a_year(b: Build) -> timedelta:
    return timedelta(days=b.rng.randint(300, 430), hours=b.rng.randint(-3, 3), minutes=b.rng.choice((0, 15, 30, 45)))


def _shows(text: str, values: list[str]) -> bool:
    from .verify import contains

    t = norm(text)
    return any(len(norm(v)) >= 2 and contains(t, v, normalised=True) for v in values)


def near_label(b: Build, label: str, forbidden: list[str], column: str) -> str | None:
    """A label a hurried reader confuses with ``label`` that carries no image-only value."""
    from .measures import look_alike

    if column == "path":
        stem, dot, ext = label.rpartition(".")
        if not dot:
            stem, ext = label, ""
        cands = [f"{stem}{s}{dot}{ext}" for s in ("_v2", "_shared", "_team", "_personal", "_1")]
    else:
        words = _WORD.findall(label)
        cands = [label + s for s in TITLE_SUFFIXES] + [p + label for p in TITLE_PREFIXES]
        if len(words) >= 3:
            cands += [" ".join(words[:-1]), " ".join(words[1:]), " ".join(words[:-1] + [b.rng.choice(SWAP_WORDS).title()])]
        elif len(words) == 2:
            cands += [f"{words[0]} {b.rng.choice(SWAP_WORDS)}"]
    b.rng.shuffle(cands)
    # no number of what the images show, even without its cents ("Mouse 34" for "Mouse $34.37")
    numbers = {d for v in forbidden for d in _DIGITS.findall(v) if len(d) >= 2}
    for c in cands:
        if c != label and norm(c) != norm(label) and not _shows(c, forbidden) and not numbers & set(_DIGITS.findall(c)) \
                and (column == "path" or look_alike(label, c)):
            return c
    return None


_DIGITS = re.compile(r"\d+")


def _other_digits(b: Build, text: str) -> str:
    """``text`` with every run of digits changed (one digit of each), as a different invoice or amount reads."""
    def swap(m: re.Match[str]) -> str:
        d = list(m.group(0))
        i = b.rng.randrange(len(d))
        d[i] = b.rng.choice([c for c in "123456789" if c != d[i]]) if i == 0 else b.rng.choice([c for c in "0123456789" if c != d[i]])
        return "".join(d)
    return _DIGITS.sub(swap, text)


def _numeric(value: str) -> bool:
    return bool(re.search(r"\d", value))


def _fresh_phone(b: Build) -> str:
    while True:
        p = str(b.rng.randint(2, 9)) + "".join(str(b.rng.randint(0, 9)) for _ in range(9))
        if not b.wi.mentions(p):
            return p


def make_lookalike(b: Build, table: str, target: dict[str, Any]) -> tuple[dict[str, Any], str, list[str]] | None:
    """(a new row easy to confuse with ``target``, how the two are told apart, the image values it
    shares: a dated row's title, the names in a title whose numbers differ), or None."""
    from ..world.schema import TABLES

    look = LOOKALIKES[table]
    spec = TABLES[table]
    row = {k: v for k, v in target.items() if k in spec.columns and k not in spec.auto_columns}
    key = spec.key
    taken = {r.get(key) for r in b.entities.get(table, [])}
    while True:  # a key no staged row has (a recipe may have set its rows' keys itself)
        row[key] = f"{look.strkey}_{b.new_id(table + '#')}" if look.strkey else b.new_id(table)
        if row[key] not in taken and row[key] not in b.wi.tables.get(table, {}):
            break
    by, shared = look.by, []
    if look.person:
        first = target.get("first_name") or ""
        taken = {c.get("last_name") for c in b.wi.contacts if c.get("first_name") == first} | {target.get("last_name")}
        last = b.rng.choice([n for n in pools.LAST_NAMES if n not in taken])
        domain = str(target.get("email") or "x@gmail.com").split("@")[-1]
        row.update(last_name=last, email=f"{first.lower()}.{last.lower()}@{domain}", phone_number=_fresh_phone(b))
        for col in ("home_address", "work_address", "birthday"):
            row[col] = None
    else:
        label = str(target.get(look.label) or "")
        if not label:
            return None
        read = b.image_values + b.derived + b.keys  # what the images show (keys: also on a staged page or row)
        if look.same_label and not _shows(label, read):  # a title the user names, not one read off the images
            row[look.label] = label
        else:
            near = near_label(b, label, read, look.label)
            if near is None and _DIGITS.search(label):
                # the title is made of what the images show: the same title with other numbers (another
                # invoice, another amount) -- only when its names are on the phone already (a stored row
                # the task checks), never the names of a row the task makes (a compare's winner)
                near = _other_digits(b, label)
                shared = [v for v in b.image_values if _shows(near, [v])]
                on_phone = json.dumps({t: rows for t, rows in b.entities.items() if t != "web_search.pages"},
                                      ensure_ascii=False, default=str)  # the phone's own rows, not the web
                if any(_numeric(v) for v in shared) or _shows(near, b.derived) \
                        or any(not _shows(on_phone, [v]) for v in shared) \
                        or any(_shows(near, [v]) and not _shows(on_phone, [v]) for v in b.keys):
                    return None
                by = "image detail"
            if near is None:
                return None
            row[look.label] = near
    back = _about_a_year(b)
    for col in look.when:
        if col in row:
            row[col] = _year_back(row[col], back)
    for col in look.text:
        if col in row and row[col]:
            row[col] = b.rng.choice(NEUTRAL_TEXT)
    row.update(look.fixed)
    row.update(look.vary(b, row))
    image_only = [v for v in b.image_values + b.derived if v not in shared]
    for col, value in list(row.items()):  # a side detail read off an image (an event's venue) is left out
        if col not in (key, look.label) and isinstance(value, str) and _shows(value, image_only):
            row[col] = None
    if _shows(json.dumps(row, ensure_ascii=False, default=str), [v for v in b.image_values + b.derived if v not in shared]):
        return None
    return row, by, shared


# ---------------------------------------------------------------------------- targets and the check
def _rounds(b: Build, parts: list[Part]) -> list[Any]:
    from ..scenario.model import _round

    return [_round({"query": p.request or "-", "solution": p.steps, "state_changes": p.state_changes}, "staging", len(b.imgs))
            for p in parts]


def _run(b: Build, parts: list[Part], entities: dict[str, list[dict[str, Any]]]):
    from .dryrun import SolutionError, play

    try:
        return play(_rounds(b, parts), entities, reference_time=b.now.isoformat(), user_id=b.wi.owner_id,
                    world_seed=b.wi.seed)
    except SolutionError:
        return None


_IDS = re.compile(r"(^|_)ids?$")


def _plain(value: Any) -> Any:
    """A lookup's result without ids (a look-alike's id can shift the ids the app gives new rows)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not _IDS.search(k) and k not in ("created_at", "updated_at")}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _signature(b: Build, parts: list[Part], run: Any) -> str:
    """What must not change: the expected changes and the lookups of rounds reporting facts the phone holds."""
    from ..tools.catalog import get_tool
    from .dryrun import IMAGE_VIEWS, expected_changes

    changes = sorted(json.dumps(c, sort_keys=True, default=str) for c in expected_changes(run.world))
    shown = {norm(v) for v in b.image_values + b.derived}
    reads = []
    for p, results in zip(parts, run.results):
        if not p.report or all(norm(f) in shown for f in p.report):
            continue
        steps = [st for st in p.steps if "name" in st and st["name"] not in IMAGE_VIEWS]
        for st, res in zip(steps, results):
            if not get_tool(st["name"]).writes:
                reads.append(_plain(res))
    return json.dumps([changes, reads], sort_keys=True, default=str)


def targets(b: Build, parts: list[Part], run: Any) -> dict[str, list[dict[str, Any]]]:
    """Rows of :data:`LOOKALIKES` tables the solution creates, updates or deletes, then the recipe's staged rows there."""
    out: dict[str, list[dict[str, Any]]] = {}
    for table, d in run.world.diff().items():
        if table in LOOKALIKES:  # rows the task makes are marked: their look-alike imitates a row not there yet ("new")
            out.setdefault(table, []).extend([*({**r, "_made_in": table} for r in d.created), *(before for before, _ in d.updated),
                                              *d.deleted])
        elif table in LOOKALIKE_TWINS:  # a row the task makes has a look-alike in a sibling table (a sent email: an old draft)
            twin, convert = LOOKALIKE_TWINS[table]
            out.setdefault(twin, []).extend({**convert(b, r), "_made_in": table} for r in d.created if convert(b, r))
    for table, rows in b.entities.items():
        if table in LOOKALIKES:
            out.setdefault(table, []).extend(rows)
    said = json.dumps([p.steps for p in parts], default=str)
    for c in b.wi.contacts:  # the people the solution writes to (an email, a text, a payment)
        if any(c.get(col) and f'"{c[col]}"' in said for col in ("email", "phone_number")):
            out.setdefault("phone.contacts", []).append(c)
    return out


def stage_lookalikes(b: Build, parts: list[Part]) -> list[dict[str, Any]]:
    """Add look-alikes of the rows the task touches to ``b.entities``; what was added (``metadata.lookalikes``)."""
    from ..world.schema import TABLES

    run = _run(b, parts, b.entities)
    if run is None:
        return []
    want = _signature(b, parts, run)
    plan: dict[str, list[tuple[dict[str, Any], Any, str, list[str]]]] = {}
    found = targets(b, parts, run)
    order = sorted(found, key=lambda t: (t == "phone.contacts", t))
    total = 0
    for rounds in (1, 2, 3, 4):
        for table in order:
            seen: set[str] = set()
            for target in found[table]:
                label = norm(str(target.get(LOOKALIKES[table].label) or ""))
                if not label or label in seen:
                    continue
                seen.add(label)
                if len(seen) > PER_TABLE or (rounds > 1 and total >= MIN_STAGED):
                    break
                if table == "phone.contacts" and not _person_named_in_full(b, parts, target):
                    continue
                made = make_lookalike(b, table, {k: v for k, v in target.items() if k != "_made_in"})
                labels = {norm(str(r.get(LOOKALIKES[table].label))) for r, *_ in plan.get(table, [])}
                if made is not None and (LOOKALIKES[table].person or norm(str(made[0].get(LOOKALIKES[table].label))) not in labels
                                         or LOOKALIKES[table].same_label):
                    made_in = target.get("_made_in")
                    of = target.get(TABLES[table].key) if made_in is None else "new" if made_in == table else f"new:{made_in}"
                    plan.setdefault(table, []).append((made[0], of, made[1], made[2]))
                    total += 1
        if total >= MIN_STAGED:
            break
    kept: list[dict[str, Any]] = []
    for table, rows in plan.items():
        trial = {t: list(r) for t, r in b.entities.items()}
        trial.setdefault(table, []).extend(r for r, _, _, _ in rows)
        run2 = _run(b, parts, trial)
        if run2 is None or _signature(b, parts, run2) != want:
            continue
        b.entities = trial
        key = TABLES[table].key
        for r, of, by, shared in rows:
            kept.append({"table": table, "key": r[key], "of": of if of is not None else "new", "by": by})
            for v in shared:  # on the phone now too (a key); the dates and numbers stay image-only
                b.keys.append(v)
                b.image_values[:] = [x for x in b.image_values if x != v]
    return kept


def _person_named_in_full(b: Build, parts: list[Part], contact: dict[str, Any]) -> bool:
    """A same-first-name contact is fair only when the request or an image gives the full name."""
    full = f"{contact.get('first_name', '')} {contact.get('last_name', '')}".strip()
    said = " ".join(p.request for p in parts) + " " + " ".join(json.dumps(im.render_spec(), ensure_ascii=False) for im in b.imgs)
    return bool(full) and norm(full) in norm(said)


# ---------------------------------------------------------------------------- state mutation on the staged world
# table -> (delete tool, its key argument, the column holding that argument's value, what the user calls the row)
DELETES: dict[str, tuple[str, str, str, str]] = {
    "simple_note.notes": ("simple_note_delete_note", "note_id", "id", "note"),
    "todoist.tasks": ("todoist_delete_task", "task_id", "id", "Todoist task"),
    "gmail.drafts": ("gmail_delete_draft", "draft_id", "id", "email draft"),
    "file_system.files": ("file_system_delete_file", "file_path", "path", "file"),
    "phone.alarms": ("alarms_delete_alarm", "alarm_id", "id", "alarm"),
    "reminder.reminders": ("remove_reminder", "reminder_id", "reminder_id", "reminder"),
    "calendar.events": ("remove_calendar_event", "calendar_event_id", "calendar_event_id", "calendar event"),
    "spotify.playlists": ("spotify_delete_playlist", "playlist_id", "id", "playlist"),
}
CLEANUP_ASKS = (
    "While you're in there, my old {noun} {name} is out of date now, so please delete it. Leave the current one alone.",
    "Also, I still have the old {noun} {name} lying around; delete that one, it's obsolete. Don't touch the new one.",
    "And please get rid of the outdated {noun} {name} - I don't need it any more, but keep everything else.",
)


def cleanup_part(b: Build, lookalikes: list[dict[str, Any]]) -> Part | None:
    """A state-mutation round: the user asks to delete one staged look-alike (the old one, not the one the task
    uses), named so that only it fits; None when no staged look-alike can be named that way."""
    from ..world.schema import TABLES
    from .core import call

    options = [e for e in lookalikes if e["table"] in DELETES]
    b.rng.shuffle(options)
    for e in options:
        table = e["table"]
        tool, arg, col, noun = DELETES[table]
        look, key = LOOKALIKES[table], TABLES[table].key
        row = next((r for r in b.entities.get(table, []) if r.get(key) == e["key"]), None)
        if row is None:
            continue
        label = str(row.get(look.label) or "")
        same = [r for r in list(b.wi.tables.get(table, {}).values()) + b.entities.get(table, [])
                if norm(str(r.get(look.label) or "")) == norm(label)]
        if not label or len(same) > 1 or _shows(label, b.image_values + b.derived + b.keys):
            continue  # one row only fits the name, and naming it gives nothing of the images away
        name = f"'{label}'" if col != "path" else label
        ask = b.rng.choice(CLEANUP_ASKS).format(noun=noun, name=name)
        part = Part(ask, [call(tool, **{arg: row[col]})], f"Deleted the old {noun} {name}; the current one is unchanged.",
                    kind="state_mutation", is_task=True, role="challenge")
        part.guidance.append(f"You want only the old {noun} {name} deleted, nothing else.")
        return part
    return None
