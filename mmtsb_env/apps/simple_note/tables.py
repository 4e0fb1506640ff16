"""SimpleNote: the device owner's notes (title, content, tags, pinned)."""

from __future__ import annotations


from ...world import define_table
from ...world.populators import BaseBuilder, populator
from .._accounts import define_accounts

APP = "simple_note"
NOTES = "simple_note.notes"
REQ = ("network", "login:simple_note")

define_accounts(APP)
define_table(
    NOTES,
    columns={
        "id": None, "user_id": None, "title": "", "content": "", "tags": [], "pinned": False,
        "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at"),
)

_TAGS = ["work", "personal", "ideas", "recipes", "travel", "shopping", "finance", "health", "books", "projects"]


@populator(APP, order=20)
def _populate(b: BaseBuilder) -> None:
    for i in range(60):
        owner = b.supervisor.id if i < 40 else b.others(1)[0].id
        created = b.past(300)
        b.add(NOTES, {
            "user_id": owner,
            "title": b.fake.sentence(nb_words=b.rng.randint(2, 5)).rstrip("."),
            "content": "\n".join(b.fake.paragraphs(nb=b.rng.randint(1, 3))),
            "tags": b.rng.sample(_TAGS, b.rng.randint(0, 2)),
            "pinned": b.rng.random() < 0.15,
            "created_at": created.isoformat(),
            "updated_at": created.isoformat(),
        })


