"""The vision tools: pixel-level behaviour and every error path."""

import numpy as np
import pytest
from PIL import Image

from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.catalog import REGISTRY, get_tool
from mmtsb_env.vision import ImageStore
from mmtsb_env.vision.tools import SAVED
from mmtsb_env.world import Layer, World

VISION_TOOLS = ["view_image", "get_image_size", "crop_image", "draw_bbox", "resize_image", "rotate_image",
                "enhance_image", "save_image", "show_image_to_user", "plot"]


def test_registered_with_reference_parameters():
    for name in VISION_TOOLS:
        t = get_tool(name)
        assert t.app == "vision" and not t.requires
    params = {p.name: p for p in REGISTRY["draw_bbox"].params}
    assert list(params) == ["image_id", "left", "upper", "right", "lower", "color", "width"]
    assert params["color"].default == "red" and params["width"].default == 5
    assert [p.name for p in REGISTRY["rotate_image"].params] == ["image_id", "angle", "expand"]
    assert REGISTRY["show_image_to_user"].params[1].default == "Here is the image"
    assert [p.name for p in REGISTRY["plot"].params] == (
        "type title x y categories data heights groups sizes labels matrix xlabel ylabel color marker line_style "
        "linewidth point_size num_bins bar_label_rotation show_means explode start_angle color_map show_colorbar "
        "figsize grid xlim ylim dpi"
    ).split()
    assert REGISTRY["save_image"].writes and not REGISTRY["crop_image"].writes


def test_view_and_size(vcall):
    out = vcall("view_image", image_id=0)
    assert out.image_ids == [0] and out.result["width"] == 400 and out.result["height"] == 200
    assert len(vcall.store) == 3  # viewing adds nothing
    assert vcall("get_image_size", image_id=2).result == {"image_id": 2, "width": 300, "height": 300}


@pytest.mark.parametrize("box, size", [((0, 0, 500, 500), (200, 100)), ((250, 100, 750, 900), (200, 160)),
                                       ((0, 0, 1000, 1000), (400, 200)), ((999, 999, 1000, 1000), (1, 1)),
                                       ((123, 457, 321, 789), (79, 67))])
def test_crop_size_matches_normalised_box(vcall, box, size):
    left, upper, right, lower = box
    out = vcall("crop_image", image_id=0, left=left, upper=upper, right=right, lower=lower)
    assert out.image_ids == [3] and out.result["image_id"] == 3
    img = vcall.image(out)
    assert img.size == size == (out.result["width"], out.result["height"])
    assert abs(img.width - (right - left) * 400 / 1000) <= 1 and abs(img.height - (lower - upper) * 200 / 1000) <= 1


def test_crop_content_is_the_right_region(vcall):
    red = vcall.image(vcall("crop_image", image_id=0, left=0, upper=0, right=500, lower=500))
    assert set(red.get_flattened_data()) == {(255, 0, 0)}
    white = vcall.image(vcall("crop_image", image_id=0, left=500, upper=500, right=1000, lower=1000))
    assert set(white.get_flattened_data()) == {(255, 255, 255)}
    # the source image is untouched
    assert vcall.store.get(0).size == (400, 200)


def test_draw_bbox_colours_only_the_outline(vcall):
    out = vcall("draw_bbox", image_id=2, left=100, upper=200, right=600, lower=700, color="#00ff00", width=4)
    img = np.asarray(vcall.image(out))
    assert img.shape == (300, 300, 3)
    green = np.all(img == (0, 255, 0), axis=2)
    x0, y0, x1, y1 = 30, 60, 180, 210  # pixel box (exclusive right/lower)
    expected = np.zeros_like(green)
    expected[y0:y1, x0:x1] = True
    expected[y0 + 4:y1 - 4, x0 + 4:x1 - 4] = False
    assert (green == expected).all()
    assert np.all(img[~expected] == (240, 240, 240))
    assert np.all(np.asarray(vcall.store.get(2)) == (240, 240, 240))  # original unchanged


def test_draw_bbox_default_red(vcall):
    img = vcall.image(vcall("draw_bbox", image_id=2, left=0, upper=0, right=1000, lower=1000))
    assert img.getpixel((0, 150)) == (255, 0, 0) and img.getpixel((4, 150)) == (255, 0, 0)
    assert img.getpixel((5, 150)) == (240, 240, 240) and img.getpixel((299, 299)) == (255, 0, 0)


def test_resize_exact(vcall):
    out = vcall("resize_image", image_id=0, width=123, height=77)
    img = vcall.image(out)
    assert img.size == (123, 77) and out.result["width"] == 123
    assert img.getpixel((5, 5))[0] > 200 and img.getpixel((120, 75)) == (255, 255, 255)


def test_rotate_90_swaps_dimensions_and_is_counter_clockwise(vcall):
    img = vcall.image(vcall("rotate_image", image_id=0, angle=90, expand=True))
    assert img.size == (200, 400)
    # counter-clockwise: the top-right (green) quadrant moves to the top-left
    assert img.getpixel((10, 10)) == (0, 255, 0)
    assert img.getpixel((190, 390)) == (0, 0, 255)  # bottom-left (blue) moves to bottom-right
    same = vcall.image(vcall("rotate_image", image_id=0, angle=90))
    assert same.size == (400, 200)
    back = vcall.image(vcall("rotate_image", image_id=0, angle=-270, expand=True))
    assert (np.asarray(back) == np.asarray(img)).all()
    full = vcall.image(vcall("rotate_image", image_id=0, angle=360))
    assert (np.asarray(full) == np.asarray(vcall.store.get(0))).all()


def test_rotate_arbitrary_angle_expand_grows_canvas(vcall):
    img = vcall.image(vcall("rotate_image", image_id=2, angle=45, expand=True))
    assert 420 <= img.width <= 426 and img.width == img.height
    assert vcall.image(vcall("rotate_image", image_id=2, angle=30.5)).size == (300, 300)


def test_enhance_changes_contrast_measurably(vcall):
    src = np.asarray(vcall.store.get(1), dtype=float)
    up = np.asarray(vcall.image(vcall("enhance_image", image_id=1, factor=2.0)), dtype=float)
    down = np.asarray(vcall.image(vcall("enhance_image", image_id=1, factor=0.3)), dtype=float)
    same = np.asarray(vcall.image(vcall("enhance_image", image_id=1, factor=1.0)), dtype=float)
    assert up.std() > src.std() * 1.5 and down.std() < src.std() * 0.5
    assert np.abs(same - src).max() <= 1
    flat = np.asarray(vcall.image(vcall("enhance_image", image_id=1, factor=0)))
    assert flat.std() < 1


def test_save_image_records_a_virtual_path(vcall, world):
    out = vcall("save_image", image_id=1)
    assert out.result["path"] == "/storage/Pictures/image_1.png" and out.wrote
    rows = world.select(SAVED)
    assert len(rows) == 1 and rows[0]["image_id"] == 1 and rows[0]["width"] == 256
    again = vcall("save_image", image_id=1)
    assert again.result["already_saved"] and not again.wrote and world.count(SAVED) == 1
    assert vcall("save_image", image_id=0).result["path"] == "/storage/Pictures/image_0.png"
    assert [r["image_id"] for r in world.diff()[SAVED].created] == [1, 0]


def test_show_image_to_user_delivers(vcall):
    out = vcall("show_image_to_user", image_id=0, message="Your receipt")
    assert out.image_ids == [0] and len(out.deliveries) == 1
    d = out.deliveries[0]
    assert d.text == "Your receipt" and d.image_ids == (0,) and d.to == "user"
    assert vcall("show_image_to_user", image_id=2).deliveries[0].text == "Here is the image"


def test_made_images_chain(vcall):
    crop = vcall("crop_image", image_id=0, left=0, upper=0, right=250, lower=1000)
    rot = vcall("rotate_image", image_id=crop.image_ids[0], angle=90, expand=True)
    assert vcall.image(rot).size == (200, 100) and rot.image_ids == [4]
    assert vcall.store.source(4) == "tool"


def test_missing_store_is_a_clear_error():
    out = invoke(World(Layer()), "crop_image", {"image_id": 0, "left": 0, "upper": 0, "right": 10, "lower": 10})
    assert not out.ok and "no image store" in out.text and out.error_kind == "tool_error"


BOX = {"left": 100, "upper": 100, "right": 900, "lower": 900}


@pytest.mark.parametrize("name, args, needle", [
    ("view_image", {"image_id": 3}, "image 3 does not exist; valid ids are 0-2"),
    ("view_image", {"image_id": -1}, "image -1 does not exist"),
    ("view_image", {"image_id": "zero"}, "parameter 'image_id' must be an integer"),
    ("view_image", {}, "missing required parameter(s): image_id"),
    ("get_image_size", {"image_id": 99}, "does not exist"),
    ("crop_image", {"image_id": 5, **BOX}, "image 5 does not exist"),
    ("crop_image", {"image_id": 0, **BOX, "left": 900}, "'right' (900) must be greater than 'left' (900)"),
    ("crop_image", {"image_id": 0, **BOX, "upper": 950}, "'lower' (900) must be greater than 'upper' (950)"),
    ("crop_image", {"image_id": 0, **BOX, "right": 1001}, "parameter 'right' must be between 0 and 1000"),
    ("crop_image", {"image_id": 0, **BOX, "left": -5}, "parameter 'left' must be between 0 and 1000"),
    ("crop_image", {"image_id": 0, **BOX, "lower": 12.5}, "parameter 'lower' must be an integer"),
    ("crop_image", {"image_id": 0, "left": 0, "upper": 0, "right": 10}, "missing required parameter(s): lower"),
    ("draw_bbox", {"image_id": 0, **BOX, "color": "blurple"}, "parameter 'color' is not a colour"),
    ("draw_bbox", {"image_id": 0, **BOX, "width": 0}, "parameter 'width' must be between 1 and 100"),
    ("draw_bbox", {"image_id": 0, **BOX, "width": 500}, "parameter 'width'"),
    ("draw_bbox", {"image_id": 0, **BOX, "right": 50}, "must be greater than 'left'"),
    ("resize_image", {"image_id": 0, "width": 0, "height": 10}, "parameter 'width' must be between 1 and 4096"),
    ("resize_image", {"image_id": 0, "width": 5000, "height": 10}, "parameter 'width' must be between 1 and 4096"),
    ("resize_image", {"image_id": 0, "width": 4096, "height": 4096}, "the limit is 4096 px per side and 16 MP"),
    ("resize_image", {"image_id": 0, "width": -3, "height": 10}, "parameter 'width'"),
    ("rotate_image", {"image_id": 0, "angle": float("nan")}, "parameter 'angle' must be a finite number"),
    ("rotate_image", {"image_id": 0, "angle": float("inf")}, "parameter 'angle' must be a finite number"),
    ("rotate_image", {"image_id": 0, "angle": "ninety"}, "parameter 'angle' must be a number"),
    ("rotate_image", {"image_id": 0, "angle": 90, "expand": "yes"}, "parameter 'expand' must be a boolean"),
    ("enhance_image", {"image_id": 0, "factor": -1}, "parameter 'factor' must be between 0 and 10"),
    ("enhance_image", {"image_id": 0, "factor": 1e9}, "parameter 'factor' must be between 0 and 10"),
    ("enhance_image", {"image_id": 0, "factor": float("nan")}, "parameter 'factor'"),
    ("save_image", {"image_id": 42}, "image 42 does not exist"),
    ("show_image_to_user", {"image_id": 42}, "image 42 does not exist"),
    ("show_image_to_user", {"image_id": 0, "message": 5}, "parameter 'message' must be a string"),
    ("crop_image", {"image_id": 0, **BOX, "zoom": 2}, "unknown parameter(s) 'zoom'"),
])
def test_errors_name_the_problem(vcall, name, args, needle):
    text = vcall.fail(name, **args)
    assert needle in text, text


def test_rotate_expand_too_large_is_refused():
    big = World(Layer(), services={"images": ImageStore([Image.new("RGB", (4000, 3000))])})
    out = invoke(big, "rotate_image", {"image_id": 0, "angle": 45, "expand": True})
    assert not out.ok and "the rotated image would be" in out.text
    assert invoke(big, "rotate_image", {"image_id": 0, "angle": 90, "expand": True}).ok
