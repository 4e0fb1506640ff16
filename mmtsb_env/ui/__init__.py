"""Declarative UI screens (A2UI v0.8 message shapes): schemas, validation, state, a Pillow
renderer, the ``ui`` tools, the scripted user's UI choices and UI evaluation (see ``docs/ui.md``).

Modules: :mod:`.schema` (JSON Schemas), :mod:`.validation` (parse + check with located errors),
:mod:`.state` (per-episode surfaces in ``world.services["ui"]``), :mod:`.renderer` (screenshots),
:mod:`.elements` (interactive elements), :mod:`.screens` / :mod:`.interaction` (tool logic),
:mod:`.tools` (registered tools), :mod:`.docs` (docs content), :mod:`.choice` (scripted user),
:mod:`.evaluation` (UI checks and LLM-judge prompt; imported from its module: it builds on the
episode and the evaluation package, which the UI tools' package must not reach).

>>> from mmtsb_env.ui import COMPONENT_TYPES, validate_messages
>>> len(COMPONENT_TYPES)
14
"""

from importlib import import_module
from typing import Any

# Public name -> the submodule defining it. Submodules are imported when a name is first read
# (``from mmtsb_env.ui import render_surface``), so importing one part (the scripted user's
# ``choice``) does not load the renderer, the screens and the docs.
_SOURCES = {
    "user_interact": "interaction", "render_surface": "renderer",
    "CLIENT_TO_SERVER_SCHEMA": "schema", "COMPONENT_SCHEMAS": "schema", "COMPONENT_TYPES": "schema",
    "INTERACTIVE_TYPES": "schema", "MESSAGE_TYPES": "schema", "SERVER_TO_CLIENT_SCHEMA": "schema",
    "render_ui": "screens", "show_ui": "screens", "UIState": "state", "ui_state": "state",
    "Issue": "validation", "UIValidationError": "validation", "parse_ui_json": "validation",
    "validate_messages": "validation",
}


def __getattr__(name: str) -> Any:
    if name in _SOURCES:
        value = getattr(import_module(f"{__name__}.{_SOURCES[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_SOURCES])


__all__ = [
    "CLIENT_TO_SERVER_SCHEMA", "COMPONENT_SCHEMAS", "COMPONENT_TYPES", "INTERACTIVE_TYPES", "Issue", "MESSAGE_TYPES",
    "SERVER_TO_CLIENT_SCHEMA", "UIState", "UIValidationError", "parse_ui_json", "render_surface", "render_ui", "show_ui",
    "ui_state", "user_interact", "validate_messages",
]
