"""The base world's disk cache: a later process loads exactly what a build makes; bad files are rebuilt."""

from __future__ import annotations

import pytest

from mmtsb_env.world import base


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(base.CACHE_DIR_ENV, str(tmp_path))
    yield tmp_path
    base._cache.pop(7, None)


def test_a_cached_base_world_equals_a_fresh_build(cache_dir):
    built = base.base_world(7)
    files = list(cache_dir.glob("base_world_7_*.pickle"))
    assert len(files) == 1
    base._cache.pop(7)
    loaded = base.base_world(7)
    assert loaded is not built  # came from the file, not the process cache
    assert loaded.layer.tables == built.layer.tables and loaded.people == built.people
    assert loaded.shared == built.shared and loaded.supervisor_id == built.supervisor_id


def test_a_corrupt_cache_file_is_rebuilt_and_replaced(cache_dir):
    path = base._disk_path(7)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a pickle")
    world = base.base_world(7)
    assert world.layer.tables == base.build_base_world(7).layer.tables
    assert path.read_bytes()[:1] == b"\x80"  # a pickle now


def test_an_empty_cache_dir_setting_disables_the_disk_cache(monkeypatch):
    monkeypatch.setenv(base.CACHE_DIR_ENV, "")
    assert base._disk_path(0) is None


def test_the_cache_key_changes_with_the_seed_and_the_populators(cache_dir, monkeypatch):
    a, b = base._disk_path(7), base._disk_path(8)
    assert a != b and a.parent == cache_dir
    monkeypatch.setattr(base, "_POPULATORS", [*base._POPULATORS, (999, "extra.app", lambda builder: None)])
    assert base._disk_path(7) != a
