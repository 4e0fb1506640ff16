"""The user acting on a shown screen: fill fields, press a button, tell the assistant what happened.

>>> from mmtsb_env.world import World, Layer
>>> from mmtsb_env.vision import ImageStore
>>> from mmtsb_env.ui.screens import render_ui, show_ui
>>> world = World(Layer(), services={"images": ImageStore()})
>>> _ = render_ui(world, [
...     {"surfaceUpdate": {"surfaceId": "f", "components": [
...         {"id": "root", "component": {"Column": {"children": ["name", "ok"]}}},
...         {"id": "name", "component": {"TextField": {"label": "Title", "text": {"path": "/form/title"}}}},
...         {"id": "ok_t", "component": {"Text": {"text": "Create"}}},
...         {"id": "ok", "component": {"Button": {"child": "ok_t", "action": {"name": "create",
...             "context": [{"key": "title", "value": {"path": "/form/title"}}]}}}}]}},
...     {"beginRendering": {"surfaceId": "f", "root": "root"}}])
>>> _ = show_ui(world)
>>> d = user_interact(world, "create", "f", "ok", {"/form/title": "Groceries"})
>>> d.to, ui_state(world).interactions[-1].user_action["userAction"]["context"]
('assistant', {'title': 'Groceries'})
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from ..tools.errors import InvalidArgument, NotFound, ToolError
from ..tools.results import Delivery, to_jsonable
from .datamodel import set_path
from .elements import UI_MARKER, UI_MARKER_END, field_path, interactive_elements, resolve_context
from .renderer import render_surface
from .schema import INTERACTIVE_TYPES
from .screens import image_store
from .state import InteractionRecord, RenderRecord, ui_state
from .tree import Node, build_tree
from .validation import validate_user_action

FIELD_TYPES = tuple(t for t in INTERACTIVE_TYPES if t != "Button")


def _parse_field_values(field_values: Any) -> dict[str, Any]:
    if field_values is None or field_values == "":
        return {}
    if isinstance(field_values, str):
        try:
            field_values = json.loads(field_values)
        except json.JSONDecodeError as exc:
            raise InvalidArgument(f"field_values is not valid JSON: {exc.msg}; give an object such as "
                                  '{"/form/title": "Lunch"}') from None
    if not isinstance(field_values, dict):
        raise InvalidArgument("field_values must map a field's component_id or data path to its new value, "
                              f"e.g. {{\"/form/title\": \"Lunch\"}}; got {type(field_values).__name__}")
    return field_values


def _coerce(node: Node, value: Any) -> Any:
    """The value converted for the field ``node``, or :class:`InvalidArgument` saying what is accepted."""
    t, p, name = node.type, node.props, node.id
    if t == "TextField":
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise InvalidArgument(f"TextField '{name}' takes text, got {json.dumps(value)}")
        text = value if isinstance(value, str) else (str(int(value)) if float(value).is_integer() else str(value))
        if p.get("textFieldType") == "number":
            try:
                float(text)
            except ValueError:
                raise InvalidArgument(f"TextField '{name}' is a number field; {text!r} is not a number") from None
        pattern = p.get("validationRegexp")
        if pattern:
            try:
                ok = re.fullmatch(pattern, text) is not None
            except re.error:
                ok = True
            if not ok:
                raise InvalidArgument(f"TextField '{name}': {text!r} does not match the field's pattern {pattern!r}")
        return text
    if t == "CheckBox":
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        if not isinstance(value, bool):
            raise InvalidArgument(f"CheckBox '{name}' takes true or false, got {json.dumps(value)}")
        return value
    if t == "Slider":
        try:
            number = float(value) if not isinstance(value, bool) else None
        except (TypeError, ValueError):
            number = None
        if number is None:
            raise InvalidArgument(f"Slider '{name}' takes a number, got {json.dumps(value)}")
        lo, hi = p.get("minValue", 0), p.get("maxValue", 100)
        if not lo <= number <= hi:
            raise InvalidArgument(f"Slider '{name}' ranges from {lo} to {hi}; {number:g} is outside")
        return int(number) if number.is_integer() else number
    if t == "DateTimeInput":
        if not isinstance(value, str) or not value.strip():
            raise InvalidArgument(f"DateTimeInput '{name}' takes an ISO date/time string such as "
                                  f"\"2026-04-18\" or \"2026-04-18T19:30\", got {json.dumps(value)}")
        text = value.strip()
        try:
            if re.fullmatch(r"\d{1,2}:\d{2}(:\d{2})?", text):
                datetime.fromisoformat("2000-01-01T" + text)
            else:
                datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidArgument(f"DateTimeInput '{name}': {text!r} is not an ISO date/time "
                                  "(e.g. 2026-04-18, 19:30 or 2026-04-18T19:30)") from None
        return text
    if t == "MultipleChoice":
        chosen = value if isinstance(value, list) else [value]
        options = p.get("options", [])
        by_value = {o.get("value"): o.get("value") for o in options}
        by_label = {}
        for o in options:
            label = (o.get("label") or {}).get("literalString")
            if isinstance(label, str):
                by_label[label.strip().lower()] = o.get("value")
        out = []
        for item in chosen:
            if item in by_value:
                out.append(item)
            elif isinstance(item, str) and item.strip().lower() in by_label:
                out.append(by_label[item.strip().lower()])
            else:
                raise InvalidArgument(f"MultipleChoice '{name}' has no option {json.dumps(item)}; "
                                      f"options: {', '.join(str(v) for v in by_value)}")
        limit = p.get("maxAllowedSelections", 1)
        if len(out) > limit:
            raise InvalidArgument(f"MultipleChoice '{name}' allows at most {limit} selection(s), got {len(out)}")
        return list(dict.fromkeys(out))
    raise InvalidArgument(f"{t} '{name}' has no value to set")


def _find(nodes: list[Node], component_id: str, what: str) -> Node:
    by_id = {}
    for n in nodes:
        by_id.setdefault(n.id, n)
    if component_id in by_id:
        return by_id[component_id]
    instances = [n for n in nodes if n.id.split("#", 1)[0] == component_id]
    if len(instances) == 1:
        return instances[0]
    interactive = [n.id for n in nodes if n.type in INTERACTIVE_TYPES]
    listing = ", ".join(interactive[:40]) or "none"
    if instances:
        raise InvalidArgument(f"{what} {component_id!r} is repeated by a template; use one of: "
                              f"{', '.join(n.id for n in instances[:40])}")
    raise NotFound(f"there is no component {component_id!r} on this screen; interactive components: {listing}")


def user_interact(world: Any, action_name: str, surface_id: str, component_id: str, field_values: Any = None) -> Delivery:
    """Apply a user action to a shown surface and build the notification for the assistant."""
    state = ui_state(world)
    store = image_store(world)
    values = _parse_field_values(field_values)
    if not isinstance(action_name, str) or not action_name.strip():
        raise InvalidArgument("action_name must be a non-empty string (a Button's action name, or \"change\" for a field)")
    with state.lock:
        shown_ids = [r.surface_id for r in state.shown]
        if not shown_ids:
            raise ToolError("no screen has been shown to you yet, so there is nothing to interact with")
        if surface_id not in state.surfaces:
            live = [s for s in dict.fromkeys(shown_ids) if s in state.surfaces]
            raise NotFound(f"there is no surface {surface_id!r}; surfaces shown to you: {', '.join(live) or 'none'}")
        if surface_id not in shown_ids:
            raise InvalidArgument(f"surface {surface_id!r} has not been shown to you; shown: {', '.join(dict.fromkeys(shown_ids))}")
        surface = state.surfaces[surface_id].copy()
        tree, _ = build_tree(surface.components, surface.root or "", surface.data)
        nodes = list(tree.walk())
        node = _find(nodes, component_id, "component")
        if node.type not in INTERACTIVE_TYPES:
            interactive = ", ".join(n.id for n in nodes if n.type in INTERACTIVE_TYPES) or "none"
            raise InvalidArgument(f"component {node.id!r} is a {node.type}, which cannot be interacted with; "
                                  f"interactive components: {interactive}")
        if node.type == "Button":
            expected = (node.props.get("action") or {}).get("name")
            if action_name != expected:
                raise InvalidArgument(f"Button {node.id!r} triggers action {expected!r}, not {action_name!r}")
        fields = [n for n in nodes if n.type in FIELD_TYPES]
        applied: dict[str, Any] = {}
        for key, value in values.items():
            key_s = str(key).strip()
            target = next((n for n in fields if n.id == key_s), None)
            if target is None:
                target = next((n for n in fields if field_path(n) == key_s or (field_path(n) or "").lstrip("/") == key_s.lstrip("/")), None)
            if target is None:
                base = [n for n in fields if n.id.split("#", 1)[0] == key_s]
                target = base[0] if len(base) == 1 else None
            if target is None:
                known = ", ".join(f"{n.id}" + (f" ({field_path(n)})" if field_path(n) else "") for n in fields) or "none"
                raise InvalidArgument(f"field_values key {key_s!r} is not a field of this screen; fields: {known}")
            coerced = _coerce(target, value)
            path = field_path(target)
            if path:
                set_path(surface.data, path, coerced)
            else:
                surface.local[target.id] = coerced
            applied[path or target.id] = coerced
        if node.type in FIELD_TYPES and not values:
            if node.type != "CheckBox":
                raise InvalidArgument(f"{node.type} {node.id!r} needs its new value in field_values, e.g. "
                                      f"{{\"{field_path(node) or node.id}\": ...}}")
            current = next(e for e in interactive_elements(surface, tree) if e["component_id"] == node.id)["value"]
            path = field_path(node)
            if path:
                set_path(surface.data, path, not current)
            else:
                surface.local[node.id] = not current
            applied[path or node.id] = not current
        context = to_jsonable(resolve_context(node, surface)) if node.type == "Button" else {}
        message = {"userAction": {"name": action_name, "surfaceId": surface_id, "sourceComponentId": node.id,
                                  "timestamp": world.now.isoformat(), "context": context}}
        validate_user_action(message)
        label = "CLICKED" if node.type == "Button" else "CHANGED"
        rendered = render_surface(surface, store, now=world.now, highlight=node.id, highlight_label=label)
        elements = interactive_elements(surface, rendered.tree, rendered.boxes)
        surfaces = dict(state.surfaces)
        surfaces[surface_id] = surface
        state.commit(surfaces)
        image_id = store.add(rendered.image, source="ui", note=f"ui:{surface_id}:interaction")
        state.renders.append(RenderRecord(state.next_seq(), surface_id, image_id, tuple(elements), tuple(rendered.warnings),
                                          "interaction"))
        el_label = next((e.get("label", "") for e in elements if e["component_id"] == node.id), "")
        state.interactions.append(InteractionRecord(state.next_seq(), message, node.type, el_label, applied, image_id))
    return Delivery(text=notification_text(message, node.type, el_label, applied), image_ids=(image_id,), to="assistant")


def notification_text(message: dict[str, Any], component_type: str, label: str, applied: dict[str, Any]) -> str:
    """The ``<ui_state_server>`` message the assistant receives about a user action."""
    action = message["userAction"]
    verb = "pressed" if component_type == "Button" else "changed"
    shown_label = f' "{label}"' if label else ""
    lines = [
        UI_MARKER,
        f"User interaction on surface '{action['surfaceId']}': the user {verb} {component_type}{shown_label} "
        f"(component_id={action['sourceComponentId']}), action '{action['name']}'.",
    ]
    if applied:
        lines.append(f"Field values entered: {json.dumps(applied, ensure_ascii=False)}")
    if action["context"]:
        lines.append(f"Resolved action data: {json.dumps(action['context'], ensure_ascii=False)}")
    lines.append(f"userAction: {json.dumps(message, ensure_ascii=False)}")
    lines.append(UI_MARKER_END)
    return "\n".join(lines)
