"""Supervisor: the owner's profile, addresses, payment cards and passwords in one tool (compact, mini)."""

from __future__ import annotations

from ...tools.consolidate import consolidate

consolidate(
    "supervisor_show", app="supervisor", toolboxes=("compact", "mini"), selectors=("entity_type",),
    selector_docs={"entity_type": "what to show"},
    summary="Facts about you, the device owner: your profile, saved addresses, payment cards or app passwords.",
    routes={"profile": "supervisor_show_profile", "addresses": "supervisor_show_addresses",
            "payment_cards": "supervisor_show_payment_cards", "account_passwords": "supervisor_show_account_passwords"},
)
