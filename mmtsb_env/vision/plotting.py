"""Headless matplotlib charts for the ``plot`` tool (the chart render families draw with Pillow).

Only the object-oriented API is used (``Figure`` + ``FigureCanvasAgg``), never pyplot's global
figure state. Matplotlib's shared caches are not documented as thread-safe, so drawing is
serialised by :data:`MPL_LOCK`; a chart takes a few tens of milliseconds.
"""

from __future__ import annotations

import math
import threading
import warnings
from typing import Any, Sequence

import numpy as np
from PIL import Image

from ..tools.errors import InvalidArgument

MPL_LOCK = threading.RLock()
MAX_SIDE = 4096
MAX_PIXELS = 16_000_000
MAX_POINTS = 100_000
MAX_ABS = 1e100
MAX_TEXT = 300
MAX_LABELS = 200  # texts drawn from the data (point labels, bar and tick names, pie slices): each is a text artist
PLOT_TYPES = ("line", "bar", "scatter", "histogram", "boxplot", "pie", "heatmap")
LINE_STYLES = {"solid": "-", "dashed": "--", "dotted": ":", "dashdot": "-.", "-": "-", "--": "--", ":": ":",
               "-.": "-.", "none": "None", "": "None"}
# data parameters each plot type understands
USES = {
    "line": {"x", "y", "groups", "labels"},
    "bar": {"categories", "heights", "groups", "labels"},
    "scatter": {"x", "y", "sizes", "labels"},
    "histogram": {"data", "groups"},
    "boxplot": {"data", "groups", "labels"},
    "pie": {"sizes", "data", "labels", "explode"},
    "heatmap": {"matrix"},
}
DATA_PARAMS = ("x", "y", "categories", "data", "heights", "groups", "sizes", "labels", "matrix", "explode")


def escape(text: Any) -> str:
    """Text for matplotlib with ``$`` shown literally (no mathtext)."""
    return str(text).replace("$", r"\$")


def new_figure(figsize: Sequence[float], dpi: int):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=tuple(figsize), dpi=dpi, facecolor="white", layout="tight")
    FigureCanvasAgg(fig)
    return fig


def figure_to_image(fig) -> Image.Image:
    """Draw ``fig`` and return it as an RGB PIL image of exactly its pixel size."""
    canvas = fig.canvas
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # layout engines warn when labels cannot fit
        canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    return Image.fromarray(np.ascontiguousarray(rgba[..., :3]), "RGB")


# ---------------------------------------------------------------------------- validation helpers


def _finite_list(values: Any, name: str, *, min_len: int = 1, nonneg: bool = False) -> list[float]:
    if not isinstance(values, (list, tuple)):
        raise InvalidArgument(f"parameter {name!r} must be a list of numbers")
    if len(values) < min_len:
        raise InvalidArgument(f"parameter {name!r} must have at least {min_len} value(s), got {len(values)}")
    if len(values) > MAX_POINTS:
        raise InvalidArgument(f"parameter {name!r} has {len(values)} values; at most {MAX_POINTS} are allowed")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InvalidArgument(f"parameter {name!r}[{i}] must be a finite number, got {v!r}")
        if abs(v) > MAX_ABS:
            raise InvalidArgument(f"parameter {name!r}[{i}] is too large to plot ({v!r}; the limit is 1e100 in magnitude)")
        if nonneg and v < 0:
            raise InvalidArgument(f"parameter {name!r}[{i}] must not be negative, got {v!r}")
        out.append(float(v))
    return out


def _same_len(a: Sequence[Any], a_name: str, b: Sequence[Any], b_name: str) -> None:
    if len(a) != len(b):
        raise InvalidArgument(f"parameter {b_name!r} has {len(b)} values but {a_name!r} has {len(a)}; they must match")



def _groups(groups: Any, name: str = "groups", *, equal_len: bool = False) -> dict[str, list[float]]:
    if not isinstance(groups, dict) or not groups:
        raise InvalidArgument(f"parameter {name!r} must be a non-empty object mapping names to lists of numbers")
    if len(groups) > 30:
        raise InvalidArgument(f"parameter {name!r} has {len(groups)} groups; at most 30 are allowed")
    out = {str(k): _finite_list(v, f"{name}.{k}") for k, v in groups.items()}
    if equal_len and len({len(v) for v in out.values()}) > 1:
        sizes = ", ".join(f"{k}: {len(v)}" for k, v in out.items())
        raise InvalidArgument(f"every series in {name!r} must have the same length ({sizes})")
    return out


def _limits(value: Any, name: str) -> tuple[float, float] | None:
    if value is None:
        return None
    vals = _finite_list(value, name, min_len=2)
    if len(vals) != 2 or not vals[0] < vals[1]:
        raise InvalidArgument(f"parameter {name!r} must be [min, max] with min < max, got {value!r}")
    return vals[0], vals[1]


def check_color(color: Any, name: str = "color") -> str | None:
    from matplotlib.colors import is_color_like

    if color is None or color == "":
        return None
    if not isinstance(color, str) or not is_color_like(color):
        raise InvalidArgument(f"parameter {name!r} is not a colour matplotlib knows: {color!r} (try 'red', 'tab:blue' or '#1f77b4')")
    return color


def check_figure(figsize: Any, dpi: Any) -> tuple[tuple[float, float], int]:
    if figsize is None:
        figsize = [6.4, 4.8]
    size = _finite_list(figsize, "figsize", min_len=2)
    if len(size) != 2 or not all(0.5 <= s <= 50 for s in size):
        raise InvalidArgument(f"parameter 'figsize' must be [width, height] in inches, each 0.5-50, got {figsize!r}")
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 20 <= dpi <= 600:
        raise InvalidArgument(f"parameter 'dpi' must be an integer 20-600, got {dpi!r}")
    w, h = size[0] * dpi, size[1] * dpi
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise InvalidArgument(
            f"figsize {size} at dpi {dpi} gives {int(w)}x{int(h)} pixels; the limit is {MAX_SIDE} px per side and "
            f"{MAX_PIXELS // 1_000_000} MP (lower 'figsize' or 'dpi')"
        )
    return (size[0], size[1]), dpi


# ---------------------------------------------------------------------------- the plot tool's chart


def make_plot(
    type: str,
    title: str = "",
    x: list[float] | None = None,
    y: list[float] | None = None,
    categories: list[str] | None = None,
    data: list[float] | None = None,
    heights: list[float] | None = None,
    groups: dict | None = None,
    sizes: list[float] | None = None,
    labels: list[str] | None = None,
    matrix: dict | None = None,
    xlabel: str = "",
    ylabel: str = "",
    color: str | None = None,
    marker: str = "",
    line_style: str = "solid",
    linewidth: float = 1.5,
    point_size: float = 50.0,
    num_bins: int = 10,
    bar_label_rotation: float = 0.0,
    show_means: bool = False,
    explode: list[float] | None = None,
    start_angle: float = 0.0,
    color_map: str = "viridis",
    show_colorbar: bool = True,
    figsize: list[float] | None = None,
    grid: bool = False,
    xlim: list[float] | None = None,
    ylim: list[float] | None = None,
    dpi: int = 100,
) -> tuple[Image.Image, str]:
    """Validate everything, then draw. Returns ``(image, one-line description)``."""
    kind = str(type).strip().lower()
    aliases = {"hist": "histogram", "box": "boxplot", "lines": "line", "plot": "line", "barh": "bar"}
    kind = aliases.get(kind, kind)
    if kind not in PLOT_TYPES:
        raise InvalidArgument(f"parameter 'type' must be one of {', '.join(PLOT_TYPES)}; got {type!r}")
    given = {k: v for k, v in dict(x=x, y=y, categories=categories, data=data, heights=heights, groups=groups,
                                   sizes=sizes, labels=labels, matrix=matrix, explode=explode).items() if v is not None}
    stray = [k for k in given if k not in USES[kind]]
    if stray:
        raise InvalidArgument(
            f"plot type {kind!r} does not use parameter(s) {', '.join(map(repr, stray))}; "
            f"it uses: {', '.join(sorted(USES[kind]))}"
        )
    for name, text in (("title", title), ("xlabel", xlabel), ("ylabel", ylabel)):
        if len(text) > MAX_TEXT:
            raise InvalidArgument(f"parameter {name!r} is too long ({len(text)} characters, at most {MAX_TEXT})")
    size, dpi = check_figure(figsize, dpi)
    color = check_color(color)
    xl, yl = _limits(xlim, "xlim"), _limits(ylim, "ylim")
    for name, value in (("linewidth", linewidth), ("point_size", point_size), ("bar_label_rotation", bar_label_rotation),
                        ("start_angle", start_angle)):
        if not math.isfinite(value):
            raise InvalidArgument(f"parameter {name!r} must be a finite number, got {value!r}")
    if not 0 < linewidth <= 50:
        raise InvalidArgument(f"parameter 'linewidth' must be in (0, 50], got {linewidth!r}")
    if not 0 < point_size <= 10_000:
        raise InvalidArgument(f"parameter 'point_size' must be in (0, 10000], got {point_size!r}")
    if line_style not in LINE_STYLES:
        raise InvalidArgument(f"parameter 'line_style' must be one of solid, dashed, dotted, dashdot; got {line_style!r}")
    ls = LINE_STYLES[line_style]
    mk = _marker(marker, default="o" if kind == "scatter" else None)
    for name, values in (("labels", labels), ("categories", categories)):
        if values is not None:
            _check_labels(values, name)

    # -- data checks per type (all before drawing)
    plan: dict[str, Any] = {}
    if kind == "line":
        if groups is not None:
            if y is not None:
                raise InvalidArgument("give either 'y' (one line) or 'groups' (several named lines), not both")
            series = _groups(groups)
        elif y is not None:
            series = {(labels[0] if labels else ""): _finite_list(y, "y")}
            if labels is not None and len(labels) != 1:
                raise InvalidArgument("parameter 'labels' for a single line must hold one legend name")
        else:
            raise InvalidArgument("plot type 'line' needs 'y' (or 'groups' for several lines)")
        if groups is not None and labels is not None:
            raise InvalidArgument("with 'groups' the legend uses the group names; leave 'labels' out")
        xs = _finite_list(x, "x") if x is not None else None
        for name, ys in series.items():
            if xs is not None:
                _same_len(xs, "x", ys, "y" if groups is None else f"groups.{name}")
        plan = {"series": series, "x": xs}
    elif kind == "bar":
        if groups is not None:
            if heights is not None:
                raise InvalidArgument("give either 'heights' (one bar series) or 'groups' (grouped bars), not both")
            series = _groups(groups, equal_len=True)
            n = len(next(iter(series.values())))
        elif heights is not None:
            series = {"": _finite_list(heights, "heights")}
            n = len(series[""])
        else:
            raise InvalidArgument("plot type 'bar' needs 'heights' (or 'groups' for grouped bars)")
        if n > MAX_LABELS:
            raise InvalidArgument(f"a bar chart has {n} bars per series; at most {MAX_LABELS} are allowed")
        cats = [str(c) for c in categories] if categories is not None else [str(i + 1) for i in range(n)]
        if len(cats) != n:
            raise InvalidArgument(f"parameter 'categories' has {len(cats)} names but there are {n} bars per series; they must match")
        if labels is not None:
            raise InvalidArgument("bar charts name bars with 'categories' (and series with 'groups' keys), not 'labels'")
        plan = {"series": series, "categories": cats}
    elif kind == "scatter":
        if x is None or y is None:
            raise InvalidArgument("plot type 'scatter' needs both 'x' and 'y'")
        xs, ys = _finite_list(x, "x"), _finite_list(y, "y")
        _same_len(xs, "x", ys, "y")
        ss = None
        if sizes is not None:
            ss = _finite_list(sizes, "sizes", nonneg=True)
            _same_len(xs, "x", ss, "sizes")
        if labels is not None:
            _same_len(xs, "x", labels, "labels")
        plan = {"x": xs, "y": ys, "sizes": ss}
    elif kind == "histogram":
        if not isinstance(num_bins, int) or not 1 <= num_bins <= 1000:
            raise InvalidArgument(f"parameter 'num_bins' must be an integer 1-1000, got {num_bins!r}")
        if data is not None and groups is not None:
            raise InvalidArgument("give either 'data' or 'groups' for a histogram, not both")
        if data is None and groups is None:
            raise InvalidArgument("plot type 'histogram' needs 'data' (or 'groups' for overlaid histograms)")
        plan = {"series": _groups(groups) if groups is not None else {"": _finite_list(data, "data")}}
    elif kind == "boxplot":
        if data is not None and groups is not None:
            raise InvalidArgument("give either 'data' (one box) or 'groups' (one box per group), not both")
        if groups is not None:
            series = _groups(groups)
            if labels is not None:
                raise InvalidArgument("with 'groups' the boxes are named by the group names; leave 'labels' out")
        elif data is not None:
            series = {(labels[0] if labels else ""): _finite_list(data, "data")}
            if labels is not None and len(labels) != 1:
                raise InvalidArgument("parameter 'labels' for a single box must hold one name")
        else:
            raise InvalidArgument("plot type 'boxplot' needs 'data' (or 'groups' for several boxes)")
        plan = {"series": series}
    elif kind == "pie":
        if sizes is not None and data is not None:
            raise InvalidArgument("give the slice sizes in 'sizes' (or 'data'), not both")
        if sizes is None and data is None:
            raise InvalidArgument("plot type 'pie' needs 'sizes' (the slice values)")
        name = "sizes" if sizes is not None else "data"
        vals = _finite_list(sizes if sizes is not None else data, name, nonneg=True)
        if sum(vals) <= 0:
            raise InvalidArgument(f"parameter {name!r} must have a positive sum")
        if len(vals) > MAX_LABELS:
            raise InvalidArgument(f"a pie chart has {len(vals)} slices; at most {MAX_LABELS} are allowed")
        if labels is not None:
            _same_len(vals, name, labels, "labels")
        ex = None
        if explode is not None:
            ex = _finite_list(explode, "explode", nonneg=True)
            _same_len(vals, name, ex, "explode")
            if max(ex) > 2:
                raise InvalidArgument("values of 'explode' must be at most 2 (fractions of the radius)")
        plan = {"sizes": vals, "explode": ex}
    elif kind == "heatmap":
        if matrix is None:
            raise InvalidArgument("plot type 'heatmap' needs 'matrix': {\"values\": [[...], ...], \"row_labels\": [...], \"col_labels\": [...]}")
        plan = _matrix(matrix)
        _cmap(color_map)

    with MPL_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "tight layout not applied" on tiny figures
        fig = new_figure(size, dpi)
        ax = fig.add_subplot()
        style = {"color": color, "ls": ls, "mk": mk, "linewidth": linewidth, "point_size": point_size,
                 "labels": labels, "num_bins": num_bins, "bar_label_rotation": bar_label_rotation,
                 "show_means": show_means, "start_angle": start_angle, "color_map": color_map,
                 "show_colorbar": show_colorbar}
        desc = _draw(kind, ax, fig, plan, style)
        if title:
            ax.set_title(escape(title))
        if xlabel:
            ax.set_xlabel(escape(xlabel))
        if ylabel:
            ax.set_ylabel(escape(ylabel))
        if grid:
            ax.grid(True, alpha=0.4)
            ax.set_axisbelow(True)
        if xl:
            ax.set_xlim(*xl)
        if yl:
            ax.set_ylim(*yl)
        image = figure_to_image(fig)
    return image, desc


def _marker(marker: Any, default: str | None) -> str | None:
    if marker in (None, ""):
        return default
    from matplotlib.markers import MarkerStyle

    try:
        MarkerStyle(marker)
    except (ValueError, TypeError):
        raise InvalidArgument(f"parameter 'marker' is not a matplotlib marker: {marker!r} (try 'o', 's', '^', 'x', '.')") from None
    return marker


def _cmap(name: Any):
    import matplotlib

    try:
        return matplotlib.colormaps[name]
    except (KeyError, TypeError):
        raise InvalidArgument(f"parameter 'color_map' is not a known colour map: {name!r} (try viridis, plasma, coolwarm, Blues)") from None


def _matrix(matrix: Any) -> dict[str, Any]:
    if not isinstance(matrix, dict):
        raise InvalidArgument("parameter 'matrix' must be an object with 'values' (a list of rows)")
    known = {"values", "data", "row_labels", "col_labels"}
    unknown = [k for k in matrix if k not in known]
    if unknown:
        raise InvalidArgument(f"parameter 'matrix' has unknown key(s) {', '.join(map(repr, unknown))}; known: values, row_labels, col_labels")
    rows = matrix.get("values", matrix.get("data"))
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        raise InvalidArgument("parameter 'matrix.values' must be a non-empty list of rows (lists of numbers)")
    vals = [_finite_list(r, f"matrix.values[{i}]") for i, r in enumerate(rows)]
    if len({len(r) for r in vals}) != 1:
        raise InvalidArgument("parameter 'matrix.values' rows must all have the same length")
    if len(vals) * len(vals[0]) > MAX_POINTS:
        raise InvalidArgument("parameter 'matrix.values' is too large")
    out = {"values": np.array(vals)}
    for key, n in (("row_labels", len(vals)), ("col_labels", len(vals[0]))):
        labels = matrix.get(key)
        if labels is not None:
            if not isinstance(labels, list) or len(labels) != n:
                raise InvalidArgument(f"parameter 'matrix.{key}' must be a list of {n} names")
            _check_labels(labels, f"matrix.{key}")
            out[key] = [str(v) for v in labels]
    return out


def _check_labels(values: Sequence[Any], name: str) -> None:
    """Texts the chart draws one artist each for: at most :data:`MAX_LABELS`, each at most
    :data:`MAX_TEXT` characters (drawing time grows with both)."""
    if len(values) > MAX_LABELS:
        raise InvalidArgument(f"parameter {name!r} has {len(values)} names; at most {MAX_LABELS} are allowed")
    for value in values:
        if len(str(value)) > MAX_TEXT:
            raise InvalidArgument(f"a name in parameter {name!r} is too long ({len(str(value))} characters, at most {MAX_TEXT})")


def _draw(kind: str, ax, fig, plan: dict[str, Any], p: dict[str, Any]) -> str:
    color, ls, mk, lw = p["color"], p["ls"], p["mk"], p["linewidth"]
    if kind == "line":
        for name, ys in plan["series"].items():
            xs = plan["x"] if plan["x"] is not None else list(range(len(ys)))
            ax.plot(xs, ys, linestyle=ls, marker=mk, linewidth=lw, label=escape(name) or None,
                    color=color if len(plan["series"]) == 1 else None)
        if len(plan["series"]) > 1 or any(plan["series"]):
            ax.legend()
        n = sum(len(v) for v in plan["series"].values())
        return f"line chart with {len(plan['series'])} series, {n} points"
    if kind == "bar":
        cats, series = plan["categories"], plan["series"]
        pos = np.arange(len(cats))
        k = len(series)
        width = 0.8 / k
        for i, (name, hs) in enumerate(series.items()):
            ax.bar(pos + (i - (k - 1) / 2) * width, hs, width=width, label=escape(name) or None,
                   color=color if k == 1 else None)
        ax.set_xticks(pos, [escape(c) for c in cats], rotation=p["bar_label_rotation"],
                      ha="right" if p["bar_label_rotation"] else "center")
        if k > 1:
            ax.legend()
        return f"bar chart with {len(cats)} categories" + (f" x {k} series" if k > 1 else "")
    if kind == "scatter":
        ax.scatter(plan["x"], plan["y"], s=plan["sizes"] if plan["sizes"] is not None else p["point_size"],
                   c=color, marker=mk)
        if p["labels"] is not None:
            for xv, yv, lab in zip(plan["x"], plan["y"], p["labels"]):
                ax.annotate(escape(lab), (xv, yv), textcoords="offset points", xytext=(4, 4), fontsize=8)
        return f"scatter plot of {len(plan['x'])} points"
    if kind == "histogram":
        series = plan["series"]
        multi = len(series) > 1
        for name, vals in series.items():
            ax.hist(vals, bins=p["num_bins"], color=None if multi else color, alpha=0.6 if multi else 1.0,
                    label=escape(name) or None, edgecolor="white")
        if multi:
            ax.legend()
        return f"histogram of {sum(len(v) for v in series.values())} values in {p['num_bins']} bins"
    if kind == "boxplot":
        series = plan["series"]
        bp = ax.boxplot(list(series.values()), showmeans=p["show_means"], patch_artist=bool(color))
        ax.set_xticks(range(1, len(series) + 1), [escape(n) for n in series])
        if color:
            for box in bp["boxes"]:
                box.set_facecolor(color)
        return f"box plot of {len(series)} group(s)"
    if kind == "pie":
        labels = [escape(v) for v in p["labels"]] if p["labels"] is not None else None
        ax.pie(plan["sizes"], labels=labels, explode=plan["explode"], startangle=p["start_angle"],
               autopct="%1.1f%%", counterclock=True)
        ax.set_aspect("equal")
        return f"pie chart with {len(plan['sizes'])} slices"
    if kind == "heatmap":
        vals = plan["values"]
        im = ax.imshow(vals, cmap=_cmap(p["color_map"]), aspect="auto")
        if "col_labels" in plan:
            ax.set_xticks(range(vals.shape[1]), [escape(v) for v in plan["col_labels"]],
                          rotation=p["bar_label_rotation"] or 0)
        if "row_labels" in plan:
            ax.set_yticks(range(vals.shape[0]), [escape(v) for v in plan["row_labels"]])
        if vals.size <= 225:
            lo, hi = float(vals.min()), float(vals.max())
            mid = (lo + hi) / 2
            for (r, c), v in np.ndenumerate(vals):
                ax.text(c, r, f"{v:g}", ha="center", va="center", fontsize=11 if vals.size <= 36 else 8,
                        color="white" if v < mid else "black")
        if p["show_colorbar"]:
            fig.colorbar(im, ax=ax)
        return f"heatmap of {vals.shape[0]}x{vals.shape[1]} values"
    raise AssertionError(kind)  # pragma: no cover
