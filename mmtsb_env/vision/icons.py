"""Procedural line icons (Material-style names), drawn with canvas primitives in a square box.

Names are matched case- and separator-insensitively (``shoppingCart``, ``shopping_cart``); an
unknown name is drawn as a circled first letter.

>>> canonical("shopping_cart"), canonical("calendarToday"), canonical("xyz")
('shoppingcart', 'calendartoday', None)
"""

from __future__ import annotations

import math
from typing import Callable

from .canvas import Canvas, Color


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


def _pen(c: Canvas, x: float, y: float, s: float, color: Color, w: float):
    """Helpers drawing in unit coordinates (0..1) of the icon box."""

    def P(u: float, v: float) -> tuple[float, float]:
        return (x + u * s, y + v * s)

    def line(*pts: tuple[float, float]) -> None:
        c.line([P(*p) for p in pts], color, w)

    def box(u0, v0, u1, v1, r=0.0, fill=False) -> None:
        c.rect((*P(u0, v0), *P(u1, v1)), fill=color if fill else None, outline=None if fill else color, width=w,
               radius=r * s)

    def circle(u, v, rad, fill=False) -> None:
        c.ellipse((*P(u - rad, v - rad), *P(u + rad, v + rad)), fill=color if fill else None,
                  outline=None if fill else color, width=w)

    def poly(*pts: tuple[float, float]) -> None:
        c.polygon([P(*p) for p in pts], color)

    def arc(u, v, rad, a0, a1) -> None:
        c.arc((*P(u - rad, v - rad), *P(u + rad, v + rad)), a0, a1, color, w)

    return line, box, circle, poly, arc


def _star(u: float, v: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        ang = -math.pi / 2 + k * math.pi / 5
        rad = r if k % 2 == 0 else r * 0.45
        pts.append((u + rad * math.cos(ang), v + rad * math.sin(ang)))
    return pts


def _draw(name: str) -> Callable[..., None] | None:
    def check(line, box, circle, poly, arc):
        line((0.18, 0.52), (0.42, 0.75), (0.84, 0.28))

    def close(line, box, circle, poly, arc):
        line((0.22, 0.22), (0.78, 0.78)); line((0.78, 0.22), (0.22, 0.78))

    def add(line, box, circle, poly, arc):
        line((0.5, 0.18), (0.5, 0.82)); line((0.18, 0.5), (0.82, 0.5))

    def remove(line, box, circle, poly, arc):
        line((0.18, 0.5), (0.82, 0.5))

    def star(line, box, circle, poly, arc):
        poly(*_star(0.5, 0.53, 0.44))

    def favorite(line, box, circle, poly, arc):
        circle(0.33, 0.38, 0.18, fill=True); circle(0.67, 0.38, 0.18, fill=True)
        poly((0.16, 0.44), (0.84, 0.44), (0.5, 0.85))

    def search(line, box, circle, poly, arc):
        circle(0.42, 0.42, 0.25); line((0.6, 0.6), (0.85, 0.85))

    def cart(line, box, circle, poly, arc):
        line((0.08, 0.18), (0.22, 0.18), (0.32, 0.62), (0.8, 0.62), (0.88, 0.3), (0.26, 0.3))
        circle(0.38, 0.8, 0.07, fill=True); circle(0.74, 0.8, 0.07, fill=True)

    def calendar(line, box, circle, poly, arc):
        box(0.15, 0.22, 0.85, 0.86, r=0.08); line((0.15, 0.4), (0.85, 0.4))
        line((0.33, 0.12), (0.33, 0.28)); line((0.67, 0.12), (0.67, 0.28))
        box(0.3, 0.52, 0.44, 0.64, fill=True)

    def clock(line, box, circle, poly, arc):
        circle(0.5, 0.5, 0.36); line((0.5, 0.28), (0.5, 0.5), (0.66, 0.6))

    def person(line, box, circle, poly, arc):
        circle(0.5, 0.32, 0.17, fill=True); arc(0.5, 0.95, 0.34, 180, 360)

    def home(line, box, circle, poly, arc):
        line((0.12, 0.5), (0.5, 0.15), (0.88, 0.5)); line((0.24, 0.42), (0.24, 0.85), (0.76, 0.85), (0.76, 0.42))
        box(0.42, 0.6, 0.58, 0.85, fill=True)

    def mail(line, box, circle, poly, arc):
        box(0.12, 0.24, 0.88, 0.76, r=0.06); line((0.12, 0.28), (0.5, 0.55), (0.88, 0.28))

    def phone(line, box, circle, poly, arc):
        box(0.3, 0.1, 0.7, 0.9, r=0.1); line((0.44, 0.78), (0.56, 0.78))

    def info(line, box, circle, poly, arc):
        circle(0.5, 0.5, 0.38); line((0.5, 0.46), (0.5, 0.72)); circle(0.5, 0.32, 0.04, fill=True)

    def help_(line, box, circle, poly, arc):
        circle(0.5, 0.5, 0.38); arc(0.5, 0.4, 0.12, 190, 405)
        line((0.58, 0.48), (0.5, 0.53), (0.5, 0.6)); circle(0.5, 0.71, 0.04, fill=True)

    def warning(line, box, circle, poly, arc):
        line((0.5, 0.14), (0.9, 0.84), (0.1, 0.84), (0.5, 0.14)); line((0.5, 0.4), (0.5, 0.62))
        circle(0.5, 0.73, 0.035, fill=True)

    def error(line, box, circle, poly, arc):
        circle(0.5, 0.5, 0.38); line((0.5, 0.3), (0.5, 0.56)); circle(0.5, 0.69, 0.04, fill=True)

    def settings(line, box, circle, poly, arc):
        for k in range(8):
            a = k * math.pi / 4
            line((0.5 + 0.26 * math.cos(a), 0.5 + 0.26 * math.sin(a)), (0.5 + 0.4 * math.cos(a), 0.5 + 0.4 * math.sin(a)))
        circle(0.5, 0.5, 0.26); circle(0.5, 0.5, 0.09)

    def arrow_back(line, box, circle, poly, arc):
        line((0.82, 0.5), (0.2, 0.5)); line((0.45, 0.25), (0.2, 0.5), (0.45, 0.75))

    def arrow_forward(line, box, circle, poly, arc):
        line((0.18, 0.5), (0.8, 0.5)); line((0.55, 0.25), (0.8, 0.5), (0.55, 0.75))

    def edit(line, box, circle, poly, arc):
        line((0.22, 0.78), (0.72, 0.28)); line((0.62, 0.2), (0.8, 0.38)); line((0.16, 0.84), (0.3, 0.84))

    def delete(line, box, circle, poly, arc):
        line((0.2, 0.26), (0.8, 0.26)); line((0.4, 0.26), (0.42, 0.14), (0.58, 0.14), (0.6, 0.26))
        line((0.27, 0.26), (0.32, 0.86), (0.68, 0.86), (0.73, 0.26)); line((0.5, 0.4), (0.5, 0.74))

    def note(line, box, circle, poly, arc):
        box(0.2, 0.12, 0.8, 0.88, r=0.06)
        for v in (0.34, 0.5, 0.66):
            line((0.32, v), (0.68, v))

    def camera(line, box, circle, poly, arc):
        box(0.1, 0.3, 0.9, 0.82, r=0.08); line((0.34, 0.3), (0.4, 0.18), (0.6, 0.18), (0.66, 0.3))
        circle(0.5, 0.56, 0.15)

    def photo(line, box, circle, poly, arc):
        box(0.12, 0.18, 0.88, 0.82, r=0.06); poly((0.2, 0.74), (0.42, 0.44), (0.58, 0.64), (0.68, 0.54), (0.8, 0.74))
        circle(0.68, 0.34, 0.06, fill=True)

    def money(line, box, circle, poly, arc):
        circle(0.5, 0.5, 0.38); line((0.5, 0.2), (0.5, 0.8))
        line((0.62, 0.36), (0.4, 0.34), (0.38, 0.48), (0.62, 0.52), (0.6, 0.66), (0.36, 0.64))

    def payment(line, box, circle, poly, arc):
        box(0.1, 0.24, 0.9, 0.76, r=0.06); box(0.1, 0.36, 0.9, 0.46, fill=True); line((0.2, 0.64), (0.4, 0.64))

    def location(line, box, circle, poly, arc):
        circle(0.5, 0.38, 0.24); poly((0.29, 0.5), (0.71, 0.5), (0.5, 0.9)); circle(0.5, 0.38, 0.08, fill=True)

    def send(line, box, circle, poly, arc):
        poly((0.12, 0.2), (0.9, 0.5), (0.12, 0.8), (0.22, 0.5))

    def lock(line, box, circle, poly, arc):
        box(0.22, 0.46, 0.78, 0.88, r=0.06, fill=True); arc(0.5, 0.32, 0.17, 180, 360)
        line((0.33, 0.32), (0.33, 0.48)); line((0.67, 0.32), (0.67, 0.48))

    def bell(line, box, circle, poly, arc):
        arc(0.5, 0.46, 0.26, 180, 360); line((0.24, 0.46), (0.22, 0.72), (0.78, 0.72), (0.76, 0.46))
        circle(0.5, 0.82, 0.07, fill=True)

    def share(line, box, circle, poly, arc):
        circle(0.74, 0.22, 0.1, fill=True); circle(0.26, 0.5, 0.1, fill=True); circle(0.74, 0.78, 0.1, fill=True)
        line((0.74, 0.22), (0.26, 0.5), (0.74, 0.78))

    def menu(line, box, circle, poly, arc):
        for v in (0.28, 0.5, 0.72):
            line((0.16, v), (0.84, v))

    def more(line, box, circle, poly, arc):
        for v in (0.22, 0.5, 0.78):
            circle(0.5, v, 0.07, fill=True)

    def refresh(line, box, circle, poly, arc):
        arc(0.5, 0.5, 0.32, 20, 320); poly((0.86, 0.2), (0.86, 0.46), (0.62, 0.36))

    def visibility(line, box, circle, poly, arc):
        arc(0.5, 0.82, 0.5, 217, 323); arc(0.5, 0.18, 0.5, 37, 143); circle(0.5, 0.5, 0.12, fill=True)

    def folder(line, box, circle, poly, arc):
        line((0.1, 0.78), (0.1, 0.22), (0.38, 0.22), (0.46, 0.32), (0.9, 0.32), (0.9, 0.78), (0.1, 0.78))

    table = {
        "check": check, "done": check, "checkcircle": check, "close": close, "cancel": close, "clear": close,
        "add": add, "remove": remove, "star": star, "favorite": favorite, "search": search,
        "shoppingcart": cart, "cart": cart, "addshoppingcart": cart, "calendartoday": calendar, "calendar": calendar,
        "event": calendar, "daterange": calendar, "schedule": clock, "time": clock, "accesstime": clock, "alarm": clock,
        "person": person, "accountcircle": person, "contact": person, "home": home, "mail": mail, "email": mail,
        "phone": phone, "call": phone, "smartphone": phone, "info": info, "help": help_, "warning": warning,
        "error": error, "settings": settings, "arrowback": arrow_back, "arrowforward": arrow_forward, "edit": edit,
        "delete": delete, "note": note, "notes": note, "description": note, "receipt": note, "camera": camera,
        "photocamera": camera, "photo": photo, "image": photo, "attachmoney": money, "money": money,
        "payment": payment, "creditcard": payment, "locationon": location, "place": location, "send": send,
        "lock": lock, "notifications": bell, "share": share, "menu": menu, "morevert": more, "refresh": refresh,
        "visibility": visibility, "folder": folder,
    }
    return table.get(name)


def canonical(name: str) -> str | None:
    """The normalised icon name if it is drawable, else None."""
    key = _norm(name)
    return key if _draw(key) is not None else None


def draw_icon(canvas: Canvas, name: str, x: float, y: float, size: float, color: Color) -> None:
    """Draw icon ``name`` in the square ``(x, y, x + size, y + size)``."""
    fn = _draw(_norm(name))
    width = max(1.4, size / 12)
    tools = _pen(canvas, x, y, size, color, width)
    if fn is not None:
        fn(*tools)
        return
    circle = tools[2]
    circle(0.5, 0.5, 0.42)
    letter = (name.strip()[:1] or "?").upper()
    fsize = size * 0.5
    tw = canvas.width(letter, "sans-bold", fsize)
    canvas.text((x + (size - tw) / 2, y + size * 0.22), letter, "sans-bold", fsize, color)
