"""Todoist: projects, sections, tasks, sub-tasks, labels, comments, notifications and their writes."""

from typing import Any

from ..rows import OWNER, Look, Read, Rows, Write, table

PROJECTS = Rows("todoist.projects", lambda r, wi: r.get("user_id") == wi.owner_id and not r.get("is_inbox"), unique="name")
TASKS = Rows("todoist.tasks", {"user_id": OWNER, "is_completed": False}, unique="title")
SUBTASKS = Rows("todoist.sub_tasks", lambda r, wi: _owned(wi, "todoist.tasks", r.get("task_id")) and not r.get("is_completed"))
LABELS = Rows("todoist.labels", {"user_id": OWNER}, unique="name")
MY_COMMENTS = Rows("todoist.task_comments", {"user_id": OWNER})
SECTIONS = Rows("todoist.sections", lambda r, wi: _owned(wi, "todoist.projects", r.get("project_id")), unique="name")
NOTES = Rows("todoist.notifications", {"user_id": OWNER})
NAMES = ("Home repairs", "Trip planning", "Reading list", "Garden")


def _owned(wi, table: str, key) -> bool:  # sub-tasks and sections belong to the owner through their task / project
    return (wi.tables.get(table, {}).get(key) or {}).get("user_id") == wi.owner_id


ROWS = table(
    "todoist",
    Read("todoist_show_project", {"project_id": "{id}"}, "color",
         ("What color is my Todoist project '{name}'?", "colour of the '{name}' project?"), "'{name}' is {v}.", PROJECTS,
         pre=(("todoist_show_projects", {"query": "{name}"}),)),
    Read("todoist_show_project", {"project_id": "{id}"}, "collaborators.#",
         ("How many people are on my Todoist project '{name}'?", "collaborators on '{name}'?"), "'{name}' has {v} people.", PROJECTS),
    Read("todoist_show_sections", {"project_id": "{id}"}, "#",
         ("How many sections does my Todoist project '{name}' have?", "sections in '{name}'?"), "'{name}' has {v} sections.", PROJECTS),
    Read("todoist_show_task", {"task_id": "{id}"}, "due_date",
         ("When is my Todoist task '{title}' due?", "due date of '{title}'?"), "'{title}' is due {v}.", TASKS),
    Read("todoist_show_task", {"task_id": "{id}"}, "priority",
         ("What priority does my task '{title}' have?", "priority of '{title}' in todoist?"), "'{title}' has {v} priority.", TASKS),
    Read("todoist_show_sub_tasks", {"task_id": "{task_id}"}, "#",
         ("How many sub-tasks does Todoist task {task_id} have?", "sub-task count on task {task_id}?"), "Task {task_id} has {v} sub-tasks.",
         SUBTASKS),
    Read("todoist_show_task_comments", {"task_id": "{task_id}"}, "#",
         ("How many comments are on Todoist task {task_id}?", "comments on task {task_id}?"), "Task {task_id} has {v} comments.",
         MY_COMMENTS),
    Read("todoist_show_task_comment", {"task_comment_id": "{id}"}, "content",
         ("What did my Todoist comment {id} say?", "read me todoist comment {id}"), "It says: {v}", MY_COMMENTS),
    Read("todoist_search_labels", {"query": "{name}"}, "0.color",
         ("What color is my Todoist label '{name}'?", "colour of the '{name}' label?"), "The '{name}' label is {v}.", LABELS),
    Read("todoist_show_label", {"label_id": "{id}"}, "name",
         ("What's the name of my Todoist label {id}?", "label {id} in todoist is called what?"), "Label {id} is '{v}'.", LABELS),
    Read("todoist_show_notifications", {"page_limit": 1}, "0.title",
         ("What's my newest Todoist notification about?", "latest todoist notification?"), "It's '{v}'."),
    Read("todoist_show_notifications_count", {}, "notifications_count",
         ("How many Todoist notifications do I have?", "todoist notifications, how many?"), "You have {v} Todoist notifications."),
    Read("todoist_search_users", {"query": "{me_email}"}, "0.first_name",
         ("Which first name does Todoist show for {me_email}?", "todoist user {me_email}: first name?"), "Todoist shows {v}."),
    Write("todoist_create_project", {"name": "{p}"}, ("Create a Todoist project called '{p}'.", "new todoist project '{p}'"),
          "I created the project '{p}'.", ("create", "todoist.projects"), values={"p": NAMES}),
    Write("todoist_update_project", {"project_id": "{id}", "name": "{p}"},
          ("Rename my Todoist project '{name}' to '{p}'.", "call the '{name}' project '{p}'"),
          "The project is now '{p}'.", ("update", "todoist.projects"), PROJECTS, values={"p": NAMES}),
    Write("todoist_update_project", {"project_id": "{id}", "is_favorite": True},
          ("Mark my Todoist project '{name}' as a favorite.", "favorite the '{name}' project"),
          "'{name}' is a favorite now.", ("update", "todoist.project_collaborator_links"), PROJECTS),
    Write("todoist_delete_project", {"project_id": "{id}"},
          ("Delete my Todoist project '{name}' with everything in it.", "remove the '{name}' project"),
          "I deleted '{name}'.", ("delete", "todoist.projects"), PROJECTS),
    Write("todoist_create_section", {"project_id": "{id}", "name": "{s}"},
          ("Add a section '{s}' to my Todoist project '{name}'.", "new section '{s}' in '{name}'"),
          "I added '{s}' to '{name}'.", ("create", "todoist.sections"), PROJECTS, values={"s": ("Next up", "Waiting on others")}),
    Write("todoist_update_section", {"section_id": "{id}", "name": "{s}"},
          ("Rename the Todoist section '{name}' to '{s}'.", "section '{name}' should be called '{s}'"),
          "The section is now '{s}'.", ("update", "todoist.sections"), SECTIONS, values={"s": ("Later", "In progress")}),
    Write("todoist_delete_section", {"section_id": "{id}"}, ("Delete the Todoist section '{name}'.", "remove the section '{name}'"),
          "I deleted the section '{name}'.", ("delete", "todoist.sections"), SECTIONS),
    Write("todoist_create_task", {"project_id": "{id}", "title": "{t}"},
          ("Add a task '{t}' to my Todoist project '{name}'.", "todoist: new task '{t}' in '{name}'"),
          "I added '{t}' to '{name}'.", ("create", "todoist.tasks"), PROJECTS,
          values={"t": ("Call the plumber", "Order new filters", "Renew passport")}),
    Write("todoist_update_task", {"task_id": "{id}", "due_date": "{d}"},
          ("Move my Todoist task '{title}' to {d}.", "push '{title}' to {d}"),
          "'{title}' is now due {d}.", ("update", "todoist.tasks"), TASKS, values={"d": ("2026-06-12", "2026-06-20")}),
    Write("todoist_update_task", {"task_id": "{id}", "is_completed": True},
          ("Tick off my Todoist task '{title}', it's done.", "mark '{title}' complete"),
          "'{title}' is completed.", ("update", "todoist.tasks"), TASKS),
    Write("todoist_delete_task", {"task_id": "{id}"}, ("Delete my Todoist task '{title}'.", "remove the task '{title}'"),
          "I deleted '{title}'.", ("delete", "todoist.tasks"), TASKS),
    Write("todoist_create_sub_task", {"task_id": "{id}", "title": "{t}"},
          ("Add a sub-task '{t}' under my Todoist task '{title}'.", "sub-task '{t}' for '{title}' please"),
          "I added '{t}' under '{title}'.", ("create", "todoist.sub_tasks"), TASKS, values={"t": ("Get a quote", "Check the receipt")}),
    Write("todoist_update_sub_task", {"sub_task_id": "{id}", "is_completed": True},
          ("Mark the sub-task '{title}' of Todoist task {task_id} as done.", "tick the sub-task '{title}' under task {task_id}"),
          "'{title}' is done.", ("update", "todoist.sub_tasks"), SUBTASKS),
    Write("todoist_delete_sub_task", {"sub_task_id": "{id}"}, ("Delete the sub-task '{title}' of Todoist task {task_id}.", "remove sub-task '{title}' from task {task_id}"),
          "I deleted '{title}'.", ("delete", "todoist.sub_tasks"), SUBTASKS),
    Write("todoist_create_label", {"name": "{l}"}, ("Create a Todoist label '{l}'.", "new label '{l}' in todoist"),
          "I created the label '{l}'.", ("create", "todoist.labels"), values={"l": ("someday", "waiting", "weekend")}),
    Write("todoist_update_label", {"label_id": "{id}", "color": "{c}"},
          ("Make my Todoist label '{name}' {c}.", "change the '{name}' label colour to {c}"),
          "'{name}' is {c} now.", ("update", "todoist.labels"), LABELS, values={"c": ("blue", "orange", "violet")}),
    Write("todoist_delete_label", {"label_id": "{id}"}, ("Delete my Todoist label '{name}'.", "remove the '{name}' label"),
          "I deleted the label '{name}'.", ("delete", "todoist.labels"), LABELS),
    Write("todoist_update_task_comment", {"task_comment_id": "{id}", "content": "{c}"},
          ("Edit my Todoist comment {id} to '{c}'.", "change todoist comment {id} to say '{c}'"),
          "Comment {id} now says '{c}'.", ("update", "todoist.task_comments"), MY_COMMENTS,
          values={"c": ("Done on my side.", "Waiting for the invoice.")}),
    Write("todoist_delete_task_comment", {"task_comment_id": "{id}"},
          ("Delete my Todoist comment {id}.", "remove comment {id} in todoist"),
          "I deleted comment {id}.", ("delete", "todoist.task_comments"), MY_COMMENTS),
    Write("todoist_mark_notifications", {"read": True}, ("Mark all my Todoist notifications read.", "clear todoist notifications badge"),
          "All Todoist notifications are read.", ("update", "todoist.notifications")),
    Write("todoist_delete_notification", {"notification_id": "{id}"},
          ("Delete Todoist notification {id}.", "remove todoist notification {id}"),
          "I deleted notification {id}.", ("delete", "todoist.notifications"), NOTES),
)


def _other_project(b: Any, row: dict[str, Any]) -> dict[str, Any]:
    """An old task lives in another of the owner"s projects (the target"s project keeps its order)."""
    projects = [p["id"] for p in b.wi.tables.get("todoist.projects", {}).values()
                if p.get("user_id") == b.wi.owner_id and p["id"] != row.get("project_id")]
    return {"project_id": b.rng.choice(sorted(projects)), "section_id": None, "order_index": 1} if projects else {}


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {
    "todoist.tasks": Look("title", text=("description",), when=("due_date", "created_at"), fixed={"is_completed": True}, by="name", vary=_other_project),
}
