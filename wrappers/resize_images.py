"""ResizeImages: change the observation's image tensor size and number of slots."""

from __future__ import annotations

import re
from typing import Any

import gymnasium as gym
import numpy as np

from mmtsb_env.envs.spaces import observation_space

_NOTE = re.compile(r"\n\(Only the last \d+ of \d+ new images are in the image tensor\.\)$")


class ResizeImages(gym.Wrapper):
    """Re-letterbox the new images to ``size`` = (height, width) in ``max_images`` slots.

    Tensors are built from the native-resolution images in ``info["images"]`` (not by
    resampling the already letterboxed ones), so small sizes stay sharp and large ones are not
    blurred up.

    >>> import mmtsb_env
    >>> env = ResizeImages(mmtsb_env.make_env(suite="demo"), size=(64, 48), max_images=1)
    >>> obs, _ = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    >>> obs["images"].shape, obs["image_count"]
    ((1, 64, 48, 3), 1)
    """

    def __init__(self, env: gym.Env, size: tuple[int, int] = (224, 224), max_images: int | None = None) -> None:
        super().__init__(env)
        height, width = int(size[0]), int(size[1])
        if height < 1 or width < 1:
            raise ValueError(f"size must be positive (height, width), got {size!r}")
        old = env.observation_space
        self.max_images = int(max_images if max_images is not None else old["images"].shape[0])
        if self.max_images < 0:
            raise ValueError(f"max_images must be >= 0, got {max_images}")
        self.size = (height, width)
        self.observation_space = observation_space(self.max_images, height, width, old["text"].max_length)
        self._cache: dict[int, np.ndarray] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self._cache = {}  # image ids restart at every episode
        return self._resize(obs, info), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._resize(obs, info), reward, terminated, truncated, info

    def _resize(self, obs: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
        from mmtsb_env.vision.store import letterbox

        ids = list(info.get("new_image_ids", []))
        shown = ids[-self.max_images:] if self.max_images else []
        images = np.zeros((self.max_images, *self.size, 3), np.uint8)
        for slot, image_id in enumerate(shown):
            arr = self._cache.get(image_id)
            if arr is None:
                arr = self._cache[image_id] = letterbox(info["images"][image_id], *self.size)
            images[slot] = arr
        text = _NOTE.sub("", obs["text"])
        if len(ids) > len(shown):
            text += f"\n(Only the last {len(shown)} of {len(ids)} new images are in the image tensor.)"
        return {"text": text, "images": images, "image_count": len(shown)}
