"""The deterministic rubric judge: the paper's five criteria computed from episode evidence.

Each criterion passes or fails with a one-line reason (and a machine-readable ``kind`` when it
fails); the verdict passes only if all five pass. The same :class:`Evidence` feeds the LLM judge
(:mod:`.llm_judge`), so both judges see identical facts. Thresholds (see ``docs/evaluation.md``):

* task_completion -- every expected change is paired with an actual one; in each pair every
  non-text column matches exactly (score 1) and every text column (ROUGE-L/contains) scores at
  least ``min_text_similarity`` (0.5) and contains every number of the expected text (1 %).
* instruction_following -- every scripted round was reached and got an assistant reply, and the
  user closed the conversation before the message limit.
* tool_use_validity -- at most ``max_failed_call_ratio`` (50 %) of the assistant's tool calls
  failed, at most ``max_invalid_actions`` (3) unparseable actions, and no identical failing call
  repeated ``max_repeated_failures`` (3) times.
* no_side_effects -- no change in a (table, operation) nobody asked for, no extra row in an
  expected group, no unrequested column changed in an updated row (bookkeeping is exempt, see
  :mod:`.entity_diff`).
* information_accuracy -- every scenario fact appears in the assistant's messages (case-, accent-
  and thousands-separator-insensitive; numbers within 1 %, integers exactly).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .entity_diff import EntityScore
from .similarity import DEFAULT_TOLERANCES, Tolerances, as_number, numbers_close

CRITERIA = ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy")
TEXT_MEASURES = frozenset({"rouge_l", "contains"})


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
            "metadata": self.metadata, "description": self.description,
        }


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
# Fact matching
# ---------------------------------------------------------------------------------------------

_NUM_IN_TEXT = re.compile(r"(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w]|\.\d)")


def normalise(text: str) -> str:
    """Case-, accent-, space- and thousands-separator-insensitive form for fact matching.

    >>> normalise("Total:  1,440  CAFÉ")
    'total: 1440 cafe'
    """
    t = unicodedata.normalize("NFKD", text)
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = unicodedata.normalize("NFKC", t).casefold()
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    return re.sub(r"\s+", " ", t).strip()


def numbers_in(text: str) -> list[str]:
    """The numbers written in a text, as they appear (``"$1,234.50"`` gives ``"1,234.50"``)."""
    return _NUM_IN_TEXT.findall(text)


def fact_in_text(fact: str, text: str, tol: Tolerances = DEFAULT_TOLERANCES) -> bool:
    """Whether ``text`` states ``fact``: numbers by value (1 % for decimals), other facts as text.

    >>> fact_in_text("$18.53", "The total was 18.53 dollars"), fact_in_text("9.00", "Parking: $9")
    (True, True)
    >>> fact_in_text("Night Market", "the night  market is first"), fact_in_text("12", "it costs 120")
    (True, False)
    """
    value = as_number(fact)
    if value is not None:
        integral = "." not in fact
        for raw in numbers_in(text):
            got = as_number(raw)
            if got is not None and numbers_close(value, got, tol, integral=integral and "." not in raw):
                return True
        return False
    return normalise(str(fact)) in normalise(text)


# ---------------------------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------------------------


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


def _brief(items: list[str], limit: int = 4) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


class RubricJudge:
    """Deterministic judge of the five criteria (thresholds in the module docstring)."""

    name = "rubric"

    def __init__(self, *, max_failed_call_ratio: float = 0.5, max_invalid_actions: int = 3,
                 max_repeated_failures: int = 3, min_text_similarity: float = 0.5,
                 tolerances: Tolerances = DEFAULT_TOLERANCES) -> None:
        self.max_failed_call_ratio = max_failed_call_ratio
        self.max_invalid_actions = max_invalid_actions
        self.max_repeated_failures = max_repeated_failures
        self.min_text_similarity = min_text_similarity
        self.tolerances = tolerances

    def evaluate(self, ev: Evidence) -> Verdict:
        crit = [self.task_completion(ev), self.instruction_following(ev), self.tool_use_validity(ev),
                self.no_side_effects(ev), self.information_accuracy(ev)] + list(ev.extra_criteria)
        return Verdict(all(c.passed for c in crit), crit, self.name)

    # -- criteria ------------------------------------------------------------------------------
    def task_completion(self, ev: Evidence) -> Criterion:
        e = ev.entity
        expected_groups = [g for g in e.groups if g.n_expected > 0]
        n_expected = sum(g.n_expected for g in expected_groups)
        if n_expected == 0:
            return Criterion("task_completion", True, "no state change was required")
        missing: list[str] = []
        wrong: list[str] = []
        paired = 0
        for g in expected_groups:
            where = f"{g.table}:{g.operation}"
            missing += [where] * len(g.unpaired_expected)
            paired += len(g.pairs)
            if not g.details and g.pairs:  # evidence without column detail: fall back on the pair score
                wrong += [f"{where} (similarity {s:.2f})" for _, _, s in g.pairs if s < 0.999]
            for d in g.details:
                for col, (score, measure) in d.columns.items():
                    limit = self.min_text_similarity if measure in TEXT_MEASURES else 0.999
                    if score < limit:
                        wrong.append(f"{where}.{col} ({measure} {score:.2f})")
                    elif measure in TEXT_MEASURES:
                        lost = self._numbers_lost(ev, g, d.expected, d.actual, col)
                        if lost:
                            wrong.append(f"{where}.{col} (number(s) {', '.join(lost)} not in the text)")
        if not missing and not wrong:
            return Criterion("task_completion", True, f"all {n_expected} expected change(s) were made")
        if paired == 0:
            return Criterion("task_completion", False, f"none of the {n_expected} expected change(s) was made", "no_progress")
        if missing:
            return Criterion("task_completion", False,
                             f"{len(missing)}/{n_expected} expected change(s) missing: {_brief(missing)}", "missing_changes")
        return Criterion("task_completion", False, f"wrong values in {_brief(wrong)}", "wrong_values")

    def _numbers_lost(self, ev: Evidence, g: Any, i: int, j: int, col: str) -> list[str]:
        """Numbers of an expected text value missing from the actual one (a misread amount keeps a
        high ROUGE-L but is still wrong)."""
        if i >= len(g.expected_index) or j >= len(g.actual_keys) or g.expected_index[i] >= len(ev.expected_changes):
            return []
        change = ev.expected_changes[g.expected_index[i]]
        want = (change.get("row") if g.operation == "create" else change.get("fields")) or {}
        actual = _actual_row(ev.diff, g.table, g.operation, g.actual_keys[j])
        if actual is None or not isinstance(want.get(col), str):
            return []
        text = str(actual.get(col) or "")
        return [n for n in numbers_in(want[col]) if not fact_in_text(n, text, self.tolerances)]

    def instruction_following(self, ev: Evidence) -> Criterion:
        problems, kind = [], ""
        if ev.rounds_delivered < ev.n_rounds:
            problems.append(f"only {max(0, ev.rounds_delivered)}/{ev.n_rounds} rounds reached")
            kind = kind or "rounds_missing"
        if ev.conversation:
            answered = {e.get("round_index") for e in ev.conversation
                        if e.get("sender") == "assistant" and e.get("kind") in ("message", "notice")}
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
        return Criterion("instruction_following", True, f"all {ev.n_rounds} round(s) handled and the user closed the conversation")

    def tool_use_validity(self, ev: Evidence) -> Criterion:
        calls = ev.assistant_calls() if ev.calls else []
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

    def information_accuracy(self, ev: Evidence) -> Criterion:
        if not ev.facts:
            return Criterion("information_accuracy", True, "no facts to report")
        said = "\n".join(ev.assistant_messages)
        missing = [f for f in ev.facts if not fact_in_text(f, said, self.tolerances)]
        if missing:
            return Criterion("information_accuracy", False,
                             f"{len(missing)}/{len(ev.facts)} fact(s) not stated: {_brief([repr(m) for m in missing])}", "missing_facts")
        return Criterion("information_accuracy", True, f"all {len(ev.facts)} fact(s) were stated")
