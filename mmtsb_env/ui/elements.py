"""The interactive elements of a rendered surface, as data and as the text the user is shown.

Each element is a dict: ``surface_id``, ``component_id`` (instance id), ``type``, ``label``,
``box`` (pixels in the screenshot) and per type: ``action`` + ``context`` (Button), ``path`` and
``value`` (fields), ``options`` + ``max_selections`` (MultipleChoice), ``min``/``max`` (Slider).
``description`` holds the other texts of the element's own group (the card or row that contains
only this interactive element), e.g. the product name and price next to a "Select" button.
"""

from __future__ import annotations

import json
from typing import Any

from .datamodel import bound_path, display, resolve_bound
from .markers import UI_MARKER, UI_MARKER_END  # noqa: F401  (re-exported: interaction's state text)
from .schema import INTERACTIVE_TYPES
from .state import Surface
from .tree import Node


def resolve_context(node: Node, surface: Surface) -> dict[str, Any]:
    """A Button's ``action.context`` with every bound value resolved against the data model."""
    out: dict[str, Any] = {}
    for item in (node.props.get("action") or {}).get("context", []) or []:
        out[item["key"]] = resolve_bound(item["value"], surface.data, node.scope)
    return out


def field_value(node: Node, surface: Surface) -> Any:
    prop = {"TextField": "text", "CheckBox": "value", "Slider": "value", "DateTimeInput": "value",
            "MultipleChoice": "selections"}[node.type]
    if node.id in surface.local:
        return surface.local[node.id]
    default = {"CheckBox": False, "MultipleChoice": [], "Slider": node.props.get("minValue", 0)}.get(node.type, "")
    return resolve_bound(node.props.get(prop), surface.data, node.scope, default)


def field_path(node: Node) -> str | None:
    prop = {"TextField": "text", "CheckBox": "value", "Slider": "value", "DateTimeInput": "value",
            "MultipleChoice": "selections"}.get(node.type)
    return bound_path(node.props.get(prop), node.scope) if prop else None


def _texts(node: Node, surface: Surface, skip: Node | None = None) -> list[str]:
    out = []
    skipped = {id(m) for m in skip.walk()} if skip is not None else set()
    for n in node.walk():
        if id(n) in skipped:
            continue
        if n.type == "Text":
            t = display(resolve_bound(n.props.get("text"), surface.data, n.scope, ""))
            if t:
                out.append(t)
        elif n.type == "Image" and n.props.get("altText"):
            t = display(resolve_bound(n.props["altText"], surface.data, n.scope, ""))
            if t:
                out.append(t)
    return out


def _button_label(node: Node, surface: Surface) -> str:
    texts = _texts(node, surface)
    if texts:
        return " ".join(texts)
    icons = [display(resolve_bound(n.props.get("name"), surface.data, n.scope, "")) for n in node.walk() if n.type == "Icon"]
    return " ".join(f"[{i} icon]" for i in icons if i)


def interactive_elements(surface: Surface, tree: Node, boxes: dict[str, tuple[float, float, float, float]] | None = None
                         ) -> list[dict[str, Any]]:
    """Every interactive component instance of ``tree`` in reading order."""
    counts: dict[int, int] = {}

    def count(n: Node) -> int:
        c = (1 if n.type in INTERACTIVE_TYPES else 0) + sum(count(ch) for ch in n.children)
        counts[id(n)] = c
        return c

    count(tree)
    elements: list[dict[str, Any]] = []

    def visit(n: Node, ancestors: list[Node]) -> None:
        if n.type in INTERACTIVE_TYPES:
            elements.append(_element(n, ancestors, surface, counts, boxes))
        for ch in n.children:
            visit(ch, ancestors + [n])

    visit(tree, [])
    return elements


def _element(n: Node, ancestors: list[Node], surface: Surface, counts: dict[int, int],
             boxes: dict[str, tuple[float, float, float, float]] | None) -> dict[str, Any]:
    group = n
    for anc in reversed(ancestors):
        if counts[id(anc)] != 1:
            break
        group = anc
    el: dict[str, Any] = {"surface_id": surface.surface_id, "component_id": n.id, "type": n.type}
    p = n.props
    if n.type == "Button":
        el["label"] = _button_label(n, surface)
        el["action"] = (p.get("action") or {}).get("name", "")
        el["context"] = resolve_context(n, surface)
        el["primary"] = bool(p.get("primary"))
    else:
        el["label"] = display(resolve_bound(p.get("label"), surface.data, n.scope, ""))
        el["path"] = field_path(n)
        el["value"] = field_value(n, surface)
        if n.type == "TextField":
            el["field_type"] = p.get("textFieldType", "shortText")
        elif n.type == "Slider":
            el["min"], el["max"] = p.get("minValue", 0), p.get("maxValue", 100)
        elif n.type == "DateTimeInput":
            el["enable_date"], el["enable_time"] = p.get("enableDate", True), p.get("enableTime", False)
        elif n.type == "MultipleChoice":
            el["options"] = [{"label": display(resolve_bound(o.get("label"), surface.data, n.scope, "")), "value": o.get("value")}
                             for o in p.get("options", [])]
            el["max_selections"] = p.get("maxAllowedSelections", 1)
    description = " | ".join(_texts(group, surface, skip=n)) if group is not n else ""
    if description:
        el["description"] = description
    if boxes and n.id in boxes:
        el["box"] = [round(v) for v in boxes[n.id]]
    return el


def _value_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def describe_element(el: dict[str, Any]) -> str:
    """One line describing an interactive element (what ``show_ui_to_user`` lists)."""
    label = f' "{el["label"]}"' if el.get("label") else ""
    head = f'{el["type"]}{label} (component_id={el["component_id"]}'
    if el["type"] == "Button":
        head += f', action_name={el["action"]}'
        if el.get("context"):
            head += f", context={_value_text(el['context'])}"
    else:
        if el.get("path"):
            head += f', path={el["path"]}'
        head += f', value={_value_text(el.get("value"))}'
        if el["type"] == "MultipleChoice":
            opts = ", ".join(f'"{o["label"]}"={o["value"]}' for o in el.get("options", []))
            head += f', options: {opts}; choose up to {el.get("max_selections", 1)}'
        elif el["type"] == "Slider":
            head += f', range {el.get("min")}..{el.get("max")}'
        elif el["type"] == "TextField" and el.get("field_type", "shortText") != "shortText":
            head += f', type={el["field_type"]}'
    head += ")"
    if el.get("description"):
        head += f' in "{el["description"]}"'
    return head


def describe_screen(surface_id: str, elements: list[dict[str, Any]], image_id: int | None = None) -> str:
    """The ``<ui_state_server>`` block shown to the user with a screenshot."""
    lines = [UI_MARKER, f"Screen of surface '{surface_id}'" + (f" ([image {image_id}])" if image_id is not None else "") + "."]
    if elements:
        lines.append("Interactive elements:")
        lines += [f"- {describe_element(el)}" for el in elements]
        lines.append("To act, call ui_user_interact(action_name, surface_id, component_id, field_values); "
                     "field_values maps a field's component_id or path to the new value, e.g. "
                     '{"/form/title": "Lunch"}. For a field without an action, use action_name "change".')
    else:
        lines.append("This screen has no interactive elements.")
    lines.append(UI_MARKER_END)
    return "\n".join(lines)
