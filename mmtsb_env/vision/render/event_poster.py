"""``event_poster``: a bold, colourful event poster (title, date, time, venue, price, organiser)."""

from __future__ import annotations

import dataclasses
from datetime import date, timedelta

import numpy as np
from PIL import ImageDraw

from ..fonts import get_font
from ._family import Family
from ._common import (
    DEGRADE, Choice, Ctx, Date, Num, OneOf, Str, Time, clutter_count, degrade, fit_font, format_date, format_time,
    drafting, drawer, gradient, luminance, mix, money, random_date, random_time, rgb, texture, texture_array, wrap,
)

TITLES = ["Summer Jazz Night", "Harvest Food Festival", "Indie Film Marathon", "Community Science Fair",
          "Spring Craft Market", "Salsa Under the Stars", "Charity 5K Fun Run", "Open Mic Poetry Slam",
          "Vintage Vinyl Swap", "Robotics Showcase", "Lantern Night Parade", "Board Game Bonanza"]
SUBTITLES = ["Live music all night long", "Local vendors, food trucks & more", "Bring your friends!",
             "All ages welcome", "Limited seats available", "Rain or shine"]
VENUES = ["Riverside Park Pavilion", "The Old Mill Theater", "Civic Center Hall B", "Greenfield Public Library",
          "Harbor Street Warehouse", "Lincoln High School Gym", "Rooftop at The Grand", "Maple Grove Amphitheater"]
ORGANISERS = ["Friends of the Arts", "Downtown Business Alliance", "City Parks Department", "Westside Rotary Club",
              "The Maker Collective", "Northgate Student Union"]
PALETTES = [("#ff512f", "#dd2476"), ("#1d2b64", "#f8cdda"), ("#00b09b", "#96c93d"), ("#4568dc", "#b06ab3"),
            ("#f7971e", "#ffd200"), ("#0f2027", "#2c5364"), ("#e53935", "#e35d5b"), ("#11998e", "#38ef7d")]

# level -> the zoom the poster is drawn at, where not 1: level 2 is delivered at 0.8 of the
# poster's size, drawn so (not shrunk by the scan's warp): the drawing, the wall, the warp, the
# blur and the JPEG all work on 0.64 of the pixels. 0.8 divides 800 x 1100 exactly.
ZOOM = {2: 0.8}
# level -> its scan, where not the level's own: at level 2 the smaller poster, drawn sharp, is
# turned up to 6 degrees (turned up to the shared 4, its big type drawn at 0.6-0.85 read as well as
# at level 1: plain OCR 1.0 over seeds 0-8; turned up to 6, 0.93, as the full-size poster read); at
# level 3 it is photographed from across the room (under half size, softer), so its info panel is
# not read as delivered but is at 2x zoom
SCANS = {2: dataclasses.replace(DEGRADE[2], angle=6.0), 3: dataclasses.replace(DEGRADE[3], scale=0.42, blur=0.6)}

FIELDS = {
    "title": Str(60), "subtitle": Str(80), "date": Date(), "time": Time(), "end_time": Time(), "venue": Str(80),
    "price": OneOf(Num(0, 1e5), Str(30)), "currency": Choice(["$", "€", "£"]), "organiser": Str(60),
}


def day_text(iso: str) -> str:
    """A date the way app screens write it: "Saturday, March 14, 2026"."""
    d = date.fromisoformat(iso)
    return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}, {d.year}"


def when_text(f: dict, twelve: bool) -> str:
    """An event's start (and end) time as an app screen shows it, en dash between."""
    end = f" – {format_time(f['end_time'], twelve)}" if f.get("end_time") else ""
    return format_time(f["time"], twelve) + end


def _days_before(iso: str, days: int) -> str:
    return (date.fromisoformat(iso) - timedelta(days=days)).isoformat()


def _minutes_before(hhmm: str, minutes: int) -> str:
    """``hhmm`` less ``minutes`` (not before midnight): when the doors open for an event at ``hhmm``."""
    h, m = map(int, hhmm.split(":"))
    total = max(0, h * 60 + m - minutes)
    return f"{total // 60:02d}:{total % 60:02d}"


# the poster's three layouts (chosen by the seed): title then details at the left; all centred, the
# details' labels above them; the details first in a square-cornered band, the title under them
TEMPLATES = ("left", "centred", "banner")
SIZE = (800, 1100)  # the poster's size as drawn by its own family (zoom 1)


def draw_event_poster(ctx: Ctx):
    """An event poster: title, subtitle, date, time, venue, price, organiser."""
    return draw_poster(ctx, ZOOM.get(ctx.difficulty, 1.0))


FAMILY = Family("event_poster", FIELDS, draw_event_poster)


def draw_poster(ctx: Ctx, zoom: float = 1.0):
    """:func:`draw_event_poster` with every length of its layout (page, margins, offsets, font
    sizes) times ``zoom``: a photo that shows the poster smaller draws it at the size it shows it
    (fewer pixels to draw, copy and warp) instead of shrinking the whole one. The random draws
    are the same at every zoom, so are the facts; ``SIZE`` times a zoom that divides it exactly
    keeps the page's proportions exact."""
    z = zoom
    title = ctx.get("title", lambda r: r.choice(TITLES))
    subtitle = ctx.get("subtitle", lambda r: r.choice(SUBTITLES))
    iso_date = ctx.get("date", random_date)
    time = ctx.get("time", lambda r: random_time(r, 10, 20))
    end_time = ctx.content.get("end_time")
    venue = ctx.get("venue", lambda r: r.choice(VENUES))
    currency = ctx.get("currency", lambda r: "$")
    price = ctx.get("price", lambda r: r.choice([0, 5, 10, 12, 15, 20, 25, 35]))
    organiser = ctx.get("organiser", lambda r: r.choice(ORGANISERS))
    if isinstance(price, str):
        price_text = price
    elif price == 0:
        price_text = "FREE ENTRY"
    else:
        price_text = f"Tickets {money(price, currency).removesuffix('.00')}"
    lay = ctx.rng("layout")
    top, bottom = PALETTES[lay.randrange(len(PALETTES))]
    twelve = lay.random() < 0.7
    date_text = format_date(iso_date, 4).upper()
    time_text = format_time(time, twelve) + (f" - {format_time(end_time, twelve)}" if end_time else "")

    W, H = round(SIZE[0] * z), round(SIZE[1] * z)
    img = gradient((W, H), top, bottom, diagonal=True)
    if not drafting():  # decorative shapes (pixels only), blended straight onto the page
        sd = ImageDraw.Draw(img, "RGBA")
        sr = ctx.rng("shapes")
        for _ in range(9):
            cx, cy, rad = (z * sr.uniform(-100, SIZE[0] + 100), z * sr.uniform(-100, SIZE[1] + 100), z * sr.uniform(40, 260))
            col = (255, 255, 255, sr.randint(18, 55)) if sr.random() < 0.6 else (0, 0, 0, sr.randint(15, 40))
            if sr.random() < 0.65:
                sd.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=col)
            else:
                sd.regular_polygon((cx, cy, rad), sr.choice([3, 4, 6]), rotation=sr.uniform(0, 90), fill=col)
    d = drawer(img)
    dark_bg = luminance(mix(top, bottom, 0.5)) < 150
    ink = (255, 255, 255) if dark_bg else (20, 20, 30)
    shade = (0, 0, 0) if dark_bg else (255, 255, 255)
    s = ctx.scale
    pad = 60 * z

    template = TEMPLATES[ctx.rng("template").randrange(len(TEMPLATES))]
    centred = template == "centred"
    x_text, anchor = (W / 2, "ma") if centred else (pad, "la")

    def title_block(y: float) -> float:
        """The title (no word ever broken across lines) and the subtitle under it; returns the bottom."""
        longest = max(title.upper().split(), key=lambda w: get_font("sans-bold", 86).getlength(w))
        f_title = fit_font(longest, "sans-bold", W - 2 * pad, 86 * s * z)
        lines = wrap(title.upper(), f_title, W - 2 * pad)
        while len(lines) > 3 and f_title.size > 30 * z:
            f_title = get_font("sans-bold", f_title.size * 0.85)
            lines = wrap(title.upper(), f_title, W - 2 * pad)
        for line in lines:
            f = fit_font(line, "sans-bold", W - 2 * pad, f_title.size)
            d.text((x_text + 4 * z, y + 4 * z), line, font=f, fill=mix(shade, top, 0.5), anchor=anchor)
            d.text((x_text, y), line, font=f, fill=ink, anchor=anchor)
            y += int(f.size * 1.2)
        y += 20 * z
        d.text((x_text, y), subtitle, font=fit_font(subtitle, "sans-oblique", W - 2 * pad, 32 * s * z), fill=ink, anchor=anchor)
        return y + 50 * z

    def info_panel(panel_top: float) -> float:
        """The white panel: WHEN, TIME, WHERE (labels beside the values, or above them when centred)
        and the price; returns the bottom."""
        value_w = W - 2 * pad - (40 * z if centred else 170 * z)
        laid = []  # (label, font, lines)
        for label, value in rows:
            f = fit_font(value, "sans-bold", value_w, 36 * s * z, min_size=26 * s * z)
            laid.append((label, f, wrap(value, f, value_w)[:3]))
        label_h = 26 * z if centred else 0
        panel_h = 30 * z + sum(max(72 * z, len(ls) * int(f.size * 1.2) + 36 * z) + label_h for _, f, ls in laid) + 80 * z
        panel = (pad - 20 * z, panel_top, W - pad + 20 * z, panel_top + panel_h)
        d.rounded_rectangle(panel, radius=round(24 * z) if template != "banner" else 0,
                            fill=mix(shade, top, 0.25) if dark_bg else (255, 255, 255))
        yy = panel_top + 30 * z
        for label, f, lines in laid:
            if centred:
                d.text((W / 2, yy), label, font=ctx.font("sans-bold", 22 * z), fill=label_color, anchor="ma")
                yy += label_h
            else:
                d.text((pad + 10 * z, yy), label, font=ctx.font("sans-bold", 22 * z), fill=label_color)
            for k, line in enumerate(lines):
                if centred:
                    d.text((W / 2, yy - 4 * z + k * int(f.size * 1.2)), line, font=f, fill=pink, anchor="ma")
                else:
                    d.text((pad + 140 * z, yy - 4 * z + k * int(f.size * 1.2)), line, font=f, fill=pink)
            yy += max(72 * z, len(lines) * int(f.size * 1.2) + 36 * z)
        f_price = fit_font(price_text.upper(), "sans-bold", W - 2 * pad - 40 * z, 44 * s * z)
        d.text((W / 2, yy + 8 * z), price_text.upper(), font=f_price, fill=pink, anchor="ma")
        return panel_top + panel_h

    pink = ink if dark_bg else (20, 20, 30)
    rows = [("WHEN", f"{date_text}"), ("TIME", time_text), ("WHERE", venue)]
    label_color = ink
    if not dark_bg:  # the darker palette colour, darkened until it reads well on white
        label_color = min((rgb(top), rgb(bottom)), key=luminance)
        while luminance(label_color) > 110:
            label_color = mix(label_color, (0, 0, 0), 0.2)
    y = 70 * z
    presents = organiser.upper() + " PRESENTS"
    d.text((x_text, y), presents, font=fit_font(presents, "sans-bold", W - 2 * pad, 22 * s * z), fill=ink, anchor=anchor)
    y += 60 * z
    if template == "banner":  # the details first, the title under them
        bottom = title_block(info_panel(y) + 40 * z)
    else:
        panel_bottom = info_panel(max(title_block(y) + 40 * z, (520 if centred else 560) * z))
        bottom = panel_bottom
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        options = [
            f"Early bird until {format_date(_days_before(iso_date, cr.randint(3, 20)), 1)}",
            f"Doors open {format_time(_minutes_before(time, cr.choice([15, 30, 45, 60])), twelve)}",
            f"Parking {money(cr.choice([5, 8, 10]), currency).removesuffix('.00')}",
            f"Sponsored by {cr.choice(['Acme Bank', 'Sunny FM 98.1', 'Blue Sky Telecom', 'Fresh Mart'])}",
            f"Info: {cr.randint(201, 989)}-{cr.randint(200, 999)}-{cr.randint(0, 9999):04d}",
        ]
        f = ctx.font("sans", 20 * z)
        for i, text in enumerate(cr.sample(options, min(n_clutter, len(options)))):
            row, col = divmod(i, 2)  # two columns: at most two rows above the footer
            x = pad if col == 0 else W - pad
            d.text((x, bottom + (25 + row * 30) * z), text, font=f, fill=ink, anchor="ra" if col else "la")
            ctx.distractors.append(text)
    d.text((W / 2, H - 50 * z), f"Presented by {organiser}", font=fit_font(f"Presented by {organiser}", "sans", W - 2 * pad, 22 * s * z), fill=ink, anchor="ma")
    if ctx.difficulty >= 1:  # photographed on a wall
        rim = round(80 * z)
        if drafting():
            img = texture("concrete" if ctx.difficulty < 3 else "brick", (W + 2 * rim, H + 2 * rim), ctx.np_rng("wall"))
        else:  # an array, handed to degrade as is
            wall = texture_array("concrete" if ctx.difficulty < 3 else "brick", (W + 2 * rim, H + 2 * rim), ctx.np_rng("wall"))
            wall[rim:rim + H, rim:rim + W] = np.asarray(img.convert("RGB") if img.mode != "RGB" else img)
            img = wall
    image = degrade(img, ctx, scan=SCANS.get(ctx.difficulty))
    facts = {"title": title, "subtitle": subtitle, "date": iso_date, "date_text": date_text, "time": time,
             "end_time": end_time, "time_text": time_text, "venue": venue, "price": price, "price_text": price_text,
             "currency": currency, "organiser": organiser}
    return image, facts
