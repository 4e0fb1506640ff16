"""Dev-time legibility checks with Debian's tesseract.

* generated scenarios: the text facts of flat documents are read back (difficulty 0-1);
* render families: each level's difficulty is *measured* -- tesseract reads the values a scenario
  needs (``ocr.NEEDED``) from the image as delivered (easy level >= 90 %, hard level <= 40 %),
  and after the agent's visual tools (crop to the document, 2x resize, contrast) it still reads
  most of them at every level.

Each share is pooled over ``ocr.CALIBRATION_SEEDS`` (seeds 0-9).
"""

from __future__ import annotations

import functools
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

from mmtsb_env.generation.legibility import legibility
from mmtsb_env.generation.ocr import CALIBRATION_SEEDS, NEEDED, level_reading

pytestmark = [pytest.mark.ocr,
              pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed (apt-get install -y tesseract-ocr)")]

# tesseract is no reader of handwriting: a note's level 0 reads 2 of 3 lines (documented in docs/images.md)
# nor of a desktop settings page's values as a whole screen: right-aligned in fields across two columns of
# cards, it drops "7" or "75Hz" in about one screen of two (85 % over seeds 0-3; a crop and zoom read them all)
EASY = {"note_photo": 0.6, "settings_panel": 0.8}
ASSISTED = 0.6  # share of the needed values read as delivered or with the visual tools, at every level
NOT_TEXT_AFTER = {"chart_read": 1}  # from level 1 the values are read off gridlines (tests/vision/test_families.py)


def test_tesseract_recovers_most_text_facts():
    # four scenarios a category: the hard-level mix (levels 2-3 for about 65 % of images) leaves one
    # scenario's invoices with no image at level 0-1 (seed 0: three at level 3)
    result = legibility(n_scenarios=4, seed=0, categories=("invoice", "business_card", "sign"), max_images=2)
    assert result.images >= 5 and result.facts >= 10
    assert set(result.by_category) == {"invoice", "business_card", "sign"}, result.by_category
    # printed documents are easy; handwriting pulls the mean down
    assert result.share >= 0.6, result.by_category
    assert result.by_category["invoice"] >= 0.8, result.by_category


@functools.cache
def _levels(kind: str) -> tuple:
    """The family's four level readings, read once for both tests (so ``-k family`` reads only it)."""
    with ThreadPoolExecutor(2) as pool:  # the time is tesseract's, in subprocesses
        return tuple(pool.map(lambda d: level_reading(kind, d, seeds=CALIBRATION_SEEDS), range(4)))


@pytest.mark.parametrize("kind", sorted(NEEDED))
def test_levels_are_calibrated_by_ocr(kind):
    plain = [_levels(kind)[d].plain_share for d in range(4)]
    assert plain[0] >= EASY.get(kind, 0.9), (kind, plain)
    assert plain[3] <= 0.4, (kind, plain)
    if kind in NOT_TEXT_AFTER:  # the values stop being printed
        assert all(p <= 0.4 for p in plain[NOT_TEXT_AFTER[kind]:]), (kind, plain)
    else:
        assert plain[0] > plain[3] and plain[1] >= plain[3], (kind, plain)


@pytest.mark.parametrize("kind", sorted(NEEDED))
def test_hard_levels_stay_recoverable_with_the_visual_tools(kind):
    for d in range(4):
        if d >= NOT_TEXT_AFTER.get(kind, 9):
            continue
        r = _levels(kind)[d]
        assert r.assisted_share >= ASSISTED, (kind, d, r.assisted_share, r.misses)
    hard = _levels(kind)[3]
    if NOT_TEXT_AFTER.get(kind, 9) > 3:
        assert hard.assisted_share > hard.plain_share, (kind, hard.plain_share, hard.assisted_share)


def test_a_zero_before_z_after_a_digit_is_the_o_of_oz():
    from mmtsb_env.generation.ocr import _squash

    # tesseract reads "12oz" as "120z" in every font and size; the comparison takes it back, and only there
    assert _squash("Travel Mug 120z") == _squash("Travel Mug 12oz") == "travel mug 12oz"
    assert _squash("1000 pcs") == "1000 pcs" and _squash("0z 100 zones") == "0z 100 zones"


def test_a_tables_figures_survive_its_top_level_scan():
    """table_document's level 3 keeps a digit a 20-row sum needs readable with the tools (visual audit,
    session 13: JPEG 50 and noise 9 turned a fee of 82 into 87): tesseract over the tools' views reads
    12 of the 14 figure cells of seeds 0-3 (9 under the old scan)."""
    import re

    from mmtsb_env.generation.ocr import read_values
    from mmtsb_env.vision.render import render

    n = ok = 0
    for seed in range(4):
        r = render({"kind": "table_document", "seed": seed, "difficulty": 3}, use_cache=False)
        figures = [c for row in r.facts["rows"] for c in row if re.fullmatch(r"[\d.,]+", str(c))]
        n += len(figures)
        ok += sum(read_values(r, figures, plain=False)[1])
    assert n >= 10 and ok / n >= 0.8, (ok, n)
