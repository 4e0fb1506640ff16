"""Application domains. Importing this package registers every app's tables, tools and data.

Each public module here is one domain (``amazon``, ``spotify``, ...); modules whose name starts
with ``_`` are shared helpers. Modules are found automatically, in alphabetical order.
"""

import pkgutil
from importlib import import_module

APP_MODULES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")))

for _name in APP_MODULES:
    import_module(f"{__name__}.{_name}")
