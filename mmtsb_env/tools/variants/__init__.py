"""Toolbox variants: ``medium``, ``compact`` and ``mini`` built from the full toolbox.

Each module registers the consolidated tools of one domain (see ``_dispatch.consolidate``);
importing this package registers them all and then computes passthrough membership
(``_membership``). Consolidated tools call the very same full-toolbox tools, so a task solved
with any variant changes the world exactly as with the full toolbox.

>>> from mmtsb_env.tools.variants import toolbox_members
>>> len(toolbox_members("mini")) < len(toolbox_members("compact")) < len(toolbox_members("medium")) < len(toolbox_members("full"))
True
"""

from __future__ import annotations

import importlib

from ..registry import TOOL_MODULES

# The full toolbox must be complete before consolidating it (passthrough is computed from it).
for _module in TOOL_MODULES:
    if _module == "mmtsb_env.tools.discovery":
        continue
    try:
        importlib.import_module(_module)
    except ModuleNotFoundError as _exc:
        if _exc.name != _module:
            raise

from . import (  # noqa: E402  (registration order = order of the docs)
    accounts, alarms, amazon, calendar, contacts, device, file_system, gmail, notes, reminders, splitwise, spotify,
    todoist, venmo,
)
from ._dispatch import CONSOLIDATED, KEPT_APPS, PROTECTED_TOOLS, VARIANTS, Consolidated, consolidate  # noqa: E402
from ._membership import TOOLBOXES, absorbed_in, sync_toolboxes, tool_apps, toolbox_members  # noqa: E402

sync_toolboxes()

__all__ = [
    "CONSOLIDATED", "Consolidated", "KEPT_APPS", "PROTECTED_TOOLS", "TOOLBOXES", "VARIANTS", "absorbed_in",
    "consolidate", "sync_toolboxes", "tool_apps", "toolbox_members",
]
