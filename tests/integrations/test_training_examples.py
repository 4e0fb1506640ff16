"""The training examples run on CPU: execute each script and check what it reports."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name, *args, timeout=600):
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRL_EXPERIMENTAL_SILENCE": "1"}
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_sft_with_trl_on_exported_trajectories(tmp_path):
    pytest.importorskip("trl")
    out = run("sft_trl.py", tmp_path, "--steps", "1")
    assert "SFT rows: 2; tools offered per row: [29, 29]" in out
    tokens, trained = map(int, re.search(r"row 0: (\d+) tokens, (\d+) of them the assistant's", out).groups())
    assert 0 < trained < tokens // 10
    assert re.search(r"trained 1 steps; losses \[\d+\.\d+\]", out)
    assert (tmp_path / "trajectories.parquet").exists()


def test_grpo_with_trl_on_the_demo_suite(tmp_path):
    pytest.importorskip("trl")
    out = run("grpo_trl.py", tmp_path, "--steps", "2")
    assert "prompt rows: 12 scenarios" in out
    norms = [float(x) for x in re.findall(r"grad norm (\d+\.\d+)", out)]
    assert len(norms) == 2 and all(n > 0 for n in norms)
    assert re.search(r"last rollout: \d+ tokens, \d+ trained, [12] image\(s\), \d+ env steps", out)


def test_skyrl_adapter_example():
    pytest.importorskip("skyrl_gym")
    out = run("skyrl_episode.py")
    assert "init: ['system', 'user'], 29 tools offered" in out
    assert "turn 2: reward +0.00, 1 observation message(s), 2 image(s)" in out  # round 2's receipts
    assert "done: return 2.00, passed True" in out
