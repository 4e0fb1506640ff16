"""Procedural render specs: determinism, facts, caching, difficulty and spec validation."""

import copy
import threading

import numpy as np
import pytest

from mmtsb_env.vision.render import FAMILIES, cache_info, canonical, clear_cache, kinds, render, spec_key

ALL_KINDS = ["bar_chart", "business_card", "event_poster", "handwritten_note", "invoice", "line_chart", "pie_chart",
             "price_tag", "receipt", "sign", "table_document"]


def _pixels(image):
    return np.asarray(image)


NEW_KINDS = ["chart_read", "chat_screen", "event_screen", "note_photo", "object_scene", "order_screen", "poster_photo",
             "product_photo", "receipt_photo", "statement",
             "bank_feed", "calendar_day", "inbox", "infographic", "tally_photo", "playlist_screen", "settings_screen",
             "spreadsheet_screen", "mail_client", "file_manager", "ide_screen", "settings_panel"]  # tests/vision/test_families.py, test_new_families.py


def test_all_families_registered():
    assert kinds() == sorted(ALL_KINDS + NEW_KINDS)
    assert all(FAMILIES[k].description for k in kinds())


@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("difficulty", [0, 3])
def test_deterministic_and_seed_sensitive(kind, difficulty):
    spec = {"kind": kind, "seed": 11, "difficulty": difficulty}
    a = render(spec, use_cache=False)
    b = render(dict(spec), use_cache=False)
    assert a.image.tobytes() == b.image.tobytes() and a.facts == b.facts and a.image.mode == "RGB"
    c = render({**spec, "seed": 12}, use_cache=False)
    assert a.image.size != c.image.size or a.image.tobytes() != c.image.tobytes()
    assert a.facts["kind"] == kind and a.key == spec_key(spec)
    assert 200 <= a.image.width <= 2048 and 200 <= a.image.height <= 2048


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_difficulty_changes_pixels_not_facts(kind):
    base = render({"kind": kind, "seed": 3})
    hard = render({"kind": kind, "seed": 3, "difficulty": 2})
    assert base.image.size != hard.image.size or (_pixels(base.image) != _pixels(hard.image)).any()
    # where the picture lies (doc_box, frame) follows the level's view; what it says does not
    strip = lambda f: {k: v for k, v in f.items() if k not in ("distractors", "value_labels", "read_tolerance", "skewed", "doc_box", "frame")}  # noqa: E731
    assert strip(base.facts) == strip(hard.facts)
    assert "distractors" not in base.facts


def test_cache_returns_shared_image_and_private_facts():
    clear_cache()
    spec = {"kind": "receipt", "seed": 5}
    first = render(spec)
    again = render({"seed": 5, "kind": "receipt"})  # key order does not matter
    assert again.image is first.image and again.facts == first.facts and again.facts is not first.facts
    again.facts["total"] = -1
    assert render(spec).facts["total"] == first.facts["total"]
    info = cache_info()
    assert info["entries"] == 1 and info["hits"] == 2 and info["misses"] == 1
    assert render(spec, use_cache=False).image is not first.image


def test_cache_is_bounded_and_thread_safe():
    from mmtsb_env.vision.render import _LRU, _Job

    lru = _LRU(max_entries=2)
    for k in "abc":
        assert lru.put(k, _Job({"kind": "receipt", "seed": 1})) is lru.get(k)
    assert lru.get("a") is None and lru.get("c") is not None and lru.info()["entries"] == 2
    first = lru.get("c")
    assert lru.put("c", _Job({"kind": "receipt", "seed": 1})) is first  # one job per key
    clear_cache()
    out, errors = [], []

    def work():
        try:
            out.append(render({"kind": "sign", "seed": 77}))
        except Exception as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len({id(r.image) for r in out}) == 1 and cache_info()["entries"] == 1


def test_receipt_facts_follow_content():
    spec = {"kind": "receipt", "content": {
        "merchant": "Corner Deli", "date": "2026-03-14", "time": "9:05",
        "items": [{"name": "Bagel", "qty": 2, "price": 1.25}, {"name": "Coffee", "price": 2.5}],
        "tax_rate": 10, "payment": "VISA **** 1234"}}
    f = render(spec).facts
    assert f["merchant"] == "Corner Deli" and f["date"] == "2026-03-14" and f["time"] == "09:05"
    assert f["items"] == [{"name": "Bagel", "qty": 2, "price": 1.25, "amount": 2.5},
                          {"name": "Coffee", "qty": 1, "price": 2.5, "amount": 2.5}]
    assert f["subtotal"] == 5.0 and f["tax"] == 0.5 and f["total"] == 5.5 and f["item_count"] == 3
    assert f["payment"] == "VISA **** 1234"
    fixed = render({"kind": "receipt", "content": {"items": [{"name": "A", "price": 1}], "tax": 0.3, "total": 9.99}}).facts
    assert fixed["tax"] == 0.3 and fixed["total"] == 9.99 and fixed["subtotal"] == 1.0


def test_receipt_defaults_are_plausible_and_consistent():
    for seed in range(8):
        f = render({"kind": "receipt", "seed": seed}).facts
        assert f["items"] and f["merchant"]
        assert abs(f["subtotal"] - sum(i["amount"] for i in f["items"])) < 1e-6
        assert abs(f["total"] - (f["subtotal"] + f["tax"])) < 1e-6


def test_one_field_does_not_shift_other_defaults():
    a = render({"kind": "receipt", "seed": 4}).facts
    b = render({"kind": "receipt", "seed": 4, "content": {"merchant": "Someplace Else"}}).facts
    assert a["date"] == b["date"] and a["payment"] == b["payment"] and a["receipt_number"] == b["receipt_number"]


def test_invoice_facts():
    f = render({"kind": "invoice", "content": {
        "company": "Acme Web", "invoice_number": "INV-7", "invoice_date": "2026-02-01", "due_date": "2026-03-03",
        "bill_to": "Jane Roe\n1 Main St", "tax_rate": 20,
        "items": [{"description": "Design", "qty": 3, "unit_price": 100}, {"description": "Hosting", "unit_price": 15.5}]}}).facts
    assert f["company"] == "Acme Web" and f["invoice_number"] == "INV-7" and f["due_date"] == "2026-03-03"
    assert f["bill_to_name"] == "Jane Roe" and [i["amount"] for i in f["items"]] == [300.0, 15.5]
    assert f["subtotal"] == 315.5 and f["tax"] == 63.1 and f["total"] == 378.6


def test_business_card_and_poster_facts():
    card = render({"kind": "business_card", "content": {"name": "Ada Lovelace", "company": "Engine Works",
                                                        "email": "ada@engine.works"}}).facts
    assert card["name"] == "Ada Lovelace" and card["email"] == "ada@engine.works" and card["phone"]
    default = render({"kind": "business_card", "seed": 2}).facts
    assert "@" in default["email"] and default["website"].startswith("www.")
    poster = render({"kind": "event_poster", "content": {"title": "Night Market", "date": "2026-07-04", "time": "19:30",
                                                         "price": 0, "venue": "Pier 9"}}).facts
    assert poster["date_text"] == "SAT, JUL 4, 2026" and poster["price_text"] == "FREE ENTRY"
    assert poster["time_text"] in ("7:30 PM", "19:30") and poster["venue"] == "Pier 9"


def test_chart_facts():
    bar = render({"kind": "bar_chart", "content": {"title": "Pets", "labels": ["cats", "dogs", "fish"],
                                                   "values": [3, 7, 1], "units": "%"}}).facts
    assert bar["max_label"] == "dogs" and bar["min_label"] == "fish" and bar["total"] == 11
    pie = render({"kind": "pie_chart", "content": {"labels": ["a", "b"], "values": [1, 3]}}).facts
    assert pie["percentages"] == [25.0, 75.0] and pie["max_label"] == "b"
    line = render({"kind": "line_chart", "content": {"labels": ["x", "y", "z"],
                                                     "series": {"in": [1, 2, 3], "out": [3, 2, 1]}}}).facts
    assert line["series"] == {"in": [1, 2, 3], "out": [3, 2, 1]} and "max_label" not in line
    only_values = render({"kind": "bar_chart", "seed": 1, "content": {"values": [5, 6]}}).facts
    assert len(only_values["labels"]) == 2


def test_charts_draw_their_data():
    a = render({"kind": "bar_chart", "content": {"labels": ["a", "b"], "values": [1, 2]}}).image
    b = render({"kind": "bar_chart", "content": {"labels": ["a", "b"], "values": [2, 1]}}).image
    assert a.size == b.size and (_pixels(a) != _pixels(b)).any()


def test_other_family_facts():
    tag = render({"kind": "price_tag", "content": {"product": "Oat Milk 1L", "price": 3.49, "old_price": 4.99,
                                                   "currency": "€"}}).facts
    assert tag["price_text"] == "€3.49" and tag["on_sale"] and tag["old_price"] == 4.99
    assert render({"kind": "price_tag", "content": {"price": 2, "old_price": 1}}).facts["on_sale"] is False
    sign = render({"kind": "sign", "content": {"text": "Joe's\nHardware", "style": "storefront", "skew": False}}).facts
    assert sign["lines"] == ["Joe's", "Hardware"] and sign["skewed"] is False
    table = render({"kind": "table_document", "content": {"title": "Scores", "headers": ["Name", "Pts", "Avg"],
                                                          "rows": [["Ann", 12, 3.5], ["Bo", 20000, 4.0]]}}).facts
    assert table["rows"] == [["Ann", "12", "3.50"], ["Bo", "20,000", "4"]] and table["n_cols"] == 3
    note = render({"kind": "handwritten_note", "content": {"text": "buy milk\ncall Sam", "title": ""}}).facts
    assert note["lines"] == ["buy milk", "call Sam"] and note["title"] is None


def test_text_is_dark_ink_on_light_paper_at_low_difficulty():
    """A cheap legibility proxy; the docs/images PNGs were also checked by eye."""
    for kind in ("receipt", "invoice", "table_document"):
        arr = np.asarray(render({"kind": kind, "seed": 2}).image.convert("L"), dtype=float)
        assert (arr < 90).mean() > 0.005 and np.median(arr) > 200, kind


@pytest.mark.parametrize("spec, needle", [
    ("receipt", "spec must be an object"),
    ({"content": {}}, "spec field 'kind' must be a string"),
    ({"kind": "hologram"}, "spec field 'kind': unknown kind 'hologram'; known: bank_feed, bar_chart"),
    ({"kind": "receipt", "seed": "1"}, "spec field 'seed' must be an integer"),
    ({"kind": "receipt", "difficulty": 4}, "spec field 'difficulty' must be an integer 0-3"),
    ({"kind": "receipt", "difficulty": True}, "spec field 'difficulty'"),
    ({"kind": "receipt", "colour": 1}, "spec has unknown field(s) 'colour'"),
    ({"kind": "receipt", "content": []}, "receipt spec: content must be an object"),
    ({"kind": "receipt", "content": {"merchant": 5}}, "receipt spec: content.merchant must be a string, got int 5"),
    ({"kind": "receipt", "content": {"shop": "x"}}, "content has unknown field(s) 'shop'"),
    ({"kind": "receipt", "content": {"items": [{"name": "a", "price": "3"}]}}, "content.items[0].price must be a number"),
    ({"kind": "receipt", "content": {"items": [{"price": 3}]}}, "content.items[0] is missing required field(s): name"),
    ({"kind": "receipt", "content": {"items": []}}, "content.items must have 1 to 40 entries"),
    ({"kind": "receipt", "content": {"date": "14/03/2026"}}, "content.date must be an ISO date string"),
    ({"kind": "receipt", "content": {"time": "25:00"}}, "content.time must be a time string"),
    ({"kind": "receipt", "content": {"currency": "¥"}}, "content.currency must be one of"),
    ({"kind": "receipt", "content": {"items": [{"name": "a", "qty": 0}]}}, "content.items[0].qty must be at least 1"),
    ({"kind": "receipt", "content": {"items": [{"name": "a", "price": float("nan")}]}}, "spec must be JSON data"),
    ({"kind": "receipt", "content": {"merchant": {1, 2}}}, "spec must be JSON data"),
    ({"kind": "invoice", "content": {"accent": "blurple"}}, "content.accent must be a colour"),
    ({"kind": "bar_chart", "content": {"labels": ["a"], "values": [1, 2]}}, "content.values has 2 numbers but content.labels has 1"),
    ({"kind": "bar_chart", "content": {"values": [True]}}, "content.values[0] must be a number"),
    ({"kind": "line_chart", "content": {"values": [1, 2], "series": {"a": [1, 2]}}}, "not both"),
    ({"kind": "pie_chart", "content": {"values": [-1]}}, "content.values[0] must be at least 0"),
    ({"kind": "sign", "content": {"style": "neon"}}, "content.style must be one of 'storefront', 'street', 'notice'"),
    ({"kind": "sign", "content": {"skew": "yes"}}, "content.skew must be a boolean"),
    ({"kind": "table_document", "content": {"headers": ["a", "b"], "rows": [["x"]]}}, "content.rows[0] has 1 cells but there are 2 headers"),
    ({"kind": "table_document", "content": {"rows": [[{"x": 1}]]}}, "content.rows[0][0] must be"),
    ({"kind": "handwritten_note", "content": {"paper": "napkin"}}, "content.paper must be one of"),
    ({"kind": "event_poster", "content": {"price": [5]}}, "content.price must be a number or a string"),
    ({"kind": "business_card", "content": {"name": ""}}, "content.name must not be empty"),
])
def test_bad_specs_raise_value_error_naming_the_field(spec, needle):
    with pytest.raises(ValueError) as err:
        render(spec)
    assert needle in str(err.value), str(err.value)


def test_canonical_json_is_key_order_independent():
    assert canonical({"b": 1, "a": [1, {"d": 2, "c": 3}]}) == '{"a":[1,{"c":3,"d":2}],"b":1}'


def test_failed_renders_leave_no_cache_state():
    before = cache_info()["entries"]
    for i in range(3):
        with pytest.raises(ValueError):
            render({"kind": "receipt", "content": {"merchant": i}})
    with pytest.raises(ValueError, match="content.rows\\[0\\] has 1 cells but there are 2 headers"):
        render({"kind": "table_document", "content": {"headers": ["a", "b"], "rows": [["x"]]}})  # a cross-field rule
    assert cache_info()["entries"] == before


def test_concurrent_renders_match_sequential_ones():
    from concurrent.futures import ThreadPoolExecutor

    specs = [{"kind": k, "seed": 21, "difficulty": d} for k, d in
             [("receipt", 1), ("bar_chart", 0), ("handwritten_note", 0), ("sign", 2), ("pie_chart", 1), ("invoice", 0)]]
    sequential = [render(s, use_cache=False).image.tobytes() for s in specs]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda s: render(s, use_cache=False).image.tobytes(), specs * 2))
    assert parallel == sequential * 2


@pytest.mark.parametrize("kind", kinds())
def test_facts_come_without_drawing_and_match_the_drawn_image(kind):
    for difficulty in range(4):
        for seed in range(3):
            r = render({"kind": kind, "seed": seed, "difficulty": difficulty}, use_cache=False)
            facts = copy.deepcopy(r.facts)
            assert not r.drawn and facts["kind"] == kind and repr(r).endswith("drawn=False)")
            assert r.image.mode == "RGB" and r.drawn  # drawing re-checks the facts and raises on a mismatch
            assert r.facts == facts


def test_drawing_first_gives_the_same_facts_as_the_draft():
    spec = {"kind": "handwritten_note", "seed": 4, "difficulty": 3}
    drawn_first = render(spec, use_cache=False)
    drawn_first.image
    assert drawn_first.facts == render(spec, use_cache=False).facts and drawn_first.facts["distractors"]


def test_a_bad_spec_fails_at_render_time():
    with pytest.raises(ValueError, match="difficulty"):
        render({"kind": "receipt", "difficulty": 9})


def test_surface_textures_are_seeded_windows_of_a_shared_tile():
    from mmtsb_env.vision.render._common import TILE, _surface_tile, texture

    def tex(kind, size, seed, base=None):
        return np.asarray(texture(kind, size, np.random.default_rng(seed), base))

    for kind in ("wood", "brick", "desk", "concrete", "fabric"):
        a, b = tex(kind, (300, 200), 1), tex(kind, (300, 200), 2)
        assert a.shape == (200, 300, 3)
        assert np.array_equal(a, tex(kind, (300, 200), 1))  # same seed, same window
        assert not np.array_equal(a, b)  # another seed, another window
    # the tile is drawn once per (kind, colour) and every window is a crop of it, never drawn on
    tile = np.asarray(_surface_tile("wood", (120, 80, 40))).copy()
    out = texture("wood", (64, 48), np.random.default_rng(3), (120, 80, 40))
    out.paste((0, 0, 0), (0, 0, 64, 48))
    assert np.array_equal(tile, np.asarray(_surface_tile("wood", (120, 80, 40))))
    assert tex("brick", (TILE + 10, 40), 4).shape == (40, TILE + 10, 3)  # larger than the tile: drawn directly
    # paper carries the text: drawn per call, a faint blotch on the requested colour
    paper = tex("paper", (200, 100), 5, (250, 250, 240)).astype(int)
    color = np.array([250, 250, 240])
    assert (paper >= np.floor(color * 0.975)).all() and (paper <= np.ceil(color * 1.005)).all()
    assert paper.std() > 0.5  # not a flat fill


def test_photo_pixels_are_deterministic_per_seed_and_the_picture_stays_in_its_box():
    def photo(seed, d):
        return np.asarray(render({"kind": "receipt_photo", "seed": seed, "difficulty": d}, use_cache=False).image)

    hard = photo(3, 3)
    assert np.array_equal(hard, photo(3, 3))
    assert not np.array_equal(hard, photo(4, 3))
    box = render({"kind": "receipt_photo", "seed": 3, "difficulty": 3}).facts["doc_box"]
    inside = hard[box[1]:box[3], box[0]:box[2]].astype(float).mean()
    assert inside > hard.astype(float).mean() + 20  # the white receipt is where doc_box says, on a darker table


@pytest.mark.parametrize("kind", ["wood", "brick", "desk", "concrete", "fabric"])
def test_surfaces_are_their_colour_shaded_and_grained(kind):
    from mmtsb_env.vision.render._common import _surface

    base = (150, 110, 80)
    a = _surface(kind, (300, 200), np.random.default_rng(7), base)
    assert a.dtype == np.uint8 and a.shape == (200, 300, 3)
    assert np.array_equal(a, _surface(kind, (300, 200), np.random.default_rng(7), base))  # seeded
    assert not np.array_equal(a, _surface(kind, (300, 200), np.random.default_rng(8), base))
    if kind != "brick":  # brick is mostly its colour, with light mortar between
        mean = a.reshape(-1, 3).mean(0)
        assert (np.abs(mean / np.array(base) - 1) < 0.15).all(), mean  # the shading stays near the colour
        assert mean[0] > mean[1] > mean[2]  # and keeps its hue
    grain = np.abs(np.diff(a[..., 1].astype(int), axis=1))
    assert 0.5 < grain.mean() < 20  # grain from pixel to pixel, no flat fill and no static


def test_remembered_wraps_are_fresh_lists():
    from mmtsb_env.vision.fonts import get_font
    from mmtsb_env.vision.render._common import wrap

    font = get_font("sans", 14)
    lines = wrap("a few words that need more than one line", font, 80)
    assert len(lines) > 1 and all(font.getlength(line) <= 80 for line in lines)
    lines.append("changed by the caller")
    assert wrap("a few words that need more than one line", font, 80) == lines[:-1]
