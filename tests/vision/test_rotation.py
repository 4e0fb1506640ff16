"""Photos taken sideways or upside down: the render facts report the turn, the oracle's visual
steps turn the photo back (``rotate_image``) and crop it to the document, and OCR reads the
turned-back photo where it cannot read the delivered one."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from mmtsb_env.generation.core import Part
from mmtsb_env.generation.engine import VISION_MIN_DIFFICULTY, vision_steps
from mmtsb_env.generation.images import Img
from mmtsb_env.generation.ocr import NEEDED, _squash, ocr_text, tesseract_available, upright
from mmtsb_env.tools.calling import invoke
from mmtsb_env.vision import ImageStore
from mmtsb_env.vision.render import render
from mmtsb_env.vision.render._scene import turned_box
from mmtsb_env.vision.tools import _pixels
from mmtsb_env.world import Layer, World

PHOTOS = ("receipt_photo", "note_photo", "poster_photo")


def _turned(kind: str, level: int = 1, want: int | None = None, start: int = 0) -> tuple[int, dict]:
    for seed in range(start, start + 200):
        facts = render({"kind": kind, "seed": seed, "difficulty": level}).facts
        if facts.get("rotation") and (want is None or facts["rotation"] == want):
            return seed, facts
    pytest.fail(f"no turned {kind} at level {level}")


def test_turned_box_matches_a_real_quarter_turn():
    a = np.zeros((60, 100), np.uint8)
    a[10:20, 30:70] = 255  # box [30, 10, 70, 20] in a 100x60 image
    for turn, t in ((90, Image.Transpose.ROTATE_90), (180, Image.Transpose.ROTATE_180), (270, Image.Transpose.ROTATE_270)):
        b = np.asarray(Image.fromarray(a).transpose(t))
        ys, xs = np.nonzero(b)
        assert turned_box([30, 10, 70, 20], (100, 60), turn) == [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]


@pytest.mark.parametrize("kind", PHOTOS)
def test_turns_are_reported_and_only_from_level_1(kind):
    turns = {render({"kind": kind, "seed": s, "difficulty": 0}).facts.get("rotation") for s in range(30)}
    assert turns == {None}
    seen = {render({"kind": kind, "seed": s, "difficulty": 1}).facts.get("rotation") for s in range(80)}
    assert {90, 180, 270} <= seen and None in seen
    seed, f = _turned(kind)
    r = render({"kind": kind, "seed": seed, "difficulty": 1})
    assert list(r.image.size) == f["frame"]
    W, H = (f["frame"][::-1] if f["rotation"] % 180 else f["frame"])
    assert f["doc_box"] == turned_box(f["upright_box"], (W, H), f["rotation"])
    back = np.asarray(upright(r.image, f["rotation"]).convert("L"), float)
    x0, y0, x1, y1 = f["upright_box"]
    assert back[y0:y1, x0:x1].mean() > back.mean() - 12  # the paper lies where the box says (posters can be dark)


def test_oracle_turns_a_legible_photo_back_and_reads_it_as_it_is():
    seed, _ = _turned("receipt_photo", want=90)
    img = Img("receipt", "receipt_photo", {}, seed, 1)
    steps = vision_steps(type("B", (), {"imgs": [img]})(), Part("", image_ids=[0]))
    assert [s["name"] for s in steps] == ["rotate_image"]  # below VISION_MIN_DIFFICULTY: no crop needed


def test_oracle_turns_the_photo_back_and_crops_the_document():
    level = VISION_MIN_DIFFICULTY
    seed, f = _turned("receipt_photo", level, want=90)
    spec = {"kind": "receipt_photo", "seed": seed, "difficulty": level}
    img = Img("receipt", "receipt_photo", {}, seed, level)
    steps = vision_steps(type("B", (), {"imgs": [img]})(), Part("", image_ids=[0]))
    assert [s["name"] for s in steps] == ["rotate_image", "crop_image"]
    assert steps[0]["arguments"] == {"image_id": 0, "angle": -90.0, "expand": True}
    store = ImageStore([render(spec).image])
    world = World(Layer(), services={"images": store})
    turned = invoke(world, "rotate_image", steps[0]["arguments"])
    assert turned.ok, turned.text
    args = dict(steps[1]["arguments"], image_id=turned.result["image_id"])
    crop = invoke(world, "crop_image", args)
    assert crop.ok, crop.text
    got = store.get(crop.result["image_id"])
    x0, y0, x1, y1 = f["upright_box"]
    assert abs(got.width - (x1 - x0)) <= 3 and abs(got.height - (y1 - y0)) <= 3
    back = upright(render(spec).image, 90)
    px = _pixels(back.size, args["left"], args["upper"], args["right"], args["lower"])
    assert px[0] <= x0 + 1 and px[1] <= y0 + 1 and px[2] >= x1 - 1 and px[3] >= y1 - 1  # the whole document
    assert got.tobytes() == back.crop(px).tobytes()  # of the photo turned back exactly

@pytest.mark.ocr
@pytest.mark.skipif(not tesseract_available(), reason="needs the tesseract binary")
def test_ocr_reads_the_turned_back_photo_not_the_delivered_one():
    seed, f = _turned("receipt_photo", want=90)
    r = render({"kind": "receipt_photo", "seed": seed, "difficulty": 1})
    values = [_squash(v) for v in NEEDED["receipt_photo"](r.facts)]
    delivered = _squash(ocr_text(r.image, 6))
    back = upright(r.image, f["rotation"])
    x0, y0, x1, y1 = f["upright_box"]
    turned_back = _squash(ocr_text(back.crop((x0, y0, x1, y1)), 6))
    assert sum(v in delivered for v in values) <= len(values) // 4
    assert sum(v in turned_back for v in values) >= 0.8 * len(values)


@pytest.mark.parametrize("mode", ["tool", "code"])
def test_generated_solution_turns_and_crops_in_both_modes(mode):
    from mmtsb_env.baselines.oracle import OracleAgent
    from mmtsb_env.generation.compose import compose
    from mmtsb_env.generation.errors import GenerationError
    from mmtsb_env.runner import run_episode

    for seed in range(80):
        try:
            s = compose(seed, "aggregate", "none", "upfront", category="receipt")
        except GenerationError:
            continue
        if any(st.get("name") == "rotate_image" for r in s.rounds for st in r.solution):
            break
    else:
        pytest.fail("no generated scenario turns a photo back")
    rec = run_episode(s, OracleAgent([s], mode=mode), env_kwargs={"mode": mode})
    assert rec.passed and rec.error is None
    text = " ".join(str(m["content"]) for m in rec.messages if m["role"] in ("tool", "user"))
    assert "rotated" in text and "crop of image" in text
    assert "parameter" not in text.split("rotated", 1)[1].split("crop of image", 1)[0]  # no tool error in between
