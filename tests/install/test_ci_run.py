"""`.ci/run` (the README's command 2) builds its own environment and leaves the user's `.venv`
(command 1) alone. Run up to the point where it creates its venv, with a stand-in python that
records the call and stops the script."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("tesseract")),
                    reason="needs chromium and tesseract installed (else .ci/run would call apt-get)")
def test_ci_run_keeps_the_users_venv(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPO / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "made-by-command-1").write_text("x")
    calls = tmp_path / "calls.txt"
    stub = tmp_path / "python-stub"
    stub.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexit 3\n')
    stub.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "MMTSB_CI_VENV"}
    result = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env={**env, "PYTHON": str(stub)},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 3, result.stderr
    assert (tmp_path / ".venv" / "made-by-command-1").exists()
    assert calls.read_text().split() == ["-m", "venv", ".venv-ci"]


def test_ci_run_refuses_to_use_the_users_venv(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(REPO / ".ci" / "run", tmp_path / ".ci" / "run")
    (tmp_path / ".venv").mkdir()
    result = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "MMTSB_CI_VENV": ".venv", "PATH": os.environ["PATH"]})
    if not (shutil.which("chromium") and shutil.which("tesseract")):
        pytest.skip("needs chromium and tesseract installed")
    assert result.returncode == 2 and "must not be the user's .venv" in result.stderr
    assert (tmp_path / ".venv").is_dir()
