"""Recipes that act on what the images show unless the phone holds it already, as data.

A recipe of this shape (the cross references that add what is missing -- events, contacts,
errands -- or act on the stored tasks an image matches, and the look-ups that act on every
image -- a cart entry, a Venmo payment, a task) is one :class:`MissingRow` read by one
interpreter, :class:`AddMissing`. The row's ``seed`` (code: the domain's rows) draws the images
and may store some of what they show (``present``, per image or per item); in data it says how a
round treats each image (or each of its ``items``, e.g. the people on a roster): the search
(``look``; None: the round's calls list every item), the calls acting on it (``add``, ``also``;
saved under ``label`` + the image's index [+ "_" + the item's]), the reply and summary line, the
facts and the image values the calls write; the calls made before the first round (``first``)
or every round (``every``); the detail of the request the user corrects (:class:`Detail`: the
event length, the contacts' tag, a quantity, a title, a due date, a playlist) and the call repairing each
addition (after its ``undo``); what a goal change switches to (:class:`Instead`: another call per image, or one sink
collecting the summary lines; what it does to each addition made) and the row the world adds when
the user has done one item themselves (``inserted``), or the change they made (``own``). A row
without a detail, an ``instead`` or ``inserted``/``own`` takes no such challenge.

A row without ``add`` makes no call per item: its summary lines are its output, written each
round to a sink drawn among its ``sinks`` (which cards paid which receipts: a note, a file, a
draft, a task, an email); the user's correction is then the sink's own (its :class:`.sinks.Fix`:
the note's title, the file's path), and a goal change moves the lines to another sink.

Templates are resolved by :func:`.sinks.resolve` over the recipe's values (what ``seed`` drew, the
detail under its name) and the image's (what ``seed`` gave it and ``derive`` computes); ``"@..."``
refers to the result saved under the image's (or item's) label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .challenges import Slip
from .core import Build, Payload
from .db_base import DBRecipe, Work
from .sinks import Mistake, Op, SinkRow, fill, texts

Values = dict[str, Any]


@dataclass(frozen=True)
class Detail:
    """A detail of the request (stored as the recipe value ``name``) that the user corrects later."""

    name: str
    draw: Callable[["AddMissing"], Any] | None  # from the recipe (its ``b``, its ``challenge``; None: ``seed`` gives it)
    other: Callable[[Any], Any] | None  # the value meant, from the one said (None: the recipe value ``meant``)
    said: Callable[[Any], str]  # how a value is said
    say: str  # the correction ({wrong}, {right}: as said)
    answer: str
    fix: Op  # repairs one addition
    undo: Op | None = None  # takes one addition back (with the value said) before its ``fix``
    pre: tuple[Op, ...] = ()  # calls before the repairs
    meant: str = ""


@dataclass(frozen=True)
class Instead:
    """What a goal change switches to: ``op`` per image (its reply ``bit``), or a ``sink`` for the summary lines."""

    request: str  # the goal change's request ({intent}: the new sink's; {noun}: what the old one made)
    answer: str  # ({done}: the new sink's)
    op: Op | None = None
    bit: str = ""
    sinks: tuple[SinkRow, ...] = ()  # the sink: the first of these the recipe has not written to
    switch: tuple[Op, ...] | None = None  # what the goal change does to each addition made (None: the row's ``remove``, then ``op``)
    pre: tuple[Op, ...] = ()  # calls before the goal change's others


@dataclass(frozen=True)
class MissingRow:
    """A recipe of this shape as data (see the module docs); ``name`` is its row of :data:`.db_base.ABOUT`."""

    name: str
    table: str  # where ``inserted`` puts the user's own addition
    seed: Callable[[Build, int], tuple[Values, dict[int, Values]]]  # the recipe's values; per image: values with "present"
    look: Op | None  # None: the round's ``every`` calls show every item at once
    add: Op | None  # None: the summary lines go to a sink (``sinks``)
    added: tuple[str, str]  # the reply's sentence and the summary line of an addition
    settled: str = ""  # the reply about an item already there
    label: str = ""  # the stem of the label an addition is saved under
    remove: Op | None = None  # takes an addition back (goal change)
    instead: Instead | None = None  # None: no goal change
    detail: Detail | None = None  # None: no correction of the user's own detail
    inserted: Callable[[Build, Values], dict[str, Any]] | None = None  # the row the user added themselves (None: no state mutation)
    own: Callable[[Build, Values], dict[str, Any]] | None = None  # or the state change of the user doing one item themselves
    also: tuple[Op, ...] = ()  # further calls of an addition, after ``add``
    first: tuple[Op, ...] = ()  # calls before the first round's look-ups
    every: tuple[Op, ...] = ()  # calls before every round's look-ups
    keys: tuple[str, ...] = ()  # values every look-up searches by
    settled_facts: tuple[str, ...] = ()  # what the reply states about an item already there
    facts: tuple[str, ...] = ()  # what the reply states about an addition
    only: tuple[str, ...] = ()  # image values an addition (or its repair) writes
    derive: Callable[[Values], Values] = lambda v: {}
    slip: Callable[["AddMissing", list[int]], Slip | None] | None = None
    sinks: tuple[SinkRow, ...] = ()  # where a row without ``add`` writes (one drawn per scenario)
    headline: str = ""  # the headline of the lines a sink is given


class AddMissing(DBRecipe, engine=True):
    """The interpreter of :class:`MissingRow`: :func:`missing_recipe` makes one recipe class per row."""

    row: MissingRow

    @classmethod
    def offers(cls, hook: str) -> bool:
        return {"mistake": cls.row.detail is not None or bool(cls.row.sinks), "slip": cls.row.slip is not None}.get(hook, False)

    def setup(self, n: int) -> list[int]:
        d = self.row.detail
        drawn = d is not None and d.draw is not None
        detail = d.draw(self) if drawn else None
        self.v, self.t = self.row.seed(self.b, n)
        if drawn:
            self.v[d.name] = detail
        self.sink = None  # where the summary lines are written
        if self.row.sinks:  # the correction is the sink's own; a goal change takes it back
            fits = [r for r in self.row.sinks if (self.challenge != "error_correction" or r.fix is not None)
                    and (self.challenge != "goal_change" or r.undoable)]
            self.sink = self.b.rng.choice(fits)(self.b)
        self.own_done: set[str] = set()  # the labels of the items the user did themselves
        return list(self.t)

    @property
    def sink_intent(self) -> str:
        return self.sink.intent()

    @property
    def said(self) -> str:
        """The detail as the request says it."""
        return self.row.detail.said(self.v[self.row.detail.name])

    def _entries(self, i: int) -> list[tuple[str, Values]]:
        """What image ``i`` asks to act on -- itself, or each of its ``items`` -- with the label its result is saved under."""
        image = {**self.v, **self.t[i]}
        items = self.t[i].get("items")
        entries = [(f"{self.row.label}{i}", image)] if items is None else [
            (f"{self.row.label}{i}_{k}", {**image, **item}) for k, item in enumerate(items)]
        for _, v in entries:
            v.update(self.row.derive(v))
        return entries

    def _added(self) -> list[tuple[str, Values]]:
        """The items checked so far that the assistant added, with their labels."""
        return [(label, v) for i in self.done for label, v in self._entries(i) if not v["present"] and label not in self.own_done]

    # ------------------------------------------------------------------ hooks
    def work(self, scope: list[int], first: bool) -> Work:
        row = self.row
        w = Work([fill(o, self.v) for o in (row.first if first else ()) + row.every])
        for i in scope:
            for label, v in self._entries(i):
                self.note(keys=texts(row.keys, v))
                if row.look is not None:
                    w.steps.append(fill(row.look, v, label))
                if v["present"] or label in self.own_done:
                    w.bits.append(row.settled.format(**v))
                    w.facts += texts(row.settled_facts, v)
                    continue
                if self.mode == "instead" and row.instead.op is not None:
                    w.steps.append(fill(row.instead.op, v, label))
                    w.bits.append(row.instead.bit.format(**v))
                elif self.mode == "normal" or row.add is None:
                    w.steps += [fill(o, v, label) for o in (row.add, *row.also) if o is not None]
                    w.bits.append(row.added[0].format(**v))
                w.lines.append(row.added[1].format(**v))
                w.facts += texts(row.facts, v)
                self.note(only=texts(row.only, v))
        if self.sink is not None and w.lines:
            if self.sink.clarify and not self.sink.created:  # its first write asks which contact is meant
                w.clarifications.append(self.sink.clarify)
            w.steps += self.sink.write(Payload(row.headline, lines=list(w.lines)), additive=True)
            w.bits.append(self.sink.done())
        return w

    def goal(self) -> tuple[str, list[dict[str, Any]], str]:
        ins, added = self.row.instead, self._added()
        if ins is None or (ins.switch is None and self.row.remove is None and not ins.sinks):
            return super().goal()
        steps = [fill(o, self.v) for o in ins.pre]
        if not ins.sinks:
            switch = ins.switch if ins.switch is not None else (self.row.remove, ins.op)
            steps += [fill(o, v, label) for label, v in added for o in switch]
            fmt: Values = {}
        else:
            old = self.sink
            self.sink = next(r for r in ins.sinks if old is None or r is not old.row)(self.b, ambiguous=False)
            steps += old.undo() if old is not None else []
            steps += [fill(self.row.remove, v, label) for label, v in added] if self.row.remove is not None else []
            lines = [self.row.added[1].format(**v) for _, v in added]
            steps += self.sink.write(Payload(self.row.headline, lines=lines or ["(none yet)"]), additive=True)
            fmt = {"intent": self.sink.intent(), "done": self.sink.done(), "noun": old.noun if old is not None else ""}
        self.mode = "instead"
        return ins.request.format(**self.v, **fmt), steps, ins.answer.format(**fmt)

    def mistake(self) -> Mistake | None:
        d = self.row.detail
        if d is None:
            return self.sink.mistake() if self.sink is not None else None
        wrong = self.v[d.name]
        undo = [fill(d.undo, v, label) if d.undo is not None else None for label, v in self._added()]
        self.v[d.name] = self.v[d.meant] if d.other is None else d.other(wrong)
        added = self._added()
        fix = [fill(o, self.v) for o in d.pre]
        fix += [c for k, (label, v) in enumerate(added) for c in (undo[k], fill(d.fix, v, label)) if c is not None]
        self.note(only=[x for _, v in added for x in texts(self.row.only, v)])
        said = {"wrong": d.said(wrong), "right": d.said(self.v[d.name])}
        return Mistake(said["wrong"], said["right"], d.say.format(**said), fix, d.answer.format(**said))

    def slip(self, scope: list[int]) -> Slip | None:
        return self.row.slip(self, scope) if self.row.slip is not None else None

    def can_mutate(self, i: int) -> bool:
        return (self.row.inserted or self.row.own) is not None and any(not v["present"] for _, v in self._entries(i))

    def mutate(self, i: int) -> dict[str, Any]:
        label, v = next((label, v) for label, v in self._entries(i) if not v["present"])
        self.own_done.add(label)
        if self.row.own is not None:
            return self.row.own(self.b, v)
        return {"op": "insert", "table": self.row.table, "row": self.row.inserted(self.b, v)}


def missing_recipe(row: MissingRow, module: str) -> type[AddMissing]:
    """The recipe class of ``row`` (named as the row; ``module``: where it is defined, for pickling)."""
    return type(row.name, (AddMissing,), {"row": row, "__module__": module, "__doc__": f"The cross-reference recipe of {row.name}'s row."})
