"""The disk cache of image products: on by default, a fresh process draws nothing drawn before, a
corrupt or stale entry is ignored and rebuilt, and the cache never grows past its cap."""

from __future__ import annotations

import dataclasses
import json
import os
import struct
import zlib

import numpy as np
import pytest

import mmtsb_env
from mmtsb_env.vision import assets, disk


def _trajectory() -> list:
    env = mmtsb_env.make_env(suite="demo", image_size=(96, 96))
    obs, info = env.reset(seed=1, options={"scenario": "demo/note_from_receipt"})
    out = [(obs["text"], obs["images"].copy(), json.dumps(info["messages"]))]
    for call in ({"name": "crop_image", "arguments": {"image_id": 0, "left": 0, "upper": 0, "right": 600, "lower": 500}},
                 {"name": "enhance_image", "arguments": {"image_id": 1, "factor": 2.0}}):
        obs, reward, *_, info = env.step(json.dumps(call))
        out.append((obs["text"], obs["images"].copy(), json.dumps(info["messages"]), reward))
    return out


def _same(a: list, b: list) -> None:
    assert len(a) == len(b) and all(x[0] == y[0] and np.array_equal(x[1], y[1]) and x[2:] == y[2:] for x, y in zip(a, b))


@pytest.fixture
def on_disk(tmp_path):
    assets.clear()
    disk.use(tmp_path)
    yield tmp_path
    disk.use(None)
    assets.clear()


def _entries(root) -> list:
    return sorted(p for p in root.rglob("*") if p.is_file())


def test_a_fresh_process_reads_every_product_and_draws_nothing(on_disk):
    first = _trajectory()
    files = _entries(on_disk)
    assert len(files) >= 6 and assets.PIXELS.nbytes > 0  # fitted arrays, PNGs and sizes were written
    assets.clear()  # what a fresh process starts from
    second = _trajectory()
    _same(first, second)
    assert len(assets.PIXELS) == 0 and _entries(on_disk) == files  # nothing drawn, nothing rewritten


def test_corrupt_entries_are_ignored_and_rebuilt(on_disk):
    first = _trajectory()
    files = _entries(on_disk)
    for i, path in enumerate(files):
        data = bytearray(path.read_bytes())
        if i % 2:
            data[-1] ^= 0xFF  # a flipped byte
        else:
            data = data[: len(data) // 2]  # a truncated write
        path.write_bytes(bytes(data))
    assets.clear()
    again = _trajectory()
    _same(first, again)
    assert len(assets.PIXELS) > 0  # redrawn
    for path in files:  # and rewritten intact
        data = path.read_bytes()
        length, crc = struct.unpack_from("<QI", data)
        assert length == len(data) - 12 and zlib.crc32(data[12:]) == crc


def test_entries_of_other_code_or_library_versions_are_never_read(on_disk, monkeypatch):
    first = _trajectory()
    monkeypatch.setattr(disk, "code_version", lambda: "another-renderer")
    disk.use(on_disk)
    assets.clear()
    again = _trajectory()
    _same(first, again)
    assert len(assets.PIXELS) > 0 and (on_disk / "another-renderer").is_dir()


def test_only_content_that_is_the_same_in_every_process_is_stored():
    spec = ("render", '{"kind":"receipt"}')
    assert disk.persistent((spec, "fit", 336, 336))
    assert disk.persistent((("derived", ("derived", spec, "crop", (0, 0, 5, 5)), "contrast", (1.5,)), "png", 9, 9))
    assert not disk.persistent((("recipe", 12), "fit", 336, 336))  # a process-local drawing
    assert not disk.persistent((("file", "/x.png", 1), "png", 9, 9))
    assert not disk.persistent((("derived", ("recipe", 3), "crop", (0, 0, 1, 1)), "size"))


def _configure(monkeypatch, **environ):
    for name in (disk.DIR_ENV, disk.ROOT_ENV, disk.SIZE_ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(disk, "_configured", False)


def test_the_cache_is_on_by_default_under_the_shared_cache_root(monkeypatch, tmp_path):
    _configure(monkeypatch, HOME=str(tmp_path))
    assert disk.folder() == tmp_path / ".cache" / "mmtsb_env" / "images" / disk.code_version()
    _configure(monkeypatch, **{disk.ROOT_ENV: str(tmp_path / "root")})
    assert disk.folder() == tmp_path / "root" / "images" / disk.code_version()
    _configure(monkeypatch, **{disk.ROOT_ENV: str(tmp_path / "root"), disk.DIR_ENV: str(tmp_path / "own")})
    assert disk.folder() == tmp_path / "own" / disk.code_version()
    disk.use(None)


def test_an_empty_variable_turns_the_cache_off(monkeypatch, tmp_path):
    for environ in ({disk.DIR_ENV: ""}, {disk.ROOT_ENV: ""}, {disk.ROOT_ENV: str(tmp_path), disk.DIR_ENV: ""}):
        _configure(monkeypatch, **environ)
        assert disk.folder() is None and disk.load((("render", "{}"), "size")) is None
        disk.store((("render", "{}"), "size"), (3, 4))
    assert not any(tmp_path.rglob("*"))
    disk.use(None)


def _key(i: int) -> tuple:
    return (("render", f'{{"kind":"receipt","seed":{i}}}'), "png", 9, 9)


def test_the_cache_stays_under_its_cap_and_drops_the_least_recently_used(monkeypatch, tmp_path):
    _configure(monkeypatch, **{disk.DIR_ENV: str(tmp_path), disk.SIZE_ENV: "0.5"})  # 512 KiB
    blob = bytes(range(256)) * 200  # ~51 kB per entry
    for i in range(4):
        disk.store(_key(i), blob)
    assert disk.load(_key(0)) == blob  # read: now the most recently used
    stale = tmp_path / ("0" * 20) / "ab"  # the folder of an older renderer's code version
    stale.mkdir(parents=True)
    (stale / ("e" * 32)).write_bytes(b"x" * 60_000)
    os.utime(stale / ("e" * 32), (1, 1))  # written long ago by another code version
    foreign = tmp_path / "notes" / "ab"  # someone else's files in a folder the user named: never touched
    foreign.mkdir(parents=True)
    (foreign / ("f" * 32)).write_bytes(b"y" * 60_000)
    os.utime(foreign / ("f" * 32), (1, 1))
    (disk._path(_key(0)).parent / "readme.txt").write_bytes(b"z" * 60_000)
    os.utime(disk._path(_key(1)), (2, 2))  # and entry 1 is the least recently used of ours
    for i in range(4, 40):
        disk.store(_key(i), blob)
    files = [p for p in (tmp_path / disk.code_version()).rglob("*") if p.is_file() and p.name != "readme.txt"]
    assert sum(p.stat().st_size for p in files) <= disk.cap_bytes() + 51_300 * 2
    assert not (tmp_path / ("0" * 20)).exists()  # emptied and removed first
    assert (foreign / ("f" * 32)).exists() and (disk._path(_key(0)).parent / "readme.txt").exists()
    assert disk.load(_key(1)) is None  # the least recently used went
    assert disk.load(_key(39)) == blob  # the newest stays
    disk.use(None)


def test_prune_removes_abandoned_temporary_files_and_keeps_fresh_ones(monkeypatch, tmp_path):
    _configure(monkeypatch, **{disk.DIR_ENV: str(tmp_path)})
    disk.store(_key(1), b"payload")
    bucket = disk._path(_key(1)).parent
    (bucket / ("a" * 32 + ".123.4.tmp")).write_bytes(b"half")
    os.utime(bucket / ("a" * 32 + ".123.4.tmp"), (1, 1))
    (bucket / ("b" * 32 + ".123.5.tmp")).write_bytes(b"being written")
    assert disk.prune() == 4
    assert not (bucket / ("a" * 32 + ".123.4.tmp")).exists() and (bucket / ("b" * 32 + ".123.5.tmp")).exists()
    assert disk.load(_key(1)) == b"payload"
    disk.use(None)


def test_a_bad_cap_falls_back_to_the_default(monkeypatch):
    monkeypatch.setenv(disk.SIZE_ENV, "lots")
    assert disk.cap_bytes() == disk.DEFAULT_MB * 2**20


_CHILD = """
import json, sys
import mmtsb_env
env = mmtsb_env.make_env(suite="demo")
obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
assert obs["image_count"] == 2 and all(obs["images"][i].any() for i in range(2))
print(json.dumps({"render": "mmtsb_env.vision.render" in sys.modules, "cv2": "cv2" in sys.modules,
                  "obs": obs["images"][:2].tobytes().hex()[:4000], "messages": json.dumps(info["messages"])}))
"""


def _child(tmp_path) -> dict:
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != disk.DIR_ENV}
    env[disk.ROOT_ENV] = str(tmp_path)
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_process_served_by_the_cache_never_loads_the_renderers(tmp_path):
    first, second = _child(tmp_path), _child(tmp_path)
    assert first["render"] and first["cv2"]  # drew and validated the specs
    assert not second["render"] and not second["cv2"]  # every product and validation came from the cache
    assert second["obs"] == first["obs"] and second["messages"] == first["messages"]


def test_a_spec_is_still_validated_when_the_cache_has_never_seen_it(on_disk):
    from mmtsb_env.episode.images import load_scenario_images
    from mmtsb_env.scenario.model import ScenarioError

    scenario = mmtsb_env.load_suite("demo")[0]
    bad = scenario.images[0].render | {"difficulty": 7}
    broken = dataclasses.replace(scenario, images=(dataclasses.replace(scenario.images[0], render=bad),))
    with pytest.raises(ScenarioError, match="difficulty"):
        load_scenario_images(broken)
    load_scenario_images(scenario)  # a valid one is validated once, then marked
    assert disk.has((assets.render_key(scenario.images[0].render), "valid"))
