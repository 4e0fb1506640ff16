"""Images for vision-language agents: the per-episode image store, procedural render specs
with ground-truth facts, and the ``vision`` tools (crop, draw_bbox, rotate, plot, ...).

Importing this package registers the vision tools.

- :mod:`.store`    -- :class:`ImageStore`, :func:`letterbox`, :func:`to_data_url`, :func:`png_bytes`
- :mod:`.render`   -- :func:`render` (spec -> :class:`Rendered` image + facts), one module per family
- :mod:`.tools`    -- the agent's visual tools
- :mod:`.plotting` -- headless matplotlib charts of the ``plot`` tool (the chart families draw with Pillow)
- :mod:`.canvas`, :mod:`.icons`, :mod:`.fonts` -- the supersampled drawing surface, line icons and bundled
  fonts that the UI renderer and the phone-screen families both draw with
"""

from .store import ImageStore, from_data_url, letterbox, png_bytes, to_data_url
from . import tools  # noqa: F401  (registers the vision tools)
from .tools import image_store

_RENDER_NAMES = ("FAMILIES", "Rendered", "render")


def __getattr__(name: str):
    # the renderers (and OpenCV) load on first use: a process whose images all come from the disk cache never needs them
    if name in _RENDER_NAMES:
        from . import render as _render

        return getattr(_render, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["FAMILIES", "ImageStore", "Rendered", "from_data_url", "image_store", "letterbox", "png_bytes", "render",
           "to_data_url"]
