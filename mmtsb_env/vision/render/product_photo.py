"""``product_photo``: a photo of a shop shelf where one product wears a price sticker (natural less-text).

The same content (and defaults) as ``price_tag``, but most of the picture is objects and logos:
the product (its brand on the package) stands among others on a shelf, a round sticker stuck on
the shelf's front lip before its base gives the price and a thin shelf strip under it its name.
Levels add more neighbouring products
(at level 2+ with their own stickers: distractor prices), shrink everything and add the camera
effects of :mod:`._scene` (the JPEG artefacts over the band of the products and the strip).
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import Ctx, drafting, fit_font, gradient, money, rgb
from ._phone import record
from ._scene import camera, drawing_on
from .price_tag import FAMILY as PRICE_TAG, COLORS, FIELDS, PRODUCTS, _draw_object

W, H = 1024, 768
SHELF_Y = 600
NEIGHBOURS = {0: 1, 1: 2, 2: 3, 3: 4}
# the strip's and the stickers' sizes by level (px, before the level's font scale; the stickers' at
# most and 0.3 of the product's width): small at level 3, where the 2x zoom must bring them back
LABEL_SIZE = {0: 20, 1: 20, 2: 20, 3: 15}
LABEL_SLOTS = {0: 1, 1: 1, 2: 1, 3: 1.5}  # the strip's widest, in slots: at level 3 a sale's label would shrink to 9 px in one
STICKER_RADIUS = {0: 54, 1: 54, 2: 48, 3: 26}
STICKER_REACH = 22  # how far below the shelf's top the stickers reach (its lip is 16 px deep)
# price stickers (fill, rim, ink), by whether the product is on sale: dark figures on a disc paler
# than the wall in every channel, its rim too. Tesseract thresholds each channel and takes a pixel
# that is dark in any one as ink: a yellow disc (no blue) or a rim of its hue became a dark blob or
# ring round the figures, and they were lost. The sale one white with red figures.
STICKERS = {False: ((255, 248, 220), (240, 230, 200), (20, 20, 20)), True: ((255, 255, 255), (250, 226, 226), (150, 0, 12))}


def _tile(obj: str, color, brand: str, ctx: Ctx) -> Image.Image:
    """One product drawn as on the price tag (a 500x520 picture with a transparent background)."""
    tile = Image.new("RGBA", (500, 520), (0, 0, 0, 0))
    _draw_object(ImageDraw.Draw(tile), obj, (40, 60, 460, 520), color, brand, ctx)
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


def draw_product_photo(ctx: Ctx):
    """A shelf photo: the price tag's facts (product, brand, price) plus which slot the product stands in."""
    f = record(ctx, PRICE_TAG)
    r = ctx.rng("shelf")
    n = NEIGHBOURS[ctx.difficulty] + 1
    slot = r.randrange(n)
    others = []
    for i in range(n):
        if i == slot:
            continue
        obj = r.choice(list(PRODUCTS))
        brand = r.choice([p[0] for p in PRODUCTS[obj] if p[0] != f["brand"]] or ["Generic"])
        price = round(f["price"] * r.uniform(0.6, 1.6), 2)
        if money(price, f["currency"]) == f["price_text"]:
            price = round(price + 0.5, 2)
        others.append({"object": obj, "brand": brand, "color": r.choice(COLORS), "price": price})
    slot_w = (W - 40) / n
    tile_w = min(slot_w - 16, 330)
    scale = tile_w / 500
    boxes = []
    for i in range(n):
        x0 = 20 + slot_w * i + (slot_w - tile_w) / 2
        boxes.append([int(x0), int(SHELF_Y - 520 * scale), int(x0 + tile_w), SHELF_Y])
    priced = ctx.difficulty >= 2
    for o in others:
        if priced:
            ctx.distractors.append(f"{o['brand']} {money(o['price'], f['currency'])}")
    position = "left" if slot < n / 3 else "right" if slot >= 2 * n / 3 else "middle"
    # the shelf strip under the product: its name (and the old price on sale)
    label = f["product"] + (f"  (was {money(f['old_price'], f['currency'])})" if f["on_sale"] else "")
    font = fit_font(label, "sans-bold", LABEL_SLOTS[ctx.difficulty] * slot_w - 12, LABEL_SIZE[ctx.difficulty] * ctx.scale, min_size=9)
    tw = font.getlength(label)
    lx = min(max((boxes[slot][0] + boxes[slot][2]) / 2, tw / 2 + 8), W - tw / 2 - 8)
    top = SHELF_Y + STICKER_REACH + 2  # just under the sticker
    label_box = [int(lx - tw / 2 - 6), top, int(lx + tw / 2 + 6), int(top + 6 + font.size * 1.3)]
    facts = {**f, "slot": slot + 1, "n_products": n, "position": position, "product_box": boxes[slot],
             "label_box": label_box, "frame": [W, H]}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    target_color = rgb(ctx.get("color", lambda r: r.choice(COLORS)))
    arr = _backdrop().copy()
    with drawing_on(arr, (0, 0, W - 1, 198), None) as (d, _, _):  # the upper shelf's rows (the crop starts at the origin)
        _upper_shelf(d, ctx)
    k = 0
    for i, box in enumerate(boxes):
        if i == slot:
            tile = _tile(f["object"], target_color, f["brand"], ctx)
        else:
            o = others[k]
            k += 1
            tile = _tile(o["object"], rgb(o["color"]), o["brand"], ctx)
        _paste_scaled(arr, tile, box)
    s = ctx.scale

    def sticker(box, price: float, sale: bool) -> None:
        cx, cy, rad = sticker_disc(box, ctx.difficulty)
        with drawing_on(arr, (cx - rad - 2, cy - rad - 2, cx + rad + 3, cy + rad + 3), None) as (d, ox, oy):
            fill, rim, ink = STICKERS[sale]
            d.ellipse((cx - rad - ox, cy - rad - oy, cx + rad - ox, cy + rad - oy), fill=fill, outline=rim, width=2)
            text = money(price, f["currency"])
            font = fit_font(text, "sans-bold", rad * 1.7, 30 * s)
            d.text((cx - ox, cy - oy), text, font=font, fill=ink, anchor="mm")

    sticker(boxes[slot], f["price"], f["on_sale"])
    if priced:
        k = 0
        for i, box in enumerate(boxes):
            if i != slot:
                sticker(box, others[k]["price"], False)
                k += 1
    with drawing_on(arr, label_box, None) as (d, ox, oy):
        d.rectangle((label_box[0] - ox, label_box[1] - oy, label_box[2] - ox, label_box[3] - oy), fill=(250, 250, 246))
        d.text((lx - ox, top + 3 - oy), label, font=font, fill=(20, 20, 20), anchor="ma")
    quad = [(boxes[slot][0], boxes[slot][1]), (boxes[slot][2], boxes[slot][1]), (boxes[slot][2], SHELF_Y), (boxes[slot][0], SHELF_Y)]
    pb = boxes[slot]  # defocus where the facts are: the product and its shelf strip
    focus = [min(pb[0], label_box[0]), pb[1], max(pb[2], label_box[2]), label_box[3]]
    # the JPEG round trip over the band of products, stickers and strip only (the same pixels there as
    # the whole frame coded, `jpeg_regions`); the plain wall above and the shelf below keep their noise
    band = [0, min(b[1] for b in boxes), W, label_box[3]]
    return camera(arr, ctx, quad, focus=focus, coded=band), facts


FAMILY = Family("product_photo", FIELDS, draw_product_photo)
