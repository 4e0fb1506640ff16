"""The rows of the generator's per-domain tables (``generation/domains/<domain>.py``) and their checks.

A table lists what the generator can do in one app: :class:`Read` (call a tool, report one value
of its result), :class:`Write` (call a create / update / delete tool; ``change`` names the
expected change) and :class:`Flow` (read in one app, write in two others). :func:`table` checks
every row when the domain's module is imported and raises :class:`TableError` naming the row and
what is wrong. :mod:`.engine` turns the rows into rounds. A domain also says, with one :class:`Look`
per table, how :mod:`.staging` makes look-alikes of the rows a task touches (``LOOKALIKES``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..tools.catalog import get_tool

if TYPE_CHECKING:
    from .core import Build

OWNER = "$owner"  # a where-value: the scenario owner's id
OPS = ("create", "update", "delete")


class TableError(ValueError):
    """A table row that cannot work (unknown tool or parameter, missing argument, bad change)."""


@dataclass(frozen=True)
class Rows:
    """Which world rows a table row may use: ``table`` filtered by ``where`` (equal values, or a
    predicate on the row); ``unique`` keeps only rows whose value in that column is unique, so the
    request names one row."""

    table: str
    where: dict[str, Any] | Callable[[dict[str, Any], Any], bool] = field(default_factory=dict)  # predicate(row, WorldIndex)
    unique: str | None = None


@dataclass(frozen=True)
class Read:
    tool: str
    args: dict[str, Any]
    pick: str | Callable[[Any], Any]  # a path into the result ("rating", "0.title", "songs.#") or a function
    asks: tuple[str, ...]
    answer: str
    rows: Rows | None = None
    pre: tuple[tuple[str, dict[str, Any]], ...] = ()  # steps a person's assistant takes first (a search by name)
    kind = "read"

    @property
    def tools(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.pre) + (self.tool,)


@dataclass(frozen=True)
class Write:
    tool: str
    args: dict[str, Any]
    asks: tuple[str, ...]
    answer: str
    change: tuple[str, str]  # (op, table) of the expected change
    rows: Rows | None = None
    values: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # dictated values, one drawn per name
    pre: tuple[tuple[str, dict[str, Any]], ...] = ()
    kind = "write"

    @property
    def tools(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.pre) + (self.tool,)


@dataclass(frozen=True)
class Flow:
    """Read in one app, then write in two others with what was read (``{v}`` in their arguments)."""

    read: Read
    writes: tuple[Write, ...]
    asks: tuple[str, ...]
    answer: str
    kind = "flow"

    @property
    def tools(self) -> tuple[str, ...]:
        return self.read.tools + tuple(t for w in self.writes for t in w.tools)


Row = Read | Write | Flow


# ---------------------------------------------------------------------------- checking rows
def _check_call(where: str, tool: str, args: dict[str, Any]) -> None:
    try:
        t = get_tool(tool)
    except Exception:
        raise TableError(f"{where}: unknown tool {tool!r}") from None
    names = {p.name for p in t.params}
    unknown = sorted(set(args) - names)
    if unknown:
        raise TableError(f"{where}: {tool} has no parameter {', '.join(unknown)} (it takes: {', '.join(sorted(names)) or 'none'})")
    missing = [p.name for p in t.params if p.required and p.name not in args]
    if missing:
        raise TableError(f"{where}: {tool} needs argument(s) {', '.join(missing)}")


def check_row(domain: str, row: Row, inner: bool = False) -> Row:
    """``row`` if it can work, else TableError saying what is wrong (``inner``: a step of a Flow, worded by the Flow)."""
    where = f"{domain} table, {getattr(row, 'tool', None) or row.kind} row"
    if isinstance(row, Flow):
        check_row(domain, row.read, inner=True)
        for w in row.writes:
            check_row(domain, w, inner=True)
        apps = {get_tool(row.read.tool).app} | {get_tool(w.tool).app for w in row.writes}
        if len(apps) < 3:
            raise TableError(f"{where}: a flow reads in one app and writes in two others; it uses {sorted(apps)}")
        if not row.asks or not row.answer:
            raise TableError(f"{where}: needs asks and an answer")
        return row
    if not isinstance(row, (Read, Write)):
        raise TableError(f"{where}: rows are Read, Write or Flow, got {type(row).__name__}")
    _check_call(where, row.tool, row.args)
    for tool, args in row.pre:
        _check_call(where + " (pre step)", tool, args)
    if not inner and (not row.asks or not all(isinstance(a, str) and a for a in row.asks) or not row.answer):
        raise TableError(f"{where}: needs at least one phrasing in asks and an answer")
    if isinstance(row, Write):
        op, table = row.change if isinstance(row.change, tuple) and len(row.change) == 2 else (None, None)
        if op not in OPS or not isinstance(table, str) or "." not in table:
            raise TableError(f"{where}: change must be (op, 'app.table') with op in {OPS}, got {row.change!r}")
        if not get_tool(row.tool).writes:
            raise TableError(f"{where}: {row.tool} does not write; use a Read row")
        for name, options in row.values.items():
            if not options:
                raise TableError(f"{where}: value {name!r} has no options")
    return row


def table(domain: str, *rows: Row) -> tuple[Row, ...]:
    """A domain's table, every row checked."""
    return tuple(check_row(domain, r) for r in rows)


# ---------------------------------------------------------------------------- look-alikes (staging)
@dataclass(frozen=True)
class Look:
    """How look-alikes of one table's rows are made.

    ``label``: the column a person names the row by; ``person``: a contact (same first name, another
    last name, fresh email and number); ``same_label``: a dated row that keeps the exact title and
    moves back a year; ``when``: date/datetime columns moved back a year; ``text``: free text
    replaced by a neutral older text; ``fixed``: columns every look-alike gets (an old task is done);
    ``strkey``: the prefix of a string key (``calendar_event_12``); ``by``: how the two are told apart.
    """

    label: str
    person: bool = False
    same_label: bool = False
    when: tuple[str, ...] = ()
    text: tuple[str, ...] = ()
    fixed: dict[str, Any] = field(default_factory=dict)
    fresh: tuple[str, ...] = ()
    strkey: str = ""
    by: str = "name"
    vary: Callable[[Build, dict[str, Any]], dict[str, Any]] = lambda b, row: {}  # (build, look-alike) -> columns it changes
