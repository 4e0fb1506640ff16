"""Layout that never collides: for every family and level, over many seeds, no two text boxes
overlap, every text lies inside its image and no word is broken across lines."""

from __future__ import annotations

import re

import pytest

from mmtsb_env.vision.render import kinds, render

from text_boxes import broken_words, recorded_text

SEEDS = range(6)
TEXTLESS = {"object_scene"}  # natural less-text: nothing to lay out


def _words(value, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        for v in value.values():
            _words(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _words(v, out)
    elif isinstance(value, str):
        out.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", value))
    return out


@pytest.mark.parametrize("kind", kinds())
def test_text_boxes_never_overlap_and_always_fit(kind):
    problems = []
    for difficulty in range(4):
        for seed in SEEDS:
            with recorded_text() as sheets:
                r = render({"kind": kind, "seed": seed, "difficulty": difficulty}, use_cache=False)
                r.image
            if kind not in TEXTLESS:
                assert any(s.texts for s in sheets), f"{kind}: no text recorded"
            words = _words(r.facts, set())
            for sheet in sheets:
                for a, b in sheet.overlaps():
                    problems.append(f"d{difficulty} seed {seed}: {a!r} overlaps {b!r}")
                for t in sheet.outside():
                    problems.append(f"d{difficulty} seed {seed}: {t!r} does not fit the image")
                for w in broken_words(sheet, words):
                    problems.append(f"d{difficulty} seed {seed}: word broken across lines: {w}")
    assert not problems, "\n".join(problems[:25])


LONG = "Neighbourhoodwide Association"
STRESS = {
    "table_document": {"title": "Community Center Classes - Winter Schedule Edition", "date": "September 28, 2026",
                       "headers": ["Class", "Day", "Time", "Fee"],
                       "rows": [["Conversational Italian for Travellers", "Wednesday", "18:00", 45],
                                ["Watercolor Basics", "Saturday", "09:00", 30]]},
    "event_poster": {"title": f"{LONG} Winter Celebration", "venue": "Greenfield Public Library Community Room B",
                     "organiser": f"{LONG} of Greater Springfield", "time": "13:00", "subtitle": "Hot cocoa, carols and crafts"},
    "poster_photo": {"title": f"{LONG} Winter Celebration", "time": "13:00"},
    "event_screen": {"title": f"{LONG} Winter Celebration", "venue": "Greenfield Public Library Community Room B"},
    "sign": {"text": "NEIGHBORHOOD WATCH\nCOMMUNITY PARTNERSHIPS", "style": "street"},
    "receipt": {"merchant": "Northside Fuel & Snacks Convenience Store",
                "items": [{"name": "Extra Large Hazelnut Cappuccino with Oat Milk", "qty": 2, "price": 5.75}]},
    "receipt_photo": {"merchant": "Northside Fuel & Snacks Convenience Store"},
    "order_screen": {"merchant": "Northside Fuel & Snacks Convenience Store",
                     "items": [{"name": "Extra Large Hazelnut Cappuccino with Oat Milk", "qty": 2, "price": 5.75}]},
    "invoice": {"company": "Quartz & Pine Architectural Design Studio", "bill_to": "Maximilian Featherstonehaugh\n1 Main St",
                "items": [{"description": "Architectural consultation and preliminary site survey", "qty": 3, "unit_price": 1250}]},
    "statement": {"company": "Quartz & Pine Architectural Design Studio",
                  "items": [{"description": "Architectural consultation and preliminary site survey", "qty": 3, "unit_price": 1250}]},
    "business_card": {"name": "Maximilian Featherstonehaugh", "title": "Senior Vice President, Strategic Partnerships",
                      "email": "maximilian.featherstonehaugh@quartzandpine.com"},
    "chat_screen": {"name": "Maximilian Featherstonehaugh", "company": "Quartz & Pine Architectural Design Studio",
                    "email": "maximilian.featherstonehaugh@quartzandpine.com"},
    "price_tag": {"product": "Organic Extra Virgin Olive Oil Cold Pressed 750ml", "brand": "Golden Press Estates"},
    "product_photo": {"product": "Organic Extra Virgin Olive Oil Cold Pressed 750ml", "brand": "Golden Press Estates"},
    "bar_chart": {"title": "Household Spending by Category (North Branch)", "labels": ["Transportation", "Groceries", "Entertainment", "Utilities", "Insurance", "Healthcare", "Education"],
                  "values": [320, 450, 120, 200, 90, 310, 150]},
    "chart_read": {"title": "Household Spending by Category (North Branch)", "labels": ["Transportation", "Groceries", "Entertainment", "Utilities", "Insurance", "Healthcare", "Education"],
                   "values": [320, 450, 120, 200, 90, 310, 150]},
    "handwritten_note": {"text": "pick up dry cleaning before Thursday\ncall the neighborhood association"},
    "infographic": {"title": "Household Spending by Category (North Branch) in the Second Half of the Year",
                    "labels": ["Transportation", "Groceries", "Entertainment", "Utilities", "Insurance", "Healthcare",
                               "Education", "Neighbourhoodwide", "Subscriptions", "Childcare", "Gifts", "Pets"],
                    "values": [32000, 450, 120, 200, 90, 310, 150, 75, 60, 1240, 35, 18], "units": "$"},
    "tally_photo": {"title": "Parcels Delivered to the Neighbourhoodwide Association Office by Weekday",
                    "labels": ["Wednesday", "Neighbourhoodwide", "Thursday", "Saturday", "Sunday", "Monday"],
                    "values": [10, 9, 8, 7, 6, 5]},
    "inbox": {"name": "Maximilian Featherstonehaugh", "company": "Quartz & Pine Architectural Design Studio",
              "title": "Senior Vice President, Strategic Partnerships",
              "email": "maximilian.featherstonehaugh@quartzandpine.com"},
    "calendar_day": {"title": f"{LONG} Winter Celebration", "venue": "Greenfield Public Library Community Room B",
                     "organiser": f"{LONG} of Greater Springfield", "time": "13:00"},
    "bank_feed": {"merchant": "Northside Fuel & Snacks Convenience Store",
                  "items": [{"name": "Extra Large Hazelnut Cappuccino with Oat Milk", "qty": 2, "price": 5.75}]},
}


@pytest.mark.parametrize("kind", sorted(STRESS))
def test_long_content_still_lays_out(kind):
    problems = []
    for difficulty in range(4):
        for seed in range(4):
            with recorded_text() as sheets:
                r = render({"kind": kind, "seed": seed, "difficulty": difficulty, "content": STRESS[kind]}, use_cache=False)
                r.image
            words = _words(r.facts, set())
            for sheet in sheets:
                problems += [f"d{difficulty} seed {seed}: {a!r} overlaps {b!r}" for a, b in sheet.overlaps()]
                problems += [f"d{difficulty} seed {seed}: {t!r} does not fit" for t in sheet.outside()]
                problems += [f"d{difficulty} seed {seed}: broken {w}" for w in broken_words(sheet, words)]
    assert not problems, "\n".join(problems[:25])


def test_poster_side_notes_agree_with_the_event():
    """Doors open before the event starts; the early-bird offer ends before its date."""
    import re
    from datetime import date

    seen = 0
    for seed in range(40):
        f = render({"kind": "event_poster", "seed": seed, "difficulty": 3}).facts
        start = int(f["time"][:2]) * 60 + int(f["time"][3:])
        for note in f.get("distractors", []):
            m = re.fullmatch(r"Doors open (\d+):(\d\d)(?: (AM|PM))?", note)
            if m:
                h = int(m.group(1)) % 12 + (12 if m.group(3) == "PM" else 0) if m.group(3) else int(m.group(1))
                assert 0 <= start - (h * 60 + int(m.group(2))) <= 60, (f["time_text"], note)
                seen += 1
            m = re.fullmatch(r"Early bird until (\w{3}) (\d+), (\d{4})", note)
            if m:
                month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].index(m.group(1)) + 1
                assert date(int(m.group(3)), month, int(m.group(2))) < date.fromisoformat(f["date"]), (f["date"], note)
                seen += 1
    assert seen >= 20


@pytest.mark.parametrize("obj", ["bottle", "mug", "box", "can", "bag"])
def test_a_products_brand_is_printed_on_a_plain_ground(obj, monkeypatch):
    """Nothing of the product is drawn over or under its brand but the ground it is printed on
    (a bottle's glint once ran through the first letter of "ALPINE SPRINGS")."""
    import numpy as np
    from PIL import Image, ImageDraw

    from mmtsb_env.vision.render.price_tag import OBJECT_SIZE, _draw_object

    def draw():
        image = Image.new("RGB", (OBJECT_SIZE[0] + 40, OBJECT_SIZE[1] + 40), (128, 128, 128))
        _draw_object(ImageDraw.Draw(image), obj, (20, 20, 20 + OBJECT_SIZE[0], 20 + OBJECT_SIZE[1]), (40, 90, 200),
                     "Alpine Springs", None)
        return image

    with recorded_text() as sheets:
        draw()
    (box, text), = [t for sheet in sheets for t in sheet.texts]
    assert text == "ALPINE SPRINGS"
    monkeypatch.setattr(ImageDraw.ImageDraw, "text", lambda *a, **k: None)
    x0, y0, x1, y1 = (round(v) for v in box)
    ground = np.asarray(draw())[y0:y1, x0:x1].reshape(-1, 3)
    assert len(np.unique(ground, axis=0)) == 1, np.unique(ground, axis=0)
