"""``infographic``: a chart's record as an InfographicVQA-like poster (documents/charts).

The same content (and defaults) as ``bar_chart``, and the same facts, drawn as a portrait
infographic: a title band, a "highlight" panel with a pictogram row (how many in ten of the
total the largest item takes, under a headline that names no item or value), then one panel per item with an icon, its label, its value in big
type, a small bar scaled to the largest value and (for additive quantities) its share of the
total. Facts add ``shares`` (percent of the total per label, or None when a share means nothing,
e.g. temperatures or values already in %) and ``callout`` (the highlight's sentence).

Levels: type shrinks; level 1 adds a source line and a background pattern; level 2 switches to a
muted low-contrast palette and adds a "did you know" box with other numbers (distractors); level 3
is the poster shrunk to 42 % and re-compressed, as an infographic forwarded in a chat arrives (a
2x zoom brings its values back).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from ._family import Family
from ._common import Bool, Ctx, ListOf, Num, Str, drafting, fit_font, get_font, jpeg, line_height, mix, rgb, wrap
from .charts import COMMON, _content, _extremes, _fmt, read_tolerance

W, H = 768, 1024
# (accent, panel tint) per theme; level 2 uses the muted variants
THEMES = [("#1f6fb2", "#e8f1fa"), ("#c2410c", "#fdf0e6"), ("#15803d", "#e9f6ee"), ("#7c3aed", "#f1ebfd"),
          ("#be185d", "#fbe9f1")]
SCALE = {0: 1.0, 1: 0.9, 2: 0.82, 3: 0.82}
SHRINK = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.42}
NOT_ADDITIVE = ("°C", "°F", "%")
ICONS = ("circle", "square", "diamond", "triangle", "ring", "bolt")
FIELDS = {**COMMON, "labels": ListOf(Str(40), 1, 12), "values": ListOf(Num(-1e12, 1e12), 1, 12), "horizontal": Bool()}
SOURCES = ["City Open Data", "Annual Survey", "internal records", "Community Report"]


def chart_record(ctx: Ctx) -> dict:
    """The facts ``bar_chart`` reports for this content and seed, worked out without building its
    matplotlib figure (``tests/vision/test_families.py`` checks they agree)."""
    flat = Ctx(kind="bar_chart", content=ctx.content, seed=ctx.seed, difficulty=0)
    c = _content(flat)
    value_labels = flat.get("value_labels", lambda r: True)
    horizontal = flat.get("horizontal", lambda r: r.random() < 0.25)
    return {"title": c["title"], "labels": c["labels"], "values": c["values"], "units": c["units"],
            "value_labels": value_labels, "horizontal": horizontal,
            "read_tolerance": read_tolerance(c["values"], value_labels), **_extremes(c["labels"], c["values"])}


def shares(values: list[float], units: str) -> list[float] | None:
    """Each value's percent of the total (one decimal), or None when a share of the total means nothing."""
    total = sum(values)
    if units in NOT_ADDITIVE or total <= 0:
        return None
    return [round(100 * v / total, 1) for v in values]


def _pct(p: float) -> str:
    return f"{p:.0f}%" if float(p).is_integer() else f"{p:.1f}%"


def _icon(d: ImageDraw.ImageDraw, shape: str, box: tuple[float, float, float, float], color, bg) -> None:
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    if shape == "circle":
        d.ellipse(box, fill=color)
    elif shape == "square":
        d.rounded_rectangle(box, radius=r * 0.3, fill=color)
    elif shape == "diamond":
        d.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=color)
    elif shape == "triangle":
        d.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=color)
    elif shape == "ring":
        d.ellipse(box, fill=color)
        d.ellipse((cx - r * 0.5, cy - r * 0.5, cx + r * 0.5, cy + r * 0.5), fill=bg)
    else:  # bolt
        d.polygon([(cx + r * 0.2, y0), (x0 + r * 0.2, cy + r * 0.1), (cx, cy + r * 0.1), (cx - r * 0.2, y1),
                   (x1 - r * 0.2, cy - r * 0.1), (cx, cy - r * 0.1)], fill=color)


def _person(d: ImageDraw.ImageDraw, x: float, y: float, h: float, color) -> None:
    """A pictogram figure in a ``h``-tall cell at (x, y)."""
    r = h * 0.16
    d.ellipse((x - r, y, x + r, y + 2 * r), fill=color)
    d.rounded_rectangle((x - h * 0.22, y + 2 * r + h * 0.06, x + h * 0.22, y + h), radius=h * 0.12, fill=color)


def draw_infographic(ctx: Ctx):
    """An infographic of a chart's values: the bar chart's facts, with shares and a highlight callout."""
    f = chart_record(ctx)
    title, labels, values, units = f["title"], f["labels"], f["values"], f["units"]
    share = shares(values, units)
    top = f["max_label"]
    tens = round(share[labels.index(top)] / 10) if share else None
    # the highlight names no item and no value: the number a task needs is one among the panels'
    # (a callout "X leads with 17.8" answered compare flows by itself)
    if share:
        callout = f"How the total splits across {len(labels)} categories"
    else:
        callout = f"{len(labels)} figures side by side" + (f", in {units}" if units else "")
    lv = ctx.difficulty
    r = ctx.rng("style")
    accent, tint = (rgb(c) for c in THEMES[r.randrange(len(THEMES))])
    shapes = [ICONS[(r.randrange(len(ICONS)) + i) % len(ICONS)] for i in range(len(labels))]
    cr = ctx.rng("clutter")
    notes = []
    if lv >= 1:
        notes.append(f"Source: {cr.choice(SOURCES)}, {cr.randint(2019, 2025)}")
    fact_box = None
    if lv >= 2:
        fact_box = f"Did you know? {cr.randint(3, 9)} in 10 readers check figures like these {cr.randint(2, 6)} times a month."
        notes.append(fact_box)
    ctx.distractors.extend(notes)
    facts = {**f, "shares": dict(zip(labels, share)) if share else None, "callout": callout,
             "pictogram_tens": tens, "read_tolerance": 0.0}  # every value printed in its panel
    if drafting():
        return Image.new("RGB", (W, H), (255, 255, 255)), facts

    s = SCALE[lv]
    white, ink = (255, 255, 255), (28, 30, 38)
    if lv >= 2:  # muted, low contrast
        accent, tint, ink = mix(accent, (150, 150, 150), 0.45), mix(tint, (200, 200, 200), 0.5), (70, 72, 80)
    muted = mix(ink, white, 0.35)
    img = Image.new("RGB", (W, H), mix(tint, white, 0.5))
    d = ImageDraw.Draw(img)
    if lv >= 1:  # a dotted background pattern
        dot = mix(tint, ink, 0.08)
        for yy in range(0, H, 28):
            for xx in range((yy // 28) % 2 * 14, W, 28):
                d.ellipse((xx - 2, yy - 2, xx + 2, yy + 2), fill=dot)
    pad = 32
    # title band
    f_title = get_font("sans-bold", 34 * s)
    rows = wrap(title, f_title, W - 2 * pad)
    if len(rows) > 2:
        f_title = fit_font(title, "sans-bold", 2 * (W - 2 * pad) - 40, 34 * s, 14)
        rows = wrap(title, f_title, W - 2 * pad)
    lh = line_height(f_title, 1.15)
    f_sub = get_font("sans", 17 * s)
    sub = f"In {units}" if units and units not in ("$", "€", "£") else "At a glance"
    band = 26 + lh * len(rows) + line_height(f_sub) + 22
    d.rectangle((0, 0, W, band), fill=accent)
    y = 26
    for row in rows:
        d.text((pad, y), row, font=f_title, fill=white)
        y += lh
    d.text((pad, y + 4), sub, font=f_sub, fill=mix(accent, white, 0.75))
    y = band + 22
    # highlight panel: a callout and (for additive values) a row of ten figures
    f_call = get_font("sans-bold", 20 * s)
    call_rows = wrap(callout, f_call, W - 2 * pad - 40)
    pict_h = 46 * s if tens is not None else 0
    ph = 20 + line_height(f_call) * len(call_rows) + (pict_h + 14 if pict_h else 0) + 16
    d.rounded_rectangle((pad, y, W - pad, y + ph), radius=16, fill=white, outline=mix(accent, white, 0.6), width=2)
    yy = y + 20
    for row in call_rows:
        d.text((pad + 20, yy), row, font=f_call, fill=ink)
        yy += line_height(f_call)
    if pict_h:
        cell = pict_h * 0.9
        for k in range(10):
            _person(d, pad + 20 + cell / 2 + k * cell, yy + 10, pict_h, accent if k < tens else mix(tint, ink, 0.15))
    y += ph + 20
    # panels: one per item, in a grid
    n = len(labels)
    cols = 1 if n <= 3 else 2 if n <= 8 else 3
    grid_rows = math.ceil(n / cols)
    f_note = get_font("sans", 13 * s)
    note_h = (line_height(f_note) + 4) * len(wrap(notes[0], f_note, W - 2 * pad)) if notes else 0
    f_box = get_font("sans-bold", 15 * s)
    box_rows = wrap(fact_box, f_box, W - 2 * pad - 110) if fact_box else []
    box_h = 18 * 2 + line_height(f_box) * len(box_rows) + 14 if fact_box else 0
    bottom = H - 24 - note_h - box_h - 18
    gap = 14
    pw = (W - 2 * pad - gap * (cols - 1)) / cols
    phh = min(172 * s, (bottom - y - gap * (grid_rows - 1)) / grid_rows)
    hi = max(values) or 1.0
    for i, (label, value) in enumerate(zip(labels, values)):
        cx0 = pad + (i % cols) * (pw + gap)
        cy0 = y + (i // cols) * (phh + gap)
        d.rounded_rectangle((cx0, cy0, cx0 + pw, cy0 + phh), radius=14, fill=white)
        ic = min(40 * s, phh * 0.3)
        f_lab = fit_font(label, "sans-bold", pw - 28, 19 * s, 9)
        d.text((cx0 + 14, cy0 + 14 + ic / 2), label, font=f_lab, fill=ink, anchor="lm")
        text = _fmt(value, units)
        f_val = fit_font(text, "sans-bold", pw - 40 - ic, min(40 * s, phh * 0.3), 10)
        vy = cy0 + 14 + ic + 8
        d.text((cx0 + 14, vy), text, font=f_val, fill=ink)
        iy = vy + (line_height(f_val, 1.1) - ic) / 2  # the icon beside the value, not on the label's line
        _icon(d, shapes[i], (cx0 + pw - 14 - ic, iy, cx0 + pw - 14, iy + ic), accent, white)
        by = vy + line_height(f_val, 1.1) + 4
        bw = (pw - 28) * (value / hi) if hi > 0 else 0
        bar_h = max(6, phh * 0.06)
        if by + bar_h < cy0 + phh - 6:
            d.rounded_rectangle((cx0 + 14, by, cx0 + 14 + pw - 28, by + bar_h), radius=bar_h / 2, fill=mix(tint, ink, 0.1))
            if bw > 0:
                d.rounded_rectangle((cx0 + 14, by, cx0 + 14 + max(bw, bar_h), by + bar_h), radius=bar_h / 2, fill=accent)
        if share:
            f_sh = get_font("sans", 14 * s)
            sy = by + bar_h + 6
            if sy + line_height(f_sh) <= cy0 + phh - 4:
                d.text((cx0 + 14, sy), f"{_pct(share[i])} of total", font=f_sh, fill=muted)
    yy = y + grid_rows * phh + (grid_rows - 1) * gap + 18
    if fact_box:
        bh = 18 * 2 + line_height(f_box) * len(box_rows)
        d.rounded_rectangle((pad, yy, W - pad, yy + bh), radius=14, fill=mix(accent, white, 0.8))
        _icon(d, "ring", (pad + 22, yy + bh / 2 - 22, pad + 66, yy + bh / 2 + 22), accent, mix(accent, white, 0.8))
        ty = yy + 18
        for row in box_rows:
            d.text((pad + 90, ty), row, font=f_box, fill=ink)
            ty += line_height(f_box)
        yy += bh + 14
    for text in notes[:1]:
        for row in wrap(text, f_note, W - 2 * pad):
            d.text((pad, yy), row, font=f_note, fill=muted)
            yy += line_height(f_note) + 4
    img = img.crop((0, 0, W, min(H, int(yy + 24))))  # as tall as its content
    if SHRINK[lv] < 1:
        img = img.resize((int(W * SHRINK[lv]), int(img.height * SHRINK[lv])), Image.Resampling.BILINEAR)
        img = jpeg(img, 72)
    return img, facts


FAMILY = Family("infographic", FIELDS, draw_infographic, check=_content)
