"""Load a scenario's images: render specs are drawn procedurally, paths are read from disk.

Render specs are validated here (a bad spec fails the reset with its field named) but drawn only
when something looks at the image: a tool, an observation tensor, a data URL.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from ..scenario.model import Scenario, ScenarioError

IMAGE_ROOT_ENV = "MMTSB_IMAGE_ROOT"


def load_scenario_images(scenario: Scenario, image_root: str | Path | None = None) -> tuple[list[Any], list[str], list[Any]]:
    """The images of a scenario in id order -- a PIL image (files) or a function drawing it
    (render specs) --, a short source label and the content key of each (equal specs and equal
    files share their drawings and encodings, see :mod:`~mmtsb_env.vision.assets`)."""
    from ..vision import disk
    from ..vision.assets import render_key

    root = Path(image_root or os.environ.get(IMAGE_ROOT_ENV, "."))
    images: list[Image.Image | Callable[[], Image.Image]] = []
    sources = []
    keys: list[Any] = []
    for i, spec in enumerate(scenario.images):
        if spec.render is not None:
            key = render_key(spec.render)
            # a spec that this very renderer code validated before (the disk cache's folder is keyed by the code)
            # is valid: a process whose images all come from the cache never imports the renderers
            if not disk.has((key, "valid")):
                from ..vision.render import normalize

                try:
                    normalize(spec.render)
                except ValueError as exc:
                    raise ScenarioError(f"{scenario.id}: images[{i}].render: {exc}") from None
                disk.store((key, "valid"), b"")
            images.append(_drawer(spec.render))
            sources.append(f"render:{spec.render['kind']}")
            keys.append(key)
        else:
            path = root / str(spec.path)
            try:
                with Image.open(path) as img:
                    images.append(img.convert("RGB"))
            except (FileNotFoundError, OSError) as exc:
                raise ScenarioError(f"{scenario.id}: images[{i}].path: cannot open {path}: {exc}") from None
            sources.append(f"file:{spec.path}")
            keys.append(("file", str(path.resolve()), path.stat().st_mtime_ns))
    return images, sources, keys


def _drawer(spec: dict[str, Any]) -> Callable[[], Image.Image]:
    def draw() -> Image.Image:
        from ..vision.render import render

        return render(spec).image

    return draw
