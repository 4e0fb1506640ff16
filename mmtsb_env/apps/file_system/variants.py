"""File system: file and directory CRUD (medium), one tool per entity (compact), one tool (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "file_system_"

consolidate(
    "file_system_manage_file", app="file_system", toolboxes=("medium",),
    summary="Show, create, update or delete a file.",
    routes=actions(P, show="show_file", create="create_file", update="update_file", delete="delete_file"),
)
consolidate(
    "file_system_manage_directory", app="file_system", toolboxes=("medium",),
    summary="Create, list or delete a directory.",
    routes=actions(P, create="create_directory", show="show_directory", delete="delete_directory"),
)

_FILE = dict(show="show_file", create="create_file", update="update_file", delete="delete_file", exists="file_exists",
             copy="copy_file", move="move_file", decompress="decompress_file")
_DIRECTORY = dict(create="create_directory", show="show_directory", delete="delete_directory",
                  exists="directory_exists", copy="copy_directory", move="move_directory", compress="compress_directory")

consolidate(
    "file_system_files", app="file_system", toolboxes=("compact",),
    summary="Files: show, create, update, delete, check, copy or move a file, or unpack a compressed file.",
    routes=actions(P, **_FILE),
)
consolidate(
    "file_system_directories", app="file_system", toolboxes=("compact",),
    summary="Directories: create, list, delete, check, copy, move or compress a directory.",
    routes=actions(P, **_DIRECTORY),
)
consolidate(
    "file_system", app="file_system", toolboxes=("mini",), selectors=("entity", "action"),
    selector_docs={"entity": "file or directory", "action": "what to do with it"},
    summary="Files and directories of your file system: show, create, update, delete, check, copy, move, "
            "compress or decompress.",
    routes={**{("file", a): P + s for a, s in _FILE.items()}, **{("directory", a): P + s for a, s in _DIRECTORY.items()}},
)
