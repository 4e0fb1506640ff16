"""Per-episode UI state: surfaces (components + data model), what was rendered, shown and done.

It lives in ``world.services["ui"]`` and is created on first use by :func:`ui_state`. Changes are
staged on a copy (:meth:`UIState.staged`) and committed only when a whole ``render_ui_screen``
call is valid, so a failed call leaves the state untouched.

>>> from mmtsb_env.world import World, Layer
>>> world = World(Layer())
>>> state = ui_state(world)
>>> state is ui_state(world), state.last_render is None
(True, True)
>>> surfaces = state.staged()
>>> touched = apply_messages(surfaces, [
...     {"surfaceUpdate": {"surfaceId": "s", "components": [
...         {"id": "t", "component": {"Text": {"text": {"literalString": "Hi"}}}}]}},
...     {"beginRendering": {"surfaceId": "s", "root": "t"}}])
>>> touched, check_surfaces(surfaces, touched)
(['s'], [])
"""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field
from typing import Any

from .datamodel import apply_data_update
from .tree import Component, TreeProblem, build_tree
from .validation import Issue


@dataclass
class Surface:
    """One screen: its components, root, data model and style."""

    surface_id: str
    root: str | None = None
    components: dict[str, Component] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)
    # values the user entered in fields that are not bound to a data-model path (instance id -> value)
    local: dict[str, Any] = field(default_factory=dict)
    styles: dict[str, Any] = field(default_factory=dict)
    begun: bool = False
    # where each component was last declared in the current call: id -> (message index, component index)
    origin: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)

    def copy(self) -> "Surface":
        return Surface(self.surface_id, self.root, dict(self.components), copy.deepcopy(self.data),
                       copy.deepcopy(self.local), dict(self.styles), self.begun)


@dataclass(frozen=True)
class RenderRecord:
    """A screenshot of a surface stored in the image store."""

    seq: int
    surface_id: str
    image_id: int
    elements: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...] = ()
    kind: str = "render"  # "render" (by the assistant) or "interaction" (re-render after a user action)
    ui_json: Any = None


@dataclass(frozen=True)
class ShownRecord:
    """A screenshot delivered to the user by ``show_ui_to_user``."""

    seq: int
    surface_id: str
    image_id: int
    elements: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class InteractionRecord:
    """What the user did through ``ui_user_interact``."""

    seq: int
    user_action: dict[str, Any]
    component_type: str
    label: str
    field_values: dict[str, Any]
    image_id: int


class UIState:
    """All UI state of one episode. Methods are safe to call from several threads."""

    def __init__(self) -> None:
        self.surfaces: dict[str, Surface] = {}
        self.renders: list[RenderRecord] = []
        self.shown: list[ShownRecord] = []
        self.interactions: list[InteractionRecord] = []
        self.lock = threading.RLock()
        self._seq = 0

    def next_seq(self) -> int:
        with self.lock:
            self._seq += 1
            return self._seq

    def staged(self) -> dict[str, Surface]:
        """A copy of the surfaces to apply a batch of messages to."""
        with self.lock:
            return {sid: s.copy() for sid, s in self.surfaces.items()}

    def commit(self, surfaces: dict[str, Surface]) -> None:
        with self.lock:
            for s in surfaces.values():
                s.origin = {}
            self.surfaces = surfaces

    @property
    def last_render(self) -> RenderRecord | None:
        """The latest screenshot made by ``render_ui_screen`` (not interaction re-renders)."""
        with self.lock:
            for record in reversed(self.renders):
                if record.kind == "render":
                    return record
            return None

    @property
    def last_shown(self) -> ShownRecord | None:
        with self.lock:
            return self.shown[-1] if self.shown else None

    def shown_record(self, image_id: int) -> ShownRecord | None:
        with self.lock:
            for record in reversed(self.shown):
                if record.image_id == image_id:
                    return record
            return None

    def render_record(self, image_id: int) -> RenderRecord | None:
        with self.lock:
            for record in reversed(self.renders):
                if record.image_id == image_id:
                    return record
            return None

    def to_json(self) -> dict[str, Any]:
        """A summary (for evidence and debugging)."""
        with self.lock:
            return {
                "surfaces": {sid: {"root": s.root, "components": len(s.components), "data": s.data}
                             for sid, s in self.surfaces.items()},
                "renders": [{"seq": r.seq, "surface_id": r.surface_id, "image_id": r.image_id, "kind": r.kind,
                             "elements": list(r.elements)} for r in self.renders],
                "shown": [{"seq": r.seq, "surface_id": r.surface_id, "image_id": r.image_id} for r in self.shown],
                "interactions": [{"seq": r.seq, "user_action": r.user_action, "field_values": r.field_values,
                                  "image_id": r.image_id} for r in self.interactions],
            }


def ui_state(world: Any) -> UIState:
    """The episode's UI state, created on first use in ``world.services["ui"]``."""
    services = world.services
    state = services.get("ui")
    if state is None:
        state = services.setdefault("ui", UIState())
    return state


def apply_messages(surfaces: dict[str, Surface], messages: list[dict[str, Any]]) -> list[str]:
    """Apply validated messages to ``surfaces`` in order; returns the ids of surfaces touched and
    still present (in first-touched order). Deleting a missing surface raises :class:`UIApplyError`."""
    touched: list[str] = []
    issues: list[Issue] = []

    def surface(sid: str) -> Surface:
        if sid not in surfaces:
            surfaces[sid] = Surface(sid)
        if sid not in touched:
            touched.append(sid)
        return surfaces[sid]

    for i, msg in enumerate(messages):
        (mtype, body), = msg.items()
        sid = body["surfaceId"]
        if mtype == "beginRendering":
            s = surface(sid)
            s.root = body["root"]
            s.styles = dict(body.get("styles", {}))
            s.begun = True
        elif mtype == "surfaceUpdate":
            s = surface(sid)
            for ci, inst in enumerate(body["components"]):
                (ctype, props), = inst["component"].items()
                s.components[inst["id"]] = Component(inst["id"], ctype, props, inst.get("weight"))
                s.origin[inst["id"]] = (i, ci)
        elif mtype == "dataModelUpdate":
            s = surface(sid)
            apply_data_update(s.data, body.get("path"), body["contents"])
        elif mtype == "deleteSurface":
            if sid not in surfaces:
                known = ", ".join(sorted(surfaces)) or "none"
                issues.append(Issue(i, f"there is no surface {sid!r} to delete (existing surfaces: {known})",
                                    f"$[{i}].deleteSurface.surfaceId", mtype, sid))
                continue
            del surfaces[sid]
            if sid in touched:
                touched.remove(sid)
    if issues:
        from .validation import UIValidationError

        raise UIValidationError(issues)
    return touched


def check_surfaces(surfaces: dict[str, Surface], touched: list[str]) -> list[Issue]:
    """Problems that make a touched surface undrawable: no beginRendering, missing ids, cycles."""
    issues: list[Issue] = []
    for sid in touched:
        s = surfaces[sid]
        if not s.begun:
            root_hint = next(iter(s.components), "<root id>")
            issues.append(Issue(None, f"surface {sid!r} has no beginRendering yet; add "
                                f"{{\"beginRendering\": {{\"surfaceId\": \"{sid}\", \"root\": \"{root_hint}\"}}}}",
                                "$", surface_id=sid))
            continue
        # every reference of every component, so all missing ids are reported at once
        for comp in s.components.values():
            for prop, ref in comp.references():
                if ref not in s.components:
                    issues.append(component_issue(s, comp, prop, f"{prop} refers to component {ref!r}, which does not exist"
                                             + _known(s)))
        if s.root not in s.components:
            issues.append(Issue(None, f"the root component {s.root!r} does not exist" + _known(s), "$", "beginRendering", sid))
            continue
        if any(i.surface_id == sid for i in issues):
            continue
        try:
            build_tree(s.components, s.root, s.data)
        except TreeProblem as exc:
            comp = s.components.get(exc.component_id or "")
            issues.append(component_issue(s, comp, exc.prop or "", exc.reason) if comp else
                          Issue(None, exc.reason, "$", surface_id=sid))
    return issues


def _known(s: Surface) -> str:
    ids = sorted(s.components)
    shown = ", ".join(ids[:30]) + (" ..." if len(ids) > 30 else "")
    return f" (defined ids: {shown or 'none'})"


def component_issue(s: Surface, comp: Component, prop: str, reason: str) -> Issue:
    """An issue about ``comp`` located where it was declared in the current call (if it was)."""
    origin = s.origin.get(comp.id)
    if origin is not None:
        mi, ci = origin
        path = f"$[{mi}].surfaceUpdate.components[{ci}].component.{comp.type}" + (f".{prop}" if prop else "")
        return Issue(mi, reason, path, "surfaceUpdate", s.surface_id, comp.id, comp.type)
    return Issue(None, reason + " (component declared in an earlier call)", f"surface {s.surface_id}",
                 surface_id=s.surface_id, component_id=comp.id, component_type=comp.type)
