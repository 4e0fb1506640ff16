"""Images that need seeing (issue #29): levels over 0-3, a hard image in every scenario, charts read
off their axes within a tolerance the scenario records, pies that print what is asked, no
give-away callouts, notes inside the frame, plausible chart data, legibility with the tools."""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import datetime, timezone

import pytest

from mmtsb_env.generation import generate
from mmtsb_env.generation.images import (HARD_LEVEL, LEVEL_MIX, PRINTED_SHARE, Drafter, Img, ensure_hard,
                                          legibility_checked, level_of, needs_hard, settle_levels)
from mmtsb_env.generation.ocr import tesseract_available, tool_legible
from mmtsb_env.world.pools import CHART_TOPICS, SEASONS
from mmtsb_env.generation.world_index import world_index
from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._common import DEGRADE
from mmtsb_env.vision.render.charts import READ_TOLERANCE, SCANS, _nice, _range

NOW = datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def batch():
    return generate(40, seed=29, verify="static")


def test_levels_are_drawn_over_the_documented_mix():
    counts = Counter(level_of(seed) for seed in range(4000))
    for level, share in enumerate(LEVEL_MIX):
        assert abs(counts[level] / 4000 - share) < 0.025, (level, counts)


def test_every_scenario_has_an_image_at_the_top_level_and_most_images_are_hard(batch):
    levels = [sp.render["difficulty"] for s in batch for sp in s.images]
    for s in batch:
        assert max(sp.render["difficulty"] for sp in s.images) == HARD_LEVEL, s.id
        assert s.metadata["difficulty"] == "hard"
    assert sum(lv >= 2 for lv in levels) / len(levels) >= 0.4
    assert set(levels) == {0, 1, 2, 3}


def _img(level: int) -> Img:
    return Img("receipt", "receipt", {}, 0, level)


def test_ensure_hard_raises_one_image_and_respects_a_legibility_check():
    imgs = [_img(0), _img(1), _img(2)]
    assert ensure_hard(imgs, seed=5) and sorted(im.difficulty for im in imgs).count(HARD_LEVEL) == 1
    imgs = [_img(0), _img(1)]
    assert not ensure_hard(imgs, seed=5, legible=lambda im: False)
    assert [im.difficulty for im in imgs] == [0, 1]  # nothing left raised
    imgs = [_img(0), _img(1)]
    assert ensure_hard(imgs, seed=5, legible=lambda im: im is imgs[1]) and imgs[1].difficulty == HARD_LEVEL


def test_the_raised_image_shows_a_needed_value_no_easy_image_shows():
    # the level-3 image is a distractor (it shows only what an easy image shows too): the image
    # with the needed value is raised, not left at level 0 because some image is already hard
    imgs = [Img("receipt", "receipt", {}, 0, 0, label="Corner Deli"), Img("receipt", "receipt", {}, 1, 0, label="Pine Books"),
            Img("receipt", "receipt", {}, 2, HARD_LEVEL, label="Corner Deli")]
    assert not needs_hard(imgs, ["Pine Books"])
    assert ensure_hard(imgs, seed=5, needed=["Pine Books"])
    assert imgs[1].difficulty == HARD_LEVEL and imgs[0].difficulty == 0 and needs_hard(imgs, ["Pine Books"])
    # a needed value every image shows cannot be made hard: some image is raised as before
    imgs = [Img("receipt", "receipt", {}, 0, 0, label="Corner Deli"), Img("receipt", "receipt", {}, 1, 1, label="Corner Deli")]
    assert ensure_hard(imgs, seed=5, needed=["Corner Deli"]) and max(im.difficulty for im in imgs) == HARD_LEVEL
    assert not needs_hard(imgs, ["Corner Deli"])


def test_scenarios_record_whether_a_hard_image_holds_a_needed_value(batch):
    flags = [s.metadata["hard_image_needed"] for s in batch if s.metadata["hard_image_needed"] is not None]
    assert len(flags) >= 20 and sum(flags) / len(flags) >= 0.9, Counter(flags)  # before: 31 of 40 (values in text: fewer)


def test_settle_levels_redraws_an_illegible_image_lower(monkeypatch):
    import mmtsb_env.generation.images as images

    # an image is "legible" only at level 1 or lower: hard ones come down, and none can be raised
    monkeypatch.setattr(images, "_legible", lambda im: im.difficulty <= 1)
    imgs = [_img(3), _img(2), _img(0)]
    with legibility_checked():
        with pytest.raises(Exception, match="no image of this scenario stays legible"):
            settle_levels(imgs, seed=1)
    assert [im.difficulty for im in imgs] == [1, 1, 0]
    imgs = [_img(3), _img(0)]
    settle_levels(imgs, seed=1)  # the check is off outside legibility_checked: levels stay
    assert [im.difficulty for im in imgs] == [3, 0]


def test_a_shelf_photo_named_by_where_its_product_stands_keeps_its_level(monkeypatch):
    import mmtsb_env.generation.images as images

    placed = []
    for seed in range(30):
        im = _drafter(seed).make("price_tag")
        if im.kind != "product_photo":
            continue
        f = render(im.render_spec()).facts
        assert im.extra["look"] in (f["description"], f["placed"])
        if im.extra["look"] == f["placed"] != f["description"]:
            assert im.extra.get("_pinned") and "_pinned" not in im.facts()
            placed.append(im)
    assert 2 <= len(placed) <= 12  # about PLACED_SHARE of the shelf photos
    im = placed[0]
    level = im.difficulty
    others = [_img(0), _img(1)]
    assert ensure_hard([im] + others, seed=3) and im.difficulty == level  # another image is raised, not the shelf
    assert not ensure_hard([im], seed=3) if level < HARD_LEVEL else ensure_hard([im], seed=3)
    assert im.difficulty == level
    monkeypatch.setattr(images, "_legible", lambda i: False)
    im.difficulty = 2
    with legibility_checked(), pytest.raises(Exception, match="where its product stands"):
        settle_levels([im], seed=1)  # not redrawn lower: its shelf would change under the request's words
    assert im.difficulty == 2


def _drafter(seed: int = 0) -> Drafter:
    return Drafter(random.Random(seed), world_index(0), NOW)


def test_most_bar_and_line_charts_print_no_value_and_report_their_read_tolerance():
    printed = Counter()
    for seed in range(30):
        d = _drafter(seed)
        for _ in range(4):
            im = d.make("chart")
            if im.kind not in ("bar_chart", "line_chart"):
                continue
            shown = im.content["value_labels"]
            printed[shown] += 1
            facts = render(im.render_spec()).facts
            assert facts["value_labels"] is shown
            assert facts["read_tolerance"] == im.extra["read_tolerance"]  # the drafter and the renderer agree
            if not shown:
                lo, hi = _range(im.content["values"], im.kind == "bar_chart", 0.02 if im.kind == "bar_chart" else 0.06)
                ticks = _nice(lo, hi)
                assert facts["read_tolerance"] == pytest.approx(READ_TOLERANCE * (ticks[1] - ticks[0]))
                assert facts["read_tolerance"] > 0
            else:
                assert facts["read_tolerance"] == 0
    assert printed[False] > printed[True] and printed[True] / sum(printed.values()) < PRINTED_SHARE + 0.15


def test_what_a_flow_picks_off_an_axis_is_clear_of_the_reading_tolerance():
    for seed in range(25):
        d = _drafter(seed)
        imgs = [d.make("chart", kind="line_chart", avoid=200.0) for _ in range(4)]
        every = [(it["amount"], im.extra["read_tolerance"]) for im in imgs for it in im.items]
        for pick in (max, min):
            k = pick(range(len(every)), key=lambda j: every[j][0])
            assert all(abs(every[k][0] - v) > every[k][1] + t for j, (v, t) in enumerate(every) if j != k)
        for im in imgs:
            tol, vals = im.extra["read_tolerance"], [it["amount"] for it in im.items]
            assert all(abs(v - 200.0) > tol for v in vals) or not tol
            for e in (max(vals), min(vals)):
                assert all(abs(e - v) > 2 * tol for v in vals if v != e)


def test_scenarios_record_the_tolerance_of_every_value_read_off_an_axis():
    seen = 0
    for s in generate(24, seed=7, verify="static", category="chart"):
        tol = s.metadata["value_tolerances"]
        needed = set(s.metadata["image_values"]) | set(s.metadata["derived_values"])
        assert set(tol) <= needed
        for sp in s.images:
            if sp.category != "chart" or not sp.facts.get("read_tolerance"):
                continue
            for it in sp.facts["items"]:
                v = f"{it['amount']:,.0f}"
                if v in s.metadata["image_values"]:
                    seen += 1
                    assert tol[v] >= sp.facts["read_tolerance"], (s.id, v)
        if s.metadata["flow_type"] == "compute" and any(sp.facts.get("read_tolerance") for sp in s.images):
            assert any(v in tol for v in s.metadata["derived_values"]), s.id
    assert seen


def test_a_pie_prints_its_values_beside_the_percentages():
    from tests.vision.text_boxes import recorded_text

    content = {"title": "Visitors", "labels": ["North", "South", "East"], "values": [143, 88, 69], "units": ""}
    for level in (0, 3):
        with recorded_text() as sheets:
            render({"kind": "pie_chart", "content": {**content, "value_labels": True}, "difficulty": level},
                   use_cache=False).image
        texts = {t for sh in sheets for _, t in sh.texts}
        assert "North: 143 (47.7%)" in texts, texts


def test_the_infographic_callout_gives_no_value_or_item_away():
    for seed in range(12):
        f = render({"kind": "infographic", "seed": seed, "difficulty": 1}).facts
        callout = f["callout"].lower()
        assert f["max_label"].lower() not in callout and f["min_label"].lower() not in callout
        assert not any(f"{v:,.0f}" in callout or f"{v:g}" in callout for v in f["values"] if v >= 10), callout


@pytest.mark.parametrize("kind", ["bar_chart", "line_chart", "pie_chart"])
def test_chart_notes_stay_inside_the_frame_when_the_scan_turns_the_page(kind):
    from tests.vision.text_boxes import recorded_text

    for level in (2, 3):
        scan = SCANS.get(kind, {}).get(level) or DEGRADE[level]
        for seed in range(4):
            with recorded_text() as sheets:
                r = render({"kind": kind, "seed": seed, "difficulty": level}, use_cache=False)
                r.image
            sheet = sheets[0]
            W, H = sheet.size
            notes = [box for box, t in sheet.texts if t in r.facts["distractors"]]
            assert notes, (kind, seed)
            for sign in (1, -1):  # the turn either way, about the page's centre
                a = math.radians(sign * scan.angle)
                for x0, y0, x1, y1 in notes:
                    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
                        dx, dy = x - W / 2, y - H / 2
                        xr, yr = W / 2 + dx * math.cos(a) - dy * math.sin(a), H / 2 + dx * math.sin(a) + dy * math.cos(a)
                        assert 0 <= xr <= W and 0 <= yr <= H, (kind, level, seed, (x, y))


def test_month_series_follow_their_season():
    warm = cold = 0
    for seed in range(40):
        d = _drafter(seed)
        for title, units, labels, rng in [t for t in CHART_TOPICS if t[0] in SEASONS]:
            im = d.chart(kind="bar_chart", topic=(title, units, labels, rng))
            v = dict((it["name"], it["amount"]) for it in im.items)
            if title.startswith("Monthly"):
                cold += v["Jan"] > v["May"]
            else:
                warm += v["Nov"] > v["Jul"]
    assert cold == warm == 40


def test_phone_screens_show_their_own_clock():
    from tests.vision.text_boxes import recorded_text

    clocks = set()
    for seed in range(6):
        with recorded_text() as sheets:
            render({"kind": "order_screen", "seed": seed}, use_cache=False).image
        texts = [t for sh in sheets for _, t in sh.texts]
        clocks.add(next(t for t in texts if ":" in t and t.replace(":", "").isdigit()))
    assert len(clocks) >= 4 and "9:41" not in clocks


@pytest.mark.ocr
@pytest.mark.skipif(not tesseract_available(), reason="needs tesseract")
def test_tool_legibility_finds_unread_values_and_settles_a_scenario():
    # a level-3 receipt photo of seed 11 loses its values even with the tools; its level 2 reads
    assert tool_legible({"kind": "receipt_photo", "seed": 11, "difficulty": 3})
    assert tool_legible({"kind": "receipt_photo", "seed": 11, "difficulty": 2}) == []
    s, = generate(1, seed=3, verify="static", legible=True)
    for sp in s.images:
        if sp.render["difficulty"] >= 2:
            assert tool_legible(sp.render) == [], (s.id, sp.render["kind"])
    assert max(sp.render["difficulty"] for sp in s.images) == HARD_LEVEL


def _prints_values(im) -> bool:
    kind, content = im.render["kind"], im.render["content"]
    if kind in ("bar_chart", "line_chart"):
        return content["value_labels"]
    if kind == "chart_read":
        return im.render["difficulty"] == 0
    return kind != "tally_photo"  # pies and infographics print theirs; a tally is counted


def test_the_shipped_nominal_suite_needs_seeing():
    import mmtsb_env

    suite = mmtsb_env.load_suite("nominal")
    levels = [im.render["difficulty"] for s in suite for im in s.images]
    assert sum(lv >= 2 for lv in levels) / len(levels) >= 0.4
    assert all(max(im.render["difficulty"] for im in s.images) == HARD_LEVEL for s in suite)
    charts = [im for s in suite for im in s.images if im.category == "chart"]
    assert sum(not _prints_values(im) for im in charts) / len(charts) >= 0.5
    assert all(im.render["content"]["value_labels"] for im in charts if im.render["kind"] == "pie_chart")
    for s in suite:  # every needed value of a chart read off its axis has its tolerance
        tol = s.metadata["value_tolerances"]
        for im in s.images:
            if im.category == "chart" and im.facts.get("read_tolerance"):
                for it in im.facts["items"]:
                    v = f"{it['amount']:,.0f}"
                    assert v not in s.metadata["image_values"] or tol.get(v, 0) >= im.facts["read_tolerance"], (s.id, v)
