"""Load a scenario's images: render specs are drawn procedurally, paths are read from disk."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from ..scenario.model import Scenario, ScenarioError

IMAGE_ROOT_ENV = "MMTSB_IMAGE_ROOT"


def load_scenario_images(scenario: Scenario, image_root: str | Path | None = None) -> tuple[list[Image.Image], list[str]]:
    """PIL images of a scenario in id order, and a short source label for each."""
    from ..vision.render import render

    root = Path(image_root or os.environ.get(IMAGE_ROOT_ENV, "."))
    images, sources = [], []
    for i, spec in enumerate(scenario.images):
        if spec.render is not None:
            try:
                images.append(render(spec.render).image)
            except ValueError as exc:
                raise ScenarioError(f"{scenario.id}: images[{i}].render: {exc}") from None
            sources.append(f"render:{spec.render['kind']}")
        else:
            path = root / str(spec.path)
            try:
                with Image.open(path) as img:
                    images.append(img.convert("RGB"))
            except (FileNotFoundError, OSError) as exc:
                raise ScenarioError(f"{scenario.id}: images[{i}].path: cannot open {path}: {exc}") from None
            sources.append(f"file:{spec.path}")
    return images, sources
