"""Procedural scenario generator: verified multi-round, multi-image scenarios on demand.

Scenarios are built over the paper's design axes -- seven information flows x four challenge
types x four image-arrival patterns -- across all sixteen app domains, with 3-6 procedurally
rendered images and 2-5 rounds. The generator chooses every value it draws into an image, so it
writes the reference solution, the expected changes and the facts itself, then verifies the
result (the oracle solves it; no needed value leaks outside the images).

>>> from mmtsb_env.generation import generate
>>> batch = generate(3, seed=1, verify="static")
>>> len(batch), {s.metadata["flow_type"] for s in batch} <= set(FLOWS)
(3, True)
"""

from .api import flow_categories, generate, generate_one
from .axes import ARRIVALS, CATEGORIES, CHALLENGES, DOMAINS, FLOWS, cells
from .compose import compose
from .errors import GenerationError
from .verify import DistributionReport, VerificationReport, check_distribution, verify
from .walk import GenerationFailed, GenerationStats

__all__ = [
    "ARRIVALS", "CATEGORIES", "CHALLENGES", "DOMAINS", "DistributionReport", "FLOWS", "GenerationError", "GenerationFailed",
    "GenerationStats", "VerificationReport", "cells", "check_distribution", "compose", "flow_categories", "generate",
    "generate_one", "verify",
]
