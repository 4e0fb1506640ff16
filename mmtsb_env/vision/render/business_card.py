"""``business_card``: a 3.5x2 inch card (300 dpi) lying on a surface.

The photo's turn is the card's own (:func:`turned_view`, handed to :func:`degrade`, whose scan then
turns nothing), so the renderer knows where the card lands: the ``doc_box`` fact ([left, top, right,
bottom] in the photo) and ``frame`` ([width, height]), the box ``crop_image`` cuts the card out by.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from ._family import Family
from ._common import (
    DEGRADE, drawer, Color, Ctx, Str, clutter_count, degrade, drafting, fit_font, luminance, mix, rgb, shade,
    texture, texture_array, turned_view,
)

PEOPLE_FIRST = ["Maya", "Daniel", "Priya", "Lucas", "Amara", "Jonah", "Sofia", "Kenji", "Elena", "Omar", "Grace",
                "Mateo", "Hannah", "Ravi", "Chloe", "Tobias"]
PEOPLE_LAST = ["Chen", "Okafor", "Patel", "Moreau", "Lindqvist", "Garcia", "Nakamura", "Rossi", "Haddad", "Kowalski",
               "Brennan", "Silva", "Fischer", "Adeyemi"]
TITLES = ["Senior Product Designer", "Marketing Director", "Software Engineer", "Account Manager", "Founder & CEO",
          "Head of Operations", "Architect", "Real Estate Agent", "Data Scientist", "Sales Representative",
          "Pastry Chef", "Physical Therapist"]
COMPANIES = ["Northwind Studio", "Brightleaf Analytics", "Copperline Builders", "Bluebird Realty", "Orchard Labs",
             "Summit Legal Group", "Tidewater Logistics", "Lumen Health", "Quartz & Pine Design", "Riverbend Bakery Co."]
DOMAINS_CITY = ["Seattle, WA 98101", "Denver, CO 80202", "Chicago, IL 60607", "Boston, MA 02116", "Austin, TX 78701"]
STREETS = ["Pike St", "Larimer St", "W Randolph St", "Newbury St", "Congress Ave", "Market St"]
PALETTES = [("#0b3d5c", "#f2a900"), ("#1b5e20", "#a5d6a7"), ("#212121", "#ff5252"), ("#4a148c", "#ce93d8"),
            ("#004d40", "#ffcc80"), ("#263238", "#4fc3f7"), ("#7f0000", "#ffe0b2")]

# level -> its scan, where not the level's own: level 2 is delivered at 0.62 of the photo's size
# (the card's small print about 8 px: a zoom reads it) and not blurred, the shrink's resampling
# softening it instead; level 3 is less turned, sharp and clean (its hardness is the flash)
SCANS = {2: dataclasses.replace(DEGRADE[2], scale=0.62, blur=0.0),
         3: dataclasses.replace(DEGRADE[3], angle=3.0, blur=0.0, noise=4.0, quality=85)}
# level -> a flash photo in a dim room: (share of the print's contrast the flash leaves, the card
# washed out towards white; share of its light the surface around keeps). OCR thresholding the
# whole photo loses the pale print against the dark surface; the card cropped out by its doc_box reads.
# Level 2 has a milder flash (plain OCR read 92 % of its values without one: it was no harder than level 0)
FLASH = {2: (0.7, 0.55), 3: (0.6, 0.4)}

FIELDS = {
    "name": Str(50), "title": Str(60), "company": Str(60), "phone": Str(30), "email": Str(60),
    "address": Str(120), "website": Str(60), "color": Color(),
}


def _slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def draw_business_card(ctx: Ctx):
    """A business card: name, title, company, phone, email, address, website."""
    name = ctx.get("name", lambda r: f"{r.choice(PEOPLE_FIRST)} {r.choice(PEOPLE_LAST)}")
    title = ctx.get("title", lambda r: r.choice(TITLES))
    company = ctx.get("company", lambda r: r.choice(COMPANIES))
    phone = ctx.get("phone", lambda r: f"+1 ({r.randint(201, 989)}) {r.randint(200, 999)}-{r.randint(0, 9999):04d}")
    first, last = (name.split() + [""])[:2]
    words = [w for w in company.replace("&", " ").split() if _slug(w) and _slug(w) not in ("co", "inc", "llc", "the")]
    domain = "".join(_slug(w) for w in words[:2])[:20] or "example"
    email = ctx.get("email", lambda r: f"{_slug(first)[:1] if r.random() < 0.5 else _slug(first)}.{_slug(last) or 'info'}@{domain}.com")
    address = ctx.get("address", lambda r: f"{r.randint(10, 2999)} {r.choice(STREETS)}, Suite {r.randint(100, 900)}, {r.choice(DOMAINS_CITY)}")
    website = ctx.get("website", lambda r: f"www.{domain}.com")
    pr = ctx.rng("palette")
    dark, light = PALETTES[pr.randrange(len(PALETTES))]
    if "color" in ctx.content:
        dark = ctx.content["color"]
    dark = rgb(dark)
    light = rgb(light)
    layout = ctx.rng("layout").choice(["bar", "split", "centered"])

    W, H = 1050, 600
    card = texture("paper", (W, H), ctx.np_rng("card"), (252, 252, 250))
    d = drawer(card)
    ink = (30, 30, 35)
    grey = (90, 90, 95)
    s = ctx.scale
    f_name = fit_font(name, "sans-bold", 600, 56 * s)
    f_title = fit_font(title, "sans", 600, 30 * s)
    f_company = fit_font(company.upper(), "sans-bold", 560, 34 * s)
    info = [phone, email, website, address]
    if layout == "centered":
        f_name = fit_font(name, "sans-bold", W - 140, 56 * s)
        f_title = fit_font(title, "sans", W - 140, 30 * s)
        f_company = fit_font(company.upper(), "sans-bold", W - 140, 34 * s)
        d.rectangle((0, 0, W, 16), fill=dark)
        d.rectangle((0, H - 16, W, H), fill=dark)
        d.text((W / 2, 70), company.upper(), font=f_company, fill=dark, anchor="ma")
        d.text((W / 2, 170), name, font=f_name, fill=ink, anchor="ma")
        d.text((W / 2, 245), title, font=f_title, fill=grey, anchor="ma")
        d.line((W / 2 - 120, 305, W / 2 + 120, 305), fill=light if luminance(light) < 200 else dark, width=3)
        y = 335
        for text in info:
            f = fit_font(text, "sans", W - 120, 26 * s)
            d.text((W / 2, y), text, font=f, fill=ink, anchor="ma")
            y += 52 * s + 6
    else:
        left_w = 330 if layout == "split" else 40
        d.rectangle((0, 0, left_w, H), fill=dark)
        if layout == "split":
            initials = "".join(w[0] for w in words[:2]).upper() or "CO"
            d.ellipse((left_w / 2 - 90, 120, left_w / 2 + 90, 300), outline=light, width=6)
            d.text((left_w / 2, 210), initials, font=ctx.font("sans-bold", 72), fill=light, anchor="mm")
            f_co = fit_font(company, "sans-bold", left_w - 40, 28 * s)
            d.text((left_w / 2, 360), company, font=f_co, fill=(255, 255, 255), anchor="ma")
            x = left_w + 50
        else:
            x = left_w + 60
            d.text((x, 50), company.upper(), font=f_company, fill=dark)
        top = 110 if layout == "split" else 150
        d.text((x, top), name, font=fit_font(name, "sans-bold", W - x - 40, 56 * s), fill=ink)
        d.text((x, top + 75 * s), title, font=fit_font(title, "sans", W - x - 40, 30 * s), fill=grey)
        y = top + 75 * s + 90
        for text in info:
            f = fit_font(text, "sans", W - x - 70, 26 * s)
            d.rectangle((x, y + 8, x + 12, y + 20), fill=dark)
            d.text((x + 28, y), text, font=f, fill=ink)
            y += 48 * s + 4
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        options = [
            f"Fax: ({cr.randint(201, 989)}) {cr.randint(200, 999)}-{cr.randint(0, 9999):04d}",
            f"Est. {cr.randint(1950, 2020)}",
            cr.choice(["Quality you can trust", "Design that works", "Building tomorrow, today", "Since day one"]),
        ]
        f = ctx.font("sans-oblique", 20)
        for i, text in enumerate(cr.sample(options, min(n_clutter, len(options)))):
            d.text((W - 30, H - 40 - i * 30), text, font=f, fill=mix(grey, (255, 255, 255), 0.3), anchor="rs")
            ctx.distractors.append(text)
        # a QR-like block
        qr = cr.getrandbits(100)
        x0, y0 = W - 150, 40
        for k in range(100):
            if qr >> k & 1:
                d.rectangle((x0 + (k % 10) * 11, y0 + (k // 10) * 11, x0 + (k % 10) * 11 + 10, y0 + (k // 10) * 11 + 10), fill=ink)

    # on a surface (the card never fills the whole photo)
    bg_kind = ctx.rng("background-kind").choice(["desk", "wood", "fabric", "concrete"])
    margin = 70 if ctx.difficulty == 0 else 110
    size = (W + 2 * margin, H + 2 * margin)
    if drafting():
        canvas = texture(bg_kind, size, ctx.np_rng("background"))
    else:  # built as an array (the shadow darkens around the card in place), handed to degrade as is
        canvas = texture_array(bg_kind, size, ctx.np_rng("background"))
        keep, dim = FLASH.get(ctx.difficulty, (None, None))
        if dim is not None:  # the surface only: the card is pasted over the middle
            for y0, y1, x0, x1 in ((0, margin, 0, size[0]), (margin + H, size[1], 0, size[0]),
                                   (margin, margin + H, 0, margin), (margin, margin + H, margin + W, size[0])):
                canvas[y0:y1, x0:x1] = cv2.convertScaleAbs(canvas[y0:y1, x0:x1], alpha=dim)
        shade(canvas, (margin, margin, margin + W, margin + H), offset=10, blur=12, covered=True)
        face = np.asarray(card.convert("RGB") if card.mode != "RGB" else card)
        if keep is not None:  # washed out: 255 - keep * (255 - value), in one saturating pass
            face = cv2.addWeighted(face, keep, face, 0.0, 255 * (1 - keep))
        canvas[margin:margin + H, margin:margin + W] = face
    look = SCANS.get(ctx.difficulty, DEGRADE[ctx.difficulty])
    view, box, frame = turned_view(ctx, size, (margin, margin, margin + W, margin + H), look)
    image = degrade(canvas, ctx, view=view, scan=dataclasses.replace(look, angle=0.0))
    facts = {"name": name, "title": title, "company": company, "phone": phone, "email": email,
             "address": address, "website": website, "doc_box": box, "frame": frame}
    return image, facts


FAMILY = Family("business_card", FIELDS, draw_business_card)

