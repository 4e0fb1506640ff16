"""``tally_photo``: a photo of a chart built from real objects on a table (natural less-text).

A "real graph" as classrooms and offices make them: one column of objects per category, stacked
above a small label card, a title card beside them. It draws a chart record whose values are
counts (whole numbers 1-10), with the same facts as ``bar_chart`` for the same content; the values
are nowhere printed -- they are the number of objects in each column, so an agent must count.
Facts add each column's count, colour and box and the objects' boxes, and ``strays``: objects
lying about that belong to no column (levels 1+).

Levels: objects get smaller and the columns closer (object side 100 / 86 / 72 / 62 % of what
fits), columns of similar colours (level 2+), stray objects (0 / 2 / 3 / 4) and the camera effects
of the photo families at the same strengths (uneven light, defocus, noise, JPEG: :data:`._scene.LEVELS`),
drawn cheaply (:func:`_camera`).
"""

from __future__ import annotations

import random
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import Choice, Ctx, ListOf, Num, Str, drafting, fit_font, line_height, texture
from .infographic import chart_record
from ._scene import LEVELS as CAMERA, jpeg_regions
from .charts import COMMON
from .object_scene import COLORS, SHAPES, _draw

W, H = 1024, 768
MAX_COUNT = 10
SIZE = {0: 1.0, 1: 0.86, 2: 0.72, 3: 0.62}
STRAYS = {0: 0, 1: 2, 2: 3, 3: 4}
FAR = ["red", "teal", "yellow", "purple", "green", "blue"]  # any four in a row (cyclically) are >= 40 degrees apart
NEAR = ["red", "orange", "pink", "purple", "blue", "teal"]  # neighbours on the wheel
# (title, object shape, labels): what people count with objects
TOPICS = [
    ("Marbles by Colour", "ball", ["Red", "Blue", "Yellow", "Green", "Purple"]),
    # a column's objects are one shape in its colour: the columns are people or groups, never other kinds of thing
    # (a fruit vote drew a "Pear" as pink apples and a "Cherry" as a blue one)
    ("Apples Picked per Child", "apple", ["Mia", "Noah", "Zoe", "Leo", "Ivy"]),
    ("Mugs Washed per Flatmate", "mug", ["Ana", "Ben", "Chloe", "Dev", "Eli"]),
    ("Parcels Delivered by Day", "box", ["Mon", "Tue", "Wed", "Thu", "Fri"]),
    ("Bottles Recycled by Floor", "bottle", ["Floor 1", "Floor 2", "Floor 3", "Floor 4"]),
    ("Gold Stars per Team", "star", ["Owls", "Foxes", "Bears", "Otters"]),
]

FIELDS = {**COMMON, "labels": ListOf(Str(24), 2, 6), "values": ListOf(Num(1, MAX_COUNT), 2, 6),
          "shape": Choice(SHAPES), "surface": Choice(("wood", "desk", "fabric"))}


def default_topic(r: random.Random) -> tuple[str, str, list[str], list[float]]:
    """A counting topic with distinct whole-number counts (title, shape, labels, values)."""
    title, shape, labels = TOPICS[r.randrange(len(TOPICS))]
    labels = labels[: r.randint(3, len(labels))]
    values = [float(v) for v in r.sample(range(1, MAX_COUNT + 1), len(labels))]
    return title, shape, labels, values


@lru_cache(maxsize=4)
def _grain_tile(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Seed-independent grey sensor noise, larger than the frame, as its positive and its negative
    part on three channels (each photo crops its own window: nothing here is read by OCR, so a
    shared tile is as good as fresh noise)."""
    noise = np.rint(np.random.default_rng(17).standard_normal((H + 160, W + 160), dtype=np.float32) * np.float32(sigma))
    up, down = (cv2.cvtColor(np.clip(v, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2RGB) for v in (noise, -noise))
    return up, down


def _camera(scene: Image.Image, ctx: Ctx, focus: list[list[int]]) -> Image.Image:
    """The photo families' camera at this level (:data:`._scene.LEVELS`: light falloff, defocus,
    noise, JPEG), cheaply: the light is a coarse grid resized up, the noise a window of a cached tile,
    and the defocus and the JPEG round trip are applied inside the ``focus`` boxes (the columns,
    cards, strays and title: what is read and counted; :func:`._scene.jpeg_regions`, the pixels
    of coding the whole frame there). Pixel arithmetic in OpenCV (saturating), in place on one array."""
    lv = CAMERA[ctx.difficulty]
    r = ctx.rng("camera")
    arr = np.array(scene)
    if lv.light:  # brighter round a random spot, darker towards the far corner
        gx, gy = r.uniform(0.2, 0.8), r.uniform(0.2, 0.8)
        yy, xx = np.mgrid[0:12, 0:16].astype(np.float32)
        dist = np.hypot(xx / 15 - gx, yy / 11 - gy) / 1.1
        grid = (255 * (1 - lv.light * np.clip(dist, 0, 1))).astype(np.uint8)
        light = cv2.resize(grid, (W, H), interpolation=cv2.INTER_LINEAR)
        cv2.multiply(arr, cv2.cvtColor(light, cv2.COLOR_GRAY2RGB), dst=arr, scale=1 / 255.0)
    if lv.blur:  # a 3x3 kernel whose variance is the level's defocus (sigma^2 per axis)
        w1 = lv.blur ** 2 / 2
        row = np.array([w1, 1 - 2 * w1, w1], np.float32)
        for x0, y0, x1, y1 in focus:
            x0, y0, x1, y1 = max(0, x0 - 6), max(0, y0 - 6), min(W, x1 + 8), min(H, y1 + 8)
            if x1 > x0 and y1 > y0:
                arr[y0:y1, x0:x1] = cv2.sepFilter2D(arr[y0:y1, x0:x1], -1, row, row, borderType=cv2.BORDER_REPLICATE)
    if lv.noise:
        ox, oy = r.randrange(160), r.randrange(160)
        up, down = _grain_tile(lv.noise)
        cv2.add(arr, up[oy:oy + H, ox:ox + W], dst=arr)
        cv2.subtract(arr, down[oy:oy + H, ox:ox + W], dst=arr)
    return jpeg_regions(arr, lv.quality, [[x0 - 6, y0 - 6, x1 + 8, y1 + 8] for x0, y0, x1, y1 in focus])


def level_metrics(facts: dict) -> dict[str, float]:
    """What makes counting hard, measured: the smallest object side, the number of stray objects
    and the closest hue pair of the columns."""
    from .object_scene import hue

    objs = facts["objects"]
    side = min(o["box"][2] - o["box"][0] for o in objs)
    hues = [hue(COLORS[c["color"]]) for c in facts["columns"]]
    near = min((min(abs(a - b), 360 - abs(a - b)) for i, a in enumerate(hues) for b in hues[i + 1:]), default=360.0)
    return {"min_side": side, "strays": len(facts["strays"]), "min_hue_gap": near}


def _content(ctx: Ctx) -> dict:
    """The chart content with defaults filled in; ValueError for counts that cannot be objects."""
    c = ctx.content
    title, shape, labels, values = default_topic(ctx.rng("field:topic"))
    labels = c.get("labels", labels)
    values = c.get("values", values if len(values) == len(labels) else
                   [float(v) for v in ctx.rng("field:values").sample(range(1, MAX_COUNT + 1), len(labels))])
    if len(values) != len(labels):
        raise ValueError(f"tally_photo spec: content.values has {len(values)} numbers but content.labels has {len(labels)}")
    bad = [v for v in values if float(v) != int(v)]
    if bad:
        raise ValueError(f"tally_photo spec: content.values must be whole numbers 1-{MAX_COUNT} (objects to count), got {bad[0]!r}")
    return {"title": c.get("title", title), "labels": list(labels), "values": [float(v) for v in values],
            "units": c.get("units", ""), "shape": c.get("shape", shape), "value_labels": c.get("value_labels", False)}


def _colors(labels: list[str], lv: int, r: random.Random) -> list[str]:
    named = [l.lower() for l in labels]
    if all(n in COLORS for n in named):  # the categories are the colours themselves
        return named
    pool = list(NEAR if lv >= 2 else FAR)
    start = r.randrange(len(pool))
    return [pool[(start + i) % len(pool)] for i in range(len(labels))]


def draw_tally_photo(ctx: Ctx):
    """A photo of a chart made of objects: the bar chart's facts, each value the number of objects in a column."""
    c = _content(ctx)
    chart = Ctx(kind="bar_chart", content={k: c[k] for k in ("title", "labels", "values", "units", "value_labels")},
                seed=ctx.seed, difficulty=0)
    f = {**chart_record(chart), "read_tolerance": 0.0}  # counts are counted exactly
    lv = ctx.difficulty
    r = ctx.rng("layout")
    labels, values = c["labels"], [int(v) for v in c["values"]]
    colors = _colors(labels, lv, ctx.rng("colors"))
    surface = ctx.get("surface", lambda rr: rr.choice(["wood", "desk", "fabric"]))
    # the title card (top left) and the columns' area under it
    f_title = fit_font(c["title"], "sans-bold", 520, 30, 14)
    title_box = [40, 28, int(40 + f_title.getlength(c["title"]) + 36), int(28 + line_height(f_title) + 26)]
    n = len(labels)
    left, right = 60, W - 60
    cw = (right - left) / n
    f_lab = min((fit_font(l, "sans-bold", cw - 44, 22, 11) for l in labels), key=lambda ft: ft.size)
    card_h = line_height(f_lab) + 18
    base = H - 40 - card_h - 16  # the bottom of every column
    room = base - (title_box[3] + 24)
    side = min(cw * 0.55, room / max(max(values), 6) - 6) * SIZE[lv]
    gap = max(3.0, side * 0.12)
    columns, objects = [], []
    for i, (label, count, color) in enumerate(zip(labels, values, colors)):
        cx = left + cw * (i + 0.5) + r.uniform(-cw * 0.06, cw * 0.06)
        boxes = []
        for k in range(count):
            jx = r.uniform(-side * 0.08, side * 0.08)
            y1 = base - k * (side + gap)
            boxes.append([int(cx - side / 2 + jx), int(y1 - side), int(cx + side / 2 + jx), int(y1)])
        card_w = min(cw - 16, f_lab.getlength(label) + 28)
        card = [int(cx - card_w / 2), int(base + 16), int(cx + card_w / 2), int(base + 16 + card_h)]
        columns.append({"label": label, "count": count, "color": color, "card": card,
                        "box": [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), base]})
        objects += [{"column": label, "shape": c["shape"], "color": color, "box": b} for b in boxes]
    # strays: objects of other shapes in the free space right of the title card, above the columns
    strays = []
    sr = ctx.rng("strays")
    free = [col["box"] for col in columns] + [col["card"] for col in columns]
    for _ in range(STRAYS[lv] * 20):
        if len(strays) == STRAYS[lv]:
            break
        s2 = side * sr.uniform(0.8, 1.0)
        x0, y0 = sr.uniform(title_box[2] + 20, W - 40 - s2), sr.uniform(20, base - s2)
        box = [int(x0), int(y0), int(x0 + s2), int(y0 + s2)]
        clear = all(box[2] + 8 < o[0] or box[0] > o[2] + 8 or box[3] + 8 < o[1] or box[1] > o[3] + 8
                    for o in free + [title_box] + [s["box"] for s in strays])
        if clear:
            strays.append({"shape": sr.choice([s for s in SHAPES if s != c["shape"]]), "color": sr.choice(list(COLORS)),
                           "box": box})
    facts = {**f, "shape": c["shape"], "columns": columns, "objects": objects, "strays": strays,
             "counts": dict(zip(labels, values)), "surface": surface, "title_box": title_box}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    scene = texture(surface, (W, H), ctx.np_rng("surface"))
    d = ImageDraw.Draw(scene, "RGBA")
    paper, ink = (250, 248, 240), (35, 35, 40)
    d.rectangle((title_box[0] + 4, title_box[1] + 5, title_box[2] + 4, title_box[3] + 5), fill=(0, 0, 0, 60))
    d.rectangle(title_box, fill=paper)
    d.text((title_box[0] + 18, title_box[1] + 13), c["title"], font=f_title, fill=ink)
    for col in columns:
        x0, y0, x1, y1 = col["card"]
        d.rectangle((x0 + 3, y0 + 4, x1 + 3, y1 + 4), fill=(0, 0, 0, 55))
        d.rectangle(col["card"], fill=paper)
        d.text(((x0 + x1) / 2, (y0 + y1) / 2), col["label"], font=f_lab, fill=ink, anchor="mm")
    for o in objects + strays:
        x0, y0, x1, y1 = o["box"]
        off = max(3, (x1 - x0) // 12)
        d.ellipse((x0 + off, y1 - (y1 - y0) * 0.16 + off, x1 + off, y1 + off), fill=(0, 0, 0, 60))
    for o in objects + strays:
        _draw(d, o["shape"], tuple(o["box"]), COLORS[o["color"]])
    focus = [c["box"] for c in columns] + [c["card"] for c in columns] + [t["box"] for t in strays] + [title_box]
    return _camera(scene, ctx, focus), facts


FAMILY = Family("tally_photo", FIELDS, draw_tally_photo, check=_content)
