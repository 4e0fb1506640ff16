"""Verify generated scenarios in worker processes without changing what :func:`generate` returns.

Composing a scenario and its static checks are cheap; the oracle episodes (tool mode, code mode, the paper's harness)
are most of the cost, and each depends only on the scenario. So this process walks the generator
as usual but, instead of waiting for each oracle verdict, hands the scenario to a worker and goes
on as if it will pass, saving the walk's state before every scenario. Verdicts are read back in
order; when one fails -- rare, since the static checks and the composer's own dry run come
first -- the walk steps back to the state saved before that scenario and goes on from there with
the failure known, exactly as the sequential walk would have. Verdicts are remembered by the
scenario's content, so nothing is verified twice.

Workers are started with ``spawn`` (the parent may run sandbox threads, which ``fork`` would
copy half-way), build the base world once and then freeze their heap (``gc.freeze``) so the
cyclic collector stops rescanning it.
"""

from __future__ import annotations

import gc
import hashlib
import json
import multiprocessing
from collections import deque
from typing import Any

from ..scenario.model import Scenario
from .verify import VerificationReport, check_oracle, release, verify
from .walk import Walk

AHEAD_PER_WORKER = 8  # scenarios verified ahead of the walk, per worker


def fingerprint(s: Scenario) -> str:
    """A hash of the scenario's content (its file form)."""
    return hashlib.sha256(json.dumps(s.to_dict(), sort_keys=True, default=str).encode()).hexdigest()


def _start_worker(world_seed: int) -> None:
    from .world_index import world_index

    world_index(world_seed)  # the base world and its text index, built once per worker
    gc.collect()
    gc.freeze()


def oracle_report(s: Scenario, code: bool | None) -> VerificationReport:
    """The oracle part of :func:`~.verify.verify` alone (what a worker runs)."""
    report = VerificationReport(s.id)
    try:
        check_oracle(s, report, code)
    finally:
        release(s)
    return report


def walk_in_parallel(walk: Walk, workers: int, *, code: bool | None) -> None:
    """Finish ``walk`` with the oracle verdicts computed by ``workers`` processes (see the module docs)."""
    verdicts: dict[str, VerificationReport] = {}

    def check(s: Scenario) -> VerificationReport:
        report = verify(s, oracle=False)
        if not report.ok:
            return report
        verdict = verdicts.get(fingerprint(s))
        if verdict is None:
            return report  # not known yet: assume it passes, the caller makes sure
        walk.stats.code_mode = verdict.code_mode
        return verdict

    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_start_worker, initargs=(walk.world_seed,)) as pool:
        ahead: deque[tuple[tuple[Any, ...], str, Any]] = deque()  # (walk state before, fingerprint, pending verdict)
        while not walk.done or ahead:
            while not walk.done and len(ahead) < AHEAD_PER_WORKER * workers:
                saved = walk.save()
                s = walk.step(check)
                if s is None:
                    continue  # a cell that could not be filled: decided by static checks and known verdicts only
                key = fingerprint(s)
                pending = None if key in verdicts else pool.apply_async(oracle_report, (s, code))
                ahead.append((saved, key, pending))
            saved, key, pending = ahead.popleft()
            if pending is not None:
                verdicts[key] = pending.get()
            verdict = verdicts[key]
            walk.stats.code_mode = verdict.code_mode
            if not verdict.ok:
                for _, later_key, later in ahead:  # keep what the workers already found out
                    if later is not None and later.ready():
                        verdicts[later_key] = later.get()
                ahead.clear()
                walk.restore(saved)
