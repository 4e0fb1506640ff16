"""PNG charts of a run's metrics (matplotlib's object API on the Agg canvas: no pyplot, no GUI)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .metrics import FAILURE_CLASSES

_BLUE, _ORANGE, _GREY = "#3b6ea8", "#e08a2c", "#9aa3ad"


def _figure(width: float, height: float = 3.4) -> Figure:
    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def breakdown_chart(name: str, groups: Mapping[str, Mapping[str, Any]], path: Path) -> Path:
    """Grouped bars: Agent SR and mean entity F1 per value of one metadata key (with n on top)."""
    labels = list(groups)
    fig = _figure(max(4.8, 1.0 + 0.9 * len(labels)))
    ax = fig.add_subplot()
    xs = range(len(labels))
    sr = [groups[k]["agent_sr"] or 0.0 for k in labels]
    f1 = [groups[k]["mean_entity_f1"] or 0.0 for k in labels]
    ax.bar([x - 0.2 for x in xs], sr, width=0.4, color=_BLUE, label="Agent SR")
    ax.bar([x + 0.2 for x in xs], f1, width=0.4, color=_ORANGE, label="mean entity F1")
    for x, k in zip(xs, labels):
        ax.annotate(f"n={groups[k]['n']}", (x, max(sr[x], f1[x]) + 0.03), ha="center", fontsize=8, color="#444")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=20 if len(labels) > 4 else 0, ha="right" if len(labels) > 4 else "center", fontsize=8)
    ax.set_ylim(0, 1.32)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_title(f"By {name.replace('_', ' ')}")
    ax.legend(fontsize=8, loc="upper center", ncol=2, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def failure_chart(failures: Mapping[str, Any], path: Path) -> Path:
    """Bars of the failure taxonomy: primary class and any-class counts."""
    fig = _figure(6.0)
    ax = fig.add_subplot()
    labels = list(FAILURE_CLASSES)
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], [failures["primary"][k] for k in labels], width=0.4, color=_BLUE, label="primary")
    ax.bar([x + 0.2 for x in xs], [failures["any"][k] for k in labels], width=0.4, color=_GREY, label="any")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([k.replace("_", "\n") for k in labels], fontsize=8)
    ax.set_title(f"Failure taxonomy ({failures['failed']} failed episode(s))")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def criteria_chart(rates: Mapping[str, float], path: Path) -> Path:
    """Horizontal bars: pass rate of each judge criterion."""
    fig = _figure(6.0, 0.6 + 0.45 * max(1, len(rates)))
    ax = fig.add_subplot()
    names = list(rates)
    ax.barh(range(len(names)), [rates[n] for n in names], color=_BLUE)
    ax.set_yticks(list(range(len(names))))
    ax.set_yticklabels(names, fontsize=8)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_title("Judge criteria pass rate")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def write_plots(metrics: Mapping[str, Any], folder: Path) -> dict[str, Path]:
    """All charts of a run into ``folder``; returns ``{name: path}``."""
    folder.mkdir(parents=True, exist_ok=True)
    out: dict[str, Path] = {}
    for key, groups in metrics.get("breakdowns", {}).items():
        if groups:
            out[f"breakdown_{key}"] = breakdown_chart(key, groups, folder / f"breakdown_{key}.png")
    out["failures"] = failure_chart(metrics["failures"], folder / "failures.png")
    if metrics.get("criteria_pass_rates"):
        out["criteria"] = criteria_chart(metrics["criteria_pass_rates"], folder / "criteria.png")
    return out


def comparison_chart(labels: list[str], series: Mapping[str, list[Any]], path: Path, title: str) -> Path:
    """Grouped bars: one group per run, one bar per series (values in [0, 1]; missing as 0)."""
    colors = [_BLUE, _ORANGE, _GREY, "#5a9e6f"]
    width = 0.8 / max(1, len(series))
    fig = _figure(max(4.8, 1.2 + 1.1 * len(labels)))
    ax = fig.add_subplot()
    for k, (name, values) in enumerate(series.items()):
        xs = [x - 0.4 + width * (k + 0.5) for x in range(len(labels))]
        ax.bar(xs, [float(v or 0.0) for v in values], width=width, color=colors[k % len(colors)], label=name)
    ax.set_xticks(list(range(len(labels))))
    ax.set_xticklabels(labels, rotation=20 if len(labels) > 3 else 0, ha="right" if len(labels) > 3 else "center", fontsize=8)
    ax.set_ylim(0, 1.2)
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper center", ncol=len(series), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    return path
