"""Judge evidence rebuilt from a finished episode's record (re-scoring offline, ``mmtsb eval --judge``).

Records are :class:`~mmtsb_env.runner.EpisodeRecord` objects or their JSON form (a ``results.json``
episode, where images may be base64 PNG strings). With the scenario at hand the entity score is
recomputed from the recorded diff, so old runs are judged by the current evaluator.
"""

from __future__ import annotations

import base64
from dataclasses import asdict
from typing import Any, Callable

from .entity_diff import EntityScore, ScoringConfig, score_changes
from .grounding import image_facts, scenario_grounds
from .judge import Evidence, action_rounds


def field_of(record: Any, name: str, default: Any = None) -> Any:
    """``record.name`` for a dataclass record, ``record[name]`` for its JSON form."""
    if isinstance(record, dict):
        return record.get(name, default)
    return getattr(record, name, default)


def image_png(record: Any, image_id: int) -> bytes | None:
    """PNG bytes of one image of a record (``images`` holds bytes or base64 text), or ``None``."""
    images = field_of(record, "images") or []
    if not 0 <= image_id < len(images):
        return None
    data = images[image_id]
    if isinstance(data, str):
        if data.startswith("data:"):
            data = data.split(",", 1)[1]
        return base64.b64decode(data)
    return bytes(data)


def image_data_url(record: Any, image_id: int) -> str | None:
    png = image_png(record, image_id)
    return None if png is None else "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _url_loader(record: Any) -> Callable[[int], str] | None:
    if not field_of(record, "images"):
        return None

    def load(image_id: int) -> str:
        url = image_data_url(record, image_id)
        if url is None:
            raise KeyError(f"image {image_id} is not in the record")
        return url

    return load


def rounds_reached(log: list[dict[str, Any]]) -> int:
    """How many scripted rounds the user reached, from the log's ``round_index`` fields."""
    seen = [e.get("round_index") for e in log if e.get("round_index") is not None]
    return (max(seen) + 1) if seen else 0


def _metadata(record: Any, scenario: Any) -> dict[str, Any]:
    """The record's metadata, with the scenario's read tolerances when the scenario is at hand."""
    meta = dict(field_of(record, "metadata") or {})
    if scenario is not None and scenario.metadata.get("value_tolerances"):
        meta["value_tolerances"] = dict(scenario.metadata["value_tolerances"])
    return meta


def evidence_from_record(record: Any, scenario: Any = None) -> Evidence:
    """:class:`Evidence` of a recorded episode (``scenario`` adds facts, per-round reports, rounds
    and expectations)."""
    log = list(field_of(record, "log") or [])
    calls = list(field_of(record, "calls") or [])
    diff = dict(field_of(record, "diff") or {})
    if scenario is not None:
        expected = [asdict(c) for c in scenario.expected_changes]
        scope = (field_of(record, "metadata") or {}).get("entity_scope", "all")
        entity = score_changes(scenario.expected_changes, diff, config=ScoringConfig.for_scenario(scenario, scope=scope))
        facts, n_rounds = list(scenario.facts), len(scenario.rounds)
        reports = [list(r.report) for r in scenario.rounds]
        actions = action_rounds(scenario)
        grounds, shown = scenario_grounds(scenario), image_facts(scenario)
        answers = [r.answer for r in scenario.rounds]
        criteria, description = scenario.completion_criteria, scenario.description
    else:
        expected = list(field_of(record, "expected_changes") or [])
        entity = EntityScore.from_json(field_of(record, "entity") or {})
        facts = list(field_of(record, "facts") or [])
        reports = [list(r) for r in field_of(record, "reports") or []]
        actions = [bool(x) for x in field_of(record, "action_rounds") or []]
        grounds = [str(x) for x in field_of(record, "grounds") or []]
        shown = [dict(x) for x in field_of(record, "image_facts") or []]
        answers = [str(x) for x in field_of(record, "answers") or []]
        meta = field_of(record, "metadata") or {}
        n_rounds = int(field_of(record, "n_rounds") or meta.get("num_rounds") or rounds_reached(log))
        criteria, description = str(field_of(record, "completion_criteria") or ""), ""
    assistant_calls = [c for c in calls if c.get("seat") == "assistant"]
    sources = list(field_of(record, "image_sources") or [])
    return Evidence(
        scenario_id=str(field_of(record, "scenario_id")),
        entity=entity,
        assistant_messages=[e.get("content", "") for e in log if e.get("sender") == "assistant" and e.get("kind") in ("message", "notice")],
        facts=facts,
        n_rounds=n_rounds,
        rounds_delivered=rounds_reached(log),
        ended_by_user=bool(field_of(record, "terminated")),
        truncated=bool(field_of(record, "truncated")),
        n_tool_calls=len(assistant_calls),
        n_failed_calls=sum(1 for c in assistant_calls if not c.get("ok", True)),
        n_invalid_actions=sum(1 for e in log if e.get("kind") == "error" and e.get("recipient") == "assistant"),
        calls=calls,
        completion_criteria=criteria,
        expected_changes=expected,
        diff=diff,
        conversation=log,
        image_ids=list(range(len(sources) or len(field_of(record, "images") or []))),
        image_sources=sources,
        metadata=_metadata(record, scenario),
        description=description,
        image_url=_url_loader(record),
        reports=reports,
        action_rounds=actions,
        grounds=grounds,
        image_facts=shown,
        answers=answers,
    )
