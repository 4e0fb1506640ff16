"""The round layout of a scenario: the skeleton an arrival pattern gives, and the sink a result goes to.

Shared by the generic recipes (:mod:`.recipes`), the database recipes (:mod:`.db_recipes`) and
the composer (:mod:`.compose`), which import it in that order -- no module imports back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import sinks as S
from .axes import MAX_ROUNDS
from .core import Build, Payload
from .errors import GenerationError
from .flows import AGGREGATE_CATEGORIES, COMPARE_CATEGORIES, COMPUTE_CATEGORIES, FILTER_CATEGORIES, Flow


GENERIC_FLOWS = ("aggregate", "compare", "filter", "compute")
CATEGORIES_BY_FLOW = {"aggregate": AGGREGATE_CATEGORIES, "compare": COMPARE_CATEGORIES,
                      "filter": FILTER_CATEGORIES, "compute": COMPUTE_CATEGORIES}


@dataclass
class Slot:
    """One round of the skeleton."""

    role: str  # setup | task | share
    deliver: list[int] = field(default_factory=list)  # image ids delivered with this round
    scope: list[int] = field(default_factory=list)  # image ids the task uses


def _split(ids: list[int], k: int, first_min: int, rng: random.Random) -> list[list[int]]:
    """Split ``ids`` (in order) into ``k`` non-empty consecutive batches, the first with >= first_min."""
    n = len(ids)
    if k <= 0 or n < first_min + (k - 1):
        raise GenerationError(f"cannot split {n} images into {k} batches")
    cuts = sorted(rng.sample(range(first_min, n), k - 1)) if k > 1 else []
    bounds = [0] + cuts + [n]
    return [ids[bounds[i]:bounds[i + 1]] for i in range(k)]


def skeleton(arrival: str, ids: list[int], rng: random.Random, *, budget: int, min_group: int, additive: bool) -> list[Slot]:
    """Rounds for an arrival pattern with at most ``budget`` rounds (>= 2)."""
    n = len(ids)
    if arrival == "upfront":
        options = [["task", "share"]]
        if n >= 2 * min_group:
            options.append(["task", "task"])
        if budget >= 3 and n >= 2 * min_group:
            options.append(["task", "task", "share"])
        if budget >= 3 and n >= 3 * min_group and additive:
            options.append(["task", "task", "task"])
        roles = rng.choice(options)
        k = roles.count("task")
        groups = _split(ids, k, min_group, rng) if additive else _split(ids, k, min_group, rng)
        slots, g = [], 0
        for i, role in enumerate(roles):
            s = Slot(role, deliver=list(ids) if i == 0 else [])
            if role == "task":
                s.scope = groups[g] if additive else [j for grp in groups[:g + 1] for j in grp]
                g += 1
            slots.append(s)
        return slots
    if arrival == "progressive":
        k = rng.choice([k for k in (2, 3, 4) if k <= budget and n >= min_group + k - 1] or [2])
        batches = _split(ids, k, min_group, rng)
        slots = []
        for i, bt in enumerate(batches):
            scope = bt if additive else [j for b2 in batches[:i + 1] for j in b2]
            slots.append(Slot("task", deliver=bt, scope=scope))
        return slots
    if arrival == "late":
        return _late_skeleton(ids, rng, budget=budget, min_group=min_group, additive=additive)
    # mixed: images arrive in two rounds and one round brings no new image
    if budget < 3:
        raise GenerationError("mixed arrival needs three rounds")
    a, bt = _split(ids, 2, min_group, rng)
    order = rng.choice([["task", "share", "task"], ["task", "task", "share"]])
    slots, g = [], 0
    for role in order:
        s = Slot(role)
        if role == "task":
            s.deliver = a if g == 0 else bt
            s.scope = a if g == 0 else (bt if additive else a + bt)
            g += 1
        slots.append(s)
    return slots


def late_ok(n_rounds: int, first_delivering: int) -> bool:
    """Whether round ``first_delivering`` (0-based) lies in the last third of ``n_rounds`` rounds."""
    return 3 * (first_delivering + 1) > 2 * n_rounds


def _late_skeleton(ids: list[int], rng: random.Random, *, budget: int, min_group: int, additive: bool) -> list[Slot]:
    """Text-only rounds first, then every image at once, all in the last third of the conversation.

    ``MAX_ROUNDS - budget`` rounds are added later by the challenge (after a task round), so they
    count toward the conversation's length.
    """
    extra = MAX_ROUNDS - budget
    options = []
    for setups in (1, 2, 3):
        for tail in ([], ["share"], ["task"]):
            if tail == ["task"] and len(ids) < 2 * min_group:
                continue
            roles = ["setup"] * setups + ["task"] + tail
            if len(roles) <= budget and late_ok(len(roles) + extra, setups):
                options.append(roles)
    if not options:
        raise GenerationError(f"late arrival cannot fit in {budget} rounds")
    roles = rng.choice(options)
    k = roles.count("task")
    groups = _split(ids, k, min_group, rng)
    slots, g = [], 0
    for role in roles:
        s = Slot(role)
        if role == "task":
            s.deliver = list(ids) if g == 0 else []
            s.scope = groups[g] if additive else [j for grp in groups[:g + 1] for j in grp]
            g += 1
        slots.append(s)
    return slots


# ---------------------------------------------------------------------------- sink choice
def _sink_options(kind_payload: Payload, flow_name: str, *, need_extend: bool, need_revise: bool, need_undo: bool,
                  need_mistake: bool, need_online: bool = False, need_edit: bool = False) -> list[S.SinkRow]:
    out = []
    for cls in S.ALL_SINKS:
        if need_edit and (not cls.edit or (cls.edit == "lines" and flow_name in ("compare", "compute"))):
            continue
        if need_online and not (cls.network or cls.cellular):
            continue
        if cls.kind == "amount" and kind_payload.amount is None:
            continue
        if cls.kind == "entries" and not kind_payload.entries:
            continue
        if cls.kind == "text" and not kind_payload.lines:
            continue
        if need_extend and not cls.extendable:
            continue
        if need_revise and not cls.revisable:
            continue
        if need_undo and not cls.undoable:
            continue
        if need_mistake and cls.fix is None:
            continue
        out.append(cls)
    return out


def choose_sink(b: Build, p: Payload, flow: Flow, **needs: bool) -> S.Sink:
    options = _sink_options(p, flow.name, **needs)
    b.rng.shuffle(options)
    # prefer entity sinks for aggregate/filter, amount sinks for compute, as a real user would
    weight = {"entries": 3 if flow.name in ("aggregate", "filter") else 1,
              "amount": 4 if flow.name == "compute" else 1, "text": 2}
    options.sort(key=lambda c: -weight[c.kind] * b.rng.random())
    options.sort(key=lambda c: not (set(c.domains) & b.prefer))  # stable: preferred domains first
    for cls in options:
        sink = cls(b)
        if sink.accepts(p):
            return sink
    raise GenerationError(f"no sink accepts the {flow.name}/{flow.category} result")
