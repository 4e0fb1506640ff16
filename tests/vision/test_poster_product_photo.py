"""poster_photo and product_photo: what their calibration and their speed rest on."""

from __future__ import annotations

import numpy as np

from mmtsb_env.generation.ocr import NEEDED, _squash
from mmtsb_env.vision.render import FAMILIES, render
from mmtsb_env.vision.render import product_photo
from mmtsb_env.vision.render._common import Ctx
from mmtsb_env.vision.render._scene import flat, frame_size, placement
from mmtsb_env.vision.render.poster_photo import _halved


def test_poster_photo_level_0_camera_stands_a_step_back():
    for seed in range(6):
        f = render({"kind": "poster_photo", "seed": seed, "difficulty": 0}).facts
        (x0, y0, x1, y1), (w, h) = f["doc_box"], f["frame"]
        assert max((x1 - x0) / w, (y1 - y0) / h) <= 0.9, (seed, f["doc_box"])  # not the level's 0.92
        assert (x1 - x0) * (y1 - y0) >= 0.6 * w * h, (seed, f["doc_box"])  # still most of the photo


def test_the_halved_poster_lands_where_the_whole_one_would():
    ctx = Ctx("poster_photo", {}, 4, 3)
    doc, _ = FAMILIES["event_poster"].draw(flat(ctx, "event_poster"))
    half = _halved(doc)
    assert half.size == (doc.width // 2, doc.height // 2) and half.width * 2 == doc.width and half.height * 2 == doc.height
    frame = frame_size(doc.size)
    assert frame_size(half.size) == frame
    assert placement(ctx, half.size, frame) == placement(ctx, doc.size, frame)
    # each pixel the mean of its four
    big, small = np.asarray(doc, np.float32), np.asarray(half, np.float32)
    means = big.reshape(half.height, 2, half.width, 2, 3).mean(axis=(1, 3))
    assert np.abs(means - small).max() <= 1.0


def test_product_photo_sale_sticker_has_dark_figures_on_a_pale_disc():
    for seed in range(12):
        r = render({"kind": "product_photo", "seed": seed, "difficulty": 0}, use_cache=False)
        if r.facts["on_sale"]:
            break
    else:
        raise AssertionError("no product on sale in seeds 0-11")
    x0, y0, x1, y1 = r.facts["product_box"]
    cx, cy = (x0 + x1) // 2, int(y0 + (y1 - y0) * 0.86)
    disc = np.asarray(r.image, np.int32)[cy - 40:cy + 40, cx - 40:cx + 40]
    bright = (disc.min(axis=2) > 200).mean()
    ink = ((disc[..., 0] > 90) & (disc[..., 1] < 70) & (disc[..., 2] < 80)).mean()
    assert bright > 0.4 and ink > 0.03, (seed, bright, ink)


def test_product_photo_codes_its_shelf_band_as_the_whole_frame(monkeypatch):
    spec = {"kind": "product_photo", "seed": 1, "difficulty": 3}
    r = render(spec, use_cache=False)
    banded, f = np.asarray(r.image), r.facts
    real = product_photo.camera
    monkeypatch.setattr(product_photo, "camera", lambda *a, coded=None, **k: real(*a, **k))
    whole = np.asarray(render(spec, use_cache=False).image)
    top, bottom = f["product_box"][1], f["label_box"][3]  # the products (their neighbours' are as tall) and the strip
    assert np.array_equal(banded[top:bottom], whole[top:bottom])
    assert not np.array_equal(banded[:top - 48], whole[:top - 48])  # above it the wall keeps its noise uncoded


def test_needed_asks_for_the_name_with_its_unit_and_the_comparison_takes_tesseracts_spelling():
    f = render({"kind": "product_photo", "seed": 2}).facts
    assert f["product"].endswith("16oz") and NEEDED["product_photo"](f) == [f["price_text"], f["product"]]
    assert _squash(f["product"]) in _squash("Travel Mug 160z")
