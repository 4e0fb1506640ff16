"""``mmtsb play``: a person types actions; new images are written to files whose paths are shown."""

import subprocess
import sys

from PIL import Image


def test_play_a_scenario_through_stdin(tmp_path):
    actions = "\n".join([
        ":tools",
        '{"name": "simple_note_create_note", "arguments": {"title": "Bigger purchase", "content": "Lumen Hardware $22.13"}}',
        '{"name": "simple_note_delete_note", "arguments": {"note_id": "x"}}',
        "Lumen Hardware was more expensive at $22.13.",
    ]) + "\n"
    out = subprocess.run(
        [sys.executable, "-m", "mmtsb_env.cli", "play", "--scenario", "demo/compare_receipts", "--image-dir", str(tmp_path)],
        input=actions, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert f"[image 1] saved to {tmp_path}/image_1.png" in text
    assert Image.open(tmp_path / "image_0.png").size[0] > 200
    assert "simple_note_create_note" in text.split("assistant>")[1]  # the :tools listing
    assert "reward +1.000" in text
    assert "parameter 'note_id' must be an integer" in text
    assert "Episode over (ended by the user): PASS" in text


def test_play_code_mode_multiline_block(tmp_path):
    actions = "```python\nx = 6 * 7\nprint(x)\n```\n:quit\n"
    out = subprocess.run(
        [sys.executable, "-m", "mmtsb_env.cli", "play", "--scenario", "demo/note_from_receipt", "--mode", "code",
         "--image-dir", str(tmp_path)], input=actions, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "Execution result:\n42" in out.stdout
