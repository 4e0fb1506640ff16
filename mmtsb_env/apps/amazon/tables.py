"""Amazon: a shopping app with a product catalog, sellers, browsing history and recommendations.

This module declares every ``amazon.*`` table and the shared pricing/payment helpers. The tools
live in ``tools.catalog`` (products, sellers, browsing history), ``tools.shop`` (cart, wish list,
orders, cards, addresses), ``tools.returns`` (returns, Prime, receipts) and ``tools.reviews``
(reviews, questions and answers); the base data in ``data``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ...tools import Conflict, InvalidArgument, NotFound
from ...world import define_table
from .._accounts import define_accounts
from .._common import now_str

APP = "amazon"
REQ = ("network", "login:amazon")

USERS = "amazon.users"
SELLERS = "amazon.sellers"
PRODUCTS = "amazon.products"
BROWSING = "amazon.browsing_history_entries"
CART = "amazon.cart_entries"
WISH_LIST = "amazon.wish_list_entries"
PROMO_CODES = "amazon.promo_codes"
ADDRESSES = "amazon.addresses"
CARDS = "amazon.payment_cards"
ORDERS = "amazon.orders"
ORDER_ITEMS = "amazon.order_items"
DELIVERERS = "amazon.deliverers"
RETURNS = "amazon.returns"
PRIME = "amazon.prime_subscriptions"
REVIEWS = "amazon.product_reviews"
QUESTIONS = "amazon.product_questions"
ANSWERS = "amazon.product_question_answers"

# Money rules of the simulated store (all amounts in US dollars).
TAX_RATE = 0.07  # sales tax on (items - discount + gift wrapping)
DELIVERY_FEE = 4.99  # per order; waived for active Prime members
GIFT_WRAP_FEE = 3.99  # per gift-wrapped unit
NEW_CARD_BALANCE = 5000.0  # available credit of a card added through the app
PRIME_PLANS = {
    "monthly": {"price": 14.99, "days": 30},
    "yearly": {"price": 139.0, "days": 365},
}
RELATIVE_SIZES = ("extra small", "small", "medium", "large", "extra large")

define_accounts(APP, extra_columns={"track_browsing_history": True, "cart_promo_code": None})

define_table(SELLERS, columns={
    "id": None, "name": "", "rating": 0.0, "email": None, "phone_number": None,
    "description": "", "created_at": None,
}, auto_columns=("created_at",))
define_table(PRODUCTS, columns={
    "id": None, "name": "", "description": "", "product_type": "", "price": 0.0, "rating": 0.0,
    "seller_id": None, "seller_rating": None, "inventory_quantity": 0, "color": None,
    "delivery_days": 3, "has_variations": False, "variation_group_id": None,
    "height": None, "width": None, "length": None, "weight": None, "relative_size": None,
    "created_at": None,
}, auto_columns=("created_at",))
define_table(BROWSING, columns={"id": None, "user_id": None, "product_id": None, "created_at": None},
             auto_columns=("created_at",))
define_table(CART, columns={
    "id": None, "user_id": None, "product_id": None, "quantity": 1, "gift_wrap_quantity": 0,
    "created_at": None,
}, auto_columns=("created_at",))
define_table(WISH_LIST, columns={
    "id": None, "user_id": None, "product_id": None, "quantity": 1, "created_at": None,
}, auto_columns=("created_at",))
define_table(PROMO_CODES, columns={
    "id": None, "code": "", "description": "", "discount_percentage": 0.0, "max_discount": None,
    "min_subtotal": 0.0, "single_use": False, "expires_at": None,
})
define_table(ADDRESSES, columns={
    "id": None, "user_id": None, "name": "", "street_address": "", "city": "", "state": "",
    "country": "", "zip_code": None, "created_at": None,
}, auto_columns=("created_at",))
define_table(CARDS, columns={
    "id": None, "user_id": None, "card_name": "", "owner_name": "", "card_number": None,
    "expiry_year": None, "expiry_month": None, "cvv_number": None, "balance": 0.0, "created_at": None,
}, auto_columns=("created_at",))
define_table(ORDERS, columns={
    "id": None, "user_id": None, "payment_card_id": None, "address_id": None, "shipping_address": "",
    "promo_code": None, "subtotal": 0.0, "gift_wrap_fee": 0.0, "discount": 0.0, "delivery_fee": 0.0,
    "tax": 0.0, "total_amount": 0.0, "receipt_download_count": 0, "created_at": None,
}, auto_columns=("created_at", "receipt_download_count"))
define_table(ORDER_ITEMS, columns={
    "id": None, "order_id": None, "product_id": None, "quantity": 1, "price": 0.0,
    "gift_wrap_quantity": 0, "returned_quantity": 0, "expected_delivery_at": None,
}, auto_columns=("returned_quantity",), derived={"ordered_quantity": lambda r: r["quantity"]})  # the reference's name for quantity
define_table(DELIVERERS, columns={"id": None, "name": "", "phone_number": None, "pickup_fee": 0.0})
define_table(RETURNS, columns={
    "id": None, "user_id": None, "order_id": None, "product_id": None, "deliverer_id": None,
    "quantity": 1, "refund_amount": 0.0, "status": "initiated", "initiated_at": None,
    "completed_at": None,
}, auto_columns=("initiated_at",))
define_table(PRIME, columns={
    "id": None, "user_id": None, "payment_card_id": None, "duration": "monthly", "price": 0.0,
    "start_date": None, "end_date": None, "created_at": None,
}, auto_columns=("created_at",))
define_table(REVIEWS, columns={
    "id": None, "product_id": None, "user_id": None, "rating": 5, "title": "", "text": "",
    "is_verified": False, "created_at": None, "updated_at": None,
}, auto_columns=("created_at", "updated_at"))
define_table(QUESTIONS, columns={
    "id": None, "product_id": None, "user_id": None, "question": "", "created_at": None,
    "updated_at": None,
}, auto_columns=("created_at", "updated_at"))
define_table(ANSWERS, columns={
    "id": None, "question_id": None, "user_id": None, "answer": "", "is_verified": False,
    "created_at": None, "updated_at": None,
}, auto_columns=("created_at", "updated_at"))


# ---------------------------------------------------------------------------------- helpers
def money(value: float) -> float:
    return round(value + 1e-9, 2)


def get_product(world: Any, product_id: int) -> dict[str, Any]:
    product = world.get(PRODUCTS, product_id)
    if product is None:
        raise NotFound(f"product with id {product_id} does not exist; find ids with amazon_search_products")
    return product


def seller_of(world: Any, product: dict[str, Any]) -> dict[str, Any] | None:
    return world.get(SELLERS, product["seller_id"]) if product.get("seller_id") is not None else None


def seller_rating(world: Any, product: dict[str, Any]) -> float | None:
    seller = seller_of(world, product)
    return seller["rating"] if seller is not None else product.get("seller_rating")


def product_summary(world: Any, product: dict[str, Any]) -> dict[str, Any]:
    """What lists of products show."""
    seller = seller_of(world, product)
    return {
        "product_id": product["id"], "name": product["name"], "product_type": product["product_type"],
        "price": product["price"], "rating": product["rating"], "color": product["color"],
        "relative_size": product["relative_size"], "delivery_days": product["delivery_days"],
        "in_stock": product["inventory_quantity"] > 0,
        "seller_id": product["seller_id"], "seller_name": seller["name"] if seller else None,
    }


def variations_of(world: Any, product: dict[str, Any]) -> list[dict[str, Any]]:
    """Other products in the same size/color variation group."""
    group = product.get("variation_group_id")
    if group is None:
        return []
    return [r for r in world.rows(PRODUCTS) if r.get("variation_group_id") == group and r["id"] != product["id"]]


def owned(world: Any, table: str) -> list[dict[str, Any]]:
    """Copies of the device owner's rows of a table, in id order."""
    rows = world.select(table, user_id=world.user_id)
    rows.sort(key=lambda r: r["id"])
    return rows


def clear_owned(world: Any, table: str) -> int:
    """Delete all of the device owner's rows of a table (cart, wish list...); how many there were."""
    rows = owned(world, table)
    for row in rows:
        world.delete(table, row["id"])
    return len(rows)


def check_quantity(quantity: int | None, name: str = "quantity") -> int:
    if quantity is None or quantity < 1:
        raise InvalidArgument(f"{name} must be a whole number of at least 1")
    return quantity


def is_prime_member(world: Any) -> bool:
    now = now_str(world)
    return any(r["user_id"] == world.user_id and r["start_date"] <= now < r["end_date"] for r in world.rows(PRIME))


def check_card_can_pay(world: Any, card: dict[str, Any], amount: float) -> None:
    """Refuse expired cards and cards without enough available balance."""
    now = world.now
    if (card["expiry_year"], card["expiry_month"]) < (now.year, now.month):
        raise Conflict(
            f"payment card {card['id']} ({card['card_name']}) expired in "
            f"{card['expiry_month']:02d}/{card['expiry_year']}; use another card or add a new one"
        )
    if card["balance"] + 1e-9 < amount:
        raise Conflict(
            f"payment card {card['id']} ({card['card_name']}) has a balance of ${card['balance']:.2f}, "
            f"not enough for ${amount:.2f}; use another card"
        )


def promo_problem(world: Any, promo: dict[str, Any], subtotal: float | None) -> str | None:
    """Why a promo code cannot be used now (None when it can)."""
    if promo["expires_at"] is not None and promo["expires_at"] <= now_str(world):
        return f"promo code {promo['code']} expired on {promo['expires_at'][:10]}"
    if promo["single_use"] and any(
        o["user_id"] == world.user_id and o["promo_code"] == promo["code"] for o in world.rows(ORDERS)
    ):
        return f"promo code {promo['code']} can be used only once and you have already used it"
    if subtotal is not None and subtotal + 1e-9 < promo["min_subtotal"]:
        return f"promo code {promo['code']} needs an item subtotal of at least ${promo['min_subtotal']:.2f}"
    return None


def find_promo(world: Any, code: str | None) -> dict[str, Any] | None:
    if not code:
        return None
    wanted = code.strip().upper()
    for row in world.rows(PROMO_CODES):
        if row["code"].upper() == wanted:
            return dict(row)
    return None


def cart_breakdown(world: Any) -> dict[str, Any]:
    """The owner's cart with line totals and the order total it would cost now."""
    entries = owned(world, CART)
    lines = []
    subtotal = 0.0
    wrapped = 0
    for entry in entries:
        product = world.get(PRODUCTS, entry["product_id"])
        if product is None:
            continue
        line_total = money(product["price"] * entry["quantity"])
        subtotal += line_total
        wrapped += entry["gift_wrap_quantity"]
        lines.append({
            "cart_entry_id": entry["id"], "product_id": product["id"], "name": product["name"],
            "price": product["price"], "quantity": entry["quantity"],
            "gift_wrap_quantity": entry["gift_wrap_quantity"], "line_total": line_total,
            "in_stock_quantity": product["inventory_quantity"], "added_at": entry["created_at"],
        })
    subtotal = money(subtotal)
    user = world.get(USERS, world.user_id) or {}
    promo = find_promo(world, user.get("cart_promo_code"))
    discount = 0.0
    promo_note = None
    if promo is not None:
        problem = promo_problem(world, promo, subtotal)
        if problem is None:
            discount = subtotal * promo["discount_percentage"] / 100
            if promo["max_discount"] is not None:
                discount = min(discount, promo["max_discount"])
            discount = money(discount)
        else:
            promo_note = problem
    gift_wrap_fee = money(wrapped * GIFT_WRAP_FEE)
    delivery_fee = 0.0 if (not lines or is_prime_member(world)) else DELIVERY_FEE
    tax = money((subtotal - discount + gift_wrap_fee) * TAX_RATE)
    total = money(subtotal - discount + gift_wrap_fee + delivery_fee + tax)
    return {
        "items": lines, "promo_code": promo["code"] if promo else None, "promo_code_problem": promo_note,
        "subtotal": subtotal, "discount": discount, "gift_wrap_fee": gift_wrap_fee,
        "delivery_fee": delivery_fee, "tax": tax, "total_amount": total,
    }


def rating_distribution(world: Any, product_id: int) -> dict[str, int]:
    counts = {str(star): 0 for star in range(1, 6)}
    for review in world.rows(REVIEWS):
        if review["product_id"] == product_id:
            counts[str(review["rating"])] += 1
    return counts


def refresh_product_rating(world: Any, product_id: int) -> None:
    """Keep a product's average rating equal to the mean of its reviews."""
    stars = [r["rating"] for r in world.rows(REVIEWS) if r["product_id"] == product_id]
    rating = round(sum(stars) / len(stars), 1) if stars else 0.0
    if world.exists(PRODUCTS, product_id):
        world.update(PRODUCTS, product_id, rating=rating)


def user_by_email(world: Any, email: str) -> dict[str, Any]:
    user = world.first(USERS, email=email)
    if user is None:
        raise NotFound(f"no amazon user with email {email}")
    return user


def user_email(world: Any, user_id: int | None) -> str | None:
    user = world.get(USERS, user_id) if user_id is not None else None
    return user["email"] if user else None


def purchased_product_ids(world: Any, user_id: int) -> set[int]:
    orders = {o["id"] for o in world.rows(ORDERS) if o["user_id"] == user_id}
    return {i["product_id"] for i in world.rows(ORDER_ITEMS) if i["order_id"] in orders}


def delivery_status(world: Any, item: dict[str, Any]) -> str:
    expected = item.get("expected_delivery_at")
    return "delivered" if expected is not None and expected <= now_str(world) else "in_transit"


def plus_days(stamp: str, days: int) -> str:
    return (datetime.fromisoformat(stamp) + timedelta(days=days)).isoformat()
