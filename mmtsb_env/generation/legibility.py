"""Dev-time measure: render the images of generated scenarios and count the printed text facts
tesseract recovers (:mod:`.ocr`; ``benchmarks/bench_generation.py --ocr`` prints it)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable

from ..vision.render import render
from .api import generate
from .axes import CATEGORIES
from .ocr import _squash, ocr_text, tesseract_available, text_facts


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



def legibility(n_scenarios: int = 2, seed: int = 0, categories: Iterable[str] | None = None,
               max_difficulty: int = 1, max_images: int | None = None) -> Legibility:
    """Render the images of generated scenarios and count the printed text facts tesseract recovers.

    ``n_scenarios`` per category; ``max_images`` caps the images read per category.
    """
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
