"""``object_scene``: a photo of everyday objects on a table, nearly without text (natural less-text).

What it asks of an agent is to count, tell colours apart and say which object is where. The
ground truth lists every object (shape, colour, box, position in the frame) and the counts by
shape, by colour and by both.

Difficulty is not about reading, so it is defined by what makes counting and colour naming
hard, and :func:`level_metrics` measures it: more objects (3-5, 6-9, 10-14, 15-20), smaller
objects, colour classes closer in hue (level 0 uses four far-apart hues, level 3 all eight,
neighbours 25-40 degrees apart), tighter spacing and stronger camera effects (light falloff,
blur, noise, JPEG; see :mod:`._scene`). Each object's colour stays recoverable from its pixels
at every level (a hue test in ``tests/vision``).

**A count by colour** (a chart record whose values are counts, as ``tally_photo`` draws one): with
``title``, ``labels`` (colour names), ``values`` (whole counts 1-6) and ``shape``, the table holds
``values[i]`` objects of ``shape`` in colour ``labels[i]``, scattered, among strays of other
shapes in the same colours (1 / 2 / 3 / 4 by level) and, from level 2, look-alikes (1 / 2: the
counted shape in orange, teal or pink, never counted), with the title on an index card at the top
left. Its facts are ``bar_chart``'s for that content (no value printed: each is counted) plus the
scene's; ``counted_boxes`` gives each counted object's box by label. Only far-apart colours
(:data:`COUNT_COLORS`) are counted, so a careful viewer never hesitates over a colour; what makes
it hard is telling the counted shape from the strays and not missing a small object.
"""

from __future__ import annotations

import colorsys
import math

from PIL import Image, ImageDraw

from ._family import Family
from ._common import Choice, Ctx, ListOf, Num, Obj, Str, drafting, fit_font, mix, texture_array
from ._scene import camera, drawing_on

SHAPES = ("ball", "mug", "star", "box", "bottle", "apple")
# name -> RGB, hues spread round the wheel; the first four are the far-apart level-0 set
COLORS = {"red": (214, 40, 40), "blue": (35, 90, 215), "yellow": (240, 200, 30), "green": (40, 160, 60),
          "orange": (245, 130, 20), "purple": (130, 60, 190), "teal": (20, 160, 160), "pink": (235, 80, 160)}
# level -> (min objects, max objects, colour names used, object size px, min gap px)
LEVELS = {0: (3, 5, 4, 150, 40), 1: (6, 9, 6, 115, 26), 2: (10, 14, 8, 88, 16), 3: (15, 20, 8, 70, 8)}
W, H = 1024, 768

# a count by colour: the colours that may be counted (hues >= 47 degrees apart), the objects' side and
# gap by level, and how many strays of other shapes lie among them
COUNT_COLORS = ("red", "blue", "yellow", "green", "purple")
MAX_COUNT = 6
COUNT_SIZE = {0: 92, 1: 80, 2: 68, 3: 58}
COUNT_GAP = {0: 24, 1: 16, 2: 10, 3: 6}
COUNT_STRAYS = {0: 1, 1: 2, 2: 3, 3: 4}
# level -> look-alike strays: the counted shape in a near colour that is never counted (an orange ball
# among red ones, a teal one among blue and green ones); a careful viewer tells them apart zoomed
COUNT_LOOKALIKES = {0: 0, 1: 0, 2: 1, 3: 2}
NEAR_COLORS = ("orange", "teal", "pink")
CARD = (24, 20, 0, 78)
# what a count of each shape is called (a count's title)
COUNT_NOUNS = {"ball": "Marbles", "mug": "Mugs", "star": "Star Stickers", "box": "Gift Boxes", "bottle": "Bottles",
               "apple": "Apples"}  # the title card's left, top, (width from its text) and bottom

FIELDS = {
    "objects": ListOf(Obj({"shape": Choice(SHAPES), "color": Choice(list(COLORS))}, required=("shape", "color")), 1, 24),
    "surface": Choice(("wood", "desk", "fabric", "concrete")),
    "title": Str(60), "labels": ListOf(Choice([c.title() for c in COUNT_COLORS]), 2, 5),
    "values": ListOf(Num(1, MAX_COUNT), 2, 5), "shape": Choice(SHAPES), "units": Str(12, allow_empty=True),
}


def hue(rgb: tuple[int, int, int]) -> float:
    """Hue in degrees (0-360)."""
    return colorsys.rgb_to_hsv(*(c / 255 for c in rgb))[0] * 360


def level_metrics(facts: dict) -> dict[str, float]:
    """What makes a scene hard, measured: object count, smallest object side, closest hue pair."""
    objs = facts["objects"]
    names = sorted({o["color"] for o in objs})
    gaps = [min(abs(hue(COLORS[a]) - hue(COLORS[b])), 360 - abs(hue(COLORS[a]) - hue(COLORS[b])))
            for i, a in enumerate(names) for b in names[i + 1:]]
    return {"objects": len(objs), "min_side": min(min(o["box"][2] - o["box"][0], o["box"][3] - o["box"][1]) for o in objs),
            "min_hue_gap": min(gaps) if gaps else 360.0}


def _layout(ctx: Ctx, n: int, size: int, gap: int, top: float = 0) -> list[tuple[float, float, float]]:
    """``n`` non-overlapping (cx, cy, side) spots in the frame below ``top`` (rejection sampling, then a grid)."""
    r = ctx.rng("layout")
    spots: list[tuple[float, float, float]] = []
    for _ in range(4000):
        if len(spots) == n:
            break
        side = size * r.uniform(0.85, 1.15)
        cx, cy = r.uniform(side / 2 + 12, W - side / 2 - 12), r.uniform(top + side / 2 + 12, H - side / 2 - 12)
        if all(abs(cx - x) > (side + s) / 2 + gap or abs(cy - y) > (side + s) / 2 + gap for x, y, s in spots):
            spots.append((cx, cy, side))
    if len(spots) < n:  # a tight level: fall back to a jittered grid
        cols = math.ceil(math.sqrt(n * W / (H - top)))
        rows = math.ceil(n / cols)
        cw, ch = W / cols, (H - top) / rows
        side = min(cw, ch) - gap - 12
        spots = [(cw * (i % cols + 0.5), top + ch * (i // cols + 0.5), side) for i in range(n)]
    return spots


def _where(cx: float, cy: float) -> str:
    col = "left" if cx < W / 3 else "right" if cx > 2 * W / 3 else "center"
    row = "top" if cy < H / 3 else "bottom" if cy > 2 * H / 3 else "middle"
    return "center" if (row, col) == ("middle", "center") else f"{row} {col}" if row != "middle" else f"middle {col}"


def _draw(d: ImageDraw.ImageDraw, shape: str, box: tuple[float, float, float, float], color) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dark, light = mix(color, (0, 0, 0), 0.35), mix(color, (255, 255, 255), 0.45)
    if shape == "ball":
        d.ellipse(box, fill=color, outline=dark, width=3)
        d.ellipse((x0 + w * 0.22, y0 + h * 0.18, x0 + w * 0.42, y0 + h * 0.36), fill=light)
    elif shape == "mug":
        d.ellipse((x0 + w * 0.55, y0 + h * 0.3, x1, y0 + h * 0.72), outline=dark, width=max(4, int(w * 0.09)))
        d.rounded_rectangle((x0, y0 + h * 0.15, x0 + w * 0.72, y1), radius=w * 0.08, fill=color, outline=dark, width=3)
        d.ellipse((x0, y0 + h * 0.08, x0 + w * 0.72, y0 + h * 0.24), fill=dark)
    elif shape == "star":
        pts = [(cx + math.cos(math.radians(-90 + 36 * k)) * (w / 2 if k % 2 == 0 else w / 4.6),
                cy + math.sin(math.radians(-90 + 36 * k)) * (h / 2 if k % 2 == 0 else h / 4.6)) for k in range(10)]
        d.polygon(pts, fill=color, outline=dark)
    elif shape == "box":
        dep = w * 0.22
        d.polygon([(x0, y0 + dep), (x0 + dep, y0), (x1, y0), (x1 - dep, y0 + dep)], fill=light)
        d.polygon([(x1 - dep, y0 + dep), (x1, y0), (x1, y1 - dep), (x1 - dep, y1)], fill=dark)
        d.rectangle((x0, y0 + dep, x1 - dep, y1), fill=color)
    elif shape == "bottle":
        bw = w * 0.5
        d.rectangle((cx - bw * 0.22, y0, cx + bw * 0.22, y0 + h * 0.12), fill=dark)
        d.polygon([(cx - bw * 0.2, y0 + h * 0.1), (cx + bw * 0.2, y0 + h * 0.1), (cx + bw / 2, y0 + h * 0.32),
                   (cx - bw / 2, y0 + h * 0.32)], fill=color)
        d.rounded_rectangle((cx - bw / 2, y0 + h * 0.3, cx + bw / 2, y1), radius=bw * 0.2, fill=color, outline=dark, width=2)
    else:  # apple
        d.ellipse((x0, y0 + h * 0.14, x0 + w * 0.58, y1), fill=color)
        d.ellipse((x0 + w * 0.42, y0 + h * 0.14, x1, y1), fill=color)
        d.line((cx, y0 + h * 0.2, cx + w * 0.06, y0), fill=(90, 60, 30), width=max(3, int(w * 0.05)))
        d.ellipse((cx + w * 0.04, y0 + h * 0.02, cx + w * 0.3, y0 + h * 0.14), fill=(60, 150, 60))


def _objects(ctx: Ctx) -> list[dict]:
    lo, hi, n_colors, _, _ = LEVELS[ctx.difficulty]

    def default(r) -> list[dict]:
        names = list(COLORS)[:n_colors]
        shapes = r.sample(SHAPES, r.randint(2, min(4, len(SHAPES))))
        return [{"shape": r.choice(shapes), "color": r.choice(names)} for _ in range(r.randint(lo, hi))]

    return ctx.get("objects", default)


def _count_content(ctx: Ctx) -> dict | None:
    """A count by colour's content (None for a plain scene); ValueError for counts that cannot be objects."""
    c = ctx.content
    if "labels" not in c and "values" not in c:
        return None
    labels, values = list(c.get("labels", [])), list(c.get("values", []))
    if len(labels) != len(values) or not labels:
        raise ValueError(f"object_scene spec: content.values has {len(values)} numbers but content.labels has {len(labels)}")
    if len({l.lower() for l in labels}) != len(labels):
        raise ValueError("object_scene spec: content.labels must be distinct colours")
    bad = [v for v in values if float(v) != int(v)]
    if bad:
        raise ValueError(f"object_scene spec: content.values must be whole numbers 1-{MAX_COUNT} (objects to count), got {bad[0]!r}")
    return {"title": c.get("title", "Count by Colour"), "labels": labels, "values": [float(v) for v in values],
            "shape": c.get("shape", "ball"), "units": ""}


def _count_objects(ctx: Ctx, c: dict) -> list[dict]:
    """The counted objects (``values[i]`` of the shape in colour ``labels[i]``) and the strays
    (other shapes, in the counted colours; from level 2 also the counted shape in a near colour
    that is never counted), shuffled so neither sits apart."""
    r = ctx.rng("count")
    out = [{"shape": c["shape"], "color": l.lower(), "counted": True}
           for l, v in zip(c["labels"], c["values"]) for _ in range(int(v))]
    others = [s for s in SHAPES if s != c["shape"] and {s, c["shape"]} != {"ball", "apple"}]  # round fruit is no stray for balls
    out += [{"shape": r.choice(others), "color": r.choice(COUNT_COLORS), "counted": False}
            for _ in range(COUNT_STRAYS[ctx.difficulty])]
    out += [{"shape": c["shape"], "color": r.choice(NEAR_COLORS), "counted": False}
            for _ in range(COUNT_LOOKALIKES[ctx.difficulty])]
    r.shuffle(out)
    return out


def draw_object_scene(ctx: Ctx):
    """Objects on a table to count, colour and locate: every object's shape, colour, box and position, and counts.
    With a count's content (``title``, ``labels``, ``values``, ``shape``), also that chart's facts."""
    count = _count_content(ctx)
    if count is None:
        objects = _objects(ctx)
        _, _, _, size, gap = LEVELS[ctx.difficulty]
        top = 0.0
    else:
        objects = _count_objects(ctx, count)
        size, gap = COUNT_SIZE[ctx.difficulty], COUNT_GAP[ctx.difficulty]
        title_font = fit_font(count["title"], "sans-bold", 520, 30, 14)
        card = [CARD[0], CARD[1], int(CARD[0] + title_font.getlength(count["title"]) + 36), CARD[3]]
        top = card[3] + 8
    surface = ctx.get("surface", lambda r: r.choice(["wood", "desk", "fabric"]))
    spots = _layout(ctx, len(objects), size, gap, top)
    placed = []
    for o, (cx, cy, side) in zip(objects, spots):
        box = [int(cx - side / 2), int(cy - side / 2), int(cx + side / 2), int(cy + side / 2)]
        placed.append({**o, "box": box, "position": _where(cx, cy)})
    order = sorted(range(len(placed)), key=lambda i: placed[i]["box"][0] + placed[i]["box"][2])
    by_shape: dict[str, int] = {}
    by_color: dict[str, int] = {}
    by_both: dict[str, int] = {}
    for o in placed:
        by_shape[o["shape"]] = by_shape.get(o["shape"], 0) + 1
        by_color[o["color"]] = by_color.get(o["color"], 0) + 1
        key = f"{o['color']} {o['shape']}"
        by_both[key] = by_both.get(key, 0) + 1
    facts = {"objects": placed, "count": len(placed), "by_shape": dict(sorted(by_shape.items())),
             "by_color": dict(sorted(by_color.items())), "by_kind": dict(sorted(by_both.items())),
             "leftmost": f"{placed[order[0]]['color']} {placed[order[0]]['shape']}",
             "rightmost": f"{placed[order[-1]]['color']} {placed[order[-1]]['shape']}", "surface": surface}
    if count is not None:
        from .infographic import chart_record

        chart = Ctx(kind="bar_chart", content={**{k: count[k] for k in ("title", "labels", "values", "units")},
                                               "value_labels": False}, seed=ctx.seed, difficulty=0)
        facts.update({**chart_record(chart), "read_tolerance": 0.0, "shape": count["shape"], "title_box": card,
                      "counts": dict(zip(count["labels"], count["values"])),
                      "counted_boxes": {l: [o["box"] for o in placed if o["counted"] and o["color"] == l.lower()]
                                        for l in count["labels"]},
                      "strays": [o for o in placed if not o["counted"]]})
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts
    scene = texture_array(surface, (W, H), ctx.np_rng("surface"))
    if count is not None:  # the title on an index card
        with drawing_on(scene, (card[0], card[1], card[2] + 6, card[3] + 6)) as (d, ox, oy):
            d.rectangle((card[0] + 4 - ox, card[1] + 5 - oy, card[2] + 4 - ox, card[3] + 5 - oy), fill=(0, 0, 0, 60))
            d.rectangle((card[0] - ox, card[1] - oy, card[2] - ox, card[3] - oy), fill=(250, 248, 240))
            d.text(((card[0] + card[2]) / 2 - ox, (card[1] + card[3]) / 2 - oy), count["title"], font=title_font,
                   fill=(35, 35, 40), anchor="mm")
    for o in placed:  # contact shadows first, then the objects (each drawn on its own crop of the frame)
        x0, y0, x1, y1 = o["box"]
        off = max(4, (x1 - x0) // 14)
        with drawing_on(scene, (x0, y0, x1 + off, y1 + off)) as (d, ox, oy):
            d.ellipse((x0 + off - ox, y1 - (y1 - y0) * 0.18 + off - oy, x1 + off - ox, y1 + off - oy), fill=(0, 0, 0, 70))
    for o in placed:
        x0, y0, x1, y1 = o["box"]
        reach = max(8, (x1 - x0) // 8)  # strokes (the apple's stalk) may stick out of the box a little
        with drawing_on(scene, (x0 - reach, y0 - reach, x1 + reach, y1 + reach)) as (d, ox, oy):
            _draw(d, o["shape"], (x0 - ox, y0 - oy, x1 - ox, y1 - oy), COLORS[o["color"]])
    # defocus and JPEG over the objects and their shadows only (the bare table needs neither: both
    # cost per pixel, and the coded parts are the pixels of coding the whole frame)
    focus = []
    for o in placed:
        x0, y0, x1, y1 = o["box"]
        grow = max(8, (x1 - x0) // 8, (x1 - x0) // 14 + 4)
        focus.append([x0 - grow, y0 - grow, x1 + grow, y1 + grow])
    if count is not None:
        focus.append([card[0], card[1], card[2] + 6, card[3] + 6])
    return camera(scene, ctx, glare=False, focus=focus, coded=focus), facts


FAMILY = Family("object_scene", FIELDS, draw_object_scene)
