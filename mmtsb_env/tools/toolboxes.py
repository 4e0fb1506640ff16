"""Which tools belong to which toolbox variant.

Consolidated tools declare their variants explicitly. Every other full-toolbox tool is a
*passthrough* member of ``medium`` and ``compact`` unless a consolidated tool of that variant
absorbs it; ``mini`` has no passthrough except the protected tools and the cross-cutting apps
(vision, UI, web search, system and user tools), which are the same in every variant.

:func:`sync_toolboxes` writes the computed membership into each tool's ``toolboxes`` set, so
``catalog.tools_in(variant)`` sees it; :func:`toolbox_members` re-syncs when the registry
changed and returns the members.
"""

from __future__ import annotations

import threading

from .registry import ASSISTANT, REGISTRY, Tool
from .consolidate import KEPT_APPS, PROTECTED_TOOLS, VARIANTS

TOOLBOXES = ("full",) + VARIANTS

# name -> (id of the Tool object, toolboxes it declared when registered)
_declared: dict[str, tuple[int, frozenset[str]]] = {}
_signature: tuple[int, ...] = ()
_lock = threading.RLock()


def _declared_boxes(t: Tool) -> frozenset[str]:
    known = _declared.get(t.name)
    if known is None or known[0] != id(t):
        # first sight of this Tool object: what it carries now is what it declared
        known = _declared[t.name] = (id(t), t.toolboxes)
    return known[1]


def absorbed_in(variant: str) -> dict[str, str]:
    """``{full tool name: consolidated tool name}`` for a variant."""
    out: dict[str, str] = {}
    for t in REGISTRY.values():
        if t.absorbs and variant in _declared_boxes(t):
            for name in t.absorbs:
                if name in out:
                    raise ValueError(f"{name} is absorbed twice in {variant}: by {out[name]} and {t.name}")
                out[name] = t.name
    return out


def sync_toolboxes() -> None:
    """Recompute passthrough membership of every registered tool (idempotent)."""
    global _signature
    with _lock:
        tools = list(REGISTRY.values())
        for t in tools:
            _declared_boxes(t)
        absorbed = {v: absorbed_in(v) for v in VARIANTS}
        for t in tools:
            declared = _declared_boxes(t)
            boxes = set(declared)
            if "full" in declared and not t.absorbs:
                for v in VARIANTS:
                    if t.name in absorbed[v]:
                        continue
                    if v == "mini" and t.name not in PROTECTED_TOOLS and t.app not in KEPT_APPS:
                        continue
                    boxes.add(v)
            if frozenset(boxes) != t.toolboxes:
                t.toolboxes = frozenset(boxes)
        _signature = tuple(id(t) for t in REGISTRY.values())


def _ensure_synced() -> None:
    if tuple(id(t) for t in REGISTRY.values()) != _signature:
        sync_toolboxes()


def toolbox_members(variant: str = "full", seat: str | None = ASSISTANT) -> list[Tool]:
    """Tools of a toolbox variant (for a seat, or every seat with ``seat=None``), in registry order.

    >>> from mmtsb_env.tools import catalog  # every tool registered
    >>> names = {t.name for t in toolbox_members("mini")}
    >>> "simple_note" in names, "simple_note_create_note" in names, "crop_image" in names
    (True, False, True)
    """
    if variant not in TOOLBOXES:
        raise ValueError(f"unknown toolbox {variant!r}; choose one of {', '.join(TOOLBOXES)}")
    _ensure_synced()
    tools = [t for t in REGISTRY.values() if variant in t.toolboxes and (seat is None or seat in t.visible_to)]
    return sorted(tools, key=lambda t: t.order)


def tool_apps(t: Tool) -> frozenset[str]:
    """The apps a tool acts on: its own, or those of the tools it absorbs."""
    if t.absorbs:
        return frozenset(REGISTRY[n].app for n in t.absorbs if n in REGISTRY)
    return frozenset({t.app})
