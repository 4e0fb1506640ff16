"""The Pillow renderer: every component draws, pixels are deterministic (golden images), renders are
thread-safe, highlight and height limits work."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mmtsb_env.ui import COMPONENT_TYPES
from mmtsb_env.ui.docs import EXAMPLES
from mmtsb_env.ui.renderer import format_datetime_value, render_surface
from mmtsb_env.ui.state import Surface, apply_messages
from mmtsb_env.ui.screens import substitute_placeholders
from mmtsb_env.ui.validation import validate_messages

from .conftest import NOW, photo

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_EXAMPLES = ("booking_form", "confirmation_dialog", "product_comparison")


def surface_of(messages, placeholders=None) -> Surface:
    msgs = substitute_placeholders(validate_messages(messages), placeholders or {})
    surfaces: dict[str, Surface] = {}
    (sid,) = apply_messages(surfaces, msgs)
    return surfaces[sid]


def example_surface(name: str) -> Surface:
    ex = EXAMPLES[name]
    return surface_of(ex["messages"], ex.get("image_placeholders"))


@pytest.fixture
def images():
    from mmtsb_env.vision import ImageStore

    return ImageStore([photo(0), photo(1)])


def render(name, images, **kw):
    return render_surface(example_surface(name), images, now=NOW, **kw)


def test_every_component_type_is_drawn_with_visible_pixels(images):
    drawn: dict[str, int] = {}
    for name in EXAMPLES:
        out = render(name, images)
        arr = np.asarray(out.image).astype(int)
        for node in out.tree.walk():
            x0, y0, x1, y1 = (round(v) for v in out.boxes[node.id])
            assert 0 <= x0 < x1 <= 600 and 0 <= y0 < y1 <= out.image.height, (name, node.id, out.boxes[node.id])
            patch = arr[y0:y1, x0:x1].reshape(-1, 3)
            codes, counts = np.unique(patch[:, 0] << 16 | patch[:, 1] << 8 | patch[:, 2], return_counts=True)
            code = int(codes[counts.argmax()])  # the backdrop the component sits on
            dominant = np.array([code >> 16, (code >> 8) & 255, code & 255])
            ink = int((np.abs(patch - dominant).sum(axis=1) > 40).sum())
            drawn[node.type] = max(drawn.get(node.type, 0), ink)
        assert out.warnings == [], (name, out.warnings)
    assert set(drawn) == set(COMPONENT_TYPES)
    assert all(v > 20 for v in drawn.values()), drawn


def test_render_is_phone_sized_and_deterministic(images):
    a = render("booking_form", images)
    b = render("booking_form", images)
    assert a.image.width == 600 and 420 <= a.image.height <= 2400
    assert a.image.tobytes() == b.image.tobytes()


def _compare(actual: Image.Image, expected: Image.Image) -> tuple[float, float]:
    a = np.asarray(actual.convert("RGB")).astype(int)
    e = np.asarray(expected.convert("RGB")).astype(int)
    assert a.shape == e.shape, (a.shape, e.shape)
    diff = np.abs(a - e).max(axis=2)
    return float(diff.mean()), float((diff > 40).mean())


@pytest.mark.parametrize("name", GOLDEN_EXAMPLES)
def test_golden_images(name, images):
    out = render(name, images)
    path = GOLDEN / f"{name}.png"
    if os.environ.get("MMTSB_UPDATE_GOLDEN"):
        out.image.save(path)
    mean, frac = _compare(out.image, Image.open(path))
    # small tolerance: font anti-aliasing may differ between FreeType builds
    assert mean < 1.5 and frac < 0.01, (mean, frac)


def test_golden_comparison_catches_a_real_change(images):
    out = render("booking_form", images)
    surface = example_surface("booking_form")
    surface.data["booking"]["guests"] = 9  # slider knob moves, value text changes
    changed = render_surface(surface, images, now=NOW)
    mean, frac = _compare(changed.image, out.image)
    assert frac > 0.0005 and mean > 0.05


def test_concurrent_renders_give_identical_pixels(images):
    expected = {name: render(name, images).image.tobytes() for name in GOLDEN_EXAMPLES}
    jobs = [name for name in GOLDEN_EXAMPLES for _ in range(4)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda n: (n, render(n, images).image.tobytes()), jobs))
    assert all(data == expected[n] for n, data in results)


def test_highlight_outlines_the_component_in_red(images):
    plain = render("confirmation_dialog", images)
    marked = render("confirmation_dialog", images, highlight="confirm")
    x0, y0, x1, y1 = (round(v) for v in plain.boxes["confirm"])
    arr = np.asarray(marked.image).astype(int)
    ring = arr[y0 - 5:y1 + 5, x0 - 5:x1 + 5]
    red = (ring[..., 0] > 200) & (ring[..., 1] < 90) & (ring[..., 2] < 90)
    assert red.sum() > 100
    assert not ((np.asarray(plain.image)[..., 0] > 200) & (np.asarray(plain.image)[..., 1] < 90)).any()


def test_images_from_the_store_appear_on_screen(images):
    out = render("product_comparison", images)
    x0, y0, x1, y1 = (round(v) for v in out.boxes["img_a"])
    centre = np.asarray(out.image)[(y0 + y1) // 2, (x0 + x1) // 2]
    assert tuple(centre) == pytest.approx((250, 250, 250), abs=6)  # the white square in the test photo


def test_missing_and_web_images_draw_a_placeholder_with_a_warning(images):
    msgs = [{"surfaceUpdate": {"surfaceId": "s", "components": [
        {"id": "root", "component": {"Column": {"children": ["web"]}}},
        {"id": "web", "component": {"Image": {"url": "https://example.com/cat.jpg"}}}]}},
        {"beginRendering": {"surfaceId": "s", "root": "root"}}]
    out = render_surface(surface_of(msgs), images)
    assert any("no network" in w for w in out.warnings)


def test_tall_screens_are_cut_at_the_limit_with_a_warning(images):
    comps = [{"id": "root", "component": {"Column": {"children": [f"t{i}" for i in range(120)]}}}]
    comps += [{"id": f"t{i}", "component": {"Text": {"text": f"Line {i}", "usageHint": "h2"}}} for i in range(120)]
    out = render_surface(surface_of([{"surfaceUpdate": {"surfaceId": "s", "components": comps}},
                                     {"beginRendering": {"surfaceId": "s", "root": "root"}}]), images)
    assert out.image.height == 2400 and any("only the first 2400 px" in w for w in out.warnings)


def test_long_text_wraps_inside_the_screen(images):
    words = "word " * 200
    msgs = [{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "root", "component": {"Text": {"text": words + "x" * 300}}}]}},
            {"beginRendering": {"surfaceId": "s", "root": "root"}}]
    out = render_surface(surface_of(msgs), images)
    x0, y0, x1, y1 = out.boxes["root"]
    assert x1 <= 600 - 18 + 1 and y1 - y0 > 200


def test_primary_color_style_changes_buttons(images):
    ex = EXAMPLES["confirmation_dialog"]["messages"]
    styled = [m if "beginRendering" not in m else {"beginRendering": {**m["beginRendering"], "styles": {"primaryColor": "#00AA00"}}}
              for m in ex]
    out = render_surface(surface_of(styled), images)
    x0, y0, x1, y1 = (round(v) for v in out.boxes["confirm"])
    pixel = np.asarray(out.image)[(y0 + y1) // 2, x0 + 8]
    assert tuple(pixel) == pytest.approx((0, 170, 0), abs=12)


def test_datetime_formatting():
    assert format_datetime_value("2026-04-18T19:30", True, True) == "Sat, Apr 18, 2026 · 19:30"
    assert format_datetime_value("2026-04-18", True, False) == "Sat, Apr 18, 2026"
    assert format_datetime_value("07:05", False, True) == "07:05"
    assert format_datetime_value("next week") == "next week"


def test_docs_gallery_has_an_image_per_example():
    from mmtsb_env.ui.gallery import gallery_images

    docs = Path(__file__).resolve().parents[2] / "docs"
    images = gallery_images()
    assert set(images) == set(EXAMPLES) | {"interaction_clicked"}
    for name in images:
        assert (docs / "images" / f"ui_{name}.png").is_file(), name
        assert f"images/ui_{name}.png" in (docs / "ui.md").read_text()


def test_extreme_image_shapes_and_hints_render():
    from mmtsb_env.vision import ImageStore

    store = ImageStore([Image.new("RGB", (1000, 3), (200, 0, 0)), Image.new("RGB", (2, 900), (0, 0, 200))])
    comps = [{"id": "root", "component": {"Row": {"children": ["a", "b", "c", "d"]}}}]
    for cid, ref, hint in (("a", 0, "avatar"), ("b", 1, "icon"), ("c", 0, "header"), ("d", 1, None)):
        props = {"image_id": ref, **({"usageHint": hint} if hint else {}), "fit": "cover"}
        comps.append({"id": cid, "component": {"Image": props}})
    out = render_surface(surface_of([{"surfaceUpdate": {"surfaceId": "s", "components": comps}},
                                     {"beginRendering": {"surfaceId": "s", "root": "root"}}]), store)
    assert out.warnings == [] and out.image.width == 600
