"""Amazon shopping: cart, wish list, promo codes and gift wrapping, orders, payment cards, addresses."""

from __future__ import annotations

from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import nonblank, now_str, paginate, require_owned, search_rank, sort_rows
from ..tables import (
    ADDRESSES, APP, CARDS, CART, NEW_CARD_BALANCE, ORDER_ITEMS, ORDERS, PRODUCTS, REQ, USERS, WISH_LIST,
    cart_breakdown, check_card_can_pay, check_quantity, clear_owned, delivery_status, find_promo, get_product, money,
    owned, plus_days, promo_problem,
)


# ---------------------------------------------------------------------------------- cart and wish list entries
_LISTS = {CART: ("cart", "amazon_show_cart"), WISH_LIST: ("wish list", "amazon_show_wish_list")}


def _entry(world: Any, table: str, product_id: int) -> dict[str, Any] | None:
    """The owner's cart or wish-list entry for a product, if any."""
    return world.first(table, user_id=world.user_id, product_id=product_id)


def _require_entry(world: Any, table: str, product_id: int) -> dict[str, Any]:
    entry = _entry(world, table, product_id)
    if entry is None:
        where, see = _LISTS[table]
        raise NotFound(f"product {product_id} is not in your {where}; see {see}")
    return entry


# ---------------------------------------------------------------------------------- cart
def _check_stock(product: dict[str, Any], quantity: int) -> None:
    if quantity > product["inventory_quantity"]:
        left = product["inventory_quantity"]
        detail = "it is out of stock" if left <= 0 else f"only {left} left in stock"
        raise Conflict(f"cannot have {quantity} of product {product['id']} ({product['name']}) in the cart: {detail}")


def _put_in_cart(world: Any, product: dict[str, Any], quantity: int) -> dict[str, Any]:
    """Add units of a product to the owner's cart (merging with an existing entry)."""
    entry = _entry(world, CART, product["id"])
    total = quantity + (entry["quantity"] if entry else 0)
    _check_stock(product, total)
    if entry is not None:
        return world.update(CART, entry["id"], quantity=total)
    return world.insert(CART, {
        "id": world.new_id(CART), "user_id": world.user_id, "product_id": product["id"],
        "quantity": quantity, "gift_wrap_quantity": 0, "created_at": now_str(world),
    })


def _set_cart_quantity(world: Any, entry: dict[str, Any], quantity: int) -> None:
    """Set a cart entry's quantity (0 removes it); gift wrapping never exceeds the quantity."""
    if quantity <= 0:
        world.delete(CART, entry["id"])
    else:
        world.update(CART, entry["id"], quantity=quantity,
                     gift_wrap_quantity=min(entry["gift_wrap_quantity"], quantity))


@tool(app=APP, requires=REQ)
def amazon_show_cart(world) -> dict:
    """Show your cart: items, promo code, and the cost breakdown of ordering it now."""
    return cart_breakdown(world)


@tool(app=APP, writes=True, requires=REQ)
def amazon_clear_cart(world) -> dict:
    """Remove every product (and any promo code) from your cart."""
    removed = clear_owned(world, CART)
    if (world.get(USERS, world.user_id) or {}).get("cart_promo_code") is not None:
        world.update(USERS, world.user_id, cart_promo_code=None)
    return {"message": "Cart cleared.", "removed": removed}


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_product_to_cart(world, product_id: int, quantity: int = 1, clear_cart_first: bool | None = False) -> dict:
    """Put a product in your cart (adds to the quantity if it is already there).

    Args:
        product_id: id of the product.
        quantity: how many units to add (at least 1; limited by the stock).
        clear_cart_first: if true, empty the cart before adding.
    """
    check_quantity(quantity)
    product = get_product(world, product_id)
    if clear_cart_first:
        clear_owned(world, CART)
    entry = _put_in_cart(world, product, quantity)
    return {"message": f"Added {quantity} x {product['name']} to your cart.", "cart_entry_id": entry["id"],
            "quantity_in_cart": entry["quantity"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_product_quantity_in_cart(world, product_id: int, quantity: int) -> dict:
    """Set how many units of a product are in your cart.

    Args:
        product_id: id of a product in the cart.
        quantity: the new quantity (at least 1; use amazon_delete_product_from_cart to remove it).
    """
    check_quantity(quantity)
    entry = _require_entry(world, CART, product_id)
    _check_stock(get_product(world, product_id), quantity)
    _set_cart_quantity(world, entry, quantity)
    return {"message": "Cart quantity updated.", "quantity_in_cart": quantity}


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_product_from_cart(world, product_id: int) -> dict:
    """Remove a product from your cart.

    Args:
        product_id: id of a product in the cart.
    """
    entry = _require_entry(world, CART, product_id)
    world.delete(CART, entry["id"])
    return {"message": "Product removed from your cart."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_apply_promo_code_to_cart(world, promo_code: str) -> dict:
    """Apply a promo code to your cart (replaces a code applied before).

    Args:
        promo_code: the code, e.g. "SAVE10" (case-insensitive).
    """
    promo = find_promo(world, promo_code)
    if promo is None:
        raise NotFound(f"promo code {promo_code!r} does not exist")
    subtotal = cart_breakdown(world)["subtotal"]
    problem = promo_problem(world, promo, subtotal)
    if problem:
        raise Conflict(problem)
    world.update(USERS, world.user_id, cart_promo_code=promo["code"])
    cart = cart_breakdown(world)
    return {"message": f"Promo code {promo['code']} applied.", "discount": cart["discount"],
            "total_amount": cart["total_amount"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_remove_promo_code_from_cart(world) -> dict:
    """Remove the promo code applied to your cart."""
    user = world.get(USERS, world.user_id) or {}
    if not user.get("cart_promo_code"):
        raise Conflict("no promo code is applied to your cart")
    world.update(USERS, world.user_id, cart_promo_code=None)
    return {"message": f"Promo code {user['cart_promo_code']} removed."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_gift_wrapping_to_product(world, product_id: int, quantity: int | None = 1) -> dict:
    """Gift-wrap units of a product in your cart (sets how many of them are wrapped).

    Args:
        product_id: id of a product in the cart.
        quantity: how many of its units to wrap (at most the quantity in the cart).
    """
    wrap = check_quantity(1 if quantity is None else quantity)
    entry = _require_entry(world, CART, product_id)
    if wrap > entry["quantity"]:
        raise Conflict(f"only {entry['quantity']} of product {product_id} are in your cart; cannot gift-wrap {wrap}")
    world.update(CART, entry["id"], gift_wrap_quantity=wrap)
    return {"message": f"{wrap} unit(s) will be gift-wrapped.", "gift_wrap_quantity": wrap}


@tool(app=APP, writes=True, requires=REQ)
def amazon_remove_gift_wrapping_from_product(world, product_id: int) -> dict:
    """Stop gift-wrapping a product in your cart.

    Args:
        product_id: id of a product in the cart.
    """
    entry = _require_entry(world, CART, product_id)
    if entry["gift_wrap_quantity"] == 0:
        raise Conflict(f"product {product_id} in your cart is not gift-wrapped")
    world.update(CART, entry["id"], gift_wrap_quantity=0)
    return {"message": "Gift wrapping removed."}


# ---------------------------------------------------------------------------------- wish list
def _put_in_wish_list(world: Any, product_id: int, quantity: int) -> dict[str, Any]:
    entry = _entry(world, WISH_LIST, product_id)
    if entry is not None:
        return world.update(WISH_LIST, entry["id"], quantity=entry["quantity"] + quantity)
    return world.insert(WISH_LIST, {"id": world.new_id(WISH_LIST), "user_id": world.user_id,
                                    "product_id": product_id, "quantity": quantity, "created_at": now_str(world)})


@tool(app=APP, requires=REQ)
def amazon_show_wish_list(world) -> list:
    """List the products in your wish list."""
    out = []
    for entry in owned(world, WISH_LIST):
        product = world.get(PRODUCTS, entry["product_id"])
        if product is None:
            continue
        out.append({"wish_list_entry_id": entry["id"], "product_id": product["id"], "name": product["name"],
                    "price": product["price"], "quantity": entry["quantity"],
                    "in_stock": product["inventory_quantity"] > 0, "added_at": entry["created_at"]})
    return out


@tool(app=APP, writes=True, requires=REQ)
def amazon_clear_wish_list(world) -> dict:
    """Remove every product from your wish list."""
    return {"message": "Wish list cleared.", "removed": clear_owned(world, WISH_LIST)}


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_product_to_wish_list(
    world, product_id: int, quantity: int = 1, clear_wish_list_first: bool | None = False
) -> dict:
    """Save a product to your wish list (adds to the quantity if it is already there).

    Args:
        product_id: id of the product.
        quantity: how many units you want (at least 1).
        clear_wish_list_first: if true, empty the wish list before adding.
    """
    check_quantity(quantity)
    product = get_product(world, product_id)
    if clear_wish_list_first:
        clear_owned(world, WISH_LIST)
    entry = _put_in_wish_list(world, product_id, quantity)
    return {"message": f"Added {product['name']} to your wish list.", "wish_list_entry_id": entry["id"],
            "quantity_in_wish_list": entry["quantity"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_product_from_wish_list(world, product_id: int) -> dict:
    """Remove a product from your wish list.

    Args:
        product_id: id of a product in the wish list.
    """
    entry = _require_entry(world, WISH_LIST, product_id)
    world.delete(WISH_LIST, entry["id"])
    return {"message": "Product removed from your wish list."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_product_quantity_in_wish_list(world, product_id: int, quantity: int) -> dict:
    """Set how many units of a product your wish list asks for.

    Args:
        product_id: id of a product in the wish list.
        quantity: the new quantity (at least 1).
    """
    check_quantity(quantity)
    entry = _require_entry(world, WISH_LIST, product_id)
    world.update(WISH_LIST, entry["id"], quantity=quantity)
    return {"message": "Wish list quantity updated.", "quantity_in_wish_list": quantity}


@tool(app=APP, writes=True, requires=REQ)
def amazon_move_product_from_cart_to_wish_list(world, product_id: int, quantity: int | None = 1) -> dict:
    """Move units of a product from your cart to your wish list.

    Args:
        product_id: id of a product in the cart.
        quantity: how many units to move (null moves all of them).
    """
    entry = _require_entry(world, CART, product_id)
    moved = entry["quantity"] if quantity is None else check_quantity(quantity)
    if moved > entry["quantity"]:
        raise Conflict(f"only {entry['quantity']} of product {product_id} are in your cart")
    _set_cart_quantity(world, entry, entry["quantity"] - moved)
    wish = _put_in_wish_list(world, product_id, moved)
    return {"message": f"Moved {moved} unit(s) to your wish list.", "quantity_in_wish_list": wish["quantity"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_move_product_from_wish_list_to_cart(world, product_id: int, quantity: int | None = 1) -> dict:
    """Move units of a product from your wish list to your cart.

    Args:
        product_id: id of a product in the wish list.
        quantity: how many units to move (null moves all of them).
    """
    wish = _require_entry(world, WISH_LIST, product_id)
    moved = wish["quantity"] if quantity is None else check_quantity(quantity)
    if moved > wish["quantity"]:
        raise Conflict(f"only {wish['quantity']} of product {product_id} are in your wish list")
    product = get_product(world, product_id)
    if moved == wish["quantity"]:
        world.delete(WISH_LIST, wish["id"])
    else:
        world.update(WISH_LIST, wish["id"], quantity=wish["quantity"] - moved)
    entry = _put_in_cart(world, product, moved)
    return {"message": f"Moved {moved} unit(s) to your cart.", "quantity_in_cart": entry["quantity"]}


# ---------------------------------------------------------------------------------- orders
def _order_items(world: Any, order_id: int) -> list[dict[str, Any]]:
    return sorted((dict(i) for i in world.rows(ORDER_ITEMS) if i["order_id"] == order_id), key=lambda i: i["id"])


def _item_view(world: Any, item: dict[str, Any]) -> dict[str, Any]:
    product = world.get(PRODUCTS, item["product_id"]) or {}
    return {
        "product_id": item["product_id"], "name": product.get("name"), "quantity": item["quantity"],
        "price": item["price"], "gift_wrap_quantity": item["gift_wrap_quantity"],
        "expected_delivery_at": item["expected_delivery_at"], "delivery_status": delivery_status(world, item),
    }


def order_view(world: Any, order: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in order.items() if k not in ("id", "user_id")}
    out = {"order_id": order["id"], **out}
    out["items"] = [_item_view(world, i) for i in _order_items(world, order["id"])]
    return out


def require_order(world: Any, order_id: int) -> dict[str, Any]:
    return require_owned(world, ORDERS, order_id, "order")


@tool(app=APP, requires=REQ)
def amazon_show_orders(
    world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5, sort_by: str | None = None
) -> list:
    """List your orders, newest first, optionally searching the names of the products in them.

    Args:
        query: words to look for in the names of ordered products (empty lists every order).
        page_index: page to return, from 0.
        page_limit: orders per page (1-20).
        sort_by: "created_at" or "total_amount"; prefix "-" for descending (default newest first).
    """
    orders = sorted(owned(world, ORDERS), key=lambda o: (o["created_at"], o["id"]), reverse=True)
    names: dict[int, list[str]] = {o["id"]: [] for o in orders}
    for item in world.rows(ORDER_ITEMS):
        if item["order_id"] in names:
            product = world.get(PRODUCTS, item["product_id"])
            names[item["order_id"]].append(product["name"] if product else "")
    rows = search_rank([{**o, "product_names": names[o["id"]]} for o in orders], query, ("product_names",))
    rows = sort_rows(rows, sort_by, ("created_at", "total_amount"))
    return [{"order_id": o["id"], "created_at": o["created_at"], "total_amount": o["total_amount"],
             "num_items": sum(i["quantity"] for i in _order_items(world, o["id"])), "product_names": o["product_names"]}
            for o in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def amazon_show_order(world, order_id: int) -> dict:
    """Show an order: its items and their delivery status, address, card and cost breakdown.

    Args:
        order_id: id of one of your orders.
    """
    return order_view(world, require_order(world, order_id))


@tool(app=APP, requires=REQ)
def amazon_show_product_purchases(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Products you bought, most recent purchase first (one row per order line).

    Args:
        page_index: page to return, from 0.
        page_limit: rows per page (1-20).
    """
    orders = {o["id"]: o for o in owned(world, ORDERS)}
    items = [dict(i) for i in world.rows(ORDER_ITEMS) if i["order_id"] in orders]
    items.sort(key=lambda i: (orders[i["order_id"]]["created_at"], i["id"]), reverse=True)
    return [{"order_id": i["order_id"], "ordered_at": orders[i["order_id"]]["created_at"], **_item_view(world, i)}
            for i in paginate(items, page_index, page_limit)]


def format_address(address: dict[str, Any]) -> str:
    return (f"{address['name']}, {address['street_address']}, {address['city']}, {address['state']} "
            f"{address['zip_code']}, {address['country']}")


@tool(app=APP, writes=True, requires=REQ)
def amazon_place_order(world, payment_card_id: int, address_id: int) -> dict:
    """Order everything in your cart: charges the card, reserves stock and empties the cart.

    Args:
        payment_card_id: id of one of your payment cards (see amazon_show_payment_cards).
        address_id: id of one of your addresses to ship to (see amazon_show_addresses).
    """
    card = require_owned(world, CARDS, payment_card_id, "payment card")
    address = require_owned(world, ADDRESSES, address_id, "address")
    cart = cart_breakdown(world)
    if not cart["items"]:
        raise Conflict("your cart is empty; add products with amazon_add_product_to_cart first")
    if cart["promo_code_problem"]:
        raise Conflict(cart["promo_code_problem"] + "; remove it with amazon_remove_promo_code_from_cart")
    products = {}
    for line in cart["items"]:
        product = get_product(world, line["product_id"])
        _check_stock(product, line["quantity"])
        products[product["id"]] = product
    check_card_can_pay(world, card, cart["total_amount"])
    now = now_str(world)
    order = world.insert(ORDERS, {
        "id": world.new_id(ORDERS), "user_id": world.user_id, "payment_card_id": card["id"],
        "address_id": address["id"], "shipping_address": format_address(address), "promo_code": cart["promo_code"],
        "subtotal": cart["subtotal"], "gift_wrap_fee": cart["gift_wrap_fee"], "discount": cart["discount"],
        "delivery_fee": cart["delivery_fee"], "tax": cart["tax"], "total_amount": cart["total_amount"],
        "created_at": now,
    })
    for line in cart["items"]:
        product = products[line["product_id"]]
        world.insert(ORDER_ITEMS, {
            "id": world.new_id(ORDER_ITEMS), "order_id": order["id"], "product_id": product["id"],
            "quantity": line["quantity"], "price": product["price"], "gift_wrap_quantity": line["gift_wrap_quantity"],
            "expected_delivery_at": plus_days(now, product["delivery_days"]),
        })
        world.update(PRODUCTS, product["id"], inventory_quantity=product["inventory_quantity"] - line["quantity"])
        world.delete(CART, line["cart_entry_id"])
    world.update(CARDS, card["id"], balance=money(card["balance"] - cart["total_amount"]))
    if cart["promo_code"] is not None:
        world.update(USERS, world.user_id, cart_promo_code=None)
    return {"message": "Order placed.", "order_id": order["id"], "total_amount": order["total_amount"]}


# ---------------------------------------------------------------------------------- payment cards
def _card_view(card: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in card.items() if k not in ("id", "user_id", "cvv_number")}
    return {"payment_card_id": card["id"], **out}


@tool(app=APP, requires=REQ)
def amazon_show_payment_cards(world) -> list:
    """List your saved payment cards with their available balance."""
    return [_card_view(c) for c in owned(world, CARDS)]


@tool(app=APP, requires=REQ)
def amazon_show_payment_card(world, payment_card_id: int) -> dict:
    """Show one of your payment cards.

    Args:
        payment_card_id: id of the card.
    """
    return _card_view(require_owned(world, CARDS, payment_card_id, "payment card"))


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_payment_card(
    world, card_name: str, owner_name: str, card_number: int, expiry_year: int, expiry_month: int, cvv_number: int
) -> dict:
    """Save a new payment card to your account.

    Args:
        card_name: a name for the card, e.g. "Chase Visa".
        owner_name: the name printed on the card.
        card_number: the 16-digit card number.
        expiry_year: expiry year, e.g. 2029.
        expiry_month: expiry month, 1-12.
        cvv_number: the 3- or 4-digit security code.
    """
    if not card_name.strip() or not owner_name.strip():
        raise InvalidArgument("card_name and owner_name must not be empty")
    if len(str(card_number)) != 16 or card_number < 0:
        raise InvalidArgument("card_number must have exactly 16 digits")
    if not 1 <= expiry_month <= 12:
        raise InvalidArgument("expiry_month must be between 1 and 12")
    if not 0 <= cvv_number <= 9999:
        raise InvalidArgument("cvv_number must have 3 or 4 digits")
    if (expiry_year, expiry_month) < (world.now.year, world.now.month):
        raise InvalidArgument(f"the card expired in {expiry_month:02d}/{expiry_year}")
    if any(c["card_number"] == card_number for c in owned(world, CARDS)):
        raise Conflict("a card with this number is already saved in your account")
    card = world.insert(CARDS, {
        "id": world.new_id(CARDS), "user_id": world.user_id, "card_name": card_name, "owner_name": owner_name,
        "card_number": card_number, "expiry_year": expiry_year, "expiry_month": expiry_month,
        "cvv_number": cvv_number, "balance": NEW_CARD_BALANCE, "created_at": now_str(world),
    })
    return {"message": "Payment card added.", "payment_card_id": card["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_payment_card(world, payment_card_id: int, card_name: str) -> dict:
    """Rename one of your payment cards.

    Args:
        payment_card_id: id of the card.
        card_name: the new name.
    """
    require_owned(world, CARDS, payment_card_id, "payment card")
    nonblank(card_name, "card_name")
    world.update(CARDS, payment_card_id, card_name=card_name)
    return {"message": "Payment card updated."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_payment_card(world, payment_card_id: int) -> dict:
    """Remove a payment card from your account (past orders keep their records).

    Args:
        payment_card_id: id of the card.
    """
    require_owned(world, CARDS, payment_card_id, "payment card")
    world.delete(CARDS, payment_card_id)
    return {"message": "Payment card deleted."}


# ---------------------------------------------------------------------------------- addresses
def _address_view(address: dict[str, Any]) -> dict[str, Any]:
    return {"address_id": address["id"], **{k: v for k, v in address.items() if k not in ("id", "user_id")}}


@tool(app=APP, requires=REQ)
def amazon_show_addresses(world) -> list:
    """List your saved shipping addresses."""
    return [_address_view(a) for a in owned(world, ADDRESSES)]


def _check_address_fields(fields: dict[str, Any]) -> None:
    for key, value in fields.items():
        if isinstance(value, str) and not value.strip():
            raise InvalidArgument(f"{key} must not be empty")
    zip_code = fields.get("zip_code")
    if zip_code is not None and not 0 <= zip_code <= 99999:
        raise InvalidArgument("zip_code must be a 5-digit number")


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_address(world, name: str, street_address: str, city: str, state: str, country: str, zip_code: int) -> dict:
    """Save a new shipping address.

    Args:
        name: a label for the address, e.g. "Home" or "Office".
        street_address: street and house number (apartment included).
        city: city.
        state: state or region.
        country: country.
        zip_code: postal code.
    """
    fields = {"name": name, "street_address": street_address, "city": city, "state": state,
              "country": country, "zip_code": zip_code}
    _check_address_fields(fields)
    if any(a["name"].lower() == name.strip().lower() for a in owned(world, ADDRESSES)):
        raise Conflict(f"you already have an address named {name!r}; update it or choose another name")
    row = world.insert(ADDRESSES, {"id": world.new_id(ADDRESSES), "user_id": world.user_id, **fields,
                                   "created_at": now_str(world)})
    return {"message": "Address added.", "address_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_address(
    world,
    address_id: int,
    name: str | None = None,
    street_address: str | None = None,
    city: str | None = None,
    state: str | None = None,
    country: str | None = None,
    zip_code: int | None = None,
) -> dict:
    """Change fields of one of your addresses (omitted fields stay as they are).

    Args:
        address_id: id of the address.
        name: new label.
        street_address: new street address.
        city: new city.
        state: new state.
        country: new country.
        zip_code: new postal code.
    """
    require_owned(world, ADDRESSES, address_id, "address")
    changes = {k: v for k, v in (("name", name), ("street_address", street_address), ("city", city),
                                 ("state", state), ("country", country), ("zip_code", zip_code)) if v is not None}
    if not changes:
        raise InvalidArgument("nothing to update: give at least one field")
    _check_address_fields(changes)
    if name is not None and any(a["name"].lower() == name.strip().lower() and a["id"] != address_id
                                for a in owned(world, ADDRESSES)):
        raise Conflict(f"you already have another address named {name!r}")
    world.update(ADDRESSES, address_id, **changes)
    return {"message": "Address updated."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_address(world, address_id: int) -> dict:
    """Delete one of your addresses (past orders keep their shipping address).

    Args:
        address_id: id of the address.
    """
    require_owned(world, ADDRESSES, address_id, "address")
    world.delete(ADDRESSES, address_id)
    return {"message": "Address deleted."}

