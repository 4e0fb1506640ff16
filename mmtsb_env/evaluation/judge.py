"""The deterministic rubric judge: the paper's five criteria computed from episode evidence.

Each criterion passes or fails with a one-line reason; the verdict passes only if all pass.
The same :class:`Evidence` feeds the LLM judge, so both judges see identical facts.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from .entity_diff import EntityScore

CRITERIA = ("task_completion", "instruction_following", "tool_use_validity", "no_side_effects", "information_accuracy")


@dataclass
class Evidence:
    """What happened in an episode, as a judge needs it."""

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
    calls: list[dict[str, Any]] = field(default_factory=list)
    completion_criteria: str = ""


@dataclass
class Criterion:
    name: str
    passed: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"criterion": self.name, "pass": self.passed, "reason": self.reason}


@dataclass
class Verdict:
    passed: bool
    criteria: list[Criterion]
    judge: str = "rubric"

    @property
    def score(self) -> float:
        return 1.0 if self.passed else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"pass": self.passed, "judge": self.judge, "criteria": [c.to_json() for c in self.criteria]}


def normalise(text: str) -> str:
    """Case-, accent-, space- and thousands-separator-insensitive form for fact matching."""
    t = unicodedata.normalize("NFKC", text).casefold()
    t = re.sub(r"(?<=\d),(?=\d{3}\b)", "", t)
    return re.sub(r"\s+", " ", t).strip()


class RubricJudge:
    """Deterministic judge. ``max_failed_call_ratio`` tolerates some failed calls that were fixed."""

    name = "rubric"

    def __init__(self, *, max_failed_call_ratio: float = 0.5, max_invalid_actions: int = 3) -> None:
        self.max_failed_call_ratio = max_failed_call_ratio
        self.max_invalid_actions = max_invalid_actions

    def evaluate(self, ev: Evidence) -> Verdict:
        e = ev.entity
        crit = []
        crit.append(Criterion(
            "task_completion", e.recall >= 0.999,
            f"expected changes matched with recall {e.recall:.2f}" if e.recall < 0.999 else "every expected change was made",
        ))
        done = ev.rounds_delivered >= ev.n_rounds and ev.ended_by_user and not ev.truncated
        crit.append(Criterion(
            "instruction_following", done,
            "all rounds were handled and the user closed the conversation" if done else
            f"{ev.rounds_delivered}/{ev.n_rounds} rounds reached" + (", hit the message limit" if ev.truncated else "") +
            ("" if ev.ended_by_user else ", the user did not close the conversation"),
        ))
        ratio = ev.n_failed_calls / ev.n_tool_calls if ev.n_tool_calls else 0.0
        valid = ratio <= self.max_failed_call_ratio and ev.n_invalid_actions <= self.max_invalid_actions
        crit.append(Criterion(
            "tool_use_validity", valid,
            f"{ev.n_failed_calls}/{ev.n_tool_calls} calls failed, {ev.n_invalid_actions} invalid actions",
        ))
        extra = [f"{g.table}:{g.operation}" for g in e.groups if g.precision < 0.999]
        crit.append(Criterion(
            "no_side_effects", not extra,
            "no unexpected or wrong writes" if not extra else f"unexpected or wrong writes in {', '.join(extra)}",
        ))
        said = normalise("\n".join(ev.assistant_messages))
        missing = [f for f in ev.facts if normalise(f) not in said]
        crit.append(Criterion(
            "information_accuracy", not missing,
            "every required fact was reported" if not missing else f"missing from the answers: {missing}",
        ))
        return Verdict(all(c.passed for c in crit), crit, self.name)
