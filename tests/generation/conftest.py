"""Fixtures of the generator tests; registers the ``ocr`` marker (tests needing Debian's tesseract)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ocr: needs the tesseract binary (apt-get install -y tesseract-ocr); skipped without it")


@pytest.fixture(scope="session")
def small_batch():
    """A fixed batch covering every flow (static verification only: fast)."""
    from mmtsb_env.generation import generate

    return generate(14, seed=101, verify="static")
