"""``event_screen``: the events app's page for an event (UI screenshot).

The same content (and defaults) as ``event_poster``: title, date, time, venue, price and
organiser on a phone screen with a cover banner and icon rows. Levels add "you might also like"
cards for other events (other dates, times and prices: distractors), a tab bar, a dark
low-contrast theme and a downscaled, re-compressed screenshot.
"""

from __future__ import annotations

from datetime import date, timedelta

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting, format_time, money, rgb
from ._phone import Screen, record
from .event_poster import FAMILY as EVENT_POSTER, FIELDS, PALETTES, TITLES, VENUES, day_text, when_text


def draw_event_screen(ctx: Ctx):
    """An event page in the events app: the poster's facts (title, date, time, venue, price, organiser)."""
    f = record(ctx, EVENT_POSTER)
    r = ctx.rng("screen")
    top, bottom = PALETTES[r.randrange(len(PALETTES))]
    twelve = r.random() < 0.7
    when = when_text(f, twelve)
    price = f["price"]
    price_line = price if isinstance(price, str) else "Free" if price == 0 else f"Tickets from {money(price, f['currency'])}"
    cr = ctx.rng("clutter")
    others = []
    for _ in range({0: 0, 1: 2, 2: 5, 3: 6}[ctx.difficulty]):  # other events (levels 2-3: a long list)
        title = cr.choice([t for t in TITLES if t != f["title"]])
        day = (date.fromisoformat(f["date"]) + timedelta(days=cr.randint(1, 20))).isoformat()
        line = f"{day_text(day)} · {format_time(f'{cr.randint(10, 20):02d}:{cr.choice([0, 30]):02d}', twelve)} · {cr.choice(VENUES)}"
        others.append((title, line, f"{money(cr.choice([5, 10, 18, 25, 40]), f['currency'])}"))
        ctx.distractors.append(f"{title}: {line} {others[-1][2]}")
    facts = {**f, "day_text": day_text(f["date"]), "when_text": when, "price_line": price_line, "app": "events"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, rgb(top))
    c = s.colors

    def cover(s_, x, y, w, dr):
        inner = w - 36
        h = s_.text(x, y, f["title"], "sans-bold", 26, (255, 255, 255), inner, False) + 70
        if dr:
            from ._common import gradient

            k = s_.canvas.scale  # the blend drawn at the size it is pasted (no upscaling of a small one)
            size = (round((x + w) * k) - round(x * k), round((y + h) * k) - round(y * k))
            s_.canvas.paste(gradient(size, top, bottom, diagonal=True), (x, y, x + w, y + h), radius=14)
            s_.text(x + 18, y + 22, f["organiser"].upper(), "sans-bold", 12, (255, 255, 255), inner, True)
            s_.text(x + 18, y + 48, f["title"], "sans-bold", 26, (255, 255, 255), inner, True)
        return h

    s.add(cover)

    def icon_row(name, text, style="sans", base=15):
        def row(s_, x, y, w, dr):
            if dr:
                s_.icon(name, x, y, 22, rgb(top) if not s_.look.dark else c["text"])
            return max(24, s_.text(x + 34, y + 2, text, style, base, c["text"], w - 34, dr))
        return row

    s.card(icon_row("calendar_today", day_text(f["date"]), "sans-bold"), icon_row("schedule", when),
           icon_row("location_on", f["venue"]), icon_row("attach_money", price_line, "sans-bold"))
    s.card(lambda s_, x, y, w, dr: s_.text(x, y, f"Hosted by {f['organiser']}", "sans", 14, c["muted"], w, dr),
           lambda s_, x, y, w, dr: s_.text(x, y, f["subtitle"], "sans-oblique", 14, c["muted"], w, dr))
    if others:
        s.add(lambda s_, x, y, w, dr: s_.text(x, y, "You might also like", "sans-bold", 16, c["text"], w, dr))
    for title, line, cost in others:
        s.card(lambda s_, x, y, w, dr, t=title, cost=cost: s_.pair(x, y, t, cost, w, dr, style="sans-bold", base=15),
               lambda s_, x, y, w, dr, line=line: s_.text(x, y, line, "sans", 13, c["muted"], w, dr))
    image = s.finish("Event", tabs=["home", "search", "event", "person"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("event_screen", FIELDS, draw_event_screen)
