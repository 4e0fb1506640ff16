"""Toolbox variants: ``medium``, ``compact`` and ``mini`` built from the full toolbox.

Each domain's ``variants.py`` registers its consolidated tools (see ``consolidate.consolidate``);
importing this module registers them all and then computes passthrough membership
(``toolboxes``). Consolidated tools call the very same full-toolbox tools, so a task solved
with any variant changes the world exactly as with the full toolbox.

>>> from mmtsb_env.tools.variants import toolbox_members
>>> len(toolbox_members("mini")) < len(toolbox_members("compact")) < len(toolbox_members("medium")) < len(toolbox_members("full"))
True
"""

from __future__ import annotations

import importlib

from .registry import TOOL_MODULES

# The full toolbox must be complete before consolidating it (passthrough is computed from it).
for _module in TOOL_MODULES:
    if _module == "mmtsb_env.tools.discovery":
        continue
    try:
        importlib.import_module(_module)
    except ModuleNotFoundError as _exc:
        if _exc.name != _module:
            raise

# Each domain's consolidated tools live in its folder (``apps/<domain>/variants.py``), the
# cross-app ones in ``apps/_accounts_variants.py``. Registration order = the order a toolbox
# lists them in (what a model sees), so it is this table's, not the domains' alphabetical one.
VARIANT_MODULES = tuple(f"mmtsb_env.apps.{m}" for m in (
    "_accounts_variants", "alarms.variants", "amazon.variants", "calendar.variants", "contacts.variants",
    "messages.variants", "supervisor.variants", "setting.variants", "file_system.variants", "gmail.variants",
    "simple_note.variants", "reminder.variants", "splitwise.variants", "spotify.variants", "todoist.variants",
    "venmo.variants",
))
for _module in VARIANT_MODULES:
    importlib.import_module(_module)

from .consolidate import CONSOLIDATED, KEPT_APPS, PROTECTED_TOOLS, VARIANTS, Consolidated, consolidate  # noqa: E402
from .toolboxes import TOOLBOXES, absorbed_in, sync_toolboxes, tool_apps, toolbox_members  # noqa: E402

sync_toolboxes()

__all__ = [
    "CONSOLIDATED", "Consolidated", "KEPT_APPS", "PROTECTED_TOOLS", "TOOLBOXES", "VARIANTS", "absorbed_in",
    "consolidate", "sync_toolboxes", "tool_apps", "toolbox_members",
]
