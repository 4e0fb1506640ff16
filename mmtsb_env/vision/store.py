"""The per-episode image store and image encoding helpers.

Images are addressed by integer ids ``0..n-1`` in the order they were added (scenario images
first, then whatever tools make). Stored images are never modified: tools that "edit" an image
add a new one. That makes :meth:`ImageStore.fork` (used on reset) a cheap list copy.

An image may also be stored as a *recipe* (a zero-argument function returning it, e.g. drawing a
render spec): it is made on the first :meth:`ImageStore.get` and shared by every fork, so an
episode nobody looks at never pays for its pixels.

>>> from PIL import Image
>>> store = ImageStore([Image.new("RGB", (4, 2))])
>>> store.add(Image.new("L", (3, 3)), note="crop")
1
>>> store.get(1).mode, store.ids(), store.source(0)
('RGB', [0, 1], 'scenario')
>>> lazy = ImageStore([lambda: Image.new("RGB", (8, 8))])
>>> lazy.is_made(0), lazy.get(0).size, lazy.is_made(0)
(False, (8, 8), True)
>>> letterbox(store.get(0), 4, 4).shape
(4, 4, 3)
"""

from __future__ import annotations

import base64
import io
import threading
from typing import Any, Callable, Sequence

import numpy as np
from PIL import Image

from ..tools.errors import NotFound

# Neutral grey used to pad letterboxed images.
PAD_COLOR = (128, 128, 128)


def _as_rgb(image: Any) -> Image.Image:
    """An RGB copy of a PIL image (alpha is composited onto white), fully loaded."""
    if isinstance(image, np.ndarray):
        image = Image.fromarray(np.ascontiguousarray(image))
    if not isinstance(image, Image.Image):
        raise TypeError(f"expected a PIL image, got {type(image).__name__}")
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        out = Image.new("RGB", rgba.size, (255, 255, 255))
        out.paste(rgba, mask=rgba.getchannel("A"))
        return out
    out = image.convert("RGB")  # a copy even when already RGB
    out.load()
    return out


class _Recipe:
    """An image made on first use by ``make()`` (thread-safe, made once, shared by forks)."""

    __slots__ = ("_make", "_image", "_lock")

    def __init__(self, make: Callable[[], Image.Image]) -> None:
        self._make: Callable[[], Image.Image] | None = make
        self._image: Image.Image | None = None
        self._lock = threading.Lock()

    @property
    def made(self) -> bool:
        return self._image is not None

    def image(self) -> Image.Image:
        if self._image is None:
            with self._lock:
                if self._image is None:
                    made = self._make()  # type: ignore[misc]
                    self._image = made if isinstance(made, Image.Image) and made.mode == "RGB" else _as_rgb(made)
                    self._make = None
        return self._image


class ImageStore:
    """Images of one episode, by id. ``world.services["images"]`` holds it.

    Thread-safe for concurrent ``add``/``get``; ids are never reused.

    Args:
        images: initial images (ids ``0..n-1`` in order), e.g. the scenario's images; each is a
            PIL image (stored as an RGB copy) or a zero-argument function making it on first use.
        sources: where each initial image came from (default ``"scenario"``).
    """

    URL_CACHE_SIZE = 64

    def __init__(self, images: Sequence[Image.Image | Callable[[], Image.Image]] = (), sources: Sequence[str] | None = None) -> None:
        images = list(images)
        if sources is None:
            sources = ["scenario"] * len(images)
        sources = list(sources)
        if len(sources) != len(images):
            raise ValueError(f"got {len(images)} images but {len(sources)} sources")
        self._images: list[Image.Image | _Recipe] = [_Recipe(im) if callable(im) else _as_rgb(im) for im in images]
        self._meta: list[tuple[str, str]] = [(str(s), "") for s in sources]
        self._urls: dict[tuple[int, int], str] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ access
    def __len__(self) -> int:
        return len(self._images)

    def __contains__(self, image_id: Any) -> bool:
        return _is_int(image_id) and 0 <= image_id < len(self._images)

    def ids(self) -> list[int]:
        return list(range(len(self._images)))

    def _check(self, image_id: Any) -> int:
        n = len(self._images)
        if not _is_int(image_id):
            raise NotFound(f"image id must be an integer, got {type(image_id).__name__} {image_id!r}")
        if 0 <= image_id < n:
            return image_id
        if n == 0:
            raise NotFound(f"image {image_id} does not exist; there are no images yet")
        valid = "the only valid id is 0" if n == 1 else f"valid ids are 0-{n - 1}"
        raise NotFound(f"image {image_id} does not exist; {valid}")

    def get(self, image_id: Any) -> Image.Image:
        """The image with this id (do not modify it), or :class:`NotFound`."""
        item = self._images[self._check(image_id)]
        return item.image() if isinstance(item, _Recipe) else item

    def is_made(self, image_id: Any) -> bool:
        """Whether the image's pixels exist yet (False for a recipe nobody has asked for)."""
        item = self._images[self._check(image_id)]
        return not isinstance(item, _Recipe) or item.made

    def nbytes(self, *, unmade: int = 0) -> int:
        """RGB bytes of the images made so far, counting ``unmade`` bytes per image not made yet."""
        total = 0
        for item in list(self._images):
            image = item if isinstance(item, Image.Image) else (item.image() if item.made else None)
            total += image.width * image.height * 3 if image is not None else unmade
        return total

    def source(self, image_id: Any) -> str:
        return self._meta[self._check(image_id)][0]

    def note(self, image_id: Any) -> str:
        return self._meta[self._check(image_id)][1]

    # ------------------------------------------------------------------ writing
    def add(self, image: Image.Image, *, source: str = "tool", note: str = "") -> int:
        """Store an RGB copy of ``image`` and return its new id."""
        rgb = _as_rgb(image)
        with self._lock:
            self._images.append(rgb)
            self._meta.append((source, note))
            return len(self._images) - 1

    def fork(self) -> "ImageStore":
        """A new store with the same images (shared, they are immutable) and its own future ids."""
        new = ImageStore.__new__(ImageStore)
        with self._lock:
            new._images = list(self._images)
            new._meta = list(self._meta)
            new._urls = dict(self._urls)
        new._lock = threading.Lock()
        return new

    def data_url(self, image_id: Any, max_side: int = 1024) -> str:
        """:func:`to_data_url` of an image, memoised (stored images never change, and the same
        image is usually sent in many observations)."""
        image = self.get(image_id)
        key = (image_id, max_side)
        url = self._urls.get(key)
        if url is None:
            url = to_data_url(image, max_side=max_side)
            with self._lock:
                if len(self._urls) >= self.URL_CACHE_SIZE:
                    self._urls.pop(next(iter(self._urls)))
                self._urls[key] = url
        return url

    def __repr__(self) -> str:
        return f"ImageStore({len(self)} images)"


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def letterbox(image: Image.Image, height: int, width: int) -> np.ndarray:
    """Resize keeping the aspect ratio and pad (neutral grey, centred) to exactly ``height x width``.

    Returns a ``uint8`` array of shape ``(height, width, 3)``.
    """
    if not (_is_int(height) and _is_int(width)) or height < 1 or width < 1:
        raise ValueError(f"letterbox size must be positive integers, got height={height!r}, width={width!r}")
    if image.mode != "RGB":
        image = _as_rgb(image)
    w, h = image.size
    scale = min(width / w, height / h)
    nw = min(width, max(1, round(w * scale)))
    nh = min(height, max(1, round(h * scale)))
    if (nw, nh) != (w, h):
        # reducing_gap=1: box-reduce by the integer part of the scale first (fast, anti-aliased)
        image = image.resize((nw, nh), Image.Resampling.BILINEAR, reducing_gap=1.0)
    out = np.empty((height, width, 3), dtype=np.uint8)
    out[...] = PAD_COLOR
    top, left = (height - nh) // 2, (width - nw) // 2
    out[top:top + nh, left:left + nw] = np.asarray(image)
    return out


def png_bytes(image: Image.Image, compress_level: int = 3) -> bytes:
    """PNG encoding of ``image`` (zlib level 3: about twice as fast as 6 on noisy photos, ~5% larger)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()


def downscale(image: Image.Image, max_side: int) -> Image.Image:
    """``image`` itself if it fits in ``max_side``, else a copy shrunk to fit (aspect kept)."""
    if max_side < 1:
        raise ValueError(f"max_side must be positive, got {max_side}")
    w, h = image.size
    if max(w, h) <= max_side:
        return image
    scale = max_side / max(w, h)
    return image.resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.Resampling.LANCZOS)


def to_data_url(image: Image.Image, max_side: int = 1024) -> str:
    """``data:image/png;base64,...`` of ``image``, downscaled to at most ``max_side`` pixels."""
    data = png_bytes(downscale(image, max_side))
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def from_data_url(url: str) -> Image.Image:
    """Decode a ``data:image/...;base64,`` URL (inverse of :func:`to_data_url`)."""
    head, sep, payload = url.partition(",")
    if not sep or not head.startswith("data:image/") or not head.endswith(";base64"):
        raise ValueError("not a base64 image data URL")
    image = Image.open(io.BytesIO(base64.b64decode(payload)))
    image.load()
    return image
