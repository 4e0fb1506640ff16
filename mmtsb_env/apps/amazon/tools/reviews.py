"""Amazon community content: product reviews (which drive product ratings), questions and answers."""

from __future__ import annotations

from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, paginate, search_rank, sort_rows
from ..tables import (
    ANSWERS, APP, QUESTIONS, REQ, REVIEWS, get_product, purchased_product_ids, refresh_product_rating, user_by_email,
)
from ..tables import user_email as email_of

_SORTS = ("created_at", "updated_at", "rating")


def _public(world: Any, row: dict[str, Any], id_name: str) -> dict[str, Any]:
    out = {id_name: row["id"], **{k: v for k, v in row.items() if k not in ("id", "user_id")}}
    out["user_email"] = email_of(world, row["user_id"])
    return out


def _filter_by_author(world: Any, rows: list[dict[str, Any]], email: str | None) -> list[dict[str, Any]]:
    if email is None:
        return rows
    author = user_by_email(world, email)["id"]
    return [r for r in rows if r["user_id"] == author]


def _mine(world: Any, table: str, key: int, what: str) -> dict[str, Any]:
    """A public row the owner wants to change: must exist and be theirs."""
    row = world.get(table, key)
    if row is None:
        raise NotFound(f"{what} with id {key} does not exist")
    if row["user_id"] != world.user_id:
        raise PermissionDenied(f"{what} {key} was written by someone else; you can only change your own")
    return row


def _page(world: Any, rows: list[dict[str, Any]], *, user_email: str | None, newest_first: bool, query: str | None,
          fields: tuple[str, ...], sort_by: str | None, sorts: tuple[str, ...], page_index: int | None,
          page_limit: int | None, id_name: str) -> list[dict[str, Any]]:
    """One page of public rows: author filter, date order, text search, then the caller's sort."""
    rows = _filter_by_author(world, rows, user_email)
    rows.sort(key=lambda r: (r["created_at"] or "", r["id"]), reverse=newest_first)
    rows = search_rank(rows, query, fields)
    rows = sort_rows(rows, sort_by, sorts)
    return [_public(world, r, id_name) for r in paginate(rows, page_index, page_limit)]


def _reword(world: Any, table: str, key: int, what: str, text: str | None) -> dict:
    """Replace the text (column ``what``) of one of the owner's questions or answers."""
    _mine(world, table, key, what)
    if text is None or not text.strip():
        raise InvalidArgument(f"give the new {what} text")
    world.update(table, key, **{what: text}, updated_at=now_str(world))
    return {"message": f"{what.capitalize()} updated."}


def _check_rating(rating: int) -> None:
    if not 1 <= rating <= 5:
        raise InvalidArgument("rating must be a whole number from 1 to 5")


# ---------------------------------------------------------------------------------- reviews
@tool(app=APP, requires=REQ)
def amazon_show_product_reviews(
    world,
    product_id: int,
    query: str | None = "",
    user_email: str | None = None,
    min_rating: int | None = 1,
    max_rating: int | None = 5,
    is_verified: bool | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Read or search the reviews of a product (newest first unless sort_by is given).

    Args:
        product_id: id of the product.
        query: words to look for in review titles and texts (empty lists every review).
        user_email: only reviews written by the user with this email.
        min_rating: lowest star rating to include (1-5).
        max_rating: highest star rating to include (1-5).
        is_verified: only reviews from verified buyers (true) or from others (false).
        page_index: page to return, from 0.
        page_limit: reviews per page (1-20).
        sort_by: "created_at", "updated_at" or "rating"; prefix "-" for descending.
    """
    get_product(world, product_id)
    lo = 1 if min_rating is None else min_rating
    hi = 5 if max_rating is None else max_rating
    rows = [dict(r) for r in world.rows(REVIEWS) if r["product_id"] == product_id and lo <= r["rating"] <= hi]
    if is_verified is not None:
        rows = [r for r in rows if r["is_verified"] == is_verified]
    return _page(world, rows, user_email=user_email, newest_first=True, query=query, fields=("title", "text"),
                 sort_by=sort_by, sorts=_SORTS, page_index=page_index, page_limit=page_limit, id_name="review_id")


@tool(app=APP, writes=True, requires=REQ)
def amazon_write_product_review(world, product_id: int, rating: int, title: str | None = "", text: str | None = "") -> dict:
    """Review a product with 1-5 stars; the product's average rating is updated.

    The review is marked verified when you have bought the product. One review per product.

    Args:
        product_id: id of the product.
        rating: stars, 1 to 5.
        title: a short headline.
        text: the review itself.
    """
    _check_rating(rating)
    get_product(world, product_id)
    existing = world.first(REVIEWS, product_id=product_id, user_id=world.user_id)
    if existing is not None:
        raise Conflict(f"you already reviewed this product (review {existing['id']}); use amazon_update_product_review")
    now = now_str(world)
    row = world.insert(REVIEWS, {
        "id": world.new_id(REVIEWS), "product_id": product_id, "user_id": world.user_id, "rating": rating,
        "title": title or "", "text": text or "",
        "is_verified": product_id in purchased_product_ids(world, world.user_id),
        "created_at": now, "updated_at": now,
    })
    refresh_product_rating(world, product_id)
    return {"message": "Review posted.", "review_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_product_review(
    world, review_id: int, rating: int | None = None, title: str | None = None, text: str | None = None
) -> dict:
    """Change the rating, title or text of one of your reviews (omitted fields stay as they are).

    Args:
        review_id: id of your review.
        rating: new stars, 1 to 5.
        title: new headline.
        text: new review text.
    """
    review = _mine(world, REVIEWS, review_id, "review")
    changes = {k: v for k, v in (("rating", rating), ("title", title), ("text", text)) if v is not None}
    if not changes:
        raise InvalidArgument("nothing to update: give rating, title or text")
    if rating is not None:
        _check_rating(rating)
    world.update(REVIEWS, review_id, **changes, updated_at=now_str(world))
    refresh_product_rating(world, review["product_id"])
    return {"message": "Review updated."}


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_product_review(world, review_id: int) -> dict:
    """Delete one of your reviews; the product's average rating is updated.

    Args:
        review_id: id of your review.
    """
    review = _mine(world, REVIEWS, review_id, "review")
    world.delete(REVIEWS, review_id)
    refresh_product_rating(world, review["product_id"])
    return {"message": "Review deleted."}


# ---------------------------------------------------------------------------------- questions
def _question(world: Any, question_id: int) -> dict[str, Any]:
    row = world.get(QUESTIONS, question_id)
    if row is None:
        raise NotFound(f"question with id {question_id} does not exist; see amazon_show_product_questions")
    return row


@tool(app=APP, requires=REQ)
def amazon_show_product_questions(
    world,
    product_id: int,
    query: str | None = "",
    user_email: str | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Read or search the questions people asked about a product (newest first by default).

    Args:
        product_id: id of the product.
        query: words to look for in the questions (empty lists every question).
        user_email: only questions asked by the user with this email.
        page_index: page to return, from 0.
        page_limit: questions per page (1-20).
        sort_by: "created_at", "updated_at" or "num_answers"; prefix "-" for descending.
    """
    get_product(world, product_id)
    counts: dict[int, int] = {}
    for answer in world.rows(ANSWERS):
        counts[answer["question_id"]] = counts.get(answer["question_id"], 0) + 1
    rows = [{**r, "num_answers": counts.get(r["id"], 0)} for r in world.rows(QUESTIONS) if r["product_id"] == product_id]
    return _page(world, rows, user_email=user_email, newest_first=True, query=query, fields=("question",),
                 sort_by=sort_by, sorts=("created_at", "updated_at", "num_answers"), page_index=page_index,
                 page_limit=page_limit, id_name="question_id")


@tool(app=APP, writes=True, requires=REQ)
def amazon_write_product_question(world, product_id: int, question: str) -> dict:
    """Ask a public question about a product.

    Args:
        product_id: id of the product.
        question: the question text.
    """
    get_product(world, product_id)
    nonblank(question, "question")
    now = now_str(world)
    row = world.insert(QUESTIONS, {"id": world.new_id(QUESTIONS), "product_id": product_id,
                                   "user_id": world.user_id, "question": question, "created_at": now,
                                   "updated_at": now})
    return {"message": "Question posted.", "question_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_product_question(world, question_id: int, question: str | None = None) -> dict:
    """Reword one of your questions.

    Args:
        question_id: id of your question.
        question: the new question text.
    """
    return _reword(world, QUESTIONS, question_id, "question", question)


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_product_question(world, question_id: int) -> dict:
    """Delete one of your questions together with its answers.

    Args:
        question_id: id of your question.
    """
    _mine(world, QUESTIONS, question_id, "question")
    answers = [a["id"] for a in world.rows(ANSWERS) if a["question_id"] == question_id]
    for answer_id in answers:
        world.delete(ANSWERS, answer_id)
    world.delete(QUESTIONS, question_id)
    return {"message": "Question deleted.", "answers_deleted": len(answers)}


# ---------------------------------------------------------------------------------- answers
@tool(app=APP, requires=REQ)
def amazon_show_product_question_answers(
    world,
    question_id: int,
    query: str | None = "",
    user_email: str | None = None,
    is_verified: bool | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Read or search the answers to a product question (oldest first by default).

    Args:
        question_id: id of the question.
        query: words to look for in the answers (empty lists every answer).
        user_email: only answers written by the user with this email.
        is_verified: only answers from verified buyers (true) or from others (false).
        page_index: page to return, from 0.
        page_limit: answers per page (1-20).
        sort_by: "created_at" or "updated_at"; prefix "-" for descending.
    """
    _question(world, question_id)
    rows = [dict(r) for r in world.rows(ANSWERS) if r["question_id"] == question_id]
    if is_verified is not None:
        rows = [r for r in rows if r["is_verified"] == is_verified]
    return _page(world, rows, user_email=user_email, newest_first=False, query=query, fields=("answer",),
                 sort_by=sort_by, sorts=("created_at", "updated_at"), page_index=page_index, page_limit=page_limit,
                 id_name="question_answer_id")


@tool(app=APP, writes=True, requires=REQ)
def amazon_write_product_question_answer(world, question_id: int, answer: str) -> dict:
    """Answer a product question (verified when you have bought the product).

    Args:
        question_id: id of the question.
        answer: the answer text.
    """
    question = _question(world, question_id)
    nonblank(answer, "answer")
    now = now_str(world)
    row = world.insert(ANSWERS, {
        "id": world.new_id(ANSWERS), "question_id": question_id, "user_id": world.user_id, "answer": answer,
        "is_verified": question["product_id"] in purchased_product_ids(world, world.user_id),
        "created_at": now, "updated_at": now,
    })
    return {"message": "Answer posted.", "question_answer_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def amazon_update_product_question_answer(world, question_answer_id: int, answer: str | None = None) -> dict:
    """Reword one of your answers.

    Args:
        question_answer_id: id of your answer.
        answer: the new answer text.
    """
    return _reword(world, ANSWERS, question_answer_id, "answer", answer)


@tool(app=APP, writes=True, requires=REQ)
def amazon_delete_product_question_answer(world, question_answer_id: int) -> dict:
    """Delete one of your answers.

    Args:
        question_answer_id: id of your answer.
    """
    _mine(world, ANSWERS, question_answer_id, "answer")
    world.delete(ANSWERS, question_answer_id)
    return {"message": "Answer deleted."}
