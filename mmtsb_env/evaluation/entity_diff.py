"""Entity-diff F1: how well the world's changes match a scenario's expected changes.

Definition (see ``docs/evaluation.md`` for worked examples):

* Changes are grouped by ``(table, operation)``, operation in create/update/delete.
* In a group with ``N`` expected and ``M`` actual rows, each (expected, actual) pair gets a
  similarity in 0..1: for a create the mean of the per-column measures over the expected row's
  compared columns; for an update the same over the expected fields, and only when the keys
  agree (with ``strict_updates``, every other non-bookkeeping column the agent changed in that
  row adds a 0 to the mean); for a delete 1 when the keys agree, else 0.
* Pairs are chosen by the Hungarian method (maximum total similarity). ``S`` = sum of the
  chosen similarities; precision = ``S / M``, recall = ``S / N``.
* Precision and recall are macro-averaged over groups; F1 = 2PR / (P + R). No expectations and
  no changes gives P = R = F1 = 1.

**Collateral damage.** A group with changes but no expectation scores precision 0, recall 1, so
writing where nothing was asked costs score even when everything asked was done. Two refinements
keep bookkeeping from counting: updates that change only a table's auto columns (timestamps such
as ``last_logged_in``) are not changes at all, and changes matching an :class:`Exemption` (by
default: app-created notifications, login sessions, verification codes, gmail's thread records) are listed in
``EntityScore.exempted`` instead of being scored -- unless the scenario expects changes in that
same (table, operation), in which case they are scored normally.

>>> from mmtsb_env.scenario.model import ExpectedChange
>>> from mmtsb_env.world.store import TableDiff
>>> want = [ExpectedChange("create", "simple_note.notes", row={"title": "Trip", "content": "Pack the tent"})]
>>> got = {"simple_note.notes": TableDiff(created=[{"id": 9, "title": "trip", "content": "Pack tent"}])}
>>> s = score_changes(want, got); (s.precision, s.recall, s.f1)
(0.9, 0.9, 0.9)
>>> got["phone.alarms"] = TableDiff(deleted=[{"id": 3}])
>>> score_changes(want, got).f1   # P = (0.9 + 0) / 2 = 0.45, R = (0.9 + 1) / 2 = 0.95
0.610714
"""

from __future__ import annotations

import fnmatch
import itertools
from collections import Counter
from operator import itemgetter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..scenario.model import ExpectedChange
from ..world.schema import TABLES
from ..world.store import TableDiff
from .similarity import DEFAULT_TOLERANCES, Tolerances, measure_for, scenario_tolerances

OPERATIONS = ("create", "update", "delete")
OP_KEYS = {"create": "created", "update": "updated", "delete": "deleted"}


# ---------------------------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exemption:
    """Changes that are bookkeeping, not the agent's doing: never counted as collateral damage.

    ``table`` is a name or an ``fnmatch`` pattern (``"*.notifications"``); ``operations`` the
    operations it covers; ``columns``, when given, limits an update exemption to updates that
    change only those columns (plus the table's auto columns).
    """

    table: str
    operations: tuple[str, ...] = OPERATIONS
    columns: frozenset[str] = frozenset()
    why: str = ""

    def covers(self, table: str, op: str, changed: Iterable[str] | None = None) -> bool:
        if op not in self.operations or not fnmatch.fnmatchcase(table, self.table):
            return False
        if self.columns and op == "update" and changed is not None:
            return set(changed) <= self.columns
        return not self.columns or op == "update"


ENTITY_SCOPES = ("all", "reference")

DEFAULT_EXEMPTIONS: tuple[Exemption, ...] = (
    Exemption("*.notifications", ("create",), why="apps notify people when a payment/expense/share happens"),
    Exemption("device.app_sessions", why="logging in to an app is procedure, not an outcome"),
    Exemption("device.verification_codes", ("create", "update"), why="codes are sent/used by account procedures"),
    Exemption("gmail.global_email_threads", why="gmail's thread records follow its emails and mailbox states"),
    Exemption("gmail.user_email_threads", why="gmail's thread records follow its emails and mailbox states"),
)


@dataclass(frozen=True)
class ScoringConfig:
    """Knobs of the entity-diff scorer (the defaults are the documented evaluator)."""

    tolerances: Tolerances = DEFAULT_TOLERANCES
    exemptions: tuple[Exemption, ...] = DEFAULT_EXEMPTIONS
    strict_updates: bool = True
    ignore_tables: frozenset[str] = frozenset()
    # "all": every changed table counts (unexpected writes anywhere cost precision); "reference": only
    # the (table, operation) groups the expected changes name, as the reference's evaluator scores
    # (it never looks at, say, an update of a staged row in a table where only creates are expected).
    scope: str = "all"

    def __post_init__(self) -> None:
        if self.scope not in ENTITY_SCOPES:
            raise ValueError(f"scope={self.scope!r} is not valid; choose one of: {', '.join(ENTITY_SCOPES)}")

    @classmethod
    def for_scenario(cls, scenario: Any, **knobs: Any) -> "ScoringConfig":
        """The documented evaluator for ``scenario``: its read tolerances (``metadata.value_tolerances``:
        a chart value read off its axis is right within its tolerance) on the default tolerances."""
        return cls(tolerances=scenario_tolerances(getattr(scenario, "metadata", None) or {}), **knobs)

    def exempt(self, table: str, op: str, changed: Iterable[str] | None = None) -> bool:
        return any(e.covers(table, op, changed) for e in self.exemptions)


DEFAULT_CONFIG = ScoringConfig()


def resolve_scope(setting: str, scenario: Any) -> str:
    """The scope an episode is scored with: ``"all"`` or ``"reference"``.

    ``setting`` is the episode's ``entity_scope``: ``"all"``, ``"reference"``, or ``"auto"``
    (``"reference"`` for a scenario imported from the reference's format -- its expected changes
    were written for the reference's evaluator -- and ``"all"`` for ours).

    >>> class S: metadata = {"imported_from": "scenario_0017.json"}
    >>> resolve_scope("auto", S()), resolve_scope("all", S())
    ('reference', 'all')
    """
    if setting == "auto":
        return "reference" if (getattr(scenario, "metadata", None) or {}).get("imported_from") else "all"
    if setting not in ENTITY_SCOPES:
        raise ValueError(f"entity_scope={setting!r} is not valid; choose one of: auto, {', '.join(ENTITY_SCOPES)}")
    return setting


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass
class PairScore:
    """One expected row paired with one actual row."""

    expected: int  # index in the group's expected list
    actual: int  # index in the group's actual list
    score: float
    columns: dict[str, tuple[float, str]] = field(default_factory=dict)  # column -> (score, measure name)
    extra_columns: tuple[str, ...] = ()  # update: columns changed but not expected (scored 0)

    def to_json(self) -> dict[str, Any]:
        return {"expected": self.expected, "actual": self.actual, "score": self.score,
                "columns": {c: [s, m] for c, (s, m) in self.columns.items()}, "extra_columns": list(self.extra_columns)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "PairScore":
        return cls(int(d["expected"]), int(d["actual"]), float(d["score"]),
                   {c: (float(v[0]), str(v[1])) for c, v in d.get("columns", {}).items()},
                   tuple(d.get("extra_columns", ())))


@dataclass
class GroupScore:
    """Precision/recall of one (table, operation) group."""

    table: str
    operation: str
    precision: float
    recall: float
    n_expected: int
    n_actual: int
    pairs: list[tuple[int, int, float]] = field(default_factory=list)  # (expected idx, actual idx, score)
    details: list[PairScore] = field(default_factory=list)
    expected_index: list[int] = field(default_factory=list)  # positions in the scenario's expected list
    actual_keys: list[Any] = field(default_factory=list)  # primary keys of the actual rows

    @property
    def unpaired_actual(self) -> list[int]:
        paired = {p[1] for p in self.pairs}
        return [j for j in range(self.n_actual) if j not in paired]

    @property
    def unpaired_expected(self) -> list[int]:
        paired = {p[0] for p in self.pairs}
        return [i for i in range(self.n_expected) if i not in paired]

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table, "operation": self.operation, "precision": self.precision,
            "recall": self.recall, "n_expected": self.n_expected, "n_actual": self.n_actual,
            "pairs": [list(p) for p in self.pairs], "details": [d.to_json() for d in self.details],
            "expected_index": list(self.expected_index), "actual_keys": list(self.actual_keys),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "GroupScore":
        return cls(str(d["table"]), str(d["operation"]), float(d["precision"]), float(d["recall"]),
                   int(d["n_expected"]), int(d["n_actual"]), [(int(a), int(b), float(s)) for a, b, s in d.get("pairs", [])],
                   [PairScore.from_json(x) for x in d.get("details", [])], list(d.get("expected_index", [])),
                   list(d.get("actual_keys", [])))


@dataclass
class EntityScore:
    """Overall precision/recall/F1 with the per-group breakdown."""

    precision: float
    recall: float
    f1: float
    groups: list[GroupScore]
    exempted: list[str] = field(default_factory=list)  # "table:operation key" of exempted changes

    @property
    def unexpected_groups(self) -> list[GroupScore]:
        """Groups with changes but no expectation: collateral damage."""
        return [g for g in self.groups if g.n_expected == 0]

    @property
    def n_expected(self) -> int:
        return sum(g.n_expected for g in self.groups)

    def to_json(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1,
                "groups": [g.to_json() for g in self.groups], "exempted": list(self.exempted)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "EntityScore":
        """Rebuild from :meth:`to_json` output (e.g. ``EpisodeRecord.entity``)."""
        if not d:
            return cls(0.0, 0.0, 0.0, [])
        return cls(float(d["precision"]), float(d["recall"]), float(d["f1"]),
                   [GroupScore.from_json(g) for g in d.get("groups", [])], list(d.get("exempted", [])))


# ---------------------------------------------------------------------------------------------
# Expectations and diffs in every accepted form
# ---------------------------------------------------------------------------------------------


def coerce_expected(items: Iterable[Any], table_map: Mapping[str, str] | None = None) -> list[ExpectedChange]:
    """Expected changes from :class:`ExpectedChange` objects, our JSON dicts, or reference specs.

    A dict with ``entity_data``/``expected_fields``/``source``/``namespace`` is read as a reference
    ``entity_diff_specs`` item (see :func:`~.reference_specs.from_reference_specs`).
    """
    from .reference_specs import from_reference_specs, is_reference_spec

    out: list[ExpectedChange] = []
    for i, item in enumerate(items):
        if isinstance(item, ExpectedChange):
            out.append(item)
        elif isinstance(item, Mapping) and is_reference_spec(item):
            out.extend(from_reference_specs([item], table_map))
        elif isinstance(item, Mapping):
            try:
                out.append(ExpectedChange(operation=item["operation"], table=item["table"], row=item.get("row"),
                                          key=item.get("key"), fields=item.get("fields"),
                                          measures=dict(item.get("measures", {}))))
            except KeyError as exc:
                raise ValueError(f"expected change [{i}]: missing {exc.args[0]!r}") from None
        else:
            raise TypeError(f"expected change [{i}]: cannot read a {type(item).__name__}")
    return out


def _as_table_diff(d: Any) -> TableDiff:
    if isinstance(d, TableDiff):
        return d
    return TableDiff(
        created=list(d.get("created", [])),
        updated=[(u["before"], u["after"]) if isinstance(u, Mapping) else tuple(u) for u in d.get("updated", [])],
        deleted=list(d.get("deleted", [])),
        carried_off=list(d.get("carried_off", [])),
    )


def _key_column(table: str) -> str:
    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def _auto_columns(table: str) -> frozenset[str]:
    spec = TABLES.get(table)
    return spec.auto_columns if spec is not None else frozenset()


def _same_key(a: Any, b: Any) -> bool:
    return a == b or (a is not None and b is not None and str(a) == str(b))


def changed_columns(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    cols = set(before) | set(after)
    return sorted(c for c in cols if before.get(c) != after.get(c))


# ---------------------------------------------------------------------------------------------
# Pair and group scoring
# ---------------------------------------------------------------------------------------------


def _measure_name(fn: Any) -> str:
    return getattr(getattr(fn, "func", fn), "__name__", "measure")


Plan = tuple  # ((column, expected value, measure fn, measure name), ...)


def column_plan(expected: Mapping[str, Any], measures: Mapping[str, str], table: str, *, skip_empty: bool,
                tol: Tolerances = DEFAULT_TOLERANCES) -> Plan:
    """Which columns of ``expected`` are compared, and with which measure (computed once per change).

    Not compared: columns with an ``ignore`` measure, and -- unless a measure is named -- the
    table's key and auto columns, and (when ``skip_empty``) empty expected values.
    """
    skip = _auto_columns(table) | {_key_column(table)}
    plan = []
    for col, value in expected.items():
        explicit = measures.get(col)
        if explicit is None and (col in skip or (skip_empty and (value is None or value == "" or value == []))):
            continue
        fn = measure_for(col, value, explicit, tol)
        if fn is not None:
            plan.append((col, value, fn, _measure_name(fn)))
    return tuple(plan)


def _apply(plan: Plan, actual: Mapping[str, Any]) -> dict[str, tuple[float, str]]:
    return {col: (float(fn(value, actual.get(col))), name) for col, value, fn, name in plan}


def compare_columns(expected: Mapping[str, Any], actual: Mapping[str, Any], measures: Mapping[str, str], table: str,
                    *, skip_empty: bool, tol: Tolerances = DEFAULT_TOLERANCES) -> dict[str, tuple[float, str]]:
    """Per-column ``(score, measure name)`` for the compared columns of ``expected`` (see :func:`column_plan`)."""
    return _apply(column_plan(expected, measures, table, skip_empty=skip_empty, tol=tol), actual)


def row_similarity(expected: dict[str, Any], actual: dict[str, Any], measures: dict[str, str], table: str,
                   tol: Tolerances = DEFAULT_TOLERANCES) -> float:
    """Mean similarity over the compared columns of an expected row (1.0 if none is compared)."""
    cols = compare_columns(expected, actual, measures, table, skip_empty=True, tol=tol)
    return float(sum(s for s, _ in cols.values()) / len(cols)) if cols else 1.0


def plan_for(change: ExpectedChange, cfg: ScoringConfig) -> Plan:
    if change.operation == "create":
        return column_plan(change.row or {}, change.measures, change.table, skip_empty=True, tol=cfg.tolerances)
    if change.operation == "update":
        return column_plan(change.fields or {}, change.measures, change.table, skip_empty=False, tol=cfg.tolerances)
    return ()


def _pair_score(change: ExpectedChange, op: str, item: Any, table: str, cfg: ScoringConfig,
                plan: Plan | None = None) -> tuple[float, dict, tuple]:
    """(score, column scores, extra changed columns) of one expected change against one actual item."""
    if plan is None:
        plan = plan_for(change, cfg)
    if op == "create":
        cols = _apply(plan, item)
        extra: tuple[str, ...] = ()
    elif op == "update":
        before, after = item
        if not _same_key(after.get(_key_column(table)), change.key):
            return 0.0, {}, ()
        cols = _apply(plan, after)
        extra = ()
        if cfg.strict_updates:
            ignored = _auto_columns(table) | set(change.fields or {}) | {_key_column(table)}
            extra = tuple(c for c in changed_columns(before, after) if c not in ignored)
    else:
        if not _same_key(item.get(_key_column(table)), change.key):
            return 0.0, {}, ()
        return 1.0, {}, ()
    n = len(cols) + len(extra)
    score = (sum(s for s, _ in cols.values()) / n) if n else 1.0
    return round(float(score), 6), cols, extra


def _create_value(plan: Plan, row: Mapping[str, Any]) -> float:
    """The score :func:`_pair_score` gives a create pair, without its per-column details."""
    if not plan:
        return 1.0
    return round(float(sum([float(fn(value, row.get(col))) for col, value, fn, _ in plan]) / len(plan)), 6)


def _assign(sim: np.ndarray) -> list[tuple[int, int]]:
    n, m = sim.shape
    if n == 1:
        return [(0, int(np.argmax(sim[0])))]
    if m == 1:
        return [(int(np.argmax(sim[:, 0])), 0)]
    from scipy.optimize import linear_sum_assignment  # lazy: scipy.optimize costs ~0.4 s to import

    rows, cols = linear_sum_assignment(sim, maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, cols)]


def _row_of(op: str, item: Any) -> Mapping[str, Any]:
    return item[1] if op == "update" else item


def _anchors(op: str, item: Any) -> tuple[Any, ...]:
    return (item[0], item[1]) if op == "update" else (item,)


def _same_objects(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


# Largest number of (expected, actual) pairs a create group scores exhaustively. Past it (a policy
# that wrote thousands of rows against many expected ones) scoring stays bounded: exact matches
# are paired first by a hash join, and every other expected row is compared only with the
# BLOCK_CANDIDATES actual rows sharing the most words with it.
EXHAUSTIVE_PAIRS = 40_000
BLOCK_CANDIDATES = 8
BLOCK_POSTINGS = 256  # row ids read per expected row while blocking
PAIR_CACHE_SIZE = 200_000


class _PairCache:
    """Pair scores keyed by (expected position, identity of the actual row objects).

    World rows are copy-on-write, so an unchanged object identity means an unchanged row; the
    cache keeps the objects themselves so an identity can never be reused by another row. When
    full, the entries of rows no longer in the diff are dropped (those of live rows stay, so a
    policy writing many rows never forces a rescore of everything).
    """

    def __init__(self) -> None:
        self.pairs: dict[tuple[int, ...], tuple[tuple[Any, ...], tuple[float, dict, tuple]]] = {}
        self.groups: dict[tuple[str, str], tuple[tuple[int, ...], tuple[Any, ...], GroupScore]] = {}
        self.plans: dict[int, tuple[ExpectedChange, Plan]] = {}
        self.matrices: dict[tuple[str, str], tuple[tuple[int, ...], dict, np.ndarray]] = {}  # last dense matrix per group
        self.live: set[int] = set()  # ids of the anchors of the diff being scored
        self.rows = _RowMemo()  # per-row blocking data (signatures, words)

    def plan(self, pos: int, change: ExpectedChange, cfg: ScoringConfig) -> Plan:
        hit = self.plans.get(pos)
        if hit is not None and hit[0] is change:
            return hit[1]
        plan = plan_for(change, cfg)
        self.plans[pos] = (change, plan)
        return plan

    def pair(self, pos: int, change: ExpectedChange, op: str, item: Any, table: str, cfg: ScoringConfig, plan: Plan):
        if op == "update":
            anchors, key = (item[0], item[1]), (pos, id(item[0]), id(item[1]))
        else:
            anchors, key = (item,), (pos, id(item))
        hit = self.pairs.get(key)
        if hit is not None and _same_objects(hit[0], anchors):
            return hit[1]
        value = _pair_score(change, op, item, table, cfg, plan)
        if len(self.pairs) >= PAIR_CACHE_SIZE:
            self._evict()
        self.pairs[key] = (anchors, value)
        return value

    def _evict(self) -> None:
        live = self.live
        self.pairs = {k: v for k, v in self.pairs.items() if all(i in live for i in k[1:])}
        if len(self.pairs) >= PAIR_CACHE_SIZE:  # live pairs alone fill it: keep the newest half
            self.pairs = dict(list(self.pairs.items())[len(self.pairs) // 2:])


def _scorer(op: str, table: str, cfg: ScoringConfig, cache: _PairCache | None):
    def score(pos: int, change: ExpectedChange, plan: Plan, item: Any) -> tuple[float, dict, tuple]:
        if cache is not None:
            return cache.pair(pos, change, op, item, table, cfg, plan)
        return _pair_score(change, op, item, table, cfg, plan)

    return score


def _key_index(values: Sequence[Any]) -> dict[Any, list[int]]:
    """Positions by key, under both the value and its text (``_same_key`` accepts either)."""
    index: dict[Any, list[int]] = {}
    for j, v in enumerate(values):
        for k in {("v", v) if _hashable(v) else ("s", str(v)), ("s", str(v)) if v is not None else ("v", None)}:
            index.setdefault(k, []).append(j)
    return index


def _hashable(v: Any) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _candidates_by_key(expected: list[tuple[int, ExpectedChange]], actual: list[Any], op: str, table: str) -> list[list[int]]:
    """Update/delete: only rows with the expected key can score above 0 (hash join on the key)."""
    key_col = _key_column(table)
    index = _key_index([_row_of(op, a).get(key_col) for a in actual])
    out = []
    for _, change in expected:
        k = change.key
        found: set[int] = set()
        for probe in (("v", k) if _hashable(k) else ("s", str(k)), ("s", str(k)) if k is not None else ("v", None)):
            found.update(index.get(probe, ()))
        out.append(sorted(found))
    return out


class _RowMemo:
    """What blocking derives from one row (its exact signature on some columns, its words),
    keyed by the row's identity (rows are copy-on-write; the row is kept so its id stays its
    own). Pure functions of the row, so scores never depend on what was memoised before."""

    LIMIT = 50_000

    def __init__(self) -> None:
        self.data: dict[tuple[int, str, tuple[str, ...]], tuple[Any, Any]] = {}

    def get(self, kind: str, columns: tuple[str, ...], row: Any) -> Any:
        """``_BLOCKING[kind](columns, row)``, memoised by the identity of ``row`` (a row or a plan)."""
        key = (id(row), kind, columns)
        hit = self.data.get(key)
        if hit is not None and hit[0] is row:
            return hit[1]
        value = _BLOCKING[kind](columns, row)
        if len(self.data) >= self.LIMIT:
            self.data = dict(list(self.data.items())[len(self.data) // 2:])  # keep the newest half
        self.data[key] = (row, value)
        return value


def _exact_signature(columns: tuple[str, ...], row: Mapping[str, Any]) -> Any:
    """The row's values on ``columns`` in a hashable form (None when a value cannot be hashed)."""
    try:
        return tuple(_canon_cell(row.get(c)) for c in columns)
    except TypeError:
        return None


def _canon_cell(v: Any) -> Any:
    if isinstance(v, list):
        return ("list", tuple(_canon_cell(x) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple(sorted((k, _canon_cell(x)) for k, x in v.items())))
    hash(v)
    return (type(v).__name__, v)


def _words_of(row: Mapping[str, Any], columns: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for c in columns:
        v = row.get(c)
        if v is not None:
            out.update(str(v).lower().split())
    return out


def _plan_row(plan: Plan) -> dict[str, Any]:
    return {c: v for c, v, *_ in plan}


_BLOCKING = {  # what blocking derives from a row or from an expected change's plan
    "sig": _exact_signature,
    "words": lambda cols, row: _words_of(row, cols),
    "plan_sig": lambda cols, plan: _exact_signature(cols, _plan_row(plan)),
    "plan_words": lambda cols, plan: _words_of(_plan_row(plan), cols),
}


def _candidates_by_blocking(expected: list[tuple[int, ExpectedChange]], plans: list[Plan], actual: list[Any],
                            score, memo: _RowMemo | None = None) -> list[list[int]]:
    """Create groups past :data:`EXHAUSTIVE_PAIRS`: exact matches first, then blocking by words.

    An actual row equal to an expected row on every compared column is paired with it outright
    (a hash join; the pair is scored once to confirm 1.0); each remaining expected row is
    compared only with the :data:`BLOCK_CANDIDATES` remaining actual rows sharing most words
    with it on its columns. Returns the candidate actual rows of each expected row.
    """
    derive = memo.get if memo is not None else (lambda kind, cols, obj: _BLOCKING[kind](cols, obj))
    by_sig: dict[tuple[tuple[str, ...], Any], list[int]] = {}
    for i, plan in enumerate(plans):
        cols = tuple(c for c, *_ in plan)
        sig = derive("plan_sig", cols, plan)
        if sig is not None:
            by_sig.setdefault((cols, sig), []).append(i)
    column_sets = {cols for cols, _ in by_sig}
    pre: dict[int, int] = {}
    taken: set[int] = set()
    for j, row in enumerate(actual):
        for cols in column_sets:
            waiting = by_sig.get((cols, derive("sig", cols, row)))
            while waiting and j not in taken:
                i = waiting.pop()
                if score(expected[i][0], expected[i][1], plans[i], row)[0] == 1.0:
                    pre[i] = j
                    taken.add(j)
    rest = [j for j in range(len(actual)) if j not in taken]
    all_cols = tuple(dict.fromkeys(c for p in plans for c, *_ in p))
    postings: dict[str, list[int]] = {}
    for j in rest:
        for w in derive("words", all_cols, actual[j]):
            postings.setdefault(w, []).append(j)
    candidates: list[list[int]] = []
    for i, plan in enumerate(plans):
        if i in pre:
            candidates.append([pre[i]])
            continue
        counts: Counter[int] = Counter()
        lists = sorted((postings.get(w, ()) for w in derive("plan_words", tuple(c for c, *_ in plan), plan)), key=len)
        budget = BLOCK_POSTINGS  # rarest words first: common words say little and cost most
        for js in lists:
            if budget <= 0:
                break
            counts.update(js[:budget])
            budget -= len(js)
        # most shared words first, then the lowest row: a stable sort by count of the rows in order
        ranked = sorted(sorted(counts.items()), key=_second, reverse=True)
        best = [j for j, _ in ranked[:BLOCK_CANDIDATES]]
        if len(best) < BLOCK_CANDIDATES:  # too few rows share a word: fill up with the first others
            best += itertools.islice((j for j in rest if j not in counts), BLOCK_CANDIDATES - len(best))
        candidates.append(sorted(best))
    return candidates


_second = itemgetter(1)


def _components(candidates: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """Connected components of the expected/actual candidate graph, as (rows, columns)."""
    n = len(candidates)
    parent = list(range(n + 1 + max((j for cols in candidates for j in cols), default=0)))  # rows, then n + column

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, cols in enumerate(candidates):
        for j in cols:
            parent[find(i)] = find(n + j)
    groups: dict[int, tuple[list[int], set[int]]] = {}
    for i, cols in enumerate(candidates):
        if cols:
            comp = groups.setdefault(find(i), ([], set()))
            comp[0].append(i)
            comp[1].update(cols)
    return [(rows, sorted(cols)) for rows, cols in groups.values()]


def _dense_matrix(table: str, op: str, expected: list[tuple[int, ExpectedChange]], plans: list[Plan], actual: list[Any],
                  cache: _PairCache | None, score) -> np.ndarray:
    """Every pair's score; with a cache, columns of actual rows unchanged since the last call
    are copied from the previous matrix and only changed rows are scored."""
    n, m = len(expected), len(actual)
    sim = np.zeros((n, m))
    positions = tuple(p for p, _ in expected)
    prev = cache.matrices.get((table, op)) if cache is not None else None
    old_cols: dict[int, tuple[int, tuple[Any, ...]]] = {}
    if prev is not None and prev[0] == positions:
        old_cols = prev[1]
    new_cols: dict[int, tuple[int, tuple[Any, ...]]] = {}
    for j, item in enumerate(actual):
        anchors = _anchors(op, item)
        hit = old_cols.get(id(anchors[-1]))
        if hit is not None and _same_objects(hit[1], anchors):
            sim[:, j] = prev[2][:, hit[0]]
        elif op == "create":  # only the value is needed here; the chosen pairs' details come later
            sim[:, j] = [_create_value(plan, item) for plan in plans]
        else:
            for i, (pos, change) in enumerate(expected):
                sim[i, j] = score(pos, change, plans[i], item)[0]
        new_cols[id(anchors[-1])] = (j, anchors)
    if cache is not None:
        cache.matrices[(table, op)] = (positions, new_cols, sim)
    return sim


def _score_group(table: str, op: str, expected: list[tuple[int, ExpectedChange]], actual: list[Any],
                 cfg: ScoringConfig, cache: _PairCache | None, *, exhaustive: bool = False) -> GroupScore:
    """Precision/recall of one group: maximum-total assignment of expected to actual rows.

    Updates and deletes compare only rows with the expected key (a hash join: every other pair
    scores 0); creates compare every pair up to :data:`EXHAUSTIVE_PAIRS`, past it exact matches
    and blocked candidates only. The assignment is solved per connected component of the pairs
    compared, which equals the assignment over the whole matrix (other pairs score 0).
    ``exhaustive=True`` compares every pair (the reference the pruned paths are tested against).
    """
    n, m = len(expected), len(actual)
    key_col = _key_column(table)
    keys = [_row_of(op, a).get(key_col) for a in actual]
    positions = [p for p, _ in expected]
    if n == 0:
        return GroupScore(table, op, 1.0 if m == 0 else 0.0, 1.0, 0, m, actual_keys=keys)
    if m == 0:
        return GroupScore(table, op, 0.0, 0.0, n, 0, expected_index=positions)
    plans = [cache.plan(pos, change, cfg) if cache is not None else plan_for(change, cfg) for pos, change in expected]
    score = _scorer(op, table, cfg, cache)
    if exhaustive or (op == "create" and n * m <= EXHAUSTIVE_PAIRS):
        sim = _dense_matrix(table, op, expected, plans, actual, cache, score)
        chosen = [(i, j) for i, j in _assign(sim) if sim[i, j] > 0]
    else:
        if op == "create":
            candidates = _candidates_by_blocking(expected, plans, actual, score, cache.rows if cache is not None else None)
        else:
            candidates = _candidates_by_key(expected, actual, op, table)
        chosen = []
        for rows, cols in _components(candidates):
            sim = np.zeros((len(rows), len(cols)))
            where = {j: c for c, j in enumerate(cols)}
            for r, i in enumerate(rows):
                pos, change = expected[i]
                for j in candidates[i]:
                    sim[r, where[j]] = score(pos, change, plans[i], actual[j])[0]
            chosen.extend((rows[r], cols[c]) for r, c in _assign(sim) if sim[r, c] > 0)
    info = {(i, j): score(expected[i][0], expected[i][1], plans[i], actual[j]) for i, j in chosen}
    pairs, details = [], []
    for i, j in sorted(chosen):
        s, cols_, extra = info[(i, j)]
        pairs.append((i, j, float(s)))
        details.append(PairScore(i, j, float(s), dict(cols_), tuple(extra)))
    total = sum(p[2] for p in pairs)
    return GroupScore(table, op, round(min(1.0, total / m), 6), round(min(1.0, total / n), 6), n, m, pairs, details,
                      positions, keys)


def _actual_changes(diff: Mapping[str, Any], cfg: ScoringConfig, ignored: set[str],
                    wanted: set[tuple[str, str]]) -> tuple[dict[tuple[str, str], list[Any]], list[str]]:
    actual: dict[tuple[str, str], list[Any]] = {}
    exempted: list[str] = []
    for table in sorted(diff):
        if table in ignored:
            continue
        d = _as_table_diff(diff[table])
        auto = _auto_columns(table)
        key_col = _key_column(table)
        for op, attr in OP_KEYS.items():
            items = getattr(d, attr)
            if op == "create" and cfg.scope == "reference" and d.carried_off:
                # The reference's expected worlds keep rows our cascades remove (comments on the
                # tasks of a project the same file deletes): a row the episode made that went
                # with its parent counts as made, as it would in the world the file describes.
                items = [*items, *d.carried_off]
            if not items:
                continue
            kept = []
            for item in items:
                changed = None
                if op == "update":
                    changed = [c for c in changed_columns(item[0], item[1]) if c not in auto]
                    if not changed:
                        continue  # only bookkeeping timestamps moved: not a change
                if (table, op) not in wanted and cfg.exempt(table, op, changed):
                    exempted.append(f"{table}:{op} {_row_of(op, item).get(key_col)!r}")
                    continue
                kept.append(item)
            if kept:
                actual[(table, op)] = kept
    return actual, exempted


def score_changes(expected: Sequence[Any], diff: Mapping[str, Any], ignore_tables: Iterable[str] = (),
                  config: ScoringConfig | None = None, *, exhaustive: bool = False,
                  _cache: _PairCache | None = None) -> EntityScore:
    """Entity-diff precision/recall/F1 of ``diff`` against ``expected``.

    ``diff`` is ``World.diff()`` output or its JSON form (``EpisodeRecord.diff``); ``expected``
    holds :class:`ExpectedChange` objects, our JSON dicts or reference ``entity_diff_specs`` items.
    ``exhaustive=True`` scores every (expected, actual) pair of every group -- quadratic, the
    reference the default (hash-joined, incremental, capped) scoring is tested against.
    """
    cfg = config or DEFAULT_CONFIG
    changes = coerce_expected(expected)
    ignored = set(ignore_tables) | set(cfg.ignore_tables)
    wanted: dict[tuple[str, str], list[tuple[int, ExpectedChange]]] = {}
    for pos, change in enumerate(changes):
        wanted.setdefault((change.table, change.operation), []).append((pos, change))
    if cfg.scope == "reference":
        ignored |= set(diff) - {table for table, _ in wanted}
    actual, exempted = _actual_changes(diff, cfg, ignored, set(wanted))
    if cfg.scope == "reference":
        actual = {group: items for group, items in actual.items() if group in wanted}
    if not wanted and not actual:
        return EntityScore(1.0, 1.0, 1.0, [], exempted)
    if _cache is not None:
        _cache.live = {id(x) for (_, op), items in actual.items() for a in items for x in _anchors(op, a)}
    groups = []
    for table, op in sorted(set(wanted) | set(actual)):
        exp, act = wanted.get((table, op), []), actual.get((table, op), [])
        if _cache is not None:
            positions = tuple(p for p, _ in exp)
            objects = tuple(x for a in act for x in _anchors(op, a))
            hit = _cache.groups.get((table, op))
            if hit is not None and hit[0] == positions and _same_objects(hit[1], objects):
                groups.append(hit[2])
                continue
            g = _score_group(table, op, exp, act, cfg, _cache)
            _cache.groups[(table, op)] = (positions, objects, g)
        else:
            g = _score_group(table, op, exp, act, cfg, None, exhaustive=exhaustive)
        groups.append(g)
    p = sum(g.precision for g in groups) / len(groups)
    r = sum(g.recall for g in groups) / len(groups)
    f1 = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return EntityScore(round(p, 6), round(r, 6), round(f1, 6), groups, exempted)


class EntityScorer:
    """Scores a world against fixed expectations, incrementally.

    Nothing is recomputed while ``world.version`` is unchanged; after a write only the groups
    whose rows changed are re-matched, and pair scores of unchanged rows are reused (rows are
    copy-on-write, so a row object's identity tells whether it changed).
    """

    def __init__(self, expected: Sequence[Any], ignore_tables: Iterable[str] = (), config: ScoringConfig | None = None) -> None:
        self.expected = tuple(coerce_expected(expected))
        self.ignore_tables = frozenset(ignore_tables)
        self.config = config or DEFAULT_CONFIG
        self._version: int | None = None
        self._world_id: int | None = None
        self._last: EntityScore | None = None
        self._cache = _PairCache()

    def score(self, world: Any) -> EntityScore:
        if self._last is not None and world.version == self._version and id(world) == self._world_id:
            return self._last
        self._last = score_changes(self.expected, world.diff(), self.ignore_tables, self.config, _cache=self._cache)
        self._version = world.version
        self._world_id = id(world)
        return self._last
