"""Fixtures for the model-backed tests: tiny random-weight VLMs built once per session, offline."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _need_transformers() -> None:
    pytest.importorskip("torch", reason="torch is not installed (pip install torch==2.13.0)")
    pytest.importorskip("transformers", reason="transformers is not installed (pip install '.[hf]')")


@pytest.fixture(scope="session")
def tiny_idefics3(tmp_path_factory):
    _need_transformers()
    from mmtsb_env.llm.tiny import build_tiny_vlm

    return build_tiny_vlm(tmp_path_factory.mktemp("tiny") / "idefics3", arch="idefics3")


@pytest.fixture(scope="session")
def tiny_qwen2_vl(tmp_path_factory):
    _need_transformers()
    from mmtsb_env.llm.tiny import build_tiny_vlm

    return build_tiny_vlm(tmp_path_factory.mktemp("tiny") / "qwen2_vl", arch="qwen2_vl")


@pytest.fixture(scope="session")
def idefics3_backend(tiny_idefics3):
    from mmtsb_env.llm.hf_backend import TransformersBackend

    return TransformersBackend(tiny_idefics3, max_new_tokens=8)


@pytest.fixture(scope="session")
def qwen2_vl_backend(tiny_qwen2_vl):
    from mmtsb_env.llm.hf_backend import TransformersBackend

    return TransformersBackend(tiny_qwen2_vl, max_new_tokens=8)


@pytest.fixture(params=["idefics3", "qwen2_vl"])
def hf_backend(request):
    """Each tiny architecture in turn."""
    return request.getfixturevalue(f"{request.param}_backend")
