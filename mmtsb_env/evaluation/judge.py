"""The deterministic rubric judge: the paper's five criteria computed from episode evidence.

Each criterion passes or fails with a one-line reason (and a machine-readable ``kind`` when it
fails); the verdict passes only if all five pass. The same :class:`Evidence` feeds the LLM judge
(:mod:`.llm_judge`), so both judges see identical facts. Definitions (worked examples in
``docs/evaluation.md``):

* task_completion -- the primary actions were attempted and succeeded: every expected change is
  paired with an actual one (a create with a created row of its table, an update/delete with a
  change of the same row), and every round that asks for a change (its reference solution writes)
  got a successful write of its own, in that round or later. Whether the values are right is
  judged by the next two criteria.
* instruction_following -- the details the user specified are right: every compared column of a
  paired row whose expected value the user stated (in a query or a clarification answer) matches;
  every scripted round was reached and got a reply; the user closed the conversation in time.
* tool_use_validity -- at most ``max_failed_call_ratio`` (50 %) of the assistant's tool calls
  failed, at most ``max_invalid_actions`` (3) unparseable actions, and no identical failing call
  repeated ``max_repeated_failures`` (3) times.
* no_side_effects -- no change in a (table, operation) nobody asked for, no extra row in an
  expected group, no unrequested column changed in an updated row (bookkeeping is exempt, see
  :mod:`.entity_diff`).
* information_accuracy -- the answer or the artifact is factually correct: every compared value
  of a paired row that the user did *not* state (read from an image, looked up, computed) matches
  (amounts to the cent, text by normalised ROUGE-L >= ``min_text_similarity`` with every number of
  the expected text present and no hedging); each round's ``report`` facts are *asserted* in a
  reply given in that round or later (see :mod:`.claims`: no hedging, no number carpet; numbers
  within 1 %); the scenario's legacy ``facts`` are asserted in a reply or present in a written
  artifact; and no reply is a number carpet.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .claims import (DEFAULT_RULES, ClaimRules, acknowledges_correction, as_read, asserts, asserts_other, claim_status, clauses, commits_among,
                     admissions, admits_unread, doubts, doubts_earlier, fact_in_text, hedges, in_candidate_list, in_text_list, is_carpet, makes_choice, normalise,
                     numbers_in, offers_alternative, said_alike, sentences, states,
                     states_outside_context, unnumbered)
from .grounding import (_flatten, currencies_in, episode_grounds, foreign_amounts, image_values, misattributed, misbound, of_another_image, rivals_of, shown_texts,
                        ungrounded,
                        value_rivals_of, written_values)
from .entity_diff import EntityScore
from ..values.clock import asks_time, dotted_24h_times
from .similarity import (DEFAULT_TOLERANCES, Tolerances, as_number, canonical_text, facts_counts, holds_fact, is_id_column, is_placeholder, is_text_column, phrase_pools,
                         readings, scenario_tolerances,
                         text_contains)

__all__ = ["CRITERIA", "Criterion", "Evidence", "RubricJudge", "Verdict", "fact_in_text", "normalise", "numbers_in"]

CRITERIA = ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy")
TEXT_MEASURES = frozenset({"rouge_l", "contains", "rouge_l_raw"})


@dataclass
class Evidence:
    """What happened in an episode, as a judge needs it (build it with ``Episode.evidence()``
    or :func:`~.evidence.evidence_from_record`)."""

    scenario_id: str
    entity: EntityScore
    assistant_messages: list[str]
    facts: list[str]
    n_rounds: int
    rounds_delivered: int
    ended_by_user: bool
    truncated: bool
    n_tool_calls: int
    n_failed_calls: int
    n_invalid_actions: int
    calls: list[dict[str, Any]] = field(default_factory=list)  # CallRecord.to_json(): both seats
    completion_criteria: str = ""
    expected_changes: list[dict[str, Any]] = field(default_factory=list)
    diff: dict[str, Any] = field(default_factory=dict)  # table -> {"created", "updated": [{before, after}], "deleted"}
    conversation: list[dict[str, Any]] = field(default_factory=list)  # log entries (Entry.to_json())
    image_ids: list[int] = field(default_factory=list)  # every image of the episode
    image_sources: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    image_url: Callable[[int], str] | None = field(default=None, repr=False, compare=False)
    # Further criteria computed elsewhere (e.g. the UI checks of a UI scenario); all must pass too.
    extra_criteria: list[Any] = field(default_factory=list)
    # Per round (in order): the facts that round's reply must state (``Round.report``).
    reports: list[list[str]] = field(default_factory=list)
    # Per round (in order): whether the round asks for a change (its reference solution writes).
    action_rounds: list[bool] = field(default_factory=list)
    # The scenario's true values as texts (:func:`~.grounding.scenario_grounds`: images, seeded rows,
    # the reference solution...); the judge adds the tool results and the user's words itself.
    grounds: list[str] = field(default_factory=list)
    # What each image shows (``ImageSpec.facts``): the candidates of a choice, amounts to add up.
    image_facts: list[dict[str, Any]] = field(default_factory=list)
    # Per round (in order): the reference reply (``Round.answer``): what it asserts is no rival.
    answers: list[str] = field(default_factory=list)

    def assistant_calls(self) -> list[dict[str, Any]]:
        return [c for c in self.calls if c.get("seat", "assistant") == "assistant"]

    def to_json(self) -> dict[str, Any]:
        """Everything but the image loader (images are referenced by id)."""
        return {
            "scenario_id": self.scenario_id, "entity": self.entity.to_json(), "assistant_messages": list(self.assistant_messages),
            "facts": list(self.facts), "n_rounds": self.n_rounds, "rounds_delivered": self.rounds_delivered,
            "ended_by_user": self.ended_by_user, "truncated": self.truncated, "n_tool_calls": self.n_tool_calls,
            "n_failed_calls": self.n_failed_calls, "n_invalid_actions": self.n_invalid_actions, "calls": self.calls,
            "completion_criteria": self.completion_criteria, "expected_changes": self.expected_changes, "diff": self.diff,
            "conversation": self.conversation, "image_ids": list(self.image_ids), "image_sources": list(self.image_sources),
            "metadata": self.metadata, "description": self.description, "reports": [list(r) for r in self.reports],
            "action_rounds": list(self.action_rounds), "grounds": list(self.grounds), "image_facts": list(self.image_facts),
            "answers": list(self.answers),
        }

    def replies(self) -> list[tuple[int | None, str]]:
        """The assistant's messages to the user as ``(round index, text)``, in order."""
        if self.conversation:
            return [(e.get("round_index"), self.reply_text(e.get("round_index"), e.get("content"))) for e in self.conversation
                    if e.get("sender") == "assistant" and e.get("kind") in ("message", "notice")]
        return [(None, self.reply_text(None, m)) for m in self.assistant_messages]

    def reply_text(self, round_index: Any, content: Any) -> str:
        """A reply as the judge reads it (:func:`~.claims.as_read`: struck-out text dropped, a value
        corrected in parentheses replaced), list numbering dropped and, in a round that asks a clock
        time, a 24-hour "19.30" read as the time 19:30."""
        text = unnumbered(as_read(str(content or "")))
        reports = (self.reports[round_index] if isinstance(round_index, int) and 0 <= round_index < len(self.reports)
                   else [f for rep in self.reports for f in rep])
        return dotted_24h_times(text) if asks_time(reports) else text

    def user_text(self) -> str:
        """Everything the user said (queries, clarification answers): the details they specified."""
        return "\n".join(str(e.get("content") or "") for e in self.conversation
                         if e.get("sender") == "user" and e.get("kind") == "message")


@dataclass
class Criterion:
    name: str
    passed: bool
    reason: str
    kind: str = ""  # why it failed, machine-readable (e.g. "wrong_values", "collateral")

    def to_json(self) -> dict[str, Any]:
        out = {"criterion": self.name, "pass": self.passed, "reason": self.reason}
        if self.kind:
            out["kind"] = self.kind
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Criterion":
        return cls(str(d["criterion"]), bool(d["pass"]), str(d.get("reason", "")), str(d.get("kind", "")))


@dataclass
class Verdict:
    passed: bool
    criteria: list[Criterion]
    judge: str = "rubric"
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return 1.0 if self.passed else 0.0

    def criterion(self, name: str) -> Criterion | None:
        return next((c for c in self.criteria if c.name == name), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pass": self.passed, "judge": self.judge, "criteria": [c.to_json() for c in self.criteria]}
        if self.details:
            out["details"] = self.details
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Verdict":
        return cls(bool(d["pass"]), [Criterion.from_json(c) for c in d.get("criteria", [])], str(d.get("judge", "rubric")),
                   dict(d.get("details", {})))


# ---------------------------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------------------------


def action_rounds(scenario: Any) -> list[bool]:
    """Per round: whether it asks for a change, i.e. its reference solution calls a writing tool."""
    from ..tools.catalog import get_tool

    def writes(step: Mapping[str, Any]) -> bool:
        try:
            return "name" in step and bool(get_tool(step["name"]).writes)
        except KeyError:
            return False

    return [any(writes(step) for step in r.solution) for r in scenario.rounds]


def _rounds_without_action(ev: Evidence) -> list[int]:
    """Action rounds the assistant did not act on: counted from the last round back, each action
    round needs its own successful write at that round or later (work a round finishes late, e.g.
    after a question the user did not wait for, still counts)."""
    if not ev.action_rounds or not any("wrote" in c for c in ev.calls):
        return []
    writes = sorted(int(c.get("round_index", -1)) for c in ev.assistant_calls() if c.get("ok") and c.get("wrote"))
    lacking, available = [], 0
    pending = list(writes)
    for r in range(len(ev.action_rounds) - 1, -1, -1):
        while pending and pending[-1] >= r:
            pending.pop()
            available += 1
        if ev.action_rounds[r] and r < ev.rounds_delivered:
            if available:
                available -= 1
            else:
                lacking.append(r)
    return sorted(lacking)


def _actual_row(diff: Mapping[str, Any], table: str, op: str, key: Any) -> Mapping[str, Any] | None:
    from .entity_diff import _key_column

    d = diff.get(table) or {}
    kc = _key_column(table)
    if op == "create":
        rows = d.get("created", [])
    elif op == "update":
        rows = [u["after"] if isinstance(u, Mapping) else u[1] for u in d.get("updated", [])]
    else:
        rows = d.get("deleted", [])
    return next((r for r in rows if r.get(kc) == key), None)


_ISO_DATETIME = re.compile(r"\b(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})")


def _artifact_text(diff: Mapping[str, Any]) -> str:
    """Every value the episode wrote (created rows, updated rows after the change), as text, each
    row also on one line (a contact's first and last name together); an ISO date-time with its
    date and its time apart (a reminder set for "2026-05-29T10:00:00+00:00" holds the date
    "2026-05-29")."""
    parts: list[str] = []
    for d in diff.values():
        rows = list(d.get("created", [])) + [u["after"] if isinstance(u, Mapping) else u[1] for u in d.get("updated", [])]
        for row in rows:
            values = [str(v) for v in row.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)]
            parts += values + [" ".join(v for v in values if v.strip())]
    return "\n".join(_ISO_DATETIME.sub(r"\1 \2", p) for p in parts)


def task_items(ev: Evidence) -> str:
    """The items the task itself acts on, one value a line: the values of the rows the expected
    changes create, and of the rows they update (as the change left them: an old value replaced
    is no item) or delete (found by key in the episode's diff). A reply that names them reports the work ("Removed the Poetry
    Slam and the Film Screening"), it does not offer them as rival candidates; a row the episode
    changed that no expected change names (a look-alike) is not one of them."""
    from .entity_diff import _key_column

    lines: list[str] = []
    for change in ev.expected_changes:
        table, op = str(change.get("table")), change.get("operation")
        rows: list[Any] = [change.get("row") if op == "create" else change.get("fields")]
        if op in ("update", "delete") and change.get("key") is not None:
            d, kc = ev.diff.get(table) or {}, _key_column(table)
            rows += [u["after"] if isinstance(u, Mapping) else u[1] for u in d.get("updated", [])] + list(d.get("deleted", []))
            rows = rows[:1] + [r for r in rows[1:] if isinstance(r, Mapping) and str(r.get(kc)) == str(change["key"])]
        for row in rows:
            for col, value in (row or {}).items():
                if is_id_column(col) or isinstance(value, bool):
                    continue
                items = value if isinstance(value, list) else [value]
                lines += [str(x) for x in items if isinstance(x, str) and x.strip()]
    return "\n".join(dict.fromkeys(lines))


_QUANTITY = re.compile(r"[\d.,]+\s*[^\W\d_]{1,5}")  # a number with its unit: "1.23 kg", "350 ml"


def _looked_up_numbers(ev: Evidence) -> list[str]:
    """The decimal numbers of the expected changes' values (amounts read or computed, never ids)."""
    found: list[str] = []
    for change in ev.expected_changes:
        for col, value in ((change.get("row") if change.get("operation") == "create" else change.get("fields")) or {}).items():
            if is_id_column(col) or isinstance(value, bool):
                continue
            if isinstance(value, float):
                found.append(f"{value:.2f}")
            elif isinstance(value, str):
                found += [n for n in numbers_in(value) if "." in n]
    return list(dict.fromkeys(found))


def _round_writes(ev: Evidence) -> dict[Any, list[str]]:
    """Per round, the values the assistant's successful writes of that round left written (the last
    call of each tool in the round: an update in the same round replaces what it wrote), each
    value as text ("5448.0", "Sum of the gaps: 1,727")."""
    last: dict[tuple[Any, str], Mapping[str, Any]] = {}
    for c in ev.calls:
        if c.get("seat") == "assistant" and c.get("ok", True) and _is_write(c):
            last[(c.get("round_index"), str(c.get("name")))] = c
    out: dict[Any, list[str]] = {}
    for (r, _), c in last.items():
        args = c.get("arguments") if isinstance(c.get("arguments"), Mapping) else {}
        out.setdefault(r, []).extend(str(v) for k, v in args.items() if not is_id_column(k) and _is_value(v))
    return out


def _texts_written(ev: Evidence) -> list[tuple[str, str]]:
    """``(where, text)`` of every text the episode left written and every string argument of the
    assistant's successful writes (a text a later round overwrote was still written then)."""
    out = dict.fromkeys(written_values(ev.diff))
    for c in ev.calls:
        if c.get("seat") == "assistant" and c.get("ok", True) and _is_write(c) and isinstance(c.get("arguments"), Mapping):
            out.update(dict.fromkeys((f"{c.get('name')}.{k}", v) for k, v in c["arguments"].items() if isinstance(v, str)))
    return list(out)


def _is_value(v: Any) -> bool:
    return isinstance(v, str) or (isinstance(v, (int, float)) and not isinstance(v, bool))


def _choices_in(want: str, ev: Evidence) -> list[tuple[str, list[str]]]:
    """The texts an image shows that the expected text names (a store, an event), each with its
    rivals the expected text does not name: a written text must not name those as firmly."""
    shown = list(dict.fromkeys(t for t in shown_texts(ev.image_facts) if len(t) >= 3 and text_contains(t, want)))
    out = []
    for x in shown:
        rivals = [r for r in rivals_of(x, ev.image_facts, shown) if not text_contains(r, want)]
        if rivals:
            out.append((x, rivals))
    return out


def _pool_extras(want: str, text: str) -> list[str]:
    """Phrases of a generator pool (errands, repairs, classes...) that a written text names and its
    expected text does not, for pools the expected text draws from: items nobody read."""
    from .similarity import phrase_pools

    out: list[str] = []
    for pool in phrase_pools():
        if any(text_contains(p, want) for p in pool):
            out += [p for p in pool if text_contains(p, text) and not text_contains(p, want) and p not in out]
    return out


def _replaced(facts: Any, text: Any, tol: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """Whether a text missing some numeric facts holds other amounts in their place (a misread
    total, not an item left out), or another number near a value read off a chart (``tol``'s read
    tolerances: a reading outside the tolerance is a misreading)."""
    facts = [str(f) for f in (facts if isinstance(facts, list) else [facts])]
    text = text if isinstance(text, str) else json.dumps(text, default=str)
    missing = [f for f in facts if as_number(f) is not None and not text_contains(f, text)]
    if not missing:
        return False
    wanted = {as_number(f) for f in facts if as_number(f) is not None}
    return any("." in n and as_number(n) not in wanted for n in numbers_in(text)) \
        or any(tol.read_tolerance(as_number(f)) and stands_in(f, text, wanted) for f in missing)


STAND_IN = 0.25  # a number this close (relatively) to a value asked for, in its place, is a reading of it


def _without(parts: list[str], text: str) -> str:
    """``text`` with each of ``parts`` (its sentences) blanked out."""
    for part in parts:
        text = text.replace(part, " ", 1)
    return text


def said_in_place(fact: str, text: str, answer: str) -> bool:
    """Whether ``text`` says what the reference reply ``answer`` says in a sentence stating ``fact``,
    with another value where the fact stands ("Task 245 has 3 comments." for "Task 245 has 1
    comments.", "on May 17, 2026" for "on 2026-05-14"): a wrong answer in the fact's place, which a
    later reply's unrelated "one" or date does not make right.

    >>> said_in_place("1", "Task 245 has 3 comments.", "Task 245 has 1 comments."), said_in_place("1", "Done.", "Task 245 has 1 comments.")
    (True, False)
    """
    said = {said_alike(x, [fact]) for x in sentences(answer) if states(fact, x)}
    said = {t for t in said if len(t.split()) >= 3}
    return bool(said) and any(said_alike(x, [fact]) in said and not states(fact, x) for x in sentences(text))


def stands_in(fact: str, text: str, wanted: Any = ()) -> str:
    """A number of ``text`` that stands where numeric ``fact`` should be: within 25 % of it, not it
    rounded, not another value asked for (``wanted``), not a small whole number ("1,600" written
    for a chart's 1,450: a misreading, not an item left out); ``""`` when none.

    >>> stands_in("1,450", "Minerals: 1,600 visitors"), stands_in("1,450", "Minerals: 3 visitors"), stands_in("339", "339 and 1,600")
    ('1,600', '', '')
    """
    value = as_number(fact)
    if value is None or not value:
        return ""
    if any(as_number(n) is not None and abs(as_number(n) - value) < 1e-9 for n in numbers_in(text)):
        return ""
    for n in numbers_in(text):
        v = as_number(n)
        if v is None or any(abs(v - w) < 1e-9 for w in wanted if w is not None) or (v.is_integer() and v <= 31 and "." not in n):
            continue
        if 0 < abs(v - value) <= STAND_IN * abs(value):
            return n
    return ""


def _omitted_rows(groups: list[Any], done: set[tuple[int, int]]) -> list[str]:
    """Expected rows left out of a group that got some of its rows and no wrong row instead (one of
    N items omitted -- not a missing workflow, not acting on the wrong row)."""
    out = []
    for g in groups:
        got = sum(1 for i in range(g.n_expected) if (id(g), i) in done)
        if 0 < got < g.n_expected and not g.unpaired_actual:
            out += [f"{g.table}:{g.operation} ({g.n_expected - got} of {g.n_expected})"] * (g.n_expected - got)
    return out


def _is_write(call: Mapping[str, Any]) -> bool:
    """Whether a call (made, or tried) is to a tool that changes the world."""
    from ..tools.errors import ToolError
    from ..tools.catalog import get_tool

    if call.get("wrote"):
        return True
    try:
        return bool(get_tool(str(call.get("name"))).writes)
    except (KeyError, ToolError):
        return False


def _brief(items: list[str], limit: int = 4) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


@dataclass(frozen=True)
class ValueCheck:
    """One compared column of a paired row: who specified it and whether it is right."""

    where: str  # "table:operation.column"
    specified: bool  # the user stated the expected value (instruction following), else information accuracy
    ok: bool
    why: str = ""
    omitted: bool = False  # wrong only by leaving items out (or a placeholder): incomplete, not false


def user_specified(column: str, value: Any, user_text: str) -> bool:
    """Whether the user stated ``value`` themselves: booleans (the state they asked for) always;
    identifiers never (the world determines them); other values when the user's words contain
    them (after normalisation; a datetime by its date).

    >>> said = "Make a note titled 'Lunch expense' for May 9, 2026 with the total of this receipt."
    >>> user_specified("title", "Lunch expense", said), user_specified("content", "Blue Door Cafe, $13.48", said)
    (True, False)
    >>> user_specified("due_date", "2026-05-09T18:00:00+00:00", said), user_specified("receiver_id", 9, said)
    (True, False)
    """
    if isinstance(value, bool):
        return True
    if value is None or is_id_column(column) or isinstance(value, (list, dict)):
        return False
    text = str(value).strip()
    if len(text) < 2 and as_number(text) is None:
        return False
    if len(text) >= 19 and text[4:5] == "-" and text[10:11] == "T":  # ISO datetime: its date
        text = text[:10]
    return text_contains(text, user_text)


class RubricJudge:
    """Deterministic judge of the five criteria (definitions in the module docstring)."""

    name = "rubric"

    def __init__(self, *, max_failed_call_ratio: float = 0.5, max_invalid_actions: int = 3,
                 max_repeated_failures: int = 3, min_text_similarity: float = 0.5,
                 tolerances: Tolerances = DEFAULT_TOLERANCES, claims: ClaimRules = DEFAULT_RULES) -> None:
        self.max_failed_call_ratio = max_failed_call_ratio
        self.max_invalid_actions = max_invalid_actions
        self.max_repeated_failures = max_repeated_failures
        self.min_text_similarity = min_text_similarity
        self.tolerances = tolerances
        self.claims = claims

    def tolerances_of(self, ev: Evidence) -> Tolerances:
        """The judge's tolerances with the scenario's read tolerances (``metadata.value_tolerances``)."""
        return scenario_tolerances(ev.metadata, self.tolerances)

    def evaluate(self, ev: Evidence) -> Verdict:
        attempts = self.attempts(ev)
        checks = self.value_checks(ev, attempts)
        facts = self.fact_statuses(ev)
        crit = [self.task_completion(ev, attempts), self.instruction_following(ev, checks, facts, attempts),
                self.tool_use_validity(ev), self.no_side_effects(ev), self.information_accuracy(ev, checks, facts)] \
            + list(ev.extra_criteria)
        return Verdict(all(c.passed for c in crit), crit, self.name)

    # -- the values of paired rows -----------------------------------------------------------------
    def attempts(self, ev: Evidence) -> list[tuple[Any, int, dict[str, tuple[float, str]], Mapping[str, Any] | None]]:
        """Every expected change the agent acted on: ``(group, expected index, column scores,
        actual row)``. Pairs of the entity score, plus changes F1 could not pair because every
        compared value was wrong: an update of the same row, or a created row of the same table
        left unpaired (the action was attempted; its values are judged by the value checks)."""
        from .entity_diff import compare_columns

        out = []
        for g in ev.entity.groups:
            if g.n_expected == 0:
                continue
            if not g.details and g.pairs:  # evidence without column detail: the pair score decides
                out += [(g, i, {"(row)": (s, "exact")}, None) for i, _, s in g.pairs]
                continue
            out += [(g, d.expected, dict(d.columns), self._actual_values(ev, g, d.actual)) for d in g.details]
            spare = list(g.unpaired_actual)
            for i in g.unpaired_expected:
                change = ev.expected_changes[g.expected_index[i]] if i < len(g.expected_index) and \
                    g.expected_index[i] < len(ev.expected_changes) else None
                if change is None or g.operation == "delete":
                    continue
                if g.operation == "update":
                    j = next((j for j in spare if j < len(g.actual_keys) and str(g.actual_keys[j]) == str(change.get("key"))), None)
                else:
                    j = spare[0] if spare else None
                if j is None:
                    continue
                spare.remove(j)
                actual = self._actual_values(ev, g, j) or {}
                want = self._expected_values(ev, g, i)
                cols = compare_columns(want, actual, change.get("measures") or {}, g.table,
                                       skip_empty=g.operation == "create", tol=self.tolerances_of(ev))
                out.append((g, i, cols, actual))
        return out

    def value_checks(self, ev: Evidence, attempts: list[Any] | None = None) -> list[ValueCheck]:
        """Every compared column of every attempted expected change, split by who specified it."""
        said = ev.user_text()
        out: list[ValueCheck] = []
        for g, i, columns, actual in (self.attempts(ev) if attempts is None else attempts):
            want = self._expected_values(ev, g, i)
            for col, (score, measure) in columns.items():
                value = want.get(col)
                ok, why, omitted = self._column_ok(value, actual.get(col) if actual is not None else None, score, measure, ev)
                out.append(ValueCheck(f"{g.table}:{g.operation}.{col}", user_specified(col, value, said), ok, why, omitted))
        return out

    @staticmethod
    def _expected_values(ev: Evidence, g: Any, i: int) -> Mapping[str, Any]:
        if i >= len(g.expected_index) or g.expected_index[i] >= len(ev.expected_changes):
            return {}
        change = ev.expected_changes[g.expected_index[i]]
        return (change.get("row") if g.operation == "create" else change.get("fields")) or {}

    @staticmethod
    def _actual_values(ev: Evidence, g: Any, j: int) -> Mapping[str, Any] | None:
        if j >= len(g.actual_keys):
            return None
        return _actual_row(ev.diff, g.table, g.operation, g.actual_keys[j])

    def _column_ok(self, want: Any, got: Any, score: float, measure: str, ev: Evidence) -> tuple[bool, str, bool]:
        """(right, why not, wrong only by omission) of one compared column."""
        if isinstance(got, str) and is_placeholder(got) and not (isinstance(want, str) and is_placeholder(want)):
            return False, f"placeholder {got.strip()[:30]!r}", True
        if measure == "facts":
            found, n, extras = facts_counts(want, got, self.tolerances_of(ev))
            if found == n and not extras:
                items = [str(x) for x in (want if isinstance(want, list) else [want]) if x not in (None, "")]
                why = self._uncommitted(items, got if isinstance(got, str) else json.dumps(got, default=str), ev)
                return (not why, why, False)
            why = f"{found}/{n} fact(s)" + (f", {len(extras)} not shown: {_brief(extras, 3)}" if extras else "")
            return False, why, not extras and found > 0 and not _replaced(want, got, self.tolerances_of(ev))
        if measure not in TEXT_MEASURES:
            return (score >= 0.999, "" if score >= 0.999 else f"{measure} {score:.2f}", False)
        if score < self.min_text_similarity:
            return False, f"{measure} {score:.2f}", False
        if isinstance(want, str) and got is not None:
            text = str(got)
            lost = [n for n in numbers_in(want) if not holds_fact(n, text, self.tolerances_of(ev), numbers_in(want))]
            if lost:
                return False, f"number(s) {', '.join(lost)} not in the text", False
            if hedges(text) and not hedges(want):
                return False, "the text offers alternatives", False
            if admits_unread(text) and not admits_unread(want):
                return False, "the text owns up to values it did not read (made up, guessed, a margin)", False
            extras = _pool_extras(want, text)
            if extras:
                return False, f"the text names item(s) the expected text does not: {_brief(extras, 3)}", False
            listed = [n for n in numbers_in(want) if "." in n and in_candidate_list(n, text, self._allowed_numbers(ev))]
            if listed:
                return False, f"the text lists other candidates with {', '.join(listed)}", False
            for shown, rivals in _choices_in(want, ev):
                if commits_among(shown, text, rivals) is False:
                    return False, f"the text names other candidates as firmly as {shown!r}", False
            shown = [t for t in shown_texts(ev.image_facts) if len(t) >= 3 and text_contains(t, want)]
            listed = [x for x in dict.fromkeys(shown) if in_text_list(x, text, shown, phrase_pools())]
            if listed:
                return False, f"the text lists other readings with {_brief(listed, 2)}", False
        return True, "", False

    def _uncommitted(self, items: list[str], text: str, ev: Evidence) -> str:
        """Why a written text holding every fact it must still does not commit to them (it offers
        alternatives, or lists other readings of a fact or other members of its pool beside it), or
        ``""``."""
        if hedges(text) and not any(hedges(x) for x in items):
            return "the text offers alternatives"
        if admits_unread(text) and not any(admits_unread(x) for x in items):
            return "the text owns up to values it did not read (made up, guessed, a margin)"
        tol = self.tolerances_of(ev)
        sprayed = [x for x in items if len(readings(x, text, tol, items, shown_texts(ev.image_facts), image_values(ev.image_facts))) > 1]
        if sprayed:
            return f"the text offers several readings of {_brief(sprayed, 2)}"
        listed = [x for x in items if in_text_list(x, text, items, phrase_pools())]
        if listed:
            return f"the text lists other readings with {_brief(listed, 2)}"
        # one pick per kind of item (a store, an event): several items of one kind ("Jan", "Sat", "Nov"
        # of a list of charts) are a list of answers, where another member may rightly be written too
        choices = _choices_in("\n".join(items), ev)
        for shown, rivals in choices:
            if any(set(rivals) & set(r) for x, r in choices if x != shown):
                continue
            if commits_among(shown, text, rivals) is False:
                return f"the text names other candidates as firmly as {shown!r}"
        return ""

    def split_readings(self, ev: Evidence, replies: list[str]) -> list[str]:
        """Values read off a chart (a read tolerance) that the replies and the written texts give as
        two different readings, each within the tolerance (41.5 in the note, 43 in the reply): the
        answer must commit to one reading across everything the episode says and writes."""
        tol = self.tolerances_of(ev)
        if not tol.read:
            return []
        allowed = self._allowed_numbers(ev)
        whole = "\n".join([*replies, *(t for _, t in written_values(ev.diff))])
        titles, shown = shown_texts(ev.image_facts), image_values(ev.image_facts)
        # each round on its own too: its replies beside what its writes left written then (a note
        # or a payment a later round overwrites was the answer the user had in that round)
        by_round: dict[Any, list[str]] = {}
        for r, text in ev.replies():
            by_round.setdefault(r, []).append(text)
        for r, texts in _round_writes(ev).items():
            by_round.setdefault(r, []).extend(texts)
        texts = [(whole, allowed)] + [("\n".join(t), self._asked_by(ev, r)) for r, t in by_round.items() if isinstance(r, int)]
        out = []
        for fact in dict.fromkeys([*ev.facts, *(x for r in ev.reports for x in r), *_looked_up_numbers(ev)]):
            value = as_number(fact)
            read = tol.read_tolerance(value) if value is not None else 0.0
            if read and any(len(readings(fact, text, tol, asked, titles, shown)) > 1 for text, asked in texts):
                out.append(f"{fact!r} (two readings across the replies and the written texts)")
        return out

    def unscored_rivals(self, ev: Evidence, attempts: list[Any] | None = None) -> list[str]:
        """Text fields of a written row that no text measure scores (an email's subject, a note's
        title) and that name another candidate where the row's scored text names the answer: the
        subject "Pine Street Books receipt" over a body that rightly says "Lumen Hardware". The
        artifact is judged whole; "Lumen Hardware vs Pine Street Books" keeps the rival as context."""
        out: list[str] = []
        for g, i, columns, actual in (self.attempts(ev) if attempts is None else attempts):
            if actual is None or g.operation == "delete":
                continue
            want = self._expected_values(ev, g, i)
            scored = [col for col, (_, measure) in columns.items() if measure in TEXT_MEASURES or measure == "facts"]
            texts = ["\n".join(str(x) for x in v) if isinstance(v, list) else str(v) for col in scored
                     for v in [want.get(col)] if v not in (None, "")]
            choices = [c for t in texts for c in _choices_in(t, ev)]
            if not choices:
                continue
            for col, value in actual.items():
                if col in scored or not isinstance(value, str) or not is_text_column(col):
                    continue
                for shown, rivals in choices:
                    if commits_among(shown, value, rivals) is False:
                        out.append(f"{g.table}:{g.operation}.{col} (names another candidate than {shown!r})")
                        break
        return list(dict.fromkeys(out))

    # -- criteria ------------------------------------------------------------------------------
    def task_completion(self, ev: Evidence, attempts: list[Any] | None = None) -> Criterion:
        expected_groups = [g for g in ev.entity.groups if g.n_expected > 0]
        n_expected = sum(g.n_expected for g in expected_groups)
        if n_expected == 0:
            return Criterion("task_completion", True, "no state change was required")
        done = {(id(g), i) for g, i, _, _ in (self.attempts(ev) if attempts is None else attempts)}
        missing = [f"{g.table}:{g.operation}" for g in expected_groups for i in range(g.n_expected) if (id(g), i) not in done]
        idle = _rounds_without_action(ev)
        if not missing and idle:
            return Criterion("task_completion", False, f"no change was made for the request of round(s) "
                             f"{', '.join(str(r + 1) for r in idle)}", "missing_changes")
        if not missing:
            return Criterion("task_completion", True, f"all {n_expected} expected change(s) were made")
        omitted = _omitted_rows(expected_groups, done)
        if len(omitted) == len(missing) and not idle:
            return Criterion("task_completion", True, f"{n_expected - len(missing)}/{n_expected} expected change(s) made; every "
                             f"requested kind of change was made (the {len(missing)} left out are judged by instruction following)")
        if len(missing) == n_expected:
            return Criterion("task_completion", False, f"none of the {n_expected} expected change(s) was made", "no_progress")
        return Criterion("task_completion", False,
                         f"{len(missing)}/{n_expected} expected change(s) missing: {_brief(missing)}", "missing_changes")

    def instruction_following(self, ev: Evidence, checks: list[ValueCheck] | None = None,
                              facts: list[FactStatus] | None = None, attempts: list[Any] | None = None) -> Criterion:
        checks = self.value_checks(ev) if checks is None else checks
        facts = self.fact_statuses(ev) if facts is None else facts
        attempts = self.attempts(ev) if attempts is None else attempts
        problems, kind = [], ""
        wrong = [f"{c.where} ({c.why})" for c in checks if c.specified and not c.ok and not c.omitted]
        if wrong:
            problems.append(f"details the user specified are wrong: {_brief(wrong)}")
            kind = "wrong_details"
        done = {(id(g), i) for g, i, _, _ in attempts}
        left_out = _omitted_rows([g for g in ev.entity.groups if g.n_expected > 0], done) \
            + [f"{c.where} ({c.why})" for c in checks if c.omitted] + [f.label for f in facts if f.status == "omitted"]
        if left_out and not _rounds_without_action(ev):
            problems.append(f"item(s) left out: {_brief(left_out)}")
            kind = kind or "omitted_items"
        if ev.rounds_delivered < ev.n_rounds:
            problems.append(f"only {max(0, ev.rounds_delivered)}/{ev.n_rounds} rounds reached")
            kind = kind or "rounds_missing"
        if ev.conversation:
            answered = {r for r, _ in ev.replies()}
            silent = [r for r in range(min(ev.rounds_delivered, ev.n_rounds)) if r not in answered]
            if silent:
                problems.append(f"no reply to the user in round(s) {', '.join(str(r + 1) for r in silent)}")
                kind = kind or "unanswered_round"
        if ev.truncated:
            problems.append("hit the message limit")
            kind = kind or "truncated"
        elif not ev.ended_by_user:
            problems.append("the user did not close the conversation")
            kind = kind or "not_closed"
        if problems:
            return Criterion("instruction_following", False, "; ".join(problems), kind)
        n = sum(1 for c in checks if c.specified)
        return Criterion("instruction_following", True,
                         f"all {ev.n_rounds} round(s) handled, {n} specified detail(s) right, and the user closed the conversation")

    def tool_use_validity(self, ev: Evidence) -> Criterion:
        calls = ev.assistant_calls() if ev.calls else []
        # a successful write repeated with the same arguments changes nothing the first did not:
        # it counts once (padding failed writes with no-op writes does not dilute them)
        writes, seen = [], set()
        for c in calls:
            if not _is_write(c):
                continue
            key = (c.get("name"), json.dumps(c.get("arguments"), sort_keys=True, default=str))
            if c.get("ok", True):
                if key in seen:
                    continue
                seen.add(key)
            writes.append(c)
        failed_writes = sum(1 for c in writes if not c.get("ok", True))
        n = len(calls) if calls else ev.n_tool_calls
        failed = sum(1 for c in calls if not c.get("ok", True)) if calls else ev.n_failed_calls
        repeats = Counter(
            (c.get("name"), json.dumps(c.get("arguments"), sort_keys=True, default=str)) for c in calls if not c.get("ok", True)
        )
        worst = max(repeats.items(), key=lambda kv: kv[1], default=(None, 0))
        ratio = failed / n if n else 0.0
        summary = f"{failed}/{n} calls failed, {ev.n_invalid_actions} invalid action(s)"
        if worst[1] >= self.max_repeated_failures:
            return Criterion("tool_use_validity", False, f"{summary}; the same failing call to {worst[0][0]} was repeated {worst[1]} times",
                             "repeated_failures")
        if ratio > self.max_failed_call_ratio:
            return Criterion("tool_use_validity", False, f"{summary} (more than {self.max_failed_call_ratio:.0%} failed)", "failed_calls")
        if writes and failed_writes / len(writes) > self.max_failed_call_ratio:
            return Criterion("tool_use_validity", False, f"{summary}; {failed_writes}/{len(writes)} calls that change the world "
                             f"failed (more than {self.max_failed_call_ratio:.0%})", "failed_writes")
        if ev.n_invalid_actions > self.max_invalid_actions:
            return Criterion("tool_use_validity", False, f"{summary} (more than {self.max_invalid_actions} invalid)", "invalid_actions")
        return Criterion("tool_use_validity", True, summary)

    def no_side_effects(self, ev: Evidence) -> Criterion:
        e = ev.entity
        collateral = [f"{g.table}:{g.operation} ({g.n_actual} row(s))" for g in e.unexpected_groups]
        extra_rows = [f"{g.table}:{g.operation} ({len(g.unpaired_actual)} extra)" for g in e.groups
                      if g.n_expected > 0 and g.unpaired_actual]
        extra_cols = [f"{g.table}.{c}" for g in e.groups for d in g.details for c in d.extra_columns]
        if collateral:
            return Criterion("no_side_effects", False, f"unrequested changes in {_brief(collateral)}", "collateral")
        if extra_rows:
            return Criterion("no_side_effects", False, f"more rows changed than asked: {_brief(extra_rows)}", "extra_rows")
        if extra_cols:
            return Criterion("no_side_effects", False, f"unrequested columns changed: {_brief(extra_cols)}", "extra_columns")
        note = f" ({len(e.exempted)} bookkeeping change(s) exempt)" if e.exempted else ""
        return Criterion("no_side_effects", True, "no unrequested changes" + note)

    def information_accuracy(self, ev: Evidence, checks: list[ValueCheck] | None = None,
                             facts: list[FactStatus] | None = None) -> Criterion:
        checks = self.value_checks(ev) if checks is None else checks
        facts = self.fact_statuses(ev) if facts is None else facts
        texts = [t for _, t in ev.replies()]
        numeric = self._n_numeric(ev)
        carpets = [i for i, t in enumerate(texts) if is_carpet(t, self.claims, numeric)]
        if carpets:
            return Criterion("information_accuracy", False,
                             f"{len(carpets)} reply(ies) spray numbers instead of stating them", "number_carpet")
        wrong = [f"{c.where} ({c.why})" for c in checks if not c.specified and not c.ok and not c.omitted]
        wrong += self.unscored_rivals(ev)
        switched = [f.label for f in facts if f.status == "contradicted"]
        if switched:
            return Criterion("information_accuracy", False, f"another round answers differently (an unacknowledged switch "
                             f"between candidates) for {_brief(switched)}", "contradicted")
        misread = [f.label for f in facts if f.status == "misread"]
        if misread:
            return Criterion("information_accuracy", False, f"another value stated in place of {_brief(misread)}", "wrong_values")
        unsure = [f.label for f in facts if f.status in ("hedged", "carpet")]
        # what the assistant says about the values it wrote must commit too, asked for or not
        allowed = self._allowed_numbers(ev)
        unsure += [f"{n!r} (written)" for n in _looked_up_numbers(ev)
                   if claim_status(n, texts, self.tolerances_of(ev), self.claims, numeric, allowed=allowed,
                                   titles=shown_texts(ev.image_facts), shown=image_values(ev.image_facts)) == "hedged"]
        unsure += self.split_readings(ev, texts)
        # a written text that owns up to values it did not read ("$958.85 (guessed)", "± 5.00",
        # "[made up]") commits to nothing, unless the scenario's own texts say the same
        known = set().union(*(admissions(g) for g in ev.grounds)) if ev.grounds else set()
        unsure += [f"{where} (written: {_brief(sorted(marks), 2)})" for where, text in _texts_written(ev)
                   if (marks := admissions(text) - known)]
        if unsure:
            return Criterion("information_accuracy", False, f"no committed answer for {_brief(unsure)}", "hedged")
        if wrong:
            return Criterion("information_accuracy", False, f"wrong values in {_brief(wrong)}", "wrong_values")
        unsupported = self.ungrounded_values(ev)
        if unsupported:
            return Criterion("information_accuracy", False,
                             f"stated value(s) that no tool result, image or world value supports: {_brief(unsupported)}",
                             "wrong_claim")
        missing = [f.label for f in facts if f.status == "missing"]
        if missing:
            return Criterion("information_accuracy", False,
                             f"{len(missing)}/{len(facts)} fact(s) not stated: {_brief(missing)}", "missing_facts")
        n_values = sum(1 for c in checks if not c.specified)
        return Criterion("information_accuracy", True, f"{len(facts)} fact(s) stated and {n_values} looked-up value(s) right")

    # -- facts the replies must state ------------------------------------------------------------
    def _n_numeric(self, ev: Evidence) -> int:
        return len(_looked_up_numbers(ev)) + sum(1 for f in [*ev.facts, *(x for r in ev.reports for x in r)]
                                                  if as_number(f) is not None)

    @staticmethod
    def _allowed_numbers(ev: Evidence) -> list[float]:
        """Every number the episode asks for (a list of them is an answer, not a list of candidates),
        a quantity's too ("1.23 kg": a weight looked up on the web)."""
        out = [as_number(f) for f in [*ev.facts, *(x for r in ev.reports for x in r), *_looked_up_numbers(ev)]]
        out += [as_number(n) for f in [*ev.facts, *(x for r in ev.reports for x in r)]
                if as_number(f) is None and _QUANTITY.fullmatch(str(f).strip()) for n in numbers_in(str(f))]
        return [x for x in out if x is not None]

    def _asked_by(self, ev: Evidence, k: int) -> list[float]:
        """The numbers a reply of round ``k`` may be giving: all asked for but those only later
        rounds report (their images are not seen yet, so no number of round ``k`` reads one)."""
        later_only = {as_number(x) for rep in ev.reports[k + 1:] for x in rep} - \
            {as_number(x) for rep in ev.reports[:k + 1] for x in rep}
        return [a for a in self._allowed_numbers(ev) if a not in later_only]

    def fact_statuses(self, ev: Evidence) -> list[FactStatus]:
        """Whether each fact a round must report (and each legacy fact) was stated, and how. A
        round's facts are looked for in the replies of that round, then of each later round in
        turn (work can finish late) that does not report the same fact itself (there a mention answers
        that round: "changed Location Services" in round 2 does not report round 1's change); the
        first round that mentions a fact decides. Of a round's
        (or the legacy) facts, when some are stated and the others are simply absent, the absent
        ones are ``"omitted"`` (one of N items left out)."""
        # messages only: a screen the assistant shows (a UI notice) offers choices, it asserts none
        replies = [(e.get("round_index"), ev.reply_text(e.get("round_index"), e.get("content"))) for e in ev.conversation
                   if e.get("sender") == "assistant" and e.get("kind") == "message"] if ev.conversation else ev.replies()
        by_round: dict[Any, list[str]] = {}
        for r, text in replies:
            by_round.setdefault(r, []).append(text)
        order = sorted((k for k in by_round if k is not None))
        numeric = self._n_numeric(ev)
        allowed = self._allowed_numbers(ev)
        every_fact = [*ev.facts, *(x for r in ev.reports for x in r)]
        acted = task_items(ev)
        tol = self.tolerances_of(ev)
        titles, values = shown_texts(ev.image_facts), image_values(ev.image_facts)

        claims = [c for c in (ev.metadata or {}).get("error_claims") or [] if isinstance(c, Mapping)]

        def claimed_wrong(fact: str) -> list[str]:
            """The values the user wrongly claimed where ``fact`` is the right one (metadata.error_claims)."""
            return [str(c["wrong"]) for c in claims if c.get("wrong") and canonical_text(str(c.get("right"))) == canonical_text(fact)]

        def status(fact: str, pools: list[str], exclude: list[str], first: bool, answer: str, later: list[str] = (),
                   asks: list[list[float]] | None = None) -> str:
            candidates = rivals_of(fact, ev.image_facts, exclude)
            # a sentence naming another image's title speaks of that image: none of its names competes
            # (charts' items and values; a date or time stays the event's whoever's title is near it)
            elsewhere = (of_another_image(fact, ev.image_facts, candidates, answer) if _kind(fact) in ("name", "number")
                         else (lambda sentence: False))
            pools = [_without([x for x in sentences(p) if elsewhere(x)], p) for p in pools]
            # A candidate the reference reply asserts is part of the answer. When the round asks for
            # several values of the fact's kind (two events, three tasks: a list) and its reference
            # reply picks none ("the two cheapest" does), so is an item the task acts on ("these are
            # all of them"); otherwise every other candidate stays a rival however the task uses it
            # ("one of these").
            listing = len(candidates) < len(rivals_of(fact, ev.image_facts)) and not makes_choice(answer)
            rivals = [r for r in candidates if not asserts(r, answer) and not (listing and asserts(r, acted))]
            got = [claim_status(fact, [text], tol, self.claims, numeric, rivals=rivals, allowed=asked_then,
                                asked=answer, others=[x for x in every_fact if x != fact], titles=titles, shown=values,
                                also=[r for r in candidates if r not in rivals])
                   for text, asked_then in zip(pools, asks or [allowed] * len(pools))]
            # doubt voiced about it, or a rival (or the value the user wrongly claimed) offered beside it
            value = as_number(fact)
            read = tol.read_tolerance(value) if value is not None else 0.0
            # (per pool: a value only a later round asks for is no answer yet, so a rival here)
            asked_then = asks or [allowed] * len(pools)
            offered = [(candidates if value is None else value_rivals_of(fact, ev.image_facts, a)) + claimed_wrong(fact)
                       for a in asked_then]
            got = ["hedged" if g == "stated" and (doubts(fact, text, read, candidates) or offers_alternative(fact, text, o, read))
                   else g for g, text, o in zip(got, pools, offered)]
            if first:  # a round's answer: the first round that mentions it decides ...
                if got and got[0] == "missing" and said_in_place(fact, pools[0], answer):
                    return "misread"  # ... unless the round's own reply gives another value in its place
                decided = next((g for g in got if g != "missing"), "missing")
                # ... and a later reply doubting "my earlier answer" takes the commitment back
                at = next((i for i, g in enumerate(got) if g != "missing"), len(got))
                if decided == "stated" and any(doubts_earlier(p) for p in pools[at + 1:]):
                    return "hedged"
                # ... unless another round answers the same question differently
                others = rivals if as_number(fact) is None else value_rivals_of(fact, ev.image_facts, allowed)
                others = [x for x in others if not any(asserts_other(fact, a, [x]) for a in later)]
                alike = [x for x in candidates if x not in others and not answered_alike(fact, x, answer, later[1:])]
                siblings = [x for x in exclude if x != fact and _kind(x) == _kind(fact)]
                if decided == "stated" and switches(fact, pools, got, others, tol, alike if value is None else [], answer,
                                                    siblings, owners_of(fact, answer, ev.image_facts, siblings),
                                                    elsewhere):
                    return "contradicted"
                return decided
            return max(got, key=_STATUS_RANK.__getitem__, default="missing")  # a legacy fact: any round

        out: list[FactStatus] = []
        for r, facts in enumerate(ev.reports):
            answer = ev.answers[r] if r < len(ev.answers) else ""
            later = [answer, *ev.answers[r + 1:], *(x for rep in ev.reports[r + 1:] for x in rep)]
            group = []
            for fact in facts:
                # a later round whose own report lists the fact answers that round, not this one
                rounds = [k for k in order if k == r or (k > r and not (k < len(ev.reports) and fact in ev.reports[k]))]
                pools = ["\n".join(by_round[k]) for k in rounds] + ["\n".join(by_round.get(None, []))]
                st = status(fact, pools, list(facts), True, answer, later, [self._asked_by(ev, k) for k in rounds] + [allowed])
                if st == "missing" and tol.read_tolerance(as_number(fact) or 0.0) and any(stands_in(fact, p, allowed) for p in pools):
                    st = "misread"  # another number stands in its place: a wrong value, not one of N left out
                group.append(FactStatus(f"{fact!r} (round {r + 1})", fact, st, r))
            out += _omissions(group)
        if ev.facts:
            artifacts = _artifact_text(ev.diff)
            pools = ["\n".join(by_round[k]) for k in order] + ["\n".join(by_round.get(None, []))]
            reported = any(ev.reports)
            group = []
            for fact in ev.facts:
                st = status(fact, pools, every_fact, False, "\n".join(ev.answers))
                if st == "missing" and reported:
                    continue  # the rounds' reports say what each reply must state; the legacy list only must not be hedged
                if st == "missing" and text_contains(fact, artifacts):
                    st = "stated"
                if st == "missing" and tol.read_tolerance(as_number(fact) or 0.0) and any(stands_in(fact, p, allowed) for p in pools):
                    st = "misread"
                group.append(FactStatus(repr(fact), fact, st, None))
            out += _omissions(group)
        return out

    def ungrounded_values(self, ev: Evidence) -> list[str]:
        """Values stated in the assistant's messages or written into the world that no true value of
        the episode supports, and small counts stated right after an item an image shows that are
        not that item's (:mod:`.grounding`); judged only when the scenario's own values are known
        (``ev.grounds``)."""
        if not ev.grounds:
            return []
        grounds = episode_grounds(ev)
        known = currencies_in("\n".join([*ev.grounds, *(t for c in ev.calls for t in _flatten(c.get("result")))]))
        out: list[str] = []
        for e in ev.conversation or [{"sender": "assistant", "kind": "message", "content": m} for m in ev.assistant_messages]:
            if e.get("sender") == "assistant" and e.get("kind") == "message":
                text = ev.reply_text(e.get("round_index"), e.get("content"))
                out += [f"{v!r} (reply)" for v in ungrounded(text, grounds) + misbound(text, ev.image_facts)
                        + misattributed(text, ev.image_facts) + foreign_amounts(text, known)]
        # what the assistant wrote: a value the app computed (an order's tax and subtotal, a card's new
        # balance) is the app's, not a statement of the assistant's, unless its calls carried it
        carried = [a for c in ev.calls if c.get("seat", "assistant") == "assistant" for a in _flatten(c.get("arguments"))]
        for where, text in written_values(ev.diff):
            if ev.calls and not any(text in a for a in carried):
                continue
            out += [f"{v!r} ({where})" for v in ungrounded(text, grounds) + misbound(text, ev.image_facts)]
        return list(dict.fromkeys(out))


_STATUS_RANK = {"stated": 3, "hedged": 2, "contradicted": 2, "carpet": 1, "misread": 0, "missing": 0}


def switches(fact: str, pools: list[str], got: list[str], others: list[str], tol: Tolerances, alike: list[str] = (),
             answer: str = "", siblings: list[str] = (), owners: list[str] = (),
             elsewhere: Callable[[str], bool] = lambda sentence: False) -> bool:
    """Whether the rounds' replies (``pools``, in order; ``got``: the fact's status in each) switch
    between answers: the user is left with the last one given, so a rival of ``fact`` (``others``)
    given as the answer after the fact ("Just to recap: Pine Street Books ...") contradicts it, and
    the fact given after a rival was answered corrects it only when it says so ("Correction: ...").
    ``alike``: candidates the round's reference reply (``answer``) names too, with something else
    said of them ("PlayStation Rally Racing Game isn't on your wish list"); one of them is a second
    answer only when a reply says of it what is said of the fact ("Moved X to your cart" after
    "Moved <fact> to your cart"). ``siblings``: the round's other answers of the fact's kind (the
    other dates of a list of dates); a rival named in a clause
    that states one of them and none of ``owners`` (the items the reference reply names with the
    fact) speaks of that sibling ("Earlier I compared 2026-04-28 and 2026-05-26" recaps the
    reminder set to 2026-05-26, not the one set to 2026-05-18). ``elsewhere``: whether a sentence
    speaks of an image that does not show the fact (names another chart's title: "The highest value
    is Wed in 'Weekly Cycling' at 41" recaps the cycling chart's answer, not the electricity chart's)."""
    if not others and not alike:
        return False
    value = as_number(fact)
    read = tol.read_tolerance(value) if value is not None else 0.0
    rival_seen, last = False, ""
    names = [fact, *others, *alike]
    said: set[str] = set()  # what the replies say of the fact: statements, not bare names
    own = said_of(fact, answer, names, read)  # what the reference reply says of it ("added", "moved to your cart")

    def alike_given(text: str) -> bool:
        return any(not context and asserts_other(fact, x, alike, read) and any(f" {t} " in f" {said_alike(x, names)} " for t in own)
                   for x, context in clauses(text))

    def of_sibling(clause: str) -> bool:
        return any(states(x, clause) for x in siblings) and not any(text_contains(o, clause) for o in owners)

    def rival_given(text: str, rivals: list[str]) -> bool:
        return asserts_other(fact, "\n".join(x for x in sentences(text) if not _only_of_siblings(x, of_sibling)
                                             and not elsewhere(x)), rivals, read)

    for text, st in zip(pools, got):
        if st == "missing" or not states_outside_context(fact, text, read):
            if rival_given(text, others) or alike_given(text):
                rival_seen, last = True, "rival"
            continue
        # a reply stating the fact: a rival said of in the same words after it is a second answer
        for sentence in sentences(text):
            if states_outside_context(fact, sentence, read):
                if rival_seen and not acknowledges_correction(text):
                    return True
                rival_seen, last = False, "fact"
                t = said_alike(sentence, names)
                if len(t.split()) >= 3:  # a statement, not a bare name
                    said.add(t)
            elif rival_given(sentence, [*others, *alike]) and (any(x in said_alike(sentence, names) for x in said)
                                                               or acknowledges_correction(sentence)):
                # (said of the rival as of the fact, or a correction to it: "Correction: it was actually X")
                rival_seen, last = True, "rival"
    return last == "rival"


def _kind(fact: str) -> str:
    """What kind of answer a fact is: a date, a time, a number or a name."""
    t = canonical_text(str(fact))
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?::\d{2})?)?", t):
        return "date"
    if re.fullmatch(r"\d{2}:\d{2}(?::\d{2})?", t):
        return "time"
    return "number" if as_number(fact) is not None else "name"


def _only_of_siblings(sentence: str, of_sibling: Callable[[str], bool]) -> bool:
    """Whether every clause of a sentence that is not context speaks of a sibling fact."""
    asserted = [c for c, context in clauses(sentence) if not context]
    return bool(asserted) and all(of_sibling(c) for c in asserted)


def owners_of(fact: str, answer: str, image_facts: list[Any], siblings: list[str] = ()) -> list[str]:
    """The items an image shows that the reference reply names in the sentences stating ``fact``
    and none of its ``siblings`` ("Summit Ridge Cleaning Services" for the reminder date it sets),
    values aside (a time, an "OPEN 9AM - 6PM" sign)."""
    shown = [t for t in shown_texts(image_facts) if len(t) >= 3 and not any(states(x, t) for x in [fact, *siblings])
             and as_number(t) is None and not re.search(r"\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}", t)]
    said = [x for x in sentences(answer) if states(fact, x)]
    said = [x for x in said if not any(states(y, x) for y in siblings)] or said
    return [t for t in dict.fromkeys(shown) if t != fact and any(text_contains(t, x) for x in said)]


def said_of(fact: str, text: str, names: list[str], read: float = 0.0) -> set[str]:
    """What the clauses of ``text`` that state ``fact`` say of it, candidates and numbers masked
    ("Moved Gaiam Yoga Mat to your cart." -> "moved to your cart")."""
    return {t for t in (said_alike(x, names) for x, context in clauses(text) if not context and states(fact, x, read)) if t}


def answered_alike(fact: str, other: str, answer: str, later: list[str]) -> bool:
    """Whether a later round's reference reply (``later``) gives ``other`` what this round's reference
    reply (``answer``) says of ``fact`` ("Added Tamsin Drummond." after "Added Yusuf Montague."): then
    a reply saying so answers that round. A later reference reply naming it with something else said
    ("Anselm Yamaguchi is already in your contacts") leaves "Added Anselm Yamaguchi" a second answer."""
    names = [fact, other]
    own = said_of(fact, answer, names)
    return any(not context and asserts_other(fact, x, [other]) and any(f" {t} " in f" {said_alike(x, names)} " for t in own)
               for a in later for x, context in clauses(a))


@dataclass(frozen=True)
class FactStatus:
    label: str  # how a reason names it
    fact: str
    status: str  # stated | hedged | contradicted | carpet | missing | omitted
    round_index: int | None


def _omissions(group: list[FactStatus]) -> list[FactStatus]:
    """Some of a group's facts stated and the rest absent (none hedged): the absent are omitted."""
    statuses = {f.status for f in group}
    if "stated" in statuses and "missing" in statuses and not statuses & {"hedged", "contradicted", "carpet"}:
        return [FactStatus(f.label, f.fact, "omitted", f.round_index) if f.status == "missing" else f for f in group]
    return group
