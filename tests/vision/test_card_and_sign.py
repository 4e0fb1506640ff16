"""business_card and sign: where the card or the sign lies (doc_box), the flash of a card's
level 3, and the softened brick behind a sign."""

import numpy as np
import pytest

from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._common import draft, texture_array
from mmtsb_env.vision.render.sign import WALL_CONTRAST


def _grey(image):
    return np.asarray(image.convert("L"), dtype=float)


@pytest.mark.parametrize("difficulty", range(4))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_card_lies_where_doc_box_says(seed, difficulty):
    r = render({"kind": "business_card", "seed": seed, "difficulty": difficulty}, use_cache=False)
    x0, y0, x1, y1 = r.facts["doc_box"]
    W, H = r.image.size
    assert r.facts["frame"] == [W, H] and 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H
    grey = _grey(r.image)
    paper = grey >= np.percentile(grey[y0:y1, x0:x1], 60)  # the card's paper: the brighter part of its box
    outside = np.ones_like(paper)
    outside[max(0, y0 - 3):y1 + 3, max(0, x0 - 3):x1 + 3] = False
    assert paper[outside].mean() < 0.01  # no card outside its box ...
    ys, xs = np.nonzero(paper & ~outside)
    assert ys.max() - ys.min() >= 0.9 * (y1 - y0)  # ... and the card spans its box top to bottom
    assert x1 - xs.min() >= 0.6 * (x1 - x0)  # (left to right at least its text side: a layout's band is dark)


@pytest.mark.parametrize("kind", ["business_card", "sign"])
def test_the_draft_pass_reports_the_same_box(kind):
    for seed in (0, 3):
        for d in (0, 1, 3):
            spec = {"kind": kind, "seed": seed, "difficulty": d}
            drawn = render(spec, use_cache=False).facts
            with draft():
                drafted = render(spec, use_cache=False).facts
            assert drafted["doc_box"] == drawn["doc_box"] and drafted["frame"] == drawn["frame"]


def test_a_level_3_card_is_a_flash_photo_washed_out_in_a_dim_room():
    for seed in (0, 1, 2):
        boxes = {}
        for d in (0, 3):
            r = render({"kind": "business_card", "seed": seed, "difficulty": d}, use_cache=False)
            x0, y0, x1, y1 = r.facts["doc_box"]
            grey = _grey(r.image)
            w, h = x1 - x0, y1 - y0
            card = grey[y0 + h // 4:y1 - h // 4, x0 + w // 4:x1 - w // 4]  # clear of the turned corners
            around = np.concatenate([grey[:max(1, y0 - 4)].ravel(), grey[y1 + 4:].ravel()])
            boxes[d] = (np.percentile(card, 1), np.median(card), around.mean())
        (ink0, paper0, _), (ink3, paper3, around3) = boxes[0], boxes[3]
        assert paper3 - ink3 < 0.7 * (paper0 - ink0)  # the print lost contrast
        assert ink3 > ink0 + 40  # its darkest ink is pale
        assert around3 < paper3 - 90  # the surface around is dark


def test_a_sign_on_brick_keeps_half_the_walls_contrast():
    spec = {"kind": "sign", "seed": 0, "content": {"background": "brick", "style": "notice"}}
    r = render(spec, use_cache=False)
    x0, y0, x1, y1 = r.facts["doc_box"]
    grey = _grey(r.image)
    wall = np.concatenate([grey[:y0 - 20].ravel(), grey[y1 + 20:].ravel()])
    raw = _grey_arr(texture_array("brick", r.image.size, np.random.default_rng(0)))
    assert WALL_CONTRAST["brick"] <= 0.5 and wall.std() < 0.65 * raw.std()  # the mortar grid no longer reads as text
    assert wall.std() > 0.3 * raw.std()  # still a brick wall


def _grey(image):  # noqa: F811 -- images and arrays alike
    arr = np.asarray(image if isinstance(image, np.ndarray) else image.convert("RGB"), dtype=float)
    return arr @ np.array([0.299, 0.587, 0.114])


_grey_arr = _grey


@pytest.mark.parametrize("kind", ["inbox", "chat_screen"])
def test_screens_showing_a_cards_record_do_not_take_its_box(kind):
    for d in (0, 1, 3):
        facts = render({"kind": kind, "seed": 0, "difficulty": d}).facts
        assert "doc_box" not in facts and "frame" not in facts  # (the oracle would crop the screen to the card's box)
        assert facts["phone"] == render({"kind": "business_card", "seed": 0}).facts["phone"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_level_3_sign_is_seen_from_further_away_where_doc_box_says(seed):
    """Level 3 shrinks the scene towards the foot of the wall (sign.ZOOM); doc_box follows the panel."""
    spans = {}
    for d in (0, 3):
        spec = {"kind": "sign", "seed": seed, "difficulty": d, "content": {"style": "notice", "color": "#ff00ff"}}
        r = render(spec, use_cache=False)
        x0, y0, x1, y1 = r.facts["doc_box"]
        rgb = np.asarray(r.image.convert("RGB"), dtype=int)
        panel = (rgb[..., 0] > 180) & (rgb[..., 1] < 90) & (rgb[..., 2] > 180)  # the magenta face
        inside = np.zeros_like(panel)
        inside[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = True
        assert panel[~inside].sum() <= 0.002 * panel.sum()  # no panel outside its box ...
        ys, xs = np.nonzero(panel)
        assert xs.max() - xs.min() >= 0.85 * (x1 - x0) and ys.max() - ys.min() >= 0.85 * (y1 - y0)  # ... and it fills it
        spans[d] = (x1 - x0) / r.image.width
    assert spans[3] < 0.3 * spans[0]  # the far sign is small in its frame
