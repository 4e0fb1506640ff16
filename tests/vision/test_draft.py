"""The draft pass measures text like the drawing pass and draws nothing (its facts come cheap)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from mmtsb_env.vision.fonts import get_font
from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._common import draft, drawer

from text_boxes import recorded_text


def test_drawer_measures_like_imagedraw_and_draws_nothing_in_the_draft():
    img = Image.new("RGB", (200, 80), (255, 255, 255))
    font = get_font("sans-bold", 24)
    real = ImageDraw.Draw(img)
    with draft():
        d = drawer(img)
        assert d.textbbox((10, 10), "Wi-Fi 42", font=font, anchor="la") == real.textbbox((10, 10), "Wi-Fi 42", font=font, anchor="la")
        assert d.textlength("Low Power Mode", font=font) == real.textlength("Low Power Mode", font=font)
        d.text((10, 10), "ink", font=font, fill=(0, 0, 0))
        d.rectangle((0, 0, 50, 50), fill=(0, 0, 0))
    assert img.getextrema() == ((255, 255), (255, 255), (255, 255))
    drawer(img).text((10, 10), "ink", font=font, fill=(0, 0, 0))  # outside the draft it draws
    assert img.getextrema()[0][0] < 100


def test_draft_of_text_heavy_families_draws_no_text_and_gives_the_drawn_facts():
    for kind in ("event_poster", "handwritten_note", "statement", "invoice", "receipt", "business_card"):
        for seed in range(2):
            spec = {"kind": kind, "seed": seed, "difficulty": 1}
            with recorded_text() as sheets:
                facts = render(spec, use_cache=False).facts
            assert not [t for s in sheets for _, t in s.texts], kind
            drawn = render(spec, use_cache=False)
            drawn.image
            assert drawn.facts == facts
