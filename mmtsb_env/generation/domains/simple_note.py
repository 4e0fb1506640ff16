"""SimpleNote: read notes; create, update, extend and delete notes."""

from ..rows import OWNER, Look, Read, Rows, Write, table

NOTES = Rows("simple_note.notes", {"user_id": OWNER}, unique="title")

ROWS = table(
    "simple_note",
    Read("simple_note_show_note", {"note_id": "{id}"}, "tags.0",
         ("What's the first tag on my note '{title}'?", "which tag does the '{title}' note have first?"),
         "The first tag on '{title}' is {v}.", NOTES, pre=(("simple_note_search_notes", {"query": "{title}"}),)),
    Read("simple_note_show_note", {"note_id": "{id}"}, "pinned",
         ("Is my note '{title}' pinned?", "'{title}' note - pinned or not?"), "Pinned: {v}.", NOTES),
    Read("simple_note_search_notes", {"tags": ["recipes"]}, "#",
         ("How many of my notes are tagged recipes?", "count my notes with the recipes tag"), "{v} notes are tagged recipes."),
    Read("simple_note_show_account", {}, "created_at",
         ("When did I make my SimpleNote account?", "simplenote account creation date?"), "Your account dates from {v}."),
    Write("simple_note_create_note", {"title": "{t}", "content": "{c}"},
          ("Make a note titled '{t}' that says: {c}", "new note '{t}': {c}"), "I saved the note '{t}'.",
          ("create", "simple_note.notes"), values={"t": ("Gift ideas", "Gate code", "Plant care"),
                                                  "c": ("Scarf for Ana, puzzle for Leo", "Gate 4471#", "Water ferns on Sundays")}),
    Write("simple_note_update_note", {"note_id": "{id}", "title": "{t}"},
          ("Rename my note '{title}' to '{t}'.", "retitle the '{title}' note as '{t}'"), "The note is now '{t}'.",
          ("update", "simple_note.notes"), NOTES, values={"t": ("Old ideas", "Archive - keep", "Read later")}),
    Write("simple_note_update_note", {"note_id": "{id}", "pinned": True},
          ("Pin my note '{title}' to the top.", "pin the '{title}' note"), "'{title}' is pinned.", ("update", "simple_note.notes"), NOTES),
    Write("simple_note_add_content_to_note", {"note_id": "{id}", "append_or_prepend": "append", "added_content": "{c}"},
          ("Add '{c}' at the end of my note '{title}'.", "append '{c}' to the '{title}' note"), "I added it to '{title}'.",
          ("update", "simple_note.notes"), NOTES, values={"c": ("Checked again in June.", "See also the shared folder.")}),
    Write("simple_note_delete_note", {"note_id": "{id}"}, ("Delete my note '{title}'.", "trash the '{title}' note"),
          "I deleted '{title}'.", ("delete", "simple_note.notes"), NOTES, pre=(("simple_note_search_notes", {"query": "{title}"}),)),
)


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {"simple_note.notes": Look("title", text=("content",), when=("created_at", "updated_at"), by="name")}
