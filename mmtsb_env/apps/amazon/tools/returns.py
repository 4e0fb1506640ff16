"""Amazon after-sales: product returns and deliverers, Prime membership, downloadable receipts."""

from __future__ import annotations

from typing import Any, Literal

from ....tools import Conflict, NotFound, tool
from ..._common import now_str, paginate, require_owned, sort_rows
from ..tables import (
    APP, CARDS, DELIVERERS, ORDER_ITEMS, ORDERS, PRIME, PRIME_PLANS, PRODUCTS, REQ, RETURNS, check_card_can_pay,
    check_quantity, delivery_status, is_prime_member, money, owned, plus_days,
)
from .shop import order_view, require_order


# ---------------------------------------------------------------------------------- returns
def _return_view(world: Any, row: dict[str, Any]) -> dict[str, Any]:
    product = world.get(PRODUCTS, row["product_id"]) or {}
    deliverer = world.get(DELIVERERS, row["deliverer_id"]) or {}
    out = {"return_id": row["id"], **{k: v for k, v in row.items() if k not in ("id", "user_id")}}
    out["product_name"] = product.get("name")
    out["deliverer_name"] = deliverer.get("name")
    return out


@tool(app=APP, requires=REQ)
def amazon_show_returns(
    world, order_id: int | None = None, page_index: int | None = 0, page_limit: int | None = 5,
    sort_by: str | None = "-initiated_at",
) -> list:
    """List your product returns, optionally only those of one order.

    Args:
        order_id: only returns of this order.
        page_index: page to return, from 0.
        page_limit: returns per page (1-20).
        sort_by: "initiated_at" or "refund_amount"; prefix "-" for descending (default newest first).
    """
    rows = owned(world, RETURNS)
    if order_id is not None:
        require_order(world, order_id)
        rows = [r for r in rows if r["order_id"] == order_id]
    rows = sort_rows(rows, sort_by, ("initiated_at", "refund_amount"))
    return [_return_view(world, r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def amazon_show_return(world, return_id: int) -> dict:
    """Show the status and refund of one of your returns.

    Args:
        return_id: id of the return.
    """
    return _return_view(world, require_owned(world, RETURNS, return_id, "return"))


@tool(app=APP, requires=REQ)
def amazon_show_return_deliverers(world) -> list:
    """List the delivery companies that can pick up a return."""
    return [{"deliverer_id": d["id"], "name": d["name"], "phone_number": d["phone_number"],
             "pickup_fee": d["pickup_fee"]} for d in sorted(world.rows(DELIVERERS), key=lambda r: r["id"])]


@tool(app=APP, writes=True, requires=REQ)
def amazon_initiate_return(world, order_id: int, product_id: int, deliverer_id: int, quantity: int) -> dict:
    """Start returning delivered units of a product from one of your orders.

    The refund (price paid minus the deliverer's pickup fee) goes back to the order's card once the
    deliverer has picked the parcel up.

    Args:
        order_id: id of the order.
        product_id: id of the product in that order.
        deliverer_id: id of the company that picks it up (see amazon_show_return_deliverers).
        quantity: how many units to return.
    """
    check_quantity(quantity)
    require_order(world, order_id)
    items = [i for i in world.rows(ORDER_ITEMS) if i["order_id"] == order_id and i["product_id"] == product_id]
    if not items:
        raise NotFound(f"product {product_id} is not part of order {order_id}; see amazon_show_order")
    deliverer = world.get(DELIVERERS, deliverer_id)
    if deliverer is None:
        raise NotFound(f"deliverer with id {deliverer_id} does not exist; see amazon_show_return_deliverers")
    if any(delivery_status(world, i) != "delivered" for i in items):
        raise Conflict(f"product {product_id} of order {order_id} has not been delivered yet; it can be returned after delivery")
    bought = sum(i["quantity"] for i in items)
    returned = sum(r["quantity"] for r in world.rows(RETURNS)
                   if r["user_id"] == world.user_id and r["order_id"] == order_id and r["product_id"] == product_id)
    if quantity > bought - returned:
        raise Conflict(f"you bought {bought} and already returned {returned} of product {product_id} in "
                       f"order {order_id}; at most {bought - returned} can still be returned")
    refund = money(max(0.0, items[0]["price"] * quantity - deliverer["pickup_fee"]))
    left = quantity
    for item in items:  # the order's own count of returned units (the reference's returned_quantity)
        take = min(left, item["quantity"] - item.get("returned_quantity", 0))
        if take > 0:
            world.update(ORDER_ITEMS, item["id"], returned_quantity=item.get("returned_quantity", 0) + take)
            left -= take
    row = world.insert(RETURNS, {
        "id": world.new_id(RETURNS), "user_id": world.user_id, "order_id": order_id, "product_id": product_id,
        "deliverer_id": deliverer_id, "quantity": quantity, "refund_amount": refund, "status": "initiated",
        "initiated_at": now_str(world), "completed_at": None,
    })
    return {"message": f"Return started; {deliverer['name']} will pick it up.", "return_id": row["id"],
            "refund_amount": refund}


# ---------------------------------------------------------------------------------- prime
@tool(app=APP, requires=REQ)
def amazon_show_prime_plans(world) -> list:
    """The Prime membership plans and what they cost (members get free delivery)."""
    return [{"duration": name, "price": plan["price"], "days": plan["days"], "benefits": ["free delivery on every order"]}
            for name, plan in PRIME_PLANS.items()]


def _prime_view(world: Any, row: dict[str, Any]) -> dict[str, Any]:
    now = now_str(world)
    out = {"prime_subscription_id": row["id"], **{k: v for k, v in row.items() if k not in ("id", "user_id")}}
    out["is_active"] = row["start_date"] <= now < row["end_date"]
    return out


@tool(app=APP, writes=True, requires=REQ)
def amazon_subscribe_prime(world, payment_card_id: int, duration: Literal["monthly", "yearly"]) -> dict:
    """Become a Prime member: the plan's price is charged to the card now.

    Args:
        payment_card_id: id of one of your payment cards.
        duration: "monthly" or "yearly".
    """
    card = require_owned(world, CARDS, payment_card_id, "payment card")
    if is_prime_member(world):
        raise Conflict("you already have an active Prime membership; see amazon_show_prime_subscriptions")
    plan = PRIME_PLANS[duration]
    check_card_can_pay(world, card, plan["price"])
    now = now_str(world)
    row = world.insert(PRIME, {
        "id": world.new_id(PRIME), "user_id": world.user_id, "payment_card_id": card["id"], "duration": duration,
        "price": plan["price"], "start_date": now, "end_date": plus_days(now, plan["days"]), "created_at": now,
    })
    world.update(CARDS, card["id"], balance=money(card["balance"] - plan["price"]))
    return {"message": f"Subscribed to Prime ({duration}) until {row['end_date'][:10]}.", "prime_subscription_id": row["id"]}


@tool(app=APP, requires=REQ)
def amazon_show_prime_subscriptions(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Your Prime membership history, newest first.

    Args:
        page_index: page to return, from 0.
        page_limit: subscriptions per page (1-20).
    """
    rows = sorted(owned(world, PRIME), key=lambda r: (r["start_date"], r["id"]), reverse=True)
    return [_prime_view(world, r) for r in paginate(rows, page_index, page_limit)]


# ---------------------------------------------------------------------------------- receipts
def save_download(world: Any, token: str, path: str, content: str, overwrite: bool) -> str:
    """Write a text file into the file_system account the token stands for; its absolute path."""
    from ...file_system.tables import file_system_user_for_token, write_user_file

    owner = file_system_user_for_token(world, token)
    return write_user_file(world, owner, path, content, overwrite=overwrite)


def _order_receipt(world: Any, order: dict[str, Any]) -> str:
    view = order_view(world, order)
    card = world.get(CARDS, order["payment_card_id"])
    lines = ["Amazon order receipt", f"Order #{order['id']}  placed {order['created_at']}",
             f"Ship to: {order['shipping_address']}", ""]
    for item in view["items"]:
        lines.append(f"{item['quantity']} x {item['name']} @ ${item['price']:.2f} = ${item['price'] * item['quantity']:.2f}"
                     + (f" ({item['gift_wrap_quantity']} gift-wrapped)" if item["gift_wrap_quantity"] else ""))
    lines += ["", f"Subtotal: ${order['subtotal']:.2f}"]
    if order["promo_code"]:
        lines.append(f"Promo code {order['promo_code']}: -${order['discount']:.2f}")
    lines += [f"Gift wrapping: ${order['gift_wrap_fee']:.2f}", f"Delivery: ${order['delivery_fee']:.2f}",
              f"Tax: ${order['tax']:.2f}", f"Total: ${order['total_amount']:.2f}"]
    if card is not None:
        lines.append(f"Paid with {card['card_name']} ending in {str(card['card_number'])[-4:]}")
    return "\n".join(lines) + "\n"


@tool(app=APP, writes=True, requires=REQ)
def amazon_download_order_receipt(
    world, order_id: int, file_system_access_token: str, download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save the receipt of one of your orders as a text file in your file system.

    Args:
        order_id: id of the order.
        file_system_access_token: access token of your file_system account (from file_system_login).
        download_to_file_path: where to save it (default ~/downloads/amazon_order_<order_id>_receipt.txt).
        overwrite: replace an existing file at that path.
    """
    order = require_order(world, order_id)
    path = download_to_file_path or f"~/downloads/amazon_order_{order_id}_receipt.txt"
    saved = save_download(world, file_system_access_token, path, _order_receipt(world, order), bool(overwrite))
    world.update(ORDERS, order_id, receipt_download_count=order.get("receipt_download_count", 0) + 1)
    return {"message": "Receipt downloaded.", "file_path": saved}


@tool(app=APP, writes=True, requires=REQ)
def amazon_download_prime_subscription_receipt(
    world, prime_subscription_id: int, file_system_access_token: str, download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save the receipt of one of your Prime subscriptions as a text file in your file system.

    Args:
        prime_subscription_id: id of the subscription.
        file_system_access_token: access token of your file_system account (from file_system_login).
        download_to_file_path: where to save it (default ~/downloads/amazon_prime_<id>_receipt.txt).
        overwrite: replace an existing file at that path.
    """
    sub = require_owned(world, PRIME, prime_subscription_id, "prime subscription")
    card = world.get(CARDS, sub["payment_card_id"])
    content = (f"Amazon Prime receipt\nSubscription #{sub['id']} ({sub['duration']})\n"
               f"Period: {sub['start_date'][:10]} to {sub['end_date'][:10]}\nPaid: ${sub['price']:.2f}\n"
               + (f"Card: {card['card_name']} ending in {str(card['card_number'])[-4:]}\n" if card else ""))
    path = download_to_file_path or f"~/downloads/amazon_prime_{prime_subscription_id}_receipt.txt"
    saved = save_download(world, file_system_access_token, path, content, bool(overwrite))
    return {"message": "Receipt downloaded.", "file_path": saved}

