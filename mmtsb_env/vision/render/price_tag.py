"""``price_tag``: a product shot on a shelf with its shelf price tag (brand, name, price, sale)."""

from __future__ import annotations

import dataclasses

from PIL import ImageDraw

from ._family import Family
from ._common import (
    DEGRADE, Bool, Choice, Color, Ctx, Num, Scan, Str, clutter_count, degrade, drawer, drop_shadow, fit_font,
    gradient, luminance, mix, money, rgb, wrap,
)

# object -> products that look like it (brand, name, low, high)
PRODUCTS = {
    "bottle": [("Alpine Springs", "Sparkling Water 1L", 0.99, 2.49), ("Golden Press", "Extra Virgin Olive Oil 500ml", 6.99, 13.99),
               ("Zesty", "Orange Juice 1.5L", 2.99, 4.99), ("CleanCo", "Dish Soap 750ml", 2.49, 4.49)],
    "mug": [("Homebase", "Ceramic Coffee Mug 12oz", 5.99, 14.99), ("Brewmate", "Travel Mug 16oz", 9.99, 24.99)],
    "box": [("Crunchies", "Honey Oat Cereal 400g", 3.49, 5.99), ("SparkTech", "USB-C Charger 30W", 14.99, 34.99),
            ("Tidy", "Tissues 3-pack", 3.99, 6.49), ("Playtime", "Puzzle 1000 pcs", 12.99, 24.99)],
    "can": [("Ocean Catch", "Tuna Chunks 160g", 1.29, 2.99), ("Red Valley", "Tomato Soup 400g", 1.49, 2.99),
            ("FizzUp", "Lemon Soda 330ml", 0.69, 1.49)],
    "bag": [("Sunny Farms", "Basmati Rice 2kg", 4.99, 8.99), ("Crispy", "Sea Salt Chips 150g", 2.29, 3.99),
            ("Bakers Best", "All-Purpose Flour 1kg", 1.99, 3.49)],
}
# level -> its scan, where not the level's own: level 3 is the shelf from further off (smaller, sharp;
# the shared level-3 scan left the huge price readable and lost the name even to a 2x zoom)
SCANS: dict[int, Scan] = {3: dataclasses.replace(DEGRADE[3], scale=0.65, blur=0.0, quality=75, noise=5.0)}
COLORS = ["#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a", "#ef6c00", "#00838f", "#4e342e"]

FIELDS = {
    "product": Str(60), "brand": Str(40), "price": Num(0, 1e6), "old_price": Num(0, 1e6),
    "currency": Choice(["$", "€", "£"]), "unit": Str(20), "object": Choice(list(PRODUCTS)), "color": Color(),
    "sku": Str(20), "on_sale": Bool(),
}


OBJECT_SIZE = (420, 460)  # the product's drawing at full size (product_photo's); on the tag's shelf at SHELF_SCALE
SHELF_SCALE = 0.62


# logo marks a package can wear instead of a printed brand (product_photo: products known by their look)
MARKS = ("star", "circle", "triangle", "diamond", "stripes")


def draw_mark(d: ImageDraw.ImageDraw, mark: str, centre: tuple[float, float], size: float, fill) -> None:
    """A logo ``mark`` (one of :data:`MARKS`) of height ``size`` centred on ``centre``."""
    import math

    cx, cy = centre
    r = size / 2
    if mark == "star":
        pts = [(cx + math.cos(math.radians(-90 + 36 * j)) * (r if j % 2 == 0 else r * 0.42),
                cy + math.sin(math.radians(-90 + 36 * j)) * (r if j % 2 == 0 else r * 0.42)) for j in range(10)]
        d.polygon(pts, fill=fill)
    elif mark == "circle":
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif mark == "triangle":
        d.polygon([(cx, cy - r), (cx + r * 1.1, cy + r * 0.85), (cx - r * 1.1, cy + r * 0.85)], fill=fill)
    elif mark == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)
    else:  # stripes: two bands across the label
        for dy in (-r * 0.55, r * 0.25):
            d.rectangle((cx - r * 1.5, cy + dy, cx + r * 1.5, cy + dy + r * 0.32), fill=fill)


def _draw_object(d: ImageDraw.ImageDraw, kind: str, box: tuple[float, float, float, float], color, brand: str, ctx: Ctx,
                 logo: str | None = None) -> None:
    """The product, standing in ``box`` (its details scaled with the box's height: full size at
    ``OBJECT_SIZE``); its label shows the brand in print, or with ``logo`` that mark instead (no text)."""
    x0, y0, x1, y1 = box
    cx, w, k = (x0 + x1) / 2, x1 - x0, (y1 - y0) / OBJECT_SIZE[1]
    dark = mix(color, (0, 0, 0), 0.35)
    light = mix(color, (255, 255, 255), 0.35)
    label_ink = (255, 255, 255) if luminance(color) < 150 else (20, 20, 20)
    mark = brand.upper()

    def label(xy, width: float, size: float, fill) -> None:
        if logo is not None:
            draw_mark(d, logo, xy, min(width * 0.6, 90 * k), fill)
            return
        d.text(xy, mark, font=fit_font(mark, "sans-bold", width, size * k), fill=fill, anchor="mm")

    if kind == "bottle":
        bw = w * 0.42
        d.rounded_rectangle((cx - bw / 2, y0 + 150 * k, cx + bw / 2, y1), radius=40 * k, fill=color, outline=dark, width=3)
        d.polygon([(cx - bw / 2 + 20 * k, y0 + 170 * k), (cx - 22 * k, y0 + 70 * k), (cx + 22 * k, y0 + 70 * k),
                   (cx + bw / 2 - 20 * k, y0 + 170 * k)], fill=color)
        d.rectangle((cx - 22 * k, y0 + 20 * k, cx + 22 * k, y0 + 75 * k), fill=color, outline=dark, width=2)
        d.rectangle((cx - 26 * k, y0, cx + 26 * k, y0 + 30 * k), fill=dark)
        d.rectangle((cx - bw / 2 + 14 * k, y0 + 180 * k, cx - bw / 2 + 26 * k, y1 - 30 * k), fill=light)  # the glint, under the label
        d.rectangle((cx - bw / 2, y0 + 250 * k, cx + bw / 2, y0 + 360 * k), fill=(245, 245, 240))
        label((cx, y0 + 305 * k), bw - 16 * k, 28, dark)
    elif kind == "mug":
        mw = w * 0.55
        top = y0 + 120 * k
        d.ellipse((cx + mw / 2 - 40 * k, top + 60 * k, cx + mw / 2 + 70 * k, top + 220 * k), outline=color, width=round(24 * k))
        d.rounded_rectangle((cx - mw / 2, top, cx + mw / 2, y1), radius=30 * k, fill=color, outline=dark, width=3)
        d.ellipse((cx - mw / 2, top - 25 * k, cx + mw / 2, top + 25 * k), fill=dark)
        # a mark sits high on the body, clear of a price sticker on the shelf's lip before the base
        label((cx, (top + y1) / 2 if logo is None else top + 90 * k), mw - 30 * k, 32, label_ink)
    elif kind == "box":
        bw, depth = w * 0.62, 40 * k
        fx0, fy0 = cx - bw / 2 - depth / 2, y0 + 80 * k
        d.polygon([(fx0, fy0), (fx0 + depth, fy0 - depth), (fx0 + bw + depth, fy0 - depth), (fx0 + bw, fy0)], fill=light)
        d.polygon([(fx0 + bw, fy0), (fx0 + bw + depth, fy0 - depth), (fx0 + bw + depth, y1 - depth), (fx0 + bw, y1)], fill=dark)
        d.rectangle((fx0, fy0, fx0 + bw, y1), fill=color)
        label((fx0 + bw / 2, fy0 + 60 * k), bw - 30 * k, 40, label_ink)
        if logo is None:  # a decoration (beside a mark it would read as a second one)
            d.ellipse((fx0 + bw / 2 - 60 * k, fy0 + 130 * k, fx0 + bw / 2 + 60 * k, fy0 + 250 * k), fill=light)
    elif kind == "can":
        cw = w * 0.45
        d.rectangle((cx - cw / 2, y0 + 150 * k, cx + cw / 2, y1 - 20 * k), fill=color)
        d.ellipse((cx - cw / 2, y1 - 45 * k, cx + cw / 2, y1 + 5 * k), fill=color)
        d.ellipse((cx - cw / 2, y0 + 125 * k, cx + cw / 2, y0 + 175 * k), fill=(200, 200, 205), outline=(150, 150, 155), width=3)
        d.rectangle((cx - cw / 2, y0 + 230 * k, cx + cw / 2, y0 + 330 * k), fill=(250, 250, 245))
        label((cx, y0 + 280 * k), cw - 16 * k, 28, dark)
    else:  # bag
        bw = w * 0.6
        d.polygon([(cx - bw / 2, y0 + 110 * k), (cx + bw / 2, y0 + 110 * k), (cx + bw / 2 + 15 * k, y1), (cx - bw / 2 - 15 * k, y1)],
                  fill=color, outline=dark)
        d.rectangle((cx - bw / 2, y0 + 90 * k, cx + bw / 2, y0 + 120 * k), fill=dark)
        label((cx, y0 + 230 * k), bw - 30 * k, 40, label_ink)
        if logo is None:
            d.ellipse((cx - 50 * k, y0 + 290 * k, cx + 50 * k, y0 + 390 * k), fill=light)


def draw_price_tag(ctx: Ctx):
    """A product on a shelf with its price tag: brand, product name, price, optional sale price."""
    obj = ctx.get("object", lambda r: r.choice(list(PRODUCTS)))
    pick = ctx.rng("field:product").choice(PRODUCTS[obj])
    brand = ctx.get("brand", lambda r: pick[0])
    product = ctx.get("product", lambda r: pick[1])
    price = round(ctx.get("price", lambda r: round(r.uniform(pick[2], pick[3]), 2)), 2)
    if "old_price" in ctx.content:
        old_price = round(ctx.content["old_price"], 2)
    elif ctx.content.get("on_sale") is False:  # a scenario that says so: no sale is drawn
        old_price = None
    else:  # on sale in about a third of tags, or always when the content says it is
        r = ctx.rng("field:old_price")
        sale = r.random() < 0.35 or ctx.content.get("on_sale") is True
        old_price = round(price * r.choice([1.2, 1.25, 1.33, 1.5]), 2) if sale else None
    currency = ctx.get("currency", lambda r: r.choice(["$", "$", "$", "€", "£"]))
    unit = ctx.get("unit", lambda r: r.choice(["each", "each", "ea.", ""]))
    sku = ctx.get("sku", lambda r: f"{r.randint(100000, 999999)}")
    color = rgb(ctx.get("color", lambda r: r.choice(COLORS)))
    on_sale = old_price is not None and old_price > price

    # the product on the shelf, its tag clipped to the shelf edge under it (side by side, the
    # product's body and label shared the tag's rows, and OCR read them as one line: the price was lost)
    W, H = 960, 728
    img = gradient((W, H), (238, 236, 230), (200, 196, 188))
    d = drawer(img)
    shelf_y = 300
    d.rectangle((0, shelf_y, W, shelf_y + 34), fill=(170, 160, 150))  # the shelf's front edge
    d.rectangle((0, shelf_y, W, shelf_y + 6), fill=(120, 112, 104))
    tx0, ty0, tx1, ty1 = 260, 316, 700, 666
    half, tall = OBJECT_SIZE[0] * SHELF_SCALE / 2, OBJECT_SIZE[1] * SHELF_SCALE
    _draw_object(d, obj, ((tx0 + tx1) / 2 - half, shelf_y - tall, (tx0 + tx1) / 2 + half, shelf_y), color, brand, ctx)
    drop_shadow(img, (tx0, ty0, tx1, ty1), offset=8, blur=8)
    d = drawer(img)
    tag_bg = (255, 236, 120) if on_sale else (255, 255, 255)
    d.rectangle((tx0, ty0, tx1, ty1), fill=tag_bg, outline=(60, 60, 60), width=2)
    pad = 24
    s = ctx.scale
    if on_sale:
        d.rectangle((tx0, ty0, tx1, ty0 + 56), fill=(200, 20, 30))
        d.text(((tx0 + tx1) / 2, ty0 + 28), "SALE", font=ctx.font("sans-bold", 38), fill=(255, 255, 255), anchor="mm")
        top = ty0 + 70
    else:
        top = ty0 + 22
    d.text((tx0 + pad, top), brand.upper(), font=fit_font(brand.upper(), "sans-bold", tx1 - tx0 - 2 * pad, 24 * s), fill=(90, 90, 90))
    name_font = fit_font(product, "sans", tx1 - tx0 - 2 * pad, 30 * s, min_size=22 * s)
    for k, part in enumerate(wrap(product, name_font, tx1 - tx0 - 2 * pad)[:2]):
        d.text((tx0 + pad, top + 34 + k * int(name_font.size * 1.2)), part, font=name_font, fill=(20, 20, 20))
    price_text = money(price, currency)
    pf = fit_font(price_text, "sans-bold", tx1 - tx0 - 2 * pad, 96 * s)
    d.text(((tx0 + tx1) / 2, ty1 - 120), price_text, font=pf, fill=(200, 20, 30) if on_sale else (20, 20, 20), anchor="ms")
    if unit:
        d.text((tx1 - pad, ty1 - 95), unit, font=ctx.font("sans", 20), fill=(60, 60, 60), anchor="ra")
    if on_sale:
        old_text = f"Was {money(old_price, currency)}"
        of = ctx.font("sans", 24)
        ox = tx0 + pad
        oy = ty1 - 95
        d.text((ox, oy), old_text, font=of, fill=(60, 60, 60))
        tw = of.getlength("Was ")
        # the strike is lighter than the figures it crosses (a dark one through the digits read "17.52" as "44+52")
        mid = oy + of.size * 0.55  # through the middle of the figures
        d.line((ox + tw, mid, ox + of.getlength(old_text), mid), fill=(170, 170, 170), width=2)
    # barcode + SKU along the bottom
    br = ctx.rng("barcode")
    x = tx0 + pad
    while x < tx0 + 200:
        bw = br.choice([1, 2, 3])
        d.rectangle((x, ty1 - 52, x + bw - 1, ty1 - 22), fill=(0, 0, 0))
        x += bw + br.choice([1, 2, 3])
    d.text((tx1 - pad, ty1 - 40), f"SKU {sku}", font=ctx.font("mono", 16), fill=(60, 60, 60), anchor="rm")
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        unit_price = money(round(price * cr.uniform(0.5, 3.0), 2), currency)
        options = [f"Unit price {unit_price} / kg", f"Aisle {cr.randint(1, 24)}", "Member deal",
                   f"2 for {money(round(price * 1.8, 2), currency)}", f"Best before {cr.randint(1, 28):02d}/{cr.randint(1, 12):02d}"]
        f = ctx.font("sans", 18)
        for i, text in enumerate(cr.sample(options, min(n_clutter, len(options)))):
            d.text((40 + (i % 3) * 310, ty1 + 10 + (i // 3) * 24), text, font=f, fill=(40, 40, 40))
            ctx.distractors.append(text)
    image = degrade(img, ctx, scan=SCANS.get(ctx.difficulty))
    facts = {"product": product, "brand": brand, "price": price, "price_text": price_text,
             "old_price": old_price if on_sale else None, "on_sale": on_sale, "currency": currency, "unit": unit,
             "object": obj, "sku": sku}
    return image, facts


def check_sale(ctx: Ctx) -> None:
    """Content that says the product is not on sale gives it no old price above its price."""
    c = ctx.content
    if c.get("on_sale") is False and c.get("old_price") is not None and c["old_price"] > c.get("price", 0):
        raise ValueError("price_tag content: on_sale is false but old_price is above price (that is a sale)")


FAMILY = Family("price_tag", FIELDS, draw_price_tag, check=check_sale)
