"""Recipes that act on what the images show unless the phone holds it already, as data.

A recipe of this shape (the cross references that add what is missing -- events, contacts -- and
the look-ups that act on every image -- a cart entry, a Venmo payment, a task) is one
:class:`MissingRow` read by one interpreter, :class:`AddMissing`. The row's ``seed`` (code: the
domain's rows) draws the images and may store some of what they show (``present``); in data it
says how a round treats each image (or each of its ``items``, e.g. the people on a roster): the
search (``look``), the call acting on it (``add``, saved under ``label`` + the image's index), the reply and summary line, the facts and the image values
the call writes; the calls made before the first round (``first``) or every round (``every``);
the detail of the request the user corrects (:class:`Detail`: the event length, the contacts'
tag, a quantity, a title) and the call repairing each addition; what a goal change switches to
(:class:`Instead`: another call per image, or one sink collecting the summary lines) and the row
the world adds when the user has added one themselves (``inserted``). A row without a detail,
an ``instead`` or ``inserted`` takes no such challenge.

Templates are resolved by :func:`.sinks.resolve` over the recipe's values (what ``seed`` drew, the
detail under its name) and the image's (what ``seed`` gave it and ``derive`` computes); ``"@..."``
refers to the result of the image's ``add``.
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
    draw: Callable[["AddMissing"], Any]  # from the recipe (its ``b``, its ``challenge``)
    other: Callable[[Any], Any]  # the value meant, from the one said
    said: Callable[[Any], str]  # how a value is said
    say: str  # the correction ({wrong}, {right}: as said)
    answer: str
    fix: Op  # repairs one addition


@dataclass(frozen=True)
class Instead:
    """What a goal change switches to: ``op`` per image (its reply ``bit``), or a ``sink`` for the summary lines."""

    request: str  # the goal change's request ({intent}: the sink's)
    answer: str  # ({done}: the sink's)
    op: Op | None = None
    bit: str = ""
    sink: SinkRow | None = None
    headline: str = ""  # the sink's payload headline


@dataclass(frozen=True)
class MissingRow:
    """A recipe of this shape as data (see the module docs); ``name`` is its row of :data:`.db_base.ABOUT`."""

    name: str
    table: str  # where ``inserted`` puts the user's own addition
    seed: Callable[[Build, int], tuple[Values, dict[int, Values]]]  # the recipe's values; per image: values with "present"
    look: Op
    add: Op
    added: tuple[str, str]  # the reply's sentence and the summary line of an addition
    settled: str = ""  # the reply about an item already there
    label: str = ""  # the stem of the label an addition is saved under
    remove: Op | None = None  # takes an addition back (goal change)
    instead: Instead | None = None  # None: no goal change
    detail: Detail | None = None  # None: no correction of the user's own detail
    inserted: Callable[[Build, Values], dict[str, Any]] | None = None  # the row the user added themselves (None: no state mutation)
    first: tuple[Op, ...] = ()  # calls before the first round's look-ups
    every: tuple[Op, ...] = ()  # calls before every round's look-ups
    keys: tuple[str, ...] = ()  # values every look-up searches by
    settled_facts: tuple[str, ...] = ()  # what the reply states about an item already there
    facts: tuple[str, ...] = ()  # what the reply states about an addition
    only: tuple[str, ...] = ()  # image values an addition writes
    derive: Callable[[Values], Values] = lambda v: {}
    slip: Callable[["AddMissing", list[int]], Slip | None] | None = None


class AddMissing(DBRecipe, engine=True):
    """The interpreter of :class:`MissingRow`: :func:`missing_recipe` makes one recipe class per row."""

    row: MissingRow

    @classmethod
    def offers(cls, hook: str) -> bool:
        return {"mistake": cls.row.detail is not None, "slip": cls.row.slip is not None}.get(hook, False)

    def setup(self, n: int) -> list[int]:
        d = self.row.detail
        detail = d.draw(self) if d is not None else None
        self.v, self.t = self.row.seed(self.b, n)
        if d is not None:
            self.v[d.name] = detail
        self.instead_sink = None
        return list(self.t)

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

    def _calls(self, o: Op, images: list[int]) -> list[dict[str, Any]]:
        return [fill(o, v, label) for i in images for label, v in self._entries(i)]

    def _added(self) -> list[int]:
        """The images checked so far whose item the assistant added."""
        return [i for i in self.done if not self.t[i]["present"] and i not in self.mutations]

    # ------------------------------------------------------------------ hooks
    def work(self, scope: list[int], first: bool) -> Work:
        row = self.row
        w = Work([fill(o, self.v) for o in (row.first if first else ()) + row.every])
        for i in scope:
            for label, v in self._entries(i):
                self.note(keys=texts(row.keys, v))
                if w.looked(fill(row.look, v, label), v["present"] or i in self.mutations, row.settled.format(**v)):
                    w.facts += texts(row.settled_facts, v)
                    continue
                if self.mode == "normal":
                    w.steps.append(fill(row.add, v, label))
                    w.bits.append(row.added[0].format(**v))
                elif row.instead.op is not None:
                    w.steps.append(fill(row.instead.op, v, label))
                    w.bits.append(row.instead.bit.format(**v))
                w.lines.append(row.added[1].format(**v))
                w.facts += texts(row.facts, v)
                self.note(only=texts(row.only, v))
        if self.instead_sink is not None and w.lines:
            w.steps += self.instead_sink.write(Payload(row.instead.headline, lines=list(w.lines)), additive=True)
            w.bits.append(self.instead_sink.done())
        return w

    def goal(self) -> tuple[str, list[dict[str, Any]], str]:
        ins, added = self.row.instead, self._added()
        if ins is None or self.row.remove is None:
            return super().goal()
        steps: list[dict[str, Any]] = []
        if ins.sink is None:
            for i in added:
                for label, v in self._entries(i):
                    steps += [fill(self.row.remove, v, label), fill(ins.op, v, label)]
            fmt: Values = {}
        else:
            self.instead_sink = ins.sink(self.b, ambiguous=False)
            steps += self._calls(self.row.remove, added)
            lines = [self.row.added[1].format(**v) for i in added for _, v in self._entries(i)]
            steps += self.instead_sink.write(Payload(ins.headline, lines=lines or ["(none yet)"]), additive=True)
            fmt = {"intent": self.instead_sink.intent(), "done": self.instead_sink.done()}
        self.mode = "instead"
        return ins.request.format(**fmt), steps, ins.answer.format(**fmt)

    def mistake(self) -> Mistake | None:
        d = self.row.detail
        if d is None:
            return None
        wrong = self.v[d.name]
        self.v[d.name] = d.other(wrong)
        fix = self._calls(d.fix, self._added())
        said = {"wrong": d.said(wrong), "right": d.said(self.v[d.name])}
        return Mistake(said["wrong"], said["right"], d.say.format(**said), fix, d.answer.format(**said))

    def slip(self, scope: list[int]) -> Slip | None:
        return self.row.slip(self, scope) if self.row.slip is not None else None

    def can_mutate(self, i: int) -> bool:
        return self.row.inserted is not None and not self.t[i]["present"]

    def mutate(self, i: int) -> dict[str, Any]:
        return {"op": "insert", "table": self.row.table, "row": self.row.inserted(self.b, self._entries(i)[0][1])}


def missing_recipe(row: MissingRow, module: str) -> type[AddMissing]:
    """The recipe class of ``row`` (named as the row; ``module``: where it is defined, for pickling)."""
    return type(row.name, (AddMissing,), {"row": row, "__module__": module, "__doc__": f"The cross-reference recipe of {row.name}'s row."})
