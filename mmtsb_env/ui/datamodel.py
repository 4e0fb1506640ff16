"""A surface's data model: nested dicts addressed by slash paths, and bound-value resolution.

Paths look like ``/booking/guests``. Inside a repeated template, a path without the leading
slash is relative to the current item (``name`` under item ``/products/2`` is ``/products/2/name``).

>>> data = {}
>>> apply_data_update(data, "/form", [{"key": "name", "valueString": "Ada"},
...                                   {"key": "size", "valueMap": [{"key": "w", "valueNumber": 3}]}])
>>> data
{'form': {'name': 'Ada', 'size': {'w': 3}}}
>>> get_path(data, "w", scope="/form/size")
3
>>> resolve_bound({"path": "/form/missing", "literalString": "default"}, data)
'default'
>>> set_path(data, "/form/tags", ["a"]); data["form"]["tags"]
['a']
"""

from __future__ import annotations

from typing import Any


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

_LITERAL_KEYS = ("literalString", "literalNumber", "literalBoolean", "literalArray")


def absolute(path: str, scope: str = "/") -> str:
    """``path`` made absolute against ``scope`` (``"."`` is the scope itself)."""
    path = path.strip()
    if path.startswith("/"):
        return "/" + "/".join(split_path(path))
    rel = [p for p in path.split("/") if p and p != "."]
    return "/" + "/".join(split_path(scope) + rel)


def split_path(path: str) -> list[str]:
    return [p for p in path.strip().split("/") if p and p != "."]


def get_path(data: Any, path: str, scope: str = "/") -> Any:
    """The value at ``path`` (relative paths against ``scope``), or :data:`MISSING`."""
    node = data
    for part in split_path(absolute(path, scope)):
        if isinstance(node, dict):
            if part not in node:
                return MISSING
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node


def set_path(data: dict[str, Any], path: str, value: Any, scope: str = "/") -> None:
    """Store ``value`` at ``path``, creating intermediate objects (a non-object in the way is replaced)."""
    parts = split_path(absolute(path, scope))
    if not parts:
        raise ValueError("cannot replace the whole data model; give a path such as /form/name")
    node: Any = data
    for part in parts[:-1]:
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            if not isinstance(node[int(part)], (dict, list)):
                node[int(part)] = {}
            node = node[int(part)]
            continue
        child = node.get(part)
        if not isinstance(child, (dict, list)):
            child = node[part] = {}
        node = child
    last = parts[-1]
    if isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value
    else:
        node[last] = value


def entry_value(entry: dict[str, Any]) -> Any:
    """The Python value of one ``{"key", "value...": ...}`` data entry."""
    if "valueMap" in entry:
        return entries_to_dict(entry["valueMap"])
    for key in ("valueString", "valueNumber", "valueBoolean"):
        if key in entry:
            return entry[key]
    return None


def entries_to_dict(contents: list[dict[str, Any]]) -> dict[str, Any]:
    return {e["key"]: entry_value(e) for e in contents}


def apply_data_update(data: dict[str, Any], path: str | None, contents: list[dict[str, Any]]) -> None:
    """Merge ``contents`` into the object at ``path`` (the root when ``path`` is empty or ``/``)."""
    parts = split_path(path or "/")
    target: Any = data
    if parts:
        current = get_path(data, "/" + "/".join(parts))
        if not isinstance(current, dict):
            set_path(data, "/" + "/".join(parts), {})
            current = get_path(data, "/" + "/".join(parts))
        target = current
    for entry in contents:
        target[entry["key"]] = entry_value(entry)


def literal_of(bound: Any) -> Any:
    """The literal part of a bound value, or :data:`MISSING`."""
    if isinstance(bound, dict):
        for key in _LITERAL_KEYS:
            if key in bound:
                return bound[key]
    return MISSING


def bound_path(bound: Any, scope: str = "/") -> str | None:
    """The absolute data-model path of a bound value, or None for a pure literal."""
    if isinstance(bound, dict) and isinstance(bound.get("path"), str):
        return absolute(bound["path"], scope)
    return None


def resolve_bound(bound: Any, data: Any, scope: str = "/", default: Any = None) -> Any:
    """The current value of a bound value: the data at its path, else its literal, else ``default``."""
    if bound is None:
        return default
    path = bound_path(bound, scope)
    if path is not None:
        value = get_path(data, path)
        if value is not MISSING:
            return value
    literal = literal_of(bound)
    return default if literal is MISSING else literal


def display(value: Any) -> str:
    """Text of a data value as a screen shows it."""
    if value is None or value is MISSING:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(display(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {display(v)}" for k, v in value.items())
    return str(value)
