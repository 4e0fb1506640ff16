"""One line per metric the evaluation prints (the eval summary, report.md, the tables, the viewer);
docs/evaluation.md repeats them."""

from __future__ import annotations

from typing import Sequence

LEGEND = {
    "episodes": "episodes played, errored ones included",
    "errored": "episodes where the agent, a model backend or the scenario setup failed (not a task failure); left out of every rate",
    "agent_sr": "Agent SR: share of scored episodes the judge passed (all five criteria)",
    "mean_entity_f1": "entity F1: how well the world's changes match the expected ones (entity diff), mean over episodes",
    "avg_steps": "Avg. Steps (the paper's): messages of both seats that count toward the step cap, per episode",
    "avg_assistant_steps": "assistant steps: the assistant's actions per episode",
    "user_sr": "User SR: share of episodes whose user seat passed the user judge (blank if not judged)",
    "ui_sr": "UI SR: share of UI episodes whose UI checks passed (Table 4)",
    "surfaced_tool_recall": "surfaced tool recall: reference-solution tools that tool search showed (search runs only)",
    "invoked_tool_recall": "invoked tool recall: reference-solution tools the assistant called (search runs only)",
    "failure shares": "Table 3: share of failed episodes per failure class (primary: one class each, by precedence)",
}


def legend(keys: Sequence[str] | None = None, *, bullet: str = "  ") -> str:
    """``key: meaning`` lines for ``keys`` (default: all), each starting with ``bullet``."""
    return "\n".join(f"{bullet}{k}: {LEGEND[k]}" for k in (keys or LEGEND) if k in LEGEND)


METRIC_LEGEND = "metrics:\n" + legend(["episodes", "errored", "agent_sr", "mean_entity_f1", "avg_steps",
                                        "avg_assistant_steps", "user_sr", "surfaced_tool_recall", "invoked_tool_recall"])
