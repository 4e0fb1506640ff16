"""Compose one scenario from the design axes: rounds, image delivery, challenge, solution, expectations.

The composer lays out a round *skeleton* for the arrival pattern (which rounds deliver which
images, which rounds only follow up), asks a flow (generic or database-backed) for the work of
each task round, writes it to a sink, applies the challenge (a goal change, an error the user
corrects, or a state change the user makes), plays the solution on a world to derive the
expected changes, and assembles a format-v1 :class:`~mmtsb_env.scenario.model.Scenario`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from ..scenario.model import Scenario
from ..tools.registry import get_tool
from . import sinks as S
from .axes import ARRIVALS, CHALLENGES, FLOWS, MAX_IMAGES, MAX_ROUNDS, MIN_IMAGES, check_axis
from .challenges import EDITABLE
from .core import Build, GenerationError, Part, Payload, call, unique
from .dryrun import expected_changes, free_text_measures, play
from .voice import TELLS, pick_persona, speak
from .flows import AGGREGATE_CATEGORIES, COMPARE_CATEGORIES, COMPUTE_CATEGORIES, FILTER_CATEGORIES, Flow
from .world_index import world_index


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
                  need_mistake: bool, need_online: bool = False, need_edit: bool = False) -> list[type]:
    out = []
    for cls in S.ALL_SINKS:
        if need_edit and (cls not in EDITABLE or (cls in (S.NoteSink, S.FileSink) and flow_name in ("compare", "compute"))):
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
        if need_mistake and cls in (S.EmailSink, S.TextSink, S.VenmoPaySink):
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


# ---------------------------------------------------------------------------- text pieces
def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


DESCRIPTIONS = {
    "aggregate": "You want the details from several {plural} gathered in one place on your phone.",
    "compare": "You are comparing several {plural} and want the phone to act on the winner.",
    "filter": "You only care about some of what is on your {plural} and want those handled on your phone.",
    "compute": "You need a number worked out from your {plural} and used on your phone.",
    "validate": "You suspect what is saved on your phone no longer matches your {plural} and want it fixed.",
    "lookup_chain": "Your {plural} point to things already on your phone that you want acted on.",
    "cross_reference": "You want your {plural} checked against what your phone already tracks.",
}


def _instructions(part: Part, last: bool) -> str:
    bits = []
    if part.image_ids:
        bits.append(f"Send image(s) {', '.join(map(str, part.image_ids))} with this message.")
    for c in part.clarifications:
        bits.append(f"If the assistant asks for clarification, answer: \"{c['answer']}\"")
    bits.append("Do not describe what is in the images; the assistant has to read them itself.")
    bits.append("When the assistant confirms it is done, " + ("end the conversation." if last else "move on to the next round."))
    return " ".join(bits)


# ---------------------------------------------------------------------------- challenge helpers
def _needs(steps: list[dict[str, Any]]) -> set[str]:
    reqs: set[str] = set()
    for st in steps:
        if "name" in st:
            reqs |= set(get_tool(st["name"]).requires)
    return reqs


def connectivity_mutation(b: Build, part: Part, later: list[Part] = ()) -> bool:
    """The user disabled connectivity before this round; the solution restores what this and later rounds need."""
    reqs = _needs(part.steps)
    if not ({"network", "cellular"} & reqs):
        return False
    for p in later:
        reqs |= _needs(p.steps)
    low_battery = b.rng.random() < 0.5
    if low_battery:
        fields = {"low_battery_mode": True, "wifi": False, "cellular": False, "location_service": False}
        fix = [call("get_low_battery_mode_status"), call("set_low_battery_mode_status", on=False)]
        said = "I switched my phone to low battery mode a minute ago. "
    else:
        fields = {"wifi": False, "cellular": False}
        fix = [call("get_wifi_status")]
        said = "I turned off wifi and mobile data earlier. "
    if "network" in reqs:
        fix.append(call("set_wifi_status", on=True))
    if "cellular" in reqs:
        fix.append(call("set_cellular_service_status", on=True))
    part.state_changes.append({"op": "update", "table": "setting.device", "key": 1, "fields": fields})
    part.steps = fix + part.steps
    part.kind = "state_mutation"
    if b.rng.random() < 0.5:
        part.request = said + part.request
    part.answer = ("Your connection was off, so I turned it back on first. " if "network" in reqs else
                   "Mobile data was off, so I turned it back on first. ") + part.answer
    b.domains.add("setting")
    return True


# ---------------------------------------------------------------------------- composing
def compose(seed: int, flow: str | None = None, challenge: str | None = None, arrival: str | None = None, *,
            world_seed: int = 0, n_images: int | None = None, scenario_id: str | None = None,
            category: str | None = None, prefer: set[str] | frozenset[str] = frozenset(),
            prefer_categories: tuple[str, ...] = ()) -> Scenario:
    """Generate one scenario for the given axes (None = drawn from ``seed``). GenerationError if impossible."""
    check_axis("flow", flow, FLOWS)
    check_axis("challenge", challenge, CHALLENGES)
    check_axis("arrival", arrival, ARRIVALS)
    rng = random.Random(seed)
    flow = flow or rng.choice(FLOWS)
    challenge = challenge or rng.choice(CHALLENGES)
    arrival = arrival or rng.choice(ARRIVALS)
    wi = world_index(world_seed)
    start = datetime(2026, 4, 16, 9, 0, tzinfo=timezone.utc) + timedelta(days=rng.randint(0, 30), hours=rng.randint(0, 8))
    b = Build(rng, wi, start)
    b.prefer = set(prefer)
    b.prefer_categories = list(prefer_categories)
    extra_round = challenge in ("goal_change", "error_correction")
    budget = 5 - (1 if extra_round else 0)
    n = n_images or rng.randint(MIN_IMAGES, MAX_IMAGES)

    if flow in GENERIC_FLOWS:
        from .recipes import GenericRecipe
        recipe = GenericRecipe.make(b, flow, n, arrival, challenge, budget, category=category)
    else:
        from .recipes import db_recipe
        recipe = db_recipe(b, flow, n, arrival, challenge, budget, category=category)
    parts = recipe.parts()
    _apply_challenge(b, recipe, parts, challenge)
    return _assemble(b, recipe, parts, flow=flow, challenge=challenge, arrival=arrival, seed=seed, world_seed=world_seed,
                     scenario_id=scenario_id)


def _apply_challenge(b: Build, recipe: Any, parts: list[Part], challenge: str) -> None:
    """Goal changes and corrections are woven in by the recipe; state mutations are added here."""
    if challenge != "state_mutation":
        return
    if any(p.kind == "state_mutation" for p in parts):
        return  # the recipe planned a change of its target rows
    candidates = [i for i in range(len(parts)) if parts[i].is_task]
    b.rng.shuffle(candidates)
    candidates.sort(key=lambda i: i == 0)  # prefer a later round
    for i in candidates:
        if connectivity_mutation(b, parts[i], parts[i + 1:]):
            return
    raise GenerationError("no round can take a state mutation")


def _assemble(b: Build, recipe: Any, parts: list[Part], *, flow: str, challenge: str, arrival: str, seed: int,
              world_seed: int, scenario_id: str | None) -> Scenario:
    rounds = []
    persona = pick_persona(b.rng)
    for i, p in enumerate(parts):
        query = speak(b.rng, persona, p.request, first=i == 0)
        if not p.report and p.facts and TELLS.search(query):
            p.report = list(p.facts)
        rounds.append({
            "query": query, "image_ids": list(p.image_ids), "instructions": p.instructions or _instructions(p, i == len(parts) - 1),
            "kind": p.kind, "clarifications": p.clarifications, "state_changes": p.state_changes, "solution": p.steps,
            "answer": p.answer, "report": list(p.report),
        })
    facts = unique([f for p in parts for f in p.facts])
    used_tools = unique([st["name"] for p in parts for st in p.steps if "name" in st])
    domains = set(b.domains)
    for name in used_tools:
        domains.add(get_tool(name).app)
    domains.discard("vision")
    domains = sorted(domains)
    categories = unique([im.category for im in b.imgs])
    plural = b.imgs[0].plural if len({im.category for im in b.imgs}) == 1 else "images"
    data = {
        "id": scenario_id or f"gen/{seed}",
        "domains": domains,
        "reference_time": b.now.isoformat(),
        "user_id": b.wi.owner_id,
        "world_seed": world_seed,
        "description": DESCRIPTIONS[flow].format(plural=plural),
        "initial_entities": b.entities,
        "images": [im.to_spec() for im in b.imgs],
        "rounds": rounds,
        "facts": facts,
        "metadata": {
            "flow_type": flow, "challenge_type": challenge, "image_arrival": arrival, "image_categories": categories,
            "num_images": len(b.imgs), "num_rounds": len(rounds), "domains": domains,
            "difficulty": "easy" if max(im.difficulty for im in b.imgs) == 0 else "medium",
            "expected_tools": used_tools, "persona": persona.name, "generator_seed": seed, "recipe": recipe.describe(),
            "image_values": unique(b.image_values), "derived_values": unique(b.derived), "image_keys": unique(b.keys),
        },
    }
    provisional = Scenario.from_dict({**data, "expected_changes": []}, source="generator")
    run = play(provisional.rounds, provisional.initial_entities, reference_time=provisional.reference_time,
               user_id=provisional.user_id, world_seed=world_seed)
    changes = expected_changes(run.world)
    keep = frozenset()
    if getattr(recipe, "variant", None) == "edit":  # a taken-back line only shows in the text itself
        keep = frozenset({("simple_note.notes", "content"), ("file_system.files", "content")})
    spoken = [r["query"] for r in rounds] + [c["answer"] for r in rounds for c in r["clarifications"]]
    values = unique(b.image_values + b.derived + b.keys + list(facts))
    changes = free_text_measures(changes, spoken, values, keep)
    data["expected_changes"] = changes
    if not data["expected_changes"]:
        raise GenerationError("the solution changes nothing")
    data["completion_criteria"] = recipe.criteria(parts, data["expected_changes"])
    return Scenario.from_dict(data, source="generator")
