"""``chart_read``: a bar chart whose values must be read off the axis (documents/charts).

Unlike ``bar_chart``, only level 0 prints the values; from level 1 on the reader finds each bar's
top against labelled major gridlines and fine unlabelled minor ones (:func:`grid`: values that
sit on a minor line read exactly, ``facts["on_grid"]``). Level 2 adds a second series ("last
year", a line in a similar colour, with a legend); level 3 adds a right-hand axis in other units
for that line (a dual-axis chart), smaller type and footnotes. Drawn with Pillow, so every text
box is known and laid out in its own band (title, legend, units, plot, labels, notes).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from ._family import Family
from ._common import Ctx, ListOf, Num, Str, drafting, fit_font, get_font, mix, rgb
from .charts import COMMON, _content, _extremes, _fmt

W, H = 1024, 720
PAIRS = [("#3f6fc4", "#6b93d6"), ("#2e8b57", "#5fb37f"), ("#c0504d", "#d9827f"), ("#7e57c2", "#a283d8"),
         ("#e08a1e", "#efb062")]
RIGHT_AXES = [("Avg. price", "$"), ("Share", "%"), ("Staff on duty", ""), ("Rainfall", "mm")]

FIELDS = {**COMMON, "values": ListOf(Num(-1e12, 1e12), 1, 16), "previous": ListOf(Num(-1e12, 1e12), 1, 16),
          "series_name": Str(30), "previous_name": Str(30)}


def grid(values: list[float]) -> tuple[float, float, float]:
    """(axis top, major step, minor step) for bars of ``values`` (the axis starts at 0 or below)."""
    hi = max(max(values), 0) or 1.0
    raw = hi * 1.12 / 5
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            major = m * mag
            break
    minor = major / (4 if str(major).lstrip("0.").startswith("2") else 5)
    top = math.ceil(hi * 1.1 / major) * major
    return float(top), float(major), float(minor)


def on_grid(values: list[float], minor: float) -> bool:
    return all(abs(v / minor - round(v / minor)) < 1e-6 for v in values)


def _num(v: float) -> str:
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"


def draw_chart_read(ctx: Ctx):
    """A bar chart to read off gridlines (values printed only at level 0; second series / dual axis later)."""
    c = _content(ctx)
    title, labels, values, units = c["title"], c["labels"], c["values"], c["units"]
    lv = ctx.difficulty
    r = ctx.rng("style")
    main, other = PAIRS[r.randrange(len(PAIRS))]
    top, major, minor = grid(values)
    if "values" not in ctx.content:  # default bars sit on minor gridlines, so they read exactly
        values = [round(v / minor) * minor for v in values]
        top, major, minor = grid(values)
        values = [round(v / minor) * minor for v in values]
    bottom = min(0.0, math.floor(min(values) / major) * major)
    name = ctx.get("series_name", lambda _: "This year")
    prev_name = ctx.get("previous_name", lambda _: "Last year")
    previous = None
    right = None
    if lv >= 3:  # the line is another quantity, on its own axis
        right = RIGHT_AXES[r.randrange(len(RIGHT_AXES))]
        prev_name = ctx.get("previous_name", lambda _: right[0])
    if lv >= 2:
        pr = ctx.rng("field:previous")
        if right is None:
            previous = ctx.get("previous", lambda _: [round(v * pr.uniform(0.7, 1.25) / minor) * minor for v in values])
        else:
            previous = ctx.get("previous", lambda _: [float(pr.randint(4, 60)) for _ in values])
        if len(previous) != len(values):
            raise ValueError(f"chart_read spec: content.previous has {len(previous)} numbers but there are {len(values)} bars")
    notes = []
    if lv >= 1:
        nr = ctx.rng("clutter")
        notes = [f"Source: {nr.choice(['internal records', 'City Open Data', 'Annual Survey'])}, {nr.randint(2019, 2025)}"]
        if lv >= 3:
            notes.append(f"Line: {prev_name} (right axis); bars: {name} (left axis). Figures rounded.")
        ctx.distractors.extend(notes)
    facts = {"title": title, "labels": labels, "values": values, "units": units, "series_name": name,
             "value_labels": lv == 0, "axis_top": top, "major_step": major, "minor_step": minor,
             "on_grid": on_grid(values, minor), "previous": previous, "dual_axis": right is not None,
             "read_tolerance": 0.0,  # the values sit on minor gridlines: read exactly
             **_extremes(labels, values)}
    if drafting():
        return Image.new("RGB", (W, H), (255, 255, 255)), facts

    s = ctx.scale
    img = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(img)
    ink, grey, faint = (30, 30, 35), (95, 95, 100), (225, 227, 232)
    f_title = fit_font(title, "sans-bold", W - 80, 26 * s)
    f_tick = get_font("sans", 15 * s)
    f_note = get_font("sans", 12 * s)
    f_val = get_font("sans-bold", 14 * s)
    pad = 40
    y = 24
    d.text((pad, y), title, font=f_title, fill=ink)
    y += f_title.size + 16
    if previous is not None:  # legend band
        x = pad
        for label, col, kind in ((name, main, "bar"), (prev_name, other, "line")):
            if kind == "bar":
                d.rectangle((x, y + 3, x + 18, y + 17), fill=rgb(col))
            else:
                d.line((x, y + 10, x + 18, y + 10), fill=rgb(other), width=3)
            d.text((x + 26, y), label, font=f_tick, fill=ink)
            x += 26 + f_tick.getlength(label) + 30
        y += f_tick.size + 14
    unit_text = f"({units})" if units else ""
    if unit_text:
        d.text((pad, y), unit_text, font=f_tick, fill=grey)
    if right is not None:
        rt = f"{right[0]}" + (f" ({right[1]})" if right[1] else "")
        d.text((W - pad, y), rt, font=f_tick, fill=grey, anchor="ra")
    y += f_tick.size + 12
    # bands below the plot: x labels, then notes
    note_h = sum(f_note.size + 8 for _ in notes)
    label_h = f_tick.size * 2 + 16
    plot_top, plot_bottom = y + 8, H - 20 - note_h - label_h
    ticks = []
    v = bottom
    while v <= top + 1e-9:
        ticks.append(round(v, 10))
        v += major
    left = pad + max(f_tick.getlength(_num(t)) for t in ticks) + 12
    rmax = rstep = None
    if right is not None:
        rmax, rstep, _ = grid(previous)
        right_w = max(f_tick.getlength(_num(rstep * k)) for k in range(int(round(rmax / rstep)) + 1))
        plot_right = W - pad - right_w - 12
    else:
        plot_right = W - pad

    def ypos(value: float, lo: float = bottom, hi: float = top) -> float:
        return plot_bottom - (value - lo) / (hi - lo) * (plot_bottom - plot_top)

    # grid: minor lines (levels 1+), labelled major lines
    if lv >= 1:
        k = 0
        while bottom + k * minor <= top + 1e-9:
            yy = ypos(bottom + k * minor)
            d.line((left, yy, plot_right, yy), fill=mix(faint, (255, 255, 255), 0.35), width=1)
            k += 1
    for t in ticks:
        yy = ypos(t)
        d.line((left, yy, plot_right, yy), fill=(200, 203, 210) if lv >= 1 else faint, width=1)
        d.text((left - 10, yy), _num(t), font=f_tick, fill=grey, anchor="rm")
    if right is not None:
        k = 0
        while k * rstep <= rmax + 1e-9:
            d.text((plot_right + 10, ypos(k * rstep, 0, rmax)), _num(k * rstep), font=f_tick, fill=rgb(other), anchor="lm")
            k += 1
    d.line((left, plot_top, left, plot_bottom), fill=grey, width=1)
    d.line((left, ypos(0), plot_right, ypos(0)), fill=grey, width=2)
    n = len(labels)
    slot = (plot_right - left) / n
    bw = slot * 0.56
    f_lab = min((fit_font(l, "sans", slot - 8, 15 * s, min_size=9) for l in labels), key=lambda f: f.size)
    centres = []
    for i, (label, value) in enumerate(zip(labels, values)):
        cx = left + slot * (i + 0.5)
        centres.append(cx)
        y0, y1 = sorted((ypos(0), ypos(value)))
        d.rectangle((cx - bw / 2, y0, cx + bw / 2, y1), fill=rgb(main))
        d.text((cx, plot_bottom + 8), label, font=f_lab, fill=ink, anchor="ma")
        if lv == 0:
            d.text((cx, ypos(value) - 6), _fmt(value, units), font=f_val, fill=ink, anchor="md")
    if previous is not None:
        lo, hi = (0, rmax) if right is not None else (bottom, top)
        pts = [(cx, ypos(p, lo, hi)) for cx, p in zip(centres, previous)]
        d.line(pts, fill=rgb(other), width=3)
        for px, py in pts:
            d.ellipse((px - 5, py - 5, px + 5, py + 5), fill=rgb(other), outline=(255, 255, 255))
    yy = H - 16 - note_h
    for text in notes:
        d.text((pad, yy), text, font=f_note, fill=(120, 120, 125))
        yy += f_note.size + 8
    return img, facts


FAMILY = Family("chart_read", FIELDS, draw_chart_read, check=_content)

