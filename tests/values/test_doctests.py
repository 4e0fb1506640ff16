"""The runnable examples in the value readers' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["words", "numbers", "money", "dates", "clock"])
def test_docstring_examples(name):
    module = importlib.import_module(f"mmtsb_env.values.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
