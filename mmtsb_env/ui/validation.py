"""Parse and validate UI messages, with errors an agent can act on.

Every problem is an :class:`Issue` naming the message, the surface, the component (id and type),
the JSON path inside ``ui_json`` and the reason. All problems of a call are reported together.

Plain values are accepted where the protocol wants a bound value (``"Hi"`` for
``{"literalString": "Hi"}``, ``5`` for ``{"literalNumber": 5}``, ...), and a plain list of ids for
``{"explicitList": [...]}``; they are normalised before the schema check.

>>> msgs = parse_ui_json('{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "t", "component": {"Text": {"text": "Hi"}}}]}}')
>>> validate_messages(msgs)[0]["surfaceUpdate"]["components"][0]["component"]["Text"]["text"]
{'literalString': 'Hi'}
>>> bad = [{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "b", "component": {"Button": {"child": "t"}}}]}}]
>>> try:
...     validate_messages(bad)
... except UIValidationError as exc:
...     print(exc.issues[0])
message 0 (surfaceUpdate, surface 's'), component 'b' (Button) at $[0].surfaceUpdate.components[0].component.Button: 'action' is a required property
"""

from __future__ import annotations

import copy
import difflib
import functools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

from ..tools.errors import InvalidArgument
from .schema import (
    BOUND_ARRAY, BOUND_BOOLEAN, BOUND_NUMBER, BOUND_STRING, BOUND_VALUE, CLIENT_TO_SERVER_SCHEMA,
    COMPONENT_SCHEMAS, COMPONENT_TYPES, MESSAGE_SCHEMA, MESSAGE_TYPES, UNSUPPORTED_TYPES,
)

MAX_MESSAGES = 50
MAX_COMPONENTS = 400
MAX_ISSUES = 12

if TYPE_CHECKING:
    import jsonschema


@functools.cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    """The validator of the envelope, the client message or one component type (jsonschema is
    imported on the first validation, not with the package)."""
    import jsonschema

    schema = {"$envelope": MESSAGE_SCHEMA, "$client": CLIENT_TO_SERVER_SCHEMA}.get(name) or COMPONENT_SCHEMAS[name]
    return jsonschema.Draft202012Validator(schema)


_KIND_OF = {id(BOUND_STRING): "String", id(BOUND_NUMBER): "Number", id(BOUND_BOOLEAN): "Boolean",
            id(BOUND_ARRAY): "Array", id(BOUND_VALUE): "any"}
# component type -> {property: literal kind} for the properties that hold bound values
BOUND_PROPS: dict[str, dict[str, str]] = {
    name: {p: _KIND_OF[id(s)] for p, s in schema["properties"].items() if id(s) in _KIND_OF}
    for name, schema in COMPONENT_SCHEMAS.items()
}


@dataclass(frozen=True)
class Issue:
    """One problem in ``ui_json``."""

    message_index: int | None
    reason: str
    path: str = "$"
    message_type: str | None = None
    surface_id: str | None = None
    component_id: str | None = None
    component_type: str | None = None

    def __str__(self) -> str:
        where = []
        if self.message_index is not None:
            head = f"message {self.message_index}"
            bits = [b for b in (self.message_type, f"surface {self.surface_id!r}" if self.surface_id else None) if b]
            where.append(head + (f" ({', '.join(bits)})" if bits else ""))
        elif self.surface_id:
            where.append(f"surface {self.surface_id!r}")
        if self.component_id is not None:
            where.append(f"component {self.component_id!r}" + (f" ({self.component_type})" if self.component_type else ""))
        return f"{', '.join(where) or 'ui_json'} at {self.path}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return {"message_index": self.message_index, "message_type": self.message_type, "surface_id": self.surface_id,
                "component_id": self.component_id, "component_type": self.component_type, "path": self.path,
                "reason": self.reason}


class UIValidationError(InvalidArgument):
    """``ui_json`` (or a user action) is invalid; ``issues`` lists every problem found."""

    def __init__(self, issues: Iterable[Issue], headline: str = "ui_json is invalid") -> None:
        self.issues = list(issues)
        shown = self.issues[:MAX_ISSUES]
        lines = [f"{headline}: {len(self.issues)} problem(s); nothing was changed or rendered."]
        lines += [f"{i + 1}. {issue}" for i, issue in enumerate(shown)]
        if len(self.issues) > len(shown):
            lines.append(f"... and {len(self.issues) - len(shown)} more")
        lines.append("Fix these and call render_ui_screen again (ui_get_quick_start shows the message format).")
        super().__init__("\n".join(lines))


# ---------------------------------------------------------------------------------- parsing
def parse_ui_json(ui_json: Any) -> list[dict[str, Any]]:
    """The list of messages in ``ui_json``: a list, one message object, ``{"messages": [...]}``,
    or the JSON text of any of those (also one message per line)."""
    value = ui_json
    if isinstance(value, (bytes, bytearray)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise UIValidationError([Issue(None, "ui_json is empty; give a list of UI messages")])
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            lines = [ln for ln in text.splitlines() if ln.strip()]
            try:
                value = [json.loads(ln) for ln in lines] if len(lines) > 1 else None
            except json.JSONDecodeError:
                value = None
            if value is None:
                raise UIValidationError([Issue(None, f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")]) from None
    if isinstance(value, dict) and set(value) == {"messages"}:
        value = value["messages"]
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise UIValidationError([Issue(None, f"ui_json must be a list of UI messages (or one message object), got {type(value).__name__}")])
    if not value:
        raise UIValidationError([Issue(None, "ui_json has no messages; send at least a surfaceUpdate and a beginRendering")])
    if len(value) > MAX_MESSAGES:
        raise UIValidationError([Issue(None, f"too many messages ({len(value)}); the limit is {MAX_MESSAGES} per call")])
    return value


# ---------------------------------------------------------------------------------- normalising
def _literal(kind: str, value: Any) -> Any:
    """Wrap a plain value of the right type as a literal; anything else is left for the schema to reject."""
    if isinstance(value, dict) or value is None:
        return value
    if isinstance(value, bool):
        return {"literalBoolean": value} if kind in ("Boolean", "any") else value
    if isinstance(value, (int, float)):
        if kind in ("Number", "any"):
            return {"literalNumber": value}
        return {"literalString": _num_text(value)} if kind == "String" else value
    if isinstance(value, str):
        return {"literalString": value} if kind in ("String", "any") else value
    if isinstance(value, list) and kind in ("Array", "any") and all(isinstance(v, str) for v in value):
        return {"literalArray": list(value)}
    return value


def _num_text(value: float) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def normalise_component(ctype: str, props: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``props`` with shorthand values expanded (see the module docstring)."""
    props = copy.deepcopy(props)
    for prop, kind in BOUND_PROPS.get(ctype, {}).items():
        if prop in props:
            props[prop] = _literal(kind, props[prop])
    if isinstance(props.get("children"), list):
        props["children"] = {"explicitList": props["children"]}
    if ctype == "MultipleChoice" and isinstance(props.get("options"), list):
        props["options"] = [
            {**o, "label": _literal("String", o["label"])} if isinstance(o, dict) and "label" in o else o
            for o in props["options"]
        ]
    if ctype == "Button" and isinstance(props.get("action"), dict):
        action = props["action"]
        if isinstance(action.get("context"), dict):  # {"key": value} shorthand
            action["context"] = [{"key": k, "value": v} for k, v in action["context"].items()]
        if isinstance(action.get("context"), list):
            action["context"] = [
                {**c, "value": _literal("any", c["value"])} if isinstance(c, dict) and "value" in c else c
                for c in action["context"]
            ]
    return props


# ---------------------------------------------------------------------------------- checking
def _jpath(base: str, parts: Iterable[Any]) -> str:
    out = base
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _reason(error: jsonschema.ValidationError) -> str:
    v = error.validator
    inst = error.instance
    if v == "anyOf" and isinstance(inst, dict) and "url" not in inst and "image_id" not in inst:
        return "an Image needs 'url' ({\"literalString\": \"IMAGE_URL_1\"} or a path) or 'image_id'"
    if v == "type":
        if "description" in error.schema and "path" in error.schema.get("properties", {}):
            return f"expected {error.schema['description']}; got {_short(inst)}"
        return f"{_short(inst)} is not of type {error.validator_value!r}"
    if v == "enum":
        return f"{_short(inst)} is not one of {error.validator_value}"
    if v in ("minProperties", "maxProperties") and isinstance(inst, dict):
        if "literalString" in str(error.schema) or "path" in error.schema.get("properties", {}):
            if v == "minProperties":
                return "a bound value needs a literal (e.g. {\"literalString\": \"...\"}) or a {\"path\": \"/...\"}"
        if "explicitList" in error.schema.get("properties", {}):
            return "children must be {\"explicitList\": [ids]} or {\"template\": {\"componentId\", \"dataBinding\"}}, not both"
        if "valueString" in error.schema.get("properties", {}):
            return "a data entry needs 'key' and exactly one of valueString, valueNumber, valueBoolean, valueMap"
    if v == "pattern":
        return f"{_short(inst)} does not match {error.validator_value!r}"
    return error.message if len(error.message) < 200 else error.message[:197] + "..."


def _schema_issues(validator: jsonschema.protocols.Validator, instance: Any, base: str, **where: Any) -> list[Issue]:
    issues = []
    for error in sorted(validator.iter_errors(instance), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        issues.append(Issue(reason=_reason(error), path=_jpath(base, error.absolute_path), **where))
    return issues


def _check_component(index: int, ci: int, inst: dict[str, Any], surface: Any, issues: list[Issue]) -> dict[str, Any]:
    """Validate one component instance; returns it normalised."""
    base = f"$[{index}].surfaceUpdate.components[{ci}]"
    cid = inst.get("id") if isinstance(inst.get("id"), str) else None
    where = dict(message_index=index, message_type="surfaceUpdate", surface_id=surface, component_id=cid)
    if not isinstance(inst.get("component"), dict):
        stray = [k for k in inst if k in COMPONENT_TYPES]
        if stray:  # the envelope check already reported the missing key; add how to fix it
            issues.append(Issue(reason=f"wrap the properties as {{\"id\": ..., \"component\": {{\"{stray[0]}\": {{...}}}}}}",
                                path=base, **where))
        return inst
    if len(inst["component"]) != 1:
        keys = sorted(inst["component"])
        issues.append(Issue(reason=f"'component' must have exactly one type key, got {keys}", path=base + ".component", **where))
        return inst
    (ctype, props), = inst["component"].items()
    where["component_type"] = ctype
    if ctype not in COMPONENT_SCHEMAS:
        if ctype in UNSUPPORTED_TYPES:
            reason = f"component type {ctype!r} is not supported by this renderer"
        else:
            close = difflib.get_close_matches(ctype, COMPONENT_TYPES, n=1, cutoff=0.6)
            reason = f"unknown component type {ctype!r}" + (f"; did you mean {close[0]!r}?" if close else "")
        issues.append(Issue(reason=f"{reason}; available: {', '.join(COMPONENT_TYPES)}", path=f"{base}.component", **where))
        return inst
    if not isinstance(props, dict):
        issues.append(Issue(reason=f"the {ctype} properties must be an object, got {_short(props)}", path=f"{base}.component.{ctype}", **where))
        return inst
    props = normalise_component(ctype, props)
    issues.extend(_schema_issues(_validator(ctype), props, f"{base}.component.{ctype}", **where))
    if ctype == "MultipleChoice" and isinstance(props.get("options"), list):
        values = [o.get("value") for o in props["options"] if isinstance(o, dict)]
        dupes = sorted({v for v in values if isinstance(v, str) and values.count(v) > 1})
        if dupes:
            issues.append(Issue(reason=f"option values must be unique, repeated: {dupes}", path=f"{base}.component.{ctype}.options", **where))
    if ctype == "Slider":
        lo, hi = props.get("minValue", 0), props.get("maxValue", 100)
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)) and not lo < hi:
            issues.append(Issue(reason=f"minValue ({lo}) must be smaller than maxValue ({hi})", path=f"{base}.component.{ctype}", **where))
    out = dict(inst)
    out["component"] = {ctype: props}
    return out


def validate_messages(messages: list[Any]) -> list[dict[str, Any]]:
    """Schema-check every message and component; returns normalised copies or raises :class:`UIValidationError`."""
    issues: list[Issue] = []
    out: list[dict[str, Any]] = []
    total = 0
    for i, msg in enumerate(messages):
        base = f"$[{i}]"
        if not isinstance(msg, dict):
            issues.append(Issue(i, f"a message must be an object, got {_short(msg)}", base))
            continue
        kinds = [k for k in msg if k in MESSAGE_TYPES]
        mtype = kinds[0] if len(kinds) == 1 else None
        body = msg.get(mtype) if mtype else None
        surface = body.get("surfaceId") if isinstance(body, dict) and isinstance(body.get("surfaceId"), str) else None
        unknown = [k for k in msg if k not in MESSAGE_TYPES]
        if unknown or len(kinds) != 1:
            hints = []
            for k in unknown:
                close = difflib.get_close_matches(k, MESSAGE_TYPES, n=1, cutoff=0.6)
                hints.append(f"{k!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
            reason = "a message must have exactly one of " + ", ".join(MESSAGE_TYPES)
            if hints:
                reason += f"; unexpected key(s): {', '.join(hints)}"
            elif len(kinds) > 1:
                reason += f"; got {kinds} (send them as separate messages)"
            issues.append(Issue(i, reason, base, message_type=mtype, surface_id=surface))
            continue
        components = body.get("components") if mtype == "surfaceUpdate" and isinstance(body, dict) else None
        if isinstance(components, list):
            total += len(components)
        env_issues = _schema_issues(_validator("$envelope"), msg, "$", message_index=i, message_type=mtype, surface_id=surface)
        for issue in env_issues:
            path = issue.path.replace("$", base, 1)
            cid = None
            if isinstance(components, list) and ".components[" in path:
                idx = int(path.split(".components[", 1)[1].split("]", 1)[0])
                c = components[idx] if idx < len(components) else None
                cid = c.get("id") if isinstance(c, dict) and isinstance(c.get("id"), str) else None
            issues.append(Issue(i, issue.reason, path, mtype, surface, cid))
        if isinstance(components, list):
            seen: set[str] = set()
            checked = []
            for ci, inst in enumerate(components):
                if not isinstance(inst, dict):
                    checked.append(inst)
                    continue
                cid = inst.get("id")
                if isinstance(cid, str):
                    if cid in seen:
                        issues.append(Issue(i, f"duplicate component id {cid!r} in one surfaceUpdate",
                                            f"{base}.surfaceUpdate.components[{ci}].id", mtype, surface, cid))
                    seen.add(cid)
                    if "#" in cid:
                        issues.append(Issue(i, "component ids may not contain '#' (reserved for repeated template items)",
                                            f"{base}.surfaceUpdate.components[{ci}].id", mtype, surface, cid))
                checked.append(_check_component(i, ci, inst, surface, issues))
            msg = {mtype: {**body, "components": checked}}
        out.append(copy.deepcopy(msg))
    if total > MAX_COMPONENTS:
        issues.append(Issue(None, f"too many components ({total}); the limit is {MAX_COMPONENTS} per call"))
    if issues:
        raise UIValidationError(issues)
    return out


def validate_user_action(message: dict[str, Any]) -> None:
    """Check a ``{"userAction": {...}}`` message against :data:`CLIENT_TO_SERVER_SCHEMA`."""
    issues = _schema_issues(_validator("$client"), message, "$", message_index=None, message_type="userAction")
    if issues:
        raise UIValidationError(issues, headline="the user action is invalid")
