"""Venmo: balance, friends, cards, transfers, requests, transactions, comments; their writes."""

from typing import Any

from ..rows import OWNER, Look, Read, Rows, Write, table

FRIENDS = Rows("venmo.users", lambda r, wi: _friend(wi, r.get("id")), unique="email")
SENT_REQ = Rows("venmo.payment_requests", {"sender_id": OWNER, "status": "pending"})
GOT_REQ = Rows("venmo.payment_requests", {"receiver_id": OWNER, "status": "pending"})
SENT_TX = Rows("venmo.transactions", {"sender_id": OWNER})
CARDS = Rows("venmo.payment_cards", {"user_id": OWNER}, unique="card_name")
MY_COMMENTS = Rows("venmo.transaction_comments", {"user_id": OWNER})
TRANSFERS = Rows("venmo.bank_transfers", {"user_id": OWNER})
NOTES = Rows("venmo.notifications", {"user_id": OWNER})


def _friend(wi, user_id) -> bool:
    return any(f["user_id"] == wi.owner_id and f["friend_id"] == user_id for f in wi.tables.get("venmo.friendships", {}).values())


ROWS = table(
    "venmo",
    Read("venmo_show_venmo_balance", {}, "venmo_balance",
         ("How much is in my Venmo balance right now?", "whats my venmo balance?"), "Your Venmo balance is ${v}."),
    Read("venmo_search_friends", {"query": "{first_name} {last_name}"}, "0.email",
         ("Which email does my Venmo friend {first_name} {last_name} use?", "venmo email of {first_name} {last_name}?"),
         "{first_name} {last_name} uses {v}.", FRIENDS),
    Read("venmo_search_users", {"query": "{email}"}, "0.is_friend",
         ("Am I friends with {first_name} {last_name} on Venmo?", "is {first_name} {last_name} my venmo friend?"),
         "Friends: {v}.", FRIENDS),
    Read("venmo_show_payment_card", {"payment_card_id": "{id}"}, "available_balance",
         ("What's the available balance on my {card_name} card in Venmo?", "{card_name} card balance on venmo?"),
         "Your {card_name} card has ${v} available.", CARDS, pre=(("venmo_show_payment_cards", {}),)),
    Read("venmo_show_bank_transfer_history", {"page_limit": 1}, "0.amount",
         ("How much was my latest Venmo bank transfer?", "last venmo transfer amount?"), "Your latest transfer was ${v}."),
    Read("venmo_show_sent_payment_requests", {"status": "pending"}, "#",
         ("How many of my Venmo payment requests are still pending?", "pending requests i sent on venmo?"),
         "{v} of your requests are pending."),
    Read("venmo_show_received_payment_requests", {"status": "pending"}, "0.amount",
         ("How much is the newest pending Venmo request someone sent me?", "latest pending request to me on venmo - amount?"),
         "It's for ${v}."),
    Read("venmo_show_transaction", {"transaction_id": "{id}"}, "receiver.name",
         ("Who did I pay in Venmo transaction {id}?", "venmo transaction {id}, who got the money?"), "You paid {v}.", SENT_TX),
    Read("venmo_show_transactions", {"direction": "sent", "page_limit": 1}, "0.amount",
         ("How much was the last payment I sent on Venmo?", "last venmo payment i made?"), "Your last payment was ${v}."),
    Read("venmo_show_transaction_comments", {"transaction_id": "{transaction_id}"}, "#",
         ("How many comments are on Venmo transaction {transaction_id}?", "comments on transaction {transaction_id}?"),
         "Transaction {transaction_id} has {v} comments.", MY_COMMENTS),
    Read("venmo_show_transaction_comment", {"comment_id": "{id}"}, "comment",
         ("What did my Venmo comment {id} say?", "read venmo comment {id}"), "It says: {v}", MY_COMMENTS),
    Read("venmo_show_social_feed", {"page_limit": 1}, "0.description",
         ("What's the top item in my Venmo feed about?", "first thing on my venmo social feed?"), "It's '{v}'."),
    Read("venmo_show_notifications", {"page_limit": 1}, "0.message",
         ("What does my newest Venmo notification say?", "latest venmo notification?"), "It says: {v}"),
    Read("venmo_show_notifications_count", {}, "count",
         ("How many Venmo notifications are waiting for me?", "venmo notification count?"), "You have {v} Venmo notifications."),
    Write("venmo_create_payment_request", {"user_email": "{email}", "amount": "{amt}", "description": "{what}"},
          ("Request ${amt} from {first_name} {last_name} on Venmo for '{what}'.", "venmo request {first_name} {last_name} ${amt}, '{what}'"),
          "I requested ${amt} from {first_name} {last_name}.", ("create", "venmo.payment_requests"), FRIENDS,
          values={"amt": (15.0, 27.5, 48.0), "what": ("concert tickets", "pizza night", "cab share")}),
    Write("venmo_update_payment_request", {"payment_request_id": "{id}", "amount": "{amt}"},
          ("Change my Venmo request {id} to ${amt}.", "venmo request {id} should be ${amt}"),
          "Request {id} is now ${amt}.", ("update", "venmo.payment_requests"), SENT_REQ, values={"amt": (20.0, 35.0)}),
    Write("venmo_delete_payment_request", {"payment_request_id": "{id}"},
          ("Cancel my Venmo request {id}.", "delete venmo request {id}"), "I cancelled request {id}.",
          ("delete", "venmo.payment_requests"), SENT_REQ, pre=(("venmo_show_sent_payment_requests", {}),)),
    Write("venmo_remind_payment_request", {"payment_request_id": "{id}"},
          ("Send a reminder for my Venmo request {id}.", "nudge them about venmo request {id}"),
          "I sent a reminder for request {id}.", ("update", "venmo.payment_requests"), SENT_REQ),
    Write("venmo_deny_payment_request", {"payment_request_id": "{id}"},
          ("Decline the Venmo request {id} that was sent to me.", "deny venmo request {id}"), "I declined request {id}.",
          ("update", "venmo.payment_requests"), GOT_REQ),
    Write("venmo_create_transaction", {"receiver_email": "{email}", "amount": "{amt}", "description": "{what}"},
          ("Send {first_name} {last_name} ${amt} on Venmo for '{what}'.", "venmo {first_name} {last_name} ${amt}, note '{what}'"),
          "I sent ${amt} to {first_name} {last_name}.", ("create", "venmo.transactions"), FRIENDS,
          values={"amt": (9.0, 14.5, 22.0), "what": ("coffee", "bus fare", "lunch")}),
    Write("venmo_update_transaction", {"transaction_id": "{id}", "private": True},
          ("Make my Venmo transaction {id} private.", "hide venmo transaction {id} from the feed"),
          "Transaction {id} is private now.", ("update", "venmo.transactions"), SENT_TX),
    Write("venmo_like_transaction", {"transaction_id": "{id}"}, ("Like Venmo transaction {id}.", "like transaction {id} on venmo"),
          "I liked transaction {id}.", ("create", "venmo.transaction_likes"), SENT_TX),
    Write("venmo_create_transaction_comment", {"transaction_id": "{id}", "comment": "{c}"},
          ("Comment '{c}' on Venmo transaction {id}.", "add '{c}' under venmo transaction {id}"),
          "I commented on transaction {id}.", ("create", "venmo.transaction_comments"), SENT_TX, values={"c": ("thanks!", "fun night")}),
    Write("venmo_update_transaction_comment", {"comment_id": "{id}", "comment": "{c}"},
          ("Change my Venmo comment {id} to '{c}'.", "edit venmo comment {id}: '{c}'"), "Comment {id} now says '{c}'.",
          ("update", "venmo.transaction_comments"), MY_COMMENTS, values={"c": ("see you soon", "all good")}),
    Write("venmo_delete_transaction_comment", {"comment_id": "{id}"}, ("Delete my Venmo comment {id}.", "remove venmo comment {id}"),
          "I deleted comment {id}.", ("delete", "venmo.transaction_comments"), MY_COMMENTS),
    Write("venmo_add_to_venmo_balance", {"amount": "{amt}", "payment_card_id": "{id}"},
          ("Top up my Venmo balance with ${amt} from my {card_name} card.", "move ${amt} from the {card_name} card into venmo"),
          "I added ${amt} to your Venmo balance.", ("create", "venmo.bank_transfers"), CARDS, values={"amt": (50.0, 75.0)}),
    Write("venmo_withdraw_from_venmo_balance", {"amount": "{amt}", "payment_card_id": "{id}"},
          ("Withdraw ${amt} from Venmo to my {card_name} card.", "cash out ${amt} to the {card_name} card"),
          "I moved ${amt} to your {card_name} card.", ("create", "venmo.bank_transfers"), CARDS, values={"amt": (30.0, 60.0)}),
    Write("venmo_update_payment_card", {"payment_card_id": "{id}", "card_name": "{new}"},
          ("Rename my {card_name} card in Venmo to '{new}'.", "venmo: call the {card_name} card '{new}'"),
          "The card is now '{new}'.", ("update", "venmo.payment_cards"), CARDS, values={"new": ("Bills card", "Daily card")}),
    Write("venmo_remove_friend", {"user_email": "{email}"},
          ("Unfriend {first_name} {last_name} on Venmo.", "remove {first_name} {last_name} from my venmo friends"),
          "{first_name} {last_name} is no longer a friend.", ("delete", "venmo.friendships"), FRIENDS),
    Write("venmo_mark_notifications", {"read": True}, ("Mark all my Venmo notifications as read.", "clear venmo notifications"),
          "All Venmo notifications are read.", ("update", "venmo.notifications")),
    Write("venmo_delete_notification", {"notification_id": "{id}"},
          ("Delete Venmo notification {id}.", "remove venmo notification {id}"), "I deleted notification {id}.",
          ("delete", "venmo.notifications"), NOTES),
)


def _other_amount(b: Any, row: dict[str, Any]) -> dict[str, Any]:
    amount = float(row.get("amount") or 20.0)
    return {"amount": round(amount + b.rng.choice([-1, 1]) * b.rng.choice([3.5, 7.25, 12.0]), 2) if amount > 15 else round(amount + 9.5, 2),
            "status": b.rng.choice(["approved", "denied"])}


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {
    "venmo.payment_requests": Look("description", when=("created_at", "updated_at"), by="name", vary=_other_amount),
}
