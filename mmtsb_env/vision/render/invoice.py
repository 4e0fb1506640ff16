"""``invoice``: a letter-size business invoice with letterhead, bill-to block and line-item table."""

from __future__ import annotations

import dataclasses

from ._family import Family
from ._common import (
    DEGRADE,
    drawer, Choice, Color, Ctx, Date, Int, ListOf, Num, Obj, Str, clutter_count, degrade, fit_font, format_date,
    line_height, mix, money, place_on, random_date, rgb, sheet, wrap,
)
from .business_card import COMPANIES, PEOPLE_FIRST, PEOPLE_LAST
from .receipt import CITIES, STREETS

SERVICES = [
    ("Website maintenance (monthly)", 150, 900), ("Logo design", 200, 1200), ("Consulting hours", 60, 220),
    ("Photography session", 250, 900), ("Office cleaning", 80, 400), ("Cloud hosting plan", 20, 300),
    ("Printer toner cartridge", 40, 120), ("Catering for 20 guests", 300, 1500), ("Copy editing (per 1k words)", 15, 60),
    ("On-site IT support", 90, 180), ("Annual software license", 99, 999), ("Delivery fee", 10, 80),
]
# level -> its scan, where not the level's own. Level 2 is delivered at 0.9 of the page's size (0.81
# of the pixels for the warp, light and JPEG, most of the render's cost), not blurred (the shrink's
# resampling softens it) and coded at JPEG 45, not 60: plain OCR reads 0.86 of the values over seeds
# 0-8, as at full size (blurred, JPEG 60); sharp at JPEG 60 it read 0.92, near level 1's 0.98. Level 3
# is less turned and sharp (the tools have no page box to straighten).
SCANS = {2: dataclasses.replace(DEGRADE[2], scale=0.9, blur=0.0, quality=45),
         3: dataclasses.replace(DEGRADE[3], angle=5.0, blur=0.0, quality=75)}
# the page's three layouts (chosen by the seed): the letterhead and dates differ, the table is shared
TEMPLATES = ("letterhead", "banner", "centred")
ACCENTS = ["#1f4e79", "#2e7d32", "#6a1b9a", "#b71c1c", "#00695c", "#37474f", "#e65100"]

FIELDS = {
    "company": Str(60),
    "company_address": Str(160),
    "invoice_number": Str(30),
    "invoice_date": Date(),
    "due_date": Date(),
    "bill_to": Str(200),
    "items": ListOf(Obj({"description": Str(80), "qty": Int(1, 99999), "unit_price": Num(0, 1e7)},
                        required=("description",)), 1, 30),
    "tax_rate": Num(0, 50),
    "tax": Num(0, 1e8),
    "total": Num(0, 1e9),
    "currency": Choice(["$", "€", "£"]),
    "notes": Str(300),
    "accent": Color(),
}


def _default_bill_to(r) -> str:
    name = f"{r.choice(PEOPLE_FIRST)} {r.choice(PEOPLE_LAST)}"
    company = r.choice(COMPANIES)
    return f"{name}\n{company}\n{r.randint(10, 9999)} {r.choice(STREETS)}\n{r.choice(CITIES)}"


def draw_invoice(ctx: Ctx):
    """A business invoice: letterhead, invoice number, dates, bill-to, line items, totals."""
    company = ctx.get("company", lambda r: r.choice(COMPANIES))
    company_address = ctx.get("company_address", lambda r: f"{r.randint(10, 9999)} {r.choice(STREETS)}, {r.choice(CITIES)}")
    number = ctx.get("invoice_number", lambda r: f"INV-{r.randint(2024, 2026)}-{r.randint(1, 9999):04d}")
    invoice_date = ctx.get("invoice_date", random_date)
    due_date = ctx.get("due_date", lambda r: _plus_days(invoice_date, r.choice([14, 15, 30, 30, 45])))
    bill_to = ctx.get("bill_to", _default_bill_to)
    currency = ctx.get("currency", lambda r: r.choice(["$", "$", "€", "£"]))
    notes = ctx.get("notes", lambda r: r.choice([
        "Payment due within 30 days. Thank you for your business!",
        "Please include the invoice number with your payment.",
        "Bank transfer preferred. Late payments incur a 1.5% monthly fee.",
    ]))
    accent = rgb(ctx.get("accent", lambda r: r.choice(ACCENTS)))
    if "items" in ctx.content:
        ir = ctx.rng("item-prices")
        items = [{"description": it["description"], "qty": int(it.get("qty", 1)),
                  "unit_price": round(it["unit_price"] if "unit_price" in it else ir.uniform(20, 500), 2)}
                 for it in ctx.content["items"]]
    else:
        r = ctx.rng("field:items")
        items = [{"description": d, "qty": r.choice([1, 1, 1, 2, 3, 5, 10]), "unit_price": round(r.uniform(lo, hi), 2)}
                 for d, lo, hi in r.sample(SERVICES, r.randint(2, 5))]
    for it in items:
        it["amount"] = round(it["qty"] * it["unit_price"], 2)
    subtotal = round(sum(it["amount"] for it in items), 2)
    if "tax" in ctx.content:
        tax, tax_rate = round(ctx.content["tax"], 2), ctx.content.get("tax_rate")
    else:
        tax_rate = ctx.get("tax_rate", lambda r: r.choice([0.0, 5.0, 8.0, 10.0, 20.0]))
        tax = round(subtotal * tax_rate / 100 + 1e-9, 2)
    total = round(ctx.content["total"], 2) if "total" in ctx.content else round(subtotal + tax, 2)
    layout = ctx.rng("layout")
    date_style = layout.choice([0, 1, 2, 3])

    W = 850
    pad = 60
    f_company = fit_font(company, "sans-bold", W - 2 * pad - 260, 34 * ctx.scale)
    f_title = ctx.font("sans-bold", 40)
    f_body = ctx.font("sans", 17)
    f_bold = ctx.font("sans-bold", 17)
    f_small = ctx.font("sans", 14)
    lh = line_height(f_body, 1.35)
    # height estimate
    n_bill = len(bill_to.split("\n"))
    desc_w = W - 2 * pad - 330
    item_lines = [wrap(it["description"], f_body, desc_w - 16) for it in items]
    n_clutter = clutter_count(ctx)
    H = 400 + 2 * n_bill * lh + sum(len(x) for x in item_lines) * lh + len(items) * 14 + 260 + n_clutter * lh
    H = max(H, 1000)
    page = sheet(ctx, (W, H), (255, 255, 253))
    d = drawer(page.image)
    ink = (30, 30, 35)
    grey = (95, 95, 100)

    template = ctx.rng("template").randrange(len(TEMPLATES))
    date_text, due_text = format_date(invoice_date, date_style), format_date(due_date, date_style)
    meta = [("Invoice No.", number), ("Invoice Date", date_text), ("Due Date", due_text)]
    initials = "".join(w[0] for w in company.split()[:2]).upper()
    bill = bill_to.split("\n")
    if TEMPLATES[template] == "letterhead":  # mark and company left, INVOICE and the dates right
        d.rectangle((0, 0, W, 14), fill=accent)
        y = 50
        d.ellipse((pad, y, pad + 56, y + 56), fill=accent)
        d.text((pad + 28, y + 28), initials, font=ctx.font("sans-bold", 22), fill=(255, 255, 255), anchor="mm")
        d.text((pad + 72, y + 2), company, font=f_company, fill=accent)
        for i, part in enumerate(wrap(company_address, f_small, W - 2 * pad - 330)):
            d.text((pad + 72, y + 44 + i * 18), part, font=f_small, fill=grey)
        d.text((W - pad, y), "INVOICE", font=f_title, fill=ink, anchor="ra")
        y = 180
        for i, (k, v) in enumerate(meta):
            d.text((W - pad - 190, y + i * lh), k, font=f_bold, fill=grey, anchor="ra")
            d.text((W - pad, y + i * lh), v, font=f_body, fill=ink, anchor="ra")
        d.text((pad, y), "BILL TO", font=f_bold, fill=accent)
        for i, part in enumerate(bill):
            d.text((pad, y + (i + 1) * lh), part, font=f_bold if i == 0 else f_body, fill=ink)
        y = max(y + (n_bill + 1) * lh, y + 3 * lh) + 30
    elif TEMPLATES[template] == "banner":  # a coloured band with the company, then the dates in three boxes
        d.rectangle((0, 0, W, 120), fill=accent)
        d.text((pad, 30), company, font=f_company, fill=(255, 255, 255))
        d.text((pad, 76), company_address, font=fit_font(company_address, "sans", W - 2 * pad - 260, 14 * ctx.scale),
               fill=mix(accent, (255, 255, 255), 0.75))
        d.text((W - pad, 36), "INVOICE", font=f_title, fill=(255, 255, 255), anchor="ra")
        y = 150
        box_w = (W - 2 * pad - 40) / 3
        for i, (k, v) in enumerate(meta):
            bx = pad + i * (box_w + 20)
            d.rectangle((bx, y, bx + box_w, y + 2 * lh + 16), outline=mix(accent, (255, 255, 255), 0.5), width=2)
            d.text((bx + 12, y + 8), k.upper(), font=f_small, fill=grey)
            d.text((bx + 12, y + 8 + lh), v, font=f_bold, fill=ink)
        y += 2 * lh + 40
        d.text((pad, y), "Billed to", font=f_bold, fill=accent)
        for i, part in enumerate(bill):
            d.text((pad + 150, y + i * lh), part, font=f_bold if i == 0 else f_body, fill=ink)
        y += max(n_bill, 2) * lh + 30
    else:  # "centred": the letterhead centred over a rule, dates left and bill-to right
        y = 44
        d.text((W / 2, y), company, font=f_company, fill=ink, anchor="ma")
        y += f_company.size + 12
        d.text((W / 2, y), company_address, font=fit_font(company_address, "sans", W - 2 * pad, 14 * ctx.scale), fill=grey, anchor="ma")
        y += 30
        d.line((pad, y, W - pad, y), fill=accent, width=3)
        y += 22
        d.text((pad, y), "INVOICE", font=f_title, fill=accent)
        y += f_title.size + 24
        for i, (k, v) in enumerate(meta):
            d.text((pad, y + i * lh), k, font=f_bold, fill=grey)
            d.text((pad + 150, y + i * lh), v, font=f_body, fill=ink)
        bx = W / 2 + 40
        d.text((bx, y), "BILL TO", font=f_bold, fill=grey)
        lines = [(part, f_bold if i == 0 else f_body) for i, whole in enumerate(bill)
                 for part in wrap(whole, f_bold if i == 0 else f_body, W - pad - bx)]
        for i, (part, font) in enumerate(lines):
            d.text((bx, y + (i + 1) * lh), part, font=font, fill=ink)
        y += max(len(meta), len(lines) + 1) * lh + 30

    # table
    cols = [pad, pad + desc_w, pad + desc_w + 80, pad + desc_w + 200, W - pad]  # desc | qty | unit | amount
    d.rectangle((pad, y, W - pad, y + lh + 10), fill=accent)
    header_y = y + 5
    white = (255, 255, 255)
    d.text((cols[0] + 10, header_y), "Description", font=f_bold, fill=white)
    d.text((cols[2] - 10, header_y), "Qty", font=f_bold, fill=white, anchor="ra")
    d.text((cols[3] - 10, header_y), "Unit Price", font=f_bold, fill=white, anchor="ra")
    d.text((cols[4] - 10, header_y), "Amount", font=f_bold, fill=white, anchor="ra")
    y += lh + 10
    light = mix(accent, (255, 255, 255), 0.92)
    for k, (it, lines) in enumerate(zip(items, item_lines)):
        row_h = len(lines) * lh + 14
        if k % 2:
            d.rectangle((pad, y, W - pad, y + row_h), fill=light)
        for j, part in enumerate(lines):
            d.text((cols[0] + 10, y + 7 + j * lh), part, font=f_body, fill=ink)
        d.text((cols[2] - 10, y + 7), str(it["qty"]), font=f_body, fill=ink, anchor="ra")
        d.text((cols[3] - 10, y + 7), money(it["unit_price"], currency), font=f_body, fill=ink, anchor="ra")
        d.text((cols[4] - 10, y + 7), money(it["amount"], currency), font=f_body, fill=ink, anchor="ra")
        y += row_h
    d.line((pad, y, W - pad, y), fill=grey, width=1)
    y += 16
    rate = f" ({tax_rate:g}%)" if tax_rate is not None else ""
    for label, value, font in [("Subtotal", subtotal, f_body), (f"Tax{rate}", tax, f_body)]:
        d.text((cols[3] - 10, y), label, font=font, fill=grey, anchor="ra")
        d.text((cols[4] - 10, y), money(value, currency), font=font, fill=ink, anchor="ra")
        y += lh
    d.rectangle((cols[2] - 40, y, W - pad, y + lh + 12), fill=mix(accent, (255, 255, 255), 0.8))
    d.text((cols[3] - 10, y + 6), "TOTAL DUE", font=f_bold, fill=ink, anchor="ra")
    d.text((cols[4] - 10, y + 6), money(total, currency), font=f_bold, fill=ink, anchor="ra")
    y += lh + 50
    for part in wrap(notes, f_small, W - 2 * pad):
        d.text((pad, y), part, font=f_small, fill=grey)
        y += 20
    if n_clutter:
        cr = ctx.rng("clutter")
        options = [
            f"Previous invoice INV-{cr.randint(2020, 2025)}-{cr.randint(1, 9999):04d} ({money(round(cr.uniform(50, 900), 2), currency)}) - PAID",
            f"Account no. {cr.randint(10**7, 10**8 - 1)}   Sort code {cr.randint(10, 99)}-{cr.randint(10, 99)}-{cr.randint(10, 99)}",
            f"VAT reg. {cr.randint(100, 999)} {cr.randint(1000, 9999)} {cr.randint(10, 99)}",
            f"PO reference: PO-{cr.randint(1000, 99999)}",
            f"Early payment discount: 2% if paid within 10 days ({money(round(total * 0.98, 2), currency)})",
        ]
        y += 10
        for text in cr.sample(options, min(n_clutter, len(options))):
            d.text((pad, y), text, font=f_small, fill=grey)
            ctx.distractors.append(text)
            y += 20
    d.rectangle((0, H - 10, W, H), fill=accent)
    image = degrade(place_on(page, ctx, "desk", margin=0.05), ctx, scan=SCANS.get(ctx.difficulty))
    facts = {
        "company": company, "company_address": company_address, "invoice_number": number,
        "invoice_date": invoice_date, "invoice_date_text": date_text, "due_date": due_date, "due_date_text": due_text,
        "bill_to": bill_to, "bill_to_name": bill_to.split("\n")[0], "items": items, "subtotal": subtotal,
        "tax_rate": tax_rate, "tax": tax, "total": total, "currency": currency,
    }
    return image, facts


FAMILY = Family("invoice", FIELDS, draw_invoice)


def _plus_days(iso: str, days: int) -> str:
    from datetime import date, timedelta

    return (date.fromisoformat(iso) + timedelta(days=days)).isoformat()
