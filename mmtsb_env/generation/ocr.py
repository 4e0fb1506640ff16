"""Dev-time legibility check: how many of the text values an image must convey can OCR read back?

Uses Debian's ``tesseract`` binary (``apt-get install -y tesseract-ocr``) through a subprocess; it
is a development aid, never needed at run time. For each generated image the ground truth is
the image's printed record values (:func:`text_facts`: names, amounts, numbers, codes, emails;
ISO dates/times, flags and computed values are skipped: images print dates in human formats).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from .world_index import norm


@dataclass
class Legibility:
    images: int = 0
    facts: int = 0
    recovered: int = 0
    by_category: dict[str, float] = field(default_factory=dict)
    misses: list[tuple[str, str]] = field(default_factory=list)  # (category, value) examples

    @property
    def share(self) -> float:
        return self.recovered / self.facts if self.facts else 0.0


def tesseract_available() -> bool:
    return shutil.which("tesseract") is not None


def ocr_text(image) -> str:
    """Tesseract's reading of a PIL image (English, automatic page segmentation)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    proc = subprocess.run(["tesseract", "stdin", "stdout", "-l", "eng"], input=buf.getvalue(), capture_output=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"tesseract failed: {proc.stderr.decode(errors='replace')[:200]}")
    return proc.stdout.decode("utf-8", errors="replace")


def _squash(text: str) -> str:
    return re.sub(r"[^0-9a-z@.$:/-]+", " ", norm(text)).strip()


# record keys that are not printed as such (ISO dates/times, flags, internal labels, computed sums)
_NOT_PRINTED = {"date", "time", "shop", "style", "theme", "free", "on_sale", "opens", "closes", "headers", "units",
                "person_id", "minutes", "top", "kind"}


def text_facts(spec) -> list[str]:
    """The printed text values of a generated image: its record minus dates, flags and computed values."""
    facts = dict(spec.facts)
    if spec.category == "chart":
        facts.pop("total", None)
    out: list[str] = []

    def add(value) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, float):
            value = f"{value:,.0f}" if value.is_integer() and spec.category in ("chart", "table_document") else f"{value:,.2f}"
        text = str(value).strip()
        if text and not re.fullmatch(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", text) and len(text) >= 2 and text not in out:
            out.append(text)

    def walk(key, value) -> None:
        if key in _NOT_PRINTED:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(k, v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(key, v)
        elif key not in ("qty", "unit_price", "price") or spec.category != "receipt":
            add(value)

    for k, v in facts.items():
        walk(k, v)
    return out


def legibility(n_scenarios: int = 2, seed: int = 0, categories: Iterable[str] | None = None,
               max_difficulty: int = 1, max_images: int | None = None) -> Legibility:
    """Render the images of generated scenarios and count the printed text facts tesseract recovers.

    ``n_scenarios`` per category; ``max_images`` caps the images read per category.
    """
    from ..vision.render import render
    from .api import generate
    from .axes import CATEGORIES

    if not tesseract_available():
        raise RuntimeError("tesseract is not installed (apt-get install -y tesseract-ocr)")
    cats = list(categories or CATEGORIES)
    result = Legibility()
    hits: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for k, cat in enumerate(cats):
        read = 0
        for s in generate(n_scenarios, seed + k, category=cat, verify=False):
            for spec in s.images:
                if spec.render is None or spec.render.get("difficulty", 0) > max_difficulty or spec.category != cat:
                    continue
                mine = text_facts(spec)
                if not mine or (max_images is not None and read >= max_images):
                    continue
                read += 1
                text = _squash(ocr_text(render(spec.render).image))
                result.images += 1
                for v in mine:
                    ok = _squash(v) in text
                    result.facts += 1
                    result.recovered += ok
                    hits[spec.category][0] += ok
                    hits[spec.category][1] += 1
                    if not ok and len(result.misses) < 40:
                        result.misses.append((spec.category, v))
    result.by_category = {c: round(h / t, 3) for c, (h, t) in sorted(hits.items()) if t}
    return result


def _flat(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _flat(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat(v)
    elif isinstance(value, float):
        yield f"{value:,.2f}"
        yield f"{value:,.0f}" if value.is_integer() else f"{value:,.1f}"
    elif value is not None:
        yield value
