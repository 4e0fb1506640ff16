"""Splitwise: groups, balances, expenses, payments, comments, notifications; expense, payment,
group and comment writes."""

from typing import Any

from ..rows import OWNER, Look, Read, Rows, Write, table

GROUPS = Rows("splitwise.groups", {"creator_id": OWNER, "deleted": False}, unique="name")
MEMBER_GROUPS = Rows("splitwise.group_members", {"user_id": OWNER})
MY_EXPENSES = Rows("splitwise.expenses", {"creator_id": OWNER, "deleted": False}, unique="description")
MY_PAYMENTS = Rows("splitwise.payments", {"creator_id": OWNER, "deleted": False})
MY_EXP_COMMENTS = Rows("splitwise.expense_comments", {"user_id": OWNER})
MY_PAY_COMMENTS = Rows("splitwise.payment_comments", {"user_id": OWNER})
NOTES = Rows("splitwise.notifications", {"user_id": OWNER})
FRIENDS = Rows("splitwise.users", lambda r, wi: _shares_group(wi, r.get("id")))


def _shares_group(wi, user_id) -> bool:  # people the owner shares a Splitwise group with
    links = wi.tables.get("splitwise.group_members", {}).values()
    mine = {lk["group_id"] for lk in links if lk["user_id"] == wi.owner_id}
    return user_id != wi.owner_id and any(lk["user_id"] == user_id and lk["group_id"] in mine for lk in links)


GROUP_NAMES = ("Book club dinners", "Beach weekend", "Climbing gym", "Office snacks")

ROWS = table(
    "splitwise",
    Read("splitwise_show_group", {"group_id": "{id}"}, "members.#",
         ("How many people are in my Splitwise group '{name}'?", "member count of the '{name}' group?"),
         "'{name}' has {v} members.", GROUPS, pre=(("splitwise_show_groups", {}),)),
    Read("splitwise_show_group", {"group_id": "{id}"}, "invitation_code",
         ("What's the invitation code of my Splitwise group '{name}'?", "invite code for '{name}' on splitwise?"),
         "The invitation code is {v}.", GROUPS),
    Read("splitwise_show_group_balance", {"group_id": "{id}"}, lambda r: r.get("your_balance") if isinstance(r, dict) else None,
         ("What's my balance in the Splitwise group '{name}'?", "where do i stand in '{name}' on splitwise?"),
         "Your balance in '{name}' is {v}.", GROUPS),
    Read("splitwise_show_groups_balance", {}, "0.balance",
         ("What's my balance in my newest Splitwise group?", "balance in my most recent splitwise group?"),
         "Your balance there is {v}."),
    Read("splitwise_show_people_balance", {}, "#",
         ("With how many people do I have an open Splitwise balance?", "how many people do i owe or am owed by on splitwise?"),
         "You have open balances with {v} people."),
    Read("splitwise_show_person_balance", {"email": "{email}"}, "balance",
         ("What's my Splitwise balance with {first_name} {last_name}?", "how do i stand with {first_name} {last_name} on splitwise?"),
         "Your balance with {first_name} {last_name} is {v}.", FRIENDS,
         pre=(("splitwise_search_users", {"query": "{first_name} {last_name}"}),)),
    Read("splitwise_show_expense", {"expense_id": "{id}"}, "paid_amount",
         ("How much was the '{description}' expense I logged on Splitwise?", "amount of my '{description}' splitwise expense?"),
         "'{description}' was ${v}.", MY_EXPENSES),
    Read("splitwise_show_expense_comments", {"expense_id": "{expense_id}"}, "#",
         ("How many comments are on Splitwise expense {expense_id}?", "comments on expense {expense_id}, how many?"),
         "Expense {expense_id} has {v} comments.", MY_EXP_COMMENTS),
    Read("splitwise_show_expense_comment", {"comment_id": "{id}"}, "comment",
         ("What did my Splitwise comment {id} say?", "read me splitwise comment {id}"), "It says: {v}", MY_EXP_COMMENTS),
    Read("splitwise_show_payment", {"payment_id": "{id}"}, "amount",
         ("How much was Splitwise payment {id}?", "amount of splitwise payment {id}?"), "Payment {id} was ${v}.", MY_PAYMENTS),
    Read("splitwise_show_payment_comments", {"payment_id": "{payment_id}"}, "#",
         ("How many comments does Splitwise payment {payment_id} have?", "comments on payment {payment_id}?"),
         "Payment {payment_id} has {v} comments.", MY_PAY_COMMENTS),
    Read("splitwise_show_payment_comment", {"comment_id": "{id}"}, "comment",
         ("What does my comment {id} on that Splitwise payment say?", "read splitwise payment comment {id}"), "It says: {v}",
         MY_PAY_COMMENTS),
    Read("splitwise_show_group_payments", {"group_id": "{group_id}"}, "#",
         ("How many payments were recorded in Splitwise group {group_id}?", "payments in group {group_id}?"),
         "Group {group_id} has {v} payments.", MEMBER_GROUPS),
    Read("splitwise_show_no_group_expenses", {}, "#",
         ("How many of my Splitwise expenses are outside any group?", "non-group expenses on splitwise - count?"),
         "{v} of your expenses are outside groups."),
    Read("splitwise_show_no_group_payments", {}, "#",
         ("How many Splitwise payments do I have outside groups?", "non-group payments count?"), "You have {v} such payments."),
    Read("splitwise_show_activity", {"page_limit": 1}, "0.description",
         ("What's the latest thing in my Splitwise activity feed?", "newest splitwise activity?"), "The latest activity is '{v}'."),
    Read("splitwise_show_notifications", {"page_limit": 1}, "0.message",
         ("What does my newest Splitwise notification say?", "latest splitwise notification?"), "It says: {v}"),
    Read("splitwise_show_notifications_count", {}, "count",
         ("How many Splitwise notifications do I have?", "splitwise notifs - how many?"), "You have {v} Splitwise notifications."),
    Write("splitwise_create_group", {"name": "{g}", "member_emails": ["{email}"]},
          ("Start a Splitwise group '{g}' with {first_name} {last_name}.", "make a splitwise group called '{g}', add {first_name} {last_name}"),
          "I created '{g}' with {first_name} {last_name}.", ("create", "splitwise.groups"), FRIENDS, values={"g": GROUP_NAMES}),
    Write("splitwise_update_group", {"group_id": "{id}", "name": "{g}"},
          ("Rename my Splitwise group '{name}' to '{g}'.", "call the '{name}' group '{g}' now"),
          "The group is now '{g}'.", ("update", "splitwise.groups"), GROUPS, values={"g": GROUP_NAMES}),
    Write("splitwise_delete_group", {"group_id": "{id}"},
          ("Delete my Splitwise group '{name}'.", "remove the '{name}' group from splitwise"),
          "I deleted '{name}'.", ("update", "splitwise.groups"), GROUPS),
    Write("splitwise_record_expense", {"description": "{what}", "paid_amount": "{amt}", "payer_email": "{me_email}",
                                       "debtor_emails": ["{email}"]},
          ("Log a ${amt} expense '{what}' on Splitwise, I paid, split with {first_name} {last_name}.",
           "splitwise: i paid ${amt} for {what}, split with {first_name} {last_name}"),
          "I logged '{what}' (${amt}) split with {first_name} {last_name}.", ("create", "splitwise.expenses"), FRIENDS,
          values={"what": ("Parking", "Museum tickets", "Takeout"), "amt": (18.5, 42.0, 63.75)}),
    Write("splitwise_update_expense", {"expense_id": "{id}", "description": "{what}"},
          ("Rename my Splitwise expense '{description}' to '{what}'.", "the '{description}' expense should say '{what}'"),
          "The expense now reads '{what}'.", ("update", "splitwise.expenses"), MY_EXPENSES,
          values={"what": ("Groceries (shared)", "Dinner out", "Gas refill")}),
    Write("splitwise_delete_expense", {"expense_id": "{id}"},
          ("Delete my Splitwise expense '{description}'.", "remove '{description}' from splitwise"),
          "I deleted '{description}'.", ("update", "splitwise.expenses"), MY_EXPENSES),
    Write("splitwise_record_payment", {"payer_email": "{me_email}", "receiver_email": "{email}", "amount": "{amt}"},
          ("Record that I paid {first_name} {last_name} ${amt} on Splitwise.", "splitwise: log my ${amt} payment to {first_name} {last_name}"),
          "I recorded your ${amt} payment to {first_name} {last_name}.", ("create", "splitwise.payments"), FRIENDS,
          values={"amt": (12.0, 25.5, 40.0)}),
    Write("splitwise_update_payment", {"payment_id": "{id}", "description": "{what}"},
          ("Change the description of Splitwise payment {id} to '{what}'.", "payment {id} on splitwise: description '{what}'"),
          "Payment {id} now says '{what}'.", ("update", "splitwise.payments"), MY_PAYMENTS,
          values={"what": ("Paid back for tickets", "Rent share")}),
    Write("splitwise_delete_payment", {"payment_id": "{id}"},
          ("Delete Splitwise payment {id}, it was entered twice.", "remove payment {id} from splitwise"),
          "I deleted payment {id}.", ("update", "splitwise.payments"), MY_PAYMENTS),
    Write("splitwise_post_expense_comment", {"expense_id": "{id}", "comment": "{c}"},
          ("Comment '{c}' on my Splitwise expense '{description}'.", "add a comment to '{description}': {c}"),
          "I commented on '{description}'.", ("create", "splitwise.expense_comments"), MY_EXPENSES,
          values={"c": ("Receipt is in the group chat.", "Includes the tip.")}),
    Write("splitwise_update_expense_comment", {"comment_id": "{id}", "comment": "{c}"},
          ("Edit my Splitwise comment {id} to say '{c}'.", "change comment {id} to '{c}'"),
          "Comment {id} now says '{c}'.", ("update", "splitwise.expense_comments"), MY_EXP_COMMENTS,
          values={"c": ("Updated: tip included.", "Corrected the total.")}),
    Write("splitwise_delete_expense_comment", {"comment_id": "{id}"},
          ("Delete my Splitwise comment {id}.", "remove comment {id} on splitwise"),
          "I deleted comment {id}.", ("delete", "splitwise.expense_comments"), MY_EXP_COMMENTS),
    Write("splitwise_post_payment_comment", {"payment_id": "{id}", "comment": "{c}"},
          ("Comment '{c}' on Splitwise payment {id}.", "add '{c}' as a comment on payment {id}"),
          "I commented on payment {id}.", ("create", "splitwise.payment_comments"), MY_PAYMENTS,
          values={"c": ("Sent by bank transfer.", "Thanks again!")}),
    Write("splitwise_update_payment_comment", {"comment_id": "{id}", "comment": "{c}"},
          ("Change my Splitwise payment comment {id} to '{c}'.", "edit payment comment {id}: '{c}'"),
          "Comment {id} now says '{c}'.", ("update", "splitwise.payment_comments"), MY_PAY_COMMENTS,
          values={"c": ("Sent by Venmo.", "All settled.")}),
    Write("splitwise_delete_payment_comment", {"comment_id": "{id}"},
          ("Delete my comment {id} on that Splitwise payment.", "remove splitwise payment comment {id}"),
          "I deleted comment {id}.", ("delete", "splitwise.payment_comments"), MY_PAY_COMMENTS),
    Write("splitwise_mark_notifications", {"read": True},
          ("Mark all my Splitwise notifications as read.", "clear the unread badge on splitwise"),
          "All Splitwise notifications are read.", ("update", "splitwise.notifications")),
    Write("splitwise_delete_notification", {"notification_id": "{id}"},
          ("Delete Splitwise notification {id}.", "remove notification {id} on splitwise"),
          "I deleted notification {id}.", ("delete", "splitwise.notifications"), NOTES),
)


def _other_paid(b: Any, row: dict[str, Any]) -> dict[str, Any]:
    """An older expense of another amount (and no receipt): its shares are not staged, it was settled."""
    amount = float(row.get("paid_amount") or row.get("amount") or 20.0)
    other = round(amount + b.rng.choice([-1, 1]) * b.rng.choice([4.5, 8.25, 13.0]), 2) if amount > 20 else round(amount + 11.5, 2)
    return {"paid_amount": other, "amount": other, "receipt_file_name": None, "receipt_file_content": None}


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {
    "splitwise.expenses": Look("description", when=("created_at", "updated_at"), by="name", vary=_other_paid),
}
