"""``mmtsb eval --agent vllm --token-in``: the exported episodes carry the server's own token ids and logprobs.

Runs only when ``MMTSB_VLLM_PYTHON`` names the python of the separate vLLM environment; the server
(``vllm_server`` in conftest.py) serves the tiny Idefics3 with ``--enable-scale-out``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.vllm,
    pytest.mark.skipif(not os.environ.get("MMTSB_VLLM_PYTHON"), reason="MMTSB_VLLM_PYTHON is not set"),
]
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parents[2]
MAX_TOKENS = 12


def _runs(mask: list[int]) -> list[tuple[int, int]]:
    """(start, end) of each run of 1s in ``mask``."""
    runs, start = [], None
    for i, m in enumerate([*mask, 0]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            runs.append((start, i))
            start = None
    return runs


def test_eval_token_in_exports_the_servers_ids_and_logprobs(vllm_server, tiny_vlm, tmp_path):
    url, path = vllm_server
    out = tmp_path / "run"
    command = [sys.executable, "-m", "mmtsb_env.cli", "eval", "--agent", "vllm", "--model", url + "/v1", "--token-in",
               "--suite", "demo", "--limit", "2", "--max-tokens", str(MAX_TOKENS), "--temperature", "1.0",
               "--max-steps", "8", "--image-size", "32", "--max-images", "1", "--out", str(out), "--no-report", "-q"]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary, _ = json.JSONDecoder().raw_decode(proc.stdout[proc.stdout.index("{"):])
    assert summary["episodes"] == 2 and summary["errored"] == 0, proc.stdout[-3000:]

    rows = pq.read_table(out / "trajectories.parquet").to_pylist()
    assistant = [r for r in rows if r["seat"] == "assistant"]
    assert len(assistant) == 2 and max(r["seat_steps"] for r in assistant) >= 2  # a turn after a turn, too
    processor = tiny_vlm[2]
    image_id = processor.tokenizer.convert_tokens_to_ids("<image>")
    for row in assistant:
        ids, mask, logprobs, steps = row["token_ids"], row["loss_mask"], row["logprobs"], row["token_steps"]
        assert ids and len(ids) == len(mask) == len(logprobs)
        extras = json.loads(row["agent_steps"])
        assert len(steps) == len(extras) == row["seat_steps"] >= 1
        assert all(s["prompt_exact"] for s in extras)  # the server's prompt was the transcript, every turn
        # each turn's sampled ids sit in the sequence verbatim, masked 1, with the server's logprobs
        runs = _runs(mask)
        assert len(runs) == len(steps)
        for (start, end), step in zip(runs, steps):
            assert ids[start:end] == step["completion_ids"] and 1 <= end - start <= MAX_TOKENS
            assert logprobs[start:end] == pytest.approx(step["logprobs"]) and all(lp < 0 for lp in step["logprobs"])
            assert ids[:start] == step["prompt_ids"]  # the prompt of each turn is the sequence so far
        assert all(lp == 0.0 for lp, m in zip(logprobs, mask) if not m)
        # the prompt is the model's own template over the env's first messages, images expanded
        assert ids.count(image_id) > 0 and processor.tokenizer.decode(ids[:8]).startswith("<|im_start|>")
        # what the env received is the decoding of the sampled ids
        assert [s["action"] for s in extras] == [processor.tokenizer.decode(s["completion_ids"], skip_special_tokens=True)
                                                 for s in steps]
    metadata = json.loads((out / "results.json").read_text())["metadata"]
    assert metadata["sampling"]["token_in"] is True
