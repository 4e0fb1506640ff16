"""One table per app domain of what the generator can read, write and check (see ``generation.engine``)."""

from . import (alarms, amazon, calendar, contacts, cross_app, file_system, gmail, messages, phone, reminder, setting,
               simple_note, splitwise, spotify, supervisor, todoist, venmo, web_search)

TABLES = {m.__name__.rsplit(".", 1)[1]: m.ROWS for m in (
    alarms, amazon, calendar, contacts, file_system, gmail, messages, phone, reminder, setting, simple_note, splitwise,
    spotify, supervisor, todoist, venmo, web_search, cross_app)}
ROWS = tuple(r for rows in TABLES.values() for r in rows)
# how staging (generation.staging) makes look-alikes of a table's rows: one Look per table, from its domain
LOOKALIKES = {**alarms.LOOKALIKES, **calendar.LOOKALIKES, **contacts.LOOKALIKES, **file_system.LOOKALIKES,
              **gmail.LOOKALIKES, **reminder.LOOKALIKES, **simple_note.LOOKALIKES, **splitwise.LOOKALIKES,
              **spotify.LOOKALIKES, **todoist.LOOKALIKES, **venmo.LOOKALIKES}
LOOKALIKE_TWINS = gmail.LOOKALIKE_TWINS  # a table whose new rows get look-alikes in another table

# each domain's main create / update / delete tools (chosen first among equally used rows; the
# suite tests require every one of them in the built-in solutions)
MAIN = {
    "alarms": ("alarms_create_alarm", "alarms_update_alarm", "alarms_delete_alarm"),
    "amazon": ("amazon_add_product_to_cart", "amazon_update_product_quantity_in_cart", "amazon_delete_product_from_cart"),
    "calendar": ("create_calendar_event", "modify_calendar_event", "remove_calendar_event"),
    "contacts": ("contacts_add_contact", "contacts_update_contact", "contacts_delete_contact"),
    "file_system": ("file_system_create_file", "file_system_update_file", "file_system_delete_file"),
    "gmail": ("gmail_send_email", "gmail_create_draft", "gmail_update_draft", "gmail_delete_draft"),
    "messages": ("messages_send_text_message", "messages_delete_text_message"),
    "phone": ("phone_update_account_name",),
    "reminder": ("add_reminder", "modify_reminder", "remove_reminder"),
    "setting": ("set_wifi_status", "set_cellular_service_status", "set_location_service_status", "set_low_battery_mode_status"),
    "simple_note": ("simple_note_create_note", "simple_note_update_note", "simple_note_delete_note"),
    "splitwise": ("splitwise_record_expense", "splitwise_update_expense", "splitwise_delete_expense"),
    "spotify": ("spotify_create_playlist", "spotify_update_playlist", "spotify_delete_playlist"),
    "supervisor": ("supervisor_show_profile",),
    "todoist": ("todoist_create_task", "todoist_update_task", "todoist_delete_task"),
    "venmo": ("venmo_create_payment_request", "venmo_update_payment_request", "venmo_delete_payment_request"),
    "web_search": ("web_search_serper",),
}
