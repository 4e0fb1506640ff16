"""Load a scenario's images: render specs are drawn procedurally, paths are read from disk.

Render specs are validated here (a bad spec fails the reset with its field named) but drawn only
when something looks at the image: a tool, an observation tensor, a data URL.

Path images (scenarios imported from the reference's files) are read from an image folder: the
``image_root`` option, else ``$MMTSB_IMAGE_ROOT``, else the working directory. Their first path
part names the dataset they come from (``docvqa/...``); :func:`missing_image_files` counts what is
missing per dataset. With ``stand_in=True`` a missing file is replaced by a labelled placeholder
(source ``stand-in:PATH``), so the rest of the pipeline can run without the datasets; results say
how many stand-ins an episode used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from ..scenario.model import Scenario, ScenarioError

IMAGE_ROOT_ENV = "MMTSB_IMAGE_ROOT"


STAND_IN_PREFIX = "stand-in:"


def image_root_of(image_root: str | Path | None = None) -> Path:
    """The folder path images are read from: ``image_root``, else ``$MMTSB_IMAGE_ROOT``, else ``.``."""
    return Path(image_root or os.environ.get(IMAGE_ROOT_ENV) or ".")


def dataset_of(path: str) -> str:
    """The dataset a path image comes from: its first path part (``docvqa/images/1.png`` -> ``docvqa``)."""
    parts = Path(str(path)).parts
    return parts[0] if len(parts) > 1 else "(top level)"


def missing_image_files(scenarios: Any, image_root: str | Path | None = None) -> dict[str, tuple[int, int]]:
    """``{dataset: (missing, total)}`` over the distinct path images of ``scenarios``, for the
    datasets with at least one missing file (empty: everything is there)."""
    root = image_root_of(image_root)
    paths = sorted({str(im.path) for sc in scenarios for im in sc.images if im.render is None and im.path})
    total: dict[str, int] = {}
    missing: dict[str, int] = {}
    for p in paths:
        ds = dataset_of(p)
        total[ds] = total.get(ds, 0) + 1
        if not (root / p).is_file():
            missing[ds] = missing.get(ds, 0) + 1
    return {ds: (n, total[ds]) for ds, n in sorted(missing.items())}


def describe_missing(missing: dict[str, tuple[int, int]], image_root: str | Path | None = None) -> str:
    """One line naming each dataset with missing files, e.g. ``docvqa 3 of 5 missing, ...``."""
    parts = ", ".join(f"{ds} {n} of {t} missing" for ds, (n, t) in missing.items())
    return f"image files not found under {image_root_of(image_root)}: {parts}"


def stand_in_image(path: str, index: int) -> Image.Image:
    """A labelled placeholder for a path image that is not on disk: grey, with a diagonal cross
    and the words STAND-IN, its image id and its path, so nobody mistakes it for the real one."""
    from PIL import ImageDraw

    from ..vision.fonts import get_font

    img = Image.new("RGB", (1024, 768), (200, 200, 200))
    draw = ImageDraw.Draw(img)
    draw.line([(0, 0), (1023, 767)], fill=(150, 150, 150), width=6)
    draw.line([(0, 767), (1023, 0)], fill=(150, 150, 150), width=6)
    big, small = get_font("sans-bold", 96), get_font("sans", 28)
    draw.text((512, 300), "STAND-IN", fill=(90, 20, 20), font=big, anchor="mm")
    draw.text((512, 420), f"image {index}", fill=(40, 40, 40), font=small, anchor="mm")
    draw.text((512, 470), str(path)[-70:], fill=(40, 40, 40), font=small, anchor="mm")
    draw.text((512, 520), "the dataset file was not found; this is not the real image", fill=(40, 40, 40), font=small, anchor="mm")
    return img


def load_scenario_images(scenario: Scenario, image_root: str | Path | None = None, *,
                         stand_in: bool = False) -> tuple[list[Any], list[str], list[Any]]:
    """The images of a scenario in id order -- a PIL image (files) or a function drawing it
    (render specs) --, a short source label and the content key of each (equal specs and equal
    files share their drawings and encodings, see :mod:`~mmtsb_env.vision.assets`)."""
    from ..vision import disk
    from ..vision.assets import render_key

    root = image_root_of(image_root)
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
            if stand_in and not path.is_file():
                images.append(stand_in_image(str(spec.path), i))
                sources.append(STAND_IN_PREFIX + str(spec.path))
                keys.append(("stand-in", str(spec.path), i))
                continue
            try:
                with Image.open(path) as img:
                    images.append(img.convert("RGB"))
            except (FileNotFoundError, OSError) as exc:
                raise ScenarioError(f"{scenario.id}: images[{i}].path: cannot open {path}: {exc}; give the image folder "
                                    f"(image_root option, `--images DIR`, or ${IMAGE_ROOT_ENV}) or use stand-ins "
                                    f"(stand_in_images=True, `--stand-in-images`)") from None
            sources.append(f"file:{spec.path}")
            keys.append(("file", str(path.resolve()), path.stat().st_mtime_ns))
    return images, sources, keys


def _drawer(spec: dict[str, Any]) -> Callable[[], Image.Image]:
    def draw() -> Image.Image:
        from ..vision.render import render

        return render(spec).image

    return draw
