"""``product_photo``: a photo of a shop shelf where the product is known by its look (natural less-text).

The same content (and defaults) as ``price_tag``, but the product must be *recognised*: no
package prints a brand; each wears a logo mark (:data:`.price_tag.MARKS`) on its colour, and
every product on the shelf has its own round price sticker on the shelf's lip and its own shelf
strip with its name. The task names the product by its look (``facts["description"]``: "the blue
bottle with a star mark"), and its neighbours are look-alikes: one of the same shape and colour
with another mark, from level 1 one of the same shape and mark in another colour, from level 2 one
of the same colour and mark in another shape (:func:`look_alikes`); no neighbour shares all three.
Reading the sticker or strip of the wrong product is the paper's object misidentification.
Levels add neighbours (2-5 products), shrink everything and add the camera effects of
:mod:`._scene` (the JPEG artefacts over the band of the products and the strips).

A task may instead name the product by where it stands (``facts["placed"]``: "the second product
from the right on the lower shelf", "the product just to the left of the red can with a star mark",
:func:`placement`): the agent must count along the shelf or find the neighbour by its look, and
the look-alikes still stand beside it.

An *unlabelled* shelf (content ``unlabelled``) is the photo a shopper takes to find the product in a
catalogue: no strip and no sticker, so nothing in the photo names a product or prices it, and the
products come in two package sizes (content ``size``, :data:`SIZES`; a small one is the large one's
picture at :data:`SMALL` of its size, standing on the shelf). Its first look-alike is its twin in
the other size, then the others above (of the target's size); the catalogue rows it is matched
against differ in exactly these attributes (colour, size, mark), so the agent must tell them apart
by look. Such a photo is named by where the product stands.

Facts: the price tag's, plus ``look`` (``object``, ``color``, ``mark``; ``size`` when unlabelled),
``unlabelled``, ``description``,
``placed``, ``slot`` (1-based, left to right), ``position``, ``product_box``, ``label_box`` (the
target's strip) and ``shelf`` (every product: name, price, look, boxes).
"""

from __future__ import annotations

import functools
import math
from dataclasses import replace

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import Bool, Choice, Ctx, drafting, fit_font, gradient, money, rgb, wrap
from ._phone import record
from ._scene import LEVELS, camera, drawing_on
from .price_tag import FAMILY as PRICE_TAG, COLORS, FIELDS as TAG_FIELDS, MARKS, PRODUCTS, _draw_object, check_sale

W, H = 1024, 768
SHELF_Y = 600
NEIGHBOURS = {0: 1, 1: 2, 2: 3, 3: 4}
# the camera's look where not the level's own: level 3 a little more out of focus (0.8 px, the level's
# 0.6), since the glare and defocus no longer sit on the target alone (over seeds 0-9: tesseract
# reads 35 % of its values as delivered, 65 % with a 2x zoom; with 0.6 it read 45 % as delivered)
LOOKS = {3: replace(LEVELS[3], blur=0.8)}
NEIGHBOUR_SALE = 0.45  # the chance a neighbour is on sale too (its own red sticker and "was" line)
# the package colours by the name a shopper gives them: eight hues no viewer would name alike
# (price_tag's palette, with a yellow that is not amber)
PALETTE = {"red": "#c62828", "blue": "#1565c0", "green": "#2e7d32", "yellow": "#fdd835", "purple": "#6a1b9a",
           "orange": "#ef6c00", "teal": "#00838f", "brown": "#4e342e"}
SIZES = ("small", "large")  # the package sizes of an unlabelled shelf (a catalogue's ``relative_size``)
SMALL = 0.7  # a small package's size against a large one's (the same picture, scaled)
FIELDS = {**TAG_FIELDS, "color": Choice(PALETTE), "mark": Choice(MARKS), "unlabelled": Bool(), "size": Choice(SIZES)}
# more names per shape for the neighbours (each look-alike's strip names a product of its own shape)
# with the price range a shop asks for each (a neighbour is priced in its own range, not near the target's)
MORE_NAMES = {"bottle": (("Apple Cider Vinegar 500ml", 2.49, 5.99), ("Mango Nectar 1L", 1.99, 4.49), ("Hand Wash Refill 1L", 2.99, 6.99),
                         ("Iced Tea Lemon 1.5L", 1.29, 2.99)),
              "mug": (("Stoneware Mug 14oz", 7.99, 18.99), ("Espresso Cup 4oz", 3.99, 9.99), ("Enamel Camp Mug 12oz", 8.99, 19.99),
                      ("Latte Mug 16oz", 6.99, 16.99)),
              "box": (("Granola Clusters 500g", 3.49, 6.99), ("Green Tea 40 bags", 2.49, 5.49), ("Phone Stand", 9.99, 24.99),
                      ("Dishwasher Tablets 30", 5.99, 11.99)),
              "can": (("Chickpeas 400g", 0.79, 1.99), ("Coconut Milk 400ml", 1.29, 2.79), ("Sweetcorn 340g", 0.89, 1.99),
                      ("Ginger Ale 330ml", 0.69, 1.59)),
              "bag": (("Rolled Oats 1kg", 1.99, 4.49), ("Brown Sugar 1kg", 1.79, 3.99), ("Pretzel Twists 200g", 1.99, 3.99),
                      ("Red Lentils 500g", 1.49, 3.49))}
# product name -> (lowest, highest) price on a shelf
PRICE_RANGES = {name: (lo, hi) for rows in PRODUCTS.values() for _, name, lo, hi in rows} | {
    name: (lo, hi) for rows in MORE_NAMES.values() for name, lo, hi in rows}
# the strip's and the stickers' sizes by level (px, before the level's font scale; the stickers' at
# most and 0.3 of the product's width): small at level 3, where the 2x zoom must bring them back
LABEL_SIZE = {0: 20, 1: 20, 2: 20, 3: 15}
STICKER_RADIUS = {0: 54, 1: 54, 2: 48, 3: 26}
STICKER_REACH = 22  # how far below the shelf's top the stickers reach (its lip is 16 px deep)
# price stickers (fill, rim, ink), by whether the product is on sale: dark figures on a disc paler
# than the wall in every channel, its rim too. Tesseract thresholds each channel and takes a pixel
# that is dark in any one as ink: a yellow disc (no blue) or a rim of its hue became a dark blob or
# ring round the figures, and they were lost. The sale one white with red figures.
STICKERS = {False: ((255, 248, 220), (240, 230, 200), (20, 20, 20)), True: ((255, 255, 255), (250, 226, 226), (150, 0, 12))}


def _tile(obj: str, color, brand: str, ctx: Ctx, logo: str | None = None) -> Image.Image:
    """One product drawn as on the price tag (a 500x520 picture with a transparent background);
    with ``logo`` its label wears that mark instead of the brand."""
    tile = Image.new("RGBA", (500, 520), (0, 0, 0, 0))
    _draw_object(ImageDraw.Draw(tile), obj, (40, 60, 460, 520), color, brand, ctx, logo)
    return tile


def _paste_scaled(arr: np.ndarray, tile: Image.Image, box: list[int]) -> None:
    """``tile`` (RGBA) shrunk into ``box`` of ``arr`` (RGB, in place) and laid over it by its alpha:
    premultiplied, antialiased by a Gaussian and resampled bilinearly (OpenCV, as
    :func:`._scene._shrunk`), blended over the pixels it covers only. Only the drawn part of the
    tile (its alpha's bounding box and the blur's reach) is worked on: outside it the
    premultiplied tile is zero, so the result is the same as for the whole tile (the blur's and the
    resampling's borders extend the crop's edge rows, as they do the tile's where it is drawn to its edge)."""
    x0, y0, x1, y1 = box
    sx, sy = (x1 - x0) / tile.width, (y1 - y0) / tile.height
    sigma = 0.5 * math.sqrt(1 / min(sx, sy) - 1) if min(sx, sy) < 1 else 0.0
    reach = math.ceil(3 * sigma) + 2
    drawn = tile.getbbox()
    if drawn is None:
        return
    cx0, cy0 = max(0, drawn[0] - reach), max(0, drawn[1] - reach)
    cx1, cy1 = min(tile.width, drawn[2] + reach), min(tile.height, drawn[3] + reach)
    premultiplied = cv2.cvtColor(np.asarray(tile.crop((cx0, cy0, cx1, cy1))), cv2.COLOR_RGBA2mRGBA)
    if sigma:
        premultiplied = cv2.GaussianBlur(premultiplied, (0, 0), sigma)
    # where the crop lands in the box: resize's pixel-centre mapping, dst = s * (src + 0.5) - 0.5
    dx0, dy0 = max(0, math.floor(sx * cx0)), max(0, math.floor(sy * cy0))
    dx1, dy1 = min(x1 - x0, math.ceil(sx * cx1)), min(y1 - y0, math.ceil(sy * cy1))
    matrix = np.float64([[sx, 0, sx * (cx0 + 0.5) - 0.5 - dx0], [0, sy, sy * (cy0 + 0.5) - 0.5 - dy0]])
    small = cv2.warpAffine(premultiplied, matrix, (dx1 - dx0, dy1 - dy0), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    cover = cv2.cvtColor(cv2.extractChannel(small, 3), cv2.COLOR_GRAY2RGB)
    under = arr[y0 + dy0:y0 + dy1, x0 + dx0:x0 + dx1]
    under[:] = cv2.add(cv2.multiply(under, cv2.subtract(255, cover), scale=1 / 255.0), cv2.cvtColor(small, cv2.COLOR_RGBA2RGB))


def sticker_disc(box: list[int], difficulty: int) -> tuple[float, float, float]:
    """The centre and radius of the price sticker under the product in ``box``: stuck on the
    shelf's front, over its lip and the product's base. Its figures need a pale surround that reaches
    the shelf front: tesseract merges figures on a disc wholly inside the product (or the product
    and the dark lip) into the product's own blob, and read them in few photos."""
    rad = min(STICKER_RADIUS[difficulty], (box[2] - box[0]) * 0.3)
    return (box[0] + box[2]) / 2, SHELF_Y + STICKER_REACH - rad, rad


@functools.lru_cache(maxsize=1)
def _backdrop() -> np.ndarray:
    """What every shelf photo starts from (the same for every seed, so drawn once per process):
    the wall's gradient and the lower shelf (light: on a darker one tesseract lost the line of the
    shelf strip on it in some photos) with its front edge."""
    scene = gradient((W, H), (236, 233, 226), (196, 190, 180))
    d = ImageDraw.Draw(scene)
    d.rectangle((0, SHELF_Y, W, H), fill=(200, 190, 176))
    d.rectangle((0, SHELF_Y, W, SHELF_Y + 16), fill=(110, 100, 90))
    arr = np.array(scene)
    arr.flags.writeable = False  # shared: each photo copies it
    return arr


def _upper_shelf(d: ImageDraw.ImageDraw, ctx: Ctx) -> None:
    """The shelf above, cut by the frame: a row of plain packages (no text) for context."""
    r = ctx.rng("upper-shelf")
    y = 150
    x = r.uniform(-40, 0)
    while x < W:
        w, h = r.uniform(70, 150), r.uniform(90, 140)
        col = rgb(r.choice(COLORS))
        if r.random() < 0.5:
            d.rectangle((x, y - h, x + w, y), fill=col)
        else:
            d.rounded_rectangle((x, y - h, x + w, y), radius=w * 0.3, fill=col)
        x += w + r.uniform(8, 30)
    d.rectangle((0, y, W, y + 40), fill=(120, 110, 98))
    d.rectangle((0, y + 40, W, y + 48), fill=(95, 86, 76))


def describe(look: dict) -> str:
    """What a shopper calls a product by its look: "the blue bottle with a star mark"."""
    mark = "two stripes" if look["mark"] == "stripes" else f"a {look['mark']} mark"
    return f"the {look['color']} {look['object']} with {mark}"


ORDINALS = ("first", "second", "third", "fourth", "fifth")


def placement(shelf: list[dict], slot: int, r) -> str:
    """Where a shopper says the product at ``slot`` (0-based) of ``shelf`` (left to right) stands,
    naming no look of its own: its place counted from the nearer end ("the second product from the
    right on the lower shelf"), or beside a neighbour no other product looks like ("the product
    just to the left of the red can with a star mark"); one of those drawn with ``r``. Either names
    the one product (the shelf above holds plain packages without marks or stickers)."""
    n = len(shelf)
    left, right = slot, n - 1 - slot
    if left == right:
        options = ["the product in the middle of the lower shelf"]
    elif left < right:
        options = [f"the {ORDINALS[left]} product from the left on the lower shelf"]
    else:
        options = [f"the {ORDINALS[right]} product from the right on the lower shelf"]
    looks = [describe(p) for p in shelf]
    for j, side in ((slot - 1, "right"), (slot + 1, "left")):  # the neighbour on the left: the product is to its right
        if 0 <= j < n and looks.count(looks[j]) == 1:
            options.append(f"the product just to the {side} of {looks[j]}")
    return r.choice(options)


def look_alikes(target: dict, n: int, r) -> list[dict]:
    """``n`` neighbours' looks for ``target`` (object, color, mark): first the same shape and colour
    with another mark, then the same shape and mark in another colour, then the same colour and
    mark in another shape, then any look; never all three of the target's. A ``target`` with a
    ``size`` (an unlabelled shelf) first gets its twin in the other size, and every look a size:
    the target's for the look-alikes of its shape, "large" for the others."""
    colours, objects = list(PALETTE), list(PRODUCTS)
    other = lambda pool, v: r.choice([x for x in pool if x != v])  # noqa: E731
    plan = [{**target, "mark": other(MARKS, target["mark"])},
            {**target, "color": other(colours, target["color"])},
            {**target, "object": other(objects, target["object"])}]
    if "size" in target:
        plan = [{**target, "size": other(SIZES, target["size"])}] + plan
        plan[-1]["size"] = "large"
    out = []
    for i in range(n):
        look = plan[i] if i < len(plan) else None
        while look is None or look == target:
            look = {"object": r.choice(objects), "color": r.choice(colours), "mark": r.choice(MARKS)}
            if "size" in target:
                look["size"] = "large"
        out.append(look)
    return out


def _strip_lines(name: str, was: str | None, font, width: float) -> list[str]:
    """A shelf strip's lines: the name wrapped to two lines at most, and the old price on sale."""
    lines = wrap(name, font, width)[:2]
    return lines + ([f"was {was}"] if was else [])


def draw_product_photo(ctx: Ctx):
    """A shelf photo: the price tag's facts (product, price) and the product's look among look-alikes,
    each product with its own sticker and strip."""
    f = record(ctx, PRICE_TAG)
    r = ctx.rng("shelf")
    n = NEIGHBOURS[ctx.difficulty] + 1
    look = {"object": f["object"], "color": ctx.get("color", lambda g: g.choice(list(PALETTE))),
            "mark": ctx.get("mark", lambda g: g.choice(MARKS))}
    unlabelled = ctx.content.get("unlabelled", False)
    if unlabelled:
        look["size"] = ctx.get("size", lambda g: g.choice(SIZES))
    # the neighbours' looks come from the seed alone (not the level), so the first ones stay as levels add more
    looks = look_alikes(look, NEIGHBOURS[3], ctx.rng("look-alikes"))[:n - 1]
    slot = r.randrange(n)
    names = {f["product"]}
    sales = ctx.rng("neighbour-sales")
    others = []
    for lk in looks:
        pool = [x for x in [p[1] for p in PRODUCTS[lk["object"]]] + [m[0] for m in MORE_NAMES[lk["object"]]] if x not in names]
        name = r.choice(pool)
        names.add(name)
        lo, hi = PRICE_RANGES[name]
        price = round(r.uniform(lo, hi), 2)
        while money(price, f["currency"]) == f["price_text"]:
            price = round(price + 0.1, 2)
        on = sales.random() < NEIGHBOUR_SALE  # a sale is no mark of the target: neighbours have them too
        old = round(price * sales.choice([1.2, 1.25, 1.33, 1.5]), 2) if on else None
        others.append({**lk, "product": name, "price": price, "price_text": money(price, f["currency"]),
                       "on_sale": on, "old_price": old})
    r.shuffle(others)
    slot_w = (W - 40) / n
    tile_w = min(slot_w - 16, 330)
    scale = tile_w / 500
    target = {**look, "product": f["product"], "price": f["price"], "price_text": f["price_text"],
              "on_sale": f["on_sale"], "old_price": f["old_price"]}
    shelf = others[:slot] + [target] + others[slot:]
    boxes = []
    for i, item in enumerate(shelf):
        k = SMALL if item.get("size") == "small" else 1.0  # a small package stands on the shelf, centred in its slot
        w = tile_w * k
        x0 = 20 + slot_w * i + (slot_w - w) / 2
        boxes.append([int(x0), int(SHELF_Y - 520 * scale * k), int(x0 + w), SHELF_Y])
    position = "left" if slot < n / 3 else "right" if slot >= 2 * n / 3 else "middle"
    # each product's shelf strip: its name (and the old price on sale), one slot wide
    font = ctx.font("sans-bold", LABEL_SIZE[ctx.difficulty])
    strip_w = slot_w - 12
    top = SHELF_Y + STICKER_REACH + 2  # just under the stickers
    strips = []
    for i, item in enumerate(shelf):
        if unlabelled:  # no strip: nothing on the shelf names a product
            strips.append(([], (boxes[i][0] + boxes[i][2]) / 2, None))
            continue
        was = money(item["old_price"], f["currency"]) if item["on_sale"] else None
        lines = _strip_lines(item["product"], was, font, strip_w - 8)
        cx = (boxes[i][0] + boxes[i][2]) / 2
        tw = max(font.getlength(t) for t in lines)
        strips.append((lines, cx, [int(cx - tw / 2 - 5), top, int(cx + tw / 2 + 5), int(top + 6 + font.size * 1.25 * len(lines))]))
    for i, item in enumerate(shelf):
        item.update({"slot": i + 1, "box": boxes[i], "label_box": strips[i][2]})
        if i != slot:
            ctx.distractors.append(f"{item['product']} {item['price_text']}")
    facts = {**f, "look": look, "unlabelled": unlabelled, "description": describe(look), "placed": placement(shelf, slot, ctx.rng("placed")),
             "slot": slot + 1, "n_products": n, "position": position,
             "product_box": boxes[slot], "label_box": strips[slot][2], "shelf": shelf, "frame": [W, H]}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    arr = _backdrop().copy()
    with drawing_on(arr, (0, 0, W - 1, 198), None) as (d, _, _):  # the upper shelf's rows (the crop starts at the origin)
        _upper_shelf(d, ctx)
    for item in shelf:
        tile = _tile(item["object"], rgb(PALETTE[item["color"]]), "", ctx, logo=item["mark"])
        _paste_scaled(arr, tile, item["box"])
    s = ctx.scale

    def sticker(box, price: float, sale: bool) -> None:
        cx, cy, rad = sticker_disc(box, ctx.difficulty)
        with drawing_on(arr, (cx - rad - 2, cy - rad - 2, cx + rad + 3, cy + rad + 3), None) as (d, ox, oy):
            fill, rim, ink = STICKERS[sale]
            d.ellipse((cx - rad - ox, cy - rad - oy, cx + rad - ox, cy + rad - oy), fill=fill, outline=rim, width=2)
            text = money(price, f["currency"])
            font = fit_font(text, "sans-bold", rad * 1.7, 30 * s)
            d.text((cx - ox, cy - oy), text, font=font, fill=ink, anchor="mm")

    for i, item in enumerate(shelf):
        if unlabelled:
            continue
        sticker(item["box"], item["price"], item["on_sale"])
        lines, cx, box = strips[i]
        with drawing_on(arr, box, None) as (d, ox, oy):
            d.rectangle((box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), fill=(250, 250, 246))
            for j, t in enumerate(lines):
                d.text((cx - ox, top + 3 + j * font.size * 1.25 - oy), t, font=font, fill=(20, 20, 20), anchor="ma")
    # the glare and cast shadow fall over the row of products, the defocus over every product and
    # strip: none of the camera's effects marks the target (on the target alone they pointed at it)
    pb = [min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes)]
    quad = [(pb[0], pb[1]), (pb[2], pb[1]), (pb[2], SHELF_Y), (pb[0], SHELF_Y)]
    labels = [st[2] for st in strips if st[2] is not None] or [[pb[0], SHELF_Y, pb[2], SHELF_Y + 16]]  # unlabelled: the shelf's lip
    focus = [min(min(b[0] for b in boxes), min(b[0] for b in labels)), min(b[1] for b in boxes),
             max(max(b[2] for b in boxes), max(b[2] for b in labels)), max(b[3] for b in labels)]
    # the JPEG round trip over the band of products, stickers and strips only (the same pixels there as
    # the whole frame coded, `jpeg_regions`); the plain wall above and the shelf below keep their noise
    band = [0, min(b[1] for b in boxes), W, max(b[3] for b in labels)]
    return camera(arr, ctx, quad, focus=focus, coded=band, look=LOOKS.get(ctx.difficulty)), facts


FAMILY = Family("product_photo", FIELDS, draw_product_photo, check=check_sale)
