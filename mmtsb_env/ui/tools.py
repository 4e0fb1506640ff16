"""The ``ui`` app: build screens, show them to the user, read the UI docs; the user acts on them.

Offered to the assistant only in scenarios with ``"ui": true``; ``ui_user_interact`` belongs to the
user seat. Names and parameters follow the reference implementation's A2UI tools.
"""

from __future__ import annotations

from typing import Any

from ..tools import USER, tool
from ..tools.results import Delivery

# The screens, the renderer and the docs are imported by the first UI call, not by registration
# (most episodes never build a screen).

APP = "ui"
TOOLBOXES = ("full", "medium", "compact", "mini")


@tool(app=APP, toolboxes=TOOLBOXES)
def render_ui_screen(world, ui_json: Any, image_placeholders: Any = None) -> dict:
    """Build or update a UI screen from A2UI messages and render it to an image (the user does not see it yet).

    Send components with surfaceUpdate, start the screen with beginRendering, fill data with
    dataModelUpdate, remove a screen with deleteSurface. Call ui_get_quick_start for the format.

    Args:
        ui_json: a list of UI messages (or one message, or their JSON text).
        image_placeholders: maps placeholder names used as Image urls to image ids, e.g. {"IMAGE_URL_1": 0}.
    """
    from .screens import render_ui

    return render_ui(world, ui_json, image_placeholders)


@tool(app=APP, toolboxes=TOOLBOXES)
def show_ui_to_user(world) -> Delivery:
    """Show the last rendered screen to the user, with the list of its interactive elements."""
    from .screens import show_ui

    return show_ui(world)


@tool(app=APP, visible_to=(USER,), toolboxes=TOOLBOXES)
def ui_user_interact(world, action_name: str, surface_id: str, component_id: str, field_values: Any = None) -> Delivery:
    """Act on a screen the assistant showed you: press a button or change fields; the assistant is told what you did.

    Args:
        action_name: the button's action name (listed with the screen); for a field alone use "change".
        surface_id: id of the screen (surface).
        component_id: id of the button or field you act on.
        field_values: new field values first, keyed by field component_id or data path, e.g. {"/form/title": "Lunch"}.
    """
    from .interaction import user_interact

    return user_interact(world, action_name, surface_id, component_id, field_values)


@tool(app=APP, toolboxes=TOOLBOXES)
def ui_get_quick_start(world) -> dict:
    """Quick start for building UI screens: message format, a complete example and the component list. Call this first."""
    from . import docs

    return docs.quick_start()


@tool(app=APP, toolboxes=TOOLBOXES)
def ui_explore_capabilities(world) -> dict:
    """List the UI documentation categories (Components, Concepts, Examples) and what each holds."""
    from . import docs

    return docs.explore()


@tool(app=APP, toolboxes=TOOLBOXES)
def ui_list_items(world, category: str) -> dict:
    """List the items of a UI documentation category.

    Args:
        category: Components, Concepts or Examples.
    """
    from . import docs

    return docs.list_items(category)


@tool(app=APP, toolboxes=TOOLBOXES)
def ui_get_item_details(world, category: str, item_name: str) -> dict:
    """Full documentation of one UI item: properties, schema and example JSON (e.g. Examples / booking_form).

    Args:
        category: Components, Concepts or Examples.
        item_name: the item, e.g. Button, data_binding or choice_list.
    """
    from . import docs

    return docs.item_details(category, item_name)


@tool(app=APP, toolboxes=TOOLBOXES)
def ui_search_docs(world, query: str) -> dict:
    """Search the UI documentation and examples; returns the best matching items.

    Args:
        query: words to look for, e.g. "date picker" or "confirm dialog".
    """
    from ..tools.queries import query_words
    from . import docs

    query_words(query)  # at most MAX_QUERY_WORDS
    return docs.search(query)
