"""The built-in ``extended`` suite (RL training): size, coverage, on-disk size, and a verified sample.

The whole suite was fully verified when it was generated (docs/generation.md); CI re-verifies a
fixed sample so its time stays small.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.generation import cells, check_distribution
from mmtsb_env.generation.verify import arrival_of


@pytest.fixture(scope="module")
def suite():
    return mmtsb_env.load_suite("extended")


def test_size_ids_and_cells(suite):
    assert len(suite) >= 2000
    ids = [s.id for s in suite]
    assert len(set(ids)) == len(ids) and all(i.startswith("extended/") for i in ids)
    cell = Counter((s.metadata["flow_type"], s.metadata["challenge_type"], s.metadata["image_arrival"]) for s in suite)
    assert set(cell) == set(cells()) and min(cell.values()) >= 10
    assert check_distribution(suite, min_per_cell=10).ok


def test_no_scenario_repeats_a_nominal_one(suite):
    """Training scenarios differ from the evaluation suite's: no extended scenario shows the same images as a nominal one."""
    import json

    def images(s):
        return json.dumps([im.render for im in s.images], sort_keys=True, default=str)

    nominal = {images(s) for s in mmtsb_env.load_suite("nominal")}
    assert not [s.id for s in suite if images(s) in nominal]
    assert len({images(s) for s in suite}) == len(suite)


def test_stored_compressed_and_small():
    folder = Path(mmtsb_env.__file__).resolve().parent.parent / "scenarios" / "extended"
    files = sorted(folder.glob("*.json.gz"))
    assert len(files) == 7
    total = sum(f.stat().st_size for f in files)
    assert total < 8_000_000, total


def test_structure_of_every_scenario(suite):
    for s in suite:
        assert 3 <= len(s.images) <= 6 and 2 <= len(s.rounds) <= 5, s.id
        assert arrival_of(s) == s.metadata["image_arrival"], s.id


@pytest.mark.parametrize("index", [0, 287, 611, 999, 1402, 1999])
def test_a_sample_passes_full_verification(suite, index):
    from mmtsb_env.generation import verify

    report = verify(suite[index], render_images=True)
    assert report.ok, (suite[index].id, report.problems)
