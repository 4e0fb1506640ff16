"""Every example runs on CPU in seconds: execute each script and check its key output."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name, *args, timeout=120):
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, str(EXAMPLES / name), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_quickstart():
    out = run("quickstart.py")
    assert "scenario demo/note_from_receipt" in out
    assert "action error: Error (invalid_argument): simple_note_create_note is missing required parameter(s): content" in out
    assert "--- step 2: reward +1.000" in out
    assert "episode over: terminated=True truncated=False return=2.00 entity_f1=1.00 passed=True" in out


def test_export_sft(tmp_path):
    out = run("export_sft.py", tmp_path)
    assert "played 12 episodes; passed 12" in out
    assert re.search(r"trajectories\.parquet \(\d+ KiB\): 24 rows, \d+ columns", out)
    assert "datasets: 24 rows; row 0 = demo/compare_receipts (assistant), 6 messages, 2 images [(528, 662), (528, 732)]" in out
    assert "SFT dataset: 12 rows" in out and "2 image parts for 2 images" in out
    assert (tmp_path / "trajectories.parquet").exists() and (tmp_path / "steps.parquet").exists()
    import datasets

    sft = datasets.load_from_disk(str(tmp_path / "sft"))
    assert sft.num_rows == 12 and sft[0]["images"][0].size == (528, 662)


def test_both_seats():
    out = run("both_seats.py")
    lines = [line for line in out.splitlines() if line.startswith("[")]
    seats = [re.match(r"\[\s*\d+\] (\w+)", line).group(1) for line in lines]
    assert seats == ["user", "assistant", "assistant", "user", "assistant", "assistant", "user"]
    assert "send_message_with_image" in lines[0]
    assert lines[-1].endswith('-> {"name": "end_conversation", "arguments": {}}')
    assert "rewards {'assistant': 2.0, 'user': 0.0}; entity_f1 1.00; verdict pass True" in out


@pytest.mark.slow
def test_distributed_eval(tmp_path):
    pytest.importorskip("ray", reason="the [ray] extra is not installed")
    out = run("distributed_eval.py", tmp_path, timeout=300)
    assert re.search(r"12 episodes on 2 workers in [\d.]+s: Agent SR 1\.00, mean entity F1 1\.00", out)
    assert (tmp_path / "trajectories.parquet").exists()
    from mmtsb_env.export import read_parquet

    assert len(read_parquet(tmp_path / "trajectories.parquet")) == 12
