"""``statement``: a dense statement-of-account page for an invoice (documents, dense).

The same content (and defaults) as ``invoice``, set the way real statements are: a two-block
letterhead (company; invoice number, dates, account and page), bill-to and remit-to columns,
the line-item table with totals, a payment form with checkboxes and columns of small print.
Levels shrink the type, set the small print in three columns, and scan the page (rotation,
uneven light, noise, JPEG; see ``_common.degrade``; level 3 keeps level 2's scan, shrunk to 80 %).
"""

from __future__ import annotations

import dataclasses

from ._family import Family
from ._common import DEGRADE, Ctx, degrade, drawer, fit_font, format_date, line_height, money, place_on, sheet, wrap
from ._phone import record
from .invoice import FAMILY as INVOICE, FIELDS

METHODS = ["Card", "Check", "Bank transfer"]
TERMS = [
    "Payments received after the due date may be subject to a late fee of 1.5% per month on the unpaid balance.",
    "Please write the invoice number on your check or in the reference field of your transfer.",
    "Disputes must be raised in writing within 30 days of the statement date; undisputed amounts remain payable.",
    "Prices include all services listed above. Travel and materials are billed separately when agreed in advance.",
    "We keep payment details only for the duration of the contract and process them under our privacy notice.",
    "Credits on account are applied to the oldest open invoice first unless you instruct us otherwise.",
]

# level -> its scan, where not the level's own. Level 2 is delivered at 0.92 of the page's size (0.85
# of the pixels for the warp, light, blur and JPEG), softened less since the shrink softens it
# (plain OCR over seeds 0-8: 0.75 of the values, 0.69 at full size; at 0.9 a third less of its
# small print read).
# the page's three layouts (chosen by the seed): the letterhead in two blocks; the company centred over
# a row of boxes; or the payment options on a tear-off slip at the foot, under the small print
TEMPLATES = ("two-block", "boxed", "slip")
SCANS = {2: dataclasses.replace(DEGRADE[2], scale=0.92, blur=0.4),
         3: dataclasses.replace(DEGRADE[2], blur=0.0, quality=75, scale=0.85)}


def draw_statement(ctx: Ctx):
    """A dense statement page: the invoice's facts plus the ticked payment method and autopay box."""
    f = record(ctx, INVOICE)
    r = ctx.rng("statement")
    method = r.choice(METHODS)
    autopay = r.random() < 0.4
    account = f"{r.randint(100, 999)}-{r.randint(10000, 99999)}"
    help_phone = f"1-800-{r.randint(200, 999)}-{r.randint(1000, 9999)}"
    cur = f["currency"]
    style = r.choice([1, 2])
    facts = {**f, "payment_method": method, "autopay": autopay, "account_number": account}

    W, pad = 1000, 48
    s = ctx.scale
    F = {k: ctx.font(st, sz) for k, (st, sz) in {
        "co": ("serif-bold", 26), "h": ("sans-bold", 17), "b": ("sans", 14), "bb": ("sans-bold", 14),
        "sm": ("sans", 12), "tiny": ("sans", 10.5 if ctx.difficulty < 2 else 9.5)}.items()}
    F["co"] = fit_font(f["company"], "serif-bold", W - 2 * pad - 380, 26 * s)
    ops: list[tuple] = []  # (x, y, text, font, fill, anchor)
    key_boxes: list[tuple] = []

    def put(x, y, text, font, fill=(25, 25, 30), anchor="la"):
        ops.append((x, y, text, font, fill, anchor))

    template = TEMPLATES[ctx.rng("template").randrange(len(TEMPLATES))]
    keys = (("Invoice no.", f["invoice_number"]), ("Statement date", format_date(f["invoice_date"], style)),
            ("Payment due", format_date(f["due_date"], style)), ("Account", account), ("Page", "1 of 1"))
    y = 44
    if template == "boxed":  # the company centred, the statement's keys in a row of boxes under it
        put(W / 2, y, f["company"], F["co"], anchor="ma")
        y += F["co"].size + 10
        put(W / 2, y, f["company_address"], fit_font(f["company_address"], "sans", W - 2 * pad, 12 * s), (90, 90, 95), anchor="ma")
        y += line_height(F["sm"]) + 14
        put(W / 2, y, "STATEMENT OF ACCOUNT", F["h"], anchor="ma")
        y += line_height(F["h"]) + 10
        bw = (W - 2 * pad) / len(keys)
        for i, (key, value) in enumerate(keys):
            put(pad + i * bw + 10, y + 6, key, F["sm"], (90, 90, 95))
            put(pad + i * bw + 10, y + 8 + line_height(F["sm"]), value, F["bb"] if key == "Payment due" else F["b"])
            key_boxes.append((pad + i * bw, y, pad + (i + 1) * bw, y + 16 + line_height(F["sm"]) + line_height(F["b"])))
        y += 16 + line_height(F["sm"]) + line_height(F["b"]) + 22
    else:  # company block (left), statement block (right, 340 px)
        right_w = 340
        put(pad, y, f["company"], F["co"])
        yl = y + F["co"].size + 10
        for line in wrap(f["company_address"], F["sm"], W - 2 * pad - right_w - 30):
            put(pad, yl, line, F["sm"], (90, 90, 95))
            yl += line_height(F["sm"])
        rx = W - pad - right_w
        put(W - pad, y, "STATEMENT OF ACCOUNT", F["h"], anchor="ra")
        yr = y + line_height(F["h"]) + 4
        for key, value in keys:
            put(rx, yr, key, F["sm"], (90, 90, 95))
            put(W - pad, yr, value, F["bb"] if key == "Payment due" else F["b"], anchor="ra")
            yr += line_height(F["b"]) + 2
        y = max(yl, yr) + 18
    # bill-to / remit-to columns
    col_w = (W - 2 * pad - 30) / 2
    put(pad, y, "BILL TO", F["bb"], (90, 90, 95))
    put(pad + col_w + 30, y, "REMIT TO", F["bb"], (90, 90, 95))
    yb = yt = y + line_height(F["bb"]) + 2
    for part in f["bill_to"].split("\n"):
        for line in wrap(part, F["b"], col_w):
            put(pad, yb, line, F["b"])
            yb += line_height(F["b"])
    for part in (f["company"], f"P.O. Box {r.randint(100, 9999)}", f["company_address"]):
        for line in wrap(part, F["b"], col_w):
            put(pad + col_w + 30, yt, line, F["b"])
            yt += line_height(F["b"])
    y = max(yb, yt) + 22
    # line items
    cols = [("Description", 0.5, "la"), ("Qty", 0.12, "ra"), ("Unit price", 0.19, "ra"), ("Amount", 0.19, "ra")]
    tw = W - 2 * pad
    edges = [pad]
    for _, share, _ in cols:
        edges.append(edges[-1] + tw * share)
    table_top = y
    head_h = line_height(F["bb"]) + 10
    for j, (name, _, anchor) in enumerate(cols):
        put(edges[j] + 8 if anchor == "la" else edges[j + 1] - 8, y + 5, name, F["bb"], anchor=anchor)
    y += head_h
    rules = [y]
    for it in f["items"]:
        desc = wrap(it["description"], F["b"], edges[1] - edges[0] - 16)
        for k, line in enumerate(desc):
            put(edges[0] + 8, y + 6 + k * line_height(F["b"]), line, F["b"])
        put(edges[2] - 8, y + 6, str(it["qty"]), F["b"], anchor="ra")
        put(edges[3] - 8, y + 6, money(it["unit_price"], cur), F["b"], anchor="ra")
        put(edges[4] - 8, y + 6, money(it["amount"], cur), F["b"], anchor="ra")
        y += len(desc) * line_height(F["b"]) + 12
        rules.append(y)
    y += 8
    rate = f" ({f['tax_rate']:g}%)" if f.get("tax_rate") is not None else ""
    for label, value, font in (("Subtotal", f["subtotal"], F["b"]), (f"Tax{rate}", f["tax"], F["b"]),
                               ("TOTAL DUE", f["total"], F["h"])):
        put(edges[3] - 8, y, label, font, anchor="ra")
        put(edges[4] - 8, y, money(value, cur), font, anchor="ra")
        y += line_height(font) + 4
    y += 18
    boxes: list[tuple] = []

    def payment_form(y):
        """The payment options with their checkboxes, boxed; returns the form's bottom."""
        put(pad + 12, y + 12, "PAYMENT OPTIONS", F["bb"])
        y += 12 + line_height(F["bb"]) + 6
        x = pad + 12
        for m in METHODS:
            boxes.append((x, y, m == method))
            put(x + 24, y, m, F["b"])
            x += 24 + F["b"].getlength(m) + 36
        put(x + 10, y, "Autopay:", F["b"])
        x += 10 + F["b"].getlength("Autopay:") + 14
        for label, on in (("Yes", autopay), ("No", not autopay)):
            boxes.append((x, y, on))
            put(x + 24, y, label, F["b"])
            x += 24 + F["b"].getlength(label) + 26
        return y + line_height(F["b"]) + 14

    def small_print(y):
        """The terms in columns (three from level 2); returns their bottom."""
        n_cols = 2 if ctx.difficulty < 2 else 3
        gap = 24
        cw = (W - 2 * pad - gap * (n_cols - 1)) / n_cols
        lines = []
        for para in TERMS + [f"Questions about this statement? Call {help_phone} (Mon-Fri, 8 am - 6 pm)."]:
            lines += wrap(para, F["tiny"], cw) + [""]
        per = -(-len(lines) // n_cols)
        lh = line_height(F["tiny"], 1.2)
        for k, line in enumerate(lines):
            col, row = divmod(k, per)
            if line:
                put(pad + col * (cw + gap), y + row * lh, line, F["tiny"], (80, 80, 85))
        return y + per * lh

    ctx.distractors.append(help_phone)
    cut = None
    if template == "slip":  # the small print first, then a tear-off slip with the payment options
        cut = small_print(y + 10) + 20
        y = cut + 30
        put(pad, y, "Please detach and return this part with your payment.", F["sm"], (90, 90, 95))
        put(W - pad, y, f"Amount due {money(f['total'], cur)}", F["bb"], anchor="ra")
        form_top = y + line_height(F["bb"]) + 10
        form_bottom = payment_form(form_top)
        y = form_bottom + 40
    else:
        form_top = y
        form_bottom = payment_form(form_top)
        y = small_print(form_bottom + 18) + 40
    H = int(y)

    page = sheet(ctx, (W, H), (253, 253, 250))
    d = drawer(page.image)
    d.line((pad, 34, W - pad, 34), fill=(40, 60, 110), width=4)
    d.rectangle((pad, table_top, W - pad, table_top + head_h), fill=(230, 233, 240))
    for yy in rules:
        d.line((pad, yy, W - pad, yy), fill=(200, 200, 205), width=1)
    d.rectangle((pad, form_top, W - pad, form_bottom), outline=(120, 120, 125), width=1)
    for box in key_boxes:
        d.rectangle(box, outline=(150, 155, 170), width=1)
    if cut is not None:
        for x in range(pad, W - pad, 18):
            d.line((x, cut, x + 9, cut), fill=(120, 120, 125), width=1)
    side = F["b"].size
    for bx, by, on in boxes:
        d.rectangle((bx, by + 2, bx + side, by + 2 + side), outline=(30, 30, 35), width=2)
        if on:
            d.line((bx + 3, by + 2 + side * 0.55, bx + side * 0.42, by + side - 1, bx + side - 2, by + 5), fill=(20, 40, 140), width=3)
    for x, yy, text, font, fill, anchor in ops:
        d.text((x, yy), text, font=font, fill=fill, anchor=anchor)
    # level 3 is level 2's scan, shrunk, with smaller type: a heavier scan would destroy what a zoom brings back
    image = degrade(place_on(page, ctx, "desk", margin=0.03), ctx, scan=SCANS.get(ctx.difficulty))
    return image, facts


FAMILY = Family("statement", FIELDS, draw_statement)
