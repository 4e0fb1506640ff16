"""Render the documentation examples to PNG files (the gallery in ``docs/ui.md``).

Run ``python -m mmtsb_env.ui.gallery docs/images`` to regenerate ``ui_<example>.png`` plus
``ui_interaction_clicked.png`` (a user's click, outlined).

>>> images = gallery_images()
>>> sorted(images)[:2], images["choice_list"].width
(['booking_form', 'choice_list'], 600)
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image, ImageDraw

from ..vision.store import ImageStore
from ..world import Layer, World
from .docs import EXAMPLES
from .interaction import user_interact
from .screens import render_ui, show_ui

GALLERY_TIME = datetime(2026, 4, 16, 9, 41, tzinfo=timezone.utc)


def camera_picture(body: tuple[int, int, int], backdrop: tuple[int, int, int], size: int = 240) -> Image.Image:
    """A simple product shot of a camera (for the comparison example)."""
    im = Image.new("RGB", (size, size), backdrop)
    d = ImageDraw.Draw(im)
    s = size / 240
    d.rounded_rectangle([30 * s, 80 * s, 210 * s, 180 * s], radius=14 * s, fill=body)
    d.rectangle([50 * s, 66 * s, 90 * s, 82 * s], fill=body)
    d.ellipse([85 * s, 90 * s, 155 * s, 160 * s], fill=(60, 60, 66), outline=(200, 200, 205), width=max(1, round(5 * s)))
    d.ellipse([105 * s, 110 * s, 135 * s, 140 * s], fill=(25, 35, 60))
    d.ellipse([170 * s, 92 * s, 190 * s, 106 * s], fill=(230, 230, 235))
    return im


def _world() -> World:
    store = ImageStore([camera_picture((200, 200, 205), (236, 228, 214)), camera_picture((35, 35, 40), (214, 226, 236))])
    return World(Layer(), now=GALLERY_TIME, services={"images": store})


def gallery_images() -> dict[str, Image.Image]:
    """Every example's screenshot, plus ``interaction_clicked`` (the choice list after a click)."""
    out: dict[str, Image.Image] = {}
    for name, example in EXAMPLES.items():
        world = _world()
        result = render_ui(world, example["messages"], example.get("image_placeholders"))
        out[name] = world.services["images"].get(result["image"].image_id)
    world = _world()
    render_ui(world, EXAMPLES["choice_list"]["messages"])
    show_ui(world)
    delivery = user_interact(world, "select_receipt", "choose_receipt", "select#1")
    out["interaction_clicked"] = world.services["images"].get(delivery.image_ids[0])
    return out


def write_gallery(folder: str | Path) -> list[Path]:
    """Write ``ui_<name>.png`` files into ``folder``; returns their paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, image in gallery_images().items():
        path = folder / f"ui_{name}.png"
        image.save(path, optimize=True)
        paths.append(path)
    return paths


if __name__ == "__main__":  # pragma: no cover
    for p in write_gallery(sys.argv[1] if len(sys.argv) > 1 else "docs/images"):
        print(p)
