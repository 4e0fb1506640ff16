"""``settings_screen``: the switches' ground truth is what the pixels show, at every level.

A switch's state is visual (track colour and knob side), so the facts give each switch's box and
these tests read the state back from the pixels: from the image as delivered, from a 2x zoom and
from a crop to the box (what ``resize_image`` and ``crop_image`` hand the agent).
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from mmtsb_env.vision.render import normalize, render
from mmtsb_env.vision.render.groups import group_of
from mmtsb_env.vision.render.settings_screen import DECOYS, REAL, switch_state

SEEDS = range(6)


def _knob_right(image: Image.Image, box) -> bool:
    """Where the knob (the brightest blob) sits in the switch: right half or left half."""
    a = np.asarray(image.crop(tuple(box)).convert("L"), dtype=np.float32)
    cols = (a > a.max() - 18).sum(axis=0)
    centre = (cols * np.arange(len(cols))).sum() / max(1, cols.sum())
    return bool(centre > len(cols) / 2)


@pytest.mark.parametrize("level", range(4))
def test_switch_states_are_recoverable_from_the_pixels(level):
    for seed in SEEDS:
        r = render({"kind": "settings_screen", "seed": seed, "difficulty": level}, use_cache=False)
        f, im = r.facts, r.image
        assert set(f["toggle_boxes"]) == set(f["toggles"])
        zoom = im.resize((im.width * 2, im.height * 2), Image.Resampling.BICUBIC)
        for label, box in f["toggle_boxes"].items():
            want = f["toggles"][label]
            x0, y0, x1, y1 = box
            assert 0 <= x0 < x1 <= im.width and 0 <= y0 < y1 <= im.height
            assert switch_state(im, box) is want, (seed, label)
            assert switch_state(zoom, [2 * v for v in box]) is want
            crop = im.crop((x0 - 4, y0 - 4, x1 + 4, y1 + 4))
            assert switch_state(crop, (4, 4, 4 + x1 - x0, 4 + y1 - y0)) is want
            assert _knob_right(im, box) is want, (seed, level, label)


def test_facts_name_the_app_columns_and_the_decoys():
    for level in range(4):
        for seed in SEEDS:
            f = render({"kind": "settings_screen", "seed": seed, "difficulty": level}).facts
            assert set(f["device"]) == set(REAL)
            assert {REAL[c]: v for c, v in f["device"].items()} == {k: v for k, v in f["toggles"].items() if k in REAL.values()}
            assert {"Airplane Mode", "Bluetooth", "Do Not Disturb"} <= set(f["decoys"]) <= set(DECOYS.values())
            assert ("Personal Hotspot" in f["decoys"]) is (level >= 2)
            assert f["network"] == ("" if not f["device"]["wifi"] else f["network"])
            assert any(d.startswith("Battery: ") for d in f["distractors"])
    assert group_of("settings_screen") == "ui"


def test_content_sets_the_switches_and_bad_content_is_one_clear_error():
    spec = {"kind": "settings_screen", "seed": 4, "difficulty": 1,
            "content": {"wifi": False, "cellular": True, "location_service": False, "low_battery_mode": False,
                        "bluetooth": True, "network": "Blue Fern", "device_name": "Work Phone"}}
    r = render(spec)
    assert r.facts["device"] == {"wifi": False, "cellular": True, "location_service": False, "low_battery_mode": False}
    assert r.facts["toggles"]["Bluetooth"] is True and r.facts["network"] == ""
    assert r.facts["device_name"] == "Work Phone"
    with pytest.raises(ValueError, match="airplane_mode and cellular cannot both be on"):
        normalize({"kind": "settings_screen", "content": {"airplane_mode": True, "cellular": True}})
    with pytest.raises(ValueError, match="wifi"):
        normalize({"kind": "settings_screen", "content": {"wifi": "yes"}})


def test_deterministic_per_seed_and_different_across_seeds():
    a = render({"kind": "settings_screen", "seed": 7, "difficulty": 2}, use_cache=False)
    b = render({"kind": "settings_screen", "seed": 7, "difficulty": 2}, use_cache=False)
    assert a.facts == b.facts and a.image.tobytes() == b.image.tobytes()
    states = {tuple(render({"kind": "settings_screen", "seed": s}).facts["toggles"].values()) for s in range(12)}
    assert len(states) > 4


def test_levels_shrink_and_darken_the_screenshot():
    sizes = [render({"kind": "settings_screen", "seed": 1, "difficulty": d}).image.size for d in range(4)]
    assert sizes[3][0] < sizes[2][0] < sizes[0][0] == 540
    dark = np.asarray(render({"kind": "settings_screen", "seed": 1, "difficulty": 2}).image).mean()
    light = np.asarray(render({"kind": "settings_screen", "seed": 1, "difficulty": 0}).image).mean()
    assert dark < 90 < 200 < light


def test_every_row_name_and_value_is_drawn_at_every_level():
    from text_boxes import recorded_text

    for seed in range(3):
        for level in range(4):
            with recorded_text() as sheets:
                r = render({"kind": "settings_screen", "seed": seed, "difficulty": level}, use_cache=False)
                r.image
            texts = [t for s in sheets for _, t in s.texts]
            f = r.facts
            wanted = list(f["rows"]) + [f["device_name"], f["carrier"]] + ([f["network"]] if f["network"] else ["Not Connected"])
            assert not [v for v in wanted if v not in texts], (seed, level)
            for d in f["distractors"]:  # decoy switches and value rows, all drawn
                assert d.split(": ")[0] in texts
