"""Venmo payment requests (ask someone for money; they approve or deny) and notifications.

In a payment request the *sender* asks for money and the *receiver* is asked to pay. Only the
receiver approves or denies; only the sender edits, reminds or deletes it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, Literal

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ....world import parse_datetime
from ..._common import now_str, paginate, search_rank
from ..tables import (
    APP, NOTIFICATIONS, REQ, REQUESTS, check_amount, dollars, make_payment, me, notify, person, user_by_email,
    user_search_text,
)

REMIND_INTERVAL = timedelta(hours=24)
Status = Literal["pending", "approved", "denied"]


def _view(world: Any, row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "sender": person(world, row["sender_id"]), "receiver": person(world, row["receiver_id"])}


def _request(world: Any, me_id: int, payment_request_id: int) -> dict[str, Any]:
    row = world.get(REQUESTS, payment_request_id)
    if row is None or me_id not in (row["sender_id"], row["receiver_id"]):
        raise NotFound(f"payment request with id {payment_request_id} does not exist in your account")
    return row


def _as_sender(world: Any, me_id: int, payment_request_id: int, action: str) -> dict[str, Any]:
    row = _request(world, me_id, payment_request_id)
    if row["sender_id"] != me_id:
        raise PermissionDenied(f"only the person who sent a payment request can {action} it; this one was sent to "
                               "you (approve or deny it instead)")
    return row


def _as_receiver(world: Any, me_id: int, payment_request_id: int, action: str) -> dict[str, Any]:
    row = _request(world, me_id, payment_request_id)
    if row["receiver_id"] != me_id:
        raise PermissionDenied(f"only the person asked to pay can {action} a payment request; you sent this one "
                               f"to {person(world, row['receiver_id'])['name']}")
    return row


def _pending(row: dict[str, Any], action: str) -> None:
    if row["status"] != "pending":
        raise Conflict(f"payment request {row['id']} is already {row['status']}; only pending requests can be {action}")


def _close(world: Any, user: dict[str, Any], row: dict[str, Any], status: str, **links: Any) -> None:
    """Mark a pending request ``status`` ("approved"/"denied") and tell the requester."""
    now = now_str(world)
    world.update(REQUESTS, row["id"], status=status, **{f"{status}_at": now}, updated_at=now, **links)
    notify(world, row["sender_id"], f"payment_request_{status}",
           f"{user['first_name']} {user['last_name']} {status} your request for {dollars(row['amount'])}",
           payment_request_id=row["id"], **links)


def _list(world: Any, mine_col: str, other_col: str, query: str | None, status: str | None,
          page_index: int | None, page_limit: int | None) -> list:
    user = me(world)
    rows = [r for r in world.rows(REQUESTS) if r[mine_col] == user["id"] and (status is None or r["status"] == status)]
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    if query and query.strip():
        names = user_search_text(world)
        rows = [{**r, "_other": names.get(r[other_col], "")} for r in rows]
        rows = search_rank(rows, query, ("description", "_other"))
        rows = [{k: v for k, v in r.items() if k != "_other"} for r in rows]
    return [_view(world, r) for r in paginate(rows, page_index, page_limit)]


# ---------------------------------------------------------------------------- payment requests
@tool(app=APP, requires=REQ)
def venmo_show_received_payment_requests(
    world, query: str | None = "", status: Status | None = None, page_index: int | None = 0, page_limit: int | None = 5
) -> list:
    """List payment requests other people sent you (money they ask you to pay), newest first.

    Args:
        query: words of the description or of the requester's name or email (empty matches all).
        status: only "pending", "approved" or "denied" requests.
        page_index: page to return, from 0.
        page_limit: requests per page (1-20).
    """
    return _list(world, "receiver_id", "sender_id", query, status, page_index, page_limit)


@tool(app=APP, requires=REQ)
def venmo_show_sent_payment_requests(
    world, query: str | None = "", status: Status | None = None, page_index: int | None = 0, page_limit: int | None = 5
) -> list:
    """List payment requests you sent to other people (money you asked for), newest first.

    Args:
        query: words of the description or of the other person's name or email (empty matches all).
        status: only "pending", "approved" or "denied" requests.
        page_index: page to return, from 0.
        page_limit: requests per page (1-20).
    """
    return _list(world, "sender_id", "receiver_id", query, status, page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def venmo_create_payment_request(
    world, user_email: str, amount: float, description: str = "", private: bool = False
) -> dict:
    """Ask another Venmo user to pay you an amount; they are notified and can approve or deny it.

    Args:
        user_email: email of the person who should pay.
        amount: dollars requested (positive, at most two decimals).
        description: what the money is for.
        private: if true, the payment that settles it is private.
    """
    user = me(world)
    other = user_by_email(world, user_email)
    if other["id"] == user["id"]:
        raise InvalidArgument("you cannot request money from yourself")
    amount = check_amount(amount)
    now = now_str(world)
    row = world.insert(REQUESTS, {
        "id": world.new_id(REQUESTS), "sender_id": user["id"], "receiver_id": other["id"], "amount": amount,
        "description": description, "private": private, "status": "pending", "created_at": now, "updated_at": now,
    })
    notify(world, other["id"], "payment_request_received",
           f"{user['first_name']} {user['last_name']} requests {dollars(amount)} for \"{description}\"",
           payment_request_id=row["id"])
    return {"message": f"Requested {dollars(amount)} from {other['first_name']} {other['last_name']}.",
            "payment_request_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def venmo_update_payment_request(
    world,
    payment_request_id: int,
    amount: float | None = None,
    description: str | None = None,
    private: bool | None = None,
) -> dict:
    """Change the amount, description or privacy of a pending request you sent.

    Args:
        payment_request_id: id of the payment request.
        amount: the new amount in dollars.
        description: the new description.
        private: the new privacy setting.
    """
    user = me(world)
    row = _as_sender(world, user["id"], payment_request_id, "edit")
    _pending(row, "edited")
    changes: dict[str, Any] = {k: v for k, v in (("description", description), ("private", private)) if v is not None}
    if amount is not None:
        changes["amount"] = check_amount(amount)
    if not changes:
        raise InvalidArgument("nothing to update: give amount, description or private")
    world.update(REQUESTS, payment_request_id, **changes, updated_at=now_str(world))
    return {"message": "Payment request updated."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_delete_payment_request(world, payment_request_id: int) -> dict:
    """Cancel and delete a request you sent that has not been paid.

    Args:
        payment_request_id: id of the payment request.
    """
    user = me(world)
    row = _as_sender(world, user["id"], payment_request_id, "delete")
    if row["status"] == "approved":
        raise Conflict(f"payment request {payment_request_id} was already paid and cannot be deleted")
    world.delete(REQUESTS, payment_request_id)
    return {"message": "Payment request deleted."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_approve_payment_request(world, payment_request_id: int, payment_card_id: int | None = None) -> dict:
    """Pay a pending request someone sent you.

    The money comes from your Venmo balance, or from one of your payment cards if you give
    payment_card_id; a transaction is created and the requester's balance grows.

    Args:
        payment_request_id: id of the payment request.
        payment_card_id: pay with this card of yours instead of your Venmo balance.
    """
    user = me(world)
    row = _as_receiver(world, user["id"], payment_request_id, "approve")
    _pending(row, "approved")
    tx = make_payment(world, user, row["sender_id"], row["amount"], row["description"], row["private"],
                      payment_card_id)
    _close(world, user, row, "approved", transaction_id=tx["id"])
    return {"message": f"Paid {dollars(row['amount'])} to {person(world, row['sender_id'])['name']}.",
            "transaction_id": tx["id"]}


@tool(app=APP, writes=True, requires=REQ)
def venmo_deny_payment_request(world, payment_request_id: int) -> dict:
    """Decline a pending request someone sent you; nothing is paid.

    Args:
        payment_request_id: id of the payment request.
    """
    user = me(world)
    row = _as_receiver(world, user["id"], payment_request_id, "deny")
    _pending(row, "denied")
    _close(world, user, row, "denied")
    return {"message": "Payment request denied."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_remind_payment_request(world, payment_request_id: int) -> dict:
    """Send a reminder about a pending request you sent (at most once every 24 hours).

    Args:
        payment_request_id: id of the payment request.
    """
    user = me(world)
    row = _as_sender(world, user["id"], payment_request_id, "remind about")
    _pending(row, "reminded about")
    if row["last_reminded_at"]:
        last = parse_datetime(row["last_reminded_at"])
        if world.now - last < REMIND_INTERVAL:
            raise Conflict(f"you already sent a reminder at {row['last_reminded_at']}; wait 24 hours between reminders")
    world.update(REQUESTS, payment_request_id, last_reminded_at=now_str(world),
                 reminder_count=row["reminder_count"] + 1)
    notify(world, row["receiver_id"], "payment_request_reminder",
           f"Reminder: {user['first_name']} {user['last_name']} requests {dollars(row['amount'])} "
           f"for \"{row['description']}\"", payment_request_id=payment_request_id)
    return {"message": f"Reminder sent to {person(world, row['receiver_id'])['name']}."}


# ---------------------------------------------------------------------------- notifications
def _notifications(world: Any, user_id: int, read: bool | None) -> list[dict[str, Any]]:
    rows = [r for r in world.rows(NOTIFICATIONS) if r["user_id"] == user_id and (read is None or r["read"] == read)]
    rows.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    return rows


def _own_notification(world: Any, user_id: int, notification_id: int) -> dict[str, Any]:
    row = world.get(NOTIFICATIONS, notification_id)
    if row is None or row["user_id"] != user_id:
        raise NotFound(f"notification with id {notification_id} does not exist in your account")
    return row


@tool(app=APP, requires=REQ)
def venmo_show_notifications(
    world, read: bool | None = None, page_index: int | None = 0, page_limit: int | None = 5
) -> list:
    """List your Venmo notifications, newest first.

    Args:
        read: only read (true) or only unread (false) notifications; omit for all.
        page_index: page to return, from 0.
        page_limit: notifications per page (1-20).
    """
    return [dict(r) for r in paginate(_notifications(world, me(world)["id"], read), page_index, page_limit)]


@tool(app=APP, requires=REQ)
def venmo_show_notifications_count(world, read: bool | None = None) -> dict:
    """Count your Venmo notifications.

    Args:
        read: count only read (true) or only unread (false) ones; omit to count all.
    """
    return {"count": len(_notifications(world, me(world)["id"], read))}


@tool(app=APP, writes=True, requires=REQ)
def venmo_delete_notifications(world) -> dict:
    """Delete all of your Venmo notifications."""
    rows = _notifications(world, me(world)["id"], None)
    for row in rows:
        world.delete(NOTIFICATIONS, row["id"])
    return {"message": f"Deleted {len(rows)} notification(s).", "deleted": len(rows)}


@tool(app=APP, writes=True, requires=REQ)
def venmo_mark_notifications(world, read: bool) -> dict:
    """Mark all of your Venmo notifications as read or as unread.

    Args:
        read: true to mark them read, false to mark them unread.
    """
    rows = _notifications(world, me(world)["id"], not read)
    for row in rows:
        world.update(NOTIFICATIONS, row["id"], read=read)
    return {"message": f"Marked {len(rows)} notification(s) as {'read' if read else 'unread'}.", "changed": len(rows)}


@tool(app=APP, writes=True, requires=REQ)
def venmo_delete_notification(world, notification_id: int) -> dict:
    """Delete one of your notifications.

    Args:
        notification_id: id of the notification.
    """
    _own_notification(world, me(world)["id"], notification_id)
    world.delete(NOTIFICATIONS, notification_id)
    return {"message": "Notification deleted."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_mark_notification(world, notification_id: int, read: bool) -> dict:
    """Mark one notification as read or as unread.

    Args:
        notification_id: id of the notification.
        read: true for read, false for unread.
    """
    row = _own_notification(world, me(world)["id"], notification_id)
    if row["read"] != read:
        world.update(NOTIFICATIONS, notification_id, read=read)
    return {"message": f"Notification marked as {'read' if read else 'unread'}."}
