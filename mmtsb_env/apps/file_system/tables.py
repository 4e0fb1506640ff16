"""File system: every user's own hierarchical tree of text files, directories and archives.

Paths are absolute (``/home/<name>/...``); ``~`` and ``~/...`` stand for the user's home, and a
path without a leading ``/`` is read relative to the home. ``/`` and ``/home/`` exist for every
user but only entries inside the home can be changed. Directories are stored with a trailing
``/``; files without. A compressed file (``.zip``, ``.tar``, ...) is a file row whose
``archive_entries`` hold the packed directory (relative paths, contents, dates).

Other apps (gmail attachments, splitwise receipts...) read and write files through
:func:`read_user_file`, :func:`write_user_file` and :func:`file_system_user_for_token`.
"""

from __future__ import annotations

import re
from typing import Any

from ...tools import Conflict, InvalidArgument, NotFound, PermissionDenied
from ...world import define_table
from .._accounts import SESSIONS, define_accounts
from .._common import now_str

APP = "file_system"
USERS = "file_system.users"
FILES = "file_system.files"
DIRECTORIES = "file_system.directories"
REQ = ("network", "login:file_system")

define_accounts(APP)


def tilde_path(row: dict) -> str:
    """A row's path with its owner's home written ``~/`` (the reference's ``tilde_path`` column)."""
    path = row.get("path") or ""
    if path.startswith("/home/") and path.count("/") >= 3:
        return "~/" + path.split("/", 3)[3]
    return path


define_table(
    DIRECTORIES,
    columns={"id": None, "user_id": None, "path": "", "created_at": None, "updated_at": None},
    auto_columns=("created_at", "updated_at"), derived={"tilde_path": tilde_path},
)
define_table(
    FILES,
    columns={
        "id": None, "user_id": None, "path": "", "content": "", "size": 0,
        "archive_format": None, "archive_entries": [], "created_at": None, "updated_at": None,
    },
    auto_columns=("created_at", "updated_at", "size"), derived={"tilde_path": tilde_path},
)

ARCHIVE_FORMATS = (".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".zip", ".tar", ".7z", ".gz")


# ---------------------------------------------------------------------------------- helpers
def home_name(first_name: str, user_id: int) -> str:
    handle = re.sub(r"[^a-z0-9]", "", (first_name or "").lower())
    return handle or f"user{user_id}"


def size_of(content: str) -> int:
    return len(content.encode("utf-8"))


def archive_size(entries: list[dict[str, Any]]) -> int:
    raw = sum(e.get("size", 0) for e in entries)
    return (raw * 2) // 5 + 48 * len(entries) + 22


def archive_format_of(path: str) -> str | None:
    lower = path.lower()
    for ext in ARCHIVE_FORMATS:
        if lower.endswith(ext) and len(lower) > len(ext) and not lower.endswith("/" + ext):
            return ext[1:]
    return None


def archive_listing(fmt: str, entries: list[dict[str, Any]]) -> str:
    names = "\n".join(e["path"] for e in entries)
    return f"[{fmt} archive with {len(entries)} entries]\n{names}\n"


class Tree:
    """A snapshot of one user's entries with path parsing and lookups (built per call)."""

    def __init__(self, world: Any, user_id: int) -> None:
        self.world = world
        self.user_id = user_id
        self.files: dict[str, dict[str, Any]] = {}
        self.dirs: dict[str, dict[str, Any]] = {}
        for row in world.rows(FILES):
            if row["user_id"] == user_id:
                self.files[row["path"]] = row
        for row in world.rows(DIRECTORIES):
            if row["user_id"] == user_id:
                self.dirs[row["path"]] = row
        self.home = self._find_home()

    def _find_home(self) -> str:
        for path in self.dirs:
            if path.startswith("/home/") and path.count("/") == 3:
                return path
        user = self.world.get(USERS, self.user_id) or {}
        return f"/home/{home_name(user.get('first_name', ''), self.user_id)}/"

    # -- paths
    def parse(self, raw: str, what: str) -> tuple[str, bool]:
        """Absolute normalized path (no trailing slash except for ``/``) and whether one was typed."""
        text = (raw or "").strip()
        if not text:
            raise InvalidArgument(f"{what} must not be empty")
        trailing = text.endswith("/")
        if text == "~" or text.startswith("~/"):
            text = self.home + text[2:]
        elif text.startswith("~"):
            raise InvalidArgument(f"{what} {raw!r}: only your own home '~/' can be abbreviated with '~'")
        elif not text.startswith("/"):
            text = self.home + text
        parts: list[str] = []
        for segment in text.split("/"):
            if segment in ("", "."):
                continue
            if segment == "..":
                if not parts:
                    raise InvalidArgument(f"{what} {raw!r} goes above the root directory")
                parts.pop()
            else:
                parts.append(segment)
        return "/" + "/".join(parts), trailing

    def dir_path(self, raw: str, what: str = "directory_path") -> str:
        path, _ = self.parse(raw, what)
        return path if path == "/" else path + "/"

    def file_path(self, raw: str, what: str = "file_path") -> str:
        path, trailing = self.parse(raw, what)
        if trailing or path == "/":
            raise InvalidArgument(f"{what} {raw!r} ends with '/', which names a directory, not a file")
        return path

    # -- lookups
    def is_dir(self, dpath: str) -> bool:
        return dpath in ("/", "/home/") or dpath == self.home or dpath in self.dirs

    def is_file(self, fpath: str) -> bool:
        return fpath in self.files

    @staticmethod
    def parent(path: str) -> str:
        trimmed = path.rstrip("/")
        return trimmed[: trimmed.rfind("/") + 1] or "/"

    @staticmethod
    def name(path: str) -> str:
        return path.rstrip("/").rsplit("/", 1)[-1]

    def require_dir(self, dpath: str, raw: str) -> None:
        if not self.is_dir(dpath):
            if dpath[:-1] in self.files:
                raise InvalidArgument(f"{raw!r} is a file, not a directory; use the file tools for it")
            raise NotFound(f"directory {raw!r} ({dpath}) does not exist; list existing ones with file_system_show_directory")

    def require_file(self, fpath: str, raw: str) -> dict[str, Any]:
        row = self.files.get(fpath)
        if row is None:
            if self.is_dir(fpath + "/"):
                raise InvalidArgument(f"{raw!r} is a directory, not a file; use the directory tools for it")
            raise NotFound(f"file {raw!r} ({fpath}) does not exist; list existing ones with file_system_show_directory")
        return row

    def existing_file(self, raw: str, what: str = "file_path") -> tuple[str, dict[str, Any]]:
        """(absolute path, row) of the file ``raw`` names; InvalidArgument/NotFound otherwise."""
        fpath = self.file_path(raw, what)
        return fpath, self.require_file(fpath, raw)

    def require_file_slot(self, fpath: str, overwrite: bool | None, on_directory: str | None = None) -> None:
        """A file may be written at ``fpath``: no directory there, and no file unless ``overwrite``."""
        if self.is_dir(fpath + "/"):
            raise Conflict(on_directory or f"a directory exists at {fpath}/")
        if fpath in self.files and not overwrite:
            raise Conflict(f"file {fpath} already exists; pass overwrite=true to replace it")

    def require_parent(self, path: str, raw: str) -> None:
        parent = self.parent(path)
        if not self.is_dir(parent):
            if parent[:-1] in self.files:
                raise InvalidArgument(f"cannot place {raw!r} there: {parent[:-1]} is a file, not a directory")
            raise NotFound(
                f"parent directory {parent} of {raw!r} does not exist; create it first with "
                "file_system_create_directory(directory_path=..., recursive=true)"
            )

    def roots(self) -> list[str]:
        """Top-level folders the user owns outside ``/home/`` (a drive such as ``/E/``, as worlds
        imported from the reference's scenarios have); the user may change what is inside them."""
        return [p for p in self.dirs if p.count("/") == 2 and not p.startswith("/home/")]

    def require_writable(self, path: str, raw: str, *, allow_home: bool = False) -> None:
        inside = any(path.startswith(top) and (allow_home or path.rstrip("/") != top.rstrip("/"))
                     for top in (self.home, *self.roots()))
        if not inside:
            where = "your home directory itself" if path == self.home else path
            raise PermissionDenied(
                f"cannot change {raw!r} ({where}): only entries inside your home directory {self.home} (~/) can be changed"
            )

    def subtree(self, dpath: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """Directory rows strictly below ``dpath`` and file rows below it, in path order."""
        dirs = [r for p, r in sorted(self.dirs.items()) if p.startswith(dpath) and p != dpath]
        files = [r for p, r in sorted(self.files.items()) if p.startswith(dpath)]
        return dirs, files

    def all_dir_paths(self) -> list[str]:
        return sorted({"/", "/home/", self.home, *self.dirs})

    # -- writes
    def make_dir(self, dpath: str, stamp: tuple[str, str] | None = None) -> dict[str, Any]:
        created, updated = stamp or (now_str(self.world), now_str(self.world))
        row = self.world.insert(DIRECTORIES, {
            "id": self.world.new_id(DIRECTORIES), "user_id": self.user_id, "path": dpath,
            "created_at": created, "updated_at": updated,
        })
        self.dirs[dpath] = row
        return row

    def make_parents(self, path: str) -> list[str]:
        made = []
        parent = self.parent(path)
        missing = []
        while not self.is_dir(parent):
            if parent[:-1] in self.files:
                raise Conflict(f"cannot create directory {parent}: a file with that path exists")
            missing.append(parent)
            parent = self.parent(parent)
        for dpath in reversed(missing):
            self.make_dir(dpath)
            made.append(dpath)
        return made

    def put_file(self, fpath: str, content: str, *, stamp: tuple[str, str] | None = None,
                 archive_format: str | None = None, archive_entries: list | None = None) -> dict[str, Any]:
        """Create the file or replace the existing one's content (dates from ``stamp`` or now)."""
        now = now_str(self.world)
        entries = list(archive_entries or [])
        size = archive_size(entries) if archive_format else size_of(content)
        fields = {"content": content, "size": size, "archive_format": archive_format, "archive_entries": entries}
        existing = self.files.get(fpath)
        if existing is not None:
            created = stamp[0] if stamp else existing["created_at"]
            updated = stamp[1] if stamp else now
            row = self.world.update(FILES, existing["id"], **fields, created_at=created, updated_at=updated)
        else:
            created, updated = stamp or (now, now)
            row = self.world.insert(FILES, {
                "id": self.world.new_id(FILES), "user_id": self.user_id, "path": fpath, **fields,
                "created_at": created, "updated_at": updated,
            })
        self.files[fpath] = row
        return row

    def remove_file(self, fpath: str) -> None:
        row = self.files.pop(fpath)
        self.world.delete(FILES, row["id"])

    def remove_tree(self, dpath: str) -> tuple[int, int]:
        """Delete ``dpath`` (a stored directory) and everything below it; return (dirs, files)."""
        dirs, files = self.subtree(dpath)
        for row in files:
            self.remove_file(row["path"])
        for row in dirs:
            self.world.delete(DIRECTORIES, self.dirs.pop(row["path"])["id"])
        if dpath in self.dirs:
            self.world.delete(DIRECTORIES, self.dirs.pop(dpath)["id"])
        return len(dirs) + 1, len(files)

    def touch_parent(self, path: str) -> None:
        parent = self.dirs.get(self.parent(path))
        if parent is not None:
            self.dirs[parent["path"]] = self.world.update(DIRECTORIES, parent["id"], updated_at=now_str(self.world))


def _session_user(world: Any) -> int:
    session = world.get(SESSIONS, APP)
    if session is None or not session["logged_in"]:
        raise PermissionDenied("you are not logged in to file_system; call file_system_login first")
    if world.get(USERS, session["user_id"]) is None:
        raise PermissionDenied("your file_system account no longer exists")
    return session["user_id"]


# ------------------------------------------------------------------- API for other apps
def file_system_user_for_token(world: Any, access_token: str | None) -> int:
    """The file-system user an access token stands for (the current file_system session).

    Our account tools keep sessions instead of handing out tokens, so any non-empty token is
    accepted while the file_system app is logged in; otherwise a clear refusal.
    """
    if access_token is None or not str(access_token).strip():
        raise InvalidArgument("file_system_access_token is required to read or write files; log in to file_system and pass any non-empty token")
    return _session_user(world)


def read_user_file(world: Any, user_id: int, path: str) -> dict[str, Any]:
    """The file row at ``path`` in ``user_id``'s tree (copy); NotFound/InvalidArgument otherwise."""
    return dict(Tree(world, user_id).existing_file(path)[1])


def write_user_file(world: Any, user_id: int, path: str, content: str, *, overwrite: bool = False,
                    make_parents: bool = True) -> str:
    """Create (or, with ``overwrite``, replace) a text file; returns its absolute path."""
    tree = Tree(world, user_id)
    fpath = tree.file_path(path)
    tree.require_writable(fpath, path)
    tree.require_file_slot(fpath, overwrite, f"{fpath} is a directory; choose a file path")
    if make_parents:
        tree.make_parents(fpath)
    else:
        tree.require_parent(fpath, path)
    tree.put_file(fpath, content)
    tree.touch_parent(fpath)
    return fpath


def home_directory(world: Any, user_id: int) -> str:
    return Tree(world, user_id).home
