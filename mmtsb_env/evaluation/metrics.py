"""Run-level metrics over episode records: success rates, F1, tool recall, tokens, failure taxonomy.

Records are :class:`~mmtsb_env.runner.EpisodeRecord` objects or their JSON form. Errored episodes
(a backend/agent failure, ``record.error`` set) are counted apart and left out of every rate.

Units follow the paper: ``avg_steps`` counts the messages of *both* roles that count toward the
step cap (``Scenario.max_messages``: user and assistant messages, tool calls and results; not
environment-only entries; a record's ``steps``), ``avg_assistant_steps`` the assistant's actions
(a record's ``assistant_steps``). On UI scenarios the
``ui`` block reports Agent SR (the five criteria) apart from UI SR (the UI checks), as the paper's
Table 4 does. Tool recall (surfaced, invoked) is computed only for episodes where tool discovery
was in play (``metadata["tool_search"]``, which the runner records; else: the search tool was called).

The failure taxonomy is :mod:`.taxonomy` (the paper's Table 3 with its precedence), computed from
the verdict's own criteria.

>>> m = compute_metrics([{"scenario_id": "a", "passed": True, "entity_f1": 1.0, "steps": 4, "verdict": {"pass": True}},
...                      {"scenario_id": "b", "passed": False, "entity_f1": 0.5, "steps": 6, "error": None,
...                       "verdict": {"pass": False, "criteria": [{"criterion": "information_accuracy", "pass": False}]}},
...                      {"scenario_id": "c", "error": "backend error: timeout"}])
>>> m["agent_sr"], m["mean_entity_f1"], m["avg_assistant_steps"], m["errored"]["count"], m["failures"]["primary"]["factual_error"]
(0.5, 0.75, 5.0, 1, 1)
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping, Sequence

from .evidence import field_of
from .judge import CRITERIA
from .taxonomy import FAILURE_CLASSES, classify

BREAKDOWN_KEYS = ("flow_type", "challenge_type", "image_arrival", "image_category", "num_images")
SEARCH_TOOLS = frozenset({"api_docs_search_api_docs"})


# ---------------------------------------------------------------------------------------------
# Per-episode pieces
# ---------------------------------------------------------------------------------------------


def reference_tools(scenario: Any = None, record: Any = None) -> list[str]:
    """Tools of the reference solution: the names in the scenario rounds' ``solution`` steps."""
    if scenario is not None:
        names = [s["name"] for r in scenario.rounds for s in r.solution if isinstance(s, Mapping) and "name" in s]
        return list(dict.fromkeys(names))
    if record is not None:
        stored = field_of(record, "reference_tools")
        if stored is not None:
            return list(stored)
        meta = field_of(record, "metadata") or {}
        return list(meta.get("expected_tools", []))
    return []


def _schema_name(schema: Mapping[str, Any]) -> str | None:
    fn = schema.get("function")
    return (fn or {}).get("name") if isinstance(fn, Mapping) else schema.get("name")


def discovered_tools(call: Mapping[str, Any]) -> list[str]:
    """Tool names a tool-search call returned (empty for other calls)."""
    result = call.get("result")
    if not call.get("ok", True) or not isinstance(result, Mapping) or not isinstance(result.get("tools"), list):
        return []
    if call.get("name") not in SEARCH_TOOLS and "found" not in result:
        return []
    out = []
    for doc in result["tools"]:
        if isinstance(doc, str):
            out.append(doc)
        elif isinstance(doc, Mapping):
            name = doc.get("tool_name") or doc.get("name") or _schema_name(doc)
            if name:
                out.append(str(name))
    return out


def tool_sets(record: Any) -> dict[str, set[str]]:
    """``invoked`` (called successfully by the assistant), ``searched`` (returned by tool search)
    and ``surfaced`` (offered at the end, returned by a search, or invoked)."""
    calls = [c for c in field_of(record, "calls") or [] if c.get("seat", "assistant") == "assistant"]
    invoked = {c["name"] for c in calls if c.get("ok")}
    searched = {n for c in calls for n in discovered_tools(c)}
    offered = {n for n in (_schema_name(s) for s in field_of(record, "tools") or [] if isinstance(s, Mapping)) if n}
    return {"invoked": invoked, "searched": searched, "offered": offered, "surfaced": offered | searched | invoked}


def token_usage(record: Any) -> dict[str, int] | None:
    """Summed ``usage`` of the agent's steps (``None`` when the agent reported none)."""
    totals: dict[str, int] = defaultdict(int)
    seen = False
    for step in field_of(record, "agent_steps") or []:
        usage = step.get("usage") if isinstance(step, Mapping) else None
        if not isinstance(usage, Mapping):
            continue
        nums = {k: int(usage[k]) for k in ("prompt_tokens", "completion_tokens", "total_tokens")
                if isinstance(usage.get(k), (int, float)) and not isinstance(usage.get(k), bool)}
        if not nums:
            continue
        seen = True
        nums.setdefault("total_tokens", nums.get("prompt_tokens", 0) + nums.get("completion_tokens", 0))
        for k, v in nums.items():
            totals[k] += v
    if not seen:
        return None
    return {k: totals.get(k, 0) for k in ("prompt_tokens", "completion_tokens", "total_tokens")}


def classify_failure(verdict: Mapping[str, Any] | None, entity: Mapping[str, Any] | None = None) -> tuple[str | None, list[str]]:
    """(primary class, every class) of a failed verdict (:func:`.taxonomy.classify`; ``entity`` is
    accepted for old callers and not used: the criteria decide)."""
    return classify(verdict)


def paper_steps(record: Any) -> int:
    """Steps as the paper counts them: the log entries of both roles that count toward the step
    cap (everything but environment-only entries); the agent's action count without a log."""
    log = field_of(record, "log") or []
    if not log:
        return int(field_of(record, "steps") or 0)
    return sum(1 for e in log if list(e.get("visible_to") or [e.get("sender"), e.get("recipient")]) != ["environment"])


def discovery_on(record: Any, meta: Mapping[str, Any]) -> bool:
    """Whether tool discovery was in play: ``metadata["tool_search"]`` (recorded by the runner);
    for records without it, whether the assistant called the search tool."""
    if meta.get("tool_search") is not None:
        return bool(meta["tool_search"])
    called = {c.get("name") for c in field_of(record, "calls") or [] if c.get("seat", "assistant") == "assistant"}
    return bool(called & SEARCH_TOOLS)


def _ui_split(verdict: Mapping[str, Any]) -> tuple[bool, bool | None, bool | None]:
    """(is a UI episode, the five criteria pass, the UI checks pass)."""
    crit = verdict.get("criteria", [])
    ui = [c for c in crit if str(c.get("criterion", "")).startswith("ui_")]
    if not ui:
        return False, None, None
    core = [c for c in crit if c.get("criterion") in CRITERIA]
    return True, all(c.get("pass") for c in core), all(c.get("pass") for c in ui)


def _meta(record: Any, scenario: Any) -> dict[str, Any]:
    meta = dict(field_of(record, "metadata") or {})
    if scenario is not None:
        for k, v in scenario.metadata.items():
            meta.setdefault(k, v)
        meta.setdefault("num_images", len(scenario.images))
    return meta


def _verdict_json(v: Any) -> dict[str, Any] | None:
    if v is None:
        return None
    return v.to_json() if hasattr(v, "to_json") else dict(v)


def episode_summary(record: Any, scenario: Any = None, user_verdict: Any = None) -> dict[str, Any]:
    """The per-episode numbers the run metrics and reports use."""
    error = field_of(record, "error")
    verdict = field_of(record, "verdict") or {}
    uv = _verdict_json(user_verdict if user_verdict is not None else field_of(record, "user_verdict"))
    ref = reference_tools(scenario, record)
    sets = tool_sets(record)
    calls = [c for c in field_of(record, "calls") or [] if c.get("seat", "assistant") == "assistant"]
    primary, classes = (None, []) if error else classify(verdict)
    meta = _meta(record, scenario)
    discovery = discovery_on(record, meta)
    is_ui, core_pass, ui_pass = _ui_split(verdict)

    def recall(found: set[str]) -> float | None:
        return None if not ref or not discovery else sum(1 for t in ref if t in found) / len(ref)

    return {
        "scenario_id": field_of(record, "scenario_id"),
        "errored": error is not None,
        "error": error,
        "passed": bool(field_of(record, "passed")) and error is None,
        "entity_f1": float(field_of(record, "entity_f1") or 0.0),
        "steps": paper_steps(record),
        "assistant_steps": int(field_of(record, "assistant_steps") or field_of(record, "steps") or 0),
        "discovery": discovery,
        "ui": is_ui,
        "core_pass": None if error else core_pass,
        "ui_pass": None if error else ui_pass,
        "user_pass": None if not uv else bool(uv.get("pass")),
        "reference_tools": ref,
        "surfaced_recall": recall(sets["surfaced"]),
        "invoked_recall": recall(sets["invoked"]),
        "search_calls": sum(1 for c in calls if c.get("name") in SEARCH_TOOLS),
        "tool_calls": len(calls),
        "failed_calls": sum(1 for c in calls if not c.get("ok")),
        "tokens": token_usage(record),
        "failure": primary,
        "failure_classes": classes,
        "criteria": {c.get("criterion"): bool(c.get("pass")) for c in verdict.get("criteria", [])},
        "metadata": meta,
        "duration_s": float(field_of(record, "duration_s") or 0.0),
        "user_dynamics": dict(field_of(record, "user_dynamics") or {}),
    }


# ---------------------------------------------------------------------------------------------
# Aggregation
# ---------------------------------------------------------------------------------------------


def _mean(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return round(sum(vals) / len(vals), 6) if vals else None


def _group_values(meta: Mapping[str, Any], key: str) -> list[str]:
    if key == "image_category":
        cats = meta.get("image_categories") or []
        return [str(c) for c in (cats if isinstance(cats, list) else [cats])] or ["(none)"]
    value = meta.get(key)
    if key == "image_arrival" and isinstance(value, Mapping):  # the reference's per-round map
        value = meta.get("scenario_metadata", {}).get("image_arrival", "mapped")
    return [str(value) if value not in (None, "") else "(unset)"]


def _rates(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    scored = [r for r in rows if not r["errored"]]
    n = len(scored)
    return {
        "n": len(rows), "errored": len(rows) - n,
        "agent_sr": round(sum(r["passed"] for r in scored) / n, 6) if n else None,
        "mean_entity_f1": _mean(r["entity_f1"] for r in scored),
        "avg_steps": _mean(r["steps"] for r in scored),
        "avg_assistant_steps": _mean(r.get("assistant_steps", r["steps"]) for r in scored),
        "user_sr": _mean(float(r["user_pass"]) for r in scored if r["user_pass"] is not None),
    }


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Run metrics from :func:`episode_summary` rows."""
    scored = [r for r in rows if not r["errored"]]
    out = _rates(rows)
    out = {"episodes": out.pop("n"), **out}
    out["errored"] = {"count": len(rows) - len(scored),
                      "episodes": [{"scenario_id": r["scenario_id"], "error": (r["error"] or "")[:300]} for r in rows if r["errored"]]}
    criteria: dict[str, list[bool]] = defaultdict(list)
    for r in scored:
        for name, ok in r["criteria"].items():
            criteria[name].append(ok)
    out["criteria_pass_rates"] = {k: round(sum(v) / len(v), 6) for k, v in criteria.items()}
    ui = [r for r in scored if r.get("ui")]
    out["ui"] = None if not ui else {
        "episodes": len(ui),
        "agent_sr": _mean(float(r["core_pass"]) for r in ui),
        "ui_sr": _mean(float(r["ui_pass"]) for r in ui),
    }
    with_ref = [r for r in scored if r["reference_tools"] and r.get("discovery")]
    out["tool_recall"] = {
        "episodes": len(with_ref),
        "surfaced": _mean(r["surfaced_recall"] for r in with_ref),
        "invoked": _mean(r["invoked_recall"] for r in with_ref),
    }
    out["search_calls"] = {"total": sum(r["search_calls"] for r in scored), "mean": _mean(r["search_calls"] for r in scored)}
    tok = [r["tokens"] for r in scored if r["tokens"]]
    out["tokens"] = None if not tok else {
        "episodes_reporting": len(tok),
        **{k: sum(t.get(k, 0) for t in tok) for k in ("prompt_tokens", "completion_tokens", "total_tokens")},
        "mean_total_per_episode": round(sum(t.get("total_tokens", 0) for t in tok) / len(tok), 3),
    }
    failed = [r for r in scored if not r["passed"]]
    out["failures"] = {
        "failed": len(failed),
        "primary": {k: sum(1 for r in failed if r["failure"] == k) for k in FAILURE_CLASSES},
        "any": {k: sum(1 for r in failed if k in r["failure_classes"]) for k in FAILURE_CLASSES},
    }
    breakdowns: dict[str, dict[str, Any]] = {}
    for key in BREAKDOWN_KEYS:
        groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
        for r in rows:
            for value in _group_values(r["metadata"], key):
                groups[value].append(r)
        breakdowns[key] = {v: _rates(g) for v, g in sorted(groups.items(), key=lambda kv: _sort_key(kv[0]))}
    out["breakdowns"] = breakdowns
    out["duration_s"] = round(sum(r["duration_s"] for r in rows), 3)
    out["user_dynamics"] = _user_dynamics([r for r in scored if r.get("user_dynamics")])
    return out


def _user_dynamics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """How the user reacted (docs/users.md): mean moves per episode and the give-up rate."""
    if not rows:
        return None
    dyn = [r["user_dynamics"] for r in rows]
    out: dict[str, Any] = {"episodes": len(dyn)}
    for key in ("nudges", "redirects", "confirmations"):
        out[f"mean_{key}"] = _mean(float(d.get(key, 0)) for d in dyn)
    out["give_up_rate"] = _mean(float(bool(d.get("gave_up"))) for d in dyn)
    return out


def _sort_key(value: str) -> tuple[int, Any]:
    try:
        return (0, float(value))
    except ValueError:
        return (1, value)


def compute_metrics(records: Sequence[Any], scenarios: Mapping[str, Any] | Sequence[Any] | None = None,
                    user_verdicts: Sequence[Any] | None = None) -> dict[str, Any]:
    """Agent SR, mean entity F1, average steps (both roles, and the agent's), User SR, UI SR apart
    from Agent SR on UI scenarios, tool recall where discovery was on, search calls, tokens,
    failure taxonomy and breakdowns by flow/challenge/arrival/image category/number of images.

    ``scenarios`` (by id, or a list) supplies reference tools and metadata; ``user_verdicts``
    (parallel to ``records``) the user-judge verdicts when records do not carry them.
    """
    by_id = scenarios if isinstance(scenarios, Mapping) else {s.id: s for s in scenarios or []}
    rows = [episode_summary(r, by_id.get(field_of(r, "scenario_id")), user_verdicts[i] if user_verdicts else None)
            for i, r in enumerate(records)]
    return summarize(rows)
