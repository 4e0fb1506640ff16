"""Toolbox variants: ``medium``, ``compact`` and ``mini`` built from the full toolbox.

Each domain's ``variants.py`` registers its consolidated tools (see ``consolidate.consolidate``);
the catalogue (:mod:`.catalog`, imported here) registers them all after the full toolbox and
computes passthrough membership (``toolboxes.py``); this module gathers their public names.
Consolidated tools call the very same full-toolbox tools, so a task solved with any variant
changes the world exactly as with the full toolbox.

>>> from mmtsb_env.tools.variants import toolbox_members
>>> len(toolbox_members("mini")) < len(toolbox_members("compact")) < len(toolbox_members("medium")) < len(toolbox_members("full"))
True
"""

from __future__ import annotations

from . import catalog  # noqa: F401  (every tool and every variant registered, membership synced)
from .consolidate import CONSOLIDATED, KEPT_APPS, PROTECTED_TOOLS, VARIANTS, Consolidated, consolidate
from .toolboxes import TOOLBOXES, absorbed_in, sync_toolboxes, tool_apps, toolbox_members

__all__ = [
    "CONSOLIDATED", "Consolidated", "KEPT_APPS", "PROTECTED_TOOLS", "TOOLBOXES", "VARIANTS", "absorbed_in",
    "consolidate", "sync_toolboxes", "tool_apps", "toolbox_members",
]
