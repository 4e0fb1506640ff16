"""File storage: read files and directories; create, update, copy, move and delete files and directories."""

from ..rows import Look, Read, Rows, Write, table

FILES = Rows("file_system.files", lambda r, wi: r.get("user_id") == wi.owner_id and r.get("archive_format") is None
             and str(r.get("path", "")).endswith((".txt", ".md", ".csv")), unique="path")
DIRS = Rows("file_system.directories", lambda r, wi: r.get("user_id") == wi.owner_id and str(r.get("path", "")).count("/") >= 4,
            unique="path")
NEW = ("packing_list.txt", "wifi_guest.txt", "book_ideas.md")

ROWS = table(
    "file_system",
    Read("file_system_show_file", {"file_path": "{path}"}, "size",
         ("How big is the file {path}, in bytes?", "size of {path}?"), "{path} is {v} bytes.", FILES),
    Read("file_system_show_file", {"file_path": "{path}"}, lambda r: (r.get("content") or "").strip().splitlines()[0] or None,
         ("What's the first line of {path}?", "read me the first line of {path}"), "It starts with: {v}", FILES),
    Read("file_system_show_directory", {"directory_path": "{path}"}, "#",
         ("How many things are in the folder {path}?", "count the entries in {path}"), "{path} holds {v} entries.", DIRS),
    Read("file_system_file_exists", {"file_path": "{path}"}, "exists",
         ("Does the file {path} still exist?", "is {path} still there?"), "Exists: {v}.", FILES),
    Read("file_system_directory_exists", {"directory_path": "{path}"}, "exists",
         ("Is there still a folder {path}?", "does {path} exist?"), "Exists: {v}.", DIRS),
    Write("file_system_create_file", {"file_path": "{path}{name}", "content": "{text}"},
          ("Create a file {name} in {path} containing: {text}", "new file {path}{name} with '{text}'"),
          "I created {path}{name}.", ("create", "file_system.files"), DIRS,
          values={"name": NEW, "text": ("passport, charger, socks", "network: guest / pass: sunflower")}),
    Write("file_system_update_file", {"file_path": "{path}", "content": "{text}"},
          ("Replace everything in {path} with: {text}", "overwrite {path} so it just says '{text}'"),
          "{path} now reads '{text}'.", ("update", "file_system.files"), FILES, values={"text": ("archived - see the new folder",)}),
    Write("file_system_delete_file", {"file_path": "{path}"}, ("Delete the file {path}.", "remove {path} from my files"),
          "I deleted {path}.", ("delete", "file_system.files"), FILES),
    Write("file_system_copy_file", {"source_file_path": "{path}", "destination_file_path": "{path}.bak"},
          ("Make a backup copy of {path} next to it, ending in .bak.", "copy {path} to {path}.bak"),
          "I copied it to {path}.bak.", ("create", "file_system.files"), FILES),
    Write("file_system_move_file", {"source_file_path": "{path}", "destination_file_path": "{me_home}archive/"},
          ("Move {path} into the folder {me_home}archive/ (make it if needed).", "file {path} away in {me_home}archive/"),
          "I moved it to {me_home}archive/.", ("update", "file_system.files"), FILES,
          pre=(("file_system_create_directory", {"directory_path": "{me_home}archive/", "allow_if_exists": True}),)),
    Write("file_system_create_directory", {"directory_path": "{path}{sub}/"},
          ("Make a folder '{sub}' inside {path}.", "new folder {path}{sub}/"), "I created {path}{sub}/.",
          ("create", "file_system.directories"), DIRS, values={"sub": ("2026", "old", "shared")}),
    Write("file_system_delete_directory", {"directory_path": "{path}"},
          ("Delete the folder {path} with everything in it.", "remove the directory {path}"), "I deleted {path}.",
          ("delete", "file_system.directories"), DIRS),
)


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {"file_system.files": Look("path", text=("content",), when=("created_at", "updated_at"), by="name")}
