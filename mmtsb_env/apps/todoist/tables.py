"""Todoist: projects (shared with collaborators), sections, invites and the app's user search.

This module declares every todoist table and the shared helpers. The tools: users, projects,
sections and collaboration in ``tools.projects``; tasks, sub-tasks and labels in ``tools.tasks``;
comments, attachments and notifications in ``tools.comments``. The base data is in ``data``.

Sharing model (as in AppWorld): ``todoist.projects.user_id`` is the owner, and every member
(the owner included) has a row in ``todoist.project_collaborator_links`` that also holds the
member's own ``is_favorite`` / ``is_archived`` flags. A project is visible to its owner and to
its collaborators only; everyone else gets "does not exist".
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from ...tools import InvalidArgument, NotFound, PermissionDenied
from ...world import define_table, parse_datetime
from .._accounts import define_accounts
from .._common import now_str

APP = "todoist"
REQ = ("network", "login:todoist")

USERS = "todoist.users"
PROJECTS = "todoist.projects"
LINKS = "todoist.project_collaborator_links"
INVITES = "todoist.project_invites"
SECTIONS = "todoist.sections"
TASKS = "todoist.tasks"
SUB_TASKS = "todoist.sub_tasks"
LABELS = "todoist.labels"
TASK_LABELS = "todoist.task_label_links"
COMMENTS = "todoist.task_comments"
ATTACHMENTS = "todoist.task_comment_attachments"
NOTIFICATIONS = "todoist.notifications"

COLORS = ("charcoal", "red", "blue", "green", "orange", "yellow")
Color = Literal["charcoal", "red", "blue", "green", "orange", "yellow"]
Priority = Literal["high", "medium", "low"]
DurationUnit = Literal["minutes", "hours", "days"]
PRIORITY_RANK = {"low": 1, "medium": 2, "high": 3}

define_accounts(APP)
define_table(
    PROJECTS,
    columns={"id": None, "user_id": None, "name": "", "color": "charcoal", "is_inbox": False,
             "description": "", "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    LINKS,
    columns={"id": None, "project_id": None, "user_id": None, "is_favorite": False, "is_archived": False,
             "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    INVITES,
    columns={"id": None, "project_id": None, "inviter_id": None, "invitee_id": None, "invite_code": "",
             "created_at": None},
    auto_columns=("invite_code", "created_at"),
)
define_table(
    SECTIONS,
    columns={"id": None, "project_id": None, "name": "", "order_index": 0, "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    TASKS,
    columns={"id": None, "project_id": None, "section_id": None, "user_id": None, "title": "",
             "description": None, "due_date": None, "priority": "medium", "is_completed": False,
             "duration": None, "duration_unit": None, "order_index": 0, "assignee_id": None,
             "assigner_id": None, "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    SUB_TASKS,
    columns={"id": None, "task_id": None, "title": "", "description": None, "due_date": None,
             "priority": "medium", "is_completed": False, "duration": None, "duration_unit": None,
             "order_index": 0, "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    LABELS,
    columns={"id": None, "user_id": None, "name": "", "color": "charcoal", "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    TASK_LABELS,
    columns={"id": None, "task_id": None, "label_id": None, "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    COMMENTS,
    columns={"id": None, "task_id": None, "user_id": None, "content": "", "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    ATTACHMENTS,
    columns={"id": None, "task_comment_id": None, "file_name": "", "content": "", "created_at": None},
    auto_columns=("created_at",),
)
define_table(
    NOTIFICATIONS,
    columns={"id": None, "user_id": None, "type": "", "title": "", "message": "", "read": False,
             "data": {}, "created_at": None},
    auto_columns=("created_at",),
)


# ====================================================================== shared helpers
def brief_user(world: Any, user_id: int | None) -> dict[str, Any] | None:
    """Name and email of a todoist user, as shown next to tasks, comments and projects."""
    if user_id is None:
        return None
    row = world.get(USERS, user_id)
    if row is None:
        return {"id": user_id, "name": "(deleted user)", "email": None}
    return {"id": row["id"], "name": f"{row['first_name']} {row['last_name']}".strip(), "email": row["email"]}


def user_by_email(world: Any, email: str) -> dict[str, Any]:
    wanted = email.strip().lower()
    for row in world.rows(USERS):
        if (row.get("email") or "").lower() == wanted:
            return dict(row)
    raise NotFound(f"there is no todoist user with email {email!r}; find people with todoist_search_users")


def link_of(world: Any, project_id: int, user_id: int) -> dict[str, Any] | None:
    return world.first(LINKS, project_id=project_id, user_id=user_id)


def member_ids(world: Any, project: dict[str, Any]) -> list[int]:
    """The owner first, then the other collaborators in the order they joined."""
    ids = [project["user_id"]]
    for link in sorted(world.select(LINKS, project_id=project["id"]), key=lambda r: r["id"]):
        if link["user_id"] not in ids:
            ids.append(link["user_id"])
    return ids


def is_member(world: Any, project: dict[str, Any], user_id: int) -> bool:
    return project["user_id"] == user_id or link_of(world, project["id"], user_id) is not None


def inbox_of(world: Any, user_id: int) -> dict[str, Any] | None:
    for row in world.rows(PROJECTS):
        if row["user_id"] == user_id and row["is_inbox"]:
            return dict(row)
    return None


def get_project(world: Any, project_id: int) -> dict[str, Any]:
    """A project the device owner can see (``0`` means their Inbox); NotFound otherwise."""
    if project_id == 0:
        inbox = inbox_of(world, world.user_id)
        if inbox is None:
            raise NotFound("you have no Inbox project")
        return inbox
    project = world.get(PROJECTS, project_id)
    if project is None or not is_member(world, project, world.user_id):
        raise NotFound(f"project with id {project_id} does not exist in your account; list yours with todoist_show_projects")
    return project


def _in_visible_project(world: Any, table: str, key: int, missing: str) -> dict[str, Any]:
    """A row of a project the device owner can see; NotFound(``missing``) otherwise (no leaks)."""
    row = world.get(table, key)
    project = world.get(PROJECTS, row["project_id"]) if row is not None else None
    if project is None or not is_member(world, project, world.user_id):
        raise NotFound(missing)
    return row


def get_section(world: Any, section_id: int) -> dict[str, Any]:
    return _in_visible_project(world, SECTIONS, section_id, f"section with id {section_id} does not exist")


def get_task(world: Any, task_id: int) -> dict[str, Any]:
    missing = f"task with id {task_id} does not exist; find tasks with todoist_show_tasks"
    return _in_visible_project(world, TASKS, task_id, missing)


def in_visible_task(world: Any, table: str, key: int, what: str) -> dict[str, Any]:
    """A sub-task or comment of a task the device owner can see; NotFound otherwise (no leaks)."""
    row = world.get(table, key)
    try:
        if row is None:
            raise NotFound(what)
        get_task(world, row["task_id"])
    except NotFound:
        raise NotFound(f"{what} with id {key} does not exist") from None
    return row


def require_owner(world: Any, project: dict[str, Any], action: str) -> None:
    if project["user_id"] != world.user_id:
        owner = brief_user(world, project["user_id"])
        raise PermissionDenied(f"only the project owner ({owner['name']}) can {action}")


def order_value(siblings: list[dict[str, Any]], index: int) -> int | float:
    """The ``order_index`` value that puts an item at list position ``index``.

    ``siblings`` are the other items of the list, sorted by ``order_index``. ``index`` counts
    from 0 at the top; negative values count from the end (-1 = last). Out-of-range positions
    are clamped. Only the moved item gets a new value; its siblings keep theirs.
    """
    n = len(siblings)
    if n == 0:
        return 1
    pos = index if index >= 0 else n + 1 + index
    pos = max(0, min(n, pos))
    if pos == 0:
        return siblings[0]["order_index"] - 1
    if pos == n:
        return siblings[-1]["order_index"] + 1
    mid = (siblings[pos - 1]["order_index"] + siblings[pos]["order_index"]) / 2
    return int(mid) if float(mid).is_integer() else mid


def sorted_by_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["order_index"], r["id"]))


def parse_due_date(value: str, name: str = "due_date") -> str:
    """``YYYY-MM-DD`` from a date (or a date-time, whose date part is kept)."""
    text = value.strip()
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    try:
        return parse_datetime(text).date().isoformat()
    except ValueError:
        raise InvalidArgument(f"{name} must be a date in YYYY-MM-DD format, got {value!r}") from None


def today(world: Any) -> str:
    return world.now.date().isoformat()


def notify(world: Any, user_id: int, kind: str, title: str, message: str, data: dict[str, Any]) -> None:
    world.insert(NOTIFICATIONS, {
        "id": world.new_id(NOTIFICATIONS), "user_id": user_id, "type": kind, "title": title,
        "message": message, "read": False, "data": data, "created_at": now_str(world),
    })


def delete_task_tree(world: Any, task_id: int, *, cascade: bool = False) -> None:
    """Delete a task with its sub-tasks, label links, comments and their attachments.

    The task's dependants go with it as a cascade (``World.delete(cascade=True)``); so does the
    task itself when ``cascade`` is true (its section or project is being deleted).
    """
    for sub in world.select(SUB_TASKS, task_id=task_id):
        world.delete(SUB_TASKS, sub["id"], cascade=True)
    for link in world.select(TASK_LABELS, task_id=task_id):
        world.delete(TASK_LABELS, link["id"], cascade=True)
    for comment in world.select(COMMENTS, task_id=task_id):
        for att in world.select(ATTACHMENTS, task_comment_id=comment["id"]):
            world.delete(ATTACHMENTS, att["id"], cascade=True)
        world.delete(COMMENTS, comment["id"], cascade=True)
    world.delete(TASKS, task_id, cascade=cascade)


