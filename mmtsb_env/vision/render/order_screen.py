"""``order_screen``: the shopping app's order-details screen for a purchase (UI screenshot).

The same content (and defaults) as ``receipt``: the merchant, order number, date and time, the
items with quantities and amounts, subtotal, tax, total and the card paid with -- laid out as a
phone screen. Levels add a promo banner, a "buy again" strip and a tab bar (distractor amounts),
then a dark low-contrast theme and a downscaled, re-compressed screenshot.
"""

from __future__ import annotations

from datetime import date

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting, format_time, money
from ._phone import Screen, record
from .receipt import FAMILY as RECEIPT, FIELDS

ACCENTS = [(59, 91, 219), (16, 122, 87), (214, 69, 65), (124, 58, 237), (234, 88, 12)]
STATUSES = ["Delivered", "Picked up", "Completed"]


def draw_order_screen(ctx: Ctx):
    """An order-details app screen: the receipt's facts (merchant, items, totals, payment)."""
    f = record(ctx, RECEIPT)
    r = ctx.rng("screen")
    accent = r.choice(ACCENTS)
    status = r.choice(STATUSES)
    cur = f["currency"]
    d = date.fromisoformat(f["date"])
    placed = f"{d.strftime('%b')} {d.day}, {d.year} at {format_time(f['time'], True)}"
    clutter = []
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 3, 3: 4}[ctx.difficulty]
    options = [f"Free delivery on orders over {money(cr.choice([25, 35, 50]), cur)}",
               f"Save {money(round(cr.uniform(2, 9), 2), cur)} with Plus this month",
               f"Buy again: {cr.choice(['Paper Towels', 'Dish Soap', 'Coffee Filters'])} {money(round(cr.uniform(2, 12), 2), cur)}",
               f"{cr.randint(20, 400)} reward points pending"]
    clutter = cr.sample(options, n)
    ctx.distractors.extend(clutter)
    facts = {**f, "status": status, "placed_text": placed, "app": "orders"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, accent)
    c = s.colors
    if clutter:
        s.card(lambda s_, x, y, w, dr: s_.text(x, y, clutter[0], "sans-bold", 14, accent, w, dr))

    def head(s_, x, y, w, dr):
        h = s_.text(x, y, f["merchant"], "sans-bold", 19, c["text"], w - 110, dr)
        if dr:
            size = s_.size(13)
            tw = s_.width(status, "sans-bold", size)
            s_.canvas.rect((x + w - tw - 20, y, x + w, y + size * 1.32 + 8), fill=accent, radius=10)
            s_.canvas.text((x + w - tw - 10, y + 4), status, "sans-bold", size, (255, 255, 255))
        return max(h, s_.size(13) * 1.32 + 8)

    s.card(head,
           lambda s_, x, y, w, dr: s_.text(x, y, f"Order #{f['receipt_number']}", "sans", 14, c["muted"], w, dr),
           lambda s_, x, y, w, dr: s_.text(x, y, f"Placed {placed}", "sans", 14, c["muted"], w, dr))
    rows = [lambda s_, x, y, w, dr: s_.text(x, y, f"Items ({f['item_count']})", "sans-bold", 16, c["text"], w, dr)]
    for it in f["items"]:
        label = f"{it['qty']} × {it['name']}" if it["qty"] > 1 else it["name"]

        def row(s_, x, y, w, dr, it=it, label=label):
            h = s_.pair(x, y, label, money(it["amount"], cur), w, dr)
            if it["qty"] > 1:
                h += s_.text(x + 12, y + h, f"{money(it['price'], cur)} each", "sans", 13, c["muted"], w - 12, dr)
            return h

        rows.append(row)
    s.card(*rows)
    rate = f" ({f['tax_rate']:g}%)" if f["tax_rate"] is not None else ""
    s.card(lambda s_, x, y, w, dr: s_.pair(x, y, "Subtotal", money(f["subtotal"], cur), w, dr, color=c["muted"]),
           lambda s_, x, y, w, dr: s_.pair(x, y, f"Tax{rate}", money(f["tax"], cur), w, dr, color=c["muted"]),
           lambda s_, x, y, w, dr: s_.pair(x, y, "Total", money(f["total"], cur), w, dr, style="sans-bold", base=17))

    def paid(s_, x, y, w, dr):
        if dr:
            s_.icon("credit_card", x, y, 22, accent)
        return max(22, s_.text(x + 32, y + 2, f"Paid with {f['payment']}", "sans", 14, c["text"], w - 32, dr))

    def where(s_, x, y, w, dr):
        if dr:
            s_.icon("location_on", x, y, 22, c["muted"])
        return max(22, s_.text(x + 32, y + 2, f["address"], "sans", 14, c["muted"], w - 32, dr))

    s.card(paid, where)
    for text in clutter[1:]:
        s.card(lambda s_, x, y, w, dr, t=text: s_.text(x, y, t, "sans", 14, c["muted"], w, dr))
    image = s.finish("Order details", tabs=["home", "search", "cart", "person"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("order_screen", FIELDS, draw_order_screen)
