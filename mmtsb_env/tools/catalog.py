"""The tool catalogue: every built-in tool, loaded by importing this module, and its lookups.

The modules that register tools are imported here by name, one way: they import the
``@tool`` decorator from :mod:`~.registry`, and nothing in the registry imports them back. The
order of :data:`SOURCES` is the order a toolbox lists its tools in (what a model sees): the app
domains (:data:`mmtsb_env.apps.DOMAINS`, in that order), the user's tools, code execution, the
vision tools, the UI tools and tool search; then the consolidated tools of the medium, compact
and mini toolboxes (:data:`VARIANT_SOURCES`, each domain's ``variants.py``), which are built from
the full toolbox above. A tool's place is (rank of its module in :data:`SOURCES`, registration
number), so the listing does not depend on which module some other import happened to load
first; tools registered anywhere else (consolidated tools, user code) come after, in
registration order.

>>> get_tool("spotify_next_song").app
'spotify'
>>> [t.name for t in tools_in("full")][:2]
['alarms_show_alarms', 'alarms_create_alarm']
"""

from __future__ import annotations

import difflib

# The full toolbox, in listing order (imported in that order too, so registration numbers follow it).
from .. import apps
from ..users import tools as user_tools
from . import code
from ..vision import tools as vision_tools
from ..ui import tools as ui_tools
from . import discovery
# The consolidated tools of the variants, built from the full toolbox above, in the order a
# variant lists them: the cross-app account/card/notification/subscription tools, then each domain's.
from ..apps import _accounts_variants
from ..apps.alarms import variants as alarms_variants
from ..apps.amazon import variants as amazon_variants
from ..apps.calendar import variants as calendar_variants
from ..apps.contacts import variants as contacts_variants
from ..apps.messages import variants as messages_variants
from ..apps.supervisor import variants as supervisor_variants
from ..apps.setting import variants as setting_variants
from ..apps.file_system import variants as file_system_variants
from ..apps.gmail import variants as gmail_variants
from ..apps.simple_note import variants as simple_note_variants
from ..apps.reminder import variants as reminder_variants
from ..apps.splitwise import variants as splitwise_variants
from ..apps.spotify import variants as spotify_variants
from ..apps.todoist import variants as todoist_variants
from ..apps.venmo import variants as venmo_variants
from .errors import UnknownTool
from .registry import ASSISTANT, REGISTRY, UNLISTED, Tool
from .toolboxes import sync_toolboxes

# The modules (or packages) whose tools make up the full toolbox, in listing order.
SOURCES = (apps, user_tools, code, vision_tools, ui_tools, discovery)

# Every domain's variants.py is here (tests/apps/test_domain_folders.py checks it).
VARIANT_SOURCES = (
    _accounts_variants, alarms_variants, amazon_variants, calendar_variants, contacts_variants, messages_variants,
    supervisor_variants, setting_variants, file_system_variants, gmail_variants, simple_note_variants,
    reminder_variants, splitwise_variants, spotify_variants, todoist_variants, venmo_variants,
)


def source_rank(module: str) -> int:
    """Where tools defined in ``module`` are listed: its source's index, or :data:`UNLISTED`."""
    for rank, source in enumerate(SOURCES):
        if module == source.__name__ or module.startswith(source.__name__ + "."):
            return rank
    return UNLISTED


for _tool in list(REGISTRY.values()):
    _tool.order = (source_rank(getattr(_tool.fn, "__module__", "") or ""), _tool.order[1])
sync_toolboxes()  # passthrough membership of the variants, now that the full toolbox is complete


def get_tool(name: str) -> Tool:
    """The tool with this name, or :class:`UnknownTool` with the closest names as hints."""
    try:
        return REGISTRY[name]
    except KeyError:
        close = difflib.get_close_matches(str(name), list(REGISTRY), n=3, cutoff=0.6)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise UnknownTool(f"there is no tool named {name!r}.{hint}") from None


def tools_in(toolbox: str = "full", seat: str = ASSISTANT) -> list[Tool]:
    """Tools of a toolbox variant visible to a seat, in listing order."""
    tools = [t for t in REGISTRY.values() if toolbox in t.toolboxes and seat in t.visible_to]
    return sorted(tools, key=lambda t: t.order)


__all__ = ["REGISTRY", "SOURCES", "VARIANT_SOURCES", "get_tool", "source_rank", "tools_in"]
