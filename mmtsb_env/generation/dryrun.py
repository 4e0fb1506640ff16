"""Play a scenario's reference solution on a fresh world and turn the resulting diff into expected changes.

The generator states *what* to do (tool calls with the values it chose); running those calls
against the real apps gives every row they touch, side tables included (a sent text creates a
global message and one inbox row per person). Each changed row becomes an
:class:`~mmtsb_env.scenario.model.ExpectedChange` comparing the columns an agent controls:
keys and app-filled columns (timestamps, generated ids) are left out, and references to rows
created during the episode are compared with the ``ignore`` measure.
"""

from __future__ import annotations

import re

from dataclasses import dataclass
from typing import Any, Sequence

from ..scenario.model import Round
from ..tools.calling import invoke
from ..world import World, build_layer
from ..world.base import base_world
from ..world.clock import parse_datetime
from ..world.schema import TABLES
from ..evaluation.similarity import TEXT_COLUMNS, _as_datetime


IMAGE_VIEWS = frozenset({"view_image", "get_image_size", "crop_image", "rotate_image", "enhance_image", "resize_image", "draw_bbox"})


class SolutionError(RuntimeError):
    """A reference solution step failed when played on the world."""


def resolve(value: Any, saved: dict[str, Any]) -> Any:
    """Replace ``{"$ref": "label.path"}`` by the saved result (same rules as the oracle)."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            label, _, path = value["$ref"].partition(".")
            if label not in saved:
                raise SolutionError(f"reference to {label!r} before a step saved it")
            result = saved[label]
            for part in filter(None, path.split(".")):
                result = result[int(part)] if isinstance(result, list) else result[part]
            return result
        return {k: resolve(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, saved) for v in value]
    return value


@dataclass
class DryRun:
    world: World
    results: list[list[Any]]  # per round, per tool step: the result


def play(rounds: Sequence[Round], initial_entities: dict[str, list[dict[str, Any]]], *, reference_time: str,
         user_id: int, world_seed: int = 0) -> DryRun:
    """Apply each round's state changes and solution steps in order; SolutionError on the first failure."""
    base = base_world(world_seed)
    layer = build_layer(initial_entities, below=base.layer)
    world = World(base.layer, layer, now=parse_datetime(reference_time), user_id=user_id)
    saved: dict[str, Any] = {}
    results: list[list[Any]] = []
    for r, rnd in enumerate(rounds):
        for change in rnd.state_changes:
            world.apply_external(change.op, change.table, row=change.row, key=change.key, fields=change.fields)
        out = []
        for s, step in enumerate(rnd.solution):
            if "say" in step or step["name"] in IMAGE_VIEWS:
                continue  # image views change no row (and this world holds no pixels)
            args = resolve(step.get("arguments", {}), saved)
            outcome = invoke(world, step["name"], args)
            if not outcome.ok:
                raise SolutionError(f"round {r} step {s} {step['name']}({args}): {outcome.text}")
            out.append(outcome.result)
            if step.get("save_as"):
                saved[step["save_as"]] = outcome.result
        results.append(out)
    return DryRun(world, results)


def _measure(column: str, value: Any) -> str:
    if isinstance(value, str) and column in TEXT_COLUMNS:
        return "rouge_l"
    if isinstance(value, str) and _as_datetime(value) is not None:
        return "datetime"
    return "exact"


def expected_changes(world: World) -> list[dict[str, Any]]:
    """Format-v1 ``expected_changes`` entries for every change in ``world.diff()``."""
    diff = world.diff()
    created_keys: set[Any] = set()
    for table, d in diff.items():
        key = TABLES[table].key if table in TABLES else "id"
        created_keys |= {r[key] for r in d.created}
    out: list[dict[str, Any]] = []

    def is_new_ref(column: str, value: Any) -> bool:
        if column == "data":
            return True
        if isinstance(value, list):
            return column.endswith("_ids") and column not in PERSON_COLUMNS and any(
                not isinstance(v, (list, dict)) and v in created_keys for v in value)
        return column.endswith("_id") and column not in PERSON_COLUMNS and not isinstance(value, (list, dict)) and value in created_keys

    for table in sorted(diff):
        d = diff[table]
        spec = TABLES.get(table)
        key = spec.key if spec is not None else "id"
        auto = spec.auto_columns if spec is not None else frozenset()
        if d.created and _exempt(table, "create", None):
            d.created = []
        for row in d.created:
            kept, measures = {}, {}
            for col, value in row.items():
                if col == key or col in auto or value is None or value == "" or value == []:
                    continue
                kept[col] = value
                measures[col] = "ignore" if is_new_ref(col, value) else _measure(col, value)
            if not any(m != "ignore" for m in measures.values()):
                # nothing an agent controls: still expected (so it is not collateral), compared by presence
                first = next(iter(kept), None)
                if first is None:
                    kept, measures = {key: row[key]}, {key: "ignore"}
            out.append({"operation": "create", "table": table, "row": kept, "measures": measures})
        for before, after in d.updated:
            changed = [c for c in after if before.get(c) != after.get(c) and c not in auto]
            if not changed or _exempt(table, "update", changed):
                continue  # bookkeeping only (timestamps, sessions): the evaluator does not count it
            fields, measures = {}, {}
            for col, value in after.items():
                if before.get(col) == value or col == key:
                    continue
                fields[col] = value
                measures[col] = "ignore" if (col in auto or is_new_ref(col, value)) else _measure(col, value)
            out.append({"operation": "update", "table": table, "key": after[key], "fields": fields, "measures": measures})
        for row in d.deleted:
            if not _exempt(table, "delete", None):  # a derived record going with its source (gmail's thread records)
                out.append({"operation": "delete", "table": table, "key": row[key]})
    return out


def _exempt(table: str, op: str, changed: list[str] | None) -> bool:
    """Changes the evaluator treats as app bookkeeping (notifications, sessions...): not expected."""
    try:
        from ..evaluation.entity_diff import DEFAULT_CONFIG
    except ImportError:  # pragma: no cover - older evaluator
        return False
    return DEFAULT_CONFIG.exempt(table, op, changed)


# Columns naming a person (never "a row created in this episode", even when the number coincides).
PERSON_COLUMNS = frozenset({"user_id", "sender_id", "receiver_id", "payer_id", "creator_id", "actor_id", "friend_id",
                            "assignee_id", "assigner_id", "inviter_id", "invitee_id", "owner_id",
                            "recipient_ids", "artist_ids"})


# free text the generator worded (the user never did): compared by presence or by the facts it carries
PRESENT_COLUMNS = frozenset({"subject"})
FACT_COLUMNS = frozenset({"content", "body", "description", "message", "text", "comment", "title"})


def _where(text: str, value: str) -> int:
    """Where ``value`` first stands in ``text`` as a whole word or number (-1: nowhere)."""
    m = re.search(r"(?<![0-9a-z.])" + re.escape(value) + r"(?![0-9a-z]|\.\d)", text) if value else None
    return m.start() if m else -1


def _holds(text: str, value: str) -> bool:
    """Whether ``text`` holds ``value``: a number or a value of up to two characters as a whole word
    (a count read off a chart: "6"; "10" is not in "110"), a longer value anywhere."""
    if len(value) <= 2 or re.fullmatch(r"[\d.,:]+", value):
        return _where(text, value) >= 0
    return value in text


def free_text_measures(changes: list[dict[str, Any]], spoken: list[str], values: list[str],
                       keep: frozenset[tuple[str, str]] = frozenset()) -> list[dict[str, Any]]:
    """Loosen the comparison of text columns whose wording the user never gave.

    A column in :data:`PRESENT_COLUMNS` (an email subject) gets measure ``present``; one in
    :data:`FACT_COLUMNS` (a body, a note's content) gets ``facts`` with the expected value
    replaced by the list of ``values`` (image, derived and key values, facts) it contains, in
    order, or ``present`` when it contains none. Text that occurs in ``spoken`` (queries and
    clarification answers: the user dictated it) keeps its measure, and so do the ``keep``
    (table, column) pairs (a text the user edited line by line, where the wording is the point).
    """
    from .world_index import norm

    said = norm(" \n ".join(spoken))
    out = []
    for ch in changes:
        ch = dict(ch)
        cols = dict(ch.get("row") or ch.get("fields") or {})
        measures = dict(ch.get("measures") or {})
        for col, value in list(cols.items()):
            if (not isinstance(value, str) or measures.get(col) == "ignore" or not value.strip() or norm(value) in said
                    or (ch["table"], col) in keep):
                continue
            if col in PRESENT_COLUMNS:
                measures[col] = "present"
            elif col in FACT_COLUMNS:
                text = norm(value)
                found = sorted({v for v in values if _holds(text, norm(v))}, key=lambda v: _where(text, norm(v)) if _where(text, norm(v)) >= 0 else text.find(norm(v)))
                # a fact inside a longer fact adds nothing
                found = [v for v in found if not any(v != w and _holds(norm(w), norm(v)) for w in found)]
                if found:
                    cols[col], measures[col] = found, "facts"
                else:
                    measures[col] = "present"
        if "row" in ch:
            ch["row"] = cols
        elif "fields" in ch:
            ch["fields"] = cols
        ch["measures"] = measures
        out.append(ch)
    return out
