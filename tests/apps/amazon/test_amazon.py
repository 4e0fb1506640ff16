"""amazon: every tool, success and error paths, against real world state."""

import pytest

from mmtsb_env.apps.amazon import data as amazon_data
from mmtsb_env.apps.amazon.tables import (
    ADDRESSES, ANSWERS, BROWSING, CARDS, CART, DELIVERY_FEE, GIFT_WRAP_FEE, ORDER_ITEMS, ORDERS, PRIME, PRODUCTS,
    QUESTIONS, RETURNS, REVIEWS, SELLERS, TAX_RATE, USERS, WISH_LIST,
)
from mmtsb_env.apps.file_system.tables import read_user_file

# Deliberate differences from the reference catalog (tool name -> reason). None so far.
DEVIATIONS: dict[str, str] = {}


# ------------------------------------------------------------------------------------------ helpers
def mine(world, table):
    return sorted((dict(r) for r in world.rows(table) if r["user_id"] == world.user_id), key=lambda r: r["id"])


def theirs(world, table):
    return next(r for r in world.rows(table) if r["user_id"] != world.user_id)


def product(world, pid):
    return world.get(PRODUCTS, pid)


def stocked(world, n=1, minimum=10, exclude=()):
    """``n`` in-stock products not in the owner's cart/wish list/orders, cheapest first."""
    busy = {r["product_id"] for t in (CART, WISH_LIST) for r in world.rows(t) if r["user_id"] == world.user_id}
    rows = sorted((p for p in world.rows(PRODUCTS) if p["inventory_quantity"] >= minimum
                   and p["id"] not in busy and p["id"] not in exclude and p["price"] < 300),
                  key=lambda p: (p["price"], p["id"]))
    return [dict(p) for p in rows[:n]]


def empty_cart(call):
    call("amazon_clear_cart")


def rich_card(world):
    return max(mine(world, CARDS), key=lambda c: c["balance"])


def poor_card(world):
    return min(mine(world, CARDS), key=lambda c: c["balance"])


def home(world):
    return mine(world, ADDRESSES)[0]


def expected_total(lines, discount=0.0, prime=False):
    subtotal = round(sum(price * qty for price, qty, _ in lines), 2)
    wrap = round(sum(w for _, _, w in lines) * GIFT_WRAP_FEE, 2)
    tax = round((subtotal - discount + wrap) * TAX_RATE + 1e-9, 2)
    return round(subtotal - discount + wrap + (0.0 if prime else DELIVERY_FEE) + tax + 1e-9, 2)


# ------------------------------------------------------------------------------------------ catalog
def test_catalog_matches_reference(reference):
    registered = reference.assert_matches_catalog("amazon", DEVIATIONS, count=75)
    writes = {n for n, t in registered.items() if t.writes}
    assert "amazon_place_order" in writes and "amazon_show_cart" not in writes


def test_base_data_is_rich_and_consistent(world):
    products = list(world.rows(PRODUCTS))
    assert len(products) >= 400 and world.count(SELLERS) >= 30
    assert len({p["product_type"] for p in products}) >= 25
    names = [p["name"] for p in products]
    assert any(names.count(n) > 1 and len({(p["seller_id"]) for p in products if p["name"] == n}) > 1 for n in set(names))
    assert {"Sony WH-1000XM5 Wireless Noise Cancelling Headphones", "Sony WH-1000XM4 Wireless Noise Cancelling Headphones"} <= set(names)
    assert min(p["id"] for p in products) == amazon_data.FIRST_PRODUCT_ID
    for p in products[:80]:
        stars = [r["rating"] for r in world.rows(REVIEWS) if r["product_id"] == p["id"]]
        assert p["rating"] == (round(sum(stars) / len(stars), 1) if stars else 0.0)
        if p["seller_id"] is not None:
            assert p["seller_rating"] == world.get(SELLERS, p["seller_id"])["rating"]
    assert len(mine(world, ORDERS)) >= 10 and mine(world, CART) and mine(world, WISH_LIST)
    assert len(mine(world, CARDS)) == 3 and len(mine(world, ADDRESSES)) == 2
    assert any(p["has_variations"] for p in products)


def test_populate_is_deterministic():
    """Same seed, same amazon rows (its 60 ms budget is a speed figure, measured outside the tests)."""
    import random

    from faker import Faker

    from mmtsb_env.world.populators import _POPULATORS, BaseBuilder, _make_people

    def build():
        fake = Faker("en_US")
        fake.seed_instance(0)
        rng = random.Random(0)
        people = _make_people(fake, rng)
        b = BaseBuilder(seed=0, rng=rng, fake=fake, people=people, supervisor=people[0])
        for _, _app, fn in sorted(_POPULATORS, key=lambda item: (item[0], item[1])):
            fn(b)
        return {t: rows for t, rows in b.rows.items() if t.startswith("amazon.")}

    first = build()
    assert first[PRODUCTS] and first == build()


# ------------------------------------------------------------------------------------------ products
def test_show_product_with_variations(call, world):
    varied = next(p for p in world.rows(PRODUCTS) if p["variation_group_id"] is not None)
    shown = call("amazon_show_product", product_id=varied["id"])
    assert shown["product_id"] == varied["id"] and shown["name"] == varied["name"]
    assert shown["seller_name"] == world.get(SELLERS, varied["seller_id"])["name"]
    siblings = {p["id"] for p in world.rows(PRODUCTS) if p["variation_group_id"] == varied["variation_group_id"]}
    assert {v["product_id"] for v in shown["variations"]} == siblings - {varied["id"]}
    assert shown["num_reviews"] == world.count(REVIEWS, product_id=varied["id"])
    assert "does not exist" in call.fail("amazon_show_product", product_id=99999)
    assert "'product_id'" in call.fail("amazon_show_product", product_id="abc")


def test_search_products_query_filters_and_sorting(call, world):
    hits = call("amazon_search_products", query="Sony WH-1000XM5")
    assert hits[0]["name"] == "Sony WH-1000XM5 Wireless Noise Cancelling Headphones"
    cheap = call("amazon_search_products", product_type="headphones", max_price=50, sort_by="price", page_limit=20)
    assert cheap and all(h["product_type"] == "headphones" and h["price"] <= 50 for h in cheap)
    assert [h["price"] for h in cheap] == sorted(h["price"] for h in cheap)
    desc = call("amazon_search_products", query="coffee", sort_by="-rating", page_limit=10)
    assert [h["rating"] for h in desc] == sorted((h["rating"] for h in desc), reverse=True)
    black = call("amazon_search_products", color="black", min_product_rating=4.0, page_limit=20)
    assert black and all(h["color"] == "Black" and h["rating"] >= 4.0 for h in black)
    sized = call("amazon_search_products", product_type="shoes", relative_size="large", page_limit=20)
    assert sized and all(h["relative_size"] == "large" for h in sized)
    seller = next(iter(world.rows(SELLERS)))
    by_seller = call("amazon_search_products", seller_id=seller["id"], page_limit=20)
    assert by_seller and all(h["seller_id"] == seller["id"] for h in by_seller)
    top_sellers = call("amazon_search_products", min_seller_rating=4.8, page_limit=20)
    assert top_sellers and all(h["seller_rating"] >= 4.8 for h in top_sellers)
    page0 = call("amazon_search_products", query="wireless", page_limit=3)
    page1 = call("amazon_search_products", query="wireless", page_limit=3, page_index=1)
    assert len(page0) == 3 and not {h["product_id"] for h in page0} & {h["product_id"] for h in page1}
    assert call("amazon_search_products", query="zzqxnonexistent") == []
    assert "sort_by" in call.fail("amazon_search_products", sort_by="weight")
    assert "min_" in call.fail("amazon_search_products", min_price=50, max_price=10)
    assert "seller with id" in call.fail("amazon_search_products", seller_id=9999)
    assert "page_limit" in call.fail("amazon_search_products", page_limit=50)


def test_product_types_and_feature_choices(call, world):
    types = call("amazon_search_product_types", page_limit=20)
    assert types == sorted(types) and "books" in types
    assert call("amazon_search_product_types", query="headphone") == ["headphones"]
    choices = call("amazon_show_product_feature_choices", product_type="Shoes")
    shoes = [p for p in world.rows(PRODUCTS) if p["product_type"] == "shoes"]
    assert set(choices["colors"]) == {p["color"] for p in shoes if p["color"]}
    assert set(choices["relative_sizes"]) == {p["relative_size"] for p in shoes if p["relative_size"]}
    assert {s["seller_id"] for s in choices["sellers"]} == {p["seller_id"] for p in shoes}
    everything = call("amazon_show_product_feature_choices")
    assert len(everything["sellers"]) == world.count(SELLERS)
    assert "no product type" in call.fail("amazon_show_product_feature_choices", product_type="spaceships")


def test_sellers(call, world):
    hits = call("amazon_search_sellers", query="Summit Electronics")
    assert [h["name"] for h in hits[:2]] == ["Summit Electronics", "Summit Electronics Outlet"]
    assert len(call("amazon_search_sellers", page_limit=20)) == 20
    seller = world.get(SELLERS, hits[0]["seller_id"])
    shown = call("amazon_show_seller", seller_id=seller["id"])
    assert shown["name"] == seller["name"] and shown["num_products"] == world.count(PRODUCTS, seller_id=seller["id"])
    assert "does not exist" in call.fail("amazon_show_seller", seller_id=4242)


def test_recommendations_follow_interests(call, world):
    recs = call("amazon_show_recommended_products", page_limit=20)
    bought = {i["product_id"] for i in world.rows(ORDER_ITEMS)
              if world.get(ORDERS, i["order_id"])["user_id"] == world.user_id}
    in_cart = {r["product_id"] for r in mine(world, CART)}
    seen_types = {product(world, r["product_id"])["product_type"] for r in mine(world, BROWSING)}
    assert recs and not {r["product_id"] for r in recs} & (bought | in_cart)
    assert any(r["product_type"] in seen_types for r in recs)
    assert [r["rating"] for r in recs] == sorted((r["rating"] for r in recs), reverse=True)
    assert "page_index" in call.fail("amazon_show_recommended_products", page_index=-1)


def test_rating_distribution(call, world):
    pid = max(world.rows(PRODUCTS), key=lambda p: world.count(REVIEWS, product_id=p["id"]))["id"]
    dist = call("amazon_show_product_rating_distribution", product_id=pid)
    assert dist["num_ratings"] == world.count(REVIEWS, product_id=pid) == sum(dist["distribution"].values())
    assert dist["distribution"]["5"] == sum(1 for r in world.rows(REVIEWS) if r["product_id"] == pid and r["rating"] == 5)
    assert "does not exist" in call.fail("amazon_show_product_rating_distribution", product_id=7)


# ------------------------------------------------------------------------------------------ browsing
def test_browsing_history_lifecycle(call, world):
    history = call("amazon_show_browsing_history", page_limit=20)
    assert len(history) == len(mine(world, BROWSING))
    assert [h["viewed_at"] for h in history] == sorted((h["viewed_at"] for h in history), reverse=True)
    oldest = history[-1]["product_id"]
    call("amazon_add_product_to_browsing_history", product_id=oldest)
    assert call("amazon_show_browsing_history")[0]["product_id"] == oldest
    assert len(mine(world, BROWSING)) == len(history)  # moved, not duplicated
    new = stocked(world, exclude={h["product_id"] for h in history})[0]["id"]
    call("amazon_add_product_to_browsing_history", product_id=new)
    assert world.first(BROWSING, user_id=world.user_id, product_id=new)["created_at"] == "2026-04-16T23:51:15"
    call("amazon_remove_product_from_browsing_history", product_id=new)
    assert world.first(BROWSING, user_id=world.user_id, product_id=new) is None
    assert "not in your browsing history" in call.fail("amazon_remove_product_from_browsing_history", product_id=new)
    assert "does not exist" in call.fail("amazon_add_product_to_browsing_history", product_id=5)
    other = theirs(world, BROWSING)
    assert call("amazon_clear_browsing_history")["removed"] == len(history)
    assert mine(world, BROWSING) == [] and world.get(BROWSING, other["id"]) is not None
    assert call("amazon_show_browsing_history") == []


def test_browsing_history_tracking_switch(call, world):
    pid = stocked(world)[0]["id"]
    call("amazon_update_browsing_history_tracking", track_browsing_history=False)
    assert world.get(USERS, world.user_id)["track_browsing_history"] is False
    assert "tracking is turned off" in call.fail("amazon_add_product_to_browsing_history", product_id=pid)
    assert "'track_browsing_history'" in call.fail("amazon_update_browsing_history_tracking", track_browsing_history="no")
    call("amazon_update_browsing_history_tracking", track_browsing_history=True)
    call("amazon_add_product_to_browsing_history", product_id=pid)
    assert world.first(BROWSING, user_id=world.user_id, product_id=pid) is not None


# ------------------------------------------------------------------------------------------ cart
def test_cart_add_merge_update_delete_clear(call, world):
    cart = call("amazon_show_cart")
    assert len(cart["items"]) == len(mine(world, CART)) > 0
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"])
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=2)
    entry = world.first(CART, user_id=world.user_id, product_id=p["id"])
    assert entry["quantity"] == 3 and entry["gift_wrap_quantity"] == 0 and entry["created_at"] == "2026-04-16T23:51:15"
    call("amazon_update_product_quantity_in_cart", product_id=p["id"], quantity=5)
    assert world.get(CART, entry["id"])["quantity"] == 5
    cart = call("amazon_show_cart")
    line = next(i for i in cart["items"] if i["product_id"] == p["id"])
    assert line["line_total"] == round(p["price"] * 5, 2)
    assert cart["subtotal"] == round(sum(i["line_total"] for i in cart["items"]), 2)
    call("amazon_delete_product_from_cart", product_id=p["id"])
    assert world.get(CART, entry["id"]) is None
    other = theirs(world, CART)
    call("amazon_add_product_to_cart", product_id=p["id"], clear_cart_first=True)
    assert [r["product_id"] for r in mine(world, CART)] == [p["id"]]
    assert call("amazon_clear_cart")["removed"] == 1
    assert mine(world, CART) == [] and world.get(CART, other["id"]) is not None
    assert call("amazon_show_cart")["total_amount"] == 0.0


def test_cart_errors(call, world):
    p = stocked(world)[0]
    sold_out = next(x for x in world.rows(PRODUCTS) if x["inventory_quantity"] == 0)
    assert "out of stock" in call.fail("amazon_add_product_to_cart", product_id=sold_out["id"])
    assert "left in stock" in call.fail("amazon_add_product_to_cart", product_id=p["id"], quantity=p["inventory_quantity"] + 1)
    assert "at least 1" in call.fail("amazon_add_product_to_cart", product_id=p["id"], quantity=0)
    assert "does not exist" in call.fail("amazon_add_product_to_cart", product_id=3)
    assert "not in your cart" in call.fail("amazon_update_product_quantity_in_cart", product_id=p["id"], quantity=2)
    assert "not in your cart" in call.fail("amazon_delete_product_from_cart", product_id=p["id"])
    call("amazon_add_product_to_cart", product_id=p["id"])
    assert "at least 1" in call.fail("amazon_update_product_quantity_in_cart", product_id=p["id"], quantity=0)
    assert "left in stock" in call.fail("amazon_update_product_quantity_in_cart", product_id=p["id"], quantity=10**6)
    assert "'quantity'" in call.fail("amazon_add_product_to_cart", product_id=p["id"], quantity="two")


def test_promo_codes(call, world):
    empty_cart(call)
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=2)
    applied = call("amazon_apply_promo_code_to_cart", promo_code="save10")
    assert applied["discount"] == round(p["price"] * 2 * 0.10 + 1e-9, 2)
    assert world.get(USERS, world.user_id)["cart_promo_code"] == "SAVE10"
    cart = call("amazon_show_cart")
    assert cart["promo_code"] == "SAVE10"
    assert cart["total_amount"] == expected_total([(p["price"], 2, 0)], discount=cart["discount"])
    assert "does not exist" in call.fail("amazon_apply_promo_code_to_cart", promo_code="FREESTUFF")
    assert "expired" in call.fail("amazon_apply_promo_code_to_cart", promo_code="HOLIDAY25")
    assert "at least $100.00" in call.fail("amazon_apply_promo_code_to_cart", promo_code="SPRING20")
    call("amazon_remove_promo_code_from_cart")
    assert world.get(USERS, world.user_id)["cart_promo_code"] is None
    assert "no promo code" in call.fail("amazon_remove_promo_code_from_cart")


def test_gift_wrapping(call, world):
    p = stocked(world)[0]
    assert "not in your cart" in call.fail("amazon_add_gift_wrapping_to_product", product_id=p["id"])
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=3)
    entry = world.first(CART, user_id=world.user_id, product_id=p["id"])
    call("amazon_add_gift_wrapping_to_product", product_id=p["id"], quantity=2)
    assert world.get(CART, entry["id"])["gift_wrap_quantity"] == 2
    assert call("amazon_show_cart")["gift_wrap_fee"] == round(2 * GIFT_WRAP_FEE, 2)
    assert "cannot gift-wrap 4" in call.fail("amazon_add_gift_wrapping_to_product", product_id=p["id"], quantity=4)
    call("amazon_update_product_quantity_in_cart", product_id=p["id"], quantity=1)
    assert world.get(CART, entry["id"])["gift_wrap_quantity"] == 1  # never more than the quantity
    call("amazon_remove_gift_wrapping_from_product", product_id=p["id"])
    assert world.get(CART, entry["id"])["gift_wrap_quantity"] == 0
    assert "not gift-wrapped" in call.fail("amazon_remove_gift_wrapping_from_product", product_id=p["id"])
    assert "not in your cart" in call.fail("amazon_remove_gift_wrapping_from_product", product_id=1001 if p["id"] != 1001 else 1002)


# ------------------------------------------------------------------------------------------ wish list
def test_wish_list_lifecycle(call, world):
    listed = call("amazon_show_wish_list")
    assert {w["product_id"] for w in listed} == {r["product_id"] for r in mine(world, WISH_LIST)}
    p = stocked(world)[0]
    call("amazon_add_product_to_wish_list", product_id=p["id"])
    call("amazon_add_product_to_wish_list", product_id=p["id"], quantity=2)
    entry = world.first(WISH_LIST, user_id=world.user_id, product_id=p["id"])
    assert entry["quantity"] == 3
    call("amazon_update_product_quantity_in_wish_list", product_id=p["id"], quantity=1)
    assert world.get(WISH_LIST, entry["id"])["quantity"] == 1
    call("amazon_delete_product_from_wish_list", product_id=p["id"])
    assert world.get(WISH_LIST, entry["id"]) is None
    call("amazon_add_product_to_wish_list", product_id=p["id"], clear_wish_list_first=True)
    assert [r["product_id"] for r in mine(world, WISH_LIST)] == [p["id"]]
    other = theirs(world, WISH_LIST)
    assert call("amazon_clear_wish_list")["removed"] == 1
    assert mine(world, WISH_LIST) == [] and world.get(WISH_LIST, other["id"]) is not None


def test_wish_list_errors(call, world):
    p = stocked(world)[0]
    assert "does not exist" in call.fail("amazon_add_product_to_wish_list", product_id=2)
    assert "at least 1" in call.fail("amazon_add_product_to_wish_list", product_id=p["id"], quantity=-1)
    assert "not in your wish list" in call.fail("amazon_delete_product_from_wish_list", product_id=p["id"])
    assert "not in your wish list" in call.fail("amazon_update_product_quantity_in_wish_list", product_id=p["id"], quantity=2)
    call("amazon_add_product_to_wish_list", product_id=p["id"])
    assert "at least 1" in call.fail("amazon_update_product_quantity_in_wish_list", product_id=p["id"], quantity=0)


def test_moving_between_cart_and_wish_list(call, world):
    p, q = stocked(world, 2)
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=3)
    call("amazon_move_product_from_cart_to_wish_list", product_id=p["id"])
    assert world.first(CART, user_id=world.user_id, product_id=p["id"])["quantity"] == 2
    assert world.first(WISH_LIST, user_id=world.user_id, product_id=p["id"])["quantity"] == 1
    assert "only 2" in call.fail("amazon_move_product_from_cart_to_wish_list", product_id=p["id"], quantity=5)
    call("amazon_move_product_from_cart_to_wish_list", product_id=p["id"], quantity=None)
    assert world.first(CART, user_id=world.user_id, product_id=p["id"]) is None
    assert world.first(WISH_LIST, user_id=world.user_id, product_id=p["id"])["quantity"] == 3
    call("amazon_move_product_from_wish_list_to_cart", product_id=p["id"], quantity=2)
    assert world.first(WISH_LIST, user_id=world.user_id, product_id=p["id"])["quantity"] == 1
    assert world.first(CART, user_id=world.user_id, product_id=p["id"])["quantity"] == 2
    call("amazon_move_product_from_wish_list_to_cart", product_id=p["id"])
    assert world.first(WISH_LIST, user_id=world.user_id, product_id=p["id"]) is None
    assert world.first(CART, user_id=world.user_id, product_id=p["id"])["quantity"] == 3
    assert "not in your cart" in call.fail("amazon_move_product_from_cart_to_wish_list", product_id=q["id"])
    assert "not in your wish list" in call.fail("amazon_move_product_from_wish_list_to_cart", product_id=q["id"])
    call("amazon_add_product_to_wish_list", product_id=q["id"], quantity=2)
    assert "only 2" in call.fail("amazon_move_product_from_wish_list_to_cart", product_id=q["id"], quantity=3)
    world.update(PRODUCTS, q["id"], inventory_quantity=1)
    assert "only 1 left" in call.fail("amazon_move_product_from_wish_list_to_cart", product_id=q["id"], quantity=2)


# ------------------------------------------------------------------------------------------ orders
def test_place_order_moves_cart_charges_card_and_takes_stock(call, world):
    empty_cart(call)
    p, q = stocked(world, 2)
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=2)
    call("amazon_add_product_to_cart", product_id=q["id"])
    call("amazon_add_gift_wrapping_to_product", product_id=q["id"])
    card, address = rich_card(world), home(world)
    placed = call("amazon_place_order", payment_card_id=card["id"], address_id=address["id"])
    total = expected_total([(p["price"], 2, 0), (q["price"], 1, 1)])
    assert placed["total_amount"] == total
    order = world.get(ORDERS, placed["order_id"])
    assert order["user_id"] == world.user_id and order["total_amount"] == total and order["address_id"] == address["id"]
    assert address["street_address"] in order["shipping_address"]
    items = {i["product_id"]: i for i in world.rows(ORDER_ITEMS) if i["order_id"] == order["id"]}
    assert items[p["id"]]["quantity"] == 2 and items[q["id"]]["gift_wrap_quantity"] == 1
    assert items[p["id"]]["price"] == p["price"]
    assert product(world, p["id"])["inventory_quantity"] == p["inventory_quantity"] - 2
    assert product(world, q["id"])["inventory_quantity"] == q["inventory_quantity"] - 1
    assert world.get(CARDS, card["id"])["balance"] == round(card["balance"] - total, 2)
    assert mine(world, CART) == []
    shown = call("amazon_show_order", order_id=order["id"])
    assert {i["product_id"] for i in shown["items"]} == {p["id"], q["id"]}
    assert all(i["delivery_status"] == "in_transit" for i in shown["items"])
    assert call("amazon_show_orders")[0]["order_id"] == order["id"]
    purchases = call("amazon_show_product_purchases", page_limit=2)
    assert {x["product_id"] for x in purchases} == {p["id"], q["id"]}


def test_place_order_with_promo_and_single_use(call, world):
    empty_cart(call)
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"])
    call("amazon_apply_promo_code_to_cart", promo_code="WELCOME15")
    discount = call("amazon_show_cart")["discount"]
    assert discount > 0
    placed = call("amazon_place_order", payment_card_id=rich_card(world)["id"], address_id=home(world)["id"])
    order = world.get(ORDERS, placed["order_id"])
    assert order["promo_code"] == "WELCOME15" and order["discount"] == discount
    assert world.get(USERS, world.user_id)["cart_promo_code"] is None
    call("amazon_add_product_to_cart", product_id=p["id"])
    assert "only once" in call.fail("amazon_apply_promo_code_to_cart", promo_code="WELCOME15")


def test_place_order_errors(call, world):
    card, address = rich_card(world), home(world)
    other_card, other_address = theirs(world, CARDS), theirs(world, ADDRESSES)
    assert "does not exist" in call.fail("amazon_place_order", payment_card_id=other_card["id"], address_id=address["id"])
    assert "does not exist" in call.fail("amazon_place_order", payment_card_id=card["id"], address_id=other_address["id"])
    empty_cart(call)
    assert "cart is empty" in call.fail("amazon_place_order", payment_card_id=card["id"], address_id=address["id"])
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"], quantity=2)
    world.update(PRODUCTS, p["id"], inventory_quantity=1)
    assert "only 1 left" in call.fail("amazon_place_order", payment_card_id=card["id"], address_id=address["id"])
    world.update(PRODUCTS, p["id"], inventory_quantity=50)
    world.update(CARDS, card["id"], expiry_year=2025)
    assert "expired" in call.fail("amazon_place_order", payment_card_id=card["id"], address_id=address["id"])
    expensive = max((x for x in world.rows(PRODUCTS) if x["inventory_quantity"] > 0), key=lambda x: x["price"])
    call("amazon_add_product_to_cart", product_id=expensive["id"])
    poor = poor_card(world)
    assert "not enough" in call.fail("amazon_place_order", payment_card_id=poor["id"], address_id=address["id"])
    call("amazon_apply_promo_code_to_cart", promo_code="SAVE10")
    world.update(USERS, world.user_id, cart_promo_code="HOLIDAY25")
    assert "expired" in call.fail("amazon_place_order", payment_card_id=poor["id"], address_id=address["id"])


def test_show_orders_search_sort_and_ownership(call, world):
    orders = mine(world, ORDERS)
    listed = call("amazon_show_orders", page_limit=20)
    assert len(listed) == len(orders)
    assert [o["created_at"] for o in listed] == sorted((o["created_at"] for o in listed), reverse=True)
    by_total = call("amazon_show_orders", sort_by="total_amount", page_limit=20)
    assert [o["total_amount"] for o in by_total] == sorted(o["total_amount"] for o in orders)
    some = listed[0]
    word = some["product_names"][0].split()[0]
    assert some["order_id"] in [o["order_id"] for o in call("amazon_show_orders", query=some["product_names"][0], page_limit=20)]
    assert all(any(word.lower() in n.lower() for n in o["product_names"]) for o in call("amazon_show_orders", query=word))
    shown = call("amazon_show_order", order_id=some["order_id"])
    assert shown["total_amount"] == world.get(ORDERS, some["order_id"])["total_amount"]
    assert all(i["delivery_status"] == "delivered" for i in shown["items"])
    other = theirs(world, ORDERS)
    assert "does not exist" in call.fail("amazon_show_order", order_id=other["id"])
    assert "sort_by" in call.fail("amazon_show_orders", sort_by="color")
    purchases = call("amazon_show_product_purchases", page_limit=20)
    assert purchases and all(world.get(ORDERS, x["order_id"])["user_id"] == world.user_id for x in purchases)
    assert "page_limit" in call.fail("amazon_show_product_purchases", page_limit=0)


def test_last_product_purchase_and_variations(call, world):
    purchases = call("amazon_show_product_purchases", page_limit=20)
    last = call("amazon_show_last_product_purchase", product_id=purchases[-1]["product_id"])
    assert last["product_id"] == purchases[-1]["product_id"]
    fresh = stocked(world, 500)
    varied = next(p for p in fresh if p["variation_group_id"] is not None)
    sibling = next(p for p in world.rows(PRODUCTS)
                   if p["variation_group_id"] == varied["variation_group_id"] and p["id"] != varied["id"])
    assert "never bought" in call.fail("amazon_show_last_product_purchase", product_id=sibling["id"])
    empty_cart(call)
    call("amazon_add_product_to_cart", product_id=varied["id"])
    order_id = call("amazon_place_order", payment_card_id=rich_card(world)["id"], address_id=home(world)["id"])["order_id"]
    via_sibling = call("amazon_show_last_product_purchase", product_id=sibling["id"])
    assert via_sibling["order_id"] == order_id and via_sibling["product_id"] == varied["id"]
    assert "does not exist" in call.fail("amazon_show_last_product_purchase", product_id=1)


# ------------------------------------------------------------------------------------------ cards, addresses
def test_payment_cards(call, world):
    cards = call("amazon_show_payment_cards")
    assert len(cards) == 3 and all("cvv_number" not in c for c in cards)
    one = call("amazon_show_payment_card", payment_card_id=cards[0]["payment_card_id"])
    assert one["card_number"] == world.get(CARDS, cards[0]["payment_card_id"])["card_number"]
    added = call("amazon_add_payment_card", card_name="Travel Visa", owner_name="Me", card_number=4111222233334444,
                 expiry_year=2029, expiry_month=6, cvv_number=123)
    row = world.get(CARDS, added["payment_card_id"])
    assert row["user_id"] == world.user_id and row["balance"] > 0 and row["cvv_number"] == 123
    call("amazon_update_payment_card", payment_card_id=row["id"], card_name="Old Travel Visa")
    assert world.get(CARDS, row["id"])["card_name"] == "Old Travel Visa"
    call("amazon_delete_payment_card", payment_card_id=row["id"])
    assert world.get(CARDS, row["id"]) is None
    other = theirs(world, CARDS)
    for name, args in [("amazon_show_payment_card", {}), ("amazon_delete_payment_card", {}),
                       ("amazon_update_payment_card", {"card_name": "x"})]:
        assert "does not exist" in call.fail(name, payment_card_id=other["id"], **args)


def test_add_payment_card_validation(call, world):
    ok = dict(card_name="Visa", owner_name="Me", card_number=4111222233334444, expiry_year=2029, expiry_month=6, cvv_number=123)
    assert "16 digits" in call.fail("amazon_add_payment_card", **{**ok, "card_number": 1234})
    assert "expiry_month" in call.fail("amazon_add_payment_card", **{**ok, "expiry_month": 13})
    assert "expired" in call.fail("amazon_add_payment_card", **{**ok, "expiry_year": 2026, "expiry_month": 3})
    assert "cvv" in call.fail("amazon_add_payment_card", **{**ok, "cvv_number": 123456})
    assert "must not be empty" in call.fail("amazon_add_payment_card", **{**ok, "card_name": " "})
    existing = mine(world, CARDS)[0]
    assert "already saved" in call.fail("amazon_add_payment_card", **{**ok, "card_number": existing["card_number"]})
    assert "must not be empty" in call.fail("amazon_update_payment_card", payment_card_id=existing["id"], card_name="")


def test_addresses(call, world):
    listed = call("amazon_show_addresses")
    assert [a["name"] for a in listed] == ["Home", "Work"]
    cabin = {"name": "Cabin", "street_address": "1 Lake Rd", "city": "Tahoe City", "state": "CA",
             "country": "United States", "zip_code": 96145}
    added = call("amazon_add_address", **cabin)
    row = world.get(ADDRESSES, added["address_id"])
    assert row["user_id"] == world.user_id and row["zip_code"] == 96145 and row["name"] == "Cabin"
    call("amazon_update_address", address_id=row["id"], city="Truckee", zip_code=96161)
    assert world.get(ADDRESSES, row["id"])["city"] == "Truckee" and world.get(ADDRESSES, row["id"])["state"] == "CA"
    call("amazon_update_address", **{"address_id": row["id"], "name": "Lake house"})
    assert world.get(ADDRESSES, row["id"])["name"] == "Lake house"
    assert "nothing to update" in call.fail("amazon_update_address", address_id=row["id"])
    assert "already have another address" in call.fail("amazon_update_address", **{"address_id": row["id"], "name": "home"})
    assert "already have an address" in call.fail("amazon_add_address", **{**cabin, "name": "Home"})
    assert "zip_code" in call.fail("amazon_add_address", **{**cabin, "name": "Lab", "zip_code": 1234567})
    assert "city must not be empty" in call.fail("amazon_add_address", **{**cabin, "name": "Lab", "city": " "})
    assert "'zip_code'" in call.fail("amazon_add_address", **{**cabin, "name": "Lab", "zip_code": "abc"})
    call("amazon_delete_address", address_id=row["id"])
    assert world.get(ADDRESSES, row["id"]) is None
    other = theirs(world, ADDRESSES)
    assert "does not exist" in call.fail("amazon_update_address", address_id=other["id"], city="x")
    assert "does not exist" in call.fail("amazon_delete_address", address_id=other["id"])


def test_past_orders_survive_deleting_card_and_address(call, world):
    order = mine(world, ORDERS)[0]
    call("amazon_delete_address", address_id=order["address_id"])
    call("amazon_delete_payment_card", payment_card_id=order["payment_card_id"])
    assert call("amazon_show_order", order_id=order["id"])["shipping_address"] == order["shipping_address"]


# ------------------------------------------------------------------------------------------ reviews
def test_reviews_drive_product_rating(call, world):
    p = next(x for x in stocked(world, 500) if world.count(REVIEWS, product_id=x["id"]) >= 3)
    stars = [r["rating"] for r in world.rows(REVIEWS) if r["product_id"] == p["id"]]
    written = call("amazon_write_product_review", product_id=p["id"], rating=1, title="Meh", text="Broke on day two")
    review = world.get(REVIEWS, written["review_id"])
    assert review["user_id"] == world.user_id and review["is_verified"] is False
    assert product(world, p["id"])["rating"] == round((sum(stars) + 1) / (len(stars) + 1), 1)
    assert "already reviewed" in call.fail("amazon_write_product_review", product_id=p["id"], rating=5)
    call("amazon_update_product_review", review_id=review["id"], rating=5)
    assert product(world, p["id"])["rating"] == round((sum(stars) + 5) / (len(stars) + 1), 1)
    assert world.get(REVIEWS, review["id"])["text"] == "Broke on day two"
    dist = call("amazon_show_product_rating_distribution", product_id=p["id"])
    assert dist["num_ratings"] == len(stars) + 1
    call("amazon_delete_product_review", review_id=review["id"])
    assert world.get(REVIEWS, review["id"]) is None
    assert product(world, p["id"])["rating"] == round(sum(stars) / len(stars), 1)


def test_review_verified_flag_and_errors(call, world):
    bought = call("amazon_show_product_purchases", page_limit=20)
    reviewed = {r["product_id"] for r in mine(world, REVIEWS)}
    pid = next(x["product_id"] for x in bought if x["product_id"] not in reviewed)
    rid = call("amazon_write_product_review", product_id=pid, rating=4)["review_id"]
    assert world.get(REVIEWS, rid)["is_verified"] is True
    assert "from 1 to 5" in call.fail("amazon_write_product_review", product_id=pid + 1, rating=6)
    assert "does not exist" in call.fail("amazon_write_product_review", product_id=9, rating=3)
    assert "from 1 to 5" in call.fail("amazon_update_product_review", review_id=rid, rating=0)
    assert "nothing to update" in call.fail("amazon_update_product_review", review_id=rid)
    other = theirs(world, REVIEWS)
    assert "someone else" in call.fail("amazon_update_product_review", review_id=other["id"], rating=1)
    assert "someone else" in call.fail("amazon_delete_product_review", review_id=other["id"])
    assert "does not exist" in call.fail("amazon_delete_product_review", review_id=10**7)


def test_show_product_reviews_filters(call, world):
    pid = max(world.rows(PRODUCTS), key=lambda p: world.count(REVIEWS, product_id=p["id"]))["id"]
    reviews = [r for r in world.rows(REVIEWS) if r["product_id"] == pid]
    listed = call("amazon_show_product_reviews", product_id=pid, page_limit=20)
    assert len(listed) == len(reviews) and all(r["user_email"] for r in listed)
    assert [r["created_at"] for r in listed] == sorted((r["created_at"] for r in listed), reverse=True)
    high = call("amazon_show_product_reviews", product_id=pid, min_rating=4, page_limit=20)
    assert len(high) == sum(1 for r in reviews if r["rating"] >= 4)
    verified = call("amazon_show_product_reviews", product_id=pid, is_verified=True, page_limit=20)
    assert len(verified) == sum(1 for r in reviews if r["is_verified"])
    author = reviews[0]
    email = world.get(USERS, author["user_id"])["email"]
    by_author = call("amazon_show_product_reviews", product_id=pid, user_email=email)
    assert [r["review_id"] for r in by_author] == [author["id"]]
    by_rating = call("amazon_show_product_reviews", product_id=pid, sort_by="-rating", page_limit=20)
    assert [r["rating"] for r in by_rating] == sorted((r["rating"] for r in reviews), reverse=True)
    word = author["title"].split()[0]
    assert all(word.lower() in (r["title"] + " " + r["text"]).lower()
               for r in call("amazon_show_product_reviews", product_id=pid, query=word))
    assert "no amazon user" in call.fail("amazon_show_product_reviews", product_id=pid, user_email="nobody@nowhere.org")
    assert "does not exist" in call.fail("amazon_show_product_reviews", product_id=11)


# ------------------------------------------------------------------------------------------ questions, answers
def test_questions_lifecycle(call, world):
    q = next(iter(world.rows(QUESTIONS)))
    listed = call("amazon_show_product_questions", product_id=q["product_id"], page_limit=20)
    assert q["id"] in [x["question_id"] for x in listed]
    counted = next(x for x in listed if x["question_id"] == q["id"])
    assert counted["num_answers"] == world.count(ANSWERS, question_id=q["id"])
    pid = q["product_id"]
    new = call("amazon_write_product_question", product_id=pid, question="Does it fit in a carry-on bag?")
    row = world.get(QUESTIONS, new["question_id"])
    assert row["user_id"] == world.user_id and row["product_id"] == pid
    me = world.get(USERS, world.user_id)["email"]
    assert [x["question_id"] for x in call("amazon_show_product_questions", product_id=pid, user_email=me)] == [row["id"]]
    assert call("amazon_show_product_questions", product_id=pid, query="carry-on")[0]["question_id"] == row["id"]
    call("amazon_update_product_question", question_id=row["id"], question="Does it fit under a plane seat?")
    assert world.get(QUESTIONS, row["id"])["question"] == "Does it fit under a plane seat?"
    answer = call("amazon_write_product_question_answer", question_id=row["id"], answer="Yes, easily.")
    call("amazon_delete_product_question", question_id=row["id"])
    assert world.get(QUESTIONS, row["id"]) is None and world.get(ANSWERS, answer["question_answer_id"]) is None


def test_question_errors(call, world):
    other = theirs(world, QUESTIONS)
    assert "does not exist" in call.fail("amazon_write_product_question", product_id=12, question="Hi?")
    assert "must not be empty" in call.fail("amazon_write_product_question", product_id=other["product_id"], question="  ")
    assert "someone else" in call.fail("amazon_update_product_question", question_id=other["id"], question="x?")
    assert "someone else" in call.fail("amazon_delete_product_question", question_id=other["id"])
    assert "does not exist" in call.fail("amazon_delete_product_question", question_id=10**7)
    mine_q = call("amazon_write_product_question", product_id=other["product_id"], question="Real question?")["question_id"]
    assert "new question text" in call.fail("amazon_update_product_question", question_id=mine_q)
    assert "sort_by" in call.fail("amazon_show_product_questions", product_id=other["product_id"], sort_by="rating")
    assert "does not exist" in call.fail("amazon_show_product_questions", product_id=13)


def test_answers_lifecycle_and_errors(call, world):
    q = max(world.rows(QUESTIONS), key=lambda r: world.count(ANSWERS, question_id=r["id"]))
    answers = [a for a in world.rows(ANSWERS) if a["question_id"] == q["id"]]
    listed = call("amazon_show_product_question_answers", question_id=q["id"], page_limit=20)
    assert len(listed) == len(answers)
    assert [a["created_at"] for a in listed] == sorted(a["created_at"] for a in listed)
    verified = call("amazon_show_product_question_answers", question_id=q["id"], is_verified=True, page_limit=20)
    assert len(verified) == sum(1 for a in answers if a["is_verified"])
    written = call("amazon_write_product_question_answer", question_id=q["id"], answer="Mine works fine after a year.")
    row = world.get(ANSWERS, written["question_answer_id"])
    assert row["user_id"] == world.user_id and row["is_verified"] == (q["product_id"] in {
        i["product_id"] for i in world.rows(ORDER_ITEMS) if world.get(ORDERS, i["order_id"])["user_id"] == world.user_id})
    me = world.get(USERS, world.user_id)["email"]
    assert [a["question_answer_id"] for a in call("amazon_show_product_question_answers", question_id=q["id"], user_email=me)] == [row["id"]]
    hits = call("amazon_show_product_question_answers", question_id=q["id"], query="after a year")
    assert hits[0]["question_answer_id"] == row["id"]
    call("amazon_update_product_question_answer", question_answer_id=row["id"], answer="Still fine after two years.")
    assert world.get(ANSWERS, row["id"])["answer"] == "Still fine after two years."
    assert "new answer text" in call.fail("amazon_update_product_question_answer", question_answer_id=row["id"], answer=" ")
    call("amazon_delete_product_question_answer", question_answer_id=row["id"])
    assert world.get(ANSWERS, row["id"]) is None
    other = answers[0]
    assert "someone else" in call.fail("amazon_update_product_question_answer", question_answer_id=other["id"], answer="x")
    assert "someone else" in call.fail("amazon_delete_product_question_answer", question_answer_id=other["id"])
    assert "does not exist" in call.fail("amazon_delete_product_question_answer", question_answer_id=10**7)
    assert "does not exist" in call.fail("amazon_write_product_question_answer", question_id=10**7, answer="x")
    assert "must not be empty" in call.fail("amazon_write_product_question_answer", question_id=q["id"], answer="")
    assert "does not exist" in call.fail("amazon_show_product_question_answers", question_id=10**7)


# ------------------------------------------------------------------------------------------ returns
def test_returns_listing_and_deliverers(call, world):
    returns = call("amazon_show_returns")
    assert len(returns) == len(mine(world, RETURNS)) == 2
    assert [r["initiated_at"] for r in returns] == sorted((r["initiated_at"] for r in returns), reverse=True)
    one = call("amazon_show_return", return_id=returns[0]["return_id"])
    assert one["status"] == "refunded" and one["product_name"]
    only = call("amazon_show_returns", order_id=returns[0]["order_id"])
    assert {r["order_id"] for r in only} == {returns[0]["order_id"]}
    deliverers = call("amazon_show_return_deliverers")
    assert "UPS" in [d["name"] for d in deliverers]
    assert "does not exist" in call.fail("amazon_show_returns", order_id=theirs(world, ORDERS)["id"])
    assert "does not exist" in call.fail("amazon_show_return", return_id=999)
    assert "sort_by" in call.fail("amazon_show_returns", sort_by="status")


def test_initiate_return(call, world):
    returned = {(r["order_id"], r["product_id"]) for r in mine(world, RETURNS)}
    orders = {o["id"] for o in mine(world, ORDERS)}
    item = next(i for i in sorted(world.rows(ORDER_ITEMS), key=lambda i: i["id"])
                if i["order_id"] in orders and (i["order_id"], i["product_id"]) not in returned and i["quantity"] >= 2)
    ups = next(d for d in call("amazon_show_return_deliverers") if d["name"] == "UPS")
    dhl = next(d for d in call("amazon_show_return_deliverers") if d["name"] == "DHL Express")
    started = call("amazon_initiate_return", order_id=item["order_id"], product_id=item["product_id"],
                   deliverer_id=ups["deliverer_id"], quantity=1)
    row = world.get(RETURNS, started["return_id"])
    assert row["status"] == "initiated" and row["initiated_at"] == "2026-04-16T23:51:15"
    assert row["refund_amount"] == item["price"]
    assert world.get(ORDER_ITEMS, item["id"])["returned_quantity"] == 1  # the reference's count on the order line
    assert call("amazon_show_returns")[0]["return_id"] == row["id"]
    left = item["quantity"] - 1
    assert "at most" in call.fail("amazon_initiate_return", order_id=item["order_id"], product_id=item["product_id"],
                                  deliverer_id=ups["deliverer_id"], quantity=left + 1)
    with_fee = call("amazon_initiate_return", order_id=item["order_id"], product_id=item["product_id"],
                    deliverer_id=dhl["deliverer_id"], quantity=1)
    assert dhl["pickup_fee"] > 0 and with_fee["refund_amount"] == round(max(0, item["price"] - dhl["pickup_fee"]), 2)
    assert "not part of order" in call.fail("amazon_initiate_return", order_id=item["order_id"], product_id=99999,
                                            deliverer_id=ups["deliverer_id"], quantity=1)
    assert "deliverer with id" in call.fail("amazon_initiate_return", order_id=item["order_id"], product_id=item["product_id"],
                                            deliverer_id=77, quantity=1)
    assert "at least 1" in call.fail("amazon_initiate_return", order_id=item["order_id"], product_id=item["product_id"],
                                     deliverer_id=ups["deliverer_id"], quantity=0)
    other = theirs(world, ORDERS)
    other_item = next(i for i in world.rows(ORDER_ITEMS) if i["order_id"] == other["id"])
    assert "does not exist" in call.fail("amazon_initiate_return", order_id=other["id"], product_id=other_item["product_id"],
                                         deliverer_id=ups["deliverer_id"], quantity=1)


def test_cannot_return_before_delivery(call, world):
    empty_cart(call)
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"])
    order_id = call("amazon_place_order", payment_card_id=rich_card(world)["id"], address_id=home(world)["id"])["order_id"]
    assert "not been delivered" in call.fail("amazon_initiate_return", order_id=order_id, product_id=p["id"],
                                             deliverer_id=1, quantity=1)


# ------------------------------------------------------------------------------------------ prime
def test_prime_subscription_and_free_delivery(call, world):
    plans = {p["duration"]: p for p in call("amazon_show_prime_plans")}
    assert set(plans) == {"monthly", "yearly"}
    history = call("amazon_show_prime_subscriptions")
    assert len(history) == 2 and not any(h["is_active"] for h in history)
    card = rich_card(world)
    sub = call("amazon_subscribe_prime", payment_card_id=card["id"], duration="yearly")
    row = world.get(PRIME, sub["prime_subscription_id"])
    assert row["start_date"] == "2026-04-16T23:51:15" and row["end_date"].startswith("2027-04-16")
    assert world.get(CARDS, card["id"])["balance"] == round(card["balance"] - plans["yearly"]["price"], 2)
    assert call("amazon_show_prime_subscriptions")[0]["is_active"] is True
    assert "already have an active" in call.fail("amazon_subscribe_prime", payment_card_id=card["id"], duration="monthly")
    empty_cart(call)
    p = stocked(world)[0]
    call("amazon_add_product_to_cart", product_id=p["id"])
    assert call("amazon_show_cart")["delivery_fee"] == 0.0
    placed = call("amazon_place_order", payment_card_id=card["id"], address_id=home(world)["id"])
    assert placed["total_amount"] == expected_total([(p["price"], 1, 0)], prime=True)


def test_prime_errors(call, world):
    poor, other = poor_card(world), theirs(world, CARDS)
    assert "'duration'" in call.fail("amazon_subscribe_prime", payment_card_id=poor["id"], duration="weekly")
    assert "does not exist" in call.fail("amazon_subscribe_prime", payment_card_id=other["id"], duration="monthly")
    world.update(CARDS, poor["id"], balance=5.0)
    assert "not enough" in call.fail("amazon_subscribe_prime", payment_card_id=poor["id"], duration="monthly")
    world.update(CARDS, poor["id"], balance=500.0, expiry_year=2026, expiry_month=3)
    assert "expired" in call.fail("amazon_subscribe_prime", payment_card_id=poor["id"], duration="monthly")
    assert "page_limit" in call.fail("amazon_show_prime_subscriptions", page_limit=100)


# ------------------------------------------------------------------------------------------ receipts
def test_download_order_receipt(call, world):
    order = mine(world, ORDERS)[0]
    saved = call("amazon_download_order_receipt", order_id=order["id"], file_system_access_token="token")
    assert saved["file_path"].endswith(f"/downloads/amazon_order_{order['id']}_receipt.txt")
    assert world.get(ORDERS, order["id"])["receipt_download_count"] == order["receipt_download_count"] + 1
    content = read_user_file(world, world.user_id, saved["file_path"])["content"]
    assert f"Order #{order['id']}" in content and f"Total: ${order['total_amount']:.2f}" in content
    assert "already exists" in call.fail("amazon_download_order_receipt", order_id=order["id"], file_system_access_token="t")
    call("amazon_download_order_receipt", order_id=order["id"], file_system_access_token="t", overwrite=True)
    custom = call("amazon_download_order_receipt", order_id=order["id"], file_system_access_token="t",
                  download_to_file_path="~/receipts/order.txt")
    assert custom["file_path"].endswith("/receipts/order.txt")
    assert "file_system_access_token" in call.fail("amazon_download_order_receipt", order_id=order["id"],
                                                   file_system_access_token=" ")
    assert "does not exist" in call.fail("amazon_download_order_receipt", order_id=theirs(world, ORDERS)["id"],
                                         file_system_access_token="t")
    call("file_system_logout")
    assert "not logged in to file_system" in call.fail("amazon_download_order_receipt", order_id=order["id"],
                                                       file_system_access_token="t", download_to_file_path="~/x.txt")


def test_download_prime_receipt(call, world):
    sub = mine(world, PRIME)[0]
    saved = call("amazon_download_prime_subscription_receipt", prime_subscription_id=sub["id"], file_system_access_token="t")
    content = read_user_file(world, world.user_id, saved["file_path"])["content"]
    assert f"Subscription #{sub['id']}" in content and f"${sub['price']:.2f}" in content
    assert "already exists" in call.fail("amazon_download_prime_subscription_receipt", prime_subscription_id=sub["id"],
                                         file_system_access_token="t")
    assert "does not exist" in call.fail("amazon_download_prime_subscription_receipt", prime_subscription_id=999,
                                         file_system_access_token="t")


# ------------------------------------------------------------------------------------------ accounts, device
def test_account_tools(call, world):
    account = call("amazon_show_account")
    assert account["id"] == world.user_id and "password" not in account
    assert account["track_browsing_history"] is True
    call("amazon_update_account_name", last_name="Newname")
    assert world.get(USERS, world.user_id)["last_name"] == "Newname"
    assert call("amazon_show_profile")["last_name"] == "Newname"
    user = world.get(USERS, world.user_id)
    call("amazon_logout")
    assert "not logged in" in call.fail("amazon_show_cart")
    assert "invalid username or password" in call.fail("amazon_login", username=user["email"], password="wrong")
    call("amazon_login", username=user["email"], password=user["password"])
    assert call("amazon_show_cart")["items"]
    created = call("amazon_signup", first_name="Ann", last_name="Lee", email="ann.lee@example.com", password="secret12")
    assert world.get(USERS, created["user_id"])["cart_promo_code"] is None


@pytest.mark.parametrize("tool_name,args", [("amazon_search_products", {}), ("amazon_show_cart", {})])
def test_needs_network_and_login(call, tool_name, args):
    call.go_offline()
    assert "no network" in call.fail(tool_name, **args)
    call("set_wifi_status", on=True)
    call(tool_name, **args)


# ------------------------------------------------------------------------------------------ reference scenario
def test_official_scenario_entities_load_and_evaluate(call, reference):
    """scenario_0017's amazon rows fit our tables; its cart/wish-list goal is reachable."""
    import json

    from mmtsb_env.world import World, build_layer
    from mmtsb_env.world.base import base_world

    path = reference.path("official_scenarios", "nominal", "scenario_0017.json")
    with path.open() as fh:
        entities = {t: rows for t, rows in json.load(fh)["appworld_entities"].items() if t.startswith("amazon.")}
    base = base_world(0)
    world = World(base.layer, build_layer(entities, below=base.layer), now=call.world.now, user_id=base.supervisor_id)
    for row in entities["amazon.products"]:
        assert world.get(PRODUCTS, row["id"]) == {**world.get(PRODUCTS, row["id"]), **row}
    run = type(call)(world)
    cameras = [run("amazon_search_products", query=q)[0] for q in ("Fujifilm X-T4", "Fujifilm X100VI", "Leica X2")]
    assert [c["product_id"] for c in cameras] == [200, 201, 202]
    cheapest = min(cameras, key=lambda c: c["price"])
    run("amazon_add_product_to_cart", product_id=cheapest["product_id"])
    for query in ("Sakura Technical pen", "Samsung Galaxy Z Flip7", "XingHui BMW M4 die-cast radio-controlled model car"):
        run("amazon_add_product_to_wish_list", product_id=run("amazon_search_products", query=query)[0]["product_id"])
    created_cart = world.diff()[CART].created
    assert [(r["user_id"], r["product_id"], r["quantity"], r["gift_wrap_quantity"]) for r in created_cart] == [
        (world.user_id, 201, 1, 0)]
    assert sorted(r["product_id"] for r in world.diff()[WISH_LIST].created) == [203, 204, 205]
    shown = run("amazon_show_product", product_id=203)
    assert shown["seller_name"] == "Pen Store" and shown["variations"] == []
