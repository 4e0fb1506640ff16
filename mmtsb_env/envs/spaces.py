"""Spaces: a Text space that accepts any Unicode string, and the observation space."""

from __future__ import annotations

import string
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " "


class UnicodeText(spaces.Text):
    """Any ``str`` up to ``max_length`` characters belongs; ``sample()`` draws printable ASCII.

    Real model output is Unicode (accents, CJK, emoji), which Gymnasium's ``Text`` rejects unless
    every character is in its charset; this space checks only type and length.

    >>> UnicodeText(100).contains("café ☕")
    True
    """

    def __init__(self, max_length: int = 1_000_000, *, seed: Any = None) -> None:
        super().__init__(max_length=max_length, min_length=0, charset=PRINTABLE, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length


@lru_cache(maxsize=64)
def observation_space(max_images: int, height: int, width: int, max_text: int = 1_000_000) -> spaces.Dict:
    """``Dict(text, images (K,H,W,3) uint8, image_count in 0..K)``.

    One shared (immutable) object per configuration: a ``Box`` keeps four arrays of its full
    shape, ~5 MB at the default size, which would otherwise dominate each env's memory.
    Sampling from it uses one shared generator.
    """
    return spaces.Dict({
        "text": UnicodeText(max_text),
        "images": spaces.Box(0, 255, (max_images, height, width, 3), np.uint8),
        "image_count": spaces.Discrete(max_images + 1),
    })
