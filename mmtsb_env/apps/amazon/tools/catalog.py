"""Amazon: the catalog (products, sellers, product types) and the browsing history."""

from __future__ import annotations

from typing import Any
from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import now_str, paginate, rank_table, search_rank, sort_rows

from ..tables import (
    APP, BROWSING, CART, ORDERS, ORDER_ITEMS, PRODUCTS, RELATIVE_SIZES, REQ, REVIEWS, SELLERS, USERS, WISH_LIST,
    clear_owned, delivery_status, get_product, owned, product_summary, purchased_product_ids, rating_distribution,
    seller_of, seller_rating, variations_of,
)


# ---------------------------------------------------------------------------------- catalog
@tool(app=APP, requires=REQ)
def amazon_show_product(world, product_id: int) -> dict:
    """Show everything about a product: price, stock, dimensions, seller, rating and its variations.

    Args:
        product_id: id of the product.
    """
    product = get_product(world, product_id)
    seller = seller_of(world, product)
    out = dict(product)
    out["product_id"] = out.pop("id")
    out["seller_name"] = seller["name"] if seller else None
    out["seller_rating"] = seller_rating(world, product)
    out["num_reviews"] = sum(1 for r in world.rows(REVIEWS) if r["product_id"] == product_id)
    out["in_stock"] = product["inventory_quantity"] > 0
    out["variations"] = [
        {"product_id": v["id"], "color": v["color"], "relative_size": v["relative_size"], "price": v["price"]}
        for v in sorted(variations_of(world, product), key=lambda r: r["id"])
    ]
    return out


@tool(app=APP, requires=REQ)
def amazon_show_recommended_products(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Products recommended for you, based on what you browsed, saved and bought.

    Products you already bought or have in your cart are left out; best rated first.

    Args:
        page_index: page to return, from 0.
        page_limit: products per page (1-20).
    """
    me = world.user_id
    seen_ids: list[int] = []
    for table in (BROWSING, WISH_LIST, CART):
        seen_ids.extend(r["product_id"] for r in world.rows(table) if r["user_id"] == me)
    bought = purchased_product_ids(world, me)
    in_cart = {r["product_id"] for r in world.rows(CART) if r["user_id"] == me}
    interests = set()
    for pid in [*seen_ids, *bought]:
        product = world.get(PRODUCTS, pid)
        if product is not None:
            interests.add(product["product_type"])
    candidates = [
        p for p in world.rows(PRODUCTS)
        if p["id"] not in bought and p["id"] not in in_cart and p["inventory_quantity"] > 0
        and (not interests or p["product_type"] in interests)
    ]
    candidates.sort(key=lambda p: (-p["rating"], p["id"]))
    return [product_summary(world, p) for p in paginate(candidates, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def amazon_show_product_rating_distribution(world, product_id: int) -> dict:
    """How many reviews of a product gave 1, 2, 3, 4 and 5 stars, with the average rating.

    Args:
        product_id: id of the product.
    """
    product = get_product(world, product_id)
    counts = rating_distribution(world, product_id)
    return {"product_id": product_id, "rating": product["rating"], "num_ratings": sum(counts.values()),
            "distribution": counts}


@tool(app=APP, requires=REQ)
def amazon_show_last_product_purchase(world, product_id: int) -> dict:
    """Show your most recent purchase of a product or of one of its size/color variations.

    Args:
        product_id: id of the product.
    """
    product = get_product(world, product_id)
    family = {product_id} | {v["id"] for v in variations_of(world, product)}
    orders = {o["id"]: o for o in world.rows(ORDERS) if o["user_id"] == world.user_id}
    items = [i for i in world.rows(ORDER_ITEMS) if i["order_id"] in orders and i["product_id"] in family]
    if not items:
        raise NotFound(f"you have never bought product {product_id} ({product['name']}) or its variations")
    item = max(items, key=lambda i: (orders[i["order_id"]]["created_at"], i["id"]))
    bought = world.get(PRODUCTS, item["product_id"]) or {}
    return {
        "order_id": item["order_id"], "ordered_at": orders[item["order_id"]]["created_at"],
        "product_id": item["product_id"], "name": bought.get("name"), "color": bought.get("color"),
        "relative_size": bought.get("relative_size"), "quantity": item["quantity"], "price": item["price"],
        "delivery_status": delivery_status(world, item), "expected_delivery_at": item["expected_delivery_at"],
    }


@tool(app=APP, requires=REQ)
def amazon_search_sellers(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Search sellers by name.

    Args:
        query: words to look for in seller names and descriptions (empty lists every seller).
        page_index: page to return, from 0.
        page_limit: sellers per page (1-20).
    """
    rows = sorted(world.rows(SELLERS), key=lambda r: r["id"])
    rows = search_rank(rows, query, ("name", "description"))
    return [{"seller_id": r["id"], "name": r["name"], "rating": r["rating"]}
            for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def amazon_show_seller(world, seller_id: int) -> dict:
    """Show a seller's details and how many products it sells.

    Args:
        seller_id: id of the seller.
    """
    seller = world.get(SELLERS, seller_id)
    if seller is None:
        raise NotFound(f"seller with id {seller_id} does not exist; find ids with amazon_search_sellers")
    out = dict(seller)
    out["seller_id"] = out.pop("id")
    mine = [p for p in world.rows(PRODUCTS) if p["seller_id"] == seller_id]
    out["num_products"] = len(mine)
    out["product_types"] = sorted({p["product_type"] for p in mine})
    return out


@tool(app=APP, requires=REQ)
def amazon_search_product_types(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Search the product types (categories) of the catalog; returns their names.

    Args:
        query: words to look for in type names (empty lists every type, alphabetically).
        page_index: page to return, from 0.
        page_limit: types per page (1-20).
    """
    types = sorted({p["product_type"] for p in world.rows(PRODUCTS)})
    rows = search_rank([{"product_type": t} for t in types], query, ("product_type",))
    return [r["product_type"] for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def amazon_show_product_feature_choices(world, product_type: str | None = None) -> dict:
    """The colors, sizes and sellers available among products of a type (or of the whole catalog).

    Use the values as filters of amazon_search_products.

    Args:
        product_type: product type to look at, e.g. "headphones" (all products if omitted).
    """
    rows = list(world.rows(PRODUCTS))
    if product_type is not None:
        wanted = product_type.strip().lower()
        rows = [p for p in rows if p["product_type"].lower() == wanted]
        if not rows:
            raise NotFound(f"no product type {product_type!r}; find types with amazon_search_product_types")
    sizes = {p["relative_size"] for p in rows if p["relative_size"]}
    seller_ids = sorted({p["seller_id"] for p in rows if p["seller_id"] is not None})
    sellers = []
    for sid in seller_ids:
        seller = world.get(SELLERS, sid)
        if seller is not None:
            sellers.append({"seller_id": sid, "name": seller["name"]})
    return {
        "product_type": product_type,
        "colors": sorted({p["color"] for p in rows if p["color"]}),
        "relative_sizes": [s for s in RELATIVE_SIZES if s in sizes] + sorted(sizes - set(RELATIVE_SIZES)),
        "sellers": sellers,
        "price_range": [min(p["price"] for p in rows), max(p["price"] for p in rows)] if rows else None,
    }


_PRODUCT_SORTS = ("price", "rating", "delivery_days", "name", "seller_rating", "inventory_quantity")


_PRODUCT_TEXT_FIELDS = ("name", "description", "product_type", "color")


def _product_text(p: dict[str, Any]) -> list[Any]:
    return [p.get(f) for f in _PRODUCT_TEXT_FIELDS]


@tool(app=APP, requires=REQ)
def amazon_search_products(
    world,
    query: str | None = "",
    product_type: str | None = None,
    color: str | None = None,
    relative_size: str | None = None,
    min_price: float | None = 0.0,
    max_price: float | None = 9.22e18,
    min_product_rating: float | None = 0.0,
    max_product_rating: float | None = 5.0,
    min_seller_rating: float | None = 0.0,
    max_seller_rating: float | None = 5.0,
    seller_id: int | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search the catalog by words in a product's name, description or type, with filters.

    Results are ranked by relevance unless sort_by is given.

    Args:
        query: words to look for (empty matches every product).
        product_type: only products of this type (see amazon_search_product_types).
        color: only products of this color (case-insensitive).
        relative_size: only products of this size, e.g. "small", "medium", "large".
        min_price: lowest price.
        max_price: highest price.
        min_product_rating: lowest average product rating (0-5).
        max_product_rating: highest average product rating (0-5).
        min_seller_rating: lowest seller rating (0-5).
        max_seller_rating: highest seller rating (0-5).
        seller_id: only products sold by this seller.
        page_index: page to return, from 0.
        page_limit: products per page (1-20).
        sort_by: "price", "rating", "delivery_days", "name", "seller_rating" or "inventory_quantity"; prefix "-" for descending.
    """
    lo_p, hi_p = (0.0 if min_price is None else min_price), (float("inf") if max_price is None else max_price)
    lo_r, hi_r = (0.0 if min_product_rating is None else min_product_rating), (5.0 if max_product_rating is None else max_product_rating)
    lo_s, hi_s = (0.0 if min_seller_rating is None else min_seller_rating), (5.0 if max_seller_rating is None else max_seller_rating)
    if lo_p > hi_p or lo_r > hi_r or lo_s > hi_s:
        raise InvalidArgument("a min_* filter is larger than its max_* counterpart")
    if seller_id is not None and not world.exists(SELLERS, seller_id):
        raise NotFound(f"seller with id {seller_id} does not exist; find ids with amazon_search_sellers")
    ptype = product_type.strip().lower() if product_type else None
    col = color.strip().lower() if color else None
    size = relative_size.strip().lower() if relative_size else None
    sellers = {s["id"]: s["rating"] for s in world.rows(SELLERS)}

    def keep(p: dict[str, Any]) -> bool:
        if ptype and p["product_type"].lower() != ptype:
            return False
        if col and (p["color"] or "").lower() != col:
            return False
        if size and (p["relative_size"] or "").lower() != size:
            return False
        if seller_id is not None and p["seller_id"] != seller_id:
            return False
        if not (lo_p <= p["price"] <= hi_p and lo_r <= p["rating"] <= hi_r):
            return False
        s_rating = sellers.get(p["seller_id"], p.get("seller_rating"))
        return not ((lo_s > 0.0 or hi_s < 5.0) and (s_rating is None or not lo_s <= s_rating <= hi_s))

    ranked = rank_table(world, PRODUCTS, query, _product_text, name="amazon.product_text", keep=keep,
                        order_key=lambda r: r["id"])
    rows = [{**p, "seller_rating": sellers.get(p["seller_id"], p.get("seller_rating"))} for p in ranked]
    rows = sort_rows(rows, sort_by, _PRODUCT_SORTS)
    return [{**product_summary(world, p), "seller_rating": p["seller_rating"]}
            for p in paginate(rows, page_index, page_limit)]


# ---------------------------------------------------------------------------------- browsing history
def _tracking_on(world: Any) -> bool:
    user = world.get(USERS, world.user_id)
    return bool(user and user.get("track_browsing_history", True))


@tool(app=APP, requires=REQ)
def amazon_show_browsing_history(world, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Products you viewed, most recent first.

    Args:
        page_index: page to return, from 0.
        page_limit: products per page (1-20).
    """
    entries = sorted(owned(world, BROWSING), key=lambda r: (r["created_at"] or "", r["id"]), reverse=True)
    out = []
    for entry in paginate(entries, page_index, page_limit):
        product = world.get(PRODUCTS, entry["product_id"])
        if product is not None:
            out.append({**product_summary(world, product), "viewed_at": entry["created_at"]})
    return out


@tool(app=APP, writes=True, requires=REQ)
def amazon_clear_browsing_history(world) -> dict:
    """Remove every product from your browsing history."""
    return {"message": "Browsing history cleared.", "removed": clear_owned(world, BROWSING)}


@tool(app=APP, writes=True, requires=REQ)
def amazon_add_product_to_browsing_history(world, product_id: int) -> dict:
    """Record that you viewed a product (a product already there moves to the top).

    Args:
        product_id: id of the product.
    """
    get_product(world, product_id)
    if not _tracking_on(world):
        raise Conflict("browsing history tracking is turned off; turn it on with amazon_update_browsing_history_tracking")
    existing = world.first(BROWSING, user_id=world.user_id, product_id=product_id)
    if existing is not None:
        world.update(BROWSING, existing["id"], created_at=now_str(world))
        return {"message": "Product moved to the top of your browsing history.", "entry_id": existing["id"]}
    row = world.insert(BROWSING, {"id": world.new_id(BROWSING), "user_id": world.user_id,
                                  "product_id": product_id, "created_at": now_str(world)})
    return {"message": "Product added to your browsing history.", "entry_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_remove_product_from_browsing_history(world, product_id: int) -> dict:
    """Remove one product from your browsing history.

    Args:
        product_id: id of the product.
    """
    entry = world.first(BROWSING, user_id=world.user_id, product_id=product_id)
    if entry is None:
        raise NotFound(f"product {product_id} is not in your browsing history")
    world.delete(BROWSING, entry["id"])
    return {"message": "Product removed from your browsing history."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_browsing_history_tracking(world, track_browsing_history: bool) -> dict:
    """Turn recording of viewed products on or off (existing history is kept).

    Args:
        track_browsing_history: true to record viewed products, false to stop.
    """
    world.update(USERS, world.user_id, track_browsing_history=track_browsing_history)
    state = "on" if track_browsing_history else "off"
    return {"message": f"Browsing history tracking turned {state}.", "track_browsing_history": track_browsing_history}
