"""``settings_panel``: a desktop operating system's Settings window on one page of many widgets (UI).

A full-screen settings application (:mod:`._desktop`: 1,920 px wide, 11-12 px text): a sidebar of
categories under a search box (the page's one selected), the page's title and a row of tabs (one
selected), and two or three columns of section cards, each a list of settings with the widget
that holds its value at the card's right edge:

* ``toggle``: a switch, *on* an accent-filled track with the knob at the right, *off* a grey
  outline with the knob at the left (no text says which: :func:`is_on` reads it back, a checkbox's too);
* ``dropdown``: the selected option in a box with a chevron;
* ``slider``: a track filled to the value, with a knob, and the value printed after it;
* ``checkbox``: a box, ticked or not (the label after it);
* ``number``: a spin box with the number and its unit.

A task reads a toggle's state, a dropdown's option or a number; :data:`PAGES` gives every page's
settings with the values they may take (drawn from the seed, or given in content ``values``: label
-> value). Levels: :mod:`._desktop`'s (0 light, 12 px; 1 a third column of cards and more
categories; 2 the dark theme; 3 the 2,560 px screen sent at 1,920 px as JPEG, its text about 8 px:
a crop of a widget's box and a zoom bring it back; the values are printed in bold there, their words
two spaces apart at every level: :data:`SPACE`).

Facts: ``page``, ``tab``, ``tabs``, ``categories``, ``widgets`` (every setting: section, label,
kind, value, the value as shown, its box and its widget's box in the delivered image),
``values`` (label -> value), ``doc_box`` (the cards, where a reader crops), ``frame``.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from ._common import Bool, Choice, Ctx, Int, MapOf, OneOf, Str, drafting
from ._desktop import Desktop, clip
from ._family import Family
from ..fonts import get_font

# page -> (tabs, sections): a section is (title, settings); a setting is (label, kind, what it may take):
# toggle/checkbox: None; dropdown: its options; slider: (lo, hi, step, unit); number: (lo, hi, unit)
PAGES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, tuple], ...]]] = {
    "Display": (("General", "Colour", "Night light", "HDR", "Advanced"), (
        ("Brightness & colour", (("Brightness", "slider", (0, 100, 5, "%")), ("Change brightness automatically", "toggle", None),
                                 ("Night light", "toggle", None), ("Colour profile", "dropdown", ("sRGB", "Display P3", "Adobe RGB", "Custom")),
                                 ("Use HDR", "toggle", None))),
        ("Scale & layout", (("Scale", "dropdown", ("100%", "125%", "150%", "175%")), ("Display resolution", "dropdown", ("1920x1080", "2560x1440", "3840x2160")),
                            ("Display orientation", "dropdown", ("Landscape", "Portrait", "Landscape (flipped)")),
                            ("Refresh rate", "dropdown", ("60Hz", "75Hz", "120Hz", "144Hz")), ("Text size", "slider", (100, 225, 25, "%")))),
        ("Multiple displays", (("Remember window locations", "checkbox", None), ("Minimise windows when a monitor is disconnected", "checkbox", None),
                               ("Ease cursor movement between displays", "checkbox", None), ("Identify displays", "toggle", None),
                               ("Main display", "dropdown", ("Display 1", "Display 2")))),
        ("Night light schedule", (("Schedule night light", "toggle", None), ("Turn on at", "dropdown", ("19:00", "20:00", "21:00", "22:00", "Sunset")),
                                  ("Turn off at", "dropdown", ("05:00", "06:00", "07:00", "Sunrise")), ("Strength", "slider", (0, 100, 5, "%")))),
        ("Graphics", (("Hardware-accelerated scheduling", "toggle", None), ("Variable refresh rate", "toggle", None),
                      ("Optimisations for windowed games", "toggle", None), ("Default graphics preference", "dropdown", ("Let the system decide", "Power saving", "High performance")))),
        ("Energy", (("Dim display after", "number", (1, 60, "min")), ("Turn off display after", "number", (1, 120, "min")),
                    ("Content adaptive brightness", "dropdown", ("Off", "Always", "On battery only")), ("Battery saver dims screen", "checkbox", None))),
        ("Accessibility", (("Contrast theme", "dropdown", ("None", "Aquatic", "Desert", "Dusk", "Night sky")), ("Colour filters", "toggle", None),
                           ("Magnifier zoom", "slider", (100, 400, 25, "%")), ("Cursor size", "number", (1, 15, "pt")), ("Show scroll bars", "checkbox", None))),
        ("Related settings", (("Wallpaper", "dropdown", ("Picture", "Solid colour", "Slideshow")), ("Desktop icons", "checkbox", None),
                              ("Taskbar alignment", "dropdown", ("Centre", "Left")), ("Transparency effects", "toggle", None), ("Animation effects", "toggle", None))),
    )),
    "Power & battery": (("Power", "Battery", "Sleep", "Usage", "Advanced"), (
        ("Power mode", (("Power mode", "dropdown", ("Best power efficiency", "Balanced", "Best performance")), ("Energy saver", "toggle", None),
                        ("Turn energy saver on at", "number", (5, 50, "%")), ("Lower screen brightness with energy saver", "toggle", None))),
        ("Screen and sleep", (("On battery, turn off my screen after", "number", (1, 60, "min")), ("When plugged in, turn off my screen after", "number", (1, 120, "min")),
                              ("On battery, put my device to sleep after", "number", (1, 120, "min")), ("When plugged in, put my device to sleep after", "number", (1, 240, "min")))),
        ("Lid and power button", (("Closing the lid on battery", "dropdown", ("Do nothing", "Sleep", "Hibernate", "Shut down")),
                                  ("Closing the lid when plugged in", "dropdown", ("Do nothing", "Sleep", "Hibernate", "Shut down")),
                                  ("Pressing the power button", "dropdown", ("Sleep", "Hibernate", "Shut down", "Turn off the display")),
                                  ("Require sign-in on wake", "checkbox", None))),
        ("Battery", (("Smart charging", "toggle", None), ("Charge limit", "slider", (50, 100, 5, "%")), ("Show battery percentage", "checkbox", None),
                     ("Battery usage alerts", "toggle", None))),
        ("Sleep", (("Hibernate after", "number", (30, 600, "min")), ("Wake timers", "dropdown", ("Enable", "Disable", "Important only")),
                   ("Network connection in standby", "dropdown", ("Enabled", "Disabled", "Managed by Windows")), ("Fast start-up", "checkbox", None))),
        ("Usage", (("Background activity", "toggle", None), ("Track app energy use", "checkbox", None),
                   ("Time period", "dropdown", ("Last 24 hours", "Last 7 days")), ("Usage report", "toggle", None))),
        ("Critical battery", (("Critical battery level", "number", (1, 10, "%")), ("Critical battery action", "dropdown", ("Sleep", "Hibernate", "Shut down")),
                              ("Low battery level", "number", (5, 30, "%")), ("Low battery notification", "checkbox", None))),
        ("Processor", (("Minimum processor state", "slider", (0, 100, 5, "%")), ("Maximum processor state", "slider", (50, 100, 5, "%")),
                       ("Cooling policy", "dropdown", ("Active", "Passive")), ("USB selective suspend", "toggle", None), ("Wake on LAN", "checkbox", None))),
    )),
    "Notifications": (("Notifications", "Focus", "Apps", "Sounds", "Advanced"), (
        ("Notifications", (("Notifications", "toggle", None), ("Show notifications on the lock screen", "checkbox", None),
                           ("Show reminders and incoming calls on the lock screen", "checkbox", None), ("Allow notifications to play sounds", "checkbox", None),
                           ("Notification banners stay for", "dropdown", ("5 seconds", "7 seconds", "15 seconds", "30 seconds", "1 minute")))),
        ("Do not disturb", (("Do not disturb", "toggle", None), ("Turn on automatically", "toggle", None),
                            ("From", "dropdown", ("21:00", "22:00", "23:00", "00:00")), ("Until", "dropdown", ("06:00", "07:00", "08:00", "09:00")),
                            ("During a game", "checkbox", None), ("When duplicating the display", "checkbox", None))),
        ("Focus", (("Focus session length", "number", (5, 240, "min")), ("Show the timer in the clock", "checkbox", None),
                   ("Hide badges on taskbar apps", "checkbox", None), ("Turn on do not disturb during focus", "toggle", None))),
        ("Apps", (("Mail", "toggle", None), ("Calendar", "toggle", None), ("Messages", "toggle", None), ("Photos", "toggle", None),
                  ("Store", "toggle", None), ("Weather", "toggle", None), ("Sort apps by", "dropdown", ("Most recent", "Name")))),
        ("Sounds", (("Notification volume", "slider", (0, 100, 5, "%")), ("Notification sound", "dropdown", ("Chime", "Chord", "Ding", "Pop", "None")),
                    ("Repeat alarm sound", "number", (1, 10, "times")))),
        ("Advanced", (("Suggestions for setting up the device", "checkbox", None), ("Tips when using the device", "checkbox", None),
                      ("Priority notifications", "dropdown", ("Show all", "Priority only", "Alarms only")))),
        ("Lock screen", (("Lock screen status", "dropdown", ("Weather", "Calendar", "Mail", "None")), ("Show lock screen picture at sign-in", "toggle", None),
                         ("Screen timeout", "number", (1, 30, "min")), ("Show app badges", "checkbox", None))),
        ("More apps", (("Phone Link", "toggle", None), ("Maps", "toggle", None), ("Clock", "toggle", None), ("Feedback Hub", "toggle", None),
                       ("Security", "toggle", None), ("Banner position", "dropdown", ("Bottom right", "Top right", "Top centre")))),
    )),
}
CATEGORIES = ("System", "Display", "Sound", "Notifications", "Focus", "Power & battery", "Storage", "Nearby sharing", "Multitasking",
              "Bluetooth & devices", "Network & internet", "Personalisation", "Apps", "Accounts", "Time & language", "Gaming",
              "Accessibility", "Privacy & security", "Update")
COLUMNS = {0: 2, 1: 3, 2: 3, 3: 3}  # columns of section cards
SECTIONS = {0: 6, 1: 8, 2: 8, 3: 8}  # section cards on the page
FIELDS = {"page": Choice(PAGES), "tab": Str(40), "values": MapOf(OneOf(Bool(), Int(0, 1000), Str(40)), 1, 40)}


def _spec(page: str) -> dict[str, tuple[str, str, object]]:
    """label -> (section, kind, what it may take), for every setting of ``page``."""
    return {label: (title, kind, arg) for title, rows in PAGES[page][1] for label, kind, arg in rows}


def _draw_value(r, kind: str, arg):
    if kind in ("toggle", "checkbox"):
        return r.random() < 0.5
    if kind == "dropdown":
        return r.choice(arg)
    if kind == "slider":
        lo, hi, step, _ = arg
        return r.randrange(lo, hi + 1, step)
    lo, hi, _ = arg
    return r.randint(lo, hi)


def shown(kind: str, value, arg) -> str:
    """A setting's value as the widget prints it (a toggle or checkbox prints none: ``On``/``Off`` for the facts)."""
    if kind in ("toggle", "checkbox"):
        return "On" if value else "Off"
    if kind == "slider":
        return f"{value}{arg[3]}"
    if kind == "number":
        return f"{value} {arg[2]}"
    return str(value)


def _check(ctx: Ctx) -> None:
    c = ctx.content
    page = c.get("page")
    if c.get("values") and page is None:
        raise ValueError("settings_panel content: values need the page they are on")
    if page is None:
        return
    spec = _spec(page)
    for label, value in (c.get("values") or {}).items():
        if label not in spec:
            raise ValueError(f"settings_panel content: {label!r} is not a setting of the {page} page; valid: {', '.join(spec)}")
        _, kind, arg = spec[label]
        ok = (isinstance(value, bool) if kind in ("toggle", "checkbox") else value in arg if kind == "dropdown"
              else isinstance(value, int) and not isinstance(value, bool) and arg[0] <= value <= arg[1])
        if not ok:
            raise ValueError(f"settings_panel content: {value!r} is no value of {label!r} ({kind})")
    if c.get("tab") is not None and c["tab"] not in PAGES[page][0]:
        raise ValueError(f"settings_panel content: tab must be one of {', '.join(PAGES[page][0])}")


TOGGLE = (36, 18)  # a switch's track, chrome px
BOX = 14  # a checkbox
# a printed value (a dropdown's option, a slider's or number field's value): its words two spaces apart
# (tesseract joins "5 seconds" into "5seconds" at a single space of 11 px text, light or dark) and, on the
# level-3 screen, in bold (regular 8 px strokes of "1", "r" and "4" fade through the shrink and the JPEG:
# "14 %" read "u%", "21:00" read "22:00", "Centre" read "Cente" even cropped and zoomed); a number field's
# number sits at its right, by the spin arrows (at its left, after the gap from the label, a leading "1" was
# dropped: "14 %" read "4%")
SPACE = 2.0
VALUE_FACE = {3: "sans-bold"}


def value_width(font, text: str) -> float:
    """The width of ``text`` printed as a value (:func:`draw_value`)."""
    words = text.split(" ")
    return sum(font.getlength(w) for w in words) + font.getlength(" ") * SPACE * (len(words) - 1)


def draw_value(d, x: float, cy: float, text: str, font, fill, right: bool = False) -> None:
    """A widget's value, its words ``SPACE`` spaces apart, from ``x`` (or ending at it)."""
    if right:
        x -= value_width(font, text)
    for word in text.split(" "):
        d.text((x, cy), word, font=font, fill=fill, anchor="lm")
        x += font.getlength(word) + font.getlength(" ") * SPACE


def is_on(img: Image.Image, box: list[int]) -> bool:
    """Whether the switch or checkbox in ``box`` (delivered pixels) is on, from its pixels: an on
    one is filled with the accent colour (a quarter of its box or more strongly saturated), an off
    one is a grey outline around the background."""
    a = np.asarray(img.convert("RGB").crop(tuple(box)), dtype=int)
    sat = a.max(2) - a.min(2)
    return bool((sat > 60).mean() > 0.25)


def draw_settings_panel(ctx: Ctx):
    """A desktop settings window on one page: toggles, dropdowns, sliders, checkboxes and number fields."""
    lv = ctx.difficulty
    s = Desktop(lv)
    W, H, px, pal = s.W, s.H, s.px, s.pal
    r = ctx.rng("panel")
    page = ctx.get("page", lambda g: g.choice(sorted(PAGES)))
    tabs, sections = PAGES[page]
    tab = ctx.content.get("tab") or tabs[0]
    given = ctx.content.get("values") or {}
    vr = ctx.rng("values")
    sections = sections[:SECTIONS[lv]]
    spec = _spec(page)
    values = {label: given[label] if label in given else _draw_value(vr, kind, arg)
              for title, rows in sections for label, kind, arg in rows}
    cats = list(CATEGORIES) if lv >= 1 else [c for c in CATEGORIES if c not in ("Nearby sharing", "Multitasking", "Gaming", "Update")]

    # the layout: title bar | sidebar | header and tabs | columns of cards
    title_h, status_h = px(30), px(24)
    side_w = px(300)
    head_top = title_h + px(18)
    tabs_y = head_top + px(44)
    cards_top = tabs_y + px(40)
    n_cols = COLUMNS[lv]
    gap = px(20)
    col_w = (W - side_w - gap * (n_cols + 1)) / n_cols
    vfont = get_font(VALUE_FACE[lv], s.font.size) if lv in VALUE_FACE else s.font
    row_h = max(round(s.font.size * 2.6), px(30))  # the widgets (chrome) scale with the larger screen, the text does not
    head = row_h  # every card's title and rows sit on one grid across the columns (tesseract reads a screen a line at a time)
    cols_y = [cards_top] * n_cols
    widgets = []
    cards = []
    for title, rows in sections:
        c = min(range(n_cols), key=lambda k: cols_y[k])
        x0 = side_w + gap + c * (col_w + gap)
        y0 = cols_y[c]
        card = [x0, y0, x0 + col_w, y0 + head + len(rows) * row_h]
        cards.append((title, card))
        for k, (label, kind, arg) in enumerate(rows):
            top = y0 + head + k * row_h
            cy = top + row_h / 2
            right = card[2] - px(16)
            if kind == "toggle":
                wbox = [right - px(TOGGLE[0]), cy - px(TOGGLE[1]) / 2, right, cy + px(TOGGLE[1]) / 2]
            elif kind == "checkbox":
                wbox = [x0 + px(16), cy - px(BOX) / 2, x0 + px(16 + BOX), cy + px(BOX) / 2]
            elif kind == "dropdown":
                w = max(value_width(vfont, o) for o in arg) + px(40)
                wbox = [right - w, cy - px(12), right, cy + px(12)]
            elif kind == "slider":
                w = px(150) + value_width(vfont, f"{arg[1]}{arg[3]}") + px(32)  # the value clear of the knob at its end (a full track ran into "400%")
                wbox = [right - w, cy - px(9), right, cy + px(9)]
            else:
                w = value_width(vfont, f"{arg[1]} {arg[2]}") + px(44)
                wbox = [right - w, cy - px(12), right, cy + px(12)]
            widgets.append({"section": title, "label": label, "kind": kind, "value": values[label],
                            "shown": shown(kind, values[label], arg), "row": [x0, top, card[2], top + row_h], "widget": wbox})
        cols_y[c] = card[3] + row_h  # the next card one row lower: still on the grid
    if max(cols_y) > H - status_h:
        raise ValueError(f"settings_panel: the {page} page does not fit at level {lv}")
    doc_box = [side_w, cards_top - px(8), W - px(8), max(card[3] for _, card in cards) + px(8)]  # the cards: where a reader crops
    facts = {"page": page, "tab": tab, "tabs": list(tabs), "categories": cats, "values": dict(values), "frame": s.frame,
             "doc_box": s.box(doc_box),
             "widgets": [{**{k: w[k] for k in ("section", "label", "kind", "value", "shown")},
                          "box": s.box(w["row"]), "widget_box": s.box(w["widget"])} for w in widgets]}
    if drafting():
        return Image.new("RGB", (W, H), (128, 128, 128)), facts

    img, d = s.canvas()
    text, muted, line, accent = pal["text"], pal["muted"], pal["line"], pal["accent"]
    dark = lv == 2
    card_fill = (43, 43, 46) if dark else (251, 251, 252)
    field = (56, 56, 60) if dark else (240, 241, 244)  # a dropdown's or number field's face
    s.title_bar(d, "Settings")
    # the sidebar: the account, a search box, the categories
    d.rectangle((0, title_h, side_w, H), fill=pal["side"])
    d.line((side_w, title_h, side_w, H), fill=line)
    y = title_h + px(16)
    d.ellipse((px(20), y, px(56), y + px(36)), fill=accent)
    d.text((px(66), y + px(10)), f"{r.choice(['Alex', 'Sam', 'Jordan', 'Riley'])} {r.choice(['Morgan', 'Lee', 'Patel', 'Brooks'])}",
           font=s.bold, fill=text, anchor="lm")
    d.text((px(66), y + px(27)), "Local account", font=s.small, fill=muted, anchor="lm")
    y += px(52)
    d.rounded_rectangle((px(16), y, side_w - px(16), y + px(28)), radius=4, fill=pal["bg"], outline=line)
    d.text((px(28), y + px(14)), "Find a setting", font=s.small, fill=muted, anchor="lm")
    y += px(42)
    lh = round(s.font.size * 2.5)
    for cat in cats:
        if cat == page:
            d.rounded_rectangle((px(10), y, side_w - px(10), y + lh - px(4)), radius=4, fill=pal["select"])
            d.rectangle((px(10), y + px(6), px(13), y + lh - px(10)), fill=accent)
        d.rectangle((px(26), y + lh / 2 - px(7), px(40), y + lh / 2 + px(5)), outline=muted)
        d.text((px(52), y + (lh - px(4)) / 2), cat, font=s.font, fill=text, anchor="lm")
        y += lh
    # the page's title and tabs
    d.text((side_w + gap, head_top + px(14)), page, font=get_font("sans-bold", s.font.size + 8), fill=text, anchor="lm")
    x = side_w + gap
    for t in tabs:
        w = s.font.getlength(t)
        d.text((x, tabs_y + px(14)), t, font=s.bold if t == tab else s.font, fill=text if t == tab else muted, anchor="lm")
        if t == tab:
            d.rectangle((x, tabs_y + px(28), x + w, tabs_y + px(30)), fill=accent)
        x += w + px(34)
    d.line((side_w + gap, tabs_y + px(31), W - gap, tabs_y + px(31)), fill=line)
    # the cards and their settings
    for title, card in cards:
        d.rounded_rectangle(card, radius=6, fill=card_fill, outline=line)
        d.text((card[0] + px(16), card[1] + head / 2), title, font=s.bold, fill=text, anchor="lm")
    for w in widgets:
        _, kind, arg = spec[w["label"]]
        x0, top, x1, bottom = w["row"]
        cy = (top + bottom) / 2
        b = w["widget"]
        d.line((x0 + px(12), top, x1 - px(12), top), fill=line)
        lx = b[2] + px(10) if kind == "checkbox" else x0 + px(16)
        room = (x1 - px(16) - lx) if kind == "checkbox" else (b[0] - px(14) - lx)
        d.text((lx, cy), clip(w["label"], s.font, room), font=s.font, fill=text, anchor="lm")
        on = w["value"]
        if kind == "toggle":
            rad = (b[3] - b[1]) / 2
            if on:
                d.rounded_rectangle(b, radius=rad, fill=accent)
                k = (b[2] - rad, cy)
                knob = (255, 255, 255) if not dark else (20, 20, 22)
            else:
                d.rounded_rectangle(b, radius=rad, outline=muted, width=max(1, px(1.5)))
                k = (b[0] + rad, cy)
                knob = muted
            kr = rad * 0.55
            d.ellipse((k[0] - kr, k[1] - kr, k[0] + kr, k[1] + kr), fill=knob)
        elif kind == "checkbox":
            if on:
                d.rounded_rectangle(b, radius=3, fill=accent)
                tick = (255, 255, 255) if not dark else (20, 20, 22)
                d.line([(b[0] + px(3), cy), (b[0] + px(6), b[3] - px(3.5)), (b[2] - px(3), b[1] + px(3.5))], fill=tick, width=max(2, px(2)))
            else:
                d.rounded_rectangle(b, radius=3, outline=muted, width=max(1, px(1.5)))
        elif kind == "dropdown":
            d.rounded_rectangle(b, radius=4, fill=field)  # a filled field, no outline (an outline round the value cost tesseract it)
            draw_value(d, b[0] + px(10), cy, w["shown"], vfont, text)
            ax, a = b[2] - px(14), px(3)  # the chevron: a small triangle
            d.polygon([(ax - a, cy - a / 2), (ax + a, cy - a / 2), (ax, cy + a / 2)], fill=muted)
        elif kind == "slider":
            lo, hi = arg[0], arg[1]
            t0, t1 = b[0], b[0] + px(150)
            at = t0 + (t1 - t0) * (on - lo) / (hi - lo)
            d.rounded_rectangle((t0, cy - px(2), t1, cy + px(2)), radius=2, fill=line)
            d.rounded_rectangle((t0, cy - px(2), at, cy + px(2)), radius=2, fill=accent)
            d.ellipse((at - px(7), cy - px(7), at + px(7), cy + px(7)), fill=accent, outline=pal["bg"], width=max(1, px(2)))
            draw_value(d, b[2], cy, w["shown"], vfont, text, right=True)
        else:
            d.rounded_rectangle(b, radius=4, fill=field)  # a filled field, no outline (an outline round the value cost tesseract it)
            draw_value(d, b[2] - px(26), cy, w["shown"], vfont, text, right=True)  # right-aligned, as a spin box's number is
            ax, a = b[2] - px(12), px(3)  # the spin arrows: two small triangles, clear of the number
            d.polygon([(ax - a, cy - px(2)), (ax + a, cy - px(2)), (ax, cy - px(2) - a)], fill=muted)
            d.polygon([(ax - a, cy + px(2)), (ax + a, cy + px(2)), (ax, cy + px(2) + a)], fill=muted)
    s.status_bar(d, f"{page}  >  {tab}", "Settings")
    return s.send(img), facts


FAMILY = Family("settings_panel", FIELDS, draw_settings_panel, check=_check)
