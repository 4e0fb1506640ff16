"""What the indexed searches are compared with: the linear scan they replace, and query words."""

from __future__ import annotations

from mmtsb_env.apps._common import rank_texts, words


def linear_rank_table(world, table, query, texts_of, *, name, keep=None, depends=(), order_key=None):
    """The search before the index: filter every current row, order, rank by text."""
    rows = [r for r in world.rows(table) if keep is None or keep(r)]
    if order_key is not None:
        rows.sort(key=order_key)
    return rank_texts(((r, texts_of(r)) for r in rows), query)


def vocab_of(base, table: str, columns: tuple[str, ...], limit: int | None = None) -> list[str]:
    """The sorted distinct words of ``columns`` over ``table``'s base rows (the first ``limit``)."""
    found = set()
    for row in base.layer.tables[table].values():
        for c in columns:
            found.update(words(str(row.get(c) or "")))
    return sorted(found)[:limit]
