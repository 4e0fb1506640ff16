"""The course of a :func:`~.api.generate` run: scenarios composed and checked with derived seeds
until one passes (:func:`compose_verified`), and the deterministic walk over the design cells
(:class:`Walk`) whose whole state can be saved and restored.

This is the layer both :mod:`.api` (sequential) and :mod:`.parallel` (oracle verdicts from worker
processes) drive; it knows nothing of either.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Collection

from ..scenario.model import Scenario
from .axes import CATEGORIES, DOMAINS
from .compose import compose, recipe_name
from .dryrun import SolutionError
from .errors import GenerationError
from .images import CATEGORY_WEIGHTS
from .verify import VerificationReport


class GenerationFailed(RuntimeError):
    """No verified scenario could be produced within the attempt budget."""


@dataclass
class GenerationStats:
    """What a :func:`~.api.generate` call did: attempts, failures by reason, time."""

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


Check = Callable[[Scenario], "VerificationReport | None"]


def compose_verified(seed: int, flow: str | None, challenge: str | None, arrival: str | None, *, check: Check,
                     category: str | None, world_seed: int, n_images: int | None, scenario_id: str | None,
                     max_attempts: int, stats: GenerationStats | None, prefer_domains: Collection[str],
                     prefer_categories: Collection[str], tool_use: dict[str, int] | None = None,
                     recipe_use: dict[str, int] | None = None) -> Scenario:
    """Compose a scenario for these axes and ``check`` it, retrying with seeds derived from ``seed``
    (each attempt and failure counted in ``stats``); :class:`GenerationFailed` after ``max_attempts``."""
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


class Walk:
    """The deterministic course of :func:`~.api.generate`: which cell, seed and preferences come next.

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
                s = compose_verified(sseed, f, c, a, check=check, category=self.category, world_seed=self.world_seed,
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
