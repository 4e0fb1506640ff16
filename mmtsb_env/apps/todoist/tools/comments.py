"""Todoist task comments, their file attachments, and the account's notifications."""

from __future__ import annotations

import posixpath
from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, paginate
from ...file_system.tables import file_system_user_for_token, read_user_file, write_user_file
from ..tables import APP, ATTACHMENTS, COMMENTS, NOTIFICATIONS, REQ, brief_user, get_task, in_visible_task


# Attachments move between todoist and the file_system app through its public helpers.
def _fs_user(world: Any, token: str | None) -> int:
    return file_system_user_for_token(world, token)


def _fs_read(world: Any, user_id: int, path: str) -> tuple[str, str]:
    """(file name, content) of a file of the file system app."""
    row = read_user_file(world, user_id, path)
    return posixpath.basename(row["path"]), row.get("content") or ""


# ====================================================================== comments
def _comment_view(world: Any, comment: dict[str, Any]) -> dict[str, Any]:
    files = sorted(a["file_name"] for a in world.rows(ATTACHMENTS) if a["task_comment_id"] == comment["id"])
    return {
        "task_comment_id": comment["id"], "task_id": comment["task_id"], "content": comment["content"],
        "created_at": comment["created_at"], "user": brief_user(world, comment["user_id"]),
        "attachment_file_names": files,
    }


def _get_comment(world: Any, task_comment_id: int) -> dict[str, Any]:
    return in_visible_task(world, COMMENTS, task_comment_id, "task comment")


def _own_comment(world: Any, task_comment_id: int, action: str) -> dict[str, Any]:
    comment = _get_comment(world, task_comment_id)
    if comment["user_id"] != world.user_id:
        raise PermissionDenied(f"you can only {action} your own comments")
    return comment


def _attachment(world: Any, comment_id: int, file_name: str) -> dict[str, Any] | None:
    return world.first(ATTACHMENTS, task_comment_id=comment_id, file_name=file_name)


def _attach(world: Any, comment_id: int, file_name: str, content: str, overwrite: bool) -> None:
    existing = _attachment(world, comment_id, file_name)
    if existing is not None:
        if not overwrite:
            raise Conflict(f"the comment already has an attachment named {file_name!r}; pass overwrite=true to replace it")
        world.update(ATTACHMENTS, existing["id"], content=content, created_at=now_str(world))
        return
    world.insert(ATTACHMENTS, {"id": world.new_id(ATTACHMENTS), "task_comment_id": comment_id, "file_name": file_name,
                               "content": content, "created_at": now_str(world)})


@tool(app=APP, writes=True, requires=REQ)
def todoist_post_task_comment(
    world,
    task_id: int,
    content: str,
    attachment_file_paths: list[str] | None = None,
    file_system_access_token: str | None = None,
) -> dict:
    """Comment on a task, optionally attaching files from the file system app.

    Args:
        task_id: id of the task.
        content: text of the comment.
        attachment_file_paths: paths of files in the file system app to attach.
        file_system_access_token: file system access token; needed only when attaching files.
    """
    get_task(world, task_id)
    nonblank(content, "content")
    files: list[tuple[str, str]] = []
    if attachment_file_paths:
        fs_user = _fs_user(world, file_system_access_token)
        files = [_fs_read(world, fs_user, p) for p in attachment_file_paths]
        names = [n for n, _ in files]
        if len(set(names)) != len(names):
            raise InvalidArgument("two attachments have the same file name")
    comment = world.insert(COMMENTS, {"id": world.new_id(COMMENTS), "task_id": task_id, "user_id": world.user_id,
                                      "content": content, "created_at": now_str(world)})
    for name, data in files:
        _attach(world, comment["id"], name, data, overwrite=False)
    return {"message": "Comment posted.", "task_comment_id": comment["id"]}


@tool(app=APP, requires=REQ)
def todoist_show_task_comments(world, task_id: int, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List a task's comments, oldest first.

    Args:
        task_id: id of the task.
        page_index: page to return, from 0.
        page_limit: comments per page (1-20).
    """
    get_task(world, task_id)
    rows = sorted(world.select(COMMENTS, task_id=task_id), key=lambda r: (r["created_at"] or "", r["id"]))
    return [_comment_view(world, c) for c in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def todoist_show_task_comment(world, task_comment_id: int) -> dict:
    """Show one task comment.

    Args:
        task_comment_id: id of the comment.
    """
    return _comment_view(world, _get_comment(world, task_comment_id))


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_task_comment(world, task_comment_id: int, content: str | None = None) -> dict:
    """Edit the text of one of your comments.

    Args:
        task_comment_id: id of the comment.
        content: new text.
    """
    _own_comment(world, task_comment_id, "edit")
    if content is None or not content.strip():
        raise InvalidArgument("give the new, non-empty content of the comment")
    world.update(COMMENTS, task_comment_id, content=content)
    return {"message": "Comment updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_task_comment(world, task_comment_id: int) -> dict:
    """Delete one of your comments and its attachments.

    Args:
        task_comment_id: id of the comment.
    """
    _own_comment(world, task_comment_id, "delete")
    for att in world.select(ATTACHMENTS, task_comment_id=task_comment_id):
        world.delete(ATTACHMENTS, att["id"], cascade=True)
    world.delete(COMMENTS, task_comment_id)
    return {"message": "Comment deleted."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_upload_attachment(
    world, task_comment_id: int, upload_from_file_path: str, file_system_access_token: str, overwrite: bool | None = False
) -> dict:
    """Attach a file from the file system app to one of your comments.

    Args:
        task_comment_id: id of the comment.
        upload_from_file_path: path of the file in the file system app.
        file_system_access_token: file system access token.
        overwrite: replace an attachment with the same file name if there is one.
    """
    _own_comment(world, task_comment_id, "add attachments to")
    fs_user = _fs_user(world, file_system_access_token)
    name, data = _fs_read(world, fs_user, upload_from_file_path)
    _attach(world, task_comment_id, name, data, overwrite=bool(overwrite))
    return {"message": "Attachment uploaded.", "attachment_file_name": name}


@tool(app=APP, writes=True, requires=REQ)
def todoist_download_attachment(
    world,
    task_comment_id: int,
    attachment_file_name: str,
    file_system_access_token: str,
    download_to_file_path: str | None = None,
    overwrite: bool | None = False,
) -> dict:
    """Save a comment's attachment into the file system app.

    Args:
        task_comment_id: id of the comment.
        attachment_file_name: name of the attached file.
        file_system_access_token: file system access token.
        download_to_file_path: where to save it (absolute, or starting with '~/'); defaults to ~/downloads/<file name>.
        overwrite: replace an existing file at that path.
    """
    _get_comment(world, task_comment_id)
    att = _attachment(world, task_comment_id, attachment_file_name)
    if att is None:
        raise NotFound(f"the comment has no attachment named {attachment_file_name!r}")
    fs_user = _fs_user(world, file_system_access_token)
    target = download_to_file_path or f"~/downloads/{attachment_file_name}"
    path = write_user_file(world, fs_user, target, att["content"], overwrite=bool(overwrite))
    return {"message": "Attachment downloaded.", "file_path": path}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_attachment(world, task_comment_id: int, attachment_file_name: str) -> dict:
    """Remove an attachment from one of your comments.

    Args:
        task_comment_id: id of the comment.
        attachment_file_name: name of the attached file.
    """
    _own_comment(world, task_comment_id, "remove attachments from")
    att = _attachment(world, task_comment_id, attachment_file_name)
    if att is None:
        raise NotFound(f"the comment has no attachment named {attachment_file_name!r}")
    world.delete(ATTACHMENTS, att["id"])
    return {"message": "Attachment deleted."}


# ====================================================================== notifications
def _my_notifications(world: Any, read: bool | None = None) -> list[dict[str, Any]]:
    rows = [dict(r) for r in world.rows(NOTIFICATIONS)
            if r["user_id"] == world.user_id and (read is None or r["read"] == read)]
    rows.sort(key=lambda r: (r["created_at"] or "", r["id"]), reverse=True)
    return rows


def _notification_view(row: dict[str, Any]) -> dict[str, Any]:
    return {"notification_id": row["id"], "type": row["type"], "title": row["title"], "message": row["message"],
            "read": row["read"], "created_at": row["created_at"], "data": row["data"]}


def _own_notification(world: Any, notification_id: int) -> dict[str, Any]:
    row = world.get(NOTIFICATIONS, notification_id)
    if row is None or row["user_id"] != world.user_id:
        raise NotFound(f"notification with id {notification_id} does not exist")
    return row


@tool(app=APP, requires=REQ)
def todoist_show_notifications(world, read: bool | None = None, page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """List your notifications, newest first.

    Args:
        read: only read (true) or unread (false) notifications; all if omitted.
        page_index: page to return, from 0.
        page_limit: notifications per page (1-20).
    """
    return [_notification_view(r) for r in paginate(_my_notifications(world, read), page_index, page_limit)]


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_notifications(world) -> dict:
    """Delete all of your notifications."""
    rows = _my_notifications(world)
    for row in rows:
        world.delete(NOTIFICATIONS, row["id"])
    return {"message": f"Deleted {len(rows)} notification(s)."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_mark_notifications(world, read: bool) -> dict:
    """Mark all of your notifications as read or unread.

    Args:
        read: true for read, false for unread.
    """
    rows = _my_notifications(world, read=not read)
    for row in rows:
        world.update(NOTIFICATIONS, row["id"], read=read)
    return {"message": f"Marked {len(rows)} notification(s) as {'read' if read else 'unread'}."}


@tool(app=APP, requires=REQ)
def todoist_show_notifications_count(world, read: bool | None = None) -> dict:
    """Count your notifications.

    Args:
        read: count only read (true) or unread (false) ones; all if omitted.
    """
    return {"notifications_count": len(_my_notifications(world, read))}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_notification(world, notification_id: int) -> dict:
    """Delete one of your notifications.

    Args:
        notification_id: id of the notification.
    """
    _own_notification(world, notification_id)
    world.delete(NOTIFICATIONS, notification_id)
    return {"message": "Notification deleted."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_mark_notification(world, notification_id: int, read: bool) -> dict:
    """Mark one of your notifications as read or unread.

    Args:
        notification_id: id of the notification.
        read: true for read, false for unread.
    """
    row = _own_notification(world, notification_id)
    if row["read"] != read:
        world.update(NOTIFICATIONS, notification_id, read=read)
    return {"message": "Notification updated."}
