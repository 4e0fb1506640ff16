"""Scenario format v1: a task with structured rounds, images, expected changes and metadata.

Scenarios are plain JSON (see ``docs/scenario_format.md``); :func:`Scenario.from_dict` checks
every field and reports ``<source>: <field path>: <reason>`` for anything wrong.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from ..world.clock import parse_datetime

FORMAT_VERSION = 1
ROUND_KINDS = ("task", "goal_change", "correction", "state_mutation")
OPERATIONS = ("create", "update", "delete")
METADATA_KEYS = ("flow_type", "challenge_type", "image_arrival", "image_categories", "num_images", "num_rounds", "domains")


class ScenarioError(ValueError):
    """A scenario file or dict is invalid; the message names the field and the reason."""


def _need(cond: bool, path: str, reason: str) -> None:
    if not cond:
        raise ScenarioError(f"{path}: {reason}")


@dataclass(frozen=True)
class Clarification:
    """An answer the user gives when the assistant asks about something (keywords trigger it)."""

    answer: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class StateChange:
    """A change the user makes to the world themselves before speaking (state mutation)."""

    op: str  # insert | update | delete
    table: str
    row: dict[str, Any] | None = None  # insert
    key: Any = None  # update / delete
    fields: dict[str, Any] | None = None  # update


# rules comparing the values the options show (:data:`mmtsb_env.ui.choice.VALUE_RULES` reads them)
UI_VALUE_RULES = ("cheapest", "most_expensive", "earliest", "latest", "closes_earliest", "closes_latest",
                  "lowest_value", "highest_value")
UI_PICK_RULES = ("label_contains", "labels_contain", "every", "approve", *UI_VALUE_RULES)


@dataclass(frozen=True)
class UIDecision:
    """How the user decides through a screen the assistant shows in a UI round.

    Exactly one of ``choose`` (a fixed element: ``component_id``, optional ``surface_id``,
    ``action_name``, ``field_values``) or ``pick`` (a rule over the shown elements: one of
    ``{"label_contains": text}``, ``{"labels_contain": [text, ...]}`` -- every option holding one
    of the texts, chosen at once (several options of a multiple-choice field, or checkboxes, then
    the submit button) --, ``{"every": condition}`` -- every option whose shown text meets the
    condition, chosen at once the same way: ``{"says": word}`` (the option says it: "the pink
    ones"; a list of words: any of them), ``{"above": n}`` or ``{"below": n}`` (the number the option shows, next to the words
    ``"of"`` when given: "the ones published after 2010") --, a value rule over what the options show (``{"cheapest": true}``,
    ``{"most_expensive": true}``, ``earliest``/``latest`` date and time, ``closes_earliest``/
    ``closes_latest`` opening hours, ``lowest_value``/``highest_value`` number),
    ``{"approve": true}`` -- press the screen's one confirming button -- optionally with
    ``"action": name`` to consider only buttons with that action). ``fill`` gives field values
    by field label (substring), component id or data path; ``expect`` lists texts the screen's
    interactive elements must show (labels, descriptions, options); ``criterion`` is the rubric line
    for this round's UI.
    """

    criterion: str = ""
    choose: dict[str, Any] | None = None
    pick: dict[str, Any] | None = None
    fill: dict[str, Any] = field(default_factory=dict)
    expect: tuple[str, ...] = ()


GUIDANCE_EXPECTS = ("done", "number", "date", "time", "text")
PERMISSION_ANSWERS = ("grant", "refuse")


@dataclass(frozen=True)
class WrongClaim:
    """Error correction: the round's query states something wrong about an image ("the $48 one").

    The user cannot see the image, so it says the wrong thing as scripted; when the assistant
    points out that the image shows otherwise (naming the claim: ``text`` or one of ``keywords``),
    the user confirms with ``confirm``, once.
    """

    text: str  # the wrong words as the query says them; must occur in the query
    confirm: str  # the user's reply once the assistant flags the discrepancy
    keywords: tuple[str, ...] = ()  # other ways a reply may name the claim ("48", "forty-eight")


@dataclass(frozen=True)
class Guidance:
    """The supervisor's private guidance for one round (never shown to the assistant).

    Both built-in users follow the structured parts; an LLM user also reads ``ask`` and the
    round's free-text ``instructions`` in its private prompt (its replies are filtered so neither
    reaches the conversation).
    """

    ask: str = ""  # what the round is after, in the user's terms (no image values)
    expects: tuple[str, ...] = ()  # what a reply must give to move on (GUIDANCE_EXPECTS); () = inferred
    on_question: str = ""  # reply to a question the script has no answer for ("" = the default)
    permission: str = "grant"  # a permission question is answered: grant | refuse
    permission_reply: str = ""  # the words of that answer ("" = the default for grant/refuse)
    hold_images: tuple[int, ...] = ()  # this round's images sent with the user's second message of the round
    images_message: str = ""  # the words sent with the held images ("" = the default)


@dataclass(frozen=True)
class Round:
    """One user turn of the script, with the oracle's solution for it."""

    query: str
    image_ids: tuple[int, ...] = ()
    instructions: str = ""
    kind: str = "task"
    clarifications: tuple[Clarification, ...] = ()
    state_changes: tuple[StateChange, ...] = ()
    # Oracle steps: {"name": tool, "arguments": {...}} or {"say": "question to the user"}.
    solution: tuple[dict[str, Any], ...] = ()
    # The oracle's closing message for the round (should state the facts the user asked for).
    answer: str = ""
    # UI mode: the user makes this round's decision through a screen the assistant shows.
    ui: UIDecision | None = None
    # Facts the assistant's reply must state for this round ("tell me which...", "how much...").
    # Empty: the round asks only for an action, and the artifact in the world answers it.
    report: tuple[str, ...] = ()
    # The supervisor's private guidance for the round (structured; see Guidance).
    guidance: Guidance = field(default_factory=Guidance)
    # Error correction: a wrong claim the query makes about an image, and the user's confirmation.
    wrong_claim: WrongClaim | None = None


@dataclass(frozen=True)
class ExpectedChange:
    """One expected entity change: create a row, update fields of a row, or delete a row."""

    operation: str
    table: str
    row: dict[str, Any] | None = None  # create: the expected row (columns to compare)
    key: Any = None  # update / delete: primary key value
    fields: dict[str, Any] | None = None  # update: expected new values
    measures: dict[str, str] = field(default_factory=dict)  # column -> similarity measure name


@dataclass(frozen=True)
class ImageSpec:
    """An image of the scenario: a file path or a render spec drawn procedurally."""

    render: dict[str, Any] | None = None
    path: str | None = None
    category: str = ""
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    id: str
    rounds: tuple[Round, ...]
    images: tuple[ImageSpec, ...] = ()
    expected_changes: tuple[ExpectedChange, ...] = ()
    reference_time: str = "2026-04-16T09:00:00+00:00"
    user_id: int = 1
    initial_entities: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    domains: tuple[str, ...] = ()
    description: str = ""
    completion_criteria: str = ""
    facts: tuple[str, ...] = ()  # strings the assistant's messages to the user must contain
    metadata: dict[str, Any] = field(default_factory=dict)
    max_messages: int = 100
    ui: bool = False
    world_seed: int = 0

    @property
    def now(self) -> datetime:
        return parse_datetime(self.reference_time)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (lists, not tuples) that :meth:`from_dict` reads back unchanged."""
        data = json.loads(json.dumps(asdict(self)))
        data["format_version"] = FORMAT_VERSION
        return data

    # ------------------------------------------------------------------ parsing
    @classmethod
    def from_dict(cls, data: Any, source: str = "scenario") -> "Scenario":
        _need(isinstance(data, dict), source, "must be a JSON object")
        version = data.get("format_version", FORMAT_VERSION)
        _need(version == FORMAT_VERSION, f"{source}: format_version", f"unsupported version {version!r} (this build reads {FORMAT_VERSION})")
        known = set(cls.__dataclass_fields__) | {"format_version"}
        unknown = sorted(set(data) - known)
        _need(not unknown, source, f"unknown field(s) {unknown}")
        sid = data.get("id")
        _need(isinstance(sid, str) and sid.strip() != "", f"{source}: id", "must be a non-empty string")
        where = f"{source} ({sid})"
        images = tuple(_image(x, f"{where}: images[{i}]") for i, x in enumerate(data.get("images", [])))
        rounds_raw = data.get("rounds")
        _need(isinstance(rounds_raw, list) and rounds_raw, f"{where}: rounds", "must be a non-empty list")
        rounds = tuple(_round(r, f"{where}: rounds[{i}]", len(images)) for i, r in enumerate(rounds_raw))
        changes = tuple(_change(c, f"{where}: expected_changes[{i}]") for i, c in enumerate(data.get("expected_changes", [])))
        ref = data.get("reference_time", cls.reference_time)
        try:
            parse_datetime(ref)
        except ValueError as exc:
            raise ScenarioError(f"{where}: reference_time: {exc}") from None
        entities = data.get("initial_entities", {})
        _need(isinstance(entities, dict), f"{where}: initial_entities", "must map table names to lists of rows")
        for table, rows in entities.items():
            _need(isinstance(rows, list) and all(isinstance(r, dict) for r in rows), f"{where}: initial_entities.{table}", "must be a list of row objects")
        metadata = data.get("metadata", {})
        _need(isinstance(metadata, dict), f"{where}: metadata", "must be an object")
        max_messages = data.get("max_messages", 100)
        _need(isinstance(max_messages, int) and max_messages >= 4, f"{where}: max_messages", "must be an integer >= 4")
        return cls(
            id=sid,
            rounds=rounds,
            images=images,
            expected_changes=changes,
            reference_time=ref,
            user_id=int(data.get("user_id", 1)),
            initial_entities=entities,
            domains=tuple(data.get("domains", ())),
            description=str(data.get("description", "")),
            completion_criteria=str(data.get("completion_criteria", "")),
            facts=tuple(str(f) for f in data.get("facts", ())),
            metadata=metadata,
            max_messages=max_messages,
            ui=bool(data.get("ui", False)),
            world_seed=int(data.get("world_seed", 0)),
        )


def _image(x: Any, path: str) -> ImageSpec:
    _need(isinstance(x, dict), path, "must be an object with 'render' or 'path'")
    render, file = x.get("render"), x.get("path")
    _need((render is None) != (file is None), path, "give exactly one of 'render' (a render spec) or 'path' (a file)")
    if render is not None:
        _need(isinstance(render, dict) and isinstance(render.get("kind"), str), f"{path}.render", "must be an object with a 'kind'")
    return ImageSpec(render=render, path=file, category=str(x.get("category", "")), facts=dict(x.get("facts", {})))


def _round(r: Any, path: str, n_images: int) -> Round:
    _need(isinstance(r, dict), path, "must be an object")
    query = r.get("query")
    _need(isinstance(query, str) and query.strip() != "", f"{path}.query", "must be a non-empty string")
    ids = r.get("image_ids", [])
    _need(isinstance(ids, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in ids), f"{path}.image_ids", "must be a list of integers")
    bad = [i for i in ids if not 0 <= i < n_images]
    _need(not bad, f"{path}.image_ids", f"id(s) {bad} out of range: the scenario has {n_images} image(s), ids 0..{n_images - 1}")
    kind = r.get("kind", "task")
    _need(kind in ROUND_KINDS, f"{path}.kind", f"must be one of {ROUND_KINDS}, got {kind!r}")
    clar = []
    for j, c in enumerate(r.get("clarifications", [])):
        _need(isinstance(c, dict) and isinstance(c.get("answer"), str), f"{path}.clarifications[{j}]", "needs an 'answer' string")
        clar.append(Clarification(answer=c["answer"], keywords=tuple(c.get("keywords", ()))))
    changes = []
    for j, s in enumerate(r.get("state_changes", [])):
        p = f"{path}.state_changes[{j}]"
        _need(isinstance(s, dict) and s.get("op") in ("insert", "update", "delete"), p, "needs 'op' in insert/update/delete")
        _need(isinstance(s.get("table"), str), p, "needs a 'table'")
        changes.append(StateChange(op=s["op"], table=s["table"], row=s.get("row"), key=s.get("key"), fields=s.get("fields")))
    solution = r.get("solution", [])
    _need(isinstance(solution, list), f"{path}.solution", "must be a list of steps")
    for j, step in enumerate(solution):
        ok = isinstance(step, dict) and (("name" in step and isinstance(step.get("arguments", {}), dict)) or isinstance(step.get("say"), str))
        _need(ok, f"{path}.solution[{j}]", 'must be {"name": tool, "arguments": {...}} or {"say": text}')
    return Round(
        query=query, image_ids=tuple(ids), instructions=str(r.get("instructions", "")), kind=kind,
        clarifications=tuple(clar), state_changes=tuple(changes), solution=tuple(solution),
        answer=str(r.get("answer", "")), ui=_ui_decision(r.get("ui"), f"{path}.ui"),
        report=_report(r.get("report", []), f"{path}.report"),
        guidance=_guidance(r.get("guidance"), f"{path}.guidance", tuple(ids)),
        wrong_claim=_wrong_claim(r.get("wrong_claim"), f"{path}.wrong_claim", query),
    )


def _strings(x: Any, path: str) -> tuple[str, ...]:
    _need(isinstance(x, list) and all(isinstance(v, str) and v.strip() for v in x), path, "must be a list of non-empty strings")
    return tuple(x)


def _guidance(g: Any, path: str, image_ids: tuple[int, ...]) -> Guidance:
    if g is None:
        return Guidance()
    _need(isinstance(g, dict), path, "must be an object")
    unknown = sorted(set(g) - set(Guidance.__dataclass_fields__))
    _need(not unknown, path, f"unknown field(s) {unknown}; valid: {sorted(Guidance.__dataclass_fields__)}")
    for key in ("ask", "on_question", "permission_reply", "images_message"):
        _need(isinstance(g.get(key, ""), str), f"{path}.{key}", "must be a string")
    expects = _strings(g.get("expects", []), f"{path}.expects")
    bad = [e for e in expects if e not in GUIDANCE_EXPECTS]
    _need(not bad, f"{path}.expects", f"unknown kind(s) {bad}; valid: {GUIDANCE_EXPECTS}")
    permission = g.get("permission", "grant")
    _need(permission in PERMISSION_ANSWERS, f"{path}.permission", f"must be one of {PERMISSION_ANSWERS}, got {permission!r}")
    hold = g.get("hold_images", [])
    _need(isinstance(hold, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in hold),
          f"{path}.hold_images", "must be a list of integers")
    stray = [i for i in hold if i not in image_ids]
    _need(not stray, f"{path}.hold_images", f"id(s) {stray} are not among the round's image_ids {list(image_ids)}")
    return Guidance(ask=g.get("ask", ""), expects=expects, on_question=g.get("on_question", ""), permission=permission,
                    permission_reply=g.get("permission_reply", ""), hold_images=tuple(hold),
                    images_message=g.get("images_message", ""))


def _wrong_claim(w: Any, path: str, query: str) -> WrongClaim | None:
    if w is None:
        return None
    _need(isinstance(w, dict), path, "must be an object with 'text' and 'confirm'")
    unknown = sorted(set(w) - {"text", "confirm", "keywords"})
    _need(not unknown, path, f"unknown field(s) {unknown}; valid: ['confirm', 'keywords', 'text']")
    text, confirm = w.get("text"), w.get("confirm")
    _need(isinstance(text, str) and text.strip() != "", f"{path}.text", "must be a non-empty string")
    _need(text.lower() in query.lower(), f"{path}.text", f"{text!r} must occur in the round's query")
    _need(isinstance(confirm, str) and confirm.strip() != "", f"{path}.confirm", "must be a non-empty string")
    return WrongClaim(text=text, confirm=confirm, keywords=_strings(w.get("keywords", []), f"{path}.keywords"))


def _report(x: Any, path: str) -> tuple[str, ...]:
    ok = isinstance(x, list) and all(isinstance(f, (str, int, float)) and not isinstance(f, bool) and str(f).strip() for f in x)
    _need(ok, path, "must be a list of non-empty strings (or numbers): the facts the reply must state")
    return tuple(str(f) for f in x)


def _ui_decision(u: Any, path: str) -> UIDecision | None:
    if u is None:
        return None
    _need(isinstance(u, dict), path, "must be an object with 'choose' or 'pick'")
    unknown = sorted(set(u) - {"criterion", "choose", "pick", "fill", "expect"})
    _need(not unknown, path, f"unknown field(s) {unknown}")
    choose, pick = u.get("choose"), u.get("pick")
    _need((choose is None) != (pick is None), path, "give exactly one of 'choose' (a fixed element) or 'pick' (a rule)")
    if choose is not None:
        _need(isinstance(choose, dict) and isinstance(choose.get("component_id"), str) and choose["component_id"],
              f"{path}.choose", "needs a 'component_id' string")
        bad = sorted(set(choose) - {"component_id", "surface_id", "action_name", "field_values"})
        _need(not bad, f"{path}.choose", f"unknown field(s) {bad}")
        for key in ("surface_id", "action_name"):
            _need(choose.get(key) is None or isinstance(choose[key], str), f"{path}.choose.{key}", "must be a string")
        _need(isinstance(choose.get("field_values", {}), dict), f"{path}.choose.field_values", "must be an object")
    if pick is not None:
        _need(isinstance(pick, dict), f"{path}.pick", f"must be an object with one rule of {UI_PICK_RULES}")
        rules = [k for k in pick if k in UI_PICK_RULES]
        _need(len(rules) == 1, f"{path}.pick", f"needs exactly one rule of {UI_PICK_RULES}, got {sorted(pick)}")
        bad = sorted(set(pick) - set(UI_PICK_RULES) - {"action"})
        _need(not bad, f"{path}.pick", f"unknown field(s) {bad}")
        if rules[0] == "label_contains":
            _need(isinstance(pick["label_contains"], str) and pick["label_contains"].strip() != "",
                  f"{path}.pick.label_contains", "must be a non-empty string")
        elif rules[0] == "labels_contain":
            texts = pick["labels_contain"]
            _need(isinstance(texts, list) and len(texts) >= 2 and all(isinstance(t, str) and t.strip() for t in texts),
                  f"{path}.pick.labels_contain", "must be a list of two or more non-empty strings")
        elif rules[0] == "every":
            cond = pick["every"]
            kinds = [k for k in ("says", "above", "below") if isinstance(cond, dict) and k in cond]
            _need(isinstance(cond, dict) and len(kinds) == 1 and not set(cond) - {"says", "above", "below", "of"},
                  f"{path}.pick.every", "must be an object with one of 'says' (a word, or a list of words), 'above' or "
                  "'below' (a number), and optionally 'of' (the words the number stands next to)")
            value = cond[kinds[0]]
            words = value if isinstance(value, list) and value else [value]
            _need(all(isinstance(w, str) and w.strip() != "" for w in words) if kinds[0] == "says"
                  else isinstance(value, (int, float)) and not isinstance(value, bool),
                  f"{path}.pick.every.{kinds[0]}",
                  "must be a non-empty word or a non-empty list of them" if kinds[0] == "says" else "must be a number")
            _need(cond.get("of") is None or isinstance(cond["of"], str), f"{path}.pick.every.of", "must be a string")
        else:
            _need(pick[rules[0]] is True, f"{path}.pick.{rules[0]}", "must be true")
        _need(pick.get("action") is None or isinstance(pick["action"], str), f"{path}.pick.action", "must be a string")
    fill = u.get("fill") or {}
    _need(isinstance(fill, dict), f"{path}.fill", "must map field labels (or ids/paths) to values")
    expect = u.get("expect") or []
    _need(isinstance(expect, list) and all(isinstance(x, str) for x in expect), f"{path}.expect", "must be a list of strings")
    return UIDecision(criterion=str(u.get("criterion", "")), choose=dict(choose) if choose else None,
                      pick=dict(pick) if pick else None, fill=dict(fill), expect=tuple(expect))


def _change(c: Any, path: str) -> ExpectedChange:
    _need(isinstance(c, dict), path, "must be an object")
    op = c.get("operation")
    _need(op in OPERATIONS, f"{path}.operation", f"must be one of {OPERATIONS}, got {op!r}")
    _need(isinstance(c.get("table"), str), f"{path}.table", "must be a table name such as 'simple_note.notes'")
    if op == "create":
        _need(isinstance(c.get("row"), dict) and c["row"], f"{path}.row", "a create needs the expected row")
    else:
        _need(c.get("key") is not None, f"{path}.key", f"an {op} needs the row's key")
    if op == "update":
        _need(isinstance(c.get("fields"), dict) and c["fields"], f"{path}.fields", "an update needs expected fields")
    measures = c.get("measures", {})
    _need(isinstance(measures, dict), f"{path}.measures", "must map columns to measure names")
    return ExpectedChange(operation=op, table=c["table"], row=c.get("row"), key=c.get("key"), fields=c.get("fields"), measures=dict(measures))
