"""``bank_feed``: the banking app's activity feed with one card purchase opened (UI screenshot).

The same content (and defaults) as ``receipt``: the purchase shows the merchant, date and time,
the card and the total, and its itemised receipt (items with quantities and amounts, subtotal,
tax) as card issuers attach them. Cash receipts appear as a manually added cash entry of a
budget tracker. Levels add the account's balance and other transactions around it (other
merchants and amounts: distractors; from level 2 more of them, with amounts near the purchase's
total), a tab bar, a dark low-contrast theme and a downscaled, re-compressed screenshot.
"""

from __future__ import annotations

from datetime import date, timedelta

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting, format_time, money
from ._phone import Screen, record
from .receipt import FAMILY as RECEIPT, FIELDS

ACCENTS = [(0, 116, 222), (0, 140, 110), (88, 60, 200), (200, 40, 90)]
OTHERS = ["Pay-n-Park", "City Utilities", "Hometown Gym", "Streamly", "Corner Fuel", "Riverside Library",
          "Metro Transit", "Green Grocer"]


def draw_bank_feed(ctx: Ctx):
    """A bank app's activity feed with the purchase opened: the receipt's facts (merchant, items, totals)."""
    f = record(ctx, RECEIPT)
    r = ctx.rng("screen")
    accent = r.choice(ACCENTS)
    cur = f["currency"]
    d = date.fromisoformat(f["date"])
    posted = f"{d.strftime('%b')} {d.day}, {d.year} · {format_time(f['time'], True)}"
    cash = f["payment"].strip().upper() == "CASH"
    method = "Cash · added manually" if cash else f["payment"]
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 5, 3: 7}[ctx.difficulty]
    others = []
    for name in cr.sample(OTHERS, n):
        when = d + timedelta(days=cr.choice([-3, -2, -1, 1, 2]))
        # from level 2 the other amounts look like the purchase's (within a fifth of its total)
        amount = f["total"] * cr.uniform(0.8, 1.2) if ctx.difficulty >= 2 else cr.uniform(4, 90)
        others.append((name, f"{when.strftime('%b')} {when.day}", -round(max(amount, 1.0), 2)))
    balance = round(cr.uniform(400, 4800), 2)
    ctx.distractors.extend(f"{a} {b} {money(c, cur)}" for a, b, c in others)
    if n:
        ctx.distractors.append(f"Available balance {money(balance, cur)}")
    facts = {**f, "posted_text": posted, "method_text": method, "app": "bank"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, accent)
    c = s.colors
    if n:
        s.card(lambda s_, x, y, w, dr: s_.text(x, y, "Available balance", "sans", 13, c["muted"], w, dr),
               lambda s_, x, y, w, dr: s_.text(x, y, money(balance, cur), "sans-bold", 24, c["text"], w, dr))

    def txn(name: str, when: str, amount: float):
        def block(s_, x, y, w, dr):
            if dr:
                s_.canvas.ellipse((x, y, x + 32, y + 32), fill=c["line"])
                s_.canvas.text((x + 10, y + 7), name[0], "sans-bold", 14, c["muted"])
            h = s_.pair(x + 44, y, name, money(amount, cur), w - 44, dr, base=15)
            return max(32, h + s_.text(x + 44, y + h, when, "sans", 13, c["muted"], w - 44, dr))
        return block

    before, after = others[: n // 2], others[n // 2:]
    if before:
        s.card(*[txn(*o) for o in before], gap=12)

    def head(s_, x, y, w, dr):
        if dr:
            s_.canvas.ellipse((x, y, x + 40, y + 40), fill=accent)
            s_.icon("attach_money" if cash else "shopping_cart", x + 8, y + 8, 24, (255, 255, 255))
        h = s_.pair(x + 52, y, f["merchant"], money(-f["total"], cur), w - 52, dr, style="sans-bold", base=17)
        h += s_.text(x + 52, y + h, posted, "sans", 13, c["muted"], w - 52, dr)
        return max(42, h + s_.text(x + 52, y + h, method, "sans", 13, c["muted"], w - 52, dr))

    rows = [head, lambda s_, x, y, w, dr: s_.text(x, y, f"Itemized receipt ({f['item_count']} items)", "sans-bold", 14,
                                                  c["text"], w, dr)]
    for it in f["items"]:
        label = f"{it['qty']} × {it['name']}" if it["qty"] > 1 else it["name"]
        rows.append(lambda s_, x, y, w, dr, label=label, it=it: s_.pair(x, y, label, money(it["amount"], cur), w, dr, base=15))
    rate = f" ({f['tax_rate']:g}%)" if f["tax_rate"] is not None else ""
    rows += [lambda s_, x, y, w, dr: s_.pair(x, y, "Subtotal", money(f["subtotal"], cur), w, dr, base=14, color=c["muted"]),
             lambda s_, x, y, w, dr: s_.pair(x, y, f"Tax{rate}", money(f["tax"], cur), w, dr, base=14, color=c["muted"]),
             lambda s_, x, y, w, dr: s_.pair(x, y, "Total", money(f["total"], cur), w, dr, style="sans-bold", base=16)]
    s.card(*rows, gap=9)
    if after:
        s.card(*[txn(*o) for o in after], gap=12)
    image = s.finish("Activity", tabs=["home", "payment", "search", "person"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("bank_feed", FIELDS, draw_bank_feed)
