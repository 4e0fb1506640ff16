"""Todoist tasks, sub-tasks and labels (tables and helpers are in ``todoist.tables``)."""

from __future__ import annotations

from typing import Any

from ....tools import Conflict, InvalidArgument, NotFound, tool
from ..._common import nonblank, now_str, paginate, search_rank
from ..tables import (
    APP, LABELS, PRIORITY_RANK, REQ, SECTIONS, SUB_TASKS, TASK_LABELS, TASKS, Color, DurationUnit, Priority,
    brief_user, delete_task_tree, get_project, get_section, get_task, in_visible_task, is_member, notify, order_value,
    parse_due_date, sorted_by_order, today, user_by_email,
)

_DEFAULT_MIN_DUE = "1500-01-01"
_DEFAULT_MAX_DUE = "3000-01-01"
_CLEAR_WORDS = {"none", "null", ""}


def _labels_of(world: Any, task_id: int) -> list[dict[str, Any]]:
    out = []
    for link in sorted(world.select(TASK_LABELS, task_id=task_id), key=lambda r: r["id"]):
        label = world.get(LABELS, link["label_id"])
        if label is not None:
            out.append({"label_id": label["id"], "name": label["name"], "color": label["color"]})
    return out


def _task_view(world: Any, task: dict[str, Any], *, details: bool = False) -> dict[str, Any]:
    view = {
        "task_id": task["id"],
        "project_id": task["project_id"],
        "section_id": task["section_id"],
        "title": task["title"],
        "description": task["description"],
        "due_date": task["due_date"],
        "priority": task["priority"],
        "is_completed": task["is_completed"],
        "duration": task["duration"],
        "duration_unit": task["duration_unit"],
        "order_index": task["order_index"],
        "created_at": task["created_at"],
        "creator": brief_user(world, task["user_id"]),
        "assignee": brief_user(world, task["assignee_id"]),
        "assigner": brief_user(world, task["assigner_id"]),
        "labels": _labels_of(world, task["id"]),
    }
    subs = sorted_by_order(world.select(SUB_TASKS, task_id=task["id"]))
    if details:
        view["sub_tasks"] = [_sub_task_view(s) for s in subs]
    else:
        view["num_sub_tasks"] = len(subs)
    return view


def _sub_task_view(sub: dict[str, Any]) -> dict[str, Any]:
    return {
        "sub_task_id": sub["id"], "task_id": sub["task_id"], "title": sub["title"], "description": sub["description"],
        "due_date": sub["due_date"], "priority": sub["priority"], "is_completed": sub["is_completed"],
        "duration": sub["duration"], "duration_unit": sub["duration_unit"], "order_index": sub["order_index"],
        "created_at": sub["created_at"],
    }


def _check_duration(duration: float | None, unit: str | None) -> None:
    if duration is not None and duration < 0:
        raise InvalidArgument("duration must be 0 or more")
    if duration is not None and duration > 0 and unit is None:
        raise InvalidArgument("give duration_unit (minutes, hours or days) together with duration")
    if unit is not None and (duration is None or duration == 0):
        raise InvalidArgument("duration_unit needs a duration greater than 0")


def _duration_changes(current: dict[str, Any], duration: float | None, unit: str | None) -> dict[str, Any]:
    """Columns to set for an update of duration/duration_unit (0 removes the duration)."""
    if duration is None and unit is None:
        return {}
    if duration is not None and duration < 0:
        raise InvalidArgument("duration must be 0 or more")
    if duration == 0:
        if unit is not None:
            raise InvalidArgument("duration 0 removes the duration; do not give duration_unit with it")
        return {"duration": None, "duration_unit": None}
    new_duration = duration if duration is not None else current["duration"]
    new_unit = unit if unit is not None else current["duration_unit"]
    if new_duration is None:
        raise InvalidArgument("this item has no duration; give duration together with duration_unit")
    if new_unit is None:
        raise InvalidArgument("give duration_unit (minutes, hours or days) together with duration")
    return {"duration": new_duration, "duration_unit": new_unit}


def _due_change(due_date: str | None) -> dict[str, Any]:
    if due_date is None:
        return {}
    if due_date.strip().lower() in _CLEAR_WORDS:
        return {"due_date": None}
    return {"due_date": parse_due_date(due_date)}


def _siblings(world: Any, project_id: int, section_id: int | None, exclude: int | None = None) -> list[dict[str, Any]]:
    rows = world.select(TASKS, project_id=project_id, section_id=section_id,
                        where=(lambda r: r["id"] != exclude) if exclude is not None else None)
    return sorted_by_order(rows)


def _check_title(title: str) -> str:
    return nonblank(title, "title").strip()


def _field_changes(row: dict[str, Any], title: str | None, description: str | None, due_date: str | None,
                   duration: float | None, duration_unit: str | None, priority: str | None,
                   is_completed: bool | None, *others: Any) -> dict[str, Any]:
    """The edits tasks and sub-tasks share; InvalidArgument when these and ``others`` are all omitted."""
    given = (title, description, due_date, duration, duration_unit, priority, is_completed, *others)
    if all(v is None for v in given):
        raise InvalidArgument("nothing to update: give at least one field to change")
    changes: dict[str, Any] = {}
    if title is not None:
        changes["title"] = _check_title(title)
    if description is not None:
        changes["description"] = description
    changes.update(_due_change(due_date))
    changes.update(_duration_changes(row, duration, duration_unit))
    if priority is not None:
        changes["priority"] = priority
    if is_completed is not None:
        changes["is_completed"] = is_completed
    return changes


def _complete_subtasks(world: Any, task_id: int) -> None:
    for sub in world.select(SUB_TASKS, task_id=task_id, is_completed=False):
        world.update(SUB_TASKS, sub["id"], is_completed=True)


# ====================================================================== tasks
@tool(app=APP, writes=True, requires=REQ)
def todoist_create_task(
    world,
    project_id: int,
    title: str,
    section_id: int | None = None,
    description: str | None = "",
    due_date: str | None = None,
    duration: float | None = None,
    duration_unit: DurationUnit | None = None,
    order_index: int = -1,
    priority: Priority | None = "medium",
) -> dict:
    """Create a task in a project (optionally inside one of its sections).

    Args:
        project_id: id of the project; 0 means your Inbox.
        title: title of the task.
        section_id: id of a section of that project to put the task in.
        description: longer description.
        due_date: due date in YYYY-MM-DD format.
        duration: how long the task takes (with duration_unit).
        duration_unit: minutes, hours or days.
        order_index: position in the list of tasks: 0 for the top, -1 for the end, -2 just above the last one.
        priority: high, medium or low.
    """
    project = get_project(world, project_id)
    title = _check_title(title)
    if section_id is not None and section_id != 0:
        section = get_section(world, section_id)
        if section["project_id"] != project["id"]:
            raise InvalidArgument(f"section {section_id} belongs to another project; see todoist_show_sections")
    else:
        section_id = None
    due = parse_due_date(due_date) if due_date is not None else None
    _check_duration(duration, duration_unit)
    if duration == 0:
        duration = None
    task = world.insert(TASKS, {
        "id": world.new_id(TASKS), "project_id": project["id"], "section_id": section_id, "user_id": world.user_id,
        "title": title, "description": description if description is not None else "", "due_date": due,
        "priority": priority or "medium", "is_completed": False, "duration": duration, "duration_unit": duration_unit,
        "order_index": order_value(_siblings(world, project["id"], section_id), order_index),
        "assignee_id": None, "assigner_id": None, "created_at": now_str(world),
    })
    return {"message": "Task created.", "task_id": task["id"]}


@tool(app=APP, requires=REQ)
def todoist_show_tasks(
    world,
    project_id: int,
    section_id: int | None = None,
    assignee_email: str | None = None,
    assigner_email: str | None = None,
    priority: Priority | None = None,
    is_completed: bool | None = None,
    due_today: bool | None = False,
    label_id: int | None = None,
    overdue: bool | None = False,
    min_due_date: str | None = _DEFAULT_MIN_DUE,
    max_due_date: str | None = _DEFAULT_MAX_DUE,
    sort_by: str | None = "+order_index",
) -> dict:
    """List the tasks of a project, grouped by section, with optional filters.

    Tasks without a due date are kept unless you narrow min_due_date/max_due_date or ask for
    due_today/overdue tasks.

    Args:
        project_id: id of the project; 0 means your Inbox.
        section_id: only tasks of this section; 0 for tasks without a section.
        assignee_email: only tasks assigned to this person.
        assigner_email: only tasks assigned by this person.
        priority: only tasks of this priority (high, medium, low).
        is_completed: only completed (true) or open (false) tasks.
        due_today: if true, only tasks due today.
        label_id: only tasks carrying this label.
        overdue: if true, only open tasks whose due date has passed.
        min_due_date: only tasks due on or after this date (YYYY-MM-DD).
        max_due_date: only tasks due on or before this date (YYYY-MM-DD).
        sort_by: order_index, due_date or priority, prefixed with "+" (ascending) or "-" (descending); for priority ascending means low to high.
    """
    project = get_project(world, project_id)
    sections = sorted_by_order(world.select(SECTIONS, project_id=project["id"]))
    if section_id is not None and section_id != 0 and all(s["id"] != section_id for s in sections):
        raise NotFound(f"section {section_id} is not a section of project {project['id']}")
    tasks = world.select(TASKS, project_id=project["id"])
    if section_id is not None:
        tasks = [t for t in tasks if (t["section_id"] or 0) == section_id]
    if assignee_email is not None:
        uid = user_by_email(world, assignee_email)["id"]
        tasks = [t for t in tasks if t["assignee_id"] == uid]
    if assigner_email is not None:
        uid = user_by_email(world, assigner_email)["id"]
        tasks = [t for t in tasks if t["assigner_id"] == uid]
    if priority is not None:
        tasks = [t for t in tasks if t["priority"] == priority]
    if is_completed is not None:
        tasks = [t for t in tasks if t["is_completed"] == is_completed]
    now_day = today(world)
    if due_today:
        tasks = [t for t in tasks if t["due_date"] == now_day]
    if overdue:
        tasks = [t for t in tasks if t["due_date"] is not None and t["due_date"] < now_day and not t["is_completed"]]
    if label_id is not None:
        tagged = {l["task_id"] for l in world.rows(TASK_LABELS) if l["label_id"] == label_id}
        tasks = [t for t in tasks if t["id"] in tagged]
    lo = parse_due_date(min_due_date, "min_due_date") if min_due_date else _DEFAULT_MIN_DUE
    hi = parse_due_date(max_due_date, "max_due_date") if max_due_date else _DEFAULT_MAX_DUE
    if lo > hi:
        raise InvalidArgument("min_due_date must not be after max_due_date")
    narrowed = lo != _DEFAULT_MIN_DUE or hi != _DEFAULT_MAX_DUE
    tasks = [t for t in tasks if (t["due_date"] is None and not narrowed)
             or (t["due_date"] is not None and lo <= t["due_date"] <= hi)]

    sort_by = sort_by or "+order_index"
    desc = sort_by.startswith("-")
    key = sort_by.lstrip("+-")
    if key not in ("order_index", "due_date", "priority"):
        raise InvalidArgument(f"sort_by must be order_index, due_date or priority with a +/- prefix, got {sort_by!r}")
    if key == "priority":
        tasks.sort(key=lambda t: (PRIORITY_RANK[t["priority"]], t["order_index"], t["id"]), reverse=desc)
    elif key == "due_date":
        dated = sorted((t for t in tasks if t["due_date"]), key=lambda t: (t["due_date"], t["order_index"], t["id"]),
                       reverse=desc)
        tasks = dated + sorted_by_order([t for t in tasks if not t["due_date"]])
    else:
        tasks = sorted(tasks, key=lambda t: (t["order_index"], t["id"]), reverse=desc)
    groups = [
        {"section_id": s["id"], "name": s["name"], "order_index": s["order_index"],
         "tasks": [_task_view(world, t) for t in tasks if t["section_id"] == s["id"]]}
        for s in sections if section_id in (None, s["id"])
    ]
    return {
        "project_id": project["id"],
        "project_name": project["name"],
        "no_section_tasks": [_task_view(world, t) for t in tasks if t["section_id"] is None],
        "sections": groups,
    }


@tool(app=APP, requires=REQ)
def todoist_show_task(world, task_id: int) -> dict:
    """Show a task with its labels, assignee and sub-tasks.

    Args:
        task_id: id of the task.
    """
    return _task_view(world, get_task(world, task_id), details=True)


@tool(app=APP, writes=True, requires=REQ)
def todoist_assign_or_unassign_task(world, task_id: int, assignee_email: str | None = None) -> dict:
    """Assign a task to a member of its project, or unassign it when no email is given.

    Args:
        task_id: id of the task.
        assignee_email: email of the project member to assign; omit or null to unassign.
    """
    task = get_task(world, task_id)
    if assignee_email is None:
        if task["assignee_id"] is None:
            raise Conflict("the task is not assigned to anyone")
        world.update(TASKS, task_id, assignee_id=None, assigner_id=None)
        return {"message": "Task unassigned."}
    user = user_by_email(world, assignee_email)
    project = get_project(world, task["project_id"])
    if not is_member(world, project, user["id"]):
        raise InvalidArgument(f"{assignee_email} is not a member of this task's project; invite them first with todoist_send_project_invite")
    world.update(TASKS, task_id, assignee_id=user["id"], assigner_id=world.user_id)
    if user["id"] != world.user_id:
        me = brief_user(world, world.user_id)
        notify(world, user["id"], "task_assigned", "Task assigned",
               f"{me['name']} assigned you the task \"{task['title']}\".",
               {"task_id": task_id, "project_id": task["project_id"]})
    return {"message": f"Task assigned to {user['email']}."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_task(
    world,
    task_id: int,
    title: str | None = None,
    description: str | None = None,
    due_date: str | None = None,
    duration: float | None = None,
    duration_unit: DurationUnit | None = None,
    is_completed: bool | None = None,
    order_index: int | None = None,
    priority: Priority | None = None,
    project_id: int | None = None,
    section_id: int | None = None,
) -> dict:
    """Change a task: title, description, due date, duration, priority, completion, position, project or section.

    Completing a task also completes its open sub-tasks. Omitted fields stay as they are.

    Args:
        task_id: id of the task.
        title: new title.
        description: new description.
        due_date: new due date (YYYY-MM-DD); the string "None" removes the due date.
        duration: new duration; 0 removes the duration and its unit.
        duration_unit: minutes, hours or days.
        is_completed: true to complete the task, false to reopen it.
        order_index: new position in its list of tasks (0 = top, -1 = last).
        priority: high, medium or low.
        project_id: move the task to this project (0 = your Inbox); it goes to the end of the list unless order_index is given.
        section_id: move the task to this section of its (new) project; 0 takes it out of any section.
    """
    task = get_task(world, task_id)
    changes = _field_changes(task, title, description, due_date, duration, duration_unit, priority, is_completed,
                             order_index, project_id, section_id)
    target_project = task["project_id"]
    if project_id is not None:
        target_project = get_project(world, project_id)["id"]
    target_section = task["section_id"] if target_project == task["project_id"] else None
    if section_id is not None:
        if section_id == 0:
            target_section = None
        else:
            section = get_section(world, section_id)
            if section["project_id"] != target_project:
                raise InvalidArgument(f"section {section_id} is not a section of project {target_project}")
            target_section = section_id
    moved = (target_project, target_section) != (task["project_id"], task["section_id"])
    if moved:
        changes["project_id"] = target_project
        changes["section_id"] = target_section
        if task["assignee_id"] is not None and target_project != task["project_id"]:
            new_project = get_project(world, target_project)
            if not is_member(world, new_project, task["assignee_id"]):
                changes.update(assignee_id=None, assigner_id=None)
    if moved or order_index is not None:
        siblings = _siblings(world, target_project, target_section, exclude=task_id)
        changes["order_index"] = order_value(siblings, -1 if order_index is None else order_index)
    world.update(TASKS, task_id, **changes)
    if is_completed and not task["is_completed"]:
        _complete_subtasks(world, task_id)
        if task["assigner_id"] not in (None, world.user_id):
            me = brief_user(world, world.user_id)
            notify(world, task["assigner_id"], "task_completed", "Task completed",
                   f"{me['name']} completed the task \"{task['title']}\".",
                   {"task_id": task_id, "project_id": changes.get("project_id", task["project_id"])})
    return {"message": "Task updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_task(world, task_id: int) -> dict:
    """Delete a task with its sub-tasks and comments.

    Args:
        task_id: id of the task.
    """
    get_task(world, task_id)
    delete_task_tree(world, task_id)
    return {"message": "Task deleted."}


# ====================================================================== sub-tasks
def _get_sub_task(world: Any, sub_task_id: int) -> dict[str, Any]:
    return in_visible_task(world, SUB_TASKS, sub_task_id, "sub-task")


@tool(app=APP, writes=True, requires=REQ)
def todoist_create_sub_task(
    world,
    task_id: int,
    title: str,
    description: str | None = "",
    due_date: str | None = None,
    duration: float | None = None,
    duration_unit: DurationUnit | None = None,
    priority: Priority | None = "medium",
    order_index: int = -1,
) -> dict:
    """Add a sub-task to a task.

    Args:
        task_id: id of the parent task.
        title: title of the sub-task.
        description: longer description.
        due_date: due date in YYYY-MM-DD format.
        duration: how long it takes (with duration_unit).
        duration_unit: minutes, hours or days.
        priority: high, medium or low.
        order_index: position among the task's sub-tasks: 0 for the top, -1 for the end.
    """
    get_task(world, task_id)
    title = _check_title(title)
    due = parse_due_date(due_date) if due_date is not None else None
    _check_duration(duration, duration_unit)
    siblings = sorted_by_order(world.select(SUB_TASKS, task_id=task_id))
    sub = world.insert(SUB_TASKS, {
        "id": world.new_id(SUB_TASKS), "task_id": task_id, "title": title,
        "description": description if description is not None else "", "due_date": due,
        "priority": priority or "medium", "is_completed": False, "duration": duration or None,
        "duration_unit": duration_unit, "order_index": order_value(siblings, order_index),
        "created_at": now_str(world),
    })
    return {"message": "Sub-task created.", "sub_task_id": sub["id"]}


@tool(app=APP, requires=REQ)
def todoist_show_sub_tasks(world, task_id: int) -> list:
    """List the sub-tasks of a task in display order.

    Args:
        task_id: id of the parent task.
    """
    get_task(world, task_id)
    return [_sub_task_view(s) for s in sorted_by_order(world.select(SUB_TASKS, task_id=task_id))]


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_sub_task(
    world,
    sub_task_id: int,
    title: str | None = None,
    description: str | None = None,
    due_date: str | None = None,
    duration: float | None = None,
    duration_unit: DurationUnit | None = None,
    priority: Priority | None = None,
    is_completed: bool | None = None,
    order_index: int | None = None,
) -> dict:
    """Change a sub-task (omitted fields stay as they are).

    Args:
        sub_task_id: id of the sub-task.
        title: new title.
        description: new description.
        due_date: new due date (YYYY-MM-DD); the string "None" removes it.
        duration: new duration; 0 removes the duration and its unit.
        duration_unit: minutes, hours or days.
        priority: high, medium or low.
        is_completed: true to complete, false to reopen.
        order_index: new position among the task's sub-tasks (0 = top, -1 = last).
    """
    sub = _get_sub_task(world, sub_task_id)
    changes = _field_changes(sub, title, description, due_date, duration, duration_unit, priority, is_completed,
                             order_index)
    if order_index is not None:
        siblings = sorted_by_order(world.select(SUB_TASKS, task_id=sub["task_id"],
                                                where=lambda r: r["id"] != sub_task_id))
        changes["order_index"] = order_value(siblings, order_index)
    world.update(SUB_TASKS, sub_task_id, **changes)
    return {"message": "Sub-task updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_sub_task(world, sub_task_id: int) -> dict:
    """Delete a sub-task.

    Args:
        sub_task_id: id of the sub-task.
    """
    _get_sub_task(world, sub_task_id)
    world.delete(SUB_TASKS, sub_task_id)
    return {"message": "Sub-task deleted."}


# ====================================================================== labels
def _label_view(world: Any, label: dict[str, Any]) -> dict[str, Any]:
    return {"label_id": label["id"], "name": label["name"], "color": label["color"],
            "creator": brief_user(world, label["user_id"])}


def _own_label(world: Any, label_id: int) -> dict[str, Any]:
    label = world.get(LABELS, label_id)
    if label is None or label["user_id"] != world.user_id:
        raise NotFound(f"label with id {label_id} does not exist in your account; see todoist_search_labels")
    return label


def _check_label_name(world: Any, name: str, exclude: int | None = None) -> str:
    name = name.strip()
    if not name:
        raise InvalidArgument("name must not be empty")
    for label in world.rows(LABELS):
        if label["user_id"] == world.user_id and label["id"] != exclude and label["name"].lower() == name.lower():
            raise Conflict(f"you already have a label named {label['name']!r} (label_id {label['id']})")
    return name


@tool(app=APP, writes=True, requires=REQ)
def todoist_create_label(world, name: str, color: Color | None = "charcoal") -> dict:
    """Create a label you can put on tasks.

    Args:
        name: name of the label (unique among your labels).
        color: charcoal, red, blue, green, orange or yellow.
    """
    name = _check_label_name(world, name)
    label = world.insert(LABELS, {"id": world.new_id(LABELS), "user_id": world.user_id, "name": name,
                                  "color": color or "charcoal", "created_at": now_str(world)})
    return {"message": "Label created.", "label_id": label["id"]}


@tool(app=APP, requires=REQ)
def todoist_search_labels(
    world,
    query: str | None = "",
    task_id: int | None = None,
    color: Color | None = None,
    task_attached: bool | None = True,
    page_index: int | None = 0,
    page_limit: int | None = 5,
) -> list:
    """Search your labels, or the labels on a task.

    Args:
        query: words to look for in label names.
        task_id: a task to look at: with task_attached true, the labels on it; with false, your labels not on it yet.
        color: only labels of this color.
        task_attached: see task_id (ignored without task_id).
        page_index: page to return, from 0.
        page_limit: labels per page (1-20).
    """
    if task_id is not None:
        get_task(world, task_id)
        attached = {l["label_id"] for l in world.rows(TASK_LABELS) if l["task_id"] == task_id}
        if task_attached is None or task_attached:
            rows = [world.get(LABELS, lid) for lid in sorted(attached)]
            rows = [r for r in rows if r is not None]
        else:
            rows = [dict(r) for r in world.rows(LABELS) if r["user_id"] == world.user_id and r["id"] not in attached]
    else:
        rows = [dict(r) for r in world.rows(LABELS) if r["user_id"] == world.user_id]
    rows.sort(key=lambda r: r["id"])
    if color is not None:
        rows = [r for r in rows if r["color"] == color]
    rows = search_rank(rows, query, ("name",))
    return [_label_view(world, r) for r in paginate(rows, page_index, page_limit)]


@tool(app=APP, requires=("network",))
def todoist_show_label(world, label_id: int) -> dict:
    """Show a label's name, color and creator.

    Args:
        label_id: id of the label.
    """
    label = world.get(LABELS, label_id)
    if label is None:
        raise NotFound(f"label with id {label_id} does not exist")
    return _label_view(world, label)


@tool(app=APP, writes=True, requires=REQ)
def todoist_update_label(world, label_id: int, name: str | None = None, color: Color | None = None) -> dict:
    """Rename a label or change its color.

    Args:
        label_id: id of one of your labels.
        name: new name.
        color: new color (charcoal, red, blue, green, orange or yellow).
    """
    _own_label(world, label_id)
    if name is None and color is None:
        raise InvalidArgument("nothing to update: give name and/or color")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _check_label_name(world, name, exclude=label_id)
    if color is not None:
        changes["color"] = color
    world.update(LABELS, label_id, **changes)
    return {"message": "Label updated."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_delete_label(world, label_id: int) -> dict:
    """Delete one of your labels; it is removed from every task that had it.

    Args:
        label_id: id of the label.
    """
    _own_label(world, label_id)
    for link in world.select(TASK_LABELS, label_id=label_id):
        world.delete(TASK_LABELS, link["id"])
    world.delete(LABELS, label_id)
    return {"message": "Label deleted."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_add_label_to_task(world, task_id: int, label_id: int) -> dict:
    """Put one of your labels on a task.

    Args:
        task_id: id of the task.
        label_id: id of the label.
    """
    get_task(world, task_id)
    _own_label(world, label_id)
    if world.first(TASK_LABELS, task_id=task_id, label_id=label_id) is not None:
        raise Conflict("the task already has this label")
    world.insert(TASK_LABELS, {"id": world.new_id(TASK_LABELS), "task_id": task_id, "label_id": label_id,
                               "created_at": now_str(world)})
    return {"message": "Label added to the task."}


@tool(app=APP, writes=True, requires=REQ)
def todoist_remove_label_from_task(world, task_id: int, label_id: int) -> dict:
    """Take a label off a task.

    Args:
        task_id: id of the task.
        label_id: id of the label.
    """
    get_task(world, task_id)
    link = world.first(TASK_LABELS, task_id=task_id, label_id=label_id)
    if link is None:
        raise NotFound(f"the task does not have label {label_id}")
    world.delete(TASK_LABELS, link["id"])
    return {"message": "Label removed from the task."}
