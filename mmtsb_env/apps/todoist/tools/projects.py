"""Todoist: users, projects, sections and collaboration."""

from __future__ import annotations

import hashlib
from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, PermissionDenied, tool
from ..._common import nonblank, now_str, paginate, search_rank
from ..tables import (
    APP, INVITES, LINKS, PROJECTS, REQ, SECTIONS, TASKS, USERS, Color, brief_user, delete_task_tree, get_project,
    get_section, is_member, link_of, member_ids, notify, order_value, require_owner, sorted_by_order, user_by_email,
)


def _project_view(world: Any, project: dict[str, Any]) -> dict[str, Any]:
    link = link_of(world, project["id"], world.user_id)
    tasks = [t for t in world.rows(TASKS) if t["project_id"] == project["id"]]
    members = member_ids(world, project)
    return {
        "project_id": project["id"],
        "name": project["name"],
        "color": project["color"],
        "is_inbox": project["is_inbox"],
        "description": project["description"],
        "is_favorite": bool(link and link["is_favorite"]),
        "is_archived": bool(link and link["is_archived"]),
        "created_at": project["created_at"],
        "owner": brief_user(world, project["user_id"]),
        "collaborators": [brief_user(world, uid) for uid in members],
        "num_sections": world.count(SECTIONS, project_id=project["id"]),
        "num_tasks": len(tasks),
        "num_completed_tasks": sum(1 for t in tasks if t["is_completed"]),
    }


def _section_view(world: Any, section: dict[str, Any]) -> dict[str, Any]:
    return {
        "section_id": section["id"],
        "project_id": section["project_id"],
        "name": section["name"],
        "order_index": section["order_index"],
        "created_at": section["created_at"],
        "num_tasks": world.count(TASKS, section_id=section["id"]),
    }


def _invite_code(world: Any, project_id: int, invitee_id: int) -> str:
    while True:
        token = world.new_token("todoist_invite")
        code = hashlib.sha1(f"{token}:{project_id}:{invitee_id}".encode()).hexdigest()[:12].upper()
        if world.first(INVITES, invite_code=code) is None:
            return code


# ====================================================================== users and projects
@tool(app=APP, requires=("network",))
def todoist_search_users(world, query: str | None = "", page_index: int | None = 0, page_limit: int | None = 5) -> list:
    """Find todoist users by name or email address (public details only).

    Args:
        query: words to look for in first name, last name and email (empty lists everyone).
        page_index: page to return, from 0.
        page_limit: users per page (1-20).
    """
    rows = sorted(world.rows(USERS), key=lambda r: r["id"])
    rows = search_rank(rows, query, ("first_name", "last_name", "email"))
    return [
        {"id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"], "email": r["email"],
         "registered_at": r["created_at"]}
        for r in paginate(rows, page_index, page_limit)
    ]


@tool(app=APP, writes=True, requires=REQ)
def todoist_create_project(
    world, name: str, color: Color | None = "charcoal", description: str = "", is_favorite: bool | None = False
) -> dict:
    """Create a project that you own.

    Args:
        name: name of the project.
        color: one of charcoal, red, blue, green, orange, yellow.
        description: what the project is about.
        is_favorite: whether to mark it as a favorite.
    """
    nonblank(name, "name")
    now = now_str(world)
    project = world.insert(PROJECTS, {
        "id": world.new_id(PROJECTS), "user_id": world.user_id, "name": name.strip(), "color": color or "charcoal",
        "is_inbox": False, "description": description or "", "created_at": now,
    })
    world.insert(LINKS, {
        "id": world.new_id(LINKS), "project_id": project["id"], "user_id": world.user_id,
        "is_favorite": bool(is_favorite), "is_archived": False, "created_at": now,
    })
    return {"message": "Project created.", "project_id": project["id"]}


@tool(app=APP, requires=REQ)
def todoist_show_projects(
    world,
    query: str | None = "",
    color: Color | None = None,
    is_favorite: bool | None = None,
    is_archived: bool | None = None,
    page_index: int | None = 0,
    page_limit: int | None = 5,
    sort_by: str | None = None,
) -> list:
    """List or search the projects you own or collaborate on.

    Without a query or sort_by, the newest projects come first.

    Args:
        query: words to look for in project names and descriptions.
        color: only projects of this color.
        is_favorite: only your favorite (true) or non-favorite (false) projects.
        is_archived: only archived (true) or active (false) projects.
        page_index: page to return, from 0.
        page_limit: projects per page (1-20).
        sort_by: "created_at" or "name", prefixed with "+" (ascending) or "-" (descending).
    """
    me = world.user_id
    member_of = {l["project_id"]: l for l in world.rows(LINKS) if l["user_id"] == me}
    rows = [p for p in world.rows(PROJECTS) if p["user_id"] == me or p["id"] in member_of]
    if color is not None:
        rows = [p for p in rows if p["color"] == color]

    def flag(p: dict[str, Any], col: str) -> bool:
        link = member_of.get(p["id"])
        return bool(link and link[col])

    if is_favorite is not None:
        rows = [p for p in rows if flag(p, "is_favorite") == is_favorite]
    if is_archived is not None:
        rows = [p for p in rows if flag(p, "is_archived") == is_archived]
    rows.sort(key=lambda p: p["id"])
    if query and query.strip():
        rows = search_rank(rows, query, ("name", "description"))
    elif not sort_by:
        sort_by = "-created_at"
    if sort_by:
        desc = sort_by.startswith("-")
        key = sort_by.lstrip("+-")
        if key not in ("created_at", "name"):
            raise InvalidArgument(f"sort_by must be created_at or name with an optional +/- prefix, got {sort_by!r}")
        rows = sorted(rows, key=lambda p: (p[key].lower() if key == "name" else p[key] or "", p["id"]), reverse=desc)
    return [_project_view(world, p) for p in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=REQ)
def todoist_show_project(world, project_id: int) -> dict:
    """Show a project's details, members and task counts.

    Args:
        project_id: id of the project; 0 means your Inbox.
    """
    return _project_view(world, get_project(world, project_id))


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_project(
    world,
    project_id: int,
    name: str | None = None,
    color: Color | None = None,
    description: str | None = None,
    is_favorite: bool | None = None,
    is_archived: bool | None = None,
) -> dict:
    """Change a project's name, color or description, or your own favorite/archived flags for it.

    Args:
        project_id: id of the project; 0 means your Inbox.
        name: new name.
        color: new color (charcoal, red, blue, green, orange or yellow).
        description: new description.
        is_favorite: mark (true) or unmark (false) the project as one of your favorites.
        is_archived: archive (true) or unarchive (false) the project for yourself.
    """
    project = get_project(world, project_id)
    if all(v is None for v in (name, color, description, is_favorite, is_archived)):
        raise InvalidArgument("nothing to update: give name, color, description, is_favorite or is_archived")
    if project["is_inbox"] and (name is not None or is_archived):
        raise Conflict("the Inbox project cannot be renamed or archived")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = nonblank(name, "name").strip()
    if color is not None:
        changes["color"] = color
    if description is not None:
        changes["description"] = description
    if changes:
        world.update(PROJECTS, project["id"], **changes)
    flags = {k: v for k, v in (("is_favorite", is_favorite), ("is_archived", is_archived)) if v is not None}
    if flags:
        link = link_of(world, project["id"], world.user_id)
        if link is None:
            world.insert(LINKS, {"id": world.new_id(LINKS), "project_id": project["id"], "user_id": world.user_id,
                                 "created_at": now_str(world), **flags})
        else:
            world.update(LINKS, link["id"], **flags)
    return {"message": "Project updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_project(world, project_id: int) -> dict:
    """Delete a project you own, with all its sections, tasks, sub-tasks, comments and invites.

    Args:
        project_id: id of the project.
    """
    project = get_project(world, project_id)
    if project["is_inbox"]:
        raise Conflict("the Inbox project cannot be deleted")
    require_owner(world, project, "delete this project; use todoist_remove_collaborator_from_project to leave it")
    pid = project["id"]
    for task in world.select(TASKS, project_id=pid):
        delete_task_tree(world, task["id"], cascade=True)
    for table in (SECTIONS, LINKS, INVITES):
        for row in world.select(table, project_id=pid):
            world.delete(table, row["id"], cascade=True)
    world.delete(PROJECTS, pid)
    return {"message": "Project deleted."}


# ====================================================================== sections
@tool(app=APP, writes=True, requires=REQ)
def todoist_create_section(world, project_id: int, name: str, order_index: int = -1) -> dict:
    """Add a section to a project.

    Args:
        project_id: id of the project; 0 means your Inbox.
        name: name of the section.
        order_index: position in the project's list of sections: 0 for the top, 1 below the first one, ...; negative values count from the end (-1 = last, -2 = just above the last).
    """
    project = get_project(world, project_id)
    nonblank(name, "name")
    siblings = sorted_by_order(world.select(SECTIONS, project_id=project["id"]))
    section = world.insert(SECTIONS, {
        "id": world.new_id(SECTIONS), "project_id": project["id"], "name": name.strip(),
        "order_index": order_value(siblings, order_index), "created_at": now_str(world),
    })
    return {"message": "Section created.", "section_id": section["id"]}


@tool(app=APP, requires=REQ)
def todoist_show_sections(world, project_id: int) -> list:
    """List the sections of a project in display order.

    Args:
        project_id: id of the project; 0 means your Inbox.
    """
    project = get_project(world, project_id)
    return [_section_view(world, s) for s in sorted_by_order(world.select(SECTIONS, project_id=project["id"]))]


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_section(world, section_id: int, name: str | None = None, order_index: int | None = None) -> dict:
    """Rename a section or move it within its project's list of sections.

    Args:
        section_id: id of the section.
        name: new name.
        order_index: new position in the list of sections (0 = top, -1 = last).
    """
    section = get_section(world, section_id)
    if name is None and order_index is None:
        raise InvalidArgument("nothing to update: give name and/or order_index")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = nonblank(name, "name").strip()
    if order_index is not None:
        siblings = sorted_by_order(world.select(SECTIONS, project_id=section["project_id"],
                                                where=lambda r: r["id"] != section_id))
        changes["order_index"] = order_value(siblings, order_index)
    world.update(SECTIONS, section_id, **changes)
    return {"message": "Section updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_section(world, section_id: int) -> dict:
    """Delete a section together with the tasks in it.

    Args:
        section_id: id of the section.
    """
    get_section(world, section_id)
    for task in world.select(TASKS, section_id=section_id):
        delete_task_tree(world, task["id"], cascade=True)
    world.delete(SECTIONS, section_id)
    return {"message": "Section deleted."}


# ====================================================================== collaboration
@tool(app=APP, writes=True, requires=REQ)
def todoist_send_project_invite(world, project_id: int, email: str) -> dict:
    """Invite someone to collaborate on a project; they get a notification with the invite code.

    Args:
        project_id: id of the project.
        email: todoist email address of the person to invite.
    """
    project = get_project(world, project_id)
    if project["is_inbox"]:
        raise Conflict("the Inbox project cannot be shared")
    invitee = user_by_email(world, email)
    if is_member(world, project, invitee["id"]):
        raise Conflict(f"{email} is already a collaborator of this project")
    for inv in world.select(INVITES, project_id=project["id"], invitee_id=invitee["id"]):
        raise Conflict(f"{email} already has a pending invite to this project (invite code {inv['invite_code']})")
    code = _invite_code(world, project["id"], invitee["id"])
    world.insert(INVITES, {
        "id": world.new_id(INVITES), "project_id": project["id"], "inviter_id": world.user_id,
        "invitee_id": invitee["id"], "invite_code": code, "created_at": now_str(world),
    })
    inviter = brief_user(world, world.user_id)
    notify(world, invitee["id"], "project_invite", "Project invitation",
           f"{inviter['name']} invited you to join the project \"{project['name']}\".",
           {"project_id": project["id"], "invite_code": code, "inviter_id": world.user_id})
    return {"message": f"Invite sent to {invitee['email']}.", "invite_code": code}


@tool(app=APP, writes=True, requires=REQ)
def todoist_accept_project_invite(world, invite_code: str) -> dict:
    """Join a project with an invite code that was sent to you.

    Args:
        invite_code: the code from the invitation (see todoist_show_notifications).
    """
    invite = world.first(INVITES, invite_code=invite_code.strip())
    if invite is None or invite["invitee_id"] != world.user_id:
        raise NotFound(f"there is no pending invite with code {invite_code!r} for you")
    project = world.get(PROJECTS, invite["project_id"])
    if project is None:
        raise NotFound("the project of this invite no longer exists")
    if is_member(world, project, world.user_id):
        raise Conflict("you are already a collaborator of this project")
    world.delete(INVITES, invite["id"])
    world.insert(LINKS, {"id": world.new_id(LINKS), "project_id": project["id"], "user_id": world.user_id,
                         "is_favorite": False, "is_archived": False, "created_at": now_str(world)})
    me = brief_user(world, world.user_id)
    notify(world, invite["inviter_id"], "project_invite_accepted", "Invitation accepted",
           f"{me['name']} joined the project \"{project['name']}\".", {"project_id": project["id"]})
    return {"message": f"You joined the project {project['name']!r}.", "project_id": project["id"]}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_project_invite(world, invite_code: str) -> dict:
    """Withdraw an invite you sent, or decline one you received.

    Args:
        invite_code: the code of the invite.
    """
    invite = world.first(INVITES, invite_code=invite_code.strip())
    if invite is None or world.user_id not in (invite["inviter_id"], invite["invitee_id"]):
        raise NotFound(f"there is no pending invite with code {invite_code!r} sent by or to you")
    world.delete(INVITES, invite["id"])
    return {"message": "Invite deleted."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_remove_collaborator_from_project(world, project_id: int, email: str) -> dict:
    """Remove a collaborator from a project (the owner can remove anyone else; others can remove themselves).

    Tasks of the project assigned to the removed person become unassigned.

    Args:
        project_id: id of the project.
        email: email address of the collaborator to remove.
    """
    project = get_project(world, project_id)
    target = user_by_email(world, email)
    link = link_of(world, project["id"], target["id"])
    if target["id"] == project["user_id"]:
        raise PermissionDenied("the owner cannot be removed from their project; delete the project instead")
    if link is None:
        raise NotFound(f"{email} is not a collaborator of this project")
    if target["id"] != world.user_id:
        require_owner(world, project, "remove other collaborators")
    world.delete(LINKS, link["id"])
    for task in world.select(TASKS, project_id=project["id"], assignee_id=target["id"]):
        world.update(TASKS, task["id"], assignee_id=None, assigner_id=None)
    return {"message": f"{target['email']} was removed from the project."}
