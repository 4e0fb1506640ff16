"""Turn :class:`~mmtsb_env.runner.EpisodeRecord` s into rows of the episode and step tables.

Rewards belong to the team: the engine credits every action's reward (F1 change, terminal
verdict) to the assistant. A *seat step* is one action of that seat plus every action of the
other seat until it acts again -- exactly what the seat's Gymnasium view returns from ``step``
-- so a row's ``rewards`` are the rewards its seat's learner saw.

Records may carry optional attributes beyond the dataclass fields (set by
:class:`~mmtsb_env.wrappers.TrajectoryRecorder`): ``user`` (user policy name), ``user_steps``
(per-step extras of the user policy) and ``trainable_seats``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any, Iterable, Sequence

from .schema import SCHEMA_VERSION
from .tokens import flatten_tokens, strip_tokens, token_steps

ASSISTANT, USER = "assistant", "user"
SEATS = (ASSISTANT, USER)
MISSING_IMAGES = ("error", "restore", "drop")


def episode_id(scenario_id: str, seed: int, agent: str, mode: str, repeat: int = 0) -> str:
    """Deterministic 16-hex-digit id of an episode.

    >>> episode_id("demo/a", 0, "oracle", "tool") == episode_id("demo/a", 0, "oracle", "tool")
    True
    >>> episode_id("demo/a", 0, "oracle", "tool") != episode_id("demo/a", 1, "oracle", "tool")
    True
    """
    key = json.dumps([scenario_id, int(seed), agent, mode, int(repeat)])
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


# ---------------------------------------------------------------------------------------- acts
def _starts_act(entry: dict[str, Any]) -> bool:
    kind = entry["kind"]
    if kind in ("message", "tool_calls", "code", "error"):
        return True
    if kind == "notice":  # the user's "ended the conversation"; assistant notices are deliveries inside an act
        return entry["sender"] == USER
    if kind == "tool_result":  # a user tool call is a whole act; assistant results follow its tool_calls
        return entry["recipient"] == USER
    return False


def _actor(entry: dict[str, Any]) -> str:
    return entry["recipient"] if entry["kind"] in ("error", "tool_result") else entry["sender"]


def partition_log(log: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Split a record's log into actions: ``[(seat, entries), ...]`` in order."""
    acts: list[tuple[str, list[dict[str, Any]]]] = []
    for entry in log:
        if not acts or _starts_act(entry):
            acts.append((_actor(entry), [entry]))
        else:
            acts[-1][1].append(entry)
    return acts


def act_seats(record: Any) -> list[str] | None:
    """Which seat took each action of ``record.rewards`` (``None`` if it cannot be told)."""
    rewards = record.rewards
    if rewards and all("seat" in r for r in rewards):
        return [r["seat"] for r in rewards]
    acts = partition_log(record.log)
    if len(acts) == len(rewards):
        return [seat for seat, _ in acts]
    return None


def seat_steps(record: Any, seat: str, seats: list[str] | None = None) -> list[dict[str, Any]]:
    """Reward and components of each of ``seat``'s steps (see the module docstring)."""
    seats = act_seats(record) if seats is None else seats
    rewards = record.rewards
    if seats is None:  # unknown attribution: one step per action, all on the assistant
        groups = [[i] for i in range(len(rewards))] if seat == ASSISTANT else []
    else:
        groups = []
        for i, s in enumerate(seats):
            if s == seat:
                groups.append([i])
            elif groups:
                groups[-1].append(i)
    out = []
    for group in groups:
        entries = [rewards[i] for i in group]
        reward = 0.0
        for e in entries:
            reward += e["reward"]
        out.append({
            "step": int(entries[0]["step"]),
            "reward": reward,
            "entity_f1": entries[-1]["entity_f1"],
            "delta_f1": sum(e["delta_f1"] for e in entries),
            "judge": max(e["judge"] for e in entries),
        })
    return out


# ------------------------------------------------------------------------------------ messages
def _decode_data_url(url: str) -> bytes | None:
    head, sep, payload = url.partition(",")
    if sep and head.startswith("data:image/png") and head.endswith(";base64"):
        return base64.b64decode(payload)
    return None


def missing_image_text(image_id: Any) -> str:
    """The text part that stands for an image whose PNG was not stored (its ``image_id`` is kept on the part)."""
    return f"[image {image_id} not stored]"


MISSING_IMAGE_RE = re.compile(r"\[image (-?\d+) not stored\]")


def export_messages(messages: Sequence[dict[str, Any]], images_by_id: dict[int, bytes], *,
                    missing_images: str = "error", where: str = "") -> tuple[list[dict[str, Any]], list[bytes], list[int]]:
    """OpenAI messages -> (schema messages, PNG bytes in message order, image id of each).

    Content becomes a list of parts (a string is one text part, ``None`` none); image parts
    (``{"type": "image", "image_id": N}`` placeholders or PNG ``image_url`` data URLs) become
    ``{"type": "image"}`` parts with the image appended to the image list.
    """
    out, images, ids = [], [], []
    for m in messages:
        content = m.get("content")
        parts: list[dict[str, Any]] = []
        if isinstance(content, str):
            parts.append({"type": "text", "text": content, "image_id": None})
        elif isinstance(content, list):
            for p in content:
                kind = p.get("type")
                if kind == "text":
                    parts.append({"type": "text", "text": p.get("text", ""), "image_id": None})
                    continue
                image_id = p.get("image_id")
                data = images_by_id.get(image_id) if image_id is not None else None
                if kind == "image_url":
                    data = _decode_data_url(p["image_url"]["url"])
                    image_id = -1 if image_id is None else image_id
                elif kind != "image":
                    raise ValueError(f"{where}unsupported content part type {kind!r}")
                if data is None:
                    if missing_images == "error":
                        raise ValueError(
                            f"{where}the messages show image {image_id} but the record holds no PNG for it; "
                            "run with capture_images=True, or pass missing_images='restore' or 'drop'")
                    parts.append({"type": "text", "text": missing_image_text(image_id), "image_id": image_id})
                    continue
                parts.append({"type": "image", "text": None, "image_id": image_id})
                images.append(data)
                ids.append(image_id)
        elif content is not None:
            raise ValueError(f"{where}message content must be a string, a list of parts or null")
        calls = []
        for c in m.get("tool_calls") or []:
            fn = c.get("function", c)
            args = fn.get("arguments", {})
            calls.append({"id": c.get("id"), "type": c.get("type", "function"),
                          "function": {"name": fn["name"], "arguments": args if isinstance(args, str) else _json(args)}})
        out.append({"role": m["role"], "content": parts, "tool_calls": calls or None,
                    "tool_call_id": m.get("tool_call_id"), "name": m.get("name")})
    return out, images, ids


def restore_scenario_images(scenario_id: str, scenarios: Iterable[Any] | None = None) -> dict[int, bytes]:
    """PNG bytes of a scenario's own images (ids ``0..n-1``), re-rendered; ``{}`` if the scenario is unknown.

    Scenario images are render specs or files, so they are reproducible; images that tools made
    during the episode are not (they need ``capture_images=True`` at run time).
    """
    from ..scenario.model import ScenarioError
    from ..scenario.suites import load_suite

    scenario = None
    if scenarios is not None:
        scenario = next((s for s in scenarios if s.id == scenario_id), None)
    if scenario is None and "/" in scenario_id:
        try:
            scenario = next((s for s in load_suite(scenario_id.split("/", 1)[0]) if s.id == scenario_id), None)
        except (ScenarioError, OSError, ModuleNotFoundError):
            scenario = None
    if scenario is None or not scenario.images:
        return {}
    from ..episode.images import load_scenario_images
    from ..vision.store import ImageStore, png_bytes

    try:
        store = ImageStore(*load_scenario_images(scenario))
    except ScenarioError:
        return {}
    return {i: png_bytes(store.get(i)) for i in range(len(store))}


def images_of(record: Any, missing_images: str = "error", scenarios: Iterable[Any] | None = None) -> dict[int, bytes]:
    """The record's images by id, completed from the scenario when ``missing_images="restore"``."""
    if missing_images not in MISSING_IMAGES:
        raise ValueError(f"missing_images must be one of {MISSING_IMAGES}, got {missing_images!r}")
    by_id = {i: b for i, b in enumerate(record.images or []) if b}
    if missing_images == "restore" and len(by_id) < len(record.image_sources or []):
        for i, data in restore_scenario_images(record.scenario_id, scenarios).items():
            by_id.setdefault(i, data)
    return by_id


# ---------------------------------------------------------------------------------------- rows
def _user_tools() -> list[dict[str, Any]]:
    from ..tools.catalog import tools_in

    return [t.schema for t in tools_in("full", USER)]


def _str_list(value: Any) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


# EpisodeRecord fields with their own columns; any other field goes to the ``extra`` JSON column.
MAPPED_FIELDS = frozenset({
    "scenario_id", "seed", "mode", "agent", "metadata", "steps", "assistant_steps", "total_reward", "entity_f1", "passed", "terminated",
    "truncated", "error", "verdict", "user_verdict", "entity", "rewards", "messages", "user_messages", "tools", "log",
    "calls", "diff", "images", "image_sources", "agent_steps", "duration_s", "user", "user_steps", "trainable_seats",
})


def _extra_fields(record: Any) -> dict[str, Any]:
    from dataclasses import fields, is_dataclass

    if not is_dataclass(record):
        return {}
    return {f.name: getattr(record, f.name) for f in fields(record) if f.name not in MAPPED_FIELDS}


def record_repeat_key(record: Any) -> tuple[str, int, str, str]:
    return (record.scenario_id, int(record.seed), record.agent, record.mode)


def episode_rows(record: Any, *, seats: Sequence[str] = SEATS, trainable: Sequence[str] | None = None,
                 missing_images: str = "error", repeat: int = 0, scenarios: Iterable[Any] | None = None,
                 images_by_id: dict[int, bytes] | None = None) -> list[dict[str, Any]]:
    """The episode-table rows of one record: one per seat in ``seats``."""
    unknown = [s for s in seats if s not in SEATS]
    if unknown:
        raise ValueError(f"unknown seat(s) {unknown}; seats are {list(SEATS)}")
    if trainable is None:
        trainable = getattr(record, "trainable_seats", None) or (ASSISTANT,)
    if images_by_id is None:
        images_by_id = images_of(record, missing_images, scenarios)
    eid = episode_id(record.scenario_id, record.seed, record.agent, record.mode, repeat)
    meta = record.metadata or {}
    user_name = getattr(record, "user", None) or "scripted"
    verdict = record.verdict or {}
    user_verdict = getattr(record, "user_verdict", None) or {}
    entity = record.entity or {}
    extra = _extra_fields(record)
    acted = act_seats(record)
    rows = []
    for seat in seats:
        steps = seat_steps(record, seat, acted)
        extras = list(record.agent_steps or []) if seat == ASSISTANT else list(getattr(record, "user_steps", None) or [])
        source = record.messages if seat == ASSISTANT else record.user_messages
        messages, images, image_ids = export_messages(source or [], images_by_id, missing_images=missing_images,
                                                      where=f"{record.scenario_id} ({seat}): ")
        tokens = flatten_tokens(extras)
        if seat == ASSISTANT:
            tools = record.tools
        else:
            tools = getattr(record, "user_tools", None) or _user_tools()
        rewards = [s["reward"] for s in steps]
        seat_return = 0.0
        for r in rewards:
            seat_return += r
        rows.append({
            "schema_version": SCHEMA_VERSION,
            "episode_id": eid,
            "scenario_id": record.scenario_id,
            "seed": int(record.seed),
            "seat": seat,
            "trainable": seat in trainable,
            "mode": record.mode,
            "agent": record.agent,
            "user": user_name,
            "judge": verdict.get("judge"),
            "model": record.agent if seat == ASSISTANT else user_name,
            "flow_type": meta.get("flow_type"),
            "challenge_type": meta.get("challenge_type"),
            "image_arrival": meta.get("image_arrival"),
            "image_categories": _str_list(meta.get("image_categories")),
            "num_images": _int(meta.get("num_images")),
            "num_rounds": _int(meta.get("num_rounds")),
            "domains": _str_list(meta.get("domains")),
            "metadata": _json(meta),
            "messages": messages,
            "images": [{"bytes": b, "path": None} for b in images],
            "image_ids": image_ids,
            "tools": _json(tools or []),
            "steps": int(record.steps),
            "assistant_steps": int(getattr(record, "assistant_steps", 0) or 0),
            "seat_steps": len(steps),
            "rewards": rewards,
            "reward_components": steps,
            "act_rewards": [{"step": int(r["step"]), "seat": r.get("seat"), "reward": r["reward"], "entity_f1": r["entity_f1"],
                             "delta_f1": r["delta_f1"], "judge": r["judge"]} for r in record.rewards],
            "seat_return": seat_return,
            "total_reward": float(record.total_reward),
            "entity_f1": float(record.entity_f1),
            "entity_precision": entity.get("precision"),
            "entity_recall": entity.get("recall"),
            "passed": bool(record.passed),
            "judge_pass": verdict.get("pass") if verdict else None,
            "judge_criteria": [{"criterion": c.get("criterion"), "pass": c.get("pass"), "reason": c.get("reason")}
                               for c in verdict.get("criteria", [])],
            "user_judge_pass": user_verdict.get("pass") if user_verdict else None,
            "user_verdict": _json(user_verdict),
            "terminated": bool(record.terminated),
            "truncated": bool(record.truncated),
            "error": record.error,
            "has_error": record.error is not None,
            "token_ids": tokens["token_ids"],
            "logprobs": tokens["logprobs"],
            "loss_mask": tokens["loss_mask"],
            "token_steps": tokens["token_steps"],
            "entity": _json(entity),
            "log": _json(record.log),
            "calls": _json(record.calls),
            "diff": _json(record.diff),
            "image_sources": list(record.image_sources or []),
            "agent_steps": _json([strip_tokens(s) for s in extras]),
            "duration_s": float(record.duration_s),
            "extra": _json(extra),
        })
    return rows


def _action_text(entries: list[dict[str, Any]]) -> str | None:
    first = entries[0]
    kind = first["kind"]
    if kind in ("message", "code"):
        return first["content"]
    if kind == "tool_calls":
        return _json([{"name": c["name"], "arguments": c["arguments"]} for c in first["tool_calls"]])
    if kind == "notice" and first["sender"] == USER:
        return _json([{"name": "end_conversation", "arguments": {}}])
    if kind == "tool_result":
        return _json([{"name": first["tool_name"]}])
    return None  # an invalid action: only the error is kept


def _action_error(entries: list[dict[str, Any]]) -> str | None:
    for e in entries:
        if e["kind"] == "error" or (e["kind"] in ("tool_result", "code_result") and not e.get("ok", True)):
            return e["content"]
    return None


def step_rows(record: Any, *, repeat: int = 0) -> list[dict[str, Any]]:
    """The step-table rows of one record: one per action of either seat."""
    eid = episode_id(record.scenario_id, record.seed, record.agent, record.mode, repeat)
    acts = partition_log(record.log)
    aligned = len(acts) == len(record.rewards)
    seats = act_seats(record)
    extras = {ASSISTANT: list(record.agent_steps or []), USER: list(getattr(record, "user_steps", None) or [])}
    counters: dict[str | None, int] = {}
    rows = []
    for i, r in enumerate(record.rewards):
        seat = seats[i] if seats is not None else None
        k = counters.get(seat, 0)
        counters[seat] = k + 1
        entries = acts[i][1] if aligned else None
        step_extra = extras.get(seat, [])
        tok = token_steps([step_extra[k]]) if k < len(step_extra) else None
        tok = tok[0] if tok else {"prompt_ids": None, "completion_ids": None, "logprobs": None}
        rows.append({
            "schema_version": SCHEMA_VERSION,
            "episode_id": eid,
            "scenario_id": record.scenario_id,
            "seed": int(record.seed),
            "agent": record.agent,
            "step": int(r["step"]),
            "seat": seat,
            "seat_step": k,
            "action": _action_text(entries) if entries else None,
            "kinds": [e["kind"] for e in entries] if entries else None,
            "entries": _json(entries) if entries else None,
            "action_error": _action_error(entries) if entries else None,
            "reward": float(r["reward"]),
            "entity_f1": float(r["entity_f1"]),
            "delta_f1": float(r["delta_f1"]),
            "judge": float(r["judge"]),
            **tok,
        })
    return rows
