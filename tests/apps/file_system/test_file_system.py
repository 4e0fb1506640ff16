"""file_system: every tool, success and error paths, checked against the world's tables."""

from __future__ import annotations

import pytest

from mmtsb_env.apps._accounts import CODES, SESSIONS
from mmtsb_env.apps.file_system.tables import (
    DIRECTORIES, FILES, USERS, file_system_user_for_token, home_directory, read_user_file, write_user_file,
)
from mmtsb_env.tools import Conflict, InvalidArgument, NotFound, PermissionDenied
from mmtsb_env.world.base import base_world

NOW = "2026-04-16T23:51:15"


@pytest.fixture
def home(world):
    return home_directory(world, world.user_id)


def file_row(world, path):
    return next((r for r in world.rows(FILES) if r["user_id"] == world.user_id and r["path"] == path), None)


def dir_row(world, path):
    return next((r for r in world.rows(DIRECTORIES) if r["user_id"] == world.user_id and r["path"] == path), None)


def owned_paths(world, prefix):
    files = {r["path"] for r in world.rows(FILES) if r["user_id"] == world.user_id and r["path"].startswith(prefix)}
    dirs = {r["path"] for r in world.rows(DIRECTORIES) if r["user_id"] == world.user_id and r["path"].startswith(prefix)}
    return files, dirs


# ---------------------------------------------------------------------------- catalog and base data
def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("file_system", count=26)
    assert all("network" in t.requires for t in ours.values())
    defaults = {p.name: p.default for p in ours["file_system_show_directory"].params}
    assert defaults == {"directory_path": "/", "substring": None, "entry_type": "all", "recursive": True}
    assert {p.name: p.default for p in ours["file_system_decompress_file"].params}["retain_dates"] is True


def test_base_tree_is_rich_and_private(world, home):
    bw = base_world(0)
    owner = bw.person(world.user_id)
    assert home == f"/home/{owner.first_name.lower()}/"
    mine = [r for r in world.rows(FILES) if r["user_id"] == world.user_id]
    assert len(mine) >= 200 and all(r["path"].startswith(home) for r in mine)
    assert all(r["size"] == len(r["content"].encode()) for r in mine if not r["archive_format"])
    for sub in ("documents/", "photos/", "downloads/", "bills/", "work/", "receipts/", "trash/"):
        assert dir_row(world, home + sub) is not None, sub
    # every file's parent directory exists
    dirs = {r["path"] for r in world.rows(DIRECTORIES) if r["user_id"] == world.user_id}
    assert all(r["path"].rsplit("/", 1)[0] + "/" in dirs for r in mine)
    others = [r for r in world.rows(FILES) if r["user_id"] != world.user_id]
    assert others
    assert any("Amount due: $" in r["content"] for r in mine if "/bills/" in r["path"])


def test_show_directory_lists_filters_and_is_per_user(call, world, home):
    top = call("file_system_show_directory", directory_path="~/", recursive=False)
    assert home + "bills/" in top and home + "documents/" in top
    assert all(p[len(home):].rstrip("/").count("/") == 0 for p in top)
    everything = call("file_system_show_directory")
    assert "/home/" in everything and home in everything and len(everything) > 250
    assert not any(p.startswith("/home/") and not p.startswith(home) and p != "/home/" for p in everything)
    files = call("file_system_show_directory", directory_path="~/bills/electricity", entry_type="files")
    assert len(files) == 12 and all(p.endswith(".txt") for p in files)
    only_dirs = call("file_system_show_directory", directory_path="bills", entry_type="directories")
    assert only_dirs == sorted(home + f"bills/{u}/" for u in ("electricity", "gas", "internet", "phone", "water"))
    hits = call("file_system_show_directory", directory_path=home + "bills/", substring="ELECTRICITY/2025", entry_type="files")
    assert hits and all("electricity/2025" in h for h in hits)
    # relative path, "..", "." all resolve inside the home
    assert call("file_system_show_directory", directory_path="~/bills/../bills/./water/") == \
        call("file_system_show_directory", directory_path="bills/water")
    assert "does not exist" in call.fail("file_system_show_directory", directory_path="~/nope")
    assert "is a file" in call.fail("file_system_show_directory", directory_path="~/documents/personal/resume.txt")
    assert "'entry_type'" in call.fail("file_system_show_directory", entry_type="links")
    assert "above the root" in call.fail("file_system_show_directory", directory_path="/../..")
    assert "only your own home" in call.fail("file_system_show_directory", directory_path="~someone/")


def test_exists_checks(call, home):
    assert call("file_system_directory_exists", directory_path="~/photos")["exists"] is True
    assert call("file_system_directory_exists", directory_path="/home/")["exists"] is True
    assert call("file_system_directory_exists", directory_path="~/documents/personal/resume.txt")["exists"] is False
    assert call("file_system_directory_exists", directory_path="~/ghost/")["directory_path"] == home + "ghost/"
    assert call("file_system_file_exists", file_path="~/documents/personal/resume.txt") == {
        "file_path": home + "documents/personal/resume.txt", "exists": True}
    assert call("file_system_file_exists", file_path="~/photos")["exists"] is False
    assert "must not be empty" in call.fail("file_system_file_exists", file_path="  ")
    assert "names a directory" in call.fail("file_system_file_exists", file_path="~/photos/")
    assert "'directory_path'" in call.fail("file_system_directory_exists", directory_path=3)


def test_create_directory(call, world, home):
    out = call("file_system_create_directory", directory_path="~/projects")
    assert out["directory_path"] == home + "projects/"
    row = dir_row(world, home + "projects/")
    assert row["created_at"] == NOW and row["user_id"] == world.user_id
    assert "does not exist" in call.fail("file_system_create_directory", directory_path="~/a/b/c")
    out = call("file_system_create_directory", directory_path="~/a/b/c", recursive=True)
    assert out["created_parent_directories"] == [home + "a/", home + "a/b/"]
    assert dir_row(world, home + "a/b/c/") is not None
    again = call("file_system_create_directory", directory_path="~/a/b/c")
    assert again["message"] == "Directory already exists."
    assert "already exists" in call.fail("file_system_create_directory", directory_path="~/a/b/c", allow_if_exists=False)
    assert "a file already exists" in call.fail("file_system_create_directory", directory_path="~/documents/personal/resume.txt")
    assert "only entries inside your home" in call.fail("file_system_create_directory", directory_path="/etc/")
    assert "only entries inside your home" in call.fail("file_system_create_directory", directory_path="/home/other/x", recursive=True)
    assert "is a file, not a directory" in call.fail("file_system_create_directory", directory_path="~/documents/personal/resume.txt/sub")


def test_delete_directory_is_recursive(call, world, home):
    files_before, dirs_before = owned_paths(world, home + "documents/work/")
    assert len(files_before) >= 20
    out = call("file_system_delete_directory", directory_path="~/documents/work")
    assert out["deleted_files"] == len(files_before) and out["deleted_directories"] == len(dirs_before)
    assert owned_paths(world, home + "documents/work/") == (set(), set())
    assert dir_row(world, home + "documents/")["updated_at"] == NOW
    assert len(world.diff()[FILES].deleted) == len(files_before)
    assert "does not exist" in call.fail("file_system_delete_directory", directory_path="~/documents/work")
    assert "is a file" in call.fail("file_system_delete_directory", directory_path="~/documents/personal/resume.txt")
    assert "home directory itself" in call.fail("file_system_delete_directory", directory_path="~")
    assert "cannot change" in call.fail("file_system_delete_directory", directory_path="/home/")


def test_show_create_update_delete_file(call, world, home):
    shown = call("file_system_show_file", file_path="~/documents/personal/notes/recipes.md")
    assert "Lemon pasta" in shown["content"] and shown["compressed"] is False and shown["size"] == len(shown["content"])
    out = call("file_system_create_file", file_path="~/documents/todo.txt", content="buy milk")
    row = world.get(FILES, out["file_id"])
    assert row["path"] == home + "documents/todo.txt" and row["content"] == "buy milk" and row["size"] == 8
    assert row["created_at"] == NOW
    empty = call("file_system_create_file", file_path="~/documents/empty.txt")
    assert world.get(FILES, empty["file_id"])["content"] == ""
    assert "already exists" in call.fail("file_system_create_file", file_path="~/documents/todo.txt", content="x")
    over = call("file_system_create_file", file_path="~/documents/todo.txt", content="eggs", overwrite=True)
    assert over["message"] == "File overwritten." and over["file_id"] == out["file_id"]
    assert "directory exists" in call.fail("file_system_create_file", file_path="~/documents", content="x")
    assert "create it first" in call.fail("file_system_create_file", file_path="~/nowhere/x.txt")
    assert "only entries inside your home" in call.fail("file_system_create_file", file_path="/tmp.txt")
    call("file_system_update_file", file_path=home + "documents/todo.txt", content="eggs and ham")
    assert world.get(FILES, out["file_id"])["content"] == "eggs and ham"
    assert world.get(FILES, out["file_id"])["size"] == 12
    assert "does not exist" in call.fail("file_system_update_file", file_path="~/missing.txt", content="x")
    assert "compressed file" in call.fail("file_system_update_file", file_path="~/backups/photos_2024.zip", content="x")
    assert "'content'" in call.fail("file_system_update_file", file_path="~/documents/todo.txt", content=None)
    call("file_system_delete_file", file_path="~/documents/todo.txt")
    assert world.get(FILES, out["file_id"]) is None
    assert "does not exist" in call.fail("file_system_delete_file", file_path="~/documents/todo.txt")
    assert "is a directory" in call.fail("file_system_delete_file", file_path="~/documents")
    assert "does not exist" in call.fail("file_system_show_file", file_path="~/documents/todo.txt")
    assert "is a directory" in call.fail("file_system_show_file", file_path="~/photos")


def test_copy_file(call, world, home):
    src = file_row(world, home + "documents/personal/resume.txt")
    out = call("file_system_copy_file", source_file_path="~/documents/personal/resume.txt",
               destination_file_path="~/downloads/cv.txt")
    copy = file_row(world, out["destination_file_path"])
    assert copy["content"] == src["content"] and copy["created_at"] == NOW and copy["id"] != src["id"]
    assert file_row(world, src["path"]) == src
    into = call("file_system_copy_file", source_file_path="~/documents/personal/resume.txt",
                destination_file_path="~/work/", retain_dates=True)
    assert into["destination_file_path"] == home + "work/resume.txt"
    kept = file_row(world, home + "work/resume.txt")
    assert (kept["created_at"], kept["updated_at"]) == (src["created_at"], src["updated_at"])
    assert "already exists" in call.fail("file_system_copy_file", source_file_path="~/documents/personal/resume.txt",
                                         destination_file_path="~/downloads/cv.txt")
    call("file_system_update_file", file_path="~/downloads/cv.txt", content="old")
    call("file_system_copy_file", source_file_path="~/documents/personal/resume.txt",
         destination_file_path="~/downloads/cv.txt", overwrite=True)
    assert file_row(world, home + "downloads/cv.txt")["content"] == src["content"]
    assert "same file" in call.fail("file_system_copy_file", source_file_path="~/downloads/cv.txt",
                                    destination_file_path="downloads/cv.txt")
    assert "does not exist" in call.fail("file_system_copy_file", source_file_path="~/nope.txt", destination_file_path="~/x.txt")
    assert "does not exist" in call.fail("file_system_copy_file", source_file_path="~/downloads/cv.txt",
                                         destination_file_path="~/ghost/")
    assert "only entries inside your home" in call.fail("file_system_copy_file", source_file_path="~/downloads/cv.txt",
                                                        destination_file_path="/cv.txt")
    # copying an archive keeps it an archive
    call("file_system_copy_file", source_file_path="~/backups/photos_2024.zip", destination_file_path="~/p.zip")
    assert file_row(world, home + "p.zip")["archive_format"] == "zip"


def test_move_file(call, world, home):
    src = file_row(world, home + "downloads/lease_agreement.pdf")
    out = call("file_system_move_file", source_file_path="~/downloads/lease_agreement.pdf",
               destination_file_path="~/documents/personal/lease.pdf")
    moved = world.get(FILES, src["id"])
    assert moved["path"] == out["destination_file_path"] == home + "documents/personal/lease.pdf"
    assert moved["created_at"] == NOW and file_row(world, src["path"]) is None
    call("file_system_move_file", source_file_path="~/documents/personal/lease.pdf", destination_file_path="~/trash",
         retain_dates=True)
    assert world.get(FILES, src["id"])["path"] == home + "trash/lease.pdf"
    assert world.get(FILES, src["id"])["created_at"] == NOW  # dates of the previous move are kept
    assert "already exists" in call.fail("file_system_move_file", source_file_path="~/downloads/gym_schedule.txt",
                                         destination_file_path="~/downloads/podcast_list.txt")
    victim = file_row(world, home + "downloads/podcast_list.txt")
    call("file_system_move_file", source_file_path="~/downloads/gym_schedule.txt",
         destination_file_path="~/downloads/podcast_list.txt", overwrite=True)
    assert world.get(FILES, victim["id"]) is None
    assert "Yoga" in file_row(world, home + "downloads/podcast_list.txt")["content"]
    assert "same file" in call.fail("file_system_move_file", source_file_path="~/trash/lease.pdf",
                                    destination_file_path="~/trash/lease.pdf")
    assert "does not exist" in call.fail("file_system_move_file", source_file_path="~/trash/none.pdf",
                                         destination_file_path="~/x.pdf")
    call("file_system_create_directory", directory_path="~/photos/lease.pdf")
    assert "directory exists" in call.fail("file_system_move_file", source_file_path="~/trash/lease.pdf",
                                           destination_file_path="~/photos/family/../../photos/x/..")


def test_copy_directory(call, world, home):
    src_files, src_dirs = owned_paths(world, home + "work/projects/")
    out = call("file_system_copy_directory", source_directory_path="~/work/projects",
               destination_directory_path="~/backups/projects_copy")
    dst = out["destination_directory_path"]
    assert dst == home + "backups/projects_copy/"
    copied_files, copied_dirs = owned_paths(world, dst)
    assert {p[len(dst):] for p in copied_files} == {p[len(home + "work/projects/"):] for p in src_files}
    assert len(copied_dirs) == len(src_dirs)
    assert all(file_row(world, p)["created_at"] == NOW for p in copied_files)
    assert owned_paths(world, home + "work/projects/") == (src_files, src_dirs)
    call("file_system_copy_directory", source_directory_path="~/work/timesheets",
         destination_directory_path="~/backups/ts", retain_dates=True)
    original = file_row(world, home + "work/timesheets/2026-w01.csv")
    assert file_row(world, home + "backups/ts/2026-w01.csv")["created_at"] == original["created_at"]
    assert "already exists" in call.fail("file_system_copy_directory", source_directory_path="~/work/timesheets",
                                         destination_directory_path="~/backups/projects_copy")
    call("file_system_copy_directory", source_directory_path="~/work/timesheets",
         destination_directory_path="~/backups/projects_copy", overwrite=True)
    assert owned_paths(world, home + "backups/projects_copy/")[0] == {
        home + "backups/projects_copy/" + p.rsplit("/", 1)[1] for p in owned_paths(world, home + "work/timesheets/")[0]}
    assert "into itself" in call.fail("file_system_copy_directory", source_directory_path="~/work",
                                      destination_directory_path="~/work/inner")
    assert "same directory" in call.fail("file_system_copy_directory", source_directory_path="~/work",
                                         destination_directory_path="~/work/")
    assert "does not exist" in call.fail("file_system_copy_directory", source_directory_path="~/nope",
                                         destination_directory_path="~/x")
    assert "create it first" in call.fail("file_system_copy_directory", source_directory_path="~/work",
                                          destination_directory_path="~/a/b/c")
    assert "a file exists" in call.fail("file_system_copy_directory", source_directory_path="~/work/timesheets",
                                        destination_directory_path="~/documents/personal/resume.txt")


def test_move_directory(call, world, home):
    files, dirs = owned_paths(world, home + "photos/vacations/kyoto/")
    ids = {file_row(world, p)["id"] for p in files}
    call("file_system_move_directory", source_directory_path="~/photos/vacations/kyoto",
         destination_directory_path="~/photos/japan_2025", retain_dates=True)
    assert owned_paths(world, home + "photos/vacations/kyoto/") == (set(), set())
    moved_files, _ = owned_paths(world, home + "photos/japan_2025/")
    assert {file_row(world, p)["id"] for p in moved_files} == ids
    assert dir_row(world, home + "photos/japan_2025/") is not None
    assert "home directory itself" in call.fail("file_system_move_directory", source_directory_path="~/",
                                                destination_directory_path="~/elsewhere")
    assert "already exists" in call.fail("file_system_move_directory", source_directory_path="~/photos/japan_2025",
                                         destination_directory_path="~/photos/family")
    call("file_system_move_directory", source_directory_path="~/photos/japan_2025",
         destination_directory_path="~/photos/family", overwrite=True)
    assert {file_row(world, p)["id"] for p in owned_paths(world, home + "photos/family/")[0]} == ids
    assert "contains the source" in call.fail("file_system_move_directory", source_directory_path="~/photos/family",
                                              destination_directory_path="~/photos", overwrite=True)
    assert "does not exist" in call.fail("file_system_move_directory", source_directory_path="~/photos/kyoto",
                                         destination_directory_path="~/x")


def test_compress_and_decompress_round_trip(call, world, home):
    files, dirs = owned_paths(world, home + "photos/vacations/lisbon/")
    contents = {p[len(home + "photos/vacations/lisbon/"):]: file_row(world, p)["content"] for p in files}
    out = call("file_system_compress_directory", directory_path="~/photos/vacations/lisbon", delete_directory=True)
    archive = file_row(world, out["compressed_file_path"])
    assert out["compressed_file_path"] == home + "photos/vacations/lisbon.zip" and archive["archive_format"] == "zip"
    assert {e["path"] for e in archive["archive_entries"]} == set(contents)
    assert owned_paths(world, home + "photos/vacations/lisbon/") == (set(), set())
    shown = call("file_system_show_file", file_path="~/photos/vacations/lisbon.zip")
    assert shown["compressed"] is True and sorted(shown["archive_entries"]) == sorted(contents)
    back = call("file_system_decompress_file", compressed_file_path="~/photos/vacations/lisbon.zip",
                delete_compressed_file=True)
    assert back["decompressed_directory_path"] == home + "photos/vacations/lisbon/"
    restored = owned_paths(world, home + "photos/vacations/lisbon/")[0]
    assert {p[len(home + "photos/vacations/lisbon/"):]: file_row(world, p)["content"] for p in restored} == contents
    assert file_row(world, home + "photos/vacations/lisbon.zip") is None


def test_compress_options_and_errors(call, world, home):
    out = call("file_system_compress_directory", directory_path="~/music", compressed_file_path="~/backups/music.tar.gz")
    assert file_row(world, out["compressed_file_path"])["archive_format"] == "tar.gz"
    assert dir_row(world, home + "music/") is not None  # kept without delete_directory
    assert "already exists" in call.fail("file_system_compress_directory", directory_path="~/music",
                                         compressed_file_path="~/backups/music.tar.gz")
    call("file_system_compress_directory", directory_path="~/work/timesheets", compressed_file_path="~/backups/music.tar.gz",
         overwrite=True)
    assert all("w0" in e["path"] or "w10" in e["path"]
               for e in file_row(world, home + "backups/music.tar.gz")["archive_entries"])
    assert "archive extension" in call.fail("file_system_compress_directory", directory_path="~/music",
                                            compressed_file_path="~/backups/music.txt")
    assert "inside the directory" in call.fail("file_system_compress_directory", directory_path="~/music",
                                               compressed_file_path="~/music/all.zip")
    assert "does not exist" in call.fail("file_system_compress_directory", directory_path="~/nothing")
    assert "cannot compress" in call.fail("file_system_compress_directory", directory_path="/")
    assert "only entries inside your home" in call.fail("file_system_compress_directory", directory_path="~/",
                                                        compressed_file_path="~/../all.zip")


def test_decompress_options_and_errors(call, world, home):
    archive = file_row(world, home + "backups/photos_2024.zip")
    out = call("file_system_decompress_file", compressed_file_path="~/backups/photos_2024.zip",
               decompressed_directory_path="~/photos/2024", retain_dates=False)
    assert out["decompressed_directory_path"] == home + "photos/2024/"
    unpacked = owned_paths(world, home + "photos/2024/")
    assert len(unpacked[0]) == sum(1 for e in archive["archive_entries"] if not e["path"].endswith("/"))
    assert all(file_row(world, p)["created_at"] == NOW for p in unpacked[0])
    assert file_row(world, archive["path"]) is not None
    call("file_system_decompress_file", compressed_file_path="~/backups/photos_2024.zip")
    entry = next(e for e in archive["archive_entries"] if not e["path"].endswith("/"))
    assert file_row(world, home + "backups/photos_2024/" + entry["path"])["created_at"] == entry["created_at"]
    assert "already exists" in call.fail("file_system_decompress_file", compressed_file_path="~/backups/photos_2024.zip")
    call("file_system_create_file", file_path="~/backups/photos_2024/extra.txt", content="x")
    call("file_system_decompress_file", compressed_file_path="~/backups/photos_2024.zip", overwrite=True)
    assert file_row(world, home + "backups/photos_2024/extra.txt") is None
    assert "not a compressed file" in call.fail("file_system_decompress_file",
                                                compressed_file_path="~/documents/personal/resume.txt")
    assert "does not exist" in call.fail("file_system_decompress_file", compressed_file_path="~/ghost.zip")
    assert "a file exists" in call.fail("file_system_decompress_file", compressed_file_path="~/backups/photos_2024.zip",
                                        decompressed_directory_path="~/documents/personal/resume.txt")


def test_needs_network_login_and_uses_the_session_user(call, world, home):
    call.go_offline()
    assert "no network" in call.fail("file_system_show_directory")
    call("set_wifi_status", on=True)
    call("file_system_logout")
    assert "not logged in" in call.fail("file_system_show_file", file_path="~/documents/personal/resume.txt")
    other_id = next(r["user_id"] for r in world.rows(FILES) if r["user_id"] != world.user_id)
    other = world.get(USERS, other_id)
    call("file_system_login", username=other["email"], password=other["password"])
    listing = call("file_system_show_directory", directory_path="~/")
    other_home = home_directory(world, other_id)
    assert other_home != home and all(p.startswith(other_home) for p in listing)
    assert "does not exist" in call.fail("file_system_show_file", file_path=home + "documents/personal/resume.txt")


def test_helper_api_for_other_apps(world, home):
    with pytest.raises(InvalidArgument):
        file_system_user_for_token(world, "")
    assert file_system_user_for_token(world, "any-token") == world.user_id
    path = write_user_file(world, world.user_id, "~/downloads/new/receipt.txt", "Total: $4.00")
    assert path == home + "downloads/new/receipt.txt" and dir_row(world, home + "downloads/new/") is not None
    assert read_user_file(world, world.user_id, path)["content"] == "Total: $4.00"
    with pytest.raises(Conflict):
        write_user_file(world, world.user_id, path, "again")
    write_user_file(world, world.user_id, path, "again", overwrite=True)
    assert read_user_file(world, world.user_id, path)["content"] == "again"
    with pytest.raises(NotFound):
        read_user_file(world, world.user_id, "~/downloads/none.txt")
    with pytest.raises(PermissionDenied):
        write_user_file(world, world.user_id, "/etc/passwd", "x")
    world.update(SESSIONS, "file_system", logged_in=False)
    with pytest.raises(PermissionDenied):
        file_system_user_for_token(world, "any-token")


def test_account_tools(call, world):
    me = world.get(USERS, world.user_id)
    assert call("file_system_show_account")["email"] == me["email"]
    assert call("file_system_show_profile", email=me["email"])["first_name"] == me["first_name"]
    call("file_system_update_account_name", last_name="Renamed")
    assert world.get(USERS, world.user_id)["last_name"] == "Renamed"
    call("file_system_send_password_reset_code", email=me["email"])
    code = world.first(CODES, app="file_system", identity=me["email"], purpose="password_reset")["code"]
    assert "invalid" in call.fail("file_system_reset_password", email=me["email"], password_reset_code="000000",
                                  new_password="secret99")
    call("file_system_reset_password", email=me["email"], password_reset_code=code, new_password="secret99")
    call("file_system_logout")
    assert "invalid username" in call.fail("file_system_login", username=me["email"], password=me["password"])
    call("file_system_login", username=me["email"], password="secret99")
    new = call("file_system_signup", first_name="Zed", last_name="Q", email="zed@example.com", password="hunter22")
    call("file_system_send_verification_code", email="zed@example.com")
    vcode = world.first(CODES, app="file_system", identity="zed@example.com", purpose="verification")["code"]
    call("file_system_verify_account", email="zed@example.com", verification_code=vcode)
    assert world.get(USERS, new["user_id"])["verified"] is True
    call("file_system_delete_account")
    assert world.get(USERS, world.user_id) is None
    assert "not logged in" in call.fail("file_system_show_directory")


def test_account_error_paths(call, world):
    me = world.get(USERS, world.user_id)
    assert "no file_system user" in call.fail("file_system_show_profile", email="ghost@x.org")
    assert "no account" in call.fail("file_system_send_verification_code", email="ghost@x.org")
    assert "no account" in call.fail("file_system_send_password_reset_code", email="ghost@x.org")
    assert "invalid or expired" in call.fail("file_system_verify_account", email=me["email"], verification_code="1")
    assert "already exists" in call.fail("file_system_signup", first_name="A", last_name="B", email=me["email"],
                                         password="secret1")
    assert "at least 6" in call.fail("file_system_signup", first_name="A", last_name="B", email="new@x.org", password="123")
    assert "give first_name" in call.fail("file_system_update_account_name")
    call("file_system_logout")
    for name in ("file_system_show_account", "file_system_logout", "file_system_delete_account"):
        assert "not logged in" in call.fail(name), name
