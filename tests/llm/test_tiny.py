"""The tiny offline VLM builder (``python -m mmtsb_env.llm.tiny``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def test_cli_builds_a_loadable_qwen2_vl_without_torchvision(tmp_path):
    pytest.importorskip("transformers")
    out = subprocess.run([sys.executable, "-m", "mmtsb_env.llm.tiny", str(tmp_path / "q"), "--arch", "qwen2_vl"],
                         capture_output=True, text=True, timeout=300, check=True)
    path = tmp_path / "q"
    assert out.stdout.strip() == str(path)
    config = json.loads((path / "config.json").read_text())
    assert config["model_type"] == "qwen2_vl" and config["text_config"]["hidden_size"] == 64
    assert json.loads((path / "processor_config.json").read_text())["processor_class"] == "Qwen2VLProcessor"
    from mmtsb_env.llm.hf_backend import TransformersBackend

    backend = TransformersBackend(path, max_new_tokens=2)
    assert type(backend.processor).__name__ == "ImageOnlyQwen2VLProcessor"  # torchvision is not installed
    assert backend.complete([{"role": "user", "content": "hi"}]).usage["completion_tokens"] >= 1


def test_tokenizer_and_weights_are_deterministic(tiny_idefics3, tmp_path):
    from mmtsb_env.llm.tiny import build_tiny_vlm

    again = build_tiny_vlm(tmp_path / "again", arch="idefics3")
    for name in ("tokenizer.json", "model.safetensors", "config.json", "chat_template.jinja"):
        assert (again / name).read_bytes() == (tiny_idefics3 / name).read_bytes(), name


def test_special_tokens_are_single_tokens(idefics3_backend):
    tok = idefics3_backend.tokenizer
    for token in ("<|im_start|>", "<|im_end|>", "<image>", "<fake_token_around_image>", "<global-img>", "<row_1_col_1>"):
        assert len(tok.encode(token, add_special_tokens=False)) == 1, token
    assert idefics3_backend.hf_model.config.text_config.vocab_size >= len(tok)
    assert tok.decode(tok.encode('<tool_call>{"name": "x"}</tool_call>', add_special_tokens=False)) == \
        '<tool_call>{"name": "x"}</tool_call>'


def test_unknown_arch_is_refused(tmp_path):
    pytest.importorskip("transformers")
    from mmtsb_env.llm.tiny import build_tiny_vlm

    with pytest.raises(ValueError, match="unknown arch 'llava'"):
        build_tiny_vlm(tmp_path, arch="llava")
