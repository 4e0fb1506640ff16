"""The runnable examples in the evaluation modules' docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["similarity", "entity_diff", "reference_specs", "judge", "claims", "grounding", "jsonrepair", "llm_judge",
           "metrics"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"mmtsb_env.evaluation.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
