"""Validate recipes as data: one stored row per image, some stale; check each, fix the stale ones.

A validate recipe of this shape is one :class:`CheckRow` read by one interpreter, :class:`Check`.
The row seeds the rows (``seed``: code, as what a stale contact or event looks like is the
domain's), and says in data how a round treats each image's row: the search that finds it
(``look``), the write that fixes it (``fix``), the delete a goal change switches to (``remove``),
the fields the world sets right when the user has fixed it already (``right``, the state
mutation), the sentences and summary lines, the facts a reply states and the values it takes
from the image (``only``, ``keys``: what verification checks for derivability and necessity).

Calls are :func:`.sinks.op` rows; their argument templates are resolved by :func:`.sinks.resolve`
over the recipe's values (what ``seed`` drew for the whole recipe, ``option``) and the image's
(what ``seed`` gave it, ``key``: its row's key, ``stale``: whether -- or how -- the row is wrong,
and what the row's ``derive`` computes from them). A template that resolves to ``None`` leaves the
argument out.

An :class:`Option` is a detail the user may add to the request (a tag for every contact fixed, a
calendar to move every corrected event to): drawn for three requests in ten (always when the
user will correct it), stated by ``text``, written by ``args`` with every fix, and changed by
the error-correction round, whose ``fix`` call repairs each row fixed so far. A ``redo`` option
is part of what makes every row right (the hour every reminder goes off at): always drawn, and
its correction re-fixes every row checked so far, right or not, and every later one.

Two more variants: the world may delete a row instead of setting it right (``readd``: the round
that finds it gone adds it again, saved under ``r`` + the image's index), and the goal change
may change a recipe value every row's right state depends on (``redo``: the day before the due
date) and re-fix every row checked, instead of deleting the stale ones with ``remove``.

A :class:`Sheet` row keeps no row per image: each image is a line of one stored text (a note
listing a price per product, in the recipe value ``order``; the text's key is the value ``key``).
A round reads the text once and, when a line was stale, rewrites it whole; the state mutation
sets one line right, and the goal change puts the text back as it was and copies the corrected
one elsewhere, which later rounds read and rewrite instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .challenges import Slip
from .core import Build, ref
from .db_base import DBRecipe, Work
from .sinks import Mistake, Op, fill, resolve, texts

Values = dict[str, Any]


@dataclass(frozen=True)
class Option:
    """A detail the user may add to the request, and how they correct it (see the module docs)."""

    draw: Callable[["Check"], Any]  # the value the user asks for, from the recipe (its ``b``)
    text: str  # what the request adds ({option}: the value)
    args: dict[str, Any]  # templates added to every fix while the option is set
    other: Callable[[Build, Any], Any]  # the value the user meant, from the one they said
    name: Callable[[Any], str]  # how a value is said
    say: str  # the correction ({wrong}, {right}: as said)
    answer: str
    fix: Op  # repairs one row fixed so far
    redo: bool = False  # every row's right state depends on it (see the module docs)


@dataclass(frozen=True)
class Sheet:
    """The images' rows are lines of one stored text (see the module docs)."""

    line: str  # an image's line ({value}: the value the text holds for it, ``listed`` or the image's ``value``)
    look: tuple[Op, ...]  # a round's reads of the text
    write: Op  # rewrites the text ({text})
    settled: str  # the reply when no line of the round was stale
    copy: Op  # the goal change's copy of the corrected text (saved as "corrected")
    copy_look: tuple[Op, ...]  # a later round's reads of the copy
    copy_write: Op  # and its rewrite ("@..." refers to the copy)


@dataclass(frozen=True)
class CheckRow:
    """A validate recipe as data (see the module docs); ``name`` is its row of :data:`.db_base.ABOUT`."""

    name: str
    table: str
    seed: Callable[[Build, int], tuple[Values, dict[int, Values]]]  # the recipe's values; per image (in drawing order) its values
    look: Op | None  # None: a ``sheet`` row
    fix: Op | None
    remove: Op | None  # deletes a row (the goal change; None: the goal change is a ``redo``)
    right: dict[str, Any]  # the row's fields the world sets right (templates; unused with ``readd``)
    settled: str  # the reply when the row needs nothing (right already, or fixed by the user)
    fixed: tuple[str, str]  # the reply's sentence and the summary line of a fix
    removed: tuple[str, str] | None  # the same for a delete
    goal: tuple[str, str]  # the goal change's request ({said}: the option) and answer ({names}: the rows deleted)
    facts: tuple[str, ...] = ()  # what the reply to a fix states (None: left out)
    only: tuple[str, ...] = ()  # image values a fix writes
    keys: tuple[str, ...] = ()  # values a fix searches by
    name_of: str = "{label}"  # how a reply names an image's row
    derive: Callable[[Values], Values] = lambda t: {}
    option: Option | None = None
    slip: Callable[["Check", list[int]], Slip | None] | None = None
    readd: Op | None = None  # the world deletes the row (state mutation) and a round adds it again with this call
    readded: str = ""  # the reply about a row added again
    redo: Values | None = None  # the recipe values the goal change sets, re-fixing every row checked
    sheet: Sheet | None = None  # the rows are lines of one text


class Check(DBRecipe, engine=True):
    """The interpreter of :class:`CheckRow`: :func:`check_recipe` makes one recipe class per row."""

    row: CheckRow

    @classmethod
    def offers(cls, hook: str) -> bool:
        return {"mistake": cls.row.option is not None, "slip": cls.row.slip is not None}.get(hook, False)

    def setup(self, n: int) -> list[int]:
        b, o = self.b, self.row.option
        drawn = o is not None and (o.redo or self.challenge == "error_correction" or b.rng.random() < 0.3)
        self.option = o.draw(self) if drawn else None
        self.v, self.t = self.row.seed(b, n)
        return list(self.t)

    @property
    def option_text(self) -> str:
        """What the request adds for the option ("" without one)."""
        return self.row.option.text.format(option=self.option) if self.option is not None else ""

    @property
    def said(self) -> str:
        """The option as the user says it."""
        return self.row.option.name(self.option)

    # ------------------------------------------------------------------ the interpreter's parts
    def _values(self, i: int) -> Values:
        v = {**self.v, "option": self.option, **self.t[i]}
        if i in self.mutations and self.row.readd is not None:
            v["key"] = ref(f"r{i}", "")  # the row added again
        v.update(self.row.derive(v))
        return v

    @staticmethod
    def _call(o: Op, v: Values, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return fill(Op(o.tool, {**o.args, **(extra or {})}) if extra else o, v)

    def _fixed(self) -> list[int]:
        """The images checked so far whose row was stale and fixed by the assistant."""
        return [i for i in self.done if self.t[i]["stale"] and i not in self.mutations]

    def _text(self, right: set[int] = frozenset(), checked: bool = True) -> str:
        """The sheet's text: the lines of ``right`` (and of the rows checked) with the image's value, the others as stored."""
        def line(i: int) -> str:
            v = self._values(i)
            fixed = i in right or (checked and i in self.done)
            return self.row.sheet.line.format(**{**v, "value": v["value"] if fixed else v["listed"]})
        return "\n".join(line(i) for i in self.v["order"])

    def _sheet_work(self, scope: list[int]) -> Work:
        sh, w = self.row.sheet, Work()
        stale = [i for i in scope if self.t[i]["stale"] and i not in self.mutations]
        text = {**self.v, "text": self._text(right=set(scope))}
        if self.mode == "copy":
            w.steps = [fill(o, self.v, "corrected") for o in sh.copy_look] + [fill(sh.copy_write, text, "corrected")]
        else:
            w.steps = [fill(o, self.v) for o in sh.look] + ([fill(sh.write, text)] if stale else [])
        for i in stale:
            v = self._values(i)
            w.bits.append(self.row.fixed[0].format(**v))
            w.lines.append(self.row.fixed[1].format(**v))
            w.facts += texts(self.row.facts, v)
            self.note(only=texts(self.row.only, v), keys=texts(self.row.keys, v))
        if not stale:
            w.bits.append(sh.settled)
        return w

    # ------------------------------------------------------------------ hooks
    def work(self, scope: list[int], first: bool) -> Work:
        if self.row.sheet is not None:
            return self._sheet_work(scope)
        row, w = self.row, Work()
        for i in scope:
            v = self._values(i)
            gone = i in self.mutations and row.readd is not None
            settled = not gone and ((not v["stale"] and self.mode != "redo") or i in self.mutations)
            if w.looked(self._call(row.look, v), settled, row.settled.format(**v)):
                continue
            if gone:
                w.steps.append(fill(row.readd, v, f"r{i}"))
                w.bits.append(row.readded.format(**v))
                w.facts += texts(row.facts, v)
                self.note(only=texts(row.only, v))
                continue
            if self.mode == "delete":
                w.did(self._call(row.remove, v), *(s.format(**v) for s in row.removed), row.name_of.format(**v))
                continue
            extra = row.option.args if self.option is not None else None
            w.did(self._call(row.fix, v, extra), *(s.format(**v) for s in row.fixed), *texts(row.facts, v))
            self.note(only=texts(row.only, v), keys=texts(row.keys, v))
        return w

    def _redo(self) -> list[dict[str, Any]]:
        """From now on every row is fixed; the fixes of the rows checked so far."""
        self.mode = "redo"
        extra = self.row.option.args if self.option is not None else None
        return [self._call(self.row.fix, self._values(i), extra) for i in self.done]

    def goal(self) -> tuple[str, list[dict[str, Any]], str]:
        row, fixed = self.row, self._fixed()
        names = ", ".join(row.name_of.format(**self._values(i)) for i in fixed) or "none so far"
        said = {**self.v, "said": self.said if self.option is not None else "", "names": names}
        request, answer = (t.format(**said) for t in row.goal)
        if row.sheet is not None:  # the text as it was (with the lines the user set right), and the corrected copy
            steps = [fill(row.sheet.write, {**self.v, "text": self._text(right=set(self.mutations), checked=False)}),
                     fill(row.sheet.copy, {**self.v, "text": self._text()}, "corrected")]
            self.mode = "copy"
        elif row.redo is not None:
            self.v.update(row.redo)
            steps = self._redo()
        else:
            self.mode = "delete"
            steps = [self._call(row.remove, self._values(i)) for i in fixed]
        return request, steps, answer

    def mistake(self) -> Mistake | None:
        o = self.row.option
        if o is None or self.option is None:
            return None
        wrong = self.option
        self.option = o.other(self.b, wrong)
        fix = self._redo() if o.redo else [self._call(o.fix, self._values(i)) for i in self._fixed()]
        said = {"wrong": o.name(wrong), "right": o.name(self.option)}
        return Mistake(said["wrong"], said["right"], o.say.format(**said), fix, o.answer.format(**said))

    def slip(self, scope: list[int]) -> Slip | None:
        return self.row.slip(self, scope) if self.row.slip is not None else None

    def can_mutate(self, i: int) -> bool:
        return self.row.readd is not None or bool(self.t[i]["stale"])

    def mutate(self, i: int) -> dict[str, Any]:
        v = self._values(i)
        if self.row.readd is not None:
            return {"op": "delete", "table": self.row.table, "key": v["key"]}
        if self.row.sheet is not None:
            v["text"] = self._text(right={i})
        return {"op": "update", "table": self.row.table, "key": v["key"],
                "fields": {k: resolve(a, v, "") for k, a in self.row.right.items()}}


def check_recipe(row: CheckRow, module: str) -> type[Check]:
    """The recipe class of ``row`` (named as the row; ``module``: where it is defined, for pickling)."""
    return type(row.name, (Check,), {"row": row, "__module__": module, "__doc__": f"The validate recipe of {row.name}'s row."})
