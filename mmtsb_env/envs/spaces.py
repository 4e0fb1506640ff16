"""Spaces: a Text space that accepts any Unicode string, and the observation space.

``UnicodeText`` also brings its own Gymnasium shared-memory codec (UTF-8 bytes with a length
header), so ``AsyncVectorEnv`` with its default ``shared_memory=True`` carries the text intact;
Gymnasium's ``Text`` codec stores charset indices and cannot represent arbitrary Unicode.
"""

from __future__ import annotations

import string
import weakref
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import shared_memory as _shm

PRINTABLE = string.ascii_letters + string.digits + string.punctuation + " "
# What ``UnicodeText.sample`` draws from: printable ASCII without the characters that open a tool
# call or a code block ({ [ < `), so a random policy's action is always a plain message.
_MESSAGE_CHARS = np.array([c for c in PRINTABLE if c not in "{}[]<>`"])
SAMPLE_MAX_LENGTH = 200


class UnicodeText(spaces.Text):
    """Any ``str`` up to ``max_length`` characters belongs; ``sample()`` draws a plain message.

    Real model output is Unicode (accents, CJK, emoji), which Gymnasium's ``Text`` rejects unless
    every character is in its charset; this space checks only type and length.

    >>> UnicodeText(100).contains("café ☕")
    True
    """

    def __init__(self, max_length: int = 1_000_000, *, seed: Any = None) -> None:
        super().__init__(max_length=max_length, min_length=0, charset=PRINTABLE, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        """A random plain message: 1 to ``SAMPLE_MAX_LENGTH`` printable ASCII characters that never
        parse as a tool call or a code block and never strip to nothing.

        So a random policy (PettingZoo's and Gymnasium's API checks among them) makes exactly one
        move per turn: a reply that passes the turn, never a malformed action that keeps it.
        Gymnasium's draw -- any length up to ``max_length``, the whole charset -- is what a
        ``mask`` or ``probability`` asks for.
        """
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        rng = self.np_random
        n = int(rng.integers(max(1, self.min_length), max(1, min(self.max_length, SAMPLE_MAX_LENGTH)) + 1))
        chars = rng.choice(_MESSAGE_CHARS, size=n)
        chars[0] = rng.choice(_MESSAGE_CHARS[_MESSAGE_CHARS != " "])
        return "".join(chars)

    def __repr__(self) -> str:
        return f"UnicodeText({self.max_length})"

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, UnicodeText) and other.max_length == self.max_length


_HEADER = 8  # int64 byte length of the UTF-8 text that follows


def _slot_bytes(space: UnicodeText) -> int:
    return _HEADER + 4 * space.max_length  # UTF-8 needs at most 4 bytes per character


@_shm.create_shared_memory.register(UnicodeText)
def _create_unicode_memory(space: UnicodeText, n: int = 1, ctx: Any = None):
    import multiprocessing as mp

    return (ctx or mp).Array("B", n * _slot_bytes(space))


class SharedTexts(Sequence):
    """The texts of a vector env's shared buffer, decoded on access (a live view, like the image arrays).

    Gymnasium reads a shared buffer once, when the vector env starts, and hands out that object
    after every step; so the texts must be read when looked at, not when the view is made.
    ``copy.deepcopy`` (what ``AsyncVectorEnv(copy=True)``, the default, returns) gives a plain tuple.
    """

    def __init__(self, space: UnicodeText, shared_memory: Any, n: int) -> None:
        self._slot, self._memory, self._n = _slot_bytes(space), shared_memory, n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._n)))
        if not -self._n <= index < self._n:
            raise IndexError(index)
        start = (index % self._n) * self._slot
        buf = memoryview(self._memory.get_obj()).cast("B")
        size = int.from_bytes(buf[start:start + _HEADER], "little")
        return bytes(buf[start + _HEADER:start + _HEADER + size]).decode("utf-8")

    def __deepcopy__(self, memo: Any) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, (tuple, SharedTexts)) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"


@_shm.read_from_shared_memory.register(UnicodeText)
def _read_unicode(space: UnicodeText, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)


@_shm.write_to_shared_memory.register(UnicodeText)
def _write_unicode(space: UnicodeText, index: int, value: str, shared_memory: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"a UnicodeText observation must be a str, got {type(value).__name__}")
    if len(value) > space.max_length:
        raise ValueError(f"text of {len(value)} characters does not fit the space's max_length {space.max_length}")
    data, slot = value.encode("utf-8"), _slot_bytes(space)
    buf = memoryview(shared_memory.get_obj()).cast("B")
    start = index * slot
    buf[start:start + _HEADER] = len(data).to_bytes(_HEADER, "little")
    buf[start + _HEADER:start + _HEADER + len(data)] = data


class ImageSlots(spaces.Box):
    """The observation's ``uint8`` image tensor space, ``(K, H, W, 3)``; a ``Box`` in every respect
    but how a vector env's shared memory carries it.

    An AsyncVectorEnv worker writes each observation into shared memory, 1.35 MB per env at the
    default size, though most steps show no image: their tensor is the one-byte all-zero
    :func:`~mmtsb_env.envs.observe.zero_images`. The write skips such a tensor when the env's
    slot already holds only zeros (this process wrote them), so a step without images moves no
    pixels. The arrays read from shared memory are read-only (as a single env's tensor is), so
    nothing but these writes changes the slot; ``AsyncVectorEnv(copy=True)``, the default,
    returns writable copies as before.
    """


_ZEROED: "weakref.WeakKeyDictionary[Any, set[int]]" = weakref.WeakKeyDictionary()  # buffer -> env slots of zeros


def _all_zero_constant(value: np.ndarray) -> bool:
    """Whether ``value`` is one repeated zero byte (stride 0 everywhere: nothing to scan)."""
    return value.size == 0 or (not any(value.strides) and value.flat[0] == 0)


@_shm.write_to_shared_memory.register(ImageSlots)
def _write_images(space: ImageSlots, index: int, value: Any, shared_memory: Any) -> None:
    value = np.asarray(value)
    zeroed = _ZEROED.setdefault(shared_memory, set())
    blank = _all_zero_constant(value)
    if blank and index in zeroed:
        return
    _shm.write_to_shared_memory.dispatch(spaces.Box)(space, index, value, shared_memory)
    (zeroed.add if blank else zeroed.discard)(index)


@_shm.read_from_shared_memory.register(ImageSlots)
def _read_images(space: ImageSlots, shared_memory: Any, n: int = 1) -> np.ndarray:
    images = _shm.read_from_shared_memory.dispatch(spaces.Box)(space, shared_memory, n)
    images.flags.writeable = False
    return images


@lru_cache(maxsize=64)
def observation_space(max_images: int, height: int, width: int, max_text: int = 1_000_000) -> spaces.Dict:
    """``Dict(text, images (K,H,W,3) uint8, image_count in 0..K)``.

    One shared (immutable) object per configuration: a ``Box`` keeps four arrays of its full
    shape, ~5 MB at the default size, which would otherwise dominate each env's memory.
    Sampling from it uses one shared generator.
    """
    return spaces.Dict({
        "text": UnicodeText(max_text),
        "images": ImageSlots(0, 255, (max_images, height, width, 3), np.uint8),
        "image_count": spaces.Discrete(max_images + 1),
    })
