"""``sign``: scene text (storefront, street or notice sign) on a textured wall, optionally skewed."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
from PIL import Image, ImageDraw

from . import family
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
SKEW = {0: 0.06, 1: 0.08, 2: 0.12, 3: 0.16}  # level -> how far a skewed sign's corners are pulled in (share of the frame)

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


@family("sign", FIELDS)
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
    elif background in WALL_CONTRAST and not drafting():
        scene = Image.fromarray(_softened(texture_array(background, (W, H), ctx.np_rng("wall")), WALL_CONTRAST[background]))
    else:
        scene = texture(background, (W, H), ctx.np_rng("wall"))
    d = ImageDraw.Draw(scene)
    s = ctx.scale

    if style == "street":
        pw = 760
        lines = _balance(lines, "sans-bold", pw - 80, 110 * s, 60 * s, 2)
        main_font = fit_font("\n".join(lines), "sans-bold", pw - 80, 110 * s)
        main_lh = line_height(main_font, 1.05)
        ph = 70 + main_lh * len(lines) + (60 if subtext else 0)
        x0, y0 = (W - pw) // 2, 160 if len(lines) == 1 else 110
        d.rectangle((W // 2 - 14, y0 + ph, W // 2 + 14, H), fill=(110, 115, 120))  # pole
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=6, blur=6)
        d = ImageDraw.Draw(scene)
        d.rounded_rectangle(panel, radius=18, fill=panel_color, outline=(255, 255, 255), width=6)
        for k, line in enumerate(lines):
            d.text((W / 2, y0 + 35 + k * main_lh + main_lh / 2), line, font=main_font, fill=ink, anchor="mm")
        if subtext:
            d.text((W / 2, y0 + ph - 45), subtext, font=fit_font(subtext, "sans-bold", pw - 80, 40 * s), fill=ink, anchor="mm")
    elif style == "storefront":
        pw, ph = 900, 260
        x0, y0 = (W - pw) // 2, 90
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=10, blur=10)
        d = ImageDraw.Draw(scene)
        d.rectangle(panel, fill=panel_color)
        d.rectangle((x0 + 12, y0 + 12, x0 + pw - 12, y0 + ph - 12), outline=mix(panel_color, ink, 0.5), width=3)
        lines = _balance(lines, "serif-bold", pw - 100, 96 * s, 52 * s, 2)
        font = fit_font("\n".join(lines), "serif-bold", pw - 100, 96 * s)
        lh = line_height(font, 1.1)
        block = lh * len(lines) + (50 if subtext else 0)
        y = y0 + (ph - block) / 2
        for line in lines:
            d.text((W / 2, y), line, font=font, fill=ink, anchor="ma")
            y += lh
        if subtext:
            d.text((W / 2, y + 6), subtext, font=fit_font(subtext, "sans", pw - 120, 34 * s), fill=mix(ink, panel_color, 0.2), anchor="ma")
        # shop window and door below the board
        d.rectangle((x0 + 20, y0 + ph + 40, x0 + 560, H), fill=(60, 80, 95), outline=(40, 40, 40), width=8)
        d.rectangle((x0 + 620, y0 + ph + 40, x0 + pw - 20, H), fill=(90, 60, 40), outline=(40, 40, 40), width=8)
        d.ellipse((x0 + 640, y0 + ph + 220, x0 + 660, y0 + ph + 240), fill=(210, 180, 60))
    else:  # notice
        pw, ph = 640, 480
        x0, y0 = (W - pw) // 2, (H - ph) // 2
        panel = (x0, y0, x0 + pw, y0 + ph)
        drop_shadow(scene, panel, offset=8, blur=8)
        d = ImageDraw.Draw(scene)
        d.rectangle(panel, fill=panel_color, outline=(20, 20, 20), width=8)
        for sx, sy in ((x0 + 24, y0 + 24), (x0 + pw - 24, y0 + 24), (x0 + 24, y0 + ph - 24), (x0 + pw - 24, y0 + ph - 24)):
            d.ellipse((sx - 7, sy - 7, sx + 7, sy + 7), fill=(150, 150, 150))
        lines = _balance(lines, "sans-bold", pw - 100, 84 * s, 48 * s, 5)
        all_lines = lines + ([subtext] if subtext else [])
        font = fit_font("\n".join(lines), "sans-bold", pw - 100, 84 * s)
        lh = line_height(font, 1.15)
        y = y0 + (ph - lh * len(all_lines)) / 2
        for i, line in enumerate(all_lines):
            f = font if i < len(lines) else fit_font(line, "sans", pw - 100, 40 * s)
            d.text((W / 2, y), line, font=f, fill=ink, anchor="ma")
            y += lh
    n_clutter = clutter_count(ctx)
    if n_clutter:
        cr = ctx.rng("clutter")
        options = ["OPEN", f"No. {cr.randint(1, 999)}", "NO SMOKING", "CCTV IN OPERATION", f"Tel {cr.randint(200, 999)}-{cr.randint(1000, 9999)}",
                   "POST NO BILLS", "EXIT"]
        for i, tag in enumerate(cr.sample(options, min(n_clutter, len(options)))):
            f = ctx.font("sans-bold", cr.randint(22, 30))
            tw = f.getlength(tag) + 24
            spots = [(30, H - 90), (W - tw - 30, H - 90), (30, 30), (W - tw - 30, 30), (W / 2 - tw / 2, H - 60)]
            x, y = spots[i % len(spots)]
            bg = cr.choice([(255, 255, 255), (200, 30, 30), (20, 20, 20), (250, 210, 40)])
            d.rectangle((x, y, x + tw, y + f.size + 18), fill=bg)
            d.text((x + 12, y + 9), tag, font=f, fill=(20, 20, 20) if luminance(bg) > 150 else (255, 255, 255))
            ctx.distractors.append(tag)
    look = DEGRADE[ctx.difficulty]
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
