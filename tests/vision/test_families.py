"""The render families added for the paper's image groups: ground truth, determinism, levels.

Photos and app screens draw the same records as the flat families (same content, same
defaults, same facts plus where/how they are shown); object scenes and read-off charts carry
ground truth that is not text, checked against the pixels.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest

from mmtsb_env.vision.render import FAMILIES, kinds, render
from mmtsb_env.vision.render.chart_read import grid
from mmtsb_env.vision.render.groups import GROUP_NAMES, GROUPS, group_of
from mmtsb_env.vision.render.object_scene import COLORS, hue, level_metrics

# new family -> the flat family whose record it shows
SAME_RECORD = {"receipt_photo": "receipt", "order_screen": "receipt", "poster_photo": "event_poster",
               "event_screen": "event_poster", "note_photo": "handwritten_note", "chat_screen": "business_card",
               "statement": "invoice", "product_photo": "price_tag", "bank_feed": "receipt",
               "calendar_day": "event_poster", "inbox": "business_card", "infographic": "bar_chart",
               "spreadsheet_screen": "table_document", "mail_client": "business_card", "file_manager": "invoice",
               "ide_screen": "table_document"}
NEW = sorted(SAME_RECORD) + ["chart_read", "object_scene", "tally_photo", "playlist_screen", "settings_panel"]  # playlist: tests/vision/test_new_families.py


def test_every_family_has_a_group_and_every_group_a_new_family():
    assert set(GROUPS) == set(kinds())
    assert set(GROUPS.values()) == set(GROUP_NAMES)
    for g in GROUP_NAMES:
        assert [k for k in NEW if group_of(k) == g], g
    with pytest.raises(ValueError, match="unknown render kind 'hologram'; known: bank_feed, bar_chart"):
        group_of("hologram")


@pytest.mark.parametrize("kind", sorted(SAME_RECORD))
def test_same_record_as_the_flat_family(kind):
    flat = SAME_RECORD[kind]
    for seed in range(3):
        for difficulty in (0, 3):
            mine = render({"kind": kind, "seed": seed, "difficulty": difficulty}).facts
            theirs = render({"kind": flat, "seed": seed}).facts
            shared = {k: v for k, v in theirs.items() if k not in ("kind", "distractors", "doc_box", "frame")}  # where its picture lay is not the record
            assert {k: mine[k] for k in shared} == shared, (kind, seed, difficulty)
    given = {"receipt": {"merchant": "Corner Deli", "items": [{"name": "Tea", "qty": 2, "price": 1.5}], "tax_rate": 10},
             "event_poster": {"title": "Night Market", "date": "2026-07-04", "time": "19:30", "price": 0, "venue": "Pier 9"},
             "handwritten_note": {"text": "buy milk\ncall Sam", "title": ""},
             "business_card": {"name": "Ada Lovelace", "company": "Engine Works", "email": "ada@engine.works"},
             "invoice": {"company": "Acme Web", "invoice_number": "INV-7", "tax_rate": 20,
                         "items": [{"description": "Design", "qty": 3, "unit_price": 100}]},
             "price_tag": {"product": "Oat Milk 1L", "price": 3.49, "old_price": 4.99, "currency": "€"},
             "bar_chart": {"title": "Loans", "labels": ["Mystery", "Poetry"], "values": [40, 10], "units": ""},
             "table_document": {"title": "Rota", "headers": ["Name", "Day", "Hours"], "rows": [["Sam Ortiz", "Monday", 4]]}}[flat]
    mine = render({"kind": kind, "content": given, "difficulty": 1}).facts
    theirs = render({"kind": flat, "content": given}).facts
    record = {k: v for k, v in theirs.items() if k not in ("kind", "distractors", "doc_box", "frame")}
    assert {k: mine[k] for k in record} == record


# desktop screenshots: a full screen (1,920 px wide; 2,560 at level 3), as the paper's UI group
DESKTOP = {"spreadsheet_screen": 2560, "mail_client": 2560, "file_manager": 2560, "ide_screen": 2560, "settings_panel": 2560}


@pytest.mark.parametrize("kind", NEW)
def test_deterministic_seed_sensitive_and_sized(kind):
    for difficulty in range(4):
        spec = {"kind": kind, "seed": 8, "difficulty": difficulty}
        a, b = render(spec, use_cache=False), render(dict(spec), use_cache=False)
        assert a.image.tobytes() == b.image.tobytes() and a.facts == b.facts
        c = render({**spec, "seed": 9}, use_cache=False)
        assert a.image.size != c.image.size or a.image.tobytes() != c.image.tobytes()
        assert 300 <= max(a.image.size) <= DESKTOP.get(kind, 1400) and a.image.mode == "RGB"


@pytest.mark.parametrize("kind", NEW)
def test_levels_change_the_pixels(kind):
    images = [render({"kind": kind, "seed": 4, "difficulty": d}).image for d in range(4)]
    for x, y in zip(images, images[1:]):
        assert x.size != y.size or x.tobytes() != y.tobytes()


@pytest.mark.parametrize("kind, content, needle", [
    ("receipt_photo", {"merchant": 5}, "receipt_photo spec: content.merchant must be a string"),
    ("order_screen", {"items": []}, "content.items must have 1 to 40 entries"),
    ("object_scene", {"objects": [{"shape": "cube", "color": "red"}]}, "content.objects[0].shape must be one of"),
    ("object_scene", {"objects": [{"shape": "ball"}]}, "content.objects[0] is missing required field(s): color"),
    ("chart_read", {"labels": ["a"], "values": [1, 2]}, "content.values has 2 numbers but content.labels has 1"),
    ("statement", {"tax_rate": 90}, "content.tax_rate must be at most 50"),
])
def test_bad_content_names_the_field(kind, content, needle):
    with pytest.raises(ValueError) as err:
        render({"kind": kind, "content": content})
    assert needle in str(err.value), str(err.value)


def test_photos_report_where_the_document_lies_and_it_shrinks_with_level():
    for kind in ("receipt_photo", "poster_photo", "note_photo"):
        areas = []
        for d in range(4):
            r = render({"kind": kind, "seed": 2, "difficulty": d})
            x0, y0, x1, y1 = r.facts["doc_box"]
            W, H = r.image.size
            assert [W, H] == r.facts["frame"] and 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H
            areas.append((x1 - x0) * (y1 - y0))
            # the document is brighter than most surfaces: its box holds more light pixels than the frame
            grey = np.asarray(r.image.convert("L"), dtype=float)
            if kind == "receipt_photo":
                assert grey[y0:y1, x0:x1].mean() > grey.mean()
        if kind == "note_photo":  # the camera stays nearer to handwriting: levels 0-2 fill the frame alike
            assert areas[3] < 0.8 * min(areas[:3]), (kind, areas)
        else:
            assert areas == sorted(areas, reverse=True), (kind, areas)


def test_object_scene_ground_truth_matches_the_pixels():
    """Every object's colour is recoverable from its pixels (hue at its centre) at every level."""
    for d in range(4):
        for seed in range(4):
            r = render({"kind": "object_scene", "seed": seed, "difficulty": d})
            f, arr = r.facts, np.asarray(r.image, dtype=float)
            assert f["count"] == len(f["objects"]) == sum(f["by_shape"].values()) == sum(f["by_color"].values())
            for o in f["objects"]:
                x0, y0, x1, y1 = o["box"]
                cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
                if o["shape"] == "mug":
                    cx = x0 + int((x1 - x0) * 0.36)
                if o["shape"] == "apple":
                    cy = y0 + int((y1 - y0) * 0.6)
                patch = arr[cy - 3:cy + 4, cx - 3:cx + 4].reshape(-1, 3).mean(0)
                h = colorsys.rgb_to_hsv(*(patch / 255))[0] * 360
                nearest = min(COLORS, key=lambda n: min(abs(hue(COLORS[n]) - h), 360 - abs(hue(COLORS[n]) - h)))
                assert nearest == o["color"], (d, seed, o, patch)


def test_object_scene_difficulty_is_measured():
    """More objects, smaller objects and closer colour classes at each level (means over seeds)."""
    means = []
    for d in range(4):
        ms = [level_metrics(render({"kind": "object_scene", "seed": s, "difficulty": d}).facts) for s in range(12)]
        means.append({k: sum(m[k] for m in ms) / len(ms) for k in ms[0]})
    assert [m["objects"] for m in means] == sorted(m["objects"] for m in means) and means[3]["objects"] >= 15
    assert [m["min_side"] for m in means] == sorted((m["min_side"] for m in means), reverse=True)
    assert means[0]["min_hue_gap"] > means[1]["min_hue_gap"] >= means[3]["min_hue_gap"]


def test_object_scene_counts_follow_given_objects():
    objs = [{"shape": "ball", "color": "red"}, {"shape": "ball", "color": "blue"}, {"shape": "star", "color": "red"}]
    f = render({"kind": "object_scene", "content": {"objects": objs}}).facts
    assert f["by_shape"] == {"ball": 2, "star": 1} and f["by_color"] == {"blue": 1, "red": 2}
    assert f["by_kind"] == {"blue ball": 1, "red ball": 1, "red star": 1}
    left = min(f["objects"], key=lambda o: o["box"][0] + o["box"][2])
    assert f["leftmost"] == f"{left['color']} {left['shape']}"
    boxes = [o["box"] for o in f["objects"]]
    for i, a in enumerate(boxes):  # objects never overlap, so every one can be counted
        for b in boxes[i + 1:]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])


def test_chart_read_bars_stand_on_their_gridlines():
    """The values are not printed (level 1+), but each bar's top lies on the gridline of its value."""
    values = [120.0, 340.0, 60.0, 260.0]
    for d in (1, 2):
        r = render({"kind": "chart_read", "content": {"labels": ["A", "B", "C", "D"], "values": values}, "difficulty": d})
        f = r.facts
        assert f["values"] == values and f["on_grid"] and not f["value_labels"] and f["max_label"] == "B"
        top, major, minor = grid(values)
        assert (f["axis_top"], f["major_step"], f["minor_step"]) == (top, major, minor)
        arr = np.asarray(r.image, dtype=int)
        # bar pixels: the main colour (sampled in the tallest bar); count them in each bar's column
        sat = arr.max(2) - arr.min(2)
        rows, xs = np.nonzero(sat > 60)
        colour = arr[rows[np.argmax(rows)] - 2, xs[np.argmax(rows)]]
        main = (np.abs(arr - colour).sum(2) < 12)
        columns = main.sum(0)
        runs = np.nonzero(columns > 30)[0]  # not the legend swatch
        bars = np.split(runs, np.nonzero(np.diff(runs) > 1)[0] + 1)
        assert len(bars) == 4, (d, len(bars))
        heights = [int(np.median(columns[b])) for b in bars]
        ratio = [h / heights[1] for h in heights]
        assert np.allclose(ratio, [v / values[1] for v in values], atol=0.02), (d, ratio)
    assert render({"kind": "chart_read", "difficulty": 3}).facts["dual_axis"]
    assert render({"kind": "chart_read", "difficulty": 2}).facts["previous"] is not None


def test_statement_and_product_photo_extra_ground_truth():
    f = render({"kind": "statement", "seed": 3}).facts
    assert f["payment_method"] in ("Card", "Check", "Bank transfer") and isinstance(f["autopay"], bool)
    p = render({"kind": "product_photo", "seed": 3, "difficulty": 3}).facts
    assert 1 <= p["slot"] <= p["n_products"] == 5 and p["position"] in ("left", "middle", "right")
    assert len(p["distractors"]) == 4 and all(p["price_text"] not in t for t in p["distractors"])


def test_screens_show_the_records_details():
    o = render({"kind": "order_screen", "content": {"merchant": "Corner Deli", "date": "2026-03-14", "time": "09:05",
                                                    "items": [{"name": "Tea", "price": 2.5}]}}).facts
    assert o["placed_text"] == "Mar 14, 2026 at 9:05 AM" and o["subtotal"] == 2.5 and o["app"] == "orders"
    e = render({"kind": "event_screen", "content": {"date": "2026-07-04", "price": 0}}).facts
    assert e["day_text"] == "Saturday, July 4, 2026" and e["price_line"] == "Free"
    c = render({"kind": "chat_screen", "content": {"name": "Ada Lovelace", "company": "Engine Works"}}).facts
    assert c["intro"] == "Hi! It's Ada from Engine Works. Here are my details:"


def test_all_new_families_draw_lazily():
    for kind in NEW:
        r = render({"kind": kind, "seed": 123, "difficulty": 2}, use_cache=False)
        assert r.facts["kind"] == kind and not r.drawn
        assert FAMILIES[kind].description
