"""Venmo transactions and their social side: likes, comments and the friends' feed.

A transaction is visible to its two parties and, unless it is private, to everyone.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, paginate, search_rank, sort_rows
from ..tables import (
    APP, COMMENT_LIKES, COMMENTS, REQ, TRANSACTION_LIKES, TRANSACTIONS, USERS, check_amount, dollars, friend_ids,
    make_payment, me, name_of, notify, parse_bound, person, save_receipt, user_by_email, user_search_text,
)


def _visible(tx: dict[str, Any], me_id: int) -> bool:
    return not tx["private"] or me_id in (tx["sender_id"], tx["receiver_id"])


def visible_transaction(world: Any, me_id: int, transaction_id: int) -> dict[str, Any]:
    tx = world.get(TRANSACTIONS, transaction_id)
    if tx is None or not _visible(tx, me_id):
        raise NotFound(f"transaction with id {transaction_id} does not exist or is private")
    return tx


def _counts(world: Any, table: str, column: str) -> Counter:
    return Counter(r[column] for r in world.rows(table))


def _liked_by(world: Any, table: str, column: str, user_id: int) -> set[int]:
    return {r[column] for r in world.rows(table) if r["user_id"] == user_id}


def _tx_view(world: Any, tx: dict[str, Any], me_id: int, likes: Counter, comments: Counter, liked: set[int]) -> dict:
    out = {
        "id": tx["id"], "sender_id": tx["sender_id"], "receiver_id": tx["receiver_id"],
        "sender": person(world, tx["sender_id"]), "receiver": person(world, tx["receiver_id"]),
        "amount": tx["amount"], "description": tx["description"], "private": tx["private"],
        "created_at": tx["created_at"], "updated_at": tx["updated_at"],
        "like_count": likes.get(tx["id"], 0), "comment_count": comments.get(tx["id"], 0),
        "liked_by_you": tx["id"] in liked,
    }
    if me_id == tx["sender_id"]:
        out["direction"] = "sent"
        out["payment_method"] = "venmo_balance" if tx["payment_card_id"] is None else "payment_card"
        out["payment_card_id"] = tx["payment_card_id"]
    elif me_id == tx["receiver_id"]:
        out["direction"] = "received"
    return out


def _views(world: Any, rows: list[dict[str, Any]], me_id: int) -> list[dict[str, Any]]:
    likes = _counts(world, TRANSACTION_LIKES, "transaction_id")
    comments = _counts(world, COMMENTS, "transaction_id")
    liked = _liked_by(world, TRANSACTION_LIKES, "transaction_id", me_id)
    return [_tx_view(world, tx, me_id, likes, comments, liked) for tx in rows]


def _add_like(world: Any, table: str, column: str, key: int, user_id: int, what: str) -> None:
    """Record the user's like of a transaction or comment (Conflict if already liked)."""
    if world.first(table, user_id=user_id, **{column: key}) is not None:
        raise Conflict(f"you already like {what} {key}")
    world.insert(table, {"id": world.new_id(table), "user_id": user_id, column: key, "created_at": now_str(world)})


def _remove_like(world: Any, table: str, column: str, key: int, user_id: int, what: str) -> dict:
    like = world.first(table, user_id=user_id, **{column: key})
    if like is None:
        raise Conflict(f"you have not liked {what} {key}")
    world.delete(table, like["id"])
    return {"message": f"{what.capitalize()} unliked."}


def _tell_parties(world: Any, tx: dict[str, Any], actor: dict[str, Any], kind: str, what: str, **data: Any) -> None:
    for uid in {tx["sender_id"], tx["receiver_id"]} - {actor["id"]}:
        notify(world, uid, kind, f"{actor['first_name']} {actor['last_name']} {what}", **data)


# ---------------------------------------------------------------------------- transactions
@tool(app=APP, writes=True, requires=REQ)
def venmo_create_transaction(
    world,
    receiver_email: str,
    amount: float,
    description: str = "",
    payment_card_id: int | None = None,
    private: bool = False,
) -> dict:
    """Send money to another Venmo user.

    The money comes from your Venmo balance, or from one of your payment cards if you give
    payment_card_id. It lands in the receiver's Venmo balance.

    Args:
        receiver_email: email of the person to pay.
        amount: dollars to send (positive, at most two decimals).
        description: what the payment is for (emoji welcome).
        payment_card_id: pay with this card of yours instead of your Venmo balance.
        private: if true, only you and the receiver can see the transaction.
    """
    user = me(world)
    receiver = user_by_email(world, receiver_email)
    if receiver["id"] == user["id"]:
        raise InvalidArgument("you cannot send money to yourself")
    amount = check_amount(amount)
    tx = make_payment(world, user, receiver["id"], amount, description, private, payment_card_id)
    return {"message": f"Sent {dollars(amount)} to {receiver['first_name']} {receiver['last_name']}.",
            "transaction_id": tx["id"], "venmo_balance": world.get(USERS, user["id"])["venmo_balance"]}


@tool(app=APP, requires=REQ)
def venmo_show_transaction(world, transaction_id: int) -> dict:
    """Show one transaction: parties, amount, description, privacy, likes and comment count.

    Args:
        transaction_id: id of the transaction.
    """
    user = me(world)
    tx = visible_transaction(world, user["id"], transaction_id)
    return _views(world, [tx], user["id"])[0]


@tool(app=APP, writes=True, requires=REQ)
def venmo_update_transaction(
    world, transaction_id: int, description: str | None = None, private: bool | None = None
) -> dict:
    """Change the description or the privacy of a transaction you sent.

    Args:
        transaction_id: id of the transaction.
        description: the new description.
        private: true to make it visible only to you and the receiver, false to make it public.
    """
    user = me(world)
    tx = visible_transaction(world, user["id"], transaction_id)
    if tx["sender_id"] != user["id"]:
        raise PermissionDenied("only the sender of a transaction can edit it")
    changes = {k: v for k, v in (("description", description), ("private", private)) if v is not None}
    if not changes:
        raise InvalidArgument("nothing to update: give description, private or both")
    world.update(TRANSACTIONS, transaction_id, **changes, updated_at=now_str(world))
    return {"message": "Transaction updated."}


@tool(app=APP, requires=REQ)
def venmo_show_transactions(
    world,
    query: str | None = "",
    user_email: str | None = None,
    min_created_at: str | None = "1500-01-01",
    max_created_at: str | None = "3000-01-01",
    min_like_count: int | None = 0,
    max_like_count: int | None = 9223372036854775807,
    min_amount: float | None = 0.01,
    max_amount: float | None = 9.22e18,
    private: bool | None = None,
    direction: Literal["sent", "received"] | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search the transactions you sent or received (newest first unless sorted otherwise).

    Args:
        query: words of the description or of the other person's name or email (empty matches all).
        user_email: only transactions with this person.
        min_created_at: only transactions made on or after this date/time (YYYY-MM-DD or ISO).
        max_created_at: only transactions made on or before this date/time (a bare date includes that day).
        min_like_count: only transactions with at least this many likes.
        max_like_count: only transactions with at most this many likes.
        min_amount: only transactions of at least this many dollars.
        max_amount: only transactions of at most this many dollars.
        private: only private (true) or only public (false) transactions.
        direction: "sent" for money you paid, "received" for money paid to you.
        page_index: page to return, from 0.
        page_limit: transactions per page (1-20).
        sort_by: "created_at", "updated_at", "amount", "like_count" or "comment_count"; prefix "-" for descending.
    """
    user = me(world)
    uid = user["id"]
    other_id = None
    if user_email is not None:
        other_id = user_by_email(world, user_email)["id"]
        if other_id == uid:
            raise InvalidArgument("user_email is your own email; give the other person's email")
    low = parse_bound(min_created_at, "min_created_at", end_of_day=False)
    high = parse_bound(max_created_at, "max_created_at", end_of_day=True)
    rows = []
    for tx in world.rows(TRANSACTIONS):
        if uid not in (tx["sender_id"], tx["receiver_id"]):
            continue
        if other_id is not None and other_id not in (tx["sender_id"], tx["receiver_id"]):
            continue
        if direction == "sent" and tx["sender_id"] != uid or direction == "received" and tx["receiver_id"] != uid:
            continue
        if private is not None and tx["private"] != private:
            continue
        if low is not None and tx["created_at"] < low or high is not None and tx["created_at"] > high:
            continue
        if min_amount is not None and tx["amount"] < min_amount - 1e-9:
            continue
        if max_amount is not None and tx["amount"] > max_amount + 1e-9:
            continue
        rows.append(tx)
    views = _views(world, rows, uid)
    views = [v for v in views if (min_like_count is None or v["like_count"] >= min_like_count)
             and (max_like_count is None or v["like_count"] <= max_like_count)]
    views.sort(key=lambda v: (v["created_at"], v["id"]), reverse=True)
    if query and query.strip():
        names = user_search_text(world)
        for v in views:
            v["_other"] = names.get(v["receiver_id"] if v["sender_id"] == uid else v["sender_id"], "")
        views = search_rank(views, query, ("description", "_other"))
        for v in views:
            v.pop("_other", None)
    views = sort_rows(views, sort_by, ("created_at", "updated_at", "amount", "like_count", "comment_count"))
    return paginate(views, page_index, page_limit)


@tool(app=APP, writes=True, requires=REQ)
def venmo_download_transaction_receipt(
    world,
    transaction_id: int,
    file_system_access_token: str,
    download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save the receipt of a transaction you sent or received as a file in your file system.

    Args:
        transaction_id: id of the transaction.
        file_system_access_token: access token of your file system account (from logging in to it).
        download_to_file_path: where to save the receipt; defaults to ~/downloads/.
        overwrite: replace a file that already exists at that path.
    """
    user = me(world)
    tx = visible_transaction(world, user["id"], transaction_id)
    if user["id"] not in (tx["sender_id"], tx["receiver_id"]):
        raise PermissionDenied("you can only download receipts of transactions you sent or received")
    sender, receiver = person(world, tx["sender_id"]), person(world, tx["receiver_id"])
    content = "\n".join([
        "Venmo transaction receipt",
        f"Transaction id: {tx['id']}",
        f"Date: {tx['created_at']}",
        f"From: {sender['name']} <{sender['email']}>",
        f"To: {receiver['name']} <{receiver['email']}>",
        f"Amount: {dollars(tx['amount'])}",
        f"Description: {tx['description']}",
        f"Privacy: {'private' if tx['private'] else 'public'}",
    ]) + "\n"
    return save_receipt(world, file_system_access_token, download_to_file_path, overwrite,
                        f"venmo_transaction_{tx['id']}_receipt.txt", content)


@tool(app=APP, writes=True, requires=REQ)
def venmo_like_transaction(world, transaction_id: int) -> dict:
    """Like a transaction you can see.

    Args:
        transaction_id: id of the transaction.
    """
    user = me(world)
    tx = visible_transaction(world, user["id"], transaction_id)
    _add_like(world, TRANSACTION_LIKES, "transaction_id", transaction_id, user["id"], "transaction")
    _tell_parties(world, tx, user, "transaction_liked", "liked a transaction of yours", transaction_id=tx["id"])
    return {"message": "Transaction liked."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_unlike_transaction(world, transaction_id: int) -> dict:
    """Take back your like of a transaction.

    Args:
        transaction_id: id of the transaction.
    """
    user = me(world)
    visible_transaction(world, user["id"], transaction_id)
    return _remove_like(world, TRANSACTION_LIKES, "transaction_id", transaction_id, user["id"], "transaction")


# ---------------------------------------------------------------------------- comments
def _comment_view(world: Any, c: dict[str, Any], likes: Counter, liked: set[int]) -> dict[str, Any]:
    return {**c, "user": person(world, c["user_id"]), "like_count": likes.get(c["id"], 0),
            "liked_by_you": c["id"] in liked}


def _visible_comment(world: Any, me_id: int, comment_id: int) -> dict[str, Any]:
    c = world.get(COMMENTS, comment_id)
    tx = world.get(TRANSACTIONS, c["transaction_id"]) if c is not None else None
    if c is None or tx is None or not _visible(tx, me_id):
        raise NotFound(f"transaction comment with id {comment_id} does not exist")
    return c


def _own_comment(world: Any, me_id: int, comment_id: int) -> dict[str, Any]:
    c = _visible_comment(world, me_id, comment_id)
    if c["user_id"] != me_id:
        raise PermissionDenied(f"comment {comment_id} was written by {name_of(world, c['user_id'])}; "
                               "you can only change your own comments")
    return c


@tool(app=APP, requires=REQ)
def venmo_show_transaction_comments(
    world, transaction_id: int, page_index: int | None = 0, page_limit: int | None = 5
) -> list:
    """List the comments on a transaction, oldest first.

    Args:
        transaction_id: id of the transaction.
        page_index: page to return, from 0.
        page_limit: comments per page (1-20).
    """
    user = me(world)
    visible_transaction(world, user["id"], transaction_id)
    rows = sorted((c for c in world.rows(COMMENTS) if c["transaction_id"] == transaction_id),
                  key=lambda c: (c["created_at"], c["id"]))
    likes = _counts(world, COMMENT_LIKES, "comment_id")
    liked = _liked_by(world, COMMENT_LIKES, "comment_id", user["id"])
    return [_comment_view(world, c, likes, liked) for c in paginate(rows, page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def venmo_create_transaction_comment(world, transaction_id: int, comment: str) -> dict:
    """Comment on a transaction you can see.

    Args:
        transaction_id: id of the transaction.
        comment: the comment text.
    """
    user = me(world)
    tx = visible_transaction(world, user["id"], transaction_id)
    nonblank(comment, "comment")
    now = now_str(world)
    row = world.insert(COMMENTS, {"id": world.new_id(COMMENTS), "transaction_id": transaction_id,
                                  "user_id": user["id"], "comment": comment, "created_at": now, "updated_at": now})
    _tell_parties(world, tx, user, "transaction_commented", "commented on a transaction of yours",
                  transaction_id=tx["id"], comment_id=row["id"])
    return {"message": "Comment added.", "comment_id": row["id"]}


@tool(app=APP, requires=REQ)
def venmo_show_transaction_comment(world, comment_id: int) -> dict:
    """Show one comment of a transaction.

    Args:
        comment_id: id of the comment.
    """
    user = me(world)
    c = _visible_comment(world, user["id"], comment_id)
    likes = Counter(r["comment_id"] for r in world.rows(COMMENT_LIKES) if r["comment_id"] == comment_id)
    return _comment_view(world, c, likes, _liked_by(world, COMMENT_LIKES, "comment_id", user["id"]))


@tool(app=APP, writes=True, requires=REQ)
def venmo_update_transaction_comment(world, comment_id: int, comment: str) -> dict:
    """Rewrite one of your comments.

    Args:
        comment_id: id of the comment.
        comment: the new text.
    """
    user = me(world)
    _own_comment(world, user["id"], comment_id)
    nonblank(comment, "comment")
    world.update(COMMENTS, comment_id, comment=comment, updated_at=now_str(world))
    return {"message": "Comment updated."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_delete_transaction_comment(world, comment_id: int) -> dict:
    """Delete one of your comments (its likes go with it).

    Args:
        comment_id: id of the comment.
    """
    user = me(world)
    _own_comment(world, user["id"], comment_id)
    for like in world.select(COMMENT_LIKES, comment_id=comment_id):
        world.delete(COMMENT_LIKES, like["id"])
    world.delete(COMMENTS, comment_id)
    return {"message": "Comment deleted."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_like_transaction_comment(world, comment_id: int) -> dict:
    """Like a comment on a transaction.

    Args:
        comment_id: id of the comment.
    """
    user = me(world)
    c = _visible_comment(world, user["id"], comment_id)
    _add_like(world, COMMENT_LIKES, "comment_id", comment_id, user["id"], "comment")
    if c["user_id"] != user["id"]:
        notify(world, c["user_id"], "comment_liked",
               f"{user['first_name']} {user['last_name']} liked your comment \"{c['comment']}\"",
               transaction_id=c["transaction_id"], comment_id=comment_id)
    return {"message": "Comment liked."}


@tool(app=APP, writes=True, requires=REQ)
def venmo_unlike_transaction_comment(world, comment_id: int) -> dict:
    """Take back your like of a comment.

    Args:
        comment_id: id of the comment.
    """
    user = me(world)
    _visible_comment(world, user["id"], comment_id)
    return _remove_like(world, COMMENT_LIKES, "comment_id", comment_id, user["id"], "comment")


# ---------------------------------------------------------------------------- feed
@tool(app=APP, requires=REQ)
def venmo_show_social_feed(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Show the latest transactions of your friends that you are allowed to see, newest first.

    Args:
        page_index: page to return, from 0.
        page_limit: transactions per page (1-20).
    """
    user = me(world)
    uid = user["id"]
    friends = friend_ids(world, uid)
    rows = [tx for tx in world.rows(TRANSACTIONS)
            if (tx["sender_id"] in friends or tx["receiver_id"] in friends) and _visible(tx, uid)]
    rows.sort(key=lambda tx: (tx["created_at"], tx["id"]), reverse=True)
    return _views(world, paginate(rows, page_index, page_limit), uid)
