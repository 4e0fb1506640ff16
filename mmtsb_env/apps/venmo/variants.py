"""Venmo: request, transaction, comment, balance and friend CRUD (medium, mostly shared with
compact, which lists requests in the request tool); one tool (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "venmo_"

_REQUEST = dict(create="create_payment_request", update="update_payment_request", delete="delete_payment_request",
                approve="approve_payment_request", deny="deny_payment_request", remind="remind_payment_request")
_REQUEST_LISTS = dict(list_received="show_received_payment_requests", list_sent="show_sent_payment_requests")
_TRANSACTION = dict(create="create_transaction", show="show_transaction", update="update_transaction")
_TRANSACTION_MORE = dict(list="show_transactions", like="like_transaction", unlike="unlike_transaction",
                         download_receipt="download_transaction_receipt")
_COMMENT = dict(create="create_transaction_comment", show="show_transaction_comment",
                update="update_transaction_comment", delete="delete_transaction_comment")
_COMMENT_MORE = dict(list="show_transaction_comments", like="like_transaction_comment",
                     unlike="unlike_transaction_comment")
_BALANCE = dict(show="show_venmo_balance", add="add_to_venmo_balance", withdraw="withdraw_from_venmo_balance")
_BALANCE_MORE = dict(transfers="show_bank_transfer_history", download_transfer_receipt="download_bank_transfer_receipt")
_FRIEND = dict(add="add_friend", remove="remove_friend")

# ---------------------------------------------------------------- medium
consolidate("venmo_manage_payment_request", app="venmo", toolboxes=("medium",),
            summary="Venmo payment requests: create, update or delete yours; approve, deny or remind.",
            routes=actions(P, **_REQUEST))
consolidate("venmo_manage_transaction", app="venmo", toolboxes=("medium", "compact"),
            summary="Send money on Venmo, show a transaction, or update its description/privacy.",
            routes=actions(P, **_TRANSACTION))
consolidate("venmo_manage_comment", app="venmo", toolboxes=("medium", "compact"),
            summary="Comment on a Venmo transaction, show, update or delete a comment.", routes=actions(P, **_COMMENT))
consolidate("venmo_manage_balance", app="venmo", toolboxes=("medium", "compact"),
            summary="Your Venmo balance: show it, add money from a card, or withdraw to a card.",
            routes=actions(P, **_BALANCE))
consolidate("venmo_manage_friend", app="venmo", toolboxes=("medium", "compact"),
            summary="Add or remove a Venmo friend.", routes=actions(P, **_FRIEND))

# ---------------------------------------------------------------- compact
consolidate("venmo_payment_requests", app="venmo", toolboxes=("compact",),
            summary="Venmo payment requests: list received or sent ones, create, update, delete, approve, deny, remind.",
            routes=actions(P, **_REQUEST_LISTS, **_REQUEST))

# ---------------------------------------------------------------- mini
consolidate("venmo", app="venmo", toolboxes=("mini",), selectors=("entity", "action"),
            selector_docs={"entity": "transaction, request, balance, comment, friend or feed", "action": "what to do"},
            summary="Everything in Venmo: transactions (send, list, show, update, like, receipts), payment requests, "
                    "your balance and bank transfers, comments, friends and the social feed.",
            routes={**{("transaction", a): P + s for a, s in {**_TRANSACTION_MORE, **_TRANSACTION}.items()},
                    **{("request", a): P + s for a, s in {**_REQUEST_LISTS, **_REQUEST}.items()},
                    **{("balance", a): P + s for a, s in {**_BALANCE, **_BALANCE_MORE}.items()},
                    **{("comment", a): P + s for a, s in {**_COMMENT_MORE, **_COMMENT}.items()},
                    **{("friend", a): P + s for a, s in {"search": "search_friends", **_FRIEND}.items()},
                    ("feed", "show"): P + "show_social_feed"})
