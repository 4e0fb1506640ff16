"""One table per app domain of what the generator can read, write and check (see ``generation.engine``)."""

from . import (alarms, amazon, calendar, contacts, cross_app, file_system, gmail, messages, phone, reminder, setting,
               simple_note, splitwise, spotify, supervisor, todoist, venmo, web_search)

TABLES = {m.__name__.rsplit(".", 1)[1]: m.ROWS for m in (
    alarms, amazon, calendar, contacts, file_system, gmail, messages, phone, reminder, setting, simple_note, splitwise,
    spotify, supervisor, todoist, venmo, web_search, cross_app)}
ROWS = tuple(r for rows in TABLES.values() for r in rows)
