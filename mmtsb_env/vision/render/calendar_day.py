"""``calendar_day``: the calendar app's day view with an event on it (UI screenshot).

The same content (and defaults) as ``event_poster``: a week strip with the event's day selected,
the day's agenda (hour by hour) in which the event sits at its start time, and the event's
detail card (title, time, venue, price, organiser). Levels add the owner's other entries that day
(other times and places: distractors), a tab bar, a dark low-contrast theme and a downscaled,
re-compressed screenshot.
"""

from __future__ import annotations

from datetime import date, timedelta

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting, format_time, money, rgb
from ._phone import Screen, record
from .event_poster import FAMILY as EVENT_POSTER, FIELDS, PALETTES, day_text, when_text

ENTRIES = [("Dentist check-up", "Elm St Dental"), ("Call with Mum", ""), ("Gym: leg day", "Hometown Gym"),
           ("Pick up dry cleaning", "Main St"), ("Lunch with Priya", "Noodle Bar"), ("Pay rent", "")]


def draw_calendarday_text(ctx: Ctx):
    """A calendar day view with the event in it: the poster's facts (title, date, time, venue, price)."""
    f = record(ctx, EVENT_POSTER)
    r = ctx.rng("screen")
    top = PALETTES[r.randrange(len(PALETTES))][0]
    twelve = r.random() < 0.7
    when = when_text(f, twelve)
    price = f["price"]
    price_line = price if isinstance(price, str) else "Free entry" if price == 0 else f"Tickets {money(price, f['currency'])}"
    hour = int(f["time"][:2])
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 5, 3: 6}[ctx.difficulty]  # other entries of the day (levels 2-3: a full day)
    hours = [h for h in range(7, 22) if abs(h - hour) >= 2]
    entries = []
    for (name, place), h in zip(cr.sample(ENTRIES, n), sorted(cr.sample(hours, n))):
        t = f"{h:02d}:{cr.choice([0, 15, 30, 45]):02d}"
        entries.append((t, name, place))
        ctx.distractors.append(f"{format_time(t, twelve)} {name}" + (f" · {place}" if place else ""))
    facts = {**f, "day_text": day_text(f["date"]), "when_text": when, "price_line": price_line, "app": "calendar"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    accent = rgb(top)
    s = Screen(ctx, accent)
    c = s.colors
    d = date.fromisoformat(f["date"])
    monday = d - timedelta(days=d.weekday())

    def week(s_, x, y, w, dr):
        cell = w / 7
        size = s_.size(13)
        lh = s_.measure.line_height(size)
        h = lh + 8 + 36
        if dr:
            for i in range(7):
                day = monday + timedelta(days=i)
                cx = x + cell * i + cell / 2
                name = day.strftime("%a")[:1]
                s_.canvas.text((cx - s_.width(name, "sans", size) / 2, y), name, "sans", size, c["muted"])
                num = str(day.day)
                sel = day == d
                if sel:
                    s_.canvas.ellipse((cx - 18, y + lh + 6, cx + 18, y + lh + 42), fill=accent)
                ns = s_.size(16)
                s_.canvas.text((cx - s_.width(num, "sans-bold", ns) / 2, y + lh + 24 - ns * 0.66), num, "sans-bold", ns,
                               (255, 255, 255) if sel else c["text"])
        return h

    s.card(lambda s_, x, y, w, dr: s_.text(x, y, day_text(f["date"]), "sans-bold", 17, c["text"], w, dr), week)
    agenda = sorted(entries + [(f["time"], None, None)])

    def slot(t: str, name: str | None, place: str | None):
        def block(s_, x, y, w, dr):
            label = format_time(t, twelve)
            lw = 86
            if name is None:  # the event
                inner = w - lw - 24
                h = s_.text(0, 0, f["title"], "sans-bold", 16, c["text"], inner, False)
                h += s_.text(0, 0, when, "sans", 13, c["text"], inner, False)
                h += s_.text(0, 0, f["venue"], "sans", 13, c["text"], inner, False) + 16
                if dr:
                    s_.text(x, y + 8, label, "sans-bold", 13, c["text"], lw - 6, True)
                    s_.canvas.rect((x + lw, y, x + w, y + h), fill=accent if not s_.look.dark else c["line"], radius=10)
                    s_.canvas.rect((x + lw, y, x + lw + 5, y + h), fill=c["text"], radius=2)
                    fg = (255, 255, 255) if not s_.look.dark else c["text"]
                    yy = y + 8
                    yy += s_.text(x + lw + 14, yy, f["title"], "sans-bold", 16, fg, inner, True)
                    yy += s_.text(x + lw + 14, yy, when, "sans", 13, fg, inner, True)
                    s_.text(x + lw + 14, yy, f["venue"], "sans", 13, fg, inner, True)
                return h
            inner = w - lw - 24
            text = name + (f" · {place}" if place else "")
            h = s_.text(0, 0, text, "sans", 14, c["text"], inner, False) + 12
            if dr:
                s_.text(x, y + 6, label, "sans", 13, c["muted"], lw - 6, True)
                s_.canvas.rect((x + lw, y, x + w, y + h), fill=c["line"], radius=8)
                s_.text(x + lw + 12, y + 6, text, "sans", 14, c["text"], inner, True)
            return h
        return block

    s.card(*[slot(t, nm, pl) for t, nm, pl in agenda], gap=10)

    def icon_row(name, text, style="sans", base=15):
        def row(s_, x, y, w, dr):
            if dr:
                s_.icon(name, x, y, 22, accent if not s_.look.dark else c["text"])
            return max(24, s_.text(x + 34, y + 2, text, style, base, c["text"], w - 34, dr))
        return row

    s.card(lambda s_, x, y, w, dr: s_.text(x, y, f["title"], "sans-bold", 18, c["text"], w, dr),
           icon_row("schedule", when), icon_row("location_on", f["venue"]),
           icon_row("attach_money", price_line, "sans-bold"), icon_row("person", f"Organiser: {f['organiser']}"))
    d_title = d.strftime("%B %Y")
    image = s.finish(d_title, tabs=["calendar", "search", "add", "settings"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("calendar_day", FIELDS, draw_calendarday_text)
