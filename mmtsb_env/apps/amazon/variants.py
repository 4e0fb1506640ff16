"""Amazon: cart, wish list, addresses, history and feedback CRUD (medium, mostly shared with
compact); orders, returns and feedback by entity (compact); browse and shop (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "amazon_"

_CART = dict(show="show_cart", add="add_product_to_cart", update_quantity="update_product_quantity_in_cart",
             delete="delete_product_from_cart", clear="clear_cart")
_CART_MORE = dict(apply_promo_code="apply_promo_code_to_cart", remove_promo_code="remove_promo_code_from_cart",
                  add_gift_wrapping="add_gift_wrapping_to_product",
                  remove_gift_wrapping="remove_gift_wrapping_from_product",
                  move_to_wish_list="move_product_from_cart_to_wish_list")
_WISH = dict(show="show_wish_list", add="add_product_to_wish_list", update_quantity="update_product_quantity_in_wish_list",
             delete="delete_product_from_wish_list", clear="clear_wish_list")
_WISH_MORE = dict(move_to_cart="move_product_from_wish_list_to_cart")
_ADDRESS = dict(list="show_addresses", add="add_address", update="update_address", delete="delete_address")
_HISTORY = dict(show="show_browsing_history", add="add_product_to_browsing_history",
                remove="remove_product_from_browsing_history", clear="clear_browsing_history")
_HISTORY_MORE = dict(set_tracking="update_browsing_history_tracking")
_REVIEW = dict(write="write_product_review", update="update_product_review", delete="delete_product_review")
_QUESTION = dict(write="write_product_question", update="update_product_question", delete="delete_product_question")
_ANSWER = dict(write="write_product_question_answer", update="update_product_question_answer",
               delete="delete_product_question_answer")
_ORDERS = dict(list="show_orders", show="show_order", place="place_order", purchases="show_product_purchases",
               last_purchase="show_last_product_purchase", download_receipt="download_order_receipt")
_RETURNS = dict(list="show_returns", show="show_return", deliverers="show_return_deliverers", initiate="initiate_return")
_PRODUCTS = dict(search="search_products", show="show_product", rating_distribution="show_product_rating_distribution",
                 recommended="show_recommended_products", product_types="search_product_types",
                 feature_choices="show_product_feature_choices")
_SELLERS = dict(search="search_sellers", show="show_seller")

# ---------------------------------------------------------------- medium
consolidate("amazon_manage_cart", app="amazon", toolboxes=("medium", "compact"),
            summary="Your Amazon cart: show it, add a product, set a quantity, remove a product, or empty it.",
            routes=actions(P, **_CART))
consolidate("amazon_manage_wish_list", app="amazon", toolboxes=("medium", "compact"),
            summary="Your Amazon wish list: show it, add a product, set a quantity, remove a product, or empty it.",
            routes=actions(P, **_WISH))
consolidate("amazon_manage_address", app="amazon", toolboxes=("medium", "compact"),
            summary="Your Amazon shipping addresses: list, add, update or delete one.",
            routes=actions(P, **_ADDRESS))
consolidate("amazon_manage_browsing_history", app="amazon", toolboxes=("medium", "compact"),
            summary="Your Amazon browsing history: show it, add or remove a product, or clear it.",
            routes=actions(P, **_HISTORY))
consolidate("amazon_manage_review", app="amazon", toolboxes=("medium",),
            summary="Write, update or delete your review of an Amazon product.", routes=actions(P, **_REVIEW))
consolidate("amazon_manage_question", app="amazon", toolboxes=("medium",),
            summary="Ask, reword or delete your question about an Amazon product.", routes=actions(P, **_QUESTION))
consolidate("amazon_manage_answer", app="amazon", toolboxes=("medium",),
            summary="Answer a product question, reword or delete your answer.", routes=actions(P, **_ANSWER))

# ---------------------------------------------------------------- compact
consolidate("amazon_manage_feedback", app="amazon", toolboxes=("compact",), selectors=("entity", "action"),
            selector_docs={"entity": "review, question or answer", "action": "write, update or delete"},
            summary="Write, update or delete your product reviews, questions and answers on Amazon.",
            routes={**{("review", a): P + s for a, s in _REVIEW.items()},
                    **{("question", a): P + s for a, s in _QUESTION.items()},
                    **{("answer", a): P + s for a, s in _ANSWER.items()}})
consolidate("amazon_orders", app="amazon", toolboxes=("compact",),
            summary="Amazon orders: list or show your orders, place an order from the cart, list what you bought, "
                    "your last purchase of a product, or download an order receipt.",
            routes=actions(P, **_ORDERS))
consolidate("amazon_returns", app="amazon", toolboxes=("compact",),
            summary="Amazon returns: list or show your returns, list the pickup companies, start a return.",
            routes=actions(P, **_RETURNS))

# ---------------------------------------------------------------- mini
_DOMAIN_DOC = {"domain": "which part of Amazon", "action": "what to do there"}


def _routes(**areas: dict[str, str]) -> dict[tuple[str, str], str]:
    return {(area, a): P + s for area, acts in areas.items() for a, s in acts.items()}


consolidate("amazon_browse", app="amazon", toolboxes=("mini",), selectors=("domain", "action"),
            selector_docs=_DOMAIN_DOC,
            summary="The Amazon catalog and its community: products (search, show, ratings, recommendations, "
                    "types, features), sellers, and product reviews, questions and answers (read, write, update, "
                    "delete yours).",
            routes=_routes(product=_PRODUCTS, seller=_SELLERS,
                           review={"list": "show_product_reviews", **_REVIEW},
                           question={"list": "show_product_questions", **_QUESTION},
                           answer={"list": "show_product_question_answers", **_ANSWER}))
consolidate("amazon_shop", app="amazon", toolboxes=("mini",), selectors=("domain", "action"),
            selector_docs=_DOMAIN_DOC,
            summary="Shop on Amazon: cart, wish list, orders, returns, shipping addresses and browsing history.",
            routes=_routes(**{"cart": {**_CART, **_CART_MORE}, "wish_list": {**_WISH, **_WISH_MORE}, "order": _ORDERS,
                              "return": _RETURNS, "address": _ADDRESS,
                              "browsing_history": {**_HISTORY, **_HISTORY_MORE}}))
