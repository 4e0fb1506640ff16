"""Contacts: one tool per contact action (medium); the whole contact book in one tool (compact, mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

consolidate(
    "contacts_manage_contact", app="contacts", toolboxes=("medium",),
    summary="Add, update or delete a person in your contact book.",
    routes=actions("contacts_", add="add_contact", update="update_contact", delete="delete_contact"),
)
consolidate(
    "contacts", app="contacts", toolboxes=("compact", "mini"),
    summary="Your contact book: search it, add, update or delete a contact, list relationship names, "
            "or show someone's phone profile.",
    routes=actions("contacts_", search="search_contacts", add="add_contact", update="update_contact",
                   delete="delete_contact", relationships="show_contact_relationships", show_profile="show_profile"),
)
