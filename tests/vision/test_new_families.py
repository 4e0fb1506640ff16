"""The infographic and the mail, calendar and bank screens: what they draw is what their facts say.

Each shows an existing record (a chart, a contact, an event, a purchase) with the flat family's
facts (``test_families.py``); here the texts actually drawn (recorded from Pillow) are checked
to carry the values a scenario asks about, the extra facts are checked against the record, and
the level effects (clutter as distractors, the shrunk screenshot) are checked to happen.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest

from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._common import money
from mmtsb_env.vision.render.charts import _fmt
from mmtsb_env.vision.render.infographic import shares
from mmtsb_env.vision.render.object_scene import COLORS, hue

from text_boxes import recorded_text

NEW = ("infographic", "inbox", "calendar_day", "bank_feed", "playlist_screen")


def drawn(spec: dict) -> tuple[dict, list[str]]:
    """The facts and every text string drawn for ``spec``."""
    with recorded_text() as sheets:
        r = render(spec, use_cache=False)
        r.image
    return r.facts, [t for s in sheets for _, t in s.texts]


def shown(texts: list[str], value: str) -> bool:
    return any(value in t for t in texts)


# family -> the values a scenario reads off it (as printed)
NEEDED = {
    "infographic": lambda f: list(f["labels"]) + [_fmt(v, f["units"]) for v in f["values"]],
    "inbox": lambda f: [f["name"], f["title"], f["company"], f["phone"], f["email"], f["subject"], f["received"]],
    "calendar_day": lambda f: [f["title"], f["venue"], f["organiser"], f["day_text"], f["when_text"], f["price_line"]],
    "bank_feed": lambda f: [f["merchant"], money(f["total"], f["currency"]), f["posted_text"], f["method_text"]]
    + [money(i["amount"], f["currency"]) for i in f["items"]] + [i["name"] for i in f["items"]],
    "playlist_screen": lambda f: [v for track in f["tracks"] for v in track if v],
}


@pytest.mark.parametrize("kind", NEW)
def test_every_needed_value_is_drawn_at_every_level(kind):
    for seed in range(3):
        for d in range(4):
            facts, texts = drawn({"kind": kind, "seed": seed, "difficulty": d})
            missing = [v for v in NEEDED[kind](facts) if not shown(texts, v)]
            assert not missing, (kind, seed, d, missing)


@pytest.mark.parametrize("kind", NEW)
def test_clutter_is_recorded_as_distractors_and_drawn(kind):
    facts, texts = drawn({"kind": kind, "seed": 5, "difficulty": 0})
    assert "distractors" not in facts or kind == "infographic"
    facts, texts = drawn({"kind": kind, "seed": 5, "difficulty": 2})
    assert facts["distractors"]
    joined = " ".join(texts)
    for distractor in facts["distractors"]:
        for word in (w.strip(":·,") for w in distractor.split()[:2]):
            assert word in joined, (kind, distractor)


def test_infographic_shares_callout_and_pictogram():
    content = {"title": "Library Loans", "labels": ["Mystery", "Romance", "Poetry"], "values": [300, 150, 50], "units": ""}
    facts, texts = drawn({"kind": "infographic", "content": content})
    assert facts["shares"] == {"Mystery": 60.0, "Romance": 30.0, "Poetry": 10.0}
    assert facts["max_label"] == "Mystery" and facts["max_value"] == 300 and facts["total"] == 500
    # the headline names no item or value (issue #29: "Mystery leads with 300" answered compare flows)
    assert facts["callout"] == "How the total splits across 3 categories" and facts["pictogram_tens"] == 6
    for share in ("60% of total", "30% of total", "10% of total"):
        assert share in texts
    assert facts["callout"] in " ".join(texts) or any(t.startswith("How the total") for t in texts)


def test_infographic_gives_no_share_where_one_means_nothing():
    assert shares([20.5, -3.0], "°C") is None and shares([40, 60], "%") is None and shares([0, 0], "") is None
    facts, texts = drawn({"kind": "infographic", "content": {"title": "Temps", "labels": ["May", "Jun"],
                                                            "values": [12.5, 18.0], "units": "°C"}})
    assert facts["shares"] is None and facts["pictogram_tens"] is None
    assert facts["callout"] == "2 figures side by side, in °C" and not any("of total" in t for t in texts)


def test_screens_show_the_records_details():
    b = render({"kind": "bank_feed", "content": {"merchant": "Corner Deli", "date": "2026-03-14", "time": "09:05",
                                                 "items": [{"name": "Tea", "qty": 2, "price": 2.5}], "payment": "CASH"}}).facts
    assert b["posted_text"] == "Mar 14, 2026 · 9:05 AM" and b["method_text"] == "Cash · added manually"
    assert b["subtotal"] == 5.0 and b["app"] == "bank"
    assert render({"kind": "bank_feed", "content": {"payment": "VISA **** 4821"}}).facts["method_text"] == "VISA **** 4821"
    c = render({"kind": "calendar_day", "content": {"date": "2026-07-04", "time": "19:30", "price": 0}}).facts
    assert c["day_text"] == "Saturday, July 4, 2026" and c["price_line"] == "Free entry" and c["app"] == "calendar"
    assert c["when_text"] in ("7:30 PM", "19:30")
    m = render({"kind": "inbox", "content": {"name": "Ada Lovelace", "company": "Engine Works"}}).facts
    assert m["name"] == "Ada Lovelace" and m["app"] == "mail" and m["received"].endswith("AM")


def test_playlist_shows_the_notes_lines_as_tracks():
    content = {"title": "Songs to try", "text": "Golden Hour - Mira Vale\nNorthbound - Kai Osei\nuntitled demo"}
    facts, texts = drawn({"kind": "playlist_screen", "content": content, "difficulty": 1})
    note = render({"kind": "handwritten_note", "content": content}).facts
    assert {k: facts[k] for k in ("title", "text", "lines")} == {k: note[k] for k in ("title", "text", "lines")}
    assert facts["tracks"] == [["Golden Hour", "Mira Vale"], ["Northbound", "Kai Osei"], ["untitled demo", ""]]
    assert facts["playlist"] == "Songs to try" and "3 songs" in " ".join(texts) and facts["app"] == "music"
    for seed in range(4):  # its defaults are song lists
        assert all(artist for _, artist in render({"kind": "playlist_screen", "seed": seed}).facts["tracks"])


def test_calendar_entries_never_sit_at_the_events_hour():
    for seed in range(12):
        facts = render({"kind": "calendar_day", "seed": seed, "difficulty": 3}).facts
        hour = int(facts["time"][:2])
        for d in facts["distractors"]:
            h, rest = d.split(":", 1)
            h = int(h) % 12 + (12 if rest[3:5] == "PM" else 0) if rest[3:5] in ("AM", "PM") else int(h)
            assert abs(h - hour) >= 2, (seed, facts["time"], d)


def test_level_three_screens_are_shrunk_and_recompressed():
    for kind in NEW:
        a = render({"kind": kind, "seed": 2, "difficulty": 0}).image
        b = render({"kind": kind, "seed": 2, "difficulty": 3}).image
        assert b.width < 0.7 * a.width, kind


@pytest.mark.parametrize("kind, content, needle", [
    ("infographic", {"labels": ["a"] * 13, "values": [1] * 13}, "content.labels must have 1 to 12 entries"),
    ("infographic", {"labels": ["a", "b"], "values": [1]}, "content.values has 1 numbers but content.labels has 2"),
    ("bank_feed", {"items": []}, "bank_feed spec: content.items must have 1 to 40 entries"),
    ("calendar_day", {"time": "25:00"}, "calendar_day spec: content.time"),
    ("inbox", {"email": 7}, "inbox spec: content.email must be a string"),
    ("playlist_screen", {"text": 5}, "playlist_screen spec: content.text must be a string"),
])
def test_bad_content_names_the_field(kind, content, needle):
    with pytest.raises(ValueError) as err:
        render({"kind": kind, "content": content})
    assert needle in str(err.value), str(err.value)


# ---------------------------------------------------------------------------- tally_photo


def _hue_at(arr, o) -> str:
    x0, y0, x1, y1 = o["box"]
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if o["shape"] == "mug":
        cx = x0 + int((x1 - x0) * 0.36)
    if o["shape"] in ("apple", "bottle", "box"):
        cy = y0 + int((y1 - y0) * 0.62)
        cx = x0 + int((x1 - x0) * (0.4 if o["shape"] == "box" else 0.5))
    patch = arr[cy - 2:cy + 3, cx - 2:cx + 3].reshape(-1, 3).mean(0)
    h = colorsys.rgb_to_hsv(*(patch / 255))[0] * 360
    return min(COLORS, key=lambda n: min(abs(hue(COLORS[n]) - h), 360 - abs(hue(COLORS[n]) - h)))


def test_tally_photo_counts_are_the_objects_in_each_column():
    """Each value is the number of objects stacked in its column; no object touches another,
    strays lie outside every column, and each object's colour is recoverable from its pixels."""
    for d in range(4):
        for seed in range(4):
            r = render({"kind": "tally_photo", "seed": seed, "difficulty": d})
            f, arr = r.facts, np.asarray(r.image, dtype=float)
            assert [c["count"] for c in f["columns"]] == [int(v) for v in f["values"]] == list(f["counts"].values())
            assert len(f["strays"]) == {0: 0, 1: 2, 2: 3, 3: 4}[d]
            for col in f["columns"]:
                mine = [o for o in f["objects"] if o["column"] == col["label"]]
                assert len(mine) == col["count"] and all(o["color"] == col["color"] for o in mine)
            boxes = [o["box"] for o in f["objects"] + f["strays"]]
            for i, a in enumerate(boxes):
                for b in boxes[i + 1:]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (d, seed, a, b)
            for s in f["strays"]:
                for col in f["columns"]:
                    a, b = s["box"], col["box"]
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            wrong = [o for o in f["objects"] if _hue_at(arr, o) != o["color"]]
            assert len(wrong) <= len(f["objects"]) // 10, (d, seed, wrong[:3])


def test_tally_photo_shows_the_bar_charts_record():
    content = {"title": "Marbles by Colour", "labels": ["Red", "Blue", "Green"], "values": [3, 7, 5], "units": ""}
    mine = render({"kind": "tally_photo", "content": content, "difficulty": 1}).facts
    theirs = render({"kind": "bar_chart", "content": content}).facts
    same = [k for k in theirs if k not in ("kind", "value_labels")]  # no value is printed on the photo
    assert {k: mine[k] for k in same} == {k: theirs[k] for k in same} and mine["value_labels"] is False
    assert [c["color"] for c in mine["columns"]] == ["red", "blue", "green"]  # colour-named categories keep their colour
    assert mine["max_label"] == "Blue" and mine["total"] == 15
    facts, texts = drawn({"kind": "tally_photo", "content": content, "difficulty": 2})
    assert "Marbles by Colour" in texts and {"Red", "Blue", "Green"} <= set(texts)
    assert not any(t.strip().isdigit() for t in texts)  # the counts are never printed


@pytest.mark.parametrize("content, needle", [
    ({"labels": ["a", "b"], "values": [2.5, 3]}, "content.values must be whole numbers 1-10 (objects to count), got 2.5"),
    ({"labels": ["a", "b"], "values": [2, 30]}, "content.values[1] must be at most 10"),
    ({"labels": ["a", "b", "c"], "values": [1, 2]}, "content.values has 2 numbers but content.labels has 3"),
])
def test_tally_photo_rejects_what_cannot_be_counted(content, needle):
    with pytest.raises(ValueError) as err:
        render({"kind": "tally_photo", "content": content})
    assert needle in str(err.value), str(err.value)


def test_tally_photo_difficulty_is_measured():
    from mmtsb_env.vision.render.tally_photo import level_metrics

    content = {"labels": ["Owls", "Foxes", "Bears", "Otters"], "values": [3, 8, 5, 10]}
    m = [level_metrics(render({"kind": "tally_photo", "content": content, "seed": 1, "difficulty": d}).facts)
         for d in range(4)]
    sides = [x["min_side"] for x in m]
    assert sides == sorted(sides, reverse=True) and sides[3] < 0.7 * sides[0], sides
    assert [x["strays"] for x in m] == [0, 2, 3, 4]
    assert m[3]["min_hue_gap"] < m[0]["min_hue_gap"], m  # level 2+ columns take neighbouring hues
