"""An image is the assistant's only once it has been delivered: sent by the user or made by a tool.

demo/expenses_late_images sends its two receipts in round 1; in round 0 neither may be read, viewed,
transformed or drawn, in tool mode or from code, and the error must not tell them apart from ids
that do not exist.
"""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

SCENARIO = "demo/expenses_late_images"


def _tool(name, **arguments):
    return json.dumps({"name": name, "arguments": arguments})


@pytest.fixture
def tool_env():
    env = mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=2)
    obs, info = env.reset(seed=0, options={"scenario": SCENARIO})
    yield env, obs, info
    env.close()


@pytest.mark.parametrize("call", [
    _tool("view_image", image_id=1), _tool("get_image_size", image_id=0),
    _tool("crop_image", image_id=1, left=0, upper=0, right=500, lower=500),
    _tool("resize_image", image_id=0, width=10, height=10), _tool("enhance_image", image_id=1, factor=2.0),
    _tool("save_image", image_id=1), _tool("show_image_to_user", image_id=0),
])
def test_round_zero_tools_cannot_reach_the_next_rounds_images(tool_env, call):
    env, obs, info = tool_env
    assert obs["image_count"] == 0 and info["new_image_ids"] == []
    obs, _, terminated, truncated, info = env.step(call)
    assert not (terminated or truncated)
    assert obs["image_count"] == 0 and info["new_image_ids"] == [] and len(info["images"]) == 0
    image_id = json.loads(call)["arguments"]["image_id"]
    assert f"no image {image_id} yet; you have no images yet" in obs["text"]


def test_ui_screens_name_only_delivered_images():
    from PIL import Image

    from mmtsb_env.tools.errors import NotFound
    from mmtsb_env.ui.screens import parse_placeholders
    from mmtsb_env.vision.store import DeliveredImages, ImageStore

    view = DeliveredImages(ImageStore([Image.new("RGB", (2, 2))] * 3))
    view.deliver([0, 2])
    assert parse_placeholders({"IMAGE_URL_1": 2}, view) == {"IMAGE_URL_1": 2}
    with pytest.raises(NotFound, match=r"image_placeholders\['IMAGE_URL_1'\]: no image 1 yet; images you have: 0, 2"):
        parse_placeholders({"IMAGE_URL_1": 1}, view)


def test_an_undelivered_id_reads_like_one_that_does_not_exist(tool_env):
    env, _, _ = tool_env
    texts = []
    for image_id in (1, 2, 99):
        obs, *_ = env.step(_tool("view_image", image_id=image_id))
        texts.append(obs["text"].replace(f"image {image_id}", "image N").split("]", 1)[1])
    assert texts[0] == texts[1] == texts[2]


def test_code_cannot_open_the_next_rounds_images():
    env = mmtsb_env.make_env(suite="demo", mode="code", image_size=(32, 32), max_images=2)
    env.reset(seed=0, options={"scenario": SCENARIO})
    obs, *_ = env.step("```python\nimport PIL.Image\nfor i in (0, 1, 2):\n    try:\n        print(i, PIL.Image.open(i).size)\n"
                       "    except Exception as e:\n        print(i, str(e))\n"
                       "for f in (lambda: view_image(1), lambda: crop_image(0, 0, 0, 500, 500)):\n    try:\n        f()\n"
                       "    except Exception as e:\n        print(str(e))\n```")
    env.close()
    for i in (0, 1, 2):
        assert f"{i} no image {i} yet; you have no images yet" in obs["text"]
    assert obs["text"].count("you have no images yet") == 5 and obs["image_count"] == 0


def test_delivered_and_tool_made_images_are_usable_and_the_oracle_passes():
    env = mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=2)
    obs, info = env.reset(seed=0, options={"scenario": SCENARIO})
    agent, seen, delivered = OracleAgent(mmtsb_env.load_suite("demo")), [], set()
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
        seen.extend(info["new_image_ids"])
        delivered = set(env.unwrapped.episode.world.services["images"].ids())
        assert set(info["new_image_ids"]) <= delivered  # observations carry delivered images only
    assert info["verdict"]["pass"] is True and {0, 1} <= delivered
    view = env.unwrapped.episode.world.services["images"]
    crop = view.derive(0, "crop", (0, 0, 2, 2), lambda im: im.crop((0, 0, 2, 2)), size=(2, 2))
    assert crop in view and view.size(crop) == (2, 2)
    env.close()
