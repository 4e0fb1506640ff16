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
from typing import Any, Callable, Collection, Iterable

from ..scenario.model import Scenario
from .axes import ARRIVALS, CATEGORIES, CHALLENGES, DOMAINS, FLOWS, cells
from .compose import GenerationError, compose, recipe_name
from .images import CATEGORY_WEIGHTS
from .dryrun import SolutionError
from .images import legibility_checked
from .verify import VerificationReport, verify as verify_scenario


def flow_categories(flow: str, challenge: str | None = None) -> tuple[str, ...]:
    """The image categories that can serve ``flow`` (and ``challenge``, for the database-backed flows)."""
    from .db_recipes import RECIPES
    from .layout import CATEGORIES_BY_FLOW

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


Check = Callable[[Scenario], "VerificationReport | None"]


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
    :class:`GenerationFailed` after ``max_attempts``. ``verify``: ``True`` (oracle in tool mode,
    plus code mode when the sandbox works), ``"tool"``, ``"static"`` (no episode is run) or ``False``.
    """
    if isinstance(seed, random.Random):
        seed = seed.randrange(2**31)
    return _generate_one(0 if seed is None else int(seed), flow, challenge, arrival, check=_checker(verify, stats),
                         category=category, world_seed=world_seed, n_images=n_images, scenario_id=scenario_id,
                         max_attempts=max_attempts, stats=stats, prefer_domains=prefer_domains,
                         prefer_categories=prefer_categories, tool_use=tool_use, recipe_use=recipe_use)


def _generate_one(seed: int, flow: str | None, challenge: str | None, arrival: str | None, *, check: Check,
                  category: str | None, world_seed: int, n_images: int | None, scenario_id: str | None, max_attempts: int,
                  stats: GenerationStats | None, prefer_domains: Collection[str], prefer_categories: Collection[str],
                  tool_use: dict[str, int] | None = None, recipe_use: dict[str, int] | None = None) -> Scenario:
    last = ""
    for attempt in range(max_attempts):
        s_seed = seed if attempt == 0 else (seed * 7919 + attempt * 104729) % (2**31)
        if stats is not None:
            stats.attempts += 1
        try:
            scenario = compose(s_seed, flow, challenge, arrival, world_seed=world_seed, n_images=n_images,
                               scenario_id=scenario_id or f"gen/{seed}", category=category, prefer=frozenset(prefer_domains),
                               prefer_categories=tuple(prefer_categories), tool_use=tool_use, recipe_use=recipe_use)
        except (GenerationError, SolutionError) as exc:
            last = f"{type(exc).__name__}: {exc}"
            if stats is not None:
                stats.failures["compose: " + str(exc).split(":")[0][:60]] += 1
            continue
        report = check(scenario)
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


class _Walk:
    """The deterministic course of :func:`generate`: which cell, seed and preferences come next.

    Its whole state can be saved and restored, which is what lets several processes verify
    scenarios ahead of the walk and still give exactly the sequential result.
    """

    def __init__(self, n: int, seed: int, grid: list[tuple[str, str, str]], *, category: str | None,
                 wanted_domains: set[str] | None, world_seed: int, fmt: str, id_prefix: str, max_attempts: int,
                 stats: GenerationStats) -> None:
        self.n, self.seed, self.grid, self.category, self.wanted_domains = n, seed, grid, category, wanted_domains
        self.world_seed, self.fmt, self.id_prefix, self.max_attempts, self.stats = world_seed, fmt, id_prefix, max_attempts, stats
        self.out: list[Scenario] = []
        self.used: Counter = Counter({d: 0 for d in DOMAINS})
        self.used_cats: Counter = Counter({c: 0 for c in CATEGORIES})
        self.tools: Counter = Counter()  # tools of the solutions so far: table rounds favour the least used
        self.recipes: Counter = Counter()  # recipes of the scenarios so far: a cell's choice favours the least used
        self.draws = 0
        self.position = 0

    @property
    def done(self) -> bool:
        return len(self.out) >= self.n

    def save(self) -> tuple[Any, ...]:
        st = self.stats
        return (len(self.out), Counter(self.used), Counter(self.used_cats), Counter(self.tools), Counter(self.recipes),
                self.draws, self.position, st.produced, st.attempts, Counter(st.failures), st.code_mode)

    def restore(self, saved: tuple[Any, ...]) -> None:
        n_out, used, used_cats, tools, recipes, self.draws, self.position, produced, attempts, failures, code_mode = saved
        del self.out[n_out:]
        self.used, self.used_cats, self.tools, self.recipes = Counter(used), Counter(used_cats), Counter(tools), Counter(recipes)
        st = self.stats
        st.produced, st.attempts, st.failures, st.code_mode = produced, attempts, Counter(failures), code_mode

    def step(self, check: Check) -> Scenario | None:
        """Visit the next cell: the scenario made there (also appended to ``out``), or None."""
        f, c, a = self.grid[self.position % len(self.grid)]
        made = None
        for _ in range(4 if self.wanted_domains is None else 12):
            sseed = (self.seed * 1_000_003 + self.draws * 7_919) % (2**31)
            self.draws += 1
            # favour the least-used domains and categories so far, so a batch spreads over every app
            prefer = sorted(DOMAINS, key=lambda d: (self.used[d], random.Random(sseed + DOMAINS.index(d)).random()))[:2]
            if self.wanted_domains:
                prefer = sorted(self.wanted_domains)
            cat_order = sorted(CATEGORIES, key=lambda k: (self.used_cats[k] / CATEGORY_WEIGHTS.get(k, 1.0),
                                                          random.Random(sseed + len(k)).random()))
            sid = self.fmt.format(prefix=self.id_prefix, seed=self.seed, index=len(self.out))
            try:
                s = _generate_one(sseed, f, c, a, check=check, category=self.category, world_seed=self.world_seed,
                                  n_images=None, scenario_id=sid, max_attempts=self.max_attempts, stats=self.stats,
                                  prefer_domains=prefer, prefer_categories=cat_order, tool_use=self.tools,
                                  recipe_use=self.recipes)
            except GenerationFailed as exc:
                self.stats.failures["cell: " + str(exc)[:60]] += 1
                continue
            if self.wanted_domains and not self.wanted_domains & set(s.domains):
                self.stats.failures["filter: domains"] += 1
                self.stats.produced -= 1
                continue
            made = s
            break
        self.position += 1
        if made is None:
            if self.position > 3 * len(self.grid) + 4 * self.n:
                raise GenerationFailed(f"could not produce {self.n} scenarios with these filters ({len(self.out)} so far)")
            return None
        self.out.append(made)
        self.used.update(made.domains)
        self.used_cats.update(made.metadata.get("image_categories", []))
        self.tools.update(st["name"] for r in made.rounds for st in r.solution if "name" in st)
        self.recipes[recipe_name(made)] += 1
        return made


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
    walk = _Walk(n, seed, grid, category=category, wanted_domains=wanted_domains, world_seed=world_seed,
                 fmt=id_format or "{prefix}/{seed}-{index:04d}", id_prefix=id_prefix, max_attempts=max_attempts, stats=stats)
    check = _checker(verify, stats)
    start = time.perf_counter()
    try:
        with legibility_checked(legible):
            if workers > 1 and verify not in (False, "static"):
                from .parallel import walk_in_parallel

                walk_in_parallel(walk, workers, code=None if verify in (True, "full") else False)
            else:
                while not walk.done:
                    walk.step(check)
    finally:
        stats.seconds += time.perf_counter() - start
    return walk.out
