"""Declarative UI screens (A2UI v0.8 message shapes): schemas, validation, state, a Pillow
renderer, the ``ui`` tools, the scripted user's UI choices and UI evaluation (see ``docs/ui.md``).

Modules: :mod:`.schema` (JSON Schemas), :mod:`.validation` (parse + check with located errors),
:mod:`.state` (per-episode surfaces in ``world.services["ui"]``), :mod:`.renderer` (screenshots),
:mod:`.elements` (interactive elements), :mod:`.screens` / :mod:`.interaction` (tool logic),
:mod:`.tools` (registered tools), :mod:`.docs` (docs content), :mod:`.choice` (scripted user),
:mod:`.evaluation` (UI checks and LLM-judge prompt).

>>> from mmtsb_env.ui import COMPONENT_TYPES, validate_messages
>>> len(COMPONENT_TYPES)
14
"""

from .evaluation import ui_criteria, ui_judge_messages, ui_verdict
from .interaction import user_interact
from .renderer import render_surface
from .schema import (
    CLIENT_TO_SERVER_SCHEMA, COMPONENT_SCHEMAS, COMPONENT_TYPES, INTERACTIVE_TYPES, MESSAGE_TYPES, SERVER_TO_CLIENT_SCHEMA,
)
from .screens import render_ui, show_ui
from .state import UIState, ui_state
from .validation import Issue, UIValidationError, parse_ui_json, validate_messages

__all__ = [
    "CLIENT_TO_SERVER_SCHEMA", "COMPONENT_SCHEMAS", "COMPONENT_TYPES", "INTERACTIVE_TYPES", "Issue", "MESSAGE_TYPES",
    "SERVER_TO_CLIENT_SCHEMA", "UIState", "UIValidationError", "parse_ui_json", "render_surface", "render_ui", "show_ui",
    "ui_criteria", "ui_judge_messages", "ui_state", "ui_verdict", "user_interact", "validate_messages",
]
