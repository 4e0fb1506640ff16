"""Application domains. Importing this package registers every app's tables, tools and data.

Each domain is one package here with the same files: ``tables.py`` (its tables, base-world
population and the lookups its tools share), ``data.py`` (data pools and base data, where a
domain has many), ``tools.py`` or ``tools/`` (one module per area, in the domains with more than
~40 tools) and ``variants.py`` (its consolidated tools of the medium/compact/mini toolboxes,
loaded by :mod:`mmtsb_env.tools.catalog`). Modules whose name starts with ``_`` are shared
helpers. Domains are registered in the order of :data:`DOMAINS` (alphabetical).
"""

from . import (
    alarms, amazon, calendar, contacts, file_system, gmail, messages, phone, reminder, setting, simple_note, splitwise,
    spotify, supervisor, todoist, venmo, web_search,
)

DOMAINS = tuple(domain.__name__.rpartition(".")[2] for domain in (
    alarms, amazon, calendar, contacts, file_system, gmail, messages, phone, reminder, setting, simple_note, splitwise,
    spotify, supervisor, todoist, venmo, web_search,
))
