"""``receipt``: a till receipt on thermal paper (monospace, dashed rules, totals block)."""

from __future__ import annotations


import dataclasses

from ..fonts import font_path
from ._family import Family
from ._common import (
    DEGRADE,
    drawer, Choice, Ctx, Date, Int, ListOf, Num, Obj, Str, Time, clutter_count, degrade, format_date, format_time,
    line_height, money, place_on, wrap, random_date, random_time, sheet,
)

MERCHANTS = [
    "Blue Door Cafe", "Green Basket Market", "Harbor Hardware", "Maple Street Bakery", "Sunrise Pharmacy",
    "Pine & Co. Books", "Corner Deli", "Lakeside Grocery", "Red Kite Pizza", "Northside Fuel & Snacks",
]
# merchant keyword -> (item name, low price, high price)
CATALOG = {
    "cafe": [("Latte", 3.5, 5.5), ("Cappuccino", 3.5, 5.0), ("Croissant", 2.5, 4.0), ("Blueberry Muffin", 2.5, 3.75),
             ("Iced Tea", 2.0, 3.5), ("Bagel w/ Cream Cheese", 3.0, 4.5), ("Espresso", 2.0, 3.0)],
    "market": [("Bananas 1lb", 0.59, 0.89), ("Whole Milk 1gal", 3.29, 4.49), ("Eggs Large 12ct", 2.99, 5.49),
               ("Sourdough Loaf", 4.5, 6.5), ("Cheddar 8oz", 3.49, 5.99), ("Spinach 5oz", 2.99, 4.29),
               ("Olive Oil 500ml", 6.99, 11.99), ("Chicken Breast", 7.5, 12.9)],
    "hardware": [("Wood Screws 100pk", 5.99, 8.99), ("Duct Tape", 4.49, 7.99), ("LED Bulb 4pk", 8.99, 14.99),
                 ("Paint Brush 2in", 3.99, 6.99), ("Extension Cord 6ft", 9.99, 15.99), ("Work Gloves", 7.99, 12.99)],
    "pharmacy": [("Ibuprofen 100ct", 6.99, 10.99), ("Toothpaste", 2.99, 5.49), ("Hand Sanitizer", 1.99, 3.99),
                 ("Vitamin C 60ct", 7.49, 12.99), ("Bandages 30ct", 3.49, 5.99), ("Shampoo", 4.99, 8.99)],
    "books": [("Paperback Novel", 9.99, 17.99), ("Notebook A5", 4.99, 12.0), ("Bookmark", 1.5, 3.5),
              ("Cookbook", 19.99, 34.99), ("Greeting Card", 3.5, 6.0)],
    "pizza": [("Margherita 12in", 11.0, 15.0), ("Pepperoni Slice", 3.0, 4.5), ("Garlic Knots", 4.0, 6.0),
              ("Caesar Salad", 7.0, 10.0), ("Soda 20oz", 2.0, 3.0)],
    "other": [("Bottled Water", 1.29, 2.49), ("Chips", 1.99, 3.49), ("Candy Bar", 1.25, 2.25), ("Coffee 16oz", 1.99, 2.99),
              ("Gum", 1.19, 1.99), ("Sandwich", 4.99, 7.99)],
}
STREETS = ["Main St", "Oak Ave", "Elm St", "Harbor Rd", "Cedar Ln", "2nd Ave", "Park Blvd", "Mill Rd"]
CITIES = ["Springfield, IL", "Portland, OR", "Austin, TX", "Madison, WI", "Burlington, VT", "Boulder, CO"]
PAYMENTS = ["VISA **** {d}", "MASTERCARD **** {d}", "AMEX **** {d}", "DEBIT **** {d}", "CASH"]
TAX_RATES = [0.0, 5.0, 6.0, 6.25, 7.0, 8.25, 8.875, 10.0]
# the receipt's three print layouts (chosen by the seed), by the rule each draws between blocks
TEMPLATES = ("-", "=", "*")
# each template's item lines: (an item bought once, one bought more than once, the unit-price line
# under the latter), as format strings over qty, name, NAME (in capitals) and price (with currency)
ITEM_LINES = (("{name}", "{qty} x {name}", "    @ {price} ea"),
              ("{qty:>2}  {name}", "{qty:>2}  {name}", "      {price} each"),
              ("{NAME}", "{NAME}", "   {qty} @ {price}"))
FACE = "till"  # Noto Mono (fonts.TILL): an open zero, where DejaVu's dotted one reads as 8 at level 3
SCANS = {3: dataclasses.replace(DEGRADE[3], scale=0.52, blur=0.0, quality=75, noise=6.0)}  # level -> its scan, where not the level's own: smaller, sharp (a zoom reads it back). 0.52x since the till face (Noto Mono): at 0.56x it read 44 % plain over seeds 0-9


def _catalog(merchant: str) -> list[tuple[str, float, float]]:
    low = merchant.lower()
    for key, words in [("cafe", ("cafe", "coffee", "bakery")), ("market", ("market", "grocery", "basket")),
                       ("hardware", ("hardware",)), ("pharmacy", ("pharmacy", "drug")), ("books", ("book",)),
                       ("pizza", ("pizza",))]:
        if any(w in low for w in words):
            return CATALOG[key]
    return CATALOG["other"]


FIELDS = {
    "merchant": Str(60),
    "address": Str(120),
    "phone": Str(30),
    "date": Date(),
    "time": Time(),
    "items": ListOf(Obj({"name": Str(60), "qty": Int(1, 999), "price": Num(0, 1e6)}, required=("name",)), 1, 40),
    "tax": Num(0, 1e7),
    "tax_rate": Num(0, 50),
    "total": Num(0, 1e8),
    "payment": Str(40),
    "currency": Choice(["$", "€", "£"]),
    "receipt_number": Str(20),
    "footer": Str(80),
}


def _default_items(ctx: Ctx, merchant: str) -> list[dict]:
    rng = ctx.rng("field:items")
    catalog = _catalog(merchant)
    chosen = rng.sample(catalog, min(len(catalog), rng.randint(2, 6)))
    return [{"name": n, "qty": 1 if rng.random() < 0.7 else rng.randint(2, 4), "price": round(rng.uniform(lo, hi), 2)}
            for n, lo, hi in chosen]


def draw_receipt(ctx: Ctx):
    """A shop receipt: merchant, date/time, items with quantities and prices, tax, total, payment."""
    merchant = ctx.get("merchant", lambda r: r.choice(MERCHANTS))
    address = ctx.get("address", lambda r: f"{r.randint(10, 2999)} {r.choice(STREETS)}, {r.choice(CITIES)}")
    phone = ctx.get("phone", lambda r: f"({r.randint(201, 989)}) {r.randint(200, 999)}-{r.randint(0, 9999):04d}")
    iso_date = ctx.get("date", random_date)
    time = ctx.get("time", random_time)
    currency = ctx.get("currency", lambda r: "$")
    number = ctx.get("receipt_number", lambda r: f"{r.randint(1000, 999999):06d}")
    payment = ctx.get("payment", lambda r: r.choice(PAYMENTS).format(d=f"{r.randint(0, 9999):04d}"))
    footer = ctx.get("footer", lambda r: r.choice(["THANK YOU FOR SHOPPING!", "Thank you, come again!",
                                                    "Have a great day!", "Returns within 30 days w/ receipt"]))
    raw_items = ctx.content.get("items") or _default_items(ctx, merchant)
    item_rng = ctx.rng("item-prices")
    items = []
    for it in raw_items:
        qty = int(it.get("qty", 1))
        price = round(float(it["price"]) if "price" in it else round(item_rng.uniform(1, 20), 2), 2)
        items.append({"name": it["name"], "qty": qty, "price": price, "amount": round(qty * price, 2)})
    subtotal = round(sum(i["amount"] for i in items), 2)
    if "tax" in ctx.content:
        tax = round(ctx.content["tax"], 2)
        tax_rate = ctx.content.get("tax_rate")
    else:
        tax_rate = ctx.get("tax_rate", lambda r: r.choice(TAX_RATES))
        tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
    total = round(ctx.content["total"], 2) if "total" in ctx.content else round(subtotal + tax, 2)
    style = ctx.rng("layout")
    date_style = style.choice([0, 0, 1, 3])
    twelve = style.random() < 0.5

    # ---- layout on a fixed character grid
    body = ctx.font(FACE, 22)
    big = ctx.font(f"{FACE}-bold", 30)
    bold = ctx.font(f"{FACE}-bold", 22)
    cw = body.getlength("M")
    cols = 36
    width = int(cols * cw) + 60
    rows: list[tuple[str, object, str]] = []  # (align, font, text)

    def line(text: str = "", font=body, align: str = "l") -> None:
        rows.append((align, font, text))

    def pair(left: str, right: str, font=body) -> None:
        """``left`` word-wrapped, with ``right`` right-aligned on its last line."""
        chunks = _split(left, cols - len(right) - 1)
        for chunk in chunks[:-1]:
            line(chunk, font)
        last = chunks[-1]
        line(last + " " * max(1, cols - len(last) - len(right)) + right, font)

    date_text = format_date(iso_date, date_style)
    time_text = format_time(time, twelve)
    rate_text = f" ({tax_rate:g}%)" if tax_rate is not None else ""
    template = ctx.rng("template").randrange(len(TEMPLATES))
    rule = TEMPLATES[template] * cols

    def item_block() -> None:
        """The items as the template prints them: a line with the amount, and under an item bought
        more than once its unit price (:data:`ITEM_LINES`)."""
        one, many, each = ITEM_LINES[template]
        for it in items:
            n = it["qty"]
            fields = {"qty": n, "name": it["name"], "NAME": it["name"].upper(), "price": money(it["price"], currency)}
            pair((many if n > 1 else one).format(**fields), money(it["amount"], currency))
            if n > 1:
                line(each.format(**fields))
    if template == 0:  # centred header, date and number on top, items with "@ each" lines under them
        for part in wrap(merchant.upper(), big, width - 40):
            line(part, big, "c")
        for part in _split(address, cols):
            line(part, body, "c")
        line(f"Tel {phone}", body, "c")
        line(rule)
        pair(f"Date: {date_text}", time_text)
        line(f"Receipt #: {number}")
        line(rule)
        item_block()
        line(rule)
        pair("SUBTOTAL", money(subtotal, currency))
        pair(f"TAX{rate_text}", money(tax, currency))
        pair("TOTAL", money(total, currency), bold)
        line(rule)
        pair(payment, money(total, currency))
    elif template == 1:  # a till printout in columns: header left, a QTY / ITEM / AMOUNT table
        for part in wrap(merchant, big, width - 40):
            line(part, big)
        for part in _split(address, cols):
            line(part)
        line(f"Tel {phone}")
        line(rule)
        line(f"Receipt #: {number}")
        pair(f"Date: {date_text}", time_text)
        line(rule)
        pair("QTY ITEM", "AMOUNT", bold)
        item_block()
        line(rule)
        pair("Subtotal", money(subtotal, currency))
        pair(f"Tax{rate_text}", money(tax, currency))
        pair("TOTAL", money(total, currency), bold)
        pair(f"Paid: {payment}", money(total, currency))
    else:  # a supermarket slip: star rules, items in capitals first, the date and number at the foot
        for part in wrap(merchant.upper(), big, width - 40):
            line(part, big, "c")
        for part in _split(address, cols):
            line(part, body, "c")
        line(phone, body, "c")
        line(rule)
        item_block()
        line(rule)
        pair("SUBTOTAL", money(subtotal, currency))
        pair(f"SALES TAX{rate_text}", money(tax, currency))
        pair("** TOTAL", money(total, currency), bold)
        pair(payment, money(total, currency))
        line(rule)
        pair(date_text, time_text)
        line(f"TRANS {number}")
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        options = [
            f"Points earned: {cr.randint(5, 400)}",
            f"You saved {money(round(cr.uniform(0.5, 9.0), 2), currency)} today",
            f"Next visit: {money(round(cr.uniform(1, 5), 0), currency)} off orders over {money(round(cr.uniform(20, 50), 0), currency)}",
            f"Store #{cr.randint(10, 999)}  Reg {cr.randint(1, 12)}  Cashier {cr.choice(['ANA', 'BEN', 'KIM', 'RAJ', 'SAM'])}",
            f"Auth code: {cr.randint(100000, 999999)}",
            f"Items sold: {sum(i['qty'] for i in items)}",
        ]
        for text in cr.sample(options, min(n_clutter, len(options))):
            for part in _split(text, cols):
                line(part)
            ctx.distractors.append(text)
    line()
    line(footer, body, "c")

    height = 50 + sum(line_height(f, 1.3) for _, f, _ in rows) + 40
    paper = sheet(ctx, (width, height), (252, 251, 247))
    d = drawer(paper.image)
    y = 40
    ink = (35, 35, 40)
    # the till face has no bold of its own (fonts.TILL): its bold rows are struck twice
    strike = 1 if font_path(f"{FACE}-bold") == font_path(FACE) else 0
    for align, font, text in rows:
        stroke = strike if font in (big, bold) else 0
        if align == "c":
            d.text((width / 2, y), text, font=font, fill=ink, anchor="ma", stroke_width=stroke, stroke_fill=ink)
        else:
            d.text((30, y), text, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)
        y += line_height(font, 1.3)
    image = place_on(paper, ctx, "desk", margin=0.08)
    image = degrade(image, ctx, scan=SCANS.get(ctx.difficulty))
    facts = {
        "merchant": merchant, "address": address, "phone": phone, "date": iso_date, "date_text": date_text,
        "time": time, "time_text": time_text, "receipt_number": number, "items": items, "subtotal": subtotal,
        "tax_rate": tax_rate, "tax": tax, "total": total, "payment": payment, "currency": currency,
        "item_count": sum(i["qty"] for i in items),
    }
    return image, facts


FAMILY = Family("receipt", FIELDS, draw_receipt)


def _split(text: str, cols: int) -> list[str]:
    """Word-wrap to ``cols`` characters (words longer than a line are cut)."""
    out, current = [], ""
    words = []
    for word in text.split():
        words.extend(word[k:k + cols] for k in range(0, len(word), cols))
    for word in words:
        if current and len(current) + 1 + len(word) > cols:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        out.append(current)
    return out or [""]
