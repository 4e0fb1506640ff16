"""``inbox``: the mail app with a message whose signature carries a contact's details (UI screenshot).

The same content (and defaults) as ``business_card``: the person writes to follow up, and their
signature gives name, title, company, phone and email; the header shows the sender's address.
Levels put other inbox rows above the open message (other senders, subjects and times:
distractors), then a dark low-contrast theme and a downscaled, re-compressed screenshot.
"""

from __future__ import annotations

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting
from ._phone import Screen, record
from .business_card import FAMILY as BUSINESS_CARD, FIELDS

ACCENTS = [(26, 115, 232), (217, 48, 37), (15, 157, 88), (103, 58, 183)]
SUBJECTS = ["Following up on today", "Nice to meet you", "Our conversation this morning", "Next steps"]
OTHERS = [("Riverside Library", "Your hold is ready", "Pick up by Friday at the front desk."),
          ("Pay-n-Park", "Receipt for your session", "Zone 4, 2 h 15 min."),
          ("Team Calendar", "Updated: weekly sync", "Moved to Thursday 3:30 PM."),
          ("Hometown Gym", "New spin classes", "Book a free trial this month."),
          ("City Utilities", "Your bill is available", "Account ending 5521.")]
TIMES = ["8:02 AM", "Yesterday", "Mon", "Sun", "Sat"]


def draw_inbox(ctx: Ctx):
    """A mail-app screen with a message signed by the contact: the business card's facts."""
    f = record(ctx, BUSINESS_CARD)
    r = ctx.rng("screen")
    accent = r.choice(ACCENTS)
    subject = r.choice(SUBJECTS)
    first = f["name"].split()[0]
    received = f"{r.randint(9, 11)}:{r.choice(['05', '18', '32', '47'])} AM"
    body = (f"Hi, thanks for taking the time to talk today. As promised, here are my details "
            f"so we can stay in touch. Best, {first}")
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 3, 3: 4}[ctx.difficulty]
    others = cr.sample(OTHERS, n)
    ctx.distractors.extend(f"{a}: {b}" for a, b, _ in others)
    facts = {**f, "subject": subject, "received": received, "app": "mail"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, accent)
    c = s.colors

    def row(sender: str, subj: str, snippet: str, when: str):
        def block(s_, x, y, w, dr):
            if dr:
                s_.canvas.ellipse((x, y + 2, x + 34, y + 36), fill=s_.colors["line"])
                s_.canvas.text((x + 11, y + 9), sender[0], "sans-bold", 14, c["muted"])
            h = s_.pair(x + 46, y, sender, when, w - 46, dr, style="sans-bold", base=15, right_style="sans")
            h += s_.text(x + 46, y + h, subj, "sans", 14, c["text"], w - 46, dr)
            h += s_.text(x + 46, y + h, snippet, "sans", 13, c["muted"], w - 46, dr)
            return max(h, 38)
        return block

    if others:
        s.card(*[row(a, b, sn, TIMES[i + 1]) for i, (a, b, sn) in enumerate(others)], gap=14)

    def header(s_, x, y, w, dr):
        h = s_.text(x, y, subject, "sans-bold", 19, c["text"], w, dr) + 10
        if dr:
            s_.canvas.ellipse((x, y + h, x + 40, y + h + 40), fill=accent)
            s_.canvas.text((x + 13, y + h + 10), first[0], "sans-bold", 16, (255, 255, 255))
        hh = s_.pair(x + 52, y + h, f["name"], received, w - 52, dr, style="sans-bold", base=15, right_style="sans")
        hh += s_.text(x + 52, y + h + hh, f"<{f['email']}>", "sans", 13, c["muted"], w - 52, dr)
        hh += s_.text(x + 52, y + h + hh, "to me", "sans", 13, c["muted"], w - 52, dr)
        return h + max(hh, 42)

    def message(s_, x, y, w, dr):
        return s_.text(x, y, body, "sans", 15, c["text"], w, dr)

    def signature(s_, x, y, w, dr):
        rows = [(f["name"], "sans-bold", 15), (f["title"], "sans", 14), (f["company"], "sans", 14),
                (f"Phone: {f['phone']}", "sans-bold", 15), (f"Email: {f['email']}", "sans-bold", 15)]
        h = 6
        if dr:
            s_.canvas.line([(x, y), (x + 40, y)], c["muted"], 1)
        for text, style, base in rows:
            h += s_.text(x, y + h, text, style, base, c["text"] if style == "sans-bold" else c["muted"], w, dr) + 2
        return h

    s.card(header, message, signature, gap=14)
    image = s.finish("Inbox", tabs=["mail", "person", "search", "settings"] if ctx.difficulty else None)
    return image, facts


FAMILY = Family("inbox", FIELDS, draw_inbox)
