"""Messages: show/send/delete per kind (medium); text and voice messages in one tool (compact, mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

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
