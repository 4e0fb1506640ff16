"""The opt-in disk cache of image products: a fresh process draws nothing drawn before, and a
corrupt or stale entry is ignored and rebuilt."""

from __future__ import annotations

import json
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


def test_the_cache_is_off_unless_asked_for(monkeypatch):
    monkeypatch.delenv(disk.DIR_ENV, raising=False)
    monkeypatch.setattr(disk, "_configured", False)
    assert disk.folder() is None and disk.load((("render", "{}"), "size")) is None
