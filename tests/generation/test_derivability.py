"""Every value an expected change compares can be known: from the queries, the clarification
answers, the images' facts, values computed from them, or the phone's world.

Ids, flags and timestamps are not checked here (ids come from the world or the episode; a
timestamp is derived from an image's date and time); text, amounts and fact lists are.
"""

from __future__ import annotations

import json
import re

import pytest

import mmtsb_env
from mmtsb_env.generation.verify import is_datetime
from mmtsb_env.generation.world_index import norm, world_index

_TOKEN = re.compile(r"\$?\d+(?:,\d{3})*(?:\.\d+)?|[A-Z][\w'&.-]*(?:[ \t]+[A-Z][\w'&.-]*)*")


def _known(s) -> tuple[str, set[str]]:
    texts = [r.query for r in s.rounds] + [c.answer for r in s.rounds for c in r.clarifications]
    data = s.to_dict()
    # the images' facts: their render content, and the values verification checks are drawn in them
    texts += [json.dumps(data["images"], ensure_ascii=False)]
    texts += list(s.metadata.get("image_values", [])) + list(s.metadata.get("image_keys", []))
    texts += [json.dumps(data.get("initial_entities", {}), default=str, ensure_ascii=False)]
    texts += [json.dumps([r.get("state_changes", []) for r in data["rounds"]], default=str, ensure_ascii=False)]
    derived = {norm(v) for v in s.metadata.get("derived_values", [])}
    return norm(" \n ".join(texts)), derived


def derivable(value, corpus: str, derived: set[str], wi) -> bool:
    text = str(value)
    n = norm(text)
    if not n or n in corpus or n in derived or wi.mentions(text):
        return True
    # composed text: every line known, or else every name and number in it
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if len(lines) > 1 and all(norm(ln) in corpus or norm(ln) in derived for ln in lines):
        return True
    def known(t: str) -> bool:
        return norm(t.lstrip("$")) in corpus or norm(t.lstrip("$")) in derived or wi.mentions(t)

    # a capitalised run may start with the sentence's own first word ("Pay Stonebridge IT Services")
    tokens = _TOKEN.findall(text)
    return bool(tokens) and all(known(t) or (" " in t and known(t.split(" ", 1)[1])) for t in tokens)


# columns the apps compute from what the agent did (a balance after a payment, an equal share of
# an expense): they follow from derivable values, not stated anywhere themselves
APP_COMPUTED = {("venmo.users", "venmo_balance"), ("venmo.payment_cards", "available_balance"),
                ("splitwise.expense_shares", "amount"), ("amazon.products", "rating"), ("spotify.songs", "rating"),
                ("spotify.albums", "rating"), ("spotify.playlists", "rating")}  # average ratings after a review


def compared_values(s):
    for ch in s.expected_changes:
        cols = ch.row or ch.fields or {}
        for col, value in cols.items():
            m = ch.measures.get(col)
            if (ch.table, col) in APP_COMPUTED or m in ("ignore", "present", "one") or col.endswith("_id") or col.endswith("_ids") or col == "id":
                continue
            items = value if isinstance(value, list) else [value]
            for v in items:
                if isinstance(v, bool) or isinstance(v, int) or v is None:
                    continue
                if isinstance(v, str) and is_datetime(v):
                    continue
                yield ch.table, col, v


@pytest.mark.parametrize("suite_name", ["nominal"])
def test_every_compared_value_is_derivable(suite_name):
    wi = world_index(0)
    bad = []
    checked = 0
    for s in mmtsb_env.load_suite(suite_name):
        corpus, derived = _known(s)
        for table, col, v in compared_values(s):
            checked += 1
            if isinstance(v, float):
                ok = any(norm(f) in corpus or norm(f) in derived for f in (f"{v:,.2f}", f"{v:.2f}", f"{v:g}")) or wi.mentions(f"{v:.2f}")
            else:
                ok = derivable(v, corpus, derived, wi)
            if not ok:
                bad.append((s.id, table, col, v))
    assert checked > 1000
    assert not bad, bad[:10]
