"""Contacts and the phone's messages."""

from __future__ import annotations

from ._dispatch import actions, consolidate

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

for _kind in ("text", "voice"):
    consolidate(
        f"messages_manage_{_kind}_message", app="messages", toolboxes=("medium",),
        summary=f"Show, send or delete a {_kind} message.",
        routes=actions("messages_", show=f"show_{_kind}_message", send=f"send_{_kind}_message",
                       delete=f"delete_{_kind}_message"),
    )

consolidate(
    "messages", app="messages", toolboxes=("compact", "mini"), selectors=("kind", "action"),
    selector_docs={"kind": "text or voice", "action": "search, conversation, show, send or delete"},
    summary="Text (SMS) and voice messages: search them, show the conversation with one number, show one, "
            "send one, or delete one.",
    routes={
        (k, a): f"messages_{verb}"
        for k in ("text", "voice")
        for a, verb in (("search", f"search_{k}_messages"), ("conversation", f"show_{k}_message_window"),
                        ("show", f"show_{k}_message"), ("send", f"send_{k}_message"), ("delete", f"delete_{k}_message"))
    },
)

consolidate(
    "supervisor_show", app="supervisor", toolboxes=("compact", "mini"), selectors=("entity_type",),
    selector_docs={"entity_type": "what to show"},
    summary="Facts about you, the device owner: your profile, saved addresses, payment cards or app passwords.",
    routes={"profile": "supervisor_show_profile", "addresses": "supervisor_show_addresses",
            "payment_cards": "supervisor_show_payment_cards", "account_passwords": "supervisor_show_account_passwords"},
)
