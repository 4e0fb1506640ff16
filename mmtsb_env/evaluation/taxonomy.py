"""Failure taxonomy (the paper's Table 3), computed from the criteria the verdict itself uses.

A failed verdict falls in every class whose criterion failed; its *primary* class is the first in
this precedence order:

=========================  ==================================================================
task_failure               task_completion failed: the requested actions were not made
                           (missing workflow steps, resource not found, gave up, loops)
factual_error              task completion passed, information_accuracy failed: the right
                           workflow with a wrong value (misread image, wrong claim, hedging)
incomplete_execution       task completion and information accuracy passed,
                           instruction_following failed (a specified detail wrong, a round
                           left unanswered, the conversation not finished)
uncontrolled_behaviour     only no_side_effects or tool_use_validity failed (extra or
                           collateral writes, erratic tool use)
other                      only criteria beyond the five failed (e.g. a UI scenario's UI checks)
=========================  ==================================================================

The same function classifies rubric and LLM verdicts: both name the same five criteria.

>>> classify({"pass": False, "criteria": [{"criterion": "task_completion", "pass": True},
...                                        {"criterion": "information_accuracy", "pass": False},
...                                        {"criterion": "no_side_effects", "pass": False}]})
('factual_error', ['factual_error', 'uncontrolled_behaviour'])
>>> classify({"pass": True, "criteria": []})
(None, [])
"""

from __future__ import annotations

from typing import Any, Mapping

FAILURE_CLASSES = ("task_failure", "factual_error", "incomplete_execution", "uncontrolled_behaviour", "other")
CLASS_OF_CRITERION = {
    "task_completion": "task_failure",
    "information_accuracy": "factual_error",
    "instruction_following": "incomplete_execution",
    "no_side_effects": "uncontrolled_behaviour",
    "tool_use_validity": "uncontrolled_behaviour",
}


def classify(verdict: Mapping[str, Any] | None) -> tuple[str | None, list[str]]:
    """(primary class, every class in precedence order) of a verdict's JSON; ``(None, [])`` for a
    pass or no verdict. A failed verdict without any failed criterion counts as a task failure."""
    if not verdict or verdict.get("pass"):
        return None, []
    classes = {CLASS_OF_CRITERION.get(str(c.get("criterion")), "other")
               for c in verdict.get("criteria", []) if not c.get("pass")}
    if not classes:
        classes = {"task_failure"}
    ordered = [k for k in FAILURE_CLASSES if k in classes]
    return ordered[0], ordered
