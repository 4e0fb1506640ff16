"""An optional generation path through any chat backend: a model designs the scenario, we verify it.

Stages (each one prompt, each answered with one JSON object; prompts in :mod:`.prompts`):

1. ``associate`` -- which apps each picture's content could feed;
2. ``group`` -- which pictures belong to one task;
3. ``viability`` -- scores for every information flow and arrival pattern (the best are used
   unless the caller fixes them);
4. ``outline`` -- rounds with their goal, images and kind;
5. ``expand`` -- full rounds: queries, instructions, clarifications, state changes, solution
   steps (rows that must pre-exist are referenced as ``{"$entity": label}``), answers, facts;
6. ``entities`` -- the pre-existing rows (ids are assigned here and substituted everywhere);
7. ``critique`` -- the model reviews the result; a rejection stops the pipeline.

The pictures come from the procedural render families (so their values are known), the
expected changes come from playing the model's solution on a world, and the result goes through
the same :func:`~mmtsb_env.generation.verify.verify` as procedural scenarios.

>>> from mmtsb_env.llm.base import RecordedBackend
>>> pipe = LLMPipeline(RecordedBackend(["not json"]))
>>> try:
...     pipe.run(seed=0)
... except LLMGenerationError as exc:
...     print(exc.stage)
associate
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

from ..scenario.model import Scenario, ScenarioError
from ..tools.catalog import tools_in
from ..world.schema import TABLES
from . import prompts as P
from .axes import ARRIVALS, CHALLENGES, DOMAINS, FLOWS
from .core import Build, unique
from .dryrun import SolutionError, expected_changes, play
from .images import Img
from .verify import verify as verify_scenario
from .world_index import norm, world_index

STRING_KEY_PREFIX = {"calendar.events": "calendar_event", "calendar.calendars": "calendar", "reminder.reminders": "reminder"}
STAGES = ("associate", "group", "viability", "outline", "expand", "entities", "critique")


class LLMGenerationError(RuntimeError):
    """A stage's answer was unusable (or the result failed verification); ``stage`` names it."""

    def __init__(self, stage: str, message: str) -> None:
        super().__init__(f"{stage}: {message}")
        self.stage = stage


@dataclass
class StageRecord:
    stage: str
    messages: list[dict[str, Any]]
    reply: str
    parsed: dict[str, Any] = field(default_factory=dict)


def image_from_spec(spec: dict[str, Any]) -> Img:
    """An :class:`Img` from a scenario-style image entry ``{"render": {...}, "category": ..., "facts": {...}}``."""
    render, facts = spec["render"], dict(spec.get("facts", {}))
    img = Img(spec["category"], render["kind"], dict(render.get("content", {})), int(render.get("seed", 0)),
              int(render.get("difficulty", 0)))
    img.label = str(facts.pop("label", ""))
    for key in ("amount", "date", "time", "person", "items"):
        if key in facts:
            setattr(img, key, facts.pop(key))
    img.extra = facts
    return img


def _describe(imgs: Sequence[Img]) -> str:
    return "\n".join(f"{i}: {im.category} -- {json.dumps(im.facts(), ensure_ascii=False, default=str)}" for i, im in enumerate(imgs))


def _tool_list(apps: set[str]) -> str:
    skip = ("login", "logout", "signup", "password", "verification", "verify_account", "delete_account", "update_account_name")
    lines = []
    for t in tools_in("full"):
        if t.app in apps and not any(s in t.name for s in skip):
            lines.append(f"{t.name}: " + ", ".join(p.name + ("" if p.required else "?") for p in t.params))
    return "\n".join(lines)


def _substitute(value: Any, ids: dict[str, Any]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"$entity"}:
            label = str(value["$entity"]).split(".")[0]
            if label not in ids:
                raise KeyError(label)
            return ids[label]
        return {k: _substitute(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, ids) for v in value]
    return value


class LLMPipeline:
    """Run the stages through ``backend`` (any :class:`~mmtsb_env.llm.base.ChatBackend`)."""

    def __init__(self, backend: Any, *, world_seed: int = 0, sampling: dict[str, Any] | None = None,
                 verify: bool | str = "tool") -> None:
        self.backend = backend
        self.world_seed = world_seed
        self.sampling = dict(sampling or {})
        self.verify = verify

    # ------------------------------------------------------------------ one stage
    def _ask(self, stage: str, prompt: str, trace: list[StageRecord]) -> dict[str, Any]:
        from ..evaluation.jsonrepair import JSONRepairError, parse_json_object

        messages = [{"role": "system", "content": P.SYSTEM}, {"role": "user", "content": prompt}]
        try:
            reply = self.backend.complete(messages, None, **self.sampling).text or ""
        except Exception as exc:  # a backend failure is this stage's failure
            raise LLMGenerationError(stage, f"backend error: {exc}") from exc
        try:
            parsed = parse_json_object(reply)
        except (JSONRepairError, ValueError) as exc:
            trace.append(StageRecord(stage, messages, reply))
            raise LLMGenerationError(stage, f"the answer is not a JSON object: {exc}") from None
        trace.append(StageRecord(stage, messages, reply, parsed))
        return parsed

    # ------------------------------------------------------------------ the pipeline
    def run(self, images: Sequence[Img] | None = None, *, seed: int = 0, flow: str | None = None, challenge: str | None = None,
            arrival: str | None = None, scenario_id: str | None = None) -> tuple[Scenario, list[StageRecord]]:
        """Design, assemble and verify one scenario; LLMGenerationError names the stage that failed."""
        rng = random.Random(seed)
        wi = world_index(self.world_seed)
        now = datetime(2026, 4, 16, 9, 0, tzinfo=timezone.utc) + timedelta(days=rng.randint(0, 30))
        b = Build(rng, wi, now)
        if images is None:
            cats = rng.sample(["receipt", "invoice", "business_card", "event_poster", "price_tag"], 2)
            for k in range(rng.randint(3, 5)):
                b.img(cats[k % 2])
        else:
            b.imgs = list(images)
        trace: list[StageRecord] = []
        described = _describe(b.imgs)

        assoc = self._ask("associate", P.ASSOCIATE.format(images=described, apps=", ".join(DOMAINS)), trace).get("associations")
        if not isinstance(assoc, dict):
            raise LLMGenerationError("associate", "expected an 'associations' object")
        apps = {a for v in assoc.values() if isinstance(v, list) for a in v if a in DOMAINS}
        if not apps:
            raise LLMGenerationError("associate", "no known app was associated with any picture")

        groups = self._ask("group", P.GROUP.format(associations=json.dumps(assoc)), trace).get("groups")
        flat = sorted(i for g in groups or [] for i in g) if isinstance(groups, list) else None
        if flat != list(range(len(b.imgs))):
            raise LLMGenerationError("group", f"groups must use every picture exactly once, got {groups!r}")

        scores = self._ask("viability", P.VIABILITY.format(groups=groups, images=described, flows=", ".join(FLOWS),
                                                           arrivals=", ".join(ARRIVALS)), trace)
        flow = flow or _best(scores.get("flows"), FLOWS, "viability")
        arrival = arrival or _best(scores.get("arrivals"), ARRIVALS, "viability")
        challenge = challenge or rng.choice(CHALLENGES)

        outline = self._ask("outline", P.OUTLINE.format(flow=flow, flow_help=P.FLOW_HELP[flow], challenge=challenge,
                                                        challenge_help=P.CHALLENGE_HELP[challenge], arrival=arrival,
                                                        arrival_help=P.ARRIVAL_HELP[arrival], images=described,
                                                        groups=groups), trace)
        plan = outline.get("rounds")
        if not isinstance(plan, list) or not 2 <= len(plan) <= 5:
            raise LLMGenerationError("outline", "expected 2-5 rounds")

        owner = wi.owner
        expanded = self._ask("expand", P.EXPAND.format(outline=json.dumps(outline), images=described, tools=_tool_list(apps | {"supervisor"}),
                                                       owner_id=wi.owner_id, owner_name=owner.full_name, owner_email=owner.email), trace)
        rounds = expanded.get("rounds")
        if not isinstance(rounds, list) or not 2 <= len(rounds) <= 5:
            raise LLMGenerationError("expand", "expected 2-5 rounds")
        labels = sorted({str(v["$entity"]).split(".")[0] for v in _walk(rounds) if isinstance(v, dict) and set(v) == {"$entity"}})

        entities: dict[str, list[dict[str, Any]]] = {}
        ids: dict[str, Any] = {}
        if labels:
            used_tables = sorted({t for t in TABLES if t.split(".")[0] in apps | {"phone"}})
            schemas = "\n".join(f"{t}: {', '.join(c for c in TABLES[t].columns if c != TABLES[t].key)}" for t in used_tables)
            ent = self._ask("entities", P.ENTITIES.format(labels=", ".join(labels), rounds=json.dumps(rounds)[:6000], schemas=schemas), trace)
            items = ent.get("entities")
            if not isinstance(items, list):
                raise LLMGenerationError("entities", "expected an 'entities' list")
            for k, item in enumerate(items):
                table, row = item.get("table"), item.get("row")
                if table not in TABLES or not isinstance(row, dict):
                    raise LLMGenerationError("entities", f"entities[{k}]: unknown table {table!r} or no row")
                spec = TABLES[table]
                unknown = sorted(set(row) - set(spec.columns))
                if unknown:
                    raise LLMGenerationError("entities", f"entities[{k}]: {table} has no column(s) {unknown}")
                try:
                    row = _substitute(row, ids)
                except KeyError as exc:
                    raise LLMGenerationError("entities", f"entities[{k}] refers to {exc} before it is defined") from None
                key = spec.key
                if key not in row:
                    n = b.new_id(table if key == "id" else table + "#")
                    row = {key: n if key == "id" else f"{STRING_KEY_PREFIX.get(table, table.split('.')[-1])}_{n}", **row}
                entities.setdefault(table, []).append(row)
                ids[str(item.get("label", f"row{k}"))] = row[key]
            missing = [l for l in labels if l not in ids]
            if missing:
                raise LLMGenerationError("entities", f"no row for label(s) {missing}")
        try:
            rounds = _substitute(rounds, ids)
        except KeyError as exc:  # pragma: no cover - labels were collected from these rounds
            raise LLMGenerationError("entities", f"unknown label {exc}") from None

        data = self._assemble(b, rounds, entities, expanded, flow, challenge, arrival, seed, scenario_id)
        verdict = self._ask("critique", P.CRITIQUE.format(scenario=json.dumps({k: data[k] for k in ("description", "rounds", "facts")})[:8000]), trace)
        if verdict.get("ok") is not True:
            raise LLMGenerationError("critique", "rejected: " + "; ".join(map(str, verdict.get("problems") or ["no reason given"])))
        scenario = Scenario.from_dict(data, source="llm pipeline")
        if self.verify:
            report = verify_scenario(scenario, oracle=self.verify is not False and self.verify != "static",
                                     code=None if self.verify is True else False, render_images=self.verify != "static")
            if not report.ok:
                raise LLMGenerationError("verify", "; ".join(report.problems))
        return scenario, trace

    def _assemble(self, b: Build, rounds: list[dict[str, Any]], entities: dict[str, list[dict[str, Any]]], expanded: dict[str, Any],
                  flow: str, challenge: str, arrival: str, seed: int, scenario_id: str | None) -> dict[str, Any]:
        clean = []
        for k, r in enumerate(rounds):
            if not isinstance(r, dict) or not isinstance(r.get("query"), str):
                raise LLMGenerationError("expand", f"rounds[{k}] needs a 'query'")
            clean.append({key: r[key] for key in ("query", "image_ids", "instructions", "kind", "clarifications", "state_changes",
                                                  "solution", "answer") if key in r})
        facts = unique([str(f) for r in rounds for f in (r.get("facts") or [])])
        blob = norm(json.dumps([im.facts() for im in b.imgs], default=str))
        tools = unique([st["name"] for r in clean for st in r.get("solution", []) if isinstance(st, dict) and "name" in st])
        from ..tools.catalog import REGISTRY

        bad = [t for t in tools if t not in REGISTRY]
        if bad:
            raise LLMGenerationError("expand", f"unknown tool(s) {bad}")
        domains = sorted({REGISTRY[t].app for t in tools} - {"vision", "system"})
        data: dict[str, Any] = {
            "id": scenario_id or f"llm/{seed}", "domains": domains, "reference_time": b.now.isoformat(), "user_id": b.wi.owner_id,
            "world_seed": self.world_seed, "description": str(expanded.get("description", "")), "initial_entities": entities,
            "images": [im.to_spec() for im in b.imgs], "rounds": clean, "facts": facts,
            "metadata": {"flow_type": flow, "challenge_type": challenge, "image_arrival": arrival,
                         "image_categories": unique([im.category for im in b.imgs]), "num_images": len(b.imgs),
                         "num_rounds": len(clean), "domains": domains, "expected_tools": tools, "generator": "llm",
                         "image_values": [f for f in facts if norm(f) in blob], "derived_values": [], "image_keys": []},
        }
        try:
            provisional = Scenario.from_dict({**data, "expected_changes": []}, source="llm pipeline")
            run = play(provisional.rounds, provisional.initial_entities, reference_time=provisional.reference_time,
                       user_id=provisional.user_id, world_seed=self.world_seed)
        except (ScenarioError, SolutionError) as exc:
            raise LLMGenerationError("expand", str(exc)) from None
        data["expected_changes"] = expected_changes(run.world)
        if not data["expected_changes"]:
            raise LLMGenerationError("expand", "the solution changes nothing")
        data["completion_criteria"] = " ".join(str(r.get("answer", "")) for r in clean)
        return data


def _walk(value: Any):
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


def _best(scores: Any, allowed: tuple[str, ...], stage: str) -> str:
    if not isinstance(scores, dict):
        raise LLMGenerationError(stage, "expected score objects for flows and arrivals")
    valid = {k: float(v) for k, v in scores.items() if k in allowed and isinstance(v, (int, float))}
    if not valid:
        raise LLMGenerationError(stage, f"no valid score among {allowed}")
    return max(sorted(valid), key=lambda k: valid[k])
