"""Build consolidated tools: one tool with selector parameters that routes to full-toolbox tools.

A consolidated tool (``simple_note_manage_note(action="create", title=..., content=...)``) has
one or more *selector* parameters (``action``, or ``app`` + ``action``, ...) whose values pick a
full-toolbox tool, plus the union of that tool family's parameters. A call is forwarded to
``REGISTRY[target].call(world, args)``, so argument checking, device requirements and effects
are exactly those of the full tool.

Forwarding rules:

* an omitted parameter is not forwarded (the full tool's default applies);
* an explicit ``null`` is forwarded when the target takes that parameter (it means what it
  means for the full tool) and ignored when it does not;
* a non-null value for a parameter the target does not take is an error naming the parameters
  the chosen action does take;
* missing required parameters are reported for the chosen action before anything runs.

>>> from mmtsb_env.tools.catalog import REGISTRY
>>> t = REGISTRY["simple_note_manage_note"]
>>> [p.name for p in t.params][:3]
['action', 'note_id', 'title']
>>> t.absorbs[:2]
('simple_note_create_note', 'simple_note_show_note')
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, Iterable, Literal, Mapping, Union

from .errors import InvalidArgument
from .registry import REGISTRY, Tool, tool
from .schema import NOT_GIVEN, Param, _NotGiven, _strip_optional, signature_params

VARIANTS = ("medium", "compact", "mini")

# Tools that are never consolidated and belong to every toolbox variant.
PROTECTED_TOOLS = frozenset({
    "end_conversation", "send_message_with_image", "api_docs_search_api_docs", "execute_code",
    "render_ui_screen", "show_ui_to_user", "ui_user_interact",
})
# Cross-cutting apps whose tools stay as they are in every variant (also in mini).
KEPT_APPS = frozenset({"vision", "ui", "web_search", "system", "user"})


@dataclass(frozen=True)
class Route:
    """Where one selector combination goes."""

    key: tuple[str, ...]
    target: str


# name -> spec of every consolidated tool built here (for docs, tests and discovery).
CONSOLIDATED: dict[str, "Consolidated"] = {}


@dataclass(frozen=True)
class Consolidated:
    name: str
    app: str
    toolboxes: tuple[str, ...]
    selectors: tuple[str, ...]
    routes: tuple[Route, ...]

    def target(self, key: tuple[str, ...]) -> str | None:
        for route in self.routes:
            if route.key == key:
                return route.target
        return None

    def key_for(self, target: str) -> tuple[str, ...]:
        """The selector values that route to full tool ``target``."""
        for route in self.routes:
            if route.target == target:
                return route.key
        raise KeyError(f"{self.name} does not absorb {target}")


def _core_types(annotation: Any) -> list[Any]:
    """The non-null alternatives of an annotation (``str | None`` -> ``[str]``)."""
    inner, _ = _strip_optional(annotation)
    origin = typing.get_origin(inner)
    if origin in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(inner) if a is not type(None) and a is not _NotGiven]
    return [inner]


def _merged_annotation(annotations: Iterable[Any]) -> Any:
    options: list[Any] = []
    for ann in annotations:
        for core in _core_types(ann):
            if core is inspect.Parameter.empty:
                core = Any
            if core not in options:
                options.append(core)
    if Any in options:
        return Any
    # a plain str already accepts any string literal
    if str in options:
        options = [o for o in options if not (typing.get_origin(o) is Literal and all(isinstance(v, str) for v in typing.get_args(o)))]
    # try int before float so integral values stay integers
    options.sort(key=lambda o: 0 if o is int else 1)
    if len(options) == 1:
        return typing.Optional[options[0]]
    return typing.Optional[Union[tuple(options)]]


def _fmt_key(selectors: tuple[str, ...], key: tuple[str, ...]) -> str:
    return ", ".join(f"{s}={v!r}" for s, v in zip(selectors, key))


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip()


def _param_list(target: Tool) -> str:
    names = [p.name for p in target.params if p.required] + [f"[{p.name}]" for p in target.params if not p.required]
    return f" ({', '.join(names)})" if names else ""


def _describe_routes(selectors: tuple[str, ...], table: list[Route]) -> str:
    """One line per action; in multi-selector tools, combinations that differ only in the first
    selector (the same action in several apps) share a line."""
    lines = []
    if len(selectors) == 1:
        for r in table:
            full = REGISTRY[r.target]
            lines.append(f"- {r.key[0]}{_param_list(full)}: {_first_line(full.description)}")
        return "\n".join(lines)
    groups: dict[tuple[str, ...], list[Route]] = {}
    for r in table:
        groups.setdefault(r.key[1:], []).append(r)
    for rest, routes in groups.items():
        by_doc: dict[tuple[str, str], list[Route]] = {}
        for r in routes:
            full = REGISTRY[r.target]
            by_doc.setdefault((_param_list(full), _first_line(full.description)), []).append(r)
        for (params, text), members in by_doc.items():
            label = ", ".join(f"{s}={v}" for s, v in zip(selectors[1:], rest))
            firsts = ", ".join(r.key[0] for r in members)
            lines.append(f"- {selectors[0]}={firsts}; {label}{params}: {text}")
    return "\n".join(lines)


def consolidate(
    name: str,
    *,
    app: str,
    toolboxes: Iterable[str],
    summary: str,
    routes: Mapping[Any, str],
    selectors: tuple[str, ...] = ("action",),
    selector_docs: Mapping[str, str] | None = None,
) -> Tool:
    """Register a consolidated tool and return it.

    Args:
        name: registered tool name.
        app: app of the tool (``"system"`` for cross-app tools, so every scenario offers them).
        toolboxes: variants the tool belongs to (``medium``, ``compact``, ``mini``).
        summary: first sentence of the description.
        routes: selector value (or tuple of values, one per selector) -> full tool name.
        selectors: names of the selector parameters, in order.
        selector_docs: descriptions of the selector parameters.
    """
    toolboxes = tuple(toolboxes)
    if not set(toolboxes) <= set(VARIANTS):
        raise ValueError(f"{name}: unknown toolbox in {toolboxes}")
    table: list[Route] = []
    for raw_key, target in routes.items():
        key = raw_key if isinstance(raw_key, tuple) else (raw_key,)
        if len(key) != len(selectors):
            raise ValueError(f"{name}: route {raw_key!r} needs one value per selector {selectors}")
        if target not in REGISTRY:
            raise KeyError(f"{name}: absorbed tool {target!r} is not registered")
        full = REGISTRY[target]
        if target in PROTECTED_TOOLS or full.app in KEPT_APPS or "full" not in full.toolboxes:
            raise ValueError(f"{name}: {target} must not be consolidated")
        table.append(Route(key, target))
    if len({r.key for r in table}) != len(table) or len({r.target for r in table}) != len(table):
        raise ValueError(f"{name}: routes must be one-to-one")
    targets = [REGISTRY[r.target] for r in table]

    sel_docs = dict(selector_docs or {})
    spec = Consolidated(name, app, toolboxes, tuple(selectors), tuple(table))
    by_key = {r.key: REGISTRY[r.target] for r in table}

    def dispatch(world: Any, **kwargs: Any) -> Any:
        key = tuple(kwargs.pop(s) for s in selectors)
        target = by_key.get(key)
        if target is None:
            first = {k[1:] for k in by_key if k[0] == key[0]}
            choices = ", ".join("/".join(k) for k in sorted(first)) if first else "none"
            raise InvalidArgument(
                f"{name} has no {_fmt_key(selectors, key)}; with {selectors[0]}={key[0]!r} "
                f"{'/'.join(selectors[1:])} must be one of: {choices}"
            )
        target = REGISTRY.get(target.name, target)  # re-resolve in case the tool was re-registered
        accepted = {p.name for p in target.params}
        args: dict[str, Any] = {}
        stray: list[str] = []
        for pname, value in kwargs.items():
            if value is NOT_GIVEN:
                continue
            if pname in accepted:
                args[pname] = value
            elif value is not None:
                stray.append(pname)
        where = _fmt_key(selectors, key)
        if stray:
            takes = ", ".join(p.name for p in target.params) or "no other parameters"
            raise InvalidArgument(
                f"{name}({where}) does not take parameter(s) {', '.join(map(repr, stray))}; it takes: {takes}"
            )
        missing = [p.name for p in target.params if p.required and p.name not in args]
        if missing:
            raise InvalidArgument(f"{name}({where}) is missing required parameter(s): {', '.join(missing)}")
        return target.call(world, args)

    def derive() -> tuple[list[Param], str]:
        """Parameters and description from the absorbed tools (on first use of the tool)."""
        for full in targets:
            clash = set(selectors) & {p.name for p in full.params}
            if clash:
                raise ValueError(f"{name}: selector(s) {clash} clash with parameters of {full.name}")
        # ---- parameters: selectors, then the union of the family's parameters in first-seen order
        values_per_selector = [list(dict.fromkeys(r.key[i] for r in table)) for i in range(len(selectors))]
        order: list[str] = []
        annotations: dict[str, list[Any]] = {}
        docs: dict[str, str] = {}
        users: dict[str, list[str]] = {}
        for route, full in zip(table, targets):
            for p in full.params:
                if p.name not in annotations:
                    order.append(p.name)
                    annotations[p.name] = []
                    users[p.name] = []
                annotations[p.name].append(p.annotation)
                if p.description and not docs.get(p.name):
                    docs[p.name] = p.description
                label = route.key[-1] if len(selectors) == 1 else "/".join(route.key)
                if label not in users[p.name]:
                    users[p.name].append(label)
        order.sort(key=lambda pname: -len(users[pname]))  # stable: ties keep first-seen order
        sig_params = [inspect.Parameter("world", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        ann_map: dict[str, Any] = {}
        arg_docs: list[str] = []
        for sel, values in zip(selectors, values_per_selector):
            ann_map[sel] = Literal[tuple(values)]
            sig_params.append(inspect.Parameter(sel, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=ann_map[sel]))
            arg_docs.append(f"    {sel}: {sel_docs.get(sel, 'what to do')}; one of {', '.join(values)}.")
        n_labels = len(table) if len(selectors) > 1 else len(values_per_selector[0])
        for pname in order:
            ann_map[pname] = _merged_annotation(annotations[pname])
            sig_params.append(inspect.Parameter(pname, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=NOT_GIVEN,
                                                annotation=ann_map[pname]))
            doc = " ".join((docs.get(pname) or pname.replace("_", " ")).split()).rstrip(".")
            if len(users[pname]) < n_labels:
                shown = users[pname] if len(users[pname]) <= 8 else users[pname][:8] + ["..."]
                doc += f" (for {', '.join(shown)})"
            arg_docs.append(f"    {pname}: {doc}.")

        # ---- description
        lines = [summary.strip(), "Actions (parameters in [] are optional):\n" + _describe_routes(tuple(selectors), table)]
        doc_text = "\n\n".join(lines) + "\n\nArgs:\n" + "\n".join(arg_docs) + "\n"
        dispatch.__doc__ = doc_text
        dispatch.__annotations__ = dict(ann_map)
        dispatch.__signature__ = inspect.Signature(sig_params)  # type: ignore[attr-defined]
        return signature_params(dispatch)

    dispatch.__name__ = name
    dispatch.__qualname__ = f"variants.{name}"
    tool(
        app=app,
        name=name,
        toolboxes=toolboxes,
        writes=any(t.writes for t in targets),
        absorbs=tuple(r.target for r in table),
        derive=derive,
    )(dispatch)
    CONSOLIDATED[name] = spec
    return REGISTRY[name]


def actions(prefix: str, **names: str) -> dict[str, str]:
    """Shorthand for routes: ``actions("simple_note_", create="create_note")``."""
    return {action: prefix + suffix for action, suffix in names.items()}


def per_app(apps: Iterable[str], action_suffixes: Mapping[str, str]) -> dict[tuple[str, str], str]:
    """Routes ``(app, action) -> f"{app}_{suffix}"`` for every app having that tool."""
    out: dict[tuple[str, str], str] = {}
    for app in apps:
        for action, suffix in action_suffixes.items():
            target = f"{app}_{suffix}"
            if target in REGISTRY:
                out[(app, action)] = target
    return out
