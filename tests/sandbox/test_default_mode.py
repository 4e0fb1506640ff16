"""What the default (worker process) mode offers agents working on images and data, and the hard
layers under the restricted one: the worker cannot open files, holds its own random/clock."""

from __future__ import annotations

import os
import re

import pytest

import mmtsb_env
from mmtsb_env.sandbox import Interpreter, Limits


def code(text: str) -> str:
    return f"```python\n{text}\n```"


@pytest.fixture(scope="module")
def env():
    e = mmtsb_env.make_env(suite="demo", mode="code", max_messages=1000)
    e.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    yield e
    e.close()


def test_numpy_pil_base64_copy_random_on_a_tool_image(env):
    obs, *_ = env.step(code(
        "from PIL import Image, ImageOps, ImageStat\nimport numpy as np, base64, copy, random\n"
        "shown = view_image(image_id=0)\nim = Image.open(shown)\n"
        "gray = np.asarray(ImageOps.grayscale(im))\n"
        "crop = im.crop((0, 0, 8, 8))\n"
        "print(im.size == (shown['width'], shown['height']), gray.shape, gray.dtype)\n"
        "print(len(base64.b64decode(base64.b64encode(crop.tobytes()))), copy.deepcopy({'a': [1]}))\n"
        "print(random.Random(3).random() == random.Random(3).random(), round(ImageStat.Stat(crop).mean[0]) >= 0)"
    ))
    text = obs["text"]
    assert re.search(r"True \(\d{3,4}, \d{3,4}\) uint8", text), text  # PIL's size is the shown size; numpy's shape its grey pixels
    assert "192 {'a': [1]}" in text  # 8 x 8 RGB pixels
    assert "True True" in text


def test_images_by_id_and_bytes(env):
    obs, *_ = env.step(code(
        "from PIL import Image\nimport numpy as np\n"
        "a = Image.open(0)\nsmall = Image.fromarray(np.zeros((4, 6, 3), dtype=np.uint8))\n"
        "print(a.mode, small.size, Image.open(99) if False else 'ok')"
    ))
    assert "RGB (6, 4) ok" in obs["text"]
    obs, *_ = env.step(code("from PIL import Image\nImage.open(99)"))
    assert "no image 99 yet; images you have: 0" in obs["text"]


def test_the_worker_is_fenced_below_the_policy():
    """The jail (own namespaces, seccomp, no_new_privs, nobody outside when the host is root),
    RLIMIT_NOFILE (no new file or socket), RLIMIT_FSIZE=0, RLIMIT_AS, RLIMIT_CPU, RLIMIT_NPROC and a
    fixed hash seed."""
    interp = Interpreter({}, Limits(memory_mb=256))
    try:
        assert interp.run("1").ok
        pid = interp._backend.pid
        with open(f"/proc/{pid}/limits") as fh:
            limits = {line[:26].strip(): line[26:].split() for line in fh if line[:26].strip()}
        assert limits["Max open files"][:2] == ["4", "4"]
        assert limits["Max file size"][:2] == ["0", "0"]
        assert limits["Max address space"][0] != "unlimited"
        assert limits["Max cpu time"][0] != "unlimited"
        assert limits["Max processes"][0] != "unlimited"
        with open(f"/proc/{pid}/status") as fh:
            status = dict(line.rstrip("\n").split(":\t", 1) for line in fh if ":\t" in line)
        assert status["Seccomp"] == "2" and status["NoNewPrivs"] == "1"
        assert status["CapEff"] == status["CapPrm"] == "0000000000000000"
        if os.geteuid() == 0:
            assert status["Uid"].split() == ["65534"] * 4  # not root outside the jail
        for ns in ("user", "pid", "mnt", "net", "ipc", "uts"):
            assert os.readlink(f"/proc/{pid}/ns/{ns}") != os.readlink(f"/proc/self/ns/{ns}"), ns
        with open(f"/proc/{pid}/environ", "rb") as fh:
            environ = dict(item.split(b"=", 1) for item in fh.read().split(b"\0") if item)
        assert environ[b"PYTHONHASHSEED"] == b"0"  # started clean, not inherited from the host
        assert set(environ) <= {b"PYTHONHASHSEED", b"PATH", b"OPENBLAS_NUM_THREADS", b"OMP_NUM_THREADS",
                                b"MKL_NUM_THREADS", b"PYTHONDONTWRITEBYTECODE", b"LC_CTYPE",
                                b"PWD"}  # bwrap sets PWD=/
    finally:
        interp.close()


def test_in_process_opt_in_refuses_numpy_and_pil():
    interp = Interpreter({}, Limits(isolation="thread"))
    try:
        for module in ("numpy", "PIL"):
            res = interp.run(f"import {module}")
            assert res.error_kind == "violation" and "worker process" in res.error
    finally:
        interp.close()


def test_random_is_seeded_from_the_episode_seed():
    outputs = []
    for seed in (4, 4, 5):
        env = mmtsb_env.make_env(suite="demo", mode="code")
        env.reset(seed=seed, options={"scenario": "demo/note_from_receipt"})
        obs, *_ = env.step(code("import random\nrandom.random()"))
        outputs.append(obs["text"])
        env.close()
    assert outputs[0] == outputs[1] != outputs[2]


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_output_always_encodes_as_utf8(isolation):
    interp = Interpreter({}, Limits(isolation=isolation))
    try:
        res = interp.run("print(chr(0xD800), 'é')\nraise ValueError(chr(0xDFFF))")
        res.output.encode("utf-8")
        res.error.encode("utf-8")
        assert "é" in res.output and res.error_kind == "runtime"
    finally:
        interp.close()


@pytest.mark.parametrize("isolation", ["process", "thread"])
def test_frozen_clock_everywhere_it_can_be_read(isolation):
    import datetime as dt

    clock = dt.datetime(2026, 4, 16, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    interp = Interpreter({}, Limits(isolation=isolation), clock=clock)
    try:
        res = interp.run(
            "import datetime, time\nfrom datetime import date, datetime as D, timezone\n"
            "d = D.now()\nprint(d, D.now(timezone.utc), D.utcnow(), date.today(), D.today())\n"
            "print(type(d).now(), d.today(), time.time(), time.strftime('%Y-%m-%d %H:%M'), time.gmtime().tm_hour)"
        )
        assert res.ok, res.error
        first, second = res.output.splitlines()
        assert first == ("2026-04-16 09:00:00 2026-04-16 07:00:00+00:00 2026-04-16 07:00:00 2026-04-16 "
                         "2026-04-16 09:00:00")
        assert second == "2026-04-16 09:00:00 2026-04-16 09:00:00 1776322800.0 2026-04-16 09:00 7"
    finally:
        interp.close()
