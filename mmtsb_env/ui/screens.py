"""Rendering screens for the assistant and showing them to the user (the logic behind the tools).

>>> from mmtsb_env.world import World, Layer
>>> from mmtsb_env.vision import ImageStore
>>> world = World(Layer(), services={"images": ImageStore()})
>>> out = render_ui(world, [
...     {"surfaceUpdate": {"surfaceId": "s", "components": [
...         {"id": "root", "component": {"Column": {"children": {"explicitList": ["t", "b"]}}}},
...         {"id": "t", "component": {"Text": {"text": "Save the note?", "usageHint": "h3"}}},
...         {"id": "bt", "component": {"Text": {"text": "Save"}}},
...         {"id": "b", "component": {"Button": {"child": "bt", "primary": True, "action": {"name": "save"}}}}]}},
...     {"beginRendering": {"surfaceId": "s", "root": "root"}}])
>>> out["image"].image_id, [(e["component_id"], e["label"], e["action"]) for e in out["ui_interactive_elements"]]
(0, [('b', 'Save', 'save')])
>>> show_ui(world).image_ids
(0,)
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..tools.errors import Conflict, InvalidArgument, NotFound, ToolError
from ..tools.results import Delivery, ImageResult
from .elements import describe_screen, interactive_elements
from .renderer import image_ref, render_surface
from .state import RenderRecord, ShownRecord, Surface, apply_messages, check_surfaces, component_issue, ui_state
from .validation import Issue, UIValidationError, parse_ui_json, validate_messages

PLACEHOLDER = re.compile(r"^\s*IMAGE_URL_\d+\s*$")


def image_store(world: Any) -> Any:
    store = world.services.get("images")
    if store is None:
        raise ToolError("this episode has no image store (world.services['images'] is not set); screens cannot be stored")
    return store


def parse_placeholders(image_placeholders: Any, store: Any) -> dict[str, int]:
    """``{"IMAGE_URL_1": 3}`` (or its JSON text) checked against the image store."""
    value = image_placeholders
    if value is None or value == "" or value == {}:
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InvalidArgument(f"image_placeholders is not valid JSON: {exc.msg}; give an object such as "
                                  '{"IMAGE_URL_1": 0}') from None
    if not isinstance(value, dict):
        raise InvalidArgument(f"image_placeholders must map placeholder names to image ids, e.g. {{\"IMAGE_URL_1\": 0}}, "
                              f"got {type(value).__name__}")
    out: dict[str, int] = {}
    for key, raw in value.items():
        image_id = raw
        if isinstance(raw, str) and raw.strip().isdigit():
            image_id = int(raw)
        elif isinstance(raw, str) and image_ref(raw) is not None:
            image_id = image_ref(raw)
        if isinstance(image_id, bool) or not isinstance(image_id, int):
            raise InvalidArgument(f"image_placeholders[{key!r}] must be an image id (integer), got {raw!r}")
        if image_id not in store:
            raise NotFound(f"image_placeholders[{key!r}]: {store.unknown(image_id)}")
        out[str(key).strip()] = image_id
    return out


def substitute_placeholders(messages: list[dict[str, Any]], placeholders: dict[str, int]) -> list[dict[str, Any]]:
    """Replace every string equal to a placeholder name by ``"image_id:N"``; unknown ``IMAGE_URL_n`` are errors."""
    issues: list[Issue] = []

    def walk(value: Any, path: str, index: int) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, f"{path}.{k}", index) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, f"{path}[{i}]", index) for i, v in enumerate(value)]
        if isinstance(value, str):
            key = value.strip()
            if key in placeholders:
                return f"image_id:{placeholders[key]}"
            if PLACEHOLDER.match(value):
                known = ", ".join(sorted(placeholders)) or "none given"
                issues.append(Issue(index, f"placeholder {key} has no image; pass image_placeholders="
                                    f"{{\"{key}\": <image id>}} (given: {known})", path))
        return value

    out = [walk(m, f"$[{i}]", i) for i, m in enumerate(messages)]
    if issues:
        raise UIValidationError(issues)
    return out


def _image_issues(surface: Surface, store: Any) -> list[Issue]:
    issues = []
    for comp in surface.components.values():
        if comp.type != "Image":
            continue
        ref, prop = comp.props.get("image_id"), "image_id"
        if ref is None:
            url = comp.props.get("url") or {}
            ref, prop = (image_ref(url.get("literalString")) if isinstance(url, dict) else None), "url"
        if ref is not None and ref not in store:
            issues.append(component_issue(surface, comp, prop, store.unknown(ref)))
    return issues


def render_ui(world: Any, ui_json: Any, image_placeholders: Any = None) -> dict[str, Any]:
    """Validate and apply UI messages, render the last surface they touched, store the screenshot."""
    store = image_store(world)
    state = ui_state(world)
    placeholders = parse_placeholders(image_placeholders, store)
    messages = validate_messages(parse_ui_json(ui_json))
    messages = substitute_placeholders(messages, placeholders)
    with state.lock:
        surfaces = state.staged()
        touched = apply_messages(surfaces, messages)
        issues = check_surfaces(surfaces, touched)
        for sid in touched:
            issues += _image_issues(surfaces[sid], store)
        if issues:
            raise UIValidationError(issues)
        if not touched:
            deleted = sorted(set(state.surfaces) - set(surfaces))
            state.commit(surfaces)
            return {"deleted_surfaces": deleted, "surfaces": sorted(surfaces),
                    "message": "surface(s) deleted; nothing to render"}
        target = touched[-1]
        surface = surfaces[target]
        rendered = render_surface(surface, store, now=world.now)
        elements = interactive_elements(surface, rendered.tree, rendered.boxes)
        state.commit(surfaces)
        image_id = store.add(rendered.image, source="ui", note=f"ui:{target}")
        state.renders.append(RenderRecord(state.next_seq(), target, image_id, tuple(elements), tuple(rendered.warnings),
                                          "render", messages))
    w, h = rendered.image.size
    result: dict[str, Any] = {
        "image": ImageResult(image_id, description=f"UI screen of surface '{target}' ({w}x{h})",
                             extra={"width": w, "height": h}),
        "surface_id": target,
        "ui_interactive_elements": elements,
    }
    others = [s for s in touched if s != target]
    if others:
        result["also_updated_surfaces"] = others
    if rendered.warnings:
        result["warnings"] = list(rendered.warnings)
    if not elements:
        result["note"] = "this screen has no interactive elements, so the user cannot act on it"
    return result


def show_ui(world: Any) -> Delivery:
    """Deliver the last rendered screen and its interactive elements to the user."""
    state = ui_state(world)
    record = state.last_render
    if record is None:
        raise ToolError("there is no screen to show: call render_ui_screen first")
    with state.lock:
        if record.surface_id not in state.surfaces:
            raise Conflict(f"surface '{record.surface_id}' was deleted after it was rendered; render a screen again")
        text = describe_screen(record.surface_id, list(record.elements), record.image_id)
        state.shown.append(ShownRecord(state.next_seq(), record.surface_id, record.image_id, record.elements))
    return Delivery(text=text, image_ids=(record.image_id,), to="user")
