"""The generator's public API: verified scenarios on demand, deterministic per seed.

>>> from mmtsb_env.generation import generate_one
>>> s = generate_one(7, flow="compare", challenge="none", arrival="upfront", verify="static")
>>> s.metadata["flow_type"], s.metadata["image_arrival"], 3 <= len(s.images) <= 6
('compare', 'upfront', True)
"""

from __future__ import annotations

import random
import time
from typing import Collection, Iterable

from ..scenario.model import Scenario
from .axes import ARRIVALS, CATEGORIES, CHALLENGES, DOMAINS, FLOWS, cells
from .images import legibility_checked
from .parallel import walk_in_parallel
from .verify import VerificationReport, verify as verify_scenario
from .walk import Check, GenerationStats, Walk, compose_verified


def flow_categories(flow: str, challenge: str | None = None) -> tuple[str, ...]:
    """The image categories that can serve ``flow`` (and ``challenge``, for the database-backed flows)."""
    from .db_recipes import RECIPES
    from .layout import CATEGORIES_BY_FLOW

    if flow in CATEGORIES_BY_FLOW:
        return tuple(CATEGORIES_BY_FLOW[flow])
    return tuple(dict.fromkeys(r.category for r in RECIPES[flow] if challenge is None or challenge in r.supports))


def _as_set(name: str, value: str | Collection[str] | None, allowed: Iterable[str]) -> tuple[str, ...]:
    allowed = tuple(allowed)
    if value is None:
        return allowed
    values = (value,) if isinstance(value, str) else tuple(value)
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"unknown {name} {bad or values!r}; choose from {', '.join(allowed)}")
    return values


def _checker(mode: bool | str, stats: GenerationStats | None) -> Check:
    """The check a verification level stands for (``None`` from the check: nothing was checked)."""
    if mode not in (True, False, "full", "tool", "static"):
        raise ValueError(f"verify must be True, 'full', 'tool', 'static' or False, got {mode!r}")

    def check(s: Scenario) -> VerificationReport | None:
        if mode is False:
            return None
        if mode == "static":
            return verify_scenario(s, oracle=False)
        report = verify_scenario(s, code=None if mode in (True, "full") else False)
        if stats is not None:
            stats.code_mode = report.code_mode
        return report

    return check


def generate_one(seed: int | random.Random | None = None, flow: str | None = None, challenge: str | None = None,
                 arrival: str | None = None, *, category: str | None = None, world_seed: int = 0, n_images: int | None = None,
                 verify: bool | str = True, scenario_id: str | None = None, max_attempts: int = 25,
                 stats: GenerationStats | None = None, prefer_domains: Collection[str] = (),
                 prefer_categories: Collection[str] = (), tool_use: dict[str, int] | None = None,
                 recipe_use: dict[str, int] | None = None) -> Scenario:
    """One verified scenario for the given axes (``None`` = drawn from the seed).

    ``seed`` may be an int or a ``random.Random`` (an RL loop's generator). Attempts that cannot
    be realised or fail verification are retried with derived seeds (counted in ``stats``);
    :class:`~.walk.GenerationFailed` after ``max_attempts``. ``verify``: ``True`` (oracle in tool mode,
    plus code mode and the paper's harness when the sandbox works), ``"tool"``, ``"static"`` (no episode is run) or ``False``.
    """
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**31)
    return compose_verified(0 if seed is None else int(seed), flow, challenge, arrival, check=_checker(verify, stats),
                            category=category, world_seed=world_seed, n_images=n_images, scenario_id=scenario_id,
                            max_attempts=max_attempts, stats=stats, prefer_domains=prefer_domains,
                            prefer_categories=prefer_categories, tool_use=tool_use, recipe_use=recipe_use)


def generate(n: int, seed: int = 0, *, flow: str | Collection[str] | None = None, challenge: str | Collection[str] | None = None,
             arrival: str | Collection[str] | None = None, category: str | None = None, domains: Collection[str] | None = None,
             world_seed: int = 0, verify: bool | str = True, id_prefix: str = "gen", id_format: str | None = None,
             stats: GenerationStats | None = None, max_attempts: int = 25, workers: int = 1,
             legible: bool = False) -> list[Scenario]:
    """``n`` verified scenarios, balanced over the (flow, challenge, arrival) cells allowed by the filters.

    Cells are visited in a seed-shuffled round-robin (a cell that fails is retried with new seeds
    before moving on), so ``n >= k * cells`` covers every cell at least ``k`` times. Within that,
    each scenario favours the app domains and image categories used least so far. ``domains``
    keeps only scenarios using at least one of the given domains. Ids are
    ``id_format.format(prefix=id_prefix, seed=seed, index=i)`` (default ``"{prefix}/{seed}-{index:04d}"``).
    Deterministic: the same arguments give the same scenarios, whatever ``workers`` is.

    ``workers > 1`` runs the oracle episodes of ``verify=True``/``"tool"`` in that many worker
    processes: this process composes and checks scenarios statically, going on as if each will
    pass, and steps back to where it was in the rare case one fails (see :mod:`.parallel`).

    ``legible=True`` checks with tesseract that every needed value of each level 2-3 image is
    legible with the visual tools, redrawing the image a level lower otherwise
    (:func:`.images.settle_levels`; about a second of OCR per such image, so for suites, not RL loops).

    >>> [s.id for s in generate(2, seed=3, flow="filter", verify="static")]
    ['gen/3-0000', 'gen/3-0001']
    """
    flows = _as_set("flow", flow, FLOWS)
    challenges = _as_set("challenge", challenge, CHALLENGES)
    arrivals = _as_set("arrival", arrival, ARRIVALS)
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; choose from {', '.join(CATEGORIES)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    wanted_domains = set(_as_set("domain", tuple(domains), DOMAINS)) if domains else None
    grid = [c for c in cells() if c[0] in flows and c[1] in challenges and c[2] in arrivals
            and (category is None or category in flow_categories(c[0], c[1]))]
    if not grid:
        raise ValueError("no design cell matches these filters")
    random.Random(seed).shuffle(grid)
    stats = stats if stats is not None else GenerationStats()
    walk = Walk(n, seed, grid, category=category, wanted_domains=wanted_domains, world_seed=world_seed,
                 fmt=id_format or "{prefix}/{seed}-{index:04d}", id_prefix=id_prefix, max_attempts=max_attempts, stats=stats)
    check = _checker(verify, stats)
    start = time.perf_counter()
    try:
        with legibility_checked(legible):
            if workers > 1 and verify not in (False, "static"):
                walk_in_parallel(walk, workers, code=None if verify in (True, "full") else False)
            else:
                while not walk.done:
                    walk.step(check)
    finally:
        stats.seconds += time.perf_counter() - start
    return walk.out
