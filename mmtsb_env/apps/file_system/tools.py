"""File system: directories and files."""

from __future__ import annotations

from typing import Any, Literal

from ...tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from .._accounts import define_account_tools
from .._common import now_str
from .tables import (
    APP, ARCHIVE_FORMATS, DIRECTORIES, FILES, REQ, Tree, _session_user, archive_format_of, archive_listing,
)


def _tree(world: Any) -> Tree:
    return Tree(world, _session_user(world))


# ------------------------------------------------------------------------------------ tools
define_account_tools(APP)  # the account tools the online apps share, first


@tool(app=APP, writes=True, requires=REQ)
def file_system_create_directory(world, directory_path: str, recursive: bool | None = False,
                                 allow_if_exists: bool | None = True) -> dict:
    """Create a directory.

    Args:
        directory_path: path of the new directory ("~/..." for your home, or absolute).
        recursive: also create missing parent directories (otherwise the parent must exist).
        allow_if_exists: if the directory already exists, succeed without change (otherwise it is an error).
    """
    tree = _tree(world)
    dpath = tree.dir_path(directory_path)
    if dpath[:-1] in tree.files:
        raise Conflict(f"a file already exists at {dpath[:-1]}; choose another directory path")
    if tree.is_dir(dpath):
        if allow_if_exists is False:
            raise Conflict(f"directory {dpath} already exists")
        return {"message": "Directory already exists.", "directory_path": dpath}
    tree.require_writable(dpath, directory_path)
    if recursive:
        made = tree.make_parents(dpath)
    else:
        tree.require_parent(dpath, directory_path)
        made = []
    tree.make_dir(dpath)
    tree.touch_parent(dpath)
    return {"message": "Directory created.", "directory_path": dpath, "created_parent_directories": made}


@tool(app=APP, writes=True, requires=REQ)
def file_system_delete_directory(world, directory_path: str) -> dict:
    """Delete a directory together with everything inside it.

    Args:
        directory_path: path of the directory to delete (your home and the directories above it cannot be deleted).
    """
    tree = _tree(world)
    dpath = tree.dir_path(directory_path)
    tree.require_dir(dpath, directory_path)
    tree.require_writable(dpath, directory_path)
    n_dirs, n_files = tree.remove_tree(dpath)
    tree.touch_parent(dpath)
    return {"message": "Directory deleted.", "directory_path": dpath, "deleted_directories": n_dirs, "deleted_files": n_files}


@tool(app=APP, requires=REQ)
def file_system_show_directory(world, directory_path: str | None = "/", substring: str | None = None,
                               entry_type: Literal["all", "files", "directories"] | None = "all",
                               recursive: bool | None = True) -> list:
    """List the files and sub-directories of a directory as absolute paths (directories end with "/").

    Args:
        directory_path: directory to list; "/" (default) lists everything you can see, "~/" your home.
        substring: only entries whose path below the listed directory contains this text (case-insensitive).
        entry_type: "all", "files" or "directories".
        recursive: include entries at every depth (true) or only the direct children (false).
    """
    tree = _tree(world)
    dpath = tree.dir_path(directory_path if directory_path is not None else "/")
    tree.require_dir(dpath, directory_path or "/")
    kind = entry_type or "all"
    candidates: list[str] = []
    if kind in ("all", "directories"):
        candidates += [p for p in tree.all_dir_paths() if p.startswith(dpath) and p != dpath]
    if kind in ("all", "files"):
        candidates += [p for p in tree.files if p.startswith(dpath)]
    needle = (substring or "").lower()
    out = []
    for path in candidates:
        rel = path[len(dpath):]
        if recursive is False and "/" in rel.rstrip("/"):
            continue
        if needle and needle not in rel.lower():
            continue
        out.append(path)
    return sorted(out)


@tool(app=APP, requires=REQ)
def file_system_directory_exists(world, directory_path: str) -> dict:
    """Check whether a directory exists.

    Args:
        directory_path: path of the directory.
    """
    tree = _tree(world)
    dpath = tree.dir_path(directory_path)
    return {"directory_path": dpath, "exists": tree.is_dir(dpath)}


@tool(app=APP, requires=REQ)
def file_system_show_file(world, file_path: str) -> dict:
    """Show a file's content, size and dates (for a compressed file, the list of packed entries too).

    Args:
        file_path: path of the file.
    """
    _, row = _tree(world).existing_file(file_path)
    out = {
        "file_id": row["id"], "file_path": row["path"], "content": row["content"], "size": row["size"],
        "created_at": row["created_at"], "updated_at": row["updated_at"],
        "compressed": row["archive_format"] is not None,
    }
    if row["archive_format"]:
        out["archive_format"] = row["archive_format"]
        out["archive_entries"] = [e["path"] for e in row["archive_entries"]]
    return out


@tool(app=APP, writes=True, requires=REQ)
def file_system_create_file(world, file_path: str, content: str | None = "", overwrite: bool | None = False) -> dict:
    """Create a text file (its directory must exist).

    Args:
        file_path: path of the new file.
        content: text content of the file.
        overwrite: replace the file if it already exists (otherwise that is an error).
    """
    tree = _tree(world)
    fpath = tree.file_path(file_path)
    if tree.is_dir(fpath + "/"):
        raise Conflict(f"a directory exists at {fpath}/; choose a file path")
    tree.require_writable(fpath, file_path)
    if fpath in tree.files and not overwrite:
        raise Conflict(f"file {fpath} already exists; pass overwrite=true to replace it")
    tree.require_parent(fpath, file_path)
    existed = fpath in tree.files
    row = tree.put_file(fpath, content or "")
    tree.touch_parent(fpath)
    return {"message": "File overwritten." if existed else "File created.", "file_path": fpath, "file_id": row["id"]}


@tool(app=APP, writes=True, requires=REQ)
def file_system_update_file(world, file_path: str, content: str) -> dict:
    """Replace the content of an existing text file.

    Args:
        file_path: path of the file.
        content: the new content (replaces the old one entirely).
    """
    tree = _tree(world)
    fpath, row = tree.existing_file(file_path)
    tree.require_writable(fpath, file_path)
    if row["archive_format"]:
        raise InvalidArgument(f"{fpath} is a compressed file; decompress it to edit its files")
    tree.put_file(fpath, content)
    return {"message": "File updated.", "file_path": fpath}


@tool(app=APP, writes=True, requires=REQ)
def file_system_delete_file(world, file_path: str) -> dict:
    """Delete a file.

    Args:
        file_path: path of the file.
    """
    tree = _tree(world)
    fpath, _ = tree.existing_file(file_path)
    tree.require_writable(fpath, file_path)
    tree.remove_file(fpath)
    tree.touch_parent(fpath)
    return {"message": "File deleted.", "file_path": fpath}


@tool(app=APP, requires=REQ)
def file_system_file_exists(world, file_path: str) -> dict:
    """Check whether a file exists.

    Args:
        file_path: path of the file.
    """
    tree = _tree(world)
    fpath = tree.file_path(file_path)
    return {"file_path": fpath, "exists": fpath in tree.files}


def _file_destination(tree: Tree, src: str, raw_dst: str) -> str:
    dpath, trailing = tree.parse(raw_dst, "destination_file_path")
    as_dir = dpath if dpath == "/" else dpath + "/"
    if trailing or tree.is_dir(as_dir):
        if not tree.is_dir(as_dir):
            raise NotFound(f"destination directory {as_dir} does not exist; create it first")
        return as_dir + tree.name(src)
    return dpath


def _transfer_file(world: Any, source_file_path: str, destination_file_path: str, overwrite: bool | None,
                   retain_dates: bool | None, move: bool) -> dict:
    tree = _tree(world)
    src, row = tree.existing_file(source_file_path, "source_file_path")
    dst = _file_destination(tree, src, destination_file_path)
    if dst == src:
        raise InvalidArgument(f"source and destination are the same file ({src})")
    tree.require_writable(dst, destination_file_path)
    if move:
        tree.require_writable(src, source_file_path)
    tree.require_file_slot(dst, overwrite)
    tree.require_parent(dst, destination_file_path)
    now = now_str(world)
    stamp = (row["created_at"], row["updated_at"]) if retain_dates else (now, now)
    if move:
        if dst in tree.files:
            tree.remove_file(dst)
        tree.files.pop(src)
        moved = world.update(FILES, row["id"], path=dst, created_at=stamp[0], updated_at=stamp[1])
        tree.files[dst] = moved
        tree.touch_parent(src)
    else:
        if dst in tree.files:
            tree.remove_file(dst)
        tree.put_file(dst, row["content"], stamp=stamp, archive_format=row["archive_format"],
                      archive_entries=row["archive_entries"])
    tree.touch_parent(dst)
    return {"message": "File moved." if move else "File copied.", "destination_file_path": dst}


@tool(app=APP, writes=True, requires=REQ)
def file_system_copy_file(world, source_file_path: str, destination_file_path: str,
                          overwrite: bool | None = False, retain_dates: bool | None = False) -> dict:
    """Copy a file. If the destination is an existing directory (or ends with "/"), the copy keeps the file's name inside it.

    Args:
        source_file_path: path of the file to copy.
        destination_file_path: path of the copy, or a directory to copy into.
        overwrite: replace an existing file at the destination.
        retain_dates: keep the source's created/updated dates (otherwise the copy is dated now).
    """
    return _transfer_file(world, source_file_path, destination_file_path, overwrite, retain_dates, move=False)


@tool(app=APP, writes=True, requires=REQ)
def file_system_move_file(world, source_file_path: str, destination_file_path: str,
                          overwrite: bool | None = False, retain_dates: bool | None = False) -> dict:
    """Move or rename a file. If the destination is an existing directory (or ends with "/"), the file keeps its name inside it.

    Args:
        source_file_path: path of the file to move.
        destination_file_path: new path of the file, or a directory to move it into.
        overwrite: replace an existing file at the destination.
        retain_dates: keep the file's created/updated dates (otherwise they become now).
    """
    return _transfer_file(world, source_file_path, destination_file_path, overwrite, retain_dates, move=True)


def _transfer_directory(world: Any, source_directory_path: str, destination_directory_path: str,
                        overwrite: bool | None, retain_dates: bool | None, move: bool) -> dict:
    tree = _tree(world)
    src = tree.dir_path(source_directory_path, "source_directory_path")
    tree.require_dir(src, source_directory_path)
    if move:
        tree.require_writable(src, source_directory_path)
    dst = tree.dir_path(destination_directory_path, "destination_directory_path")
    if dst == src:
        raise InvalidArgument(f"source and destination are the same directory ({src})")
    if dst.startswith(src):
        raise InvalidArgument(f"cannot {'move' if move else 'copy'} {src} into itself ({dst})")
    tree.require_writable(dst, destination_directory_path)
    if dst[:-1] in tree.files:
        raise Conflict(f"a file exists at {dst[:-1]}; choose another destination")
    if tree.is_dir(dst):
        if not overwrite:
            raise Conflict(f"directory {dst} already exists; pass overwrite=true to replace it")
        if src.startswith(dst):
            raise InvalidArgument(f"cannot replace {dst}: it contains the source {src}")
    tree.require_parent(dst, destination_directory_path)
    if tree.is_dir(dst):
        tree.remove_tree(dst)
    now = now_str(world)
    sub_dirs, sub_files = tree.subtree(src)
    src_row = tree.dirs.get(src)

    def stamp(row: dict[str, Any] | None) -> tuple[str, str]:
        if retain_dates and row is not None:
            return row["created_at"], row["updated_at"]
        return now, now

    if move:
        for table, index, rows in ((DIRECTORIES, tree.dirs, [src_row, *sub_dirs]), (FILES, tree.files, sub_files)):
            for row in rows:
                if row is None:
                    continue
                index.pop(row["path"])
                c, u = stamp(row)
                new = world.update(table, row["id"], path=dst + row["path"][len(src):], created_at=c, updated_at=u)
                index[new["path"]] = new
        tree.touch_parent(src)
    else:
        tree.make_dir(dst, stamp(src_row))
        for row in sub_dirs:
            tree.make_dir(dst + row["path"][len(src):], stamp(row))
        for row in sub_files:
            tree.put_file(dst + row["path"][len(src):], row["content"], stamp=stamp(row),
                          archive_format=row["archive_format"], archive_entries=row["archive_entries"])
    tree.touch_parent(dst)
    return {"message": "Directory moved." if move else "Directory copied.", "destination_directory_path": dst}


@tool(app=APP, writes=True, requires=REQ)
def file_system_copy_directory(world, source_directory_path: str, destination_directory_path: str,
                               overwrite: bool | None = False, retain_dates: bool | None = False) -> dict:
    """Copy a directory and everything in it to a new path.

    Args:
        source_directory_path: directory to copy.
        destination_directory_path: path the copy gets (its parent must exist).
        overwrite: if the destination exists, replace it entirely (otherwise that is an error).
        retain_dates: keep the original created/updated dates (otherwise the copies are dated now).
    """
    return _transfer_directory(world, source_directory_path, destination_directory_path, overwrite, retain_dates, move=False)


@tool(app=APP, writes=True, requires=REQ)
def file_system_move_directory(world, source_directory_path: str, destination_directory_path: str,
                               overwrite: bool | None = False, retain_dates: bool | None = False) -> dict:
    """Move or rename a directory with everything in it.

    Args:
        source_directory_path: directory to move.
        destination_directory_path: new path of the directory (its parent must exist).
        overwrite: if the destination exists, replace it entirely (otherwise that is an error).
        retain_dates: keep the created/updated dates (otherwise they become now).
    """
    return _transfer_directory(world, source_directory_path, destination_directory_path, overwrite, retain_dates, move=True)


@tool(app=APP, writes=True, requires=REQ)
def file_system_compress_directory(world, directory_path: str, compressed_file_path: str | None = None,
                                   delete_directory: bool | None = False, overwrite: bool | None = False) -> dict:
    """Pack a directory into a compressed file (.zip, .tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .7z or .gz).

    Args:
        directory_path: directory to compress.
        compressed_file_path: path of the compressed file; defaults to the directory's path plus ".zip".
        delete_directory: delete the directory after packing it.
        overwrite: replace an existing file at compressed_file_path.
    """
    tree = _tree(world)
    dpath = tree.dir_path(directory_path)
    tree.require_dir(dpath, directory_path)
    if dpath in ("/", "/home/"):
        raise PermissionDenied(f"cannot compress {dpath}; compress a directory inside your home")
    raw_target = compressed_file_path if compressed_file_path is not None else dpath.rstrip("/") + ".zip"
    target = tree.file_path(raw_target, "compressed_file_path")
    fmt = archive_format_of(target)
    if fmt is None:
        raise InvalidArgument(
            f"compressed_file_path {raw_target!r} needs an archive extension: {', '.join(ARCHIVE_FORMATS)}"
        )
    if target.startswith(dpath):
        raise InvalidArgument(f"the compressed file cannot be placed inside the directory being compressed ({dpath})")
    tree.require_writable(target, raw_target)
    if delete_directory:
        tree.require_writable(dpath, directory_path)
    tree.require_file_slot(target, overwrite)
    tree.require_parent(target, raw_target)
    sub_dirs, sub_files = tree.subtree(dpath)
    entries: list[dict[str, Any]] = []
    for row in sub_dirs:
        entries.append({"path": row["path"][len(dpath):], "created_at": row["created_at"], "updated_at": row["updated_at"]})
    for row in sub_files:
        entries.append({
            "path": row["path"][len(dpath):], "content": row["content"], "size": row["size"],
            "archive_format": row["archive_format"], "archive_entries": row["archive_entries"],
            "created_at": row["created_at"], "updated_at": row["updated_at"],
        })
    entries.sort(key=lambda e: e["path"])
    tree.put_file(target, archive_listing(fmt, entries), archive_format=fmt, archive_entries=entries)
    if delete_directory:
        tree.remove_tree(dpath)
        tree.touch_parent(dpath)
    tree.touch_parent(target)
    return {"message": "Directory compressed.", "compressed_file_path": target, "entries": len(entries)}


@tool(app=APP, writes=True, requires=REQ)
def file_system_decompress_file(world, compressed_file_path: str, decompressed_directory_path: str | None = None,
                                overwrite: bool | None = False, retain_dates: bool | None = True,
                                delete_compressed_file: bool | None = False) -> dict:
    """Unpack a compressed file into a directory.

    Args:
        compressed_file_path: the compressed file (.zip, .tar, ...).
        decompressed_directory_path: directory to unpack into; defaults to the file's path without its extension.
        overwrite: if that directory exists, replace it entirely (otherwise that is an error).
        retain_dates: give unpacked entries their original dates (otherwise they are dated now).
        delete_compressed_file: delete the compressed file after unpacking.
    """
    tree = _tree(world)
    src, row = tree.existing_file(compressed_file_path, "compressed_file_path")
    if not row["archive_format"]:
        raise InvalidArgument(f"{src} is not a compressed file; only files made by compression can be decompressed")
    if decompressed_directory_path is None:
        raw_dst = src[: -(len(row["archive_format"]) + 1)] if src.lower().endswith("." + row["archive_format"]) else src + "_extracted"
    else:
        raw_dst = decompressed_directory_path
    dst = tree.dir_path(raw_dst, "decompressed_directory_path")
    tree.require_writable(dst, raw_dst)
    if delete_compressed_file:
        tree.require_writable(src, compressed_file_path)
    if dst[:-1] in tree.files:
        raise Conflict(f"a file exists at {dst[:-1]}; choose another decompressed_directory_path")
    if tree.is_dir(dst):
        if not overwrite:
            raise Conflict(f"directory {dst} already exists; pass overwrite=true to replace it")
        tree.remove_tree(dst)
    tree.require_parent(dst, raw_dst)
    now = now_str(world)
    tree.make_dir(dst)
    for entry in row["archive_entries"]:
        stamp = (entry["created_at"], entry["updated_at"]) if retain_dates is not False else (now, now)
        path = dst + entry["path"]
        if path.endswith("/"):
            if path not in tree.dirs:
                tree.make_dir(path, stamp)
            else:
                tree.dirs[path] = world.update(DIRECTORIES, tree.dirs[path]["id"], created_at=stamp[0], updated_at=stamp[1])
            continue
        tree.make_parents(path)
        tree.put_file(path, entry.get("content", ""), stamp=stamp, archive_format=entry.get("archive_format"),
                      archive_entries=entry.get("archive_entries") or [])
    if delete_compressed_file:
        tree.remove_file(src)
        tree.touch_parent(src)
    tree.touch_parent(dst)
    return {"message": "File decompressed.", "decompressed_directory_path": dst, "entries": len(row["archive_entries"])}
