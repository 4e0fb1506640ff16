"""``chat_screen``: a messages-app thread in which a contact sends their details (UI screenshot).

The same content (and defaults) as ``business_card``: the contact introduces themselves and
shares a contact card (name, title, company, phone, email). Levels add chit-chat bubbles
(with other times and numbers: distractors), a dark low-contrast theme and a downscaled,
re-compressed screenshot.
"""

from __future__ import annotations

from PIL import Image

from ._family import Family
from ._common import Ctx, drafting
from ._phone import Screen, record
from .business_card import FAMILY as BUSINESS_CARD, FIELDS

ACCENTS = [(37, 99, 235), (22, 163, 74), (147, 51, 234), (219, 39, 119)]
CHATTER = [
    ("them", "Great meeting you today!"), ("me", "Likewise - thanks for the coffee."),
    ("them", "Let's talk again next week, Tuesday works for me."), ("me", "Sounds good, I'll check my calendar."),
    ("them", "Room {n} on the 3rd floor, by the way."), ("me", "Got it. See you then!"),
]


def lookalike_phone(phone: str, rng) -> str:
    """``phone`` with its last four digits redrawn (another line of the same office)."""
    digits = [i for i, ch in enumerate(phone) if ch.isdigit()][-4:]
    out = list(phone)
    while "".join(out) == phone:
        for i in digits:
            out[i] = str(rng.randrange(10))
    return "".join(out)


def draw_chat_screen(ctx: Ctx):
    """A chat thread with a shared contact card: the business card's facts (name, company, phone, email)."""
    f = record(ctx, BUSINESS_CARD)
    r = ctx.rng("screen")
    accent = r.choice(ACCENTS)
    first = f["name"].split()[0]
    intro = f"Hi! It's {first} from {f['company']}. Here are my details:"
    cr = ctx.rng("clutter")
    n = {0: 0, 1: 2, 2: 4, 3: 6}[ctx.difficulty]
    room = cr.randint(200, 480)
    chatter = [(who, text.format(n=room)) for who, text in CHATTER[:n]]
    if ctx.difficulty >= 2:  # a look-alike neighbour: another number of the same office, late in the thread
        chatter.insert(n // 2 + 1, ("them", f"Reception is {lookalike_phone(f['phone'], cr)} if I'm out."))
    ctx.distractors.extend(t for _, t in chatter)
    facts = {**f, "intro": intro, "app": "messages"}
    if drafting():
        return Image.new("RGB", (540, 1000), (240, 240, 240)), facts

    s = Screen(ctx, accent)
    c = s.colors

    def bubble(text: str, mine: bool):
        def block(s_, x, y, w, dr):
            maxw = w * 0.72
            size = s_.size(15)
            lines = s_.lines(text, "sans", size, maxw - 24)
            bw = max(s_.width(l, "sans", size) for l in lines) + 24
            h = s_.measure.line_height(size) * len(lines) + 18
            if dr:
                bx = x + w - bw if mine else x
                s_.canvas.rect((bx, y, bx + bw, y + h), fill=accent if mine else c["card"], radius=16)
                s_.text(bx + 12, y + 9, text, "sans", 15, (255, 255, 255) if mine else c["text"], bw - 24, True)
            return h
        return block

    def contact(s_, x, y, w, dr):
        cw = w * 0.88
        rows = [(f["name"], "sans-bold", 17), (f["title"], "sans", 14), (f["company"], "sans", 15),
                (f["phone"], "sans-bold", 16), (f["email"], "sans-bold", 16)]
        inner = cw - 28 - 40
        hs = [s_.text(0, 0, t, st, b, c["text"], inner, False) for t, st, b in rows]
        h = sum(hs) + 6 * len(rows) + 24
        if dr:
            s_.canvas.rect((x, y, x + cw, y + h), fill=c["card"], outline=c["line"], radius=14)
            s_.icon("account_circle", x + 12, y + 14, 30, accent)
            yy = y + 12
            for (t, st, b), rh in zip(rows, hs):
                s_.text(x + 54, yy, t, st, b, c["text"] if st == "sans-bold" else c["muted"], inner, True)
                yy += rh + 6
        return h

    for who, text in chatter[: n // 2]:
        s.add(bubble(text, who == "me"))
    s.add(bubble(intro, False))
    s.add(contact)
    for who, text in chatter[n // 2:]:
        s.add(bubble(text, who == "me"))
    image = s.finish(f["name"])
    return image, facts


FAMILY = Family("chat_screen", FIELDS, draw_chat_screen)
