"""Dev-time legibility check: Debian's tesseract reads the text facts of rendered images (difficulty 0-1)."""

from __future__ import annotations

import shutil

import pytest

from mmtsb_env.generation.ocr import legibility

pytestmark = pytest.mark.ocr


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed (apt-get install -y tesseract-ocr)")
def test_tesseract_recovers_most_text_facts():
    result = legibility(n_scenarios=1, seed=0, categories=("invoice", "business_card", "sign"), max_images=2)
    assert result.images >= 5 and result.facts >= 10
    # printed documents are easy; handwriting pulls the mean down
    assert result.share >= 0.6, result.by_category
    assert result.by_category["invoice"] >= 0.8, result.by_category
