"""``settings_screen``: the phone's Settings app with its switches (UI screenshot).

Drawn from a device row: the four switches the ``setting`` app has (Wi-Fi, Cellular Data,
Location Services, Low Power Mode) among switches it lacks (Airplane Mode, Bluetooth, Do Not
Disturb; Personal Hotspot from level 2) and value rows (the Wi-Fi network, the carrier, the
battery level; from level 1 a set-up banner and Auto-Lock). Facts: every switch's state
(``toggles``), the app's columns (``device``: ``wifi``, ``cellular``, ``location_service``,
``low_battery_mode``), which rows are decoys, and each switch's box in the delivered image
(``toggle_boxes``), so a tool can crop to it.

A switch's state is visual, not text: *on* is a saturated green track with the knob at the right,
*off* a grey track with the knob at the left. Rows have a fixed height, so the boxes are worked
out without drawing. The levels follow ``_phone.LOOKS``: at level 2 (dark theme) the off track is
a dark grey and the green is muted, still far apart in saturation; at level 3 the screenshot is
shrunk to 63 % and re-compressed, the names (row labels, the device name) are set at 92 % of the
level's type in rows of unchanged size (``NAMES``; read as delivered they came out too often over
seeds 0-2), a switch is about 24 x 15 px, and a 2x zoom (or a crop to its box) shows track colour
and knob side plainly. ``switch_state`` reads a state back from pixels;
the tests check it against the facts at every level.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from PIL import Image

from ._family import Family
from ._common import Bool, Ctx, Int, Str, drafting
from ._phone import LOOKS, WIDTH, Screen, chrome

FIELDS = {
    "wifi": Bool(), "cellular": Bool(), "location_service": Bool(), "low_battery_mode": Bool(),
    "airplane_mode": Bool(), "bluetooth": Bool(), "do_not_disturb": Bool(), "hotspot": Bool(),
    "network": Str(40), "carrier": Str(30), "device_name": Str(40), "battery": Int(1, 100),
}

# the app's columns -> the row label that shows them
REAL = {"wifi": "Wi-Fi", "cellular": "Cellular Data", "location_service": "Location Services",
        "low_battery_mode": "Low Power Mode"}
DECOYS = {"airplane_mode": "Airplane Mode", "bluetooth": "Bluetooth", "do_not_disturb": "Do Not Disturb",
          "hotspot": "Personal Hotspot"}
ICONS = {"airplane_mode": ("send", (255, 149, 0)), "wifi": ("wifi", (0, 122, 255)),
         "bluetooth": ("bluetooth", (0, 122, 255)), "cellular": ("phone", (52, 199, 89)),
         "hotspot": ("share", (52, 199, 89)), "location_service": ("location", (0, 122, 255)),
         "low_battery_mode": ("battery", (255, 204, 0)), "do_not_disturb": ("notifications", (88, 86, 214)),
         "battery_level": ("battery", (52, 199, 89)), "auto_lock": ("lock", (142, 142, 147))}
NETWORKS = ["HomeNet-5G", "Blue Fern", "Casa Wifi 2.4", "Apt 4B", "TheLittleRouter", "Orchard Guest", "NETGEAR57"]
CARRIERS = ["Verity Mobile", "Northstar", "Lumen Wireless", "Skyline Cell"]
ON = {False: (52, 199, 89), True: (44, 150, 74)}  # by dark theme
OFF = {False: (225, 225, 230), True: (70, 70, 78)}
KNOB = {False: (255, 255, 255), True: (230, 230, 234)}
OFF_EDGE = {False: (196, 196, 202), True: (96, 96, 104)}

ROW_H, PAD, HEAD_H = 50.0, 6.0, 22.0  # a row, a card's padding, a section header (logical px at type scale 1)
SW_W, SW_H = 46.0, 28.0  # the switch
LABEL = 18.0  # a row's name (logical px at type scale 1)
NAMES = {3: 0.92}  # level -> the names' type (row labels, the device name) against the level's type scale (rows keep their size)


def _look(ctx: Ctx):
    """The app screens' look of the level, with type that stays 84 % at level 3 (the shrink and
    JPEG keep it hard; 72 % type under them leaves names like "Wi-Fi" unreadable even at 2x)."""
    look = LOOKS[ctx.difficulty]
    return replace(look, type_scale=0.84) if ctx.difficulty == 3 else look


def _defaults(ctx: Ctx) -> dict:
    r = ctx.rng("device")
    c = ctx.content
    d = {k: c.get(k) for k in FIELDS}
    for k in ("wifi", "cellular", "location_service", "bluetooth"):
        if d[k] is None:
            d[k] = r.random() < 0.6
    for k in ("low_battery_mode", "do_not_disturb", "hotspot"):
        if d[k] is None:
            d[k] = r.random() < 0.3
    if d["low_battery_mode"] and "low_battery_mode" not in c:
        d["low_battery_mode"] = not any(d[k] for k in ("wifi", "cellular", "location_service"))
    if d["airplane_mode"] is None:
        d["airplane_mode"] = not d["cellular"] and not d["wifi"] and r.random() < 0.5
    if d["network"] is None:
        d["network"] = r.choice(NETWORKS)
    if d["carrier"] is None:
        d["carrier"] = r.choice(CARRIERS)
    if d["device_name"] is None:
        d["device_name"] = r.choice(["Sam", "Alex", "Jordan", "Riley", "Casey"]) + "'s Phone"
    if d["battery"] is None:
        d["battery"] = r.randint(12, 97)
    return d


def _check(ctx: Ctx) -> None:
    c = ctx.content
    if c.get("airplane_mode") and c.get("cellular"):
        raise ValueError("settings_screen spec: airplane_mode and cellular cannot both be on (airplane mode turns cellular off)")


def _rows(ctx: Ctx, d: dict) -> list[tuple[str, list[tuple[str, str, str, bool | None]]]]:
    """Sections of rows ``(key, label, subtitle, state)``; ``state`` None is a value row."""
    clutter = LOOKS[ctx.difficulty].clutter
    wifi_sub = d["network"] if d["wifi"] else "Not Connected"
    conn = [("airplane_mode", "Airplane Mode", "", d["airplane_mode"]),
            ("wifi", "Wi-Fi", wifi_sub, d["wifi"]),
            ("bluetooth", "Bluetooth", "On" if d["bluetooth"] else "Off", d["bluetooth"]),
            ("cellular", "Cellular Data", d["carrier"], d["cellular"])]
    if clutter >= 3:
        conn.append(("hotspot", "Personal Hotspot", "", d["hotspot"]))
    other = [("location_service", "Location Services", "", d["location_service"]),
             ("low_battery_mode", "Low Power Mode", "", d["low_battery_mode"]),
             ("do_not_disturb", "Do Not Disturb", "", d["do_not_disturb"])]
    ctx.rng("order").shuffle(other)
    other.append(("battery_level", "Battery", f"{d['battery']} %", None))
    if clutter >= 2:
        other.append(("auto_lock", "Auto-Lock", "30 seconds", None))
    return [("CONNECTIVITY", conn), ("PRIVACY & BATTERY", other)]


def _layout(ctx: Ctx, sections, banner: bool) -> tuple[list[tuple[str, float]], int, dict[str, list[float]]]:
    """Block heights (logical px), the screen height and each switch's box (logical px)."""
    k = _look(ctx).type_scale
    blocks: list[tuple[str, float]] = [("profile", 64 * k + 2 * PAD)]
    if banner:
        blocks.append(("banner", 44 * k + 2 * PAD))
    boxes: dict[str, list[float]] = {}
    ch = chrome(ctx)
    pad, gap, top = ch.pad, ch.gap, ch.top  # as Screen.finish
    y = top + 10 + sum(h for _, h in blocks) + gap * len(blocks)
    for title, rows in sections:
        blocks.append(("head:" + title, HEAD_H * k))
        y += HEAD_H * k + gap
        ry = y + PAD
        for key, _, _, state in rows:
            if state is not None:
                x1 = WIDTH - pad - 12
                cy = ry + ROW_H * k / 2
                boxes[key] = [x1 - SW_W * k, cy - SW_H * k / 2, x1, cy + SW_H * k / 2]
            ry += ROW_H * k
        h = ROW_H * k * len(rows) + 2 * PAD
        blocks.append(("card:" + title, h))
        y += h + gap
    height = int(top + 10 + sum(h for _, h in blocks) + gap * len(blocks) + 24)
    return blocks, height, boxes


def _scaled(ctx: Ctx, height: int, boxes: dict[str, list[float]]) -> dict[str, list[int]]:
    """Logical boxes -> pixel boxes of the delivered (maybe shrunk) screenshot, a pixel of margin."""
    shrink = LOOKS[ctx.difficulty].shrink
    sx = int(WIDTH * shrink) / WIDTH if shrink < 1 else 1.0
    sy = int(height * shrink) / height if shrink < 1 else 1.0
    return {k: [int(b[0] * sx) - 1, int(b[1] * sy) - 1, int(b[2] * sx + 0.999) + 1, int(b[3] * sy + 0.999) + 1]
            for k, b in boxes.items()}


def _glyph(s: Screen, name: str, x: float, y: float, size: float) -> None:
    """A white app-icon glyph: the UI icons, plus the three they lack (no letters: OCR would read them)."""
    cv, white = s.canvas, (255, 255, 255)
    w = max(1.4, size / 9)
    if name == "wifi":  # a dot under two arcs
        cx, by = x + size / 2, y + size * 0.86
        for r in (size * 0.34, size * 0.62):
            cv.arc((cx - r, by - r, cx + r, by + r), 225, 315, white, w)
        cv.ellipse((cx - w, by - 2 * w, cx + w, by), fill=white)
    elif name == "bluetooth":  # the rune
        u = lambda a, b: (x + a * size, y + b * size)  # noqa: E731
        cv.line([u(0.28, 0.3), u(0.72, 0.68), u(0.5, 0.88), u(0.5, 0.12), u(0.72, 0.32), u(0.28, 0.7)], white, w)
    elif name == "battery":  # a body and its tip
        cv.rect((x + size * 0.1, y + size * 0.3, x + size * 0.8, y + size * 0.7), outline=white, width=w, radius=size * 0.08)
        cv.rect((x + size * 0.16, y + size * 0.36, x + size * 0.55, y + size * 0.64), fill=white)
        cv.rect((x + size * 0.82, y + size * 0.42, x + size * 0.9, y + size * 0.58), fill=white)
    else:
        s.icon(name, x, y, size, white)


def switch_state(image: Image.Image, box) -> bool:
    """Read a switch back from pixels: on when its track is saturated green (the knob is white)."""
    a = np.asarray(image.crop(tuple(box)).convert("RGB"), dtype=np.int16)
    g = a[..., 1] - np.maximum(a[..., 0], a[..., 2])
    return bool((g > 40).mean() > 0.25)


def draw_settings_screen(ctx: Ctx):
    """The Settings app: Wi-Fi, Cellular Data, Location Services, Low Power Mode among decoy switches."""
    d = _defaults(ctx)
    look = _look(ctx)
    sections = _rows(ctx, d)
    banner = look.clutter >= 1
    blocks, height, boxes = _layout(ctx, sections, banner)
    shown = [row for _, rows in sections for row in rows]
    px = _scaled(ctx, height, boxes)
    toggles = {label: state for _, label, _, state in shown if state is not None}
    for key, label, sub, state in shown:
        if key in DECOYS:
            ctx.distractors.append(f"{label}: {'on' if state else 'off'}")
        elif state is None:
            ctx.distractors.append(f"{label}: {sub}")
    facts = {"device": {k: d[k] for k in REAL}, "toggles": toggles,
             "decoys": [label for key, label, _, s in shown if key in DECOYS],
             "rows": [label for _, label, _, _ in shown], "network": d["network"] if d["wifi"] else "",
             "carrier": d["carrier"], "device_name": d["device_name"], "battery": d["battery"],
             "toggle_boxes": {label: px[key] for key, label, _, s in shown if s is not None},
             "app": "settings"}
    if drafting():
        return Image.new("RGB", (WIDTH, height), (240, 240, 240)), facts

    s = Screen(ctx, ON[look.dark])
    s.look = look
    c = s.colors
    k = look.type_scale
    names = NAMES.get(ctx.difficulty, 1.0)
    label_size = LABEL * names
    heights = dict(blocks)

    def profile(s_, x, y, w, dr):
        h = heights["profile"]
        if dr:
            s_.canvas.rect((x, y, x + w, y + h), fill=c["card"], outline=c["line"], radius=12)
            r0 = 48 * k
            s_.canvas.ellipse((x + 14, y + (h - r0) / 2, x + 14 + r0, y + (h + r0) / 2), fill=c["line"])
            s_.canvas.text((x + 14 + r0 * 0.34, y + (h - r0) / 2 + r0 * 0.2), d["device_name"][0], "sans-bold", 20 * k,
                           c["muted"])
            tx = x + 26 + r0
            s_.text(tx, y + h / 2 - 22 * k, d["device_name"], "sans-bold", 17 * names, c["text"], w - (tx - x) - 14, True)
            s_.text(tx, y + h / 2 + 2 * k, "Account, Cloud & Purchases", "sans", 12.5, c["muted"], w - (tx - x) - 14, True)
        return h

    def banner_block(s_, x, y, w, dr):
        h = heights["banner"]
        if dr:
            s_.canvas.rect((x, y, x + w, y + h), fill=c["card"], outline=c["line"], radius=12)
            s_.text(x + 14, y + h / 2 - 10 * k, "Finish Setting Up Your Phone", "sans", 15, c["text"], w - 70, True)
            s_.canvas.ellipse((x + w - 44, y + h / 2 - 10, x + w - 24, y + h / 2 + 10), fill=(255, 59, 48))
            s_.canvas.text((x + w - 38, y + h / 2 - 8), "1", "sans-bold", 12, (255, 255, 255))
        return h

    def header(title):
        def block(s_, x, y, w, dr):
            if dr:
                s_.text(x + 14, y + 4 * k, title, "sans", 12, c["muted"], w - 28, True)
            return heights["head:" + title]
        return block

    def card(title, rows):
        def block(s_, x, y, w, dr):
            h = heights["card:" + title]
            if not dr:
                return h
            cv = s_.canvas
            cv.rect((x, y, x + w, y + h), fill=c["card"], outline=c["line"], radius=12)
            rh = ROW_H * k
            for j, (key, label, sub, state) in enumerate(rows):
                if j:
                    cv.line([(x + 56, y + PAD + j * rh), (x + w, y + PAD + j * rh)], c["line"], 1)
                _row(s_, x, y + PAD + j * rh, w, rh, key, label, sub, state)
            return h
        return block

    def _row(s_, x, ry, w, rh, key, label, sub, state):
        cv = s_.canvas
        icon, colour = ICONS[key]
        isz = 26 * k
        iy = ry + (rh - isz) / 2
        cv.rect((x + 14, iy, x + 14 + isz, iy + isz), fill=colour, radius=7 * k)
        _glyph(s_, icon, x + 14 + isz * 0.15, iy + isz * 0.15, isz * 0.7)
        tx = x + 14 + isz + 16
        one = ry + (rh - label_size * k * 1.32) / 2  # a one-line label, centred
        if state is None:  # a value row: label left, value right
            vw = s_.width(sub, "sans", s_.size(16))
            s_.text(tx, one, label, "sans", label_size, c["text"], x + w - 12 - vw - 12 - tx, True)
            cv.text((x + w - 12 - vw, one), sub, "sans", s_.size(16), c["muted"])
            return
        x1 = x + w - 12
        right = x1 - SW_W * k - 10
        if sub:  # the network, carrier...: muted, right-aligned before the switch, on the name's line
            vw = s_.width(sub, "sans", s_.size(15))
            s_.text(tx, one, label, "sans", label_size, c["text"], right - vw - 12 - tx, True)
            cv.text((right - vw, one + k), sub, "sans", s_.size(15), c["muted"])
        else:
            s_.text(tx, one, label, "sans", label_size, c["text"], right - tx, True)
        cy = ry + rh / 2
        sw, sh = SW_W * k, SW_H * k
        cv.rect((x1 - sw, cy - sh / 2, x1, cy + sh / 2), fill=ON[look.dark] if state else OFF[look.dark], radius=sh / 2)
        kr = sh / 2 - 2.5 * k
        kx = x1 - sh / 2 if state else x1 - sw + sh / 2
        cv.ellipse((kx - kr, cy - kr, kx + kr, cy + kr), fill=KNOB[look.dark], outline=None if state else OFF_EDGE[look.dark])

    s.add(profile)
    if banner:
        s.add(banner_block)
    for title, rows in sections:
        s.add(header(title))
        s.add(card(title, rows))
    image = s.finish("Settings", back=False)
    return image, facts


FAMILY = Family("settings_screen", FIELDS, draw_settings_screen, check=_check)
