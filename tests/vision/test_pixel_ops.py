"""The fast pixel helpers keep the look the levels were calibrated with (OCR, tests/generation/test_ocr.py).

Each OpenCV path replaced a Pillow one; these tests pin what it must still equal: the JPEG round
trip byte for byte, the photo defocus to within one grey level, the tilted handwriting words to
Pillow's canvas size, the cached sensor noise to its sigma and to its seed, the RGBA detour of the
warps to OpenCV's three-channel result, the remembered text lines (``TextDraw``) to ``ImageDraw``'s
pixels, the handwriting's ink planes to compositing RGBA words of the ink, and the level's
light and noise laid on in runs of columns to the full-size light image multiplied in.
"""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter

from mmtsb_env.vision.render import render
import cv2

from mmtsb_env.vision.render._common import (DEGRADE, NOISE_TILE, Ctx, degrade, jpeg, jpeg_array, lit_and_noisy, lookup,
                                             sensor_noise, shade, warp)
from mmtsb_env.vision.render._common import _noise_tables, grey_noise
from mmtsb_env.vision.render._scene import (JPEG_MARGIN, SAMPLED_AS_DRAWN, _clutter_shapes, _contact_shadow, _defocus,
                                            _defocus_boxes, _outside, _shrunk, drawing_on, jpeg_regions)
from mmtsb_env.vision.render.handwritten_note import _tilted


# a receipt in its first layout (receipt.TEMPLATES, chosen by the seed), the page these checks were made on
CLASSIC = next(s for s in range(50) if Ctx("receipt", {}, s, 0).rng("template").randrange(3) == 0)


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return np.asarray(render({"kind": "receipt_photo", "seed": CLASSIC, "difficulty": 0}, use_cache=False).image).copy()


@pytest.mark.parametrize("quality", [92, 68, 35])
def test_jpeg_round_trip_equals_pillows_encoder(photo, quality):
    buf = io.BytesIO()
    Image.fromarray(photo).save(buf, format="JPEG", quality=quality)
    expected = np.asarray(Image.open(io.BytesIO(buf.getvalue())).convert("RGB"))
    assert np.array_equal(np.asarray(jpeg(photo, quality)), expected)
    assert np.array_equal(np.asarray(jpeg(Image.fromarray(photo), quality)), expected)


def test_jpeg_of_a_grey_image_comes_back_rgb():
    out = jpeg(Image.new("L", (40, 30), 128), 80)
    assert out.mode == "RGB" and out.size == (40, 30)


@pytest.mark.parametrize("sigma", [0.3, 0.45, 0.6])
def test_defocus_matches_pillows_box_blur(photo, sigma):
    var = sigma * sigma
    expected = np.asarray(Image.fromarray(photo).filter(ImageFilter.BoxBlur(var / (2 * (1 - var))))).astype(int)
    got = _defocus(photo, sigma).astype(int)
    diff = np.abs(got - expected)
    # Pillow rounds to grey levels between the two directions, the one separable pass does not:
    # ~6 % of this photo's pixels one level off, either way (no drift). A sigma 5 % off is two to
    # six levels off somewhere, a blur in one direction only eleven or more
    assert diff.max() <= 1 and (diff > 0).mean() < 0.1, (diff.max(), (diff > 0).mean())
    assert abs((got - expected).mean()) < 0.01
    assert np.abs(got - photo.astype(int)).mean() > 0.2  # it does blur (sigma 0.3 is mild)


def test_defocus_of_a_view_writes_nothing_outside_it(photo):
    arr = photo.copy()
    arr[100:300, 50:400] = _defocus(arr[100:300, 50:400], 0.6)
    assert np.array_equal(arr[:100], photo[:100]) and np.array_equal(arr[300:], photo[300:])
    assert not np.array_equal(arr[100:300, 50:400], photo[100:300, 50:400])


@pytest.mark.parametrize("sigma", [0.3, 0.6, 1.0])
def test_defocus_in_boxes_is_the_whole_frames_defocus_there_and_sharp_elsewhere(photo, sigma):
    boxes = [[100, 80, 260, 200], [230, 150, 400, 330], [-10, 600, 60, 800], [700, 10, 740, 40]]  # overlapping, at the edges
    arr = photo.copy()
    _defocus_boxes(arr, boxes, sigma)
    whole = _defocus(photo, sigma)
    inside = np.zeros(photo.shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        inside[max(0, y0 - 2):y1 + 2, max(0, x0 - 2):x1 + 2] = True
    assert np.array_equal(arr[inside], whole[inside])
    assert np.array_equal(arr[~inside], photo[~inside])
    assert not np.array_equal(arr[inside], photo[inside])


def test_tilted_words_get_pillows_canvas_and_keep_their_ink():
    r = random.Random(7)
    for _ in range(200):
        w, h, angle = r.randint(12, 320), r.randint(12, 90), r.uniform(-2.5, 2.5)
        word = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        ImageDraw.Draw(word).rectangle((w // 4, h // 4, 3 * w // 4, 3 * h // 4), fill=(20, 30, 140, 255))
        ours, pillows = _tilted(word, angle), word.rotate(angle, Image.Resampling.BILINEAR, expand=True)
        assert ours.size == pillows.size, (w, h, angle)
        ink_ours, ink_pillow = (np.asarray(im)[..., 3].astype(int).sum() for im in (ours, pillows))
        assert abs(ink_ours - ink_pillow) <= 0.03 * ink_pillow + 255 * 4


@pytest.mark.parametrize("sigma", [5.0, 9.0])
def test_sensor_noise_has_its_sigma_and_follows_the_seed(sigma):
    flat = np.full((600, 800, 3), 128, np.uint8)
    a = sensor_noise(flat, np.random.default_rng(1), sigma)
    assert abs(float(a.astype(float).std()) - sigma) < 0.1 * sigma
    assert np.array_equal(a[..., 0], a[..., 2])  # grey noise: the same on every channel
    assert np.array_equal(a, sensor_noise(flat, np.random.default_rng(1), sigma))
    assert not np.array_equal(a, sensor_noise(flat, np.random.default_rng(2), sigma))
    assert np.array_equal(flat, np.full((600, 800, 3), 128, np.uint8))  # the input is left alone


@pytest.mark.parametrize("light", [0.12, 0.22])
@pytest.mark.parametrize("noisy", [False, True])
def test_light_in_runs_of_columns_is_the_light_image_multiplied(photo, light, noisy):
    """The ramp laid on run by run (with the noise's positive part in the same weighted add) gives
    the pixels of multiplying by the whole light image and adding the noise after, exactly."""
    arr = photo[:300, :500].copy()
    ramp = np.linspace(255.0, 255.0 * (1 - light), 500, dtype=np.float32).astype(np.uint8)[::-1]
    grain = None
    expected = cv2.multiply(arr, cv2.resize(cv2.merge([ramp[None, :]] * 3), (500, 300), interpolation=cv2.INTER_NEAREST),
                            scale=1 / 255.0)
    if noisy:
        up, down = (np.random.default_rng(i).integers(0, 30, (300, 500), dtype=np.uint8) for i in (1, 2))
        grain = cv2.cvtColor(up, cv2.COLOR_GRAY2RGB), cv2.cvtColor(down, cv2.COLOR_GRAY2RGB)
        expected = cv2.subtract(cv2.add(expected, grain[0]), grain[1])
    out = lit_and_noisy(arr, ramp, grain)
    assert out is arr and np.array_equal(out, expected)


def test_jpeg_is_opencvs_round_trip(photo):
    assert np.array_equal(np.asarray(jpeg(photo, 35)), jpeg_array(photo, 35))


def test_a_level_three_photo_is_turned_and_shrunk_in_one_warp(photo):
    """Level 3 delivers its photo at its scan's scale; a level-3 degrade of a white page keeps the
    page's middle white-ish (turned about the centre, not shifted off the frame)."""
    ctx = Ctx("invoice", {}, seed=4, difficulty=3)
    page = np.full((400, 600, 3), 250, np.uint8)
    out = degrade(page, ctx, fill=(40, 40, 40))
    s = DEGRADE[3].scale
    assert s < 1 and out.size == (round(600 * s), round(400 * s)) and out.mode == "RGB"
    arr = np.asarray(out).astype(int)
    h, w = arr.shape[:2]
    assert arr[h // 2 - 20:h // 2 + 20, w // 2 - 20:w // 2 + 20].mean() > 170  # lit paper, noise and JPEG
    assert arr[:6, :6].mean() < 120 or arr[:6, -6:].mean() < 120  # a turned corner shows the fill
    assert np.array_equal(np.asarray(degrade(page, ctx, fill=(40, 40, 40))), arr)  # deterministic


def test_a_shadow_is_the_blurred_box():
    """At the core the shadow darkens by ``strength`` of 255, half that on the box's edge, nothing
    three sigmas out, and it is symmetric about the box's middle."""
    arr = np.full((200, 300, 3), 200, np.uint8)
    assert shade(arr, (60, 50, 240, 150), offset=0, blur=6, strength=90) == (42, 32, 258, 168)
    assert abs(int(arr[100, 150, 0]) - round(200 * (255 - 90) / 255)) <= 1
    assert abs((int(arr[100, 59, 0]) + int(arr[100, 60, 0])) / 2 - 200 * (255 - 45) / 255) <= 1  # either side of the edge
    assert arr[100, 41, 0] == arr[100, 259, 0] == 200 and arr[20, 150, 0] == 200
    assert np.array_equal(arr[:, 60:150], arr[:, 239:149:-1])


def test_sensor_noise_beyond_the_tile_draws_fresh_noise():
    big = np.full((NOISE_TILE + 10, 40, 3), 100, np.uint8)
    out = sensor_noise(big, np.random.default_rng(0), 5.0)
    assert out.shape == big.shape and 4.0 < out.astype(float).std() < 6.0


def _quad_matrix(w, h, affine):
    if affine:
        return cv2.getRotationMatrix2D((w / 2, h / 2), 6.5, 0.9)
    return cv2.getPerspectiveTransform(np.float32([(0, 0), (w, 0), (w, h), (0, h)]),
                                       np.float32([(25, 10), (w - 40, 30), (w - 15, h - 20), (5, h - 8)]))


@pytest.mark.parametrize("affine", [True, False])
def test_warp_through_rgba_equals_the_three_channel_warp(photo, affine):
    src = photo[:300, :420]
    h, w = src.shape[:2]
    m = _quad_matrix(w, h, affine)
    fn = cv2.warpAffine if affine else cv2.warpPerspective
    expected = fn(src, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(10, 200, 30))
    out = warp(src, m, (w, h), (10, 200, 30))
    assert out.shape == src.shape and np.array_equal(out, expected)
    assert (out == (10, 200, 30)).all(axis=2).any()  # the border shows where the picture turned away
    # onto a background: only the pixels the picture lands on are written
    under = photo[300:600, 300:720].copy()
    expected = under.copy()
    fn(src, m, (w, h), dst=expected, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    view = photo[300:600, 300:720].copy()
    assert warp(src, m, (w, h), onto=view) is view
    assert np.array_equal(view, expected) and not np.array_equal(view, under)


def test_lookup_equals_opencvs_three_channel_lookup():
    grey = np.random.default_rng(0).integers(0, 256, (40, 30), dtype=np.uint8)
    tables = tuple(np.random.default_rng(i).integers(0, 256, 256, dtype=np.uint8) for i in range(3))
    expected = cv2.LUT(cv2.cvtColor(grey, cv2.COLOR_GRAY2RGB), np.stack(tables, axis=-1)[None])
    assert np.array_equal(lookup(grey, tables), expected)


@pytest.mark.parametrize("k", [0.45, 0.7, 0.88])
def test_shrinking_a_page_stays_close_to_pillows_antialiased_bicubic(k):
    """What the photo levels were calibrated with: on average within about a grey level, no aliasing."""
    doc = render({"kind": "receipt", "seed": CLASSIC}, use_cache=False).image
    w, h = doc.size
    quad = [(0, 0), (w * k / 1.25, 0), (w * k / 1.25, h * k / 1.25), (0, h * k / 1.25)]
    out = _shrunk(doc, quad).astype(int)
    ref = np.asarray(doc.resize((out.shape[1], out.shape[0]), Image.Resampling.BICUBIC)).astype(int)
    assert abs(out.shape[1] / w - k) < 0.01
    assert np.abs(out - ref).mean() < 1.5
    assert abs(out.std() - ref.std()) < 0.05 * ref.std()  # neither much blurrier nor sharper


@pytest.mark.parametrize("shown", [SAMPLED_AS_DRAWN[0] + 0.01, 0.9, 1.0, SAMPLED_AS_DRAWN[1] - 0.01])
def test_a_page_shown_near_its_drawn_size_is_warped_from_as_drawn(shown):
    doc = render({"kind": "receipt", "seed": CLASSIC}, use_cache=False).image
    w, h = doc.size
    quad = [(0, 0), (w * shown, 0), (w * shown, h * shown), (0, h * shown)]
    assert np.array_equal(_shrunk(doc, quad)[..., :3], np.asarray(doc))  # (RGB and a filler, as Pillow keeps it)
    outside = [(0, 0), (w * 1.3, 0), (w * 1.3, h * 1.3), (0, h * 1.3)]
    assert _shrunk(doc, outside).shape[1] > w * 1.3  # enlarged first, to 1.25x its size in the photo


@pytest.mark.parametrize("box", [(200, 300, 420, 610), (0, 0, 130, 170), (600, 900, 768, 1024)])
def test_a_jpeg_region_is_the_whole_frames_round_trip_there_and_uncoded_elsewhere(photo, box):
    whole = np.asarray(jpeg(photo, 68))
    out = np.asarray(jpeg_regions(photo.copy(), 68, [list(box)]))
    x0, y0, x1, y1 = box
    assert np.array_equal(out[y0:y1, x0:x1], whole[y0:y1, x0:x1])
    m = JPEG_MARGIN + 16  # past the margin and the block it ends in: the frame as it was
    outside = np.ones(photo.shape[:2], bool)
    outside[max(0, y0 - m):y1 + m, max(0, x0 - m):x1 + m] = False
    assert np.array_equal(out[outside], photo[outside])
    assert not np.array_equal(out[y0:y1, x0:x1], photo[y0:y1, x0:x1])


@pytest.mark.parametrize("quality", [92, 68])
def test_jpeg_regions_are_the_whole_frames_round_trip_in_every_box_and_uncoded_elsewhere(photo, quality):
    boxes = [[200, 300, 330, 420], [300, 390, 420, 520], [0, 0, 90, 70], [700, 950, 768, 1024], [50, 700, 60, 710]]
    whole = np.asarray(jpeg(photo, quality))
    out = np.asarray(jpeg_regions(photo.copy(), quality, boxes))
    near = np.zeros(photo.shape[:2], bool)
    for x0, y0, x1, y1 in boxes:  # the boxes overlap in pairs, sit at the frame's corners, or are tiny
        assert np.array_equal(out[y0:y1, x0:x1], whole[y0:y1, x0:x1]), (x0, y0)
        m = JPEG_MARGIN + 16
        near[max(0, y0 - m):y1 + m, max(0, x0 - m):x1 + m] = True
    assert np.array_equal(out[~near], photo[~near])
    assert not np.array_equal(out[near], photo[near])
    many = [[x, y, x + 100, y + 100] for x in range(0, 700, 90) for y in range(0, 1000, 90)]
    assert np.array_equal(np.asarray(jpeg_regions(photo.copy(), quality, many)), whole)  # most of the frame: all of it


def test_a_jpeg_region_over_most_of_the_frame_codes_the_whole_frame(photo):
    h, w = photo.shape[:2]
    out = jpeg_regions(photo.copy(), 85, [[20, 20, w - 20, h - 20]])
    assert np.array_equal(np.asarray(out), np.asarray(jpeg(photo, 85)))


@pytest.mark.parametrize("size", [(1024, 768), (333, 101), (7, 3)])
def test_the_noise_takes_the_bytes_generator_bytes_would_give(size):
    ours = grey_noise(np.random.default_rng(9), size, 4.0)
    picks = np.frombuffer(np.random.default_rng(9).bytes(size[0] * size[1]), np.uint8).reshape(size[1], size[0])
    up, down = _noise_tables(4.0)
    assert all(np.array_equal(a, cv2.LUT(picks, t)) for a, t in zip(ours, (up, down)))
    assert ours[0].shape == (size[1], size[0]) and ours[0].any() and ours[1].any()


@pytest.mark.parametrize("box", [(40, 30, 200, 150), (0, 0, 120, 90), (150, 100, 260, 200)])
def test_a_covered_shadow_is_the_same_shadow_outside_the_box(photo, box):
    full, covered = photo[:200, :260].copy(), photo[:200, :260].copy()
    assert shade(full, box, offset=6, blur=8) == shade(covered, box, offset=6, blur=8, covered=True)
    x0, y0, x1, y1 = box
    outside = np.ones(full.shape[:2], bool)
    outside[y0:y1, x0:x1] = False
    assert np.array_equal(full[outside], covered[outside])
    assert np.array_equal(covered[y0:y1, x0:x1], photo[y0:y1, x0:x1])  # untouched under the document
    assert not np.array_equal(full[outside], photo[:200, :260][outside])  # and there is a shadow


def test_drawing_on_a_crop_gives_the_pixels_of_drawing_on_the_whole_frame(photo):
    r = random.Random(5)
    whole = Image.fromarray(photo.copy())
    arr = photo.copy()
    for what in [0, 1, 2, 3, 4, 1, 0]:
        cx, cy, s = r.uniform(0, photo.shape[1]), r.uniform(0, photo.shape[0]), r.uniform(40, 110)
        state = r.getstate()
        shapes = _clutter_shapes(r, what, cx, cy, s, (200, 60, 50))
        r.setstate(state)
        assert shapes == _clutter_shapes(r, what, cx, cy, s, (200, 60, 50))  # the same draws give the same object
        d = ImageDraw.Draw(whole, "RGBA")
        for method, pts, kw in shapes:
            (d.polygon(list(zip(pts[0::2], pts[1::2])), **kw) if method == "polygon" else getattr(d, method)(pts, **kw))
        pad = 2 + max(kw.get("width", 0) for _, _, kw in shapes)
        xs, ys = [x for _, p, _ in shapes for x in p[0::2]], [y for _, p, _ in shapes for y in p[1::2]]
        with drawing_on(arr, (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)) as (dc, ox, oy):
            for method, pts, kw in shapes:
                shifted = [v - (ox if i % 2 == 0 else oy) for i, v in enumerate(pts)]
                (dc.polygon(list(zip(shifted[0::2], shifted[1::2])), **kw) if method == "polygon" else getattr(dc, method)(shifted, **kw))
    assert np.array_equal(arr, np.asarray(whole)) and not np.array_equal(arr, photo)


def test_the_strips_around_a_rectangle_cover_the_rest_of_the_region_once():
    for inner in [(10, 20, 50, 60), (-5, 30, 200, 40), (0, 0, 80, 70), (30, 30, 20, 50), (90, 90, 120, 120)]:
        count = np.zeros((70, 80), int)
        for y0, y1, x0, x1 in _outside(inner, (80, 70)):
            count[y0:y1, x0:x1] += 1
        x0, y0, x1, y1 = inner
        expected = np.ones((70, 80), int)
        if x1 > x0 and y1 > y0:
            expected[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 0
        assert np.array_equal(count, expected), inner


def test_the_contact_shadow_darkens_beside_the_picture_never_inside_it(photo):
    photo = np.full((620, 520, 3), 205, np.uint8)  # a light table: what lies on it (clutter, the page's layout) is not the point
    photo[::7] = 190
    arr = photo.copy()
    quad = [(100.4, 80.2), (420.7, 95.1), (410.3, 560.8), (90.6, 540.2)]
    _contact_shadow(arr, quad, [90, 80, 421, 561])
    diff = photo.astype(int) - arr.astype(int)
    assert (diff >= 0).all()  # only darker
    assert np.array_equal(arr[100:530, 110:400], photo[100:530, 110:400])  # inside: left for the picture
    below = [diff[int(540.2 + 20.6 * (x - 90.6) / 319.7) + 5, x].mean() for x in range(150, 380)]
    right = [diff[y, int(420.7 - 10.4 * (y - 95.1) / 465.7) + 5].mean() for y in range(150, 500)]
    assert min(below) > 10 and min(right) > 10  # just below and right of it: the shadow
    assert diff[:60].max() == 0 and diff[:, :70].max() == 0  # above and left, beyond the blur: untouched


def _pasted_whole(arr: np.ndarray, tile: Image.Image, box: list[int]) -> np.ndarray:
    """The tile premultiplied, blurred and resized whole, then blended over its box (the path the
    product photo's crop must equal)."""
    x0, y0, x1, y1 = box
    rgba = np.asarray(tile).astype(np.float64)
    pre = np.concatenate([rgba[..., :3] * rgba[..., 3:] / 255, rgba[..., 3:]], axis=2).astype(np.float32)
    k = min((x1 - x0) / tile.width, (y1 - y0) / tile.height)
    if k < 1:
        pre = cv2.GaussianBlur(pre, (0, 0), 0.5 * np.sqrt(1 / k - 1))
    small = cv2.resize(pre, (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR)
    out = arr.astype(np.float64)
    out[y0:y1, x0:x1] = out[y0:y1, x0:x1] * (1 - small[..., 3:] / 255) + small[..., :3]
    return out


@pytest.mark.parametrize("obj", ["bottle", "mug", "box", "can", "bag"])
def test_a_product_shrunk_from_its_drawn_part_is_the_whole_tile_shrunk(photo, obj):
    from mmtsb_env.vision.render._common import Ctx
    from mmtsb_env.vision.render.product_photo import _paste_scaled, _tile

    tile = _tile(obj, (30, 90, 170), "Brand", Ctx("product_photo", {}, 0, 0))
    for box in ([40, 100, 370, 443], [300, 200, 465, 372]):
        arr = photo.copy()
        _paste_scaled(arr, tile, box)
        diff = np.abs(arr.astype(float) - _pasted_whole(photo, tile, box))
        assert diff.max() <= 2 and diff.mean() < 0.01, (obj, box, diff.max(), diff.mean())
        assert not np.array_equal(arr, photo)


def test_objects_drawn_on_their_crops_are_the_objects_drawn_on_the_frame(photo):
    from mmtsb_env.vision.render.object_scene import _draw

    r = random.Random(11)
    whole, arr = Image.fromarray(photo.copy()), photo.copy()
    for i in range(60):
        side = r.uniform(60, 160)
        x0, y0 = r.uniform(-20, photo.shape[1] - 100), r.uniform(-20, photo.shape[0] - 100)
        box = (int(x0), int(y0), int(x0 + side), int(y0 + side))
        shape = ["ball", "mug", "star", "box", "bottle", "apple"][i % 6]
        _draw(ImageDraw.Draw(whole, "RGBA"), shape, box, (40, 120, 200))
        with drawing_on(arr, (box[0] - 20, box[1] - 20, box[2] + 20, box[3] + 20)) as (d, ox, oy):
            _draw(d, shape, (box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy), (40, 120, 200))
    assert np.array_equal(arr, np.asarray(whole))


def test_remembered_text_lines_draw_pillows_pixels():
    from mmtsb_env.vision.fonts import get_font
    from mmtsb_env.vision.render._common import _line_mask, drawer

    font, small = get_font("sans", 17), get_font("serif-italic", 11)
    calls = [((10.0, 12.0), "Total due", font, (20, 20, 25), None),
             ((200.4, 30.7), "$1,204.50", font, (200, 30, 30), "ra"),
             ((60.25, 80.5), "Payments received after the due date", small, "navy", "lm"),
             ((12.0, 120.0), "two\nlines", font, (0, 0, 0), None)]  # multi-line text: Pillow's own path
    for mode, back in (("RGB", (250, 249, 244)), ("RGBA", (0, 0, 0, 0)), ("L", 255)):
        for _ in range(2):  # the second time every line is remembered
            ours, theirs = Image.new(mode, (320, 160), back), Image.new(mode, (320, 160), back)
            mine, pillow = drawer(ours), ImageDraw.Draw(theirs)
            for xy, text, f, fill, anchor in calls:
                ink = fill if mode != "L" else 40
                mine.text(xy, text, fill=ink, font=f, anchor=anchor)
                pillow.text(xy, text, fill=ink, font=f, anchor=anchor)
            assert np.asarray(ours).any() and np.array_equal(np.asarray(ours), np.asarray(theirs))
    assert _line_mask.cache_info().hits >= 3 * 3


def test_ink_planes_lay_the_ink_as_an_rgba_layer_of_it_would():
    """The handwriting keeps its words as coverage and tone planes (handwritten_note._Ink); laid
    on the sheet they give what compositing RGBA words of the ink (Pillow) gives, within 2 levels."""
    from mmtsb_env.vision.render.handwritten_note import _Ink, _ink_onto, _word_image

    ink, rng = (28, 50, 140), random.Random(5)
    page = render({"kind": "receipt", "seed": 1, "difficulty": 0}, use_cache=False).image
    sheet = np.asarray(page)[:300, :500].copy()
    planes, rgba = _Ink((500, 300)), Image.new("RGBA", (500, 300), (0, 0, 0, 0))
    for k, word in enumerate(["Groceries", "milk", "2 lemons", "sunflower42", "Tue 3:30"]):
        mask = _word_image(word, 30 + 2 * k, "sans-oblique", rng)
        angle, pos = rng.uniform(-2.5, 2.5), (20 + 60 * k, 20 + 50 * k)
        word_rgba = Image.merge("RGBA", [mask.point(lambda v, c=c: c if v else 0) for c in ink] + [mask])
        rgba.alpha_composite(_tilted(word_rgba, angle), pos)
        planes.stamp(mask, pos, angle)
    expected = Image.alpha_composite(Image.fromarray(sheet).convert("RGBA"), rgba).convert("RGB")
    expected = np.asarray(expected).astype(int)
    _ink_onto(sheet, np.asarray(planes.cover), np.asarray(planes.tone), ink)
    assert (np.asarray(planes.cover) > 0).mean() > 0.02
    assert np.abs(sheet.astype(int) - expected).max() <= 2


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_a_sheet_drawn_in_place_gives_the_pixels_of_a_paper_image(difficulty):
    """A Sheet's image draws into its four-channel pixels; put on the desk and scanned, the page is
    what the same drawing on texture("paper") (an RGB image, converted) gives, at every level."""
    from mmtsb_env.vision.fonts import get_font
    from mmtsb_env.vision.render._common import Sheet, drawer, place_on, sheet, texture

    def draw(image):
        d = drawer(image)
        d.rectangle((0, 0, 420, 12), fill=(40, 60, 110))
        d.text((30.5, 40.25), "Invoice INV-2026-0042", font=get_font("sans-bold", 19), fill=(30, 30, 35))
        d.text((400, 80), "$1,204.50", font=get_font("sans", 15), fill=(95, 95, 100), anchor="ra")
        d.line((30, 120, 400, 120), fill=(200, 200, 205), width=1)
        d.rounded_rectangle((30, 140, 200, 200), radius=9, outline=(120, 120, 125), width=2)
        d.ellipse((250, 140, 300, 190), fill=(200, 40, 40))

    ctx = lambda: Ctx("invoice", {}, 7, difficulty)  # noqa: E731 (a fresh context: the same random streams)
    page = sheet(ctx(), (420, 300), (255, 255, 253))
    assert isinstance(page, Sheet) and (page.pixels is None) == (difficulty == 0)
    draw(page.image)
    plain = texture("paper", (420, 300), ctx().np_rng("paper"), (255, 255, 253))
    draw(plain)
    if page.pixels is not None:
        assert page.pixels.shape == (300, 420, 4)
        assert np.array_equal(page.pixels[..., :3], np.asarray(plain))  # the strokes landed in the array
    ours = degrade(place_on(page, ctx(), "desk", margin=0.05), ctx(), scan=DEGRADE[difficulty])
    theirs = degrade(place_on(plain, ctx(), "desk", margin=0.05), ctx(), scan=DEGRADE[difficulty])
    assert ours.mode == "RGB" and np.asarray(ours).std() > 5
    assert np.array_equal(np.asarray(ours), np.asarray(theirs))


def _greedy(words: list[str], fits) -> list[str]:
    """Greedy word wrap measured word by word (what both wraps did before their one-line shortcut)."""
    lines, line = [], None
    for word in words:
        if line is not None and fits(f"{line} {word}"):
            line = f"{line} {word}"
            continue
        if line is not None:
            lines.append(line)
        line = word
    return lines + ([line] if line is not None else [])


def test_a_line_that_fits_is_wrapped_as_word_by_word_wrapping_would():
    """Both wraps take a paragraph that fits as one line with one measurement; word by word they
    gave the same lines (a shorter start of a line never measures wider)."""
    from mmtsb_env.vision.canvas import TextMeasure
    from mmtsb_env.vision.fonts import get_font
    from mmtsb_env.vision.render._common import text_width, wrap
    from mmtsb_env.vision.render._phone import _measure

    rng = random.Random(3)
    vocab = ["Wi-Fi", "Tickets", "from", "$25.00", "AV", "Tower", "Lumen", "Wireless", "ffi", "WAVE", ".", "Payments", "received"]
    screens, plain = _measure(), TextMeasure(2)
    shortcuts = 0
    for _ in range(400):
        words = [rng.choice(vocab) for _ in range(rng.randint(1, 7))]
        text = " ".join(words)
        for width in (60, 160, 420):
            font = get_font("sans", 15)
            expected = _greedy(words, lambda s: text_width(font, s) <= width)
            if all(text_width(font, w) <= width for w in words):  # no word to break by characters
                assert wrap(text, font, width) == expected
            assert screens.wrap(text, "sans", 15, width) == plain.wrap(text, "sans", 15, width)
            shortcuts += len(expected) == 1
    assert shortcuts > 100  # the shortcut was taken often


@pytest.mark.parametrize("setting, kept", [(None, True), ("1", True), ("0", False)])
def test_the_allocator_setting_is_made_at_import_unless_switched_off(setting, kept):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "MMTSB_KEEP_FREED_PAGES"}
    if setting is not None:
        env["MMTSB_KEEP_FREED_PAGES"] = setting
    code = "from mmtsb_env.vision.render import _common; print(_common.KEEPS_FREED_PAGES)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(kept and sys.platform.startswith("linux"))


def test_a_picture_photographed_with_a_rim_lies_where_the_picture_and_its_border_would():
    """``photograph(rim=r)`` places the picture as one ``r`` px larger all round (the same facts),
    the picture itself inside that border (``inset``: the same perspective map), the border the
    scene's own surface."""
    from mmtsb_env.vision.render._scene import inset, photograph
    ctx = Ctx("note_photo", {}, seed=3, difficulty=1)
    small = np.full((300, 200, 3), 250, np.uint8)
    photo, facts = photograph(small, ctx, "wood", rim=40)
    _, facts_big = photograph(np.full((380, 280, 3), 250, np.uint8), ctx, "wood")
    assert facts == facts_big
    quad = [(10.0, 20.0), (290.0, 30.0), (280.0, 400.0), (15.0, 390.0)]
    assert np.allclose(inset(quad, (280, 380), 0), quad, atol=1e-3)
    inner = inset(quad, (280, 380), 40)
    assert all(min(p[0] for p in quad) < x < max(p[0] for p in quad) for x, _ in inner)
    arr = np.asarray(photo).astype(int)
    x0, y0, x1, y1 = facts["doc_box"]
    core = arr[(y0 + y1) // 2 - 20:(y0 + y1) // 2 + 20, (x0 + x1) // 2 - 20:(x0 + x1) // 2 + 20]
    edge = arr[y0 + 6:y0 + 16, (x0 + x1) // 2 - 20:(x0 + x1) // 2 + 20]  # inside the box, on the border
    assert core.mean() > 200 and abs(edge.mean() - core.mean()) > 30  # the picture, then the wood around it


def test_a_look_of_quality_0_skips_the_jpeg_round_trip():
    """``camera(look=...)`` works as that level; quality 0 delivers the frame uncoded: coding it
    after gives the photo of the same look with JPEG."""
    from dataclasses import replace
    from mmtsb_env.vision.render._scene import LEVELS, TEXT_LOOKS, camera
    ctx = Ctx("receipt_photo", {}, seed=5, difficulty=0)
    frame = np.random.default_rng(0).integers(60, 200, (96, 128, 3), dtype=np.uint8)
    plain = camera(frame.copy(), ctx, look=replace(LEVELS[1], quality=0))
    coded = camera(frame.copy(), ctx, look=LEVELS[1])
    assert np.array_equal(np.asarray(jpeg(np.asarray(plain), LEVELS[1].quality)), np.asarray(coded))
    assert not np.array_equal(np.asarray(plain), np.asarray(coded))
    assert TEXT_LOOKS[0].quality == 0 and TEXT_LOOKS[0].noise == 0 and TEXT_LOOKS[1] == LEVELS[1]


@pytest.mark.parametrize("fourth", ["RGBA", "RGBX"])
def test_jpeg_of_a_four_channel_array_is_the_jpeg_of_its_rgb(photo, fourth):
    four = cv2.cvtColor(photo, cv2.COLOR_RGB2RGBA)
    four[..., 3] = np.random.default_rng(0).integers(0, 256, four.shape[:2], dtype=np.uint8) if fourth == "RGBA" else 255
    assert np.array_equal(np.asarray(jpeg(four, 80)), np.asarray(jpeg(photo, 80)))


@pytest.mark.parametrize("kind,level", [("event_screen", 3), ("settings_screen", 3), ("inbox", 2)])
def test_a_shrunk_screen_stays_close_to_pillows_antialiased_bilinear(monkeypatch, kind, level):
    """What the screens' levels 2-3 looked like before OpenCV took the shrink: within about a grey
    level on average, the contrast at most a tenth above (it is 2-7 % sharper) and never below."""
    from dataclasses import replace
    from types import SimpleNamespace

    from mmtsb_env.vision.render import _phone

    seen = {}
    camera = _phone.Screen._camera
    monkeypatch.setattr(_phone.Screen, "_camera", lambda self, pixels, size: seen.update(pixels=pixels.copy(), size=size) or camera(self, pixels, size))
    render({"kind": kind, "seed": 1, "difficulty": level}, use_cache=False).image
    (w, h), look = seen["size"], replace(_phone.LOOKS[level], quality=None)
    out = np.asarray(camera(SimpleNamespace(look=look), seen["pixels"], (w, h))).astype(int)
    half = cv2.resize(seen["pixels"], (w, h), interpolation=cv2.INTER_AREA)
    ref = Image.frombuffer("RGBX", (w, h), half, "raw", "RGBX", 0, 1).convert("RGB")
    ref = np.asarray(ref.resize((int(w * look.shrink), int(h * look.shrink)), Image.Resampling.BILINEAR)).astype(int)
    assert out.shape == ref.shape
    assert np.abs(out - ref).mean() < 1.5
    assert ref.std() <= out.std() < 1.1 * ref.std()


def test_ruled_lines_are_pillows_two_pixel_lines():
    """Lined paper is ruled by setting rows and columns (handwritten_note._rule): the pixels of
    Pillow's 2-px lines across the sheet along those rows and that column."""
    from mmtsb_env.vision.render.handwritten_note import _rule

    paper = np.asarray(render({"kind": "receipt", "seed": 2, "difficulty": 0}, use_cache=False).image)[:400, :300].copy()
    image = Image.fromarray(paper)
    d = ImageDraw.Draw(image)
    for y in range(60, 380, 54):
        d.line((0, y + 3, 300, y + 3), fill=(170, 195, 230), width=2)
    d.line((85, 0, 85, 400), fill=(230, 140, 140), width=2)
    _rule(paper, range(60, 380, 54), 85)
    assert np.array_equal(paper, np.asarray(image))


@pytest.mark.parametrize("blob", [(40, 30, 70, 50), (0, 0, 20, 15), (110, 80, 128, 96), (-5, 60, 30, 120)])
def test_a_spot_brought_up_in_part_is_the_whole_map_brought_up_there(blob):
    """A cast shadow's or a glare's small map is brought up over its own part only (_up_part): the
    same pixels as bringing up the whole map and cutting out where it is not zero."""
    from mmtsb_env.vision.render._scene import SPOT, _up_part

    size = (1024, 768)
    mask = Image.new("L", (size[0] // SPOT, size[1] // SPOT), 0)
    ImageDraw.Draw(mask).ellipse(blob, fill=150)
    small = np.asarray(mask.filter(ImageFilter.GaussianBlur(4)))
    whole = cv2.resize(small, size, interpolation=cv2.INTER_LINEAR)
    x, y, w, h = cv2.boundingRect(whole)
    left, top, part = _up_part(small, size)
    assert w and h and (left, top) == (x, y) and np.array_equal(part, whole[y:y + h, x:x + w])
    assert _up_part(np.zeros_like(small), size)[2].size == 0


def test_the_wobble_copies_pixels_and_takes_the_edge_beyond_the_sheet():
    """The hand's wobble (handwritten_note._wave) moves each pixel of the ink's planes by whole
    pixels, sinusoidally per row and per column; a source beyond the sheet is its edge pixel."""
    from mmtsb_env.vision.render.handwritten_note import _wave

    g = np.random.default_rng(3)
    cover = np.zeros((90, 120), np.uint8)
    cover[0:60, 80:120] = g.integers(1, 256, (60, 40))  # ink up to the top and right edges
    tone = g.integers(0, 256, (90, 120)).astype(np.uint8)
    amplitude, period = 3.0, 7.0
    waved = _wave([cover, tone], random.Random(4), amplitude, period)
    r = random.Random(4)
    phase_x, phase_y = r.uniform(0, 6.28), r.uniform(0, 6.28)
    ys, xs = np.mgrid[0:90, 0:120]
    sx = np.clip(xs + (amplitude * np.sin(ys / period + phase_x)).astype(int), 0, 119)
    sy = np.clip(ys + (amplitude * 0.8 * np.sin(xs / (period * 1.7) + phase_y)).astype(int), 0, 89)
    near = np.zeros_like(cover, bool)
    near[0:64, 76:120] = True  # the ink's box grown by the largest shift: what the wobble redraws
    for plane, out in zip((cover, tone), waved):
        assert np.array_equal(out[near], plane[sy, sx][near])
        assert not out[~near].any()
