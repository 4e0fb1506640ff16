"""Simple Note: notes."""

from __future__ import annotations

from typing import Literal
from ...tools import InvalidArgument, tool
from .._accounts import define_account_tools
from .._common import nonblank, now_str, paginate, rank_table, require_owned, sort_rows

from .tables import APP, NOTES, REQ


def _note_texts(note: dict) -> tuple:
    return note.get("title"), note.get("content"), note.get("tags")


def _summary(note: dict) -> dict:
    return {k: note[k] for k in ("id", "title", "tags", "pinned", "created_at", "updated_at")}


define_account_tools(APP)  # the account tools the online apps share, first


@tool(app=APP, requires=REQ)
def simple_note_search_notes(
    world,
    query: str | None = "",
    tags: list[str] | None = None,
    pinned: bool | None = None,
    dont_reorder_pinned: bool | None = False,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """Search your notes by words in title or content; results leave out the content.

    Args:
        query: words to look for in titles and contents (empty lists every note).
        tags: only notes having all of these tags.
        pinned: only pinned (true) or unpinned (false) notes.
        dont_reorder_pinned: if false, pinned notes are listed first.
        page_index: page to return, from 0.
        page_limit: notes per page (1-20).
        sort_by: "created_at", "updated_at" or "title"; prefix "-" for descending.
    """
    wanted_tags = set(tags or ())

    def keep(r: dict) -> bool:
        return (r["user_id"] == world.user_id and wanted_tags <= set(r["tags"])
                and (pinned is None or r["pinned"] == pinned))

    rows = rank_table(world, NOTES, query, _note_texts, name="simple_note.note_text", keep=keep)
    rows = sort_rows(rows, sort_by, ("created_at", "updated_at", "title"))
    if not dont_reorder_pinned:
        rows = [r for r in rows if r["pinned"]] + [r for r in rows if not r["pinned"]]
    return [_summary(r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def simple_note_create_note(world, title: str, content: str, tags: list[str] | None = None, pinned: bool | None = False) -> dict:
    """Create a note.

    Args:
        title: title of the note.
        content: body text of the note.
        tags: tags to attach.
        pinned: whether to pin the note.
    """
    nonblank(title, "title")
    now = now_str(world)
    note = world.insert(NOTES, {
        "id": world.new_id(NOTES), "user_id": world.user_id, "title": title, "content": content,
        "tags": list(tags or []), "pinned": bool(pinned), "created_at": now, "updated_at": now,
    })
    return {"message": "Note created.", "note_id": note["id"]}


@tool(app=APP, requires=REQ)
def simple_note_show_note(world, note_id: int) -> dict:
    """Show a note, content included.

    Args:
        note_id: id of the note.
    """
    return require_owned(world, NOTES, note_id, "note")


@tool(app=APP, writes=True, requires=REQ)
def simple_note_update_note(
    world,
    note_id: int,
    title: str | None = None,
    content: str | None = None,
    tags: list[str] | None = None,
    pinned: bool | None = None,
) -> dict:
    """Change a note's title, content, tags or pinned flag (omitted fields stay as they are).

    Args:
        note_id: id of the note.
        title: new title.
        content: new content (replaces the old one).
        tags: new list of tags (replaces the old one).
        pinned: new pinned flag.
    """
    require_owned(world, NOTES, note_id, "note")
    changes = {k: v for k, v in (("title", title), ("content", content), ("tags", tags), ("pinned", pinned)) if v is not None}
    if not changes:
        raise InvalidArgument("nothing to update: give at least one of title, content, tags, pinned")
    world.update(NOTES, note_id, **changes, updated_at=now_str(world))
    return {"message": "Note updated."}


@tool(app=APP, writes=True, requires=REQ)
def simple_note_delete_note(world, note_id: int) -> dict:
    """Delete a note.

    Args:
        note_id: id of the note.
    """
    require_owned(world, NOTES, note_id, "note")
    world.delete(NOTES, note_id)
    return {"message": "Note deleted."}


@tool(app=APP, writes=True, requires=REQ)
def simple_note_add_content_to_note(
    world, note_id: int, append_or_prepend: Literal["append", "prepend"], added_content: str
) -> dict:
    """Add text at the end or the start of a note's content.

    Args:
        note_id: id of the note.
        append_or_prepend: "append" to add at the end, "prepend" to add at the start.
        added_content: the text to add.
    """
    note = require_owned(world, NOTES, note_id, "note")
    content = note["content"] + added_content if append_or_prepend == "append" else added_content + note["content"]
    world.update(NOTES, note_id, content=content, updated_at=now_str(world))
    return {"message": "Note updated."}
