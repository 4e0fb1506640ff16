"""Compose one scenario from the design axes: rounds, image delivery, challenge, solution, expectations.

The composer lays out a round *skeleton* for the arrival pattern (which rounds deliver which
images, which rounds only follow up), asks a flow (generic or database-backed) for the work of
each task round, writes it to a sink, applies the challenge (a goal change, an error the user
corrects, or a state change the user makes), plays the solution on a world to derive the
expected changes, and assembles a format-v1 :class:`~mmtsb_env.scenario.model.Scenario`.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta, timezone
from typing import Any

from ..scenario.model import GUIDANCE_EXPECTS, Round, Scenario
from ..tools.catalog import get_tool
from .axes import ARRIVALS, CHALLENGES, FLOWS, IMAGE_COUNT_WEIGHTS, MAX_IMAGES, MAX_ROUNDS, MIN_IMAGES, check_axis
from .core import Build, Part, call, unique
from .errors import GenerationError
from .engine import vision_steps
from .images import needs_hard, number, settle_levels
from .db_recipes import make_db_recipe
from .dryrun import expected_changes, free_text_measures, play
from .layout import CATEGORIES_BY_FLOW, GENERIC_FLOWS, Slot, choose_sink, late_ok, skeleton  # noqa: F401 (re-exported)
from .recipes import GenericRecipe
from .staging import cleanup_part, stage_lookalikes
from .db_base import DBRecipe
from .story import SHORT, draw_story, fill_out, follow_on, reason
from .voice import TELLS, pick_persona, speak
from .web import PAGE_WORDS
from .world_index import world_index


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


def _instructions(b: Build, part: Part, i: int, parts: list[Part], lookalike_nouns: dict[str, str]) -> str:
    """The round's private guidance for the user simulator: what to send, what to keep back, how to answer."""
    last = i == len(parts) - 1
    bits = []
    if part.image_ids:
        bits.append(f"Send image(s) {', '.join(map(str, part.image_ids))} with this message (send_message_with_image). "
                    "You cannot see them: never describe them or guess what they show; if asked, point the assistant to them.")
    elif any(p.image_ids for p in parts[:i]):
        bits.append("Send no new image; this refers to what you sent before.")
    else:
        bits.append("Send no image yet; do not mention what the pictures will show.")
    if part.kind == "goal_change":
        bits.append("You changed your mind: what the assistant made for the earlier request is no longer wanted. "
                    "Expect it to remove or change that, not to leave it behind.")
    elif part.kind == "state_mutation" and part.state_changes:
        bits.append("You changed something on the phone yourself just before this message; if asked, say so, but do not explain the details.")
    elif part.kind == "correction" and part.claim is None:
        bits.append("You are correcting a detail you gave earlier; the assistant should fix what it already did.")
    bits.extend(part.guidance)
    for noun in sorted({lookalike_nouns[t] for t in _tables_of(part) if t in lookalike_nouns}):
        bits.append(f"Your phone also holds older or similarly named {noun}; if the assistant asks which one you mean, "
                    "say the one that matches the picture or your request exactly, not the old one.")
    for c in part.clarifications:
        if c["keywords"] in (LOOKALIKE_CLARIFICATION["keywords"], list(PAGE_WORDS)):
            continue  # said above, in the words of the note it comes from
        bits.append(f"If the assistant asks for clarification, answer: \"{c['answer']}\"")
    if part.report:
        bits.append("Make sure the assistant tells you the result you asked for before you move on.")
    bits.append("When the assistant confirms it is done, " + ("end the conversation." if last else "move on to the next round.")
                + " If it stops short, say briefly what is still missing.")
    return " ".join(bits)


LOOKALIKE_NOUNS = {"phone.contacts": "contacts with the same first name", "calendar.events": "events with the same title",
                   "reminder.reminders": "reminders", "simple_note.notes": "notes", "todoist.tasks": "tasks",
                   "gmail.drafts": "drafts", "file_system.files": "files", "phone.alarms": "alarms",
                   "spotify.playlists": "playlists", "venmo.payment_requests": "payment requests"}


# The user's answer when the assistant asks which of the look-alikes on the phone it means (a
# clarification, as the importer makes of the reference's "If the assistant asks which ..." hints).
LOOKALIKE_CLARIFICATION = {"answer": "The one that matches the picture or my request exactly, not an older or similarly named one.",
                           "keywords": ["which one", "older", "old one", "similar", "both of", "duplicate"]}


def _expects(report: list[str]) -> list[str]:
    """The kinds of information a round's reply must give (``Guidance.expects``): one per fact it asks
    to be told, the most specific kind the user's reading finds in that fact as written -- the kind
    the user asked for, never the value."""
    from ..users.reading import read

    kinds = {next((k for k in ("time", "date", "number") if k in read(v).kinds), "text") for v in report}
    return [k for k in GUIDANCE_EXPECTS if k in kinds]


def _tables_of(part: Part) -> set[str]:
    """Tables a round's tools work on (their app's tables, as the staging layer names them)."""
    apps = {get_tool(st["name"]).app for st in part.steps if "name" in st}
    if apps & {"contacts", "messages", "alarms", "phone", "gmail", "venmo"}:
        apps |= {"phone"}
    return {t for t in LOOKALIKE_NOUNS if t.split(".")[0] in apps or (t == "phone.alarms" and "alarms" in apps)}


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


def recipe_name(scenario: Scenario) -> str:
    """The recipe class that built a generated scenario (its ``metadata["recipe"]`` without sink or variant)."""
    return str(scenario.metadata.get("recipe", "")).split("+")[0].split("/")[0]


# ---------------------------------------------------------------------------- composing
def compose(seed: int, flow: str | None = None, challenge: str | None = None, arrival: str | None = None, *,
            world_seed: int = 0, n_images: int | None = None, scenario_id: str | None = None,
            category: str | None = None, prefer: set[str] | frozenset[str] = frozenset(),
            prefer_categories: tuple[str, ...] = (), tool_use: dict[str, int] | None = None,
            recipe_use: dict[str, int] | None = None) -> Scenario:
    """Generate one scenario for the given axes (None = drawn from ``seed``). GenerationError if impossible.

    ``tool_use`` counts the tools a suite used so far; table rounds (setup reads before late images) favour the least used.
    ``recipe_use`` counts the recipes it used so far (:func:`recipe_name`); a flow's recipe is drawn among
    its least used ones, so no recipe takes a whole cell.
    """
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
    b.tool_use = dict(tool_use or {})
    b.recipe_use = dict(recipe_use or {})
    extra_round = challenge in ("goal_change", "error_correction")
    budget = 5 - (1 if extra_round else 0)
    n = n_images or rng.choices(list(IMAGE_COUNT_WEIGHTS), weights=list(IMAGE_COUNT_WEIGHTS.values()))[0]

    if flow in GENERIC_FLOWS:
        recipe = GenericRecipe.make(b, flow, n, arrival, challenge, budget, category=category)
    else:
        recipe = make_db_recipe(b, flow, n, arrival, challenge, budget, category=category)
    if getattr(recipe, "variant", None) == "edit":  # notes and files keep their exact wording there (see _assemble)
        b.avoid_apps = {"simple_note", "file_system"}
    parts = recipe.parts()
    settle_levels(b.imgs, seed, b.image_values + b.keys)
    for p in parts:
        p.steps = vision_steps(b, p) + p.steps
    b.lookalikes = stage_lookalikes(b, parts) + b.web_lookalikes
    _apply_challenge(b, recipe, parts, challenge, arrival)
    return _assemble(b, recipe, parts, flow=flow, challenge=challenge, arrival=arrival, seed=seed, world_seed=world_seed,
                     scenario_id=scenario_id)


WRONG_CLAIMS = "wrong_claim" in Round.__dataclass_fields__  # the scenario model carries scripted wrong claims (issue #30)
_CHANGES_ROWS = re.compile(r"update|delete|remove|modify")


def _merge(part: Part, extra: Part) -> None:
    """``extra``'s request and work added to ``part`` (which becomes a state mutation)."""
    part.request, part.answer = f"{part.request} {extra.request}", f"{part.answer} {extra.answer}"
    part.steps += extra.steps
    part.guidance += extra.guidance
    part.kind = "state_mutation"


def _apply_challenge(b: Build, recipe: Any, parts: list[Part], challenge: str, arrival: str) -> None:
    """Goal changes and corrections are woven in by the recipe; state mutations are added here: mostly
    the user asks to delete a staged look-alike (an old copy of what the task works on), else the
    user's own connectivity change before a round."""
    if challenge != "state_mutation":
        return
    mutations = [p for p in parts if p.kind == "state_mutation"]
    # the recipe's own: the user changed target rows, and the solution updates or deletes stored rows
    fixes_rows = any(p.state_changes and any(_CHANGES_ROWS.search(st.get("name", "")) for st in p.steps) for p in mutations)
    extra = cleanup_part(b, b.lookalikes) if not fixes_rows else None
    if extra is not None:
        if mutations:  # the user takes back part of what was made: and the old copy goes too
            _merge(mutations[-1], extra)
        elif len(parts) >= MAX_ROUNDS:  # no room for a round of its own: the last request asks for it too
            _merge(parts[-1], extra)
        elif arrival == "late":  # before the pictures, so they still arrive in the last third
            parts.insert(next(i for i, p in enumerate(parts) if p.image_ids), extra)
        else:
            parts.append(extra)
        return
    if mutations:
        return  # the recipe planned a change of the rows: its target rows, or what the assistant made
    candidates = [i for i in range(len(parts)) if parts[i].is_task]
    b.rng.shuffle(candidates)
    candidates.sort(key=lambda i: i == 0)  # prefer a later round
    for i in candidates:
        if connectivity_mutation(b, parts[i], parts[i + 1:]):
            return
    raise GenerationError("no round can take a state mutation")


def value_tolerances(b: Build) -> dict[str, float]:
    """Needed values a careful reader may get slightly wrong, and by how much: each value of a chart
    read off its axis (the image's ``read_tolerance``) and what flows computed from them. Empty
    when every needed value is printed. (Data for the judge and entity F1: a number within its
    tolerance is read right.)"""
    out = dict(b.tolerances)
    needed = set(b.image_values) | set(b.derived)
    for im in b.imgs:
        tol = im.extra.get("read_tolerance", 0.0)
        for it in im.items if tol else ():
            v = number(it["amount"])
            if v in needed:
                out[v] = max(tol, out.get(v, 0.0))
    return dict(sorted(out.items()))


def _assemble(b: Build, recipe: Any, parts: list[Part], *, flow: str, challenge: str, arrival: str, seed: int,
              world_seed: int, scenario_id: str | None) -> Scenario:
    rounds = []
    persona = pick_persona(b.rng)
    lookalike_nouns = {e["table"]: LOOKALIKE_NOUNS[e["table"]] for e in getattr(b, "lookalikes", []) if e["table"] in LOOKALIKE_NOUNS}
    main = max({im.category for im in b.imgs}, key=lambda c: (sum(im.category == c for im in b.imgs), c))
    me = b.owner
    plural0 = b.imgs[0].plural if len({im.category for im in b.imgs}) == 1 else "images"
    story = draw_story(b.rng, main, persona.name, f"{me.first_name} {me.last_name}", DESCRIPTIONS[flow].format(plural=plural0))
    own_scene = isinstance(recipe, DBRecipe)  # its first request sets its own scene ("I'm coordinating volunteers.")
    for i, p in enumerate(parts):
        if i == 0:
            lead = "" if own_scene else story.opening
        else:
            lead = follow_on(b.rng, p.role, p.kind, bool(p.image_ids))
        tail = ""
        if len(f"{lead} {p.request}".split()) < SHORT:
            tail = fill_out(f"{lead} {p.request}", reason(b.rng, flow, p.role), flow, p.role)
        query = speak(b.rng, persona, p.request, first=i == 0, lead=lead, tail=tail)
        if not p.report and p.facts and TELLS.search(query):
            p.report = list(p.facts)
        if any(t in lookalike_nouns for t in _tables_of(p)):
            p.clarifications.append(dict(LOOKALIKE_CLARIFICATION))
        extra = {}
        if p.claim and p.claim_text and WRONG_CLAIMS and p.claim_text.lower() in query.lower():
            # issue #30's Round.wrong_claim, once the scenario model has it: the user simulator confirms it
            # itself, so the confirmation is no longer a clarification
            extra["wrong_claim"] = {"text": p.claim_text, "confirm": p.confirm, "keywords": [p.claim["wrong"]]}
            p.clarifications = [c for c in p.clarifications if c.get("answer") != p.confirm]
        rounds.append({
            **extra, "query": query, "image_ids": list(p.image_ids),
            "instructions": p.instructions or _instructions(b, p, i, parts, lookalike_nouns),
            "kind": p.kind, "clarifications": p.clarifications, "state_changes": p.state_changes, "solution": p.steps,
            "answer": p.answer, "report": list(p.report), **({"guidance": {"expects": _expects(p.report)}} if p.report else {}),
        })
    facts = unique([f for p in parts for f in p.facts])
    used_tools = unique([st["name"] for p in parts for st in p.steps if "name" in st])
    domains = set(b.domains)
    for name in used_tools:
        domains.add(get_tool(name).app)
    domains.discard("vision")
    domains = sorted(domains)
    categories = unique([im.category for im in b.imgs])
    data = {
        "id": scenario_id or f"gen/{seed}",
        "domains": domains,
        "reference_time": b.now.isoformat(),
        "user_id": b.wi.owner_id,
        "world_seed": world_seed,
        "description": story.description,
        "initial_entities": b.entities,
        "images": [im.to_spec() for im in b.imgs],
        "rounds": rounds,
        "facts": facts,
        "metadata": {
            "flow_type": flow, "challenge_type": challenge, "image_arrival": arrival, "image_categories": categories,
            "num_images": len(b.imgs), "num_rounds": len(rounds), "domains": domains,
            "difficulty": ("easy", "medium", "medium", "hard")[max(im.difficulty for im in b.imgs)],
            "expected_tools": used_tools, "persona": persona.name, "generator_seed": seed, "recipe": recipe.describe(),
            # whether a level-3 image shows a value the task needs that no level 0-1 image shows
            # (None: the task lists no value it takes from the images, e.g. one computed from them)
            "hard_image_needed": needs_hard(b.imgs, b.image_values + b.keys) if b.image_values + b.keys else None,
            "image_values": unique(b.image_values), "derived_values": unique(b.derived), "image_keys": unique(b.keys),
            "web_values": unique(b.web_values),
            "value_tolerances": value_tolerances(b),
            "lookalikes": list(getattr(b, "lookalikes", [])),
            "error_claims": [{"round": i, **p.claim} for i, p in enumerate(parts) if p.claim],
            "round_roles": [p.role if p.role != "task" or p.kind == "task" else "challenge" for p in parts],
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
    values = unique(b.image_values + b.derived + b.keys + b.web_values + list(facts))
    changes = free_text_measures(changes, spoken, values, keep)
    data["expected_changes"] = changes
    if not data["expected_changes"]:
        raise GenerationError("the solution changes nothing")
    data["completion_criteria"] = recipe.criteria(parts, data["expected_changes"])
    return Scenario.from_dict(data, source="generator")
