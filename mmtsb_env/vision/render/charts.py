"""``bar_chart``, ``line_chart``, ``pie_chart``: matplotlib (Agg) charts with known data."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from ..plotting import MPL_LOCK, escape, figure_to_image, new_figure
from . import family
from ._common import Bool, Color, Ctx, ListOf, MapOf, Num, Str, clutter_count, degrade, drafting

MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
# (title, labels, low, high, units, integer values?)
TOPICS = [
    ("Monthly Sales", MONTHS, 20, 95, "k$", False),
    ("Fruit Sold This Week", ["Apples", "Bananas", "Cherries", "Grapes", "Mangoes", "Pears"], 10, 120, "kg", True),
    ("Website Visitors", ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], 800, 5200, "visits", True),
    ("Average Temperature", MONTHS, -5, 31, "°C", False),
    ("Books Read per Student", ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fatima", "Gus"], 1, 24, "books", True),
    ("Energy Use by Room", ["Kitchen", "Living room", "Bedroom", "Office", "Garage"], 40, 400, "kWh", True),
    ("Quarterly Revenue", ["Q1", "Q2", "Q3", "Q4"], 120, 480, "$M", False),
    ("Survey: Favourite Pet", ["Dogs", "Cats", "Fish", "Birds", "Reptiles"], 5, 60, "%", True),
]
COLORS = ["#4472c4", "#ed7d31", "#70ad47", "#5b9bd5", "#a5a5a5", "#9e480e", "#264478", "#c00000"]

COMMON = {
    "title": Str(80), "labels": ListOf(Str(40), 1, 24), "units": Str(12, allow_empty=True), "value_labels": Bool(),
    "xlabel": Str(60), "ylabel": Str(60), "color": Color(), "source": Str(80),
}


def _fmt(v: float, units: str) -> str:
    text = f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}" if abs(v * 10 - round(v * 10)) < 1e-9 else f"{v:,.2f}"
    if units in ("$", "€", "£"):
        return units + text
    if units == "%":
        return text + "%"
    return f"{text} {units}".strip()


def _topic(ctx: Ctx, n_series: int = 1) -> dict[str, Any]:
    """Default title/labels/values drawn from one topic (each still overridable separately)."""
    r = ctx.rng("field:topic")
    topics = [t for t in TOPICS if t[2] >= 0] if ctx.kind == "pie_chart" else TOPICS  # shares are never negative
    title, labels, lo, hi, units, integer = topics[r.randrange(len(topics))]
    if labels is MONTHS:
        start = r.randrange(0, 6)
        labels = MONTHS[start:start + r.randint(5, 7)]
    labels = list(labels)
    def series() -> list[float]:
        vals = [r.uniform(lo, hi) for _ in labels]
        return [float(round(v)) if integer else round(v, 1) for v in vals]
    return {"title": title, "labels": labels, "units": units, "values": series(),
            "series": {name: series() for name in ["2024", "2025", "2026"][:n_series]}}


def _content(ctx: Ctx, n_series: int = 1) -> dict[str, Any]:
    t = _topic(ctx, n_series)
    c = ctx.content
    given = c.get("values") or (next(iter(c["series"].values())) if c.get("series") else None)
    if "labels" in c:
        labels = c["labels"]
    elif given is not None:  # labels to fit the given numbers
        labels = t["labels"][:len(given)] if len(given) <= len(t["labels"]) else [f"P{i + 1}" for i in range(len(given))]
    else:
        labels = t["labels"]
    values = c.get("values")
    if values is None:
        r = ctx.rng("field:values")
        base = t["values"]
        values = [base[i % len(base)] for i in range(len(labels))]
        if len(labels) != len(base):
            values = [round(v * r.uniform(0.8, 1.2), 1) for v in values]
    if len(values) != len(labels):
        raise ValueError(f"{ctx.kind} spec: content.values has {len(values)} numbers but content.labels has {len(labels)}")
    return {"title": c.get("title", t["title"]), "labels": labels, "values": values,
            "units": c.get("units", t["units"]), "series": t["series"]}


def _style(ctx: Ctx, fig, ax) -> None:
    s = ctx.scale
    ax.title.set_fontsize(17 * s)
    ax.title.set_fontweight("bold")
    ax.tick_params(labelsize=12 * s)
    ax.xaxis.label.set_fontsize(13 * s)
    ax.yaxis.label.set_fontsize(13 * s)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if ctx.difficulty >= 1:
        ax.grid(True, axis="y", alpha=0.35)
        ax.set_axisbelow(True)


def _clutter(ctx: Ctx, fig, ax) -> None:
    n = clutter_count(ctx)
    if not n:
        return
    r = ctx.rng("clutter")
    notes = [f"Source: {r.choice(['internal records', 'City Open Data', 'Annual Survey', 'Company report'])}, {r.randint(2019, 2025)}",
             "Preliminary figures", f"n = {r.randint(120, 4000)} respondents", f"Updated {r.choice(MONTHS)} {r.randint(1, 28)}",
             f"Target: {r.randint(10, 99)}"]
    chosen = r.sample(notes, min(n, len(notes)))
    for i, text in enumerate(chosen):
        fig.text(0.99, 0.01 + i * 0.035, escape(text), ha="right", va="bottom", fontsize=9 * ctx.scale, color="#777777")
        ctx.distractors.append(text)
    # the notes get a band of their own: the tight layout keeps axes, ticks and labels above it
    fig.get_layout_engine().set(rect=(0, 0.02 + len(chosen) * 0.035, 1, 1))


def _finish(ctx: Ctx, fig) -> Any:
    if drafting():  # rasterising is most of a chart's cost and decides no fact
        w, h = fig.get_size_inches() * fig.dpi
        return Image.new("RGB", (int(w), int(h)), (255, 255, 255))
    image = figure_to_image(fig)
    return degrade(image, ctx, fill=(255, 255, 255))


def _tick_labels(names: list[str], ctx: Ctx, slot_px: float) -> tuple[list[str], int]:
    """Category labels that fit their slot: as they are, split at spaces onto two lines, or
    (a long single word) turned upright -- never slanted, where neighbours' boxes would cross."""
    from ..fonts import get_font

    font = get_font("sans", 12 * ctx.scale * 100 / 72)  # the tick font in px at 100 dpi
    def widest(texts):
        return max(font.getlength(part) for t in texts for part in t.split("\n"))
    if widest(names) <= slot_px * 0.9:
        return names, 0
    split = [n.replace(" ", "\n", 1) if font.getlength(n) > slot_px * 0.9 else n for n in names]
    if widest(split) <= slot_px * 0.9:
        return split, 0
    return names, 90


def _extremes(labels: list[str], values: list[float]) -> dict[str, Any]:
    hi, lo = int(np.argmax(values)), int(np.argmin(values))
    return {"max_label": labels[hi], "max_value": values[hi], "min_label": labels[lo], "min_value": values[lo],
            "total": round(float(sum(values)), 6)}


@family("bar_chart", {**COMMON, "values": ListOf(Num(-1e12, 1e12), 1, 24), "horizontal": Bool()}, check=_content)
def draw_bar_chart(ctx: Ctx):
    """A bar chart of labelled values (optionally horizontal, optionally with value labels)."""
    c = _content(ctx)
    title, labels, values, units = c["title"], c["labels"], c["values"], c["units"]
    value_labels = ctx.get("value_labels", lambda r: ctx.difficulty <= 1)
    horizontal = ctx.get("horizontal", lambda r: r.random() < 0.25)
    color = ctx.get("color", lambda r: r.choice(COLORS))
    ylabel = ctx.content.get("ylabel", units if units else "")
    xlabel = ctx.content.get("xlabel", "")
    with MPL_LOCK:
        fig = new_figure((8, 5.6), 100)
        ax = fig.add_subplot()
        pos = np.arange(len(labels))
        names = [escape(l) for l in labels]
        if horizontal:
            bars = ax.barh(pos, values, color=color)
            ax.set_yticks(pos, names)
            ax.invert_yaxis()
            ax.set_xlabel(escape(ylabel))
            if xlabel:
                ax.set_ylabel(escape(xlabel))
        else:
            bars = ax.bar(pos, values, color=color)
            names, rotation = _tick_labels(names, ctx, 8 * 100 * 0.82 / len(labels))
            ax.set_xticks(pos, names, rotation=rotation, ha="center")
            ax.set_ylabel(escape(ylabel))
            if xlabel:
                ax.set_xlabel(escape(xlabel))
        ax.set_title(escape(title))
        if value_labels:
            ax.bar_label(bars, labels=[escape(_fmt(v, units)) for v in values], padding=3, fontsize=11 * ctx.scale)
            ax.margins(x=0.12) if horizontal else ax.margins(y=0.12)
        _style(ctx, fig, ax)
        _clutter(ctx, fig, ax)
        image = _finish(ctx, fig)
    facts = {"title": title, "labels": labels, "values": values, "units": units, "value_labels": value_labels,
             "horizontal": horizontal, **_extremes(labels, values)}
    return image, facts


def _line_content(ctx: Ctx) -> tuple[dict[str, Any], dict[str, list[float]]]:
    """The chart content and its named series (ValueError when they do not fit together)."""
    if "series" in ctx.content and "values" in ctx.content:
        raise ValueError("line_chart spec: give content.values (one line) or content.series (several), not both")
    n_default = ctx.rng("field:n_series").choice([1, 1, 2, 3])
    c = _content(ctx, n_default)
    labels = c["labels"]
    if "series" in ctx.content:
        series = ctx.content["series"]
    elif "values" in ctx.content or n_default == 1:
        series = {"": c["values"]}
    else:
        series = {k: [v[i % len(v)] for i in range(len(labels))] for k, v in c["series"].items()}
    for name, vals in series.items():
        if len(vals) != len(labels):
            raise ValueError(f"line_chart spec: content.series.{name} has {len(vals)} numbers but content.labels has {len(labels)}")
    return c, series


@family("line_chart", {**COMMON, "values": ListOf(Num(-1e12, 1e12), 2, 60),
                       "series": MapOf(ListOf(Num(-1e12, 1e12), 2, 60), 1, 6), "markers": Bool()}, check=_line_content)
def draw_line_chart(ctx: Ctx):
    """A line chart of one or more named series over labelled x positions."""
    c, series = _line_content(ctx)
    title, labels, units = c["title"], c["labels"], c["units"]
    value_labels = ctx.get("value_labels", lambda r: ctx.difficulty == 0 and len(labels) <= 12 and len(series) == 1)
    markers = ctx.get("markers", lambda r: True)
    color = ctx.get("color", lambda r: r.choice(COLORS))
    with MPL_LOCK:
        fig = new_figure((8, 5.6), 100)
        ax = fig.add_subplot()
        pos = np.arange(len(labels))
        for i, (name, vals) in enumerate(series.items()):
            ax.plot(pos, vals, marker="o" if markers else None, linewidth=2.2, label=escape(name) or None,
                    color=color if len(series) == 1 else COLORS[i % len(COLORS)])
            if value_labels:
                for x, v in zip(pos, vals):
                    ax.annotate(escape(_fmt(v, units)), (x, v), textcoords="offset points", xytext=(0, 8),
                                ha="center", fontsize=10 * ctx.scale)
        ax.set_xticks(pos, [escape(l) for l in labels])
        ax.set_title(escape(title))
        ax.set_ylabel(escape(ctx.content.get("ylabel", units)))
        if "xlabel" in ctx.content:
            ax.set_xlabel(escape(ctx.content["xlabel"]))
        if len(series) > 1:
            ax.legend(fontsize=11 * ctx.scale)
        if value_labels:
            ax.margins(y=0.15)
        _style(ctx, fig, ax)
        _clutter(ctx, fig, ax)
        image = _finish(ctx, fig)
    first = next(iter(series.values()))
    facts = {"title": title, "labels": labels, "series": series, "units": units, "value_labels": value_labels}
    if len(series) == 1:
        facts["values"] = first
        facts.update(_extremes(labels, first))
    return image, facts


def _pie_content(ctx: Ctx) -> dict[str, Any]:
    c = _content(ctx)
    if sum(c["values"][:12]) <= 0:
        raise ValueError("pie_chart spec: content.values must have a positive sum")
    return c


@family("pie_chart", {**COMMON, "values": ListOf(Num(0, 1e12), 1, 12)}, check=_pie_content)
def draw_pie_chart(ctx: Ctx):
    """A pie chart of labelled shares (percentages printed on the slices unless value_labels is false)."""
    c = _pie_content(ctx)
    title, labels, values, units = c["title"], c["labels"][:12], c["values"][:12], c["units"]
    value_labels = ctx.get("value_labels", lambda r: ctx.difficulty <= 2)
    start = ctx.rng("layout").choice([0, 90, 140])
    total = float(sum(values))
    pct = [round(100 * v / total, 1) for v in values]
    with MPL_LOCK:
        fig = new_figure((8, 6), 100)
        ax = fig.add_subplot()
        wedges, texts, *auto = ax.pie(
            values, labels=[escape(l) for l in labels], startangle=start, counterclock=False,
            colors=[COLORS[i % len(COLORS)] for i in range(len(values))],
            autopct=(lambda p: f"{p:.1f}%") if value_labels else None, pctdistance=0.72,
            wedgeprops={"edgecolor": "white", "linewidth": 1.5},
            textprops={"fontsize": 12 * ctx.scale},
        )
        for t in (auto[0] if auto else []):
            t.set_color("white")
            t.set_fontweight("bold")
        ax.set_aspect("equal")
        ax.set_title(escape(title), fontsize=17 * ctx.scale, fontweight="bold")
        _clutter(ctx, fig, ax)
        image = _finish(ctx, fig)
    facts = {"title": title, "labels": labels, "values": values, "units": units, "percentages": pct,
             "value_labels": value_labels, **_extremes(labels, values)}
    return image, facts
