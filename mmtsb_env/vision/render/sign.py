"""``sign``: scene text (storefront, street or notice sign) on a textured wall, optionally skewed;
at level 3 photographed from further away (:data:`ZOOM`)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
from PIL import Image, ImageDraw

from ._family import Family
from ._common import (
    DEGRADE, Bool, Choice, Color, Ctx, Str, clutter_count, degrade, drafting, drop_shadow, fit_font, gradient, line_height,
    luminance, mix, rgb, skew, skew_corners, texture, texture_array, turned_view,
)

STOREFRONTS = ["Rosie's Flower Shop", "Golden Dragon Noodle House", "Main Street Barbers", "Second Chapter Books",
               "Sunset Laundromat", "The Daily Grind Coffee", "Ace Shoe Repair", "Little Italy Pizzeria",
               "Evergreen Pet Supplies", "Nova Optometry"]
TAGLINES = ["Est. 1987", "Open 7 days", "Fresh daily", "Family owned", "Walk-ins welcome", "Since 2004"]
STREETS = ["Maple Ave", "Willow St", "Harbor Blvd", "Cedar Ln", "Lincoln Way", "Orchard Rd", "Bay St", "Elm Ct"]
NOTICES = ["NO PARKING\n8 AM - 6 PM\nMON - FRI", "CAUTION\nWET FLOOR", "STAFF ONLY\nBEYOND THIS POINT",
           "STORE HOURS\nMON-SAT 9-8\nSUN 10-6", "PLEASE USE\nOTHER DOOR", "LOADING ZONE\n15 MIN LIMIT"]
STYLES = ("storefront", "street", "notice")
BACKGROUNDS = ("brick", "wood", "concrete", "sky")
# wall -> how much of its texture's contrast is kept: brick's pale mortar grid around the sign
# reads to OCR as rows of text (a sign on it read 0 % flat); weathered mortar keeps half of it
WALL_CONTRAST = {"brick": 0.5}
# walls laid in courses (bricks, planks), whose size shows how far away they are: seen from
# further away they are drawn finer; concrete's blotches show no scale (and mirrored copies of
# them read as a kaleidoscope)
COURSED = ("brick", "wood")
SKEW = {0: 0.06, 1: 0.08, 2: 0.12, 3: 0.16}  # level -> how far a skewed sign's corners are pulled in (share of the frame)
# level -> the sign's size in the scene, where not 1: seen from further away, a smaller sign low
# in a wider view of its wall or street (the scene is shrunk towards the middle of its foot)
ZOOM = {3: 0.22}
# a subtext's size, as a share of the main line's: tesseract reading a sign as one block of text
# (--psm 6) drops a line much smaller than the rest (a street sign's 40 px "1500 BLOCK" under its
# 110 px name was never read, even flat; at half the name's size it is)
SUBTEXT = 0.6
# level -> its scan, where not the level's own: level 3's sign is hard because it is far and small
# (13-17 px type: tesseract reads about a fifth of its values off the whole frame, nine in ten
# cropped to doc_box and zoomed 2x, seeds 0-9), so the photo stays full size and sharp, with mild
# JPEG, and turns only 2 degrees (the tools have nothing that turns it back: at 4, a tenth fewer read)
SCANS = {3: dataclasses.replace(DEGRADE[3], angle=2.0, blur=0.0, noise=6.0, quality=75, scale=1.0)}

FIELDS = {
    "text": Str(120), "subtext": Str(60, allow_empty=True), "style": Choice(STYLES), "background": Choice(BACKGROUNDS),
    "skew": Bool(), "color": Color(),
}


def _lines(text: str) -> list[str]:
    return [t.strip() for t in text.split("\n") if t.strip()]


def _balance(lines: list[str], style: str, max_w: float, size: float, min_size: float, max_lines: int) -> list[str]:
    """Keep the given lines if they fit at ``min_size`` or larger; else re-wrap the words into
    as few balanced lines (up to ``max_lines``) as make them fit."""
    if fit_font("\n".join(lines), style, max_w, size).size >= min_size or len(lines) >= max_lines:
        return lines
    words = " ".join(lines).split()
    best = lines
    for n in range(len(lines) + 1, max_lines + 1):
        limit = max(max(map(len, words)), -(-len(" ".join(words)) // n))
        while True:  # the narrowest greedy wrap that needs at most n lines
            out, current = [], ""
            for word in words:
                if current and len(current) + 1 + len(word) > limit:
                    out.append(current)
                    current = word
                else:
                    current = f"{current} {word}".strip()
            out.append(current)
            if len(out) <= n:
                break
            limit += 1
        best = out
        if fit_font("\n".join(out), style, max_w, size).size >= min_size:
            break
    return best


def _softened(wall: np.ndarray, keep: float) -> np.ndarray:
    """``wall`` (RGB uint8) with ``keep`` of its contrast about its mean colour, in one pass."""
    mean = cv2.mean(wall)[:3]
    matrix = np.hstack([np.eye(3) * keep, np.array(mean)[:, None] * (1 - keep)])
    return cv2.transform(wall, matrix)


def _wall(kind: str, size: tuple[int, int], rng: np.random.Generator, zoom: float) -> np.ndarray:
    """The wall behind a sign (RGB uint8): ``kind``'s texture, softened where :data:`WALL_CONTRAST`
    says; seen from further away (``zoom`` < 1), a pattern of :data:`COURSED` shrunk by about ``zoom``
    and tiled, each copy mirrored to meet its neighbours edge to edge."""
    wall = texture_array(kind, size, rng)
    k = round(1 / zoom)
    if k > 1 and kind in COURSED:
        w, h = size
        tile = cv2.resize(wall, (-(-w // k), -(-h // k)), interpolation=cv2.INTER_AREA)
        row = cv2.hconcat([cv2.flip(tile, 1) if i % 2 else tile for i in range(k)])
        wall = cv2.vconcat([cv2.flip(row, 0) if j % 2 else row for j in range(k)])[:h, :w]
    return _softened(wall, WALL_CONTRAST[kind]) if kind in WALL_CONTRAST else wall


def draw_sign(ctx: Ctx):
    """A sign photographed in a scene: storefront board, street name plate or notice."""
    style = ctx.get("style", lambda r: r.choice(STYLES))
    if style == "storefront":
        text = ctx.get("text", lambda r: r.choice(STOREFRONTS))
        subtext = ctx.get("subtext", lambda r: r.choice(TAGLINES))
    elif style == "street":
        text = ctx.get("text", lambda r: r.choice(STREETS))
        subtext = ctx.get("subtext", lambda r: f"{r.randint(1, 39) * 100} BLOCK" if r.random() < 0.6 else "")
    else:
        text = ctx.get("text", lambda r: r.choice(NOTICES))
        subtext = ctx.get("subtext", lambda r: "")
    background = ctx.get("background", lambda r: r.choice(["brick", "wood", "concrete"]) if style != "street" else "sky")
    do_skew = ctx.get("skew", lambda r: ctx.difficulty >= 1)
    lay = ctx.rng("layout")
    default_color = {"storefront": lay.choice(["#1b3a5c", "#7b1e1e", "#0f4d3a", "#2b2b2b", "#5a2d82"]),
                     "street": "#0b6e3a", "notice": lay.choice(["#f4c20d", "#ffffff", "#c62828"])}[style]
    panel_color = rgb(ctx.get("color", lambda r: default_color))
    ink = (255, 255, 255) if luminance(panel_color) < 150 else (20, 20, 20)
    lines = _lines(text) or [text.strip()]

    W, H = 1024, 768
    z = ZOOM.get(ctx.difficulty, 1.0)
    if background == "sky":
        scene = gradient((W, H), (120, 170, 225), (200, 225, 245))
        sd = ImageDraw.Draw(scene)
        br = ctx.rng("buildings")
        x = 0
        while x < W:  # distant buildings
            bw, bh = br.randint(80, 180), br.randint(150, 380)
            shade = br.randint(120, 170)
            sd.rectangle((x, H - bh, x + bw, H), fill=(shade, shade, shade + 8))
            for wy in range(H - bh + 20, H - 20, 40):
                for wx in range(x + 12, x + bw - 20, 30):
                    sd.rectangle((wx, wy, wx + 12, wy + 18), fill=(shade + 40, shade + 45, shade + 60))
            x += bw + br.randint(0, 20)
    elif drafting():
        scene = texture(background, (W, H), ctx.np_rng("wall"))
    else:
        scene = Image.fromarray(_wall(background, (W, H), ctx.np_rng("wall"), z))
    d = ImageDraw.Draw(scene)
    s = ctx.scale * z  # the type shrinks with the level and with the distance

    def near(v: float) -> int:  # a length of the sign drawn close up, as it is at this distance
        return round(v * z)

    def top(y: float) -> int:  # a height drawn close up, as it is at this distance (shrunk towards the foot of the wall)
        return H - near(H - y)

    if style == "street":
        pw = near(760)
        lines = _balance(lines, "sans-bold", pw - near(80), 110 * s, 60 * s, 2)
        main_font = fit_font("\n".join(lines), "sans-bold", pw - near(80), 110 * s)
        main_lh = line_height(main_font, 1.05)
        ph = near(70) + main_lh * len(lines) + (near(60) if subtext else 0)
        x0, y0 = (W - pw) // 2, top(160 if len(lines) == 1 else 110)
        d.rectangle((W // 2 - near(14), y0 + ph, W // 2 + near(14), H), fill=(110, 115, 120))  # pole
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=near(6), blur=near(6))
        d = ImageDraw.Draw(scene)
        d.rounded_rectangle(panel, radius=near(18), fill=panel_color, outline=(255, 255, 255), width=near(6))
        for k, line in enumerate(lines):
            d.text((W / 2, y0 + near(35) + k * main_lh + main_lh / 2), line, font=main_font, fill=ink, anchor="mm")
        if subtext:
            d.text((W / 2, y0 + ph - near(45)), subtext, font=fit_font(subtext, "sans-bold", pw - near(80), SUBTEXT * 110 * s), fill=ink, anchor="mm")
    elif style == "storefront":
        lines = _balance(lines, "serif-bold", near(800), 96 * s, 52 * s, 2)
        font = fit_font("\n".join(lines), "serif-bold", near(800), 96 * s)
        lh = line_height(font, 1.1)
        sub_font = fit_font(subtext, "sans", near(780), SUBTEXT * 96 * s) if subtext else None
        block = lh * len(lines) + (near(6) + line_height(sub_font, 1.0) if subtext else 0)
        pw, ph = near(900), max(near(260), block + near(60))  # a taller board for a name on two lines
        x0, y0 = (W - pw) // 2, top(90)
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=near(10), blur=near(10))
        d = ImageDraw.Draw(scene)
        d.rectangle(panel, fill=panel_color)
        d.rectangle((x0 + near(12), y0 + near(12), x0 + pw - near(12), y0 + ph - near(12)), outline=mix(panel_color, ink, 0.5), width=near(3))
        y = y0 + (ph - block) / 2
        for line in lines:
            d.text((W / 2, y), line, font=font, fill=ink, anchor="ma")
            y += lh
        if subtext:
            d.text((W / 2, y + near(6)), subtext, font=sub_font, fill=mix(ink, panel_color, 0.2), anchor="ma")
        # shop window and door below the board
        below = y0 + ph + near(40)
        d.rectangle((x0 + near(20), below, x0 + near(560), H), fill=(60, 80, 95), outline=(40, 40, 40), width=near(8))
        d.rectangle((x0 + near(620), below, x0 + pw - near(20), H), fill=(90, 60, 40), outline=(40, 40, 40), width=near(8))
        d.ellipse((x0 + near(640), below + near(180), x0 + near(660), below + near(200)), fill=(210, 180, 60))
    else:  # notice
        pw, ph = near(640), near(480)
        x0, y0 = (W - pw) // 2, top((H - 480) // 2)
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=near(8), blur=near(8))
        d = ImageDraw.Draw(scene)
        d.rectangle(panel, fill=panel_color, outline=(20, 20, 20), width=near(8))
        inset, screw = near(24), near(7)
        for sx, sy in ((x0 + inset, y0 + inset), (x0 + pw - inset, y0 + inset), (x0 + inset, y0 + ph - inset), (x0 + pw - inset, y0 + ph - inset)):
            d.ellipse((sx - screw, sy - screw, sx + screw, sy + screw), fill=(150, 150, 150))
        lines = _balance(lines, "sans-bold", pw - near(100), 84 * s, 48 * s, 5)
        all_lines = lines + ([subtext] if subtext else [])
        font = fit_font("\n".join(lines), "sans-bold", pw - near(100), 84 * s)
        lh = line_height(font, 1.15)
        y = y0 + (ph - lh * len(all_lines)) / 2
        for i, line in enumerate(all_lines):
            f = font if i < len(lines) else fit_font(line, "sans", pw - near(100), 40 * s)
            d.text((W / 2, y), line, font=f, fill=ink, anchor="ma")
            y += lh
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        options = ["OPEN", f"No. {cr.randint(1, 999)}", "NO SMOKING", "CCTV IN OPERATION", f"Tel {cr.randint(200, 999)}-{cr.randint(1000, 9999)}",
                   "POST NO BILLS", "EXIT"]
        for i, tag in enumerate(cr.sample(options, min(n_clutter, len(options)))):
            f = ctx.font("sans-bold", cr.randint(22, 30) * z)
            tw = f.getlength(tag) / z + 24  # its width close up
            spots = [(30, H - 90), (W - tw - 30, H - 90), (30, 30), (W - tw - 30, 30), (W / 2 - tw / 2, H - 60)]
            sx, sy = spots[i % len(spots)]
            x, y = W / 2 + (sx - W / 2) * z, H - (H - sy) * z  # where it is at this distance
            bg = cr.choice([(255, 255, 255), (200, 30, 30), (20, 20, 20), (250, 210, 40)])
            d.rectangle((x, y, x + tw * z, y + f.size + 18 * z), fill=bg)
            d.text((x + 12 * z, y + 9 * z), tag, font=f, fill=(20, 20, 20) if luminance(bg) > 150 else (255, 255, 255))
            ctx.distractors.append(tag)
    look = SCANS.get(ctx.difficulty, DEGRADE[ctx.difficulty])
    strength = SKEW[ctx.difficulty] if do_skew else 0.0
    skewed = skew_corners(scene.size, ctx.rng("skew"), strength) if do_skew else None
    persp = cv2.getPerspectiveTransform(*(np.float32(c) for c in skewed)) if skewed else None
    view, box, frame = turned_view(ctx, scene.size, panel, look, persp)
    if not do_skew:
        image = degrade(scene, ctx, view=view, scan=dataclasses.replace(look, angle=0.0))
    else:
        fill = tuple(int(c) for c in mix(scene.getpixel((2, 2)), scene.getpixel((W - 3, H - 3)), 0.5))
        if ctx.difficulty == 0 or drafting():  # no turn to fold the view into
            image = degrade(skew(scene, ctx.rng("skew"), strength, fill), ctx)
        else:  # the view and the level's turn in one warp
            image = degrade(scene, ctx, fill, view=view, scan=dataclasses.replace(look, angle=0.0))
    facts = {"text": text, "lines": lines, "subtext": subtext or None, "style": style,
             "background": background, "skewed": do_skew, "doc_box": box, "frame": frame}
    return image, facts


FAMILY = Family("sign", FIELDS, draw_sign)
