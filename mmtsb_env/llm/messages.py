"""OpenAI-format chat messages as local models need them: images decoded, tool arguments as objects.

>>> from PIL import Image
>>> from mmtsb_env.vision.store import to_data_url
>>> url = to_data_url(Image.new("RGB", (8, 4), "red"))
>>> msgs = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": url}}]}]
>>> out, images = split_images(msgs)
>>> out[0]["content"][1], images[0].size
({'type': 'image'}, (8, 4))
>>> count_images(msgs)
1
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image


def load_image(url: str) -> Image.Image:
    """A PIL image (RGB) from a ``data:image/...;base64,`` URL, a ``file://`` URL or a local path."""
    from ..vision.store import from_data_url

    if url.startswith("data:"):
        image = from_data_url(url)
    else:
        path = Path(url[len("file://"):] if url.startswith("file://") else url)
        if url.startswith(("http://", "https://")) or not path.exists():
            raise ValueError(f"cannot load image {url[:60]!r}: only data URLs and local files are supported (no network)")
        with Image.open(path) as img:
            image = img.copy()
    return image.convert("RGB")


def _image_url(part: dict[str, Any]) -> str | None:
    if part.get("type") == "image_url":
        value = part.get("image_url")
        return value.get("url") if isinstance(value, dict) else value
    if part.get("type") == "image" and isinstance(part.get("url") or part.get("image"), str):
        return part.get("url") or part.get("image")
    return None


def is_image_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in ("image_url", "image", "input_image")


def count_images(messages: list[dict[str, Any]]) -> int:
    """Number of image parts in ``messages``."""
    return sum(1 for m in messages if isinstance(m.get("content"), list) for p in m["content"] if is_image_part(p))


def split_images(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Image.Image]]:
    """Replace image parts by ``{"type": "image"}`` placeholders; return the PIL images in order."""
    images: list[Image.Image] = []
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if is_image_part(part):
                    obj = part.get("image") if part.get("type") == "image" else None
                    if isinstance(obj, Image.Image):
                        images.append(obj.convert("RGB"))
                    else:
                        url = _image_url(part)
                        if url is None:
                            raise ValueError(f"image part without a URL: {part!r}")
                        images.append(load_image(url))
                    parts.append({"type": "image"})
                else:
                    parts.append(part)
            message = {**message, "content": parts}
        out.append(message)
    return out, images


def template_ready(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies shaped for Jinja chat templates: ``None`` content -> ``""``, tool-call arguments parsed to objects."""
    out = []
    for message in messages:
        message = dict(message)
        if message.get("content") is None:
            message["content"] = ""
        if message.get("tool_calls"):
            calls = []
            for call in message["tool_calls"]:
                call = dict(call)
                fn = dict(call.get("function") or {})
                if isinstance(fn.get("arguments"), str):
                    try:
                        fn["arguments"] = json.loads(fn["arguments"])
                    except json.JSONDecodeError:
                        pass
                call["function"] = fn
                calls.append(call)
            message["tool_calls"] = calls
        out.append(message)
    return out


def text_only(messages: list[dict[str, Any]], placeholder: str = "(image not shown)") -> list[dict[str, Any]]:
    """Copies with every image part replaced by ``placeholder`` text and text-only contents joined."""
    out = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            texts = [placeholder if is_image_part(p) else str(p.get("text", "")) for p in content]
            message = {**message, "content": " ".join(t for t in texts if t)}
        out.append(dict(message))
    return out
