"""Expand a surface's flat component map into a tree of :class:`Node` (templates repeated per item).

A component repeated by a template gets an *instance id*: its own id plus ``#<item key>`` for
each template level (``pick#0``, ``pick#cam2``). Instance ids are what the interactive-element
list shows and what ``ui_user_interact`` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .datamodel import MISSING, absolute, get_path

MAX_NODES = 1500
MAX_DEPTH = 40


@dataclass(frozen=True)
class Component:
    """One component of a surface as the agent declared it (properties normalised)."""

    id: str
    type: str
    props: dict[str, Any]
    weight: float | None = None

    def references(self) -> list[tuple[str, str]]:
        """``(property, referenced id)`` for every child reference."""
        p = self.props
        refs = []
        if isinstance(p.get("child"), str):
            refs.append(("child", p["child"]))
        children = p.get("children")
        if isinstance(children, dict):
            for cid in children.get("explicitList", []) or []:
                refs.append(("children.explicitList", cid))
            template = children.get("template")
            if isinstance(template, dict) and isinstance(template.get("componentId"), str):
                refs.append(("children.template.componentId", template["componentId"]))
        return refs


@dataclass
class Node:
    """A component placed in the tree, with the data scope it resolves relative paths against."""

    id: str  # instance id
    component: Component
    scope: str = "/"
    children: list["Node"] = field(default_factory=list)

    @property
    def type(self) -> str:
        return self.component.type

    @property
    def props(self) -> dict[str, Any]:
        return self.component.props

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


class TreeProblem(ValueError):
    """The component graph cannot be drawn (missing root, missing child, cycle)."""

    def __init__(self, reason: str, component_id: str | None = None, prop: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.component_id = component_id
        self.prop = prop


def _items(collection: Any) -> list[tuple[str, Any]]:
    if isinstance(collection, dict):
        return [(str(k), v) for k, v in collection.items()]
    if isinstance(collection, list):
        return [(str(i), v) for i, v in enumerate(collection)]
    return []


def build_tree(components: dict[str, Component], root: str, data: dict[str, Any]) -> tuple[Node, list[str]]:
    """The node tree under ``root`` and warnings (empty template bindings, truncation)."""
    warnings: list[str] = []
    count = [0]
    if root not in components:
        raise TreeProblem(f"the root component {root!r} does not exist", None, "root")

    def make(cid: str, suffix: str, scope: str, ancestors: tuple[str, ...], parent: str | None, prop: str) -> Node | None:
        comp = components.get(cid)
        if comp is None:
            raise TreeProblem(f"{prop} refers to component {cid!r}, which does not exist", parent, prop)
        if cid in ancestors:
            cycle = " -> ".join(ancestors[ancestors.index(cid):] + (cid,))
            raise TreeProblem(f"components form a cycle: {cycle}", cid, prop)
        if len(ancestors) >= MAX_DEPTH:
            raise TreeProblem(f"the tree is deeper than {MAX_DEPTH} levels", cid, prop)
        count[0] += 1
        if count[0] > MAX_NODES:
            return None
        node = Node(id=cid + suffix, component=comp, scope=scope)
        chain = ancestors + (cid,)
        if comp.type in ("Button", "Card") and isinstance(comp.props.get("child"), str):
            child = make(comp.props["child"], suffix, scope, chain, cid, "child")
            if child is not None:
                node.children.append(child)
        children = comp.props.get("children")
        if isinstance(children, dict):
            if "explicitList" in children:
                for ref in children["explicitList"]:
                    child = make(ref, suffix, scope, chain, cid, "children.explicitList")
                    if child is not None:
                        node.children.append(child)
            elif "template" in children:
                template = children["template"]
                binding = absolute(template["dataBinding"], scope)
                collection = get_path(data, binding)
                items = _items(collection)
                if collection is MISSING:
                    warnings.append(f"{comp.type} {cid!r}: no data at {binding}; the template shows no items")
                elif not items:
                    warnings.append(f"{comp.type} {cid!r}: {binding} is empty or not a collection; the template shows no items")
                for key, _ in items:
                    child = make(template["componentId"], f"{suffix}#{key}", f"{binding}/{key}", chain, cid,
                                 "children.template.componentId")
                    if child is not None:
                        node.children.append(child)
        return node

    tree = make(root, "", "/", (), None, "root")
    if count[0] > MAX_NODES:
        warnings.append(f"the screen has more than {MAX_NODES} components; the rest are not drawn")
    assert tree is not None
    return tree, warnings
