"""The generator's public API: verified scenarios on demand, deterministic per seed.

>>> from mmtsb_env.generation import generate_one
>>> s = generate_one(7, flow="compare", challenge="none", arrival="upfront", verify="static")
>>> s.metadata["flow_type"], s.metadata["image_arrival"], 3 <= len(s.images) <= 6
('compare', 'upfront', True)
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Collection, Iterable

from ..scenario.model import Scenario
from .axes import ARRIVALS, CATEGORIES, CHALLENGES, DOMAINS, FLOWS, cells
from .compose import GenerationError, compose
from .dryrun import SolutionError
from .verify import VerificationReport, verify as verify_scenario


def flow_categories(flow: str, challenge: str | None = None) -> tuple[str, ...]:
    """The image categories that can serve ``flow`` (and ``challenge``, for the database-backed flows)."""
    from .compose import CATEGORIES_BY_FLOW
    from .db_recipes import RECIPES

    if flow in CATEGORIES_BY_FLOW:
        return tuple(CATEGORIES_BY_FLOW[flow])
    return tuple(dict.fromkeys(r.category for r in RECIPES[flow] if challenge is None or challenge in r.supports))


class GenerationFailed(RuntimeError):
    """No verified scenario could be produced within the attempt budget."""


@dataclass
class GenerationStats:
    """What a :func:`generate` call did: attempts, failures by reason, time."""

    produced: int = 0
    attempts: int = 0
    failures: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    code_mode: str = "not run"

    @property
    def per_second(self) -> float:
        return self.produced / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"produced": self.produced, "attempts": self.attempts, "failures": dict(self.failures),
                "seconds": round(self.seconds, 3), "scenarios_per_second": round(self.per_second, 3), "code_mode": self.code_mode}


def _as_set(name: str, value: str | Collection[str] | None, allowed: Iterable[str]) -> tuple[str, ...]:
    allowed = tuple(allowed)
    if value is None:
        return allowed
    values = (value,) if isinstance(value, str) else tuple(value)
    bad = [v for v in values if v not in allowed]
    if bad or not values:
        raise ValueError(f"unknown {name} {bad or values!r}; choose from {', '.join(allowed)}")
    return values


def _check(s: Scenario, mode: bool | str, stats: GenerationStats | None) -> VerificationReport | None:
    if mode is False:
        return None
    if mode == "static":
        return verify_scenario(s, oracle=False, render_images=False)
    if mode not in (True, "full", "tool"):
        raise ValueError(f"verify must be True, 'full', 'tool', 'static' or False, got {mode!r}")
    report = verify_scenario(s, code=None if mode in (True, "full") else False)
    if stats is not None:
        stats.code_mode = report.code_mode
    return report


def generate_one(seed: int | random.Random | None = None, flow: str | None = None, challenge: str | None = None,
                 arrival: str | None = None, *, category: str | None = None, world_seed: int = 0, n_images: int | None = None,
                 verify: bool | str = True, scenario_id: str | None = None, max_attempts: int = 25,
                 stats: GenerationStats | None = None, prefer_domains: Collection[str] = (),
                 prefer_categories: Collection[str] = ()) -> Scenario:
    """One verified scenario for the given axes (``None`` = drawn from the seed).

    ``seed`` may be an int or a ``random.Random`` (an RL loop's generator). Attempts that cannot
    be realised or fail verification are retried with derived seeds (counted in ``stats``);
    :class:`GenerationFailed` after ``max_attempts``. ``verify``: ``True`` (oracle in tool mode,
    plus code mode when the sandbox works), ``"tool"``, ``"static"`` (no episode is run) or ``False``.
    """
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**31)
    seed = 0 if seed is None else int(seed)
    last = ""
    for attempt in range(max_attempts):
        s_seed = seed if attempt == 0 else (seed * 7919 + attempt * 104729) % (2**31)
        if stats is not None:
            stats.attempts += 1
        try:
            scenario = compose(s_seed, flow, challenge, arrival, world_seed=world_seed, n_images=n_images,
                               scenario_id=scenario_id or f"gen/{seed}", category=category, prefer=frozenset(prefer_domains),
                               prefer_categories=tuple(prefer_categories))
        except (GenerationError, SolutionError) as exc:
            last = f"{type(exc).__name__}: {exc}"
            if stats is not None:
                stats.failures["compose: " + str(exc).split(":")[0][:60]] += 1
            continue
        report = _check(scenario, verify, stats)
        if report is not None and not report.ok:
            last = "; ".join(report.problems)
            if stats is not None:
                for p in report.problems:
                    stats.failures["verify: " + p.split(":")[0] + ":" + p.split(":")[1][:40] if ":" in p else p] += 1
            continue
        if stats is not None:
            stats.produced += 1
        return scenario
    raise GenerationFailed(f"no verified scenario for flow={flow} challenge={challenge} arrival={arrival} seed={seed} "
                           f"after {max_attempts} attempts; last problem: {last}")


def generate(n: int, seed: int = 0, *, flow: str | Collection[str] | None = None, challenge: str | Collection[str] | None = None,
             arrival: str | Collection[str] | None = None, category: str | None = None, domains: Collection[str] | None = None,
             world_seed: int = 0, verify: bool | str = True, id_prefix: str = "gen", id_format: str | None = None,
             stats: GenerationStats | None = None, max_attempts: int = 25) -> list[Scenario]:
    """``n`` verified scenarios, balanced over the (flow, challenge, arrival) cells allowed by the filters.

    Cells are visited in a seed-shuffled round-robin (a cell that fails is retried with new seeds
    before moving on), so ``n >= k * cells`` covers every cell at least ``k`` times. Within that,
    each scenario favours the app domains and image categories used least so far. ``domains``
    keeps only scenarios using at least one of the given domains. Ids are
    ``id_format.format(prefix=id_prefix, seed=seed, index=i)`` (default ``"{prefix}/{seed}-{index:04d}"``).
    Deterministic: the same arguments give the same scenarios.

    >>> [s.id for s in generate(2, seed=3, flow="filter", verify="static")]
    ['gen/3-0000', 'gen/3-0001']
    """
    flows = _as_set("flow", flow, FLOWS)
    challenges = _as_set("challenge", challenge, CHALLENGES)
    arrivals = _as_set("arrival", arrival, ARRIVALS)
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; choose from {', '.join(CATEGORIES)}")
    wanted_domains = set(_as_set("domain", tuple(domains), DOMAINS)) if domains else None
    grid = [c for c in cells() if c[0] in flows and c[1] in challenges and c[2] in arrivals
            and (category is None or category in flow_categories(c[0], c[1]))]
    if not grid:
        raise ValueError("no design cell matches these filters")
    fmt = id_format or "{prefix}/{seed}-{index:04d}"
    rng = random.Random(seed)
    rng.shuffle(grid)
    stats = stats if stats is not None else GenerationStats()
    start = time.perf_counter()
    out: list[Scenario] = []
    used: Counter = Counter({d: 0 for d in DOMAINS})
    used_cats: Counter = Counter({c: 0 for c in CATEGORIES})
    draws = 0
    position = 0
    while len(out) < n:
        f, c, a = grid[position % len(grid)]
        made = None
        for retry in range(4 if wanted_domains is None else 12):
            sseed = (seed * 1_000_003 + draws * 7_919) % (2**31)
            draws += 1
            # favour the least-used domains and categories so far, so a batch spreads over every app
            prefer = sorted(DOMAINS, key=lambda d: (used[d], random.Random(sseed + DOMAINS.index(d)).random()))[:2]
            if wanted_domains:
                prefer = sorted(wanted_domains)
            cat_order = sorted(CATEGORIES, key=lambda k: (used_cats[k], random.Random(sseed + len(k)).random()))
            sid = fmt.format(prefix=id_prefix, seed=seed, index=len(out))
            try:
                s = generate_one(sseed, f, c, a, category=category, world_seed=world_seed, verify=verify, scenario_id=sid,
                                 max_attempts=max_attempts, stats=stats, prefer_domains=prefer, prefer_categories=cat_order)
            except GenerationFailed as exc:
                stats.failures["cell: " + str(exc)[:60]] += 1
                continue
            if wanted_domains and not wanted_domains & set(s.domains):
                stats.failures["filter: domains"] += 1
                stats.produced -= 1
                continue
            made = s
            break
        position += 1
        if made is None:
            if position > 3 * len(grid) + 4 * n:
                raise GenerationFailed(f"could not produce {n} scenarios with these filters ({len(out)} so far)")
            continue
        out.append(made)
        used.update(made.domains)
        used_cats.update(made.metadata.get("image_categories", []))
    stats.seconds += time.perf_counter() - start
    return out
