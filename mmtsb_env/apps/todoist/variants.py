"""Todoist: project, section, task, sub-task, label and comment CRUD (medium, mostly shared with
compact, which adds listing to sections and sub-tasks and a collaboration tool); one tool (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "todoist_"

_PROJECT = dict(create="create_project", show="show_project", update="update_project", delete="delete_project")
_PROJECT_MORE = dict(list="show_projects", send_invite="send_project_invite", accept_invite="accept_project_invite",
                     delete_invite="delete_project_invite", remove_collaborator="remove_collaborator_from_project")
_SECTION = dict(create="create_section", update="update_section", delete="delete_section")
_TASK = dict(create="create_task", show="show_task", update="update_task", delete="delete_task")
_TASK_MORE = dict(list="show_tasks", assign="assign_or_unassign_task", add_label="add_label_to_task",
                  remove_label="remove_label_from_task")
_SUB_TASK = dict(create="create_sub_task", update="update_sub_task", delete="delete_sub_task")
_LABEL = dict(create="create_label", show="show_label", update="update_label", delete="delete_label")
_COMMENT = dict(post="post_task_comment", show="show_task_comment", update="update_task_comment",
                delete="delete_task_comment")
_ATTACHMENT = dict(upload_attachment="upload_attachment", download_attachment="download_attachment",
                   delete_attachment="delete_attachment")

# ---------------------------------------------------------------- medium
for _entity, _routes, _what in (("project", _PROJECT, "Create, show, update or delete a Todoist project."),
                                ("section", _SECTION, "Create, rename/reorder or delete a section of a Todoist project."),
                                ("task", _TASK, "Create, show, update or delete a Todoist task."),
                                ("sub_task", _SUB_TASK, "Create, update or delete a sub-task of a Todoist task."),
                                ("label", _LABEL, "Create, show, update or delete a Todoist label."),
                                ("comment", _COMMENT, "Post, show, update or delete a comment on a Todoist task.")):
    shared = _entity in ("project", "task", "label", "comment")
    consolidate(f"todoist_manage_{_entity}", app="todoist", toolboxes=("medium", "compact") if shared else ("medium",),
                summary=_what,
                routes=actions(P, **_routes))

# ---------------------------------------------------------------- compact
consolidate("todoist_sections", app="todoist", toolboxes=("compact",),
            summary="Sections of a Todoist project: list, create, update or delete.",
            routes=actions(P, list="show_sections", **_SECTION))
consolidate("todoist_sub_tasks", app="todoist", toolboxes=("compact",),
            summary="Sub-tasks of a Todoist task: list, create, update or delete.",
            routes=actions(P, list="show_sub_tasks", **_SUB_TASK))
consolidate("todoist_collaboration", app="todoist", toolboxes=("compact",),
            summary="Share Todoist projects: invite someone, accept or withdraw an invitation, remove a collaborator.",
            routes=actions(P, **{k: v for k, v in _PROJECT_MORE.items() if k != "list"}))

# ---------------------------------------------------------------- mini
consolidate("todoist", app="todoist", toolboxes=("mini",), selectors=("entity", "action"),
            selector_docs={"entity": "project, section, task, sub_task, label or comment", "action": "what to do"},
            summary="Everything in Todoist: projects (with invitations and collaborators), sections, tasks "
                    "(assign, labels), sub-tasks, labels, and task comments with attachments.",
            routes={(e, a): P + s for e, acts in (
                ("project", {**_PROJECT_MORE, **_PROJECT}), ("section", {"list": "show_sections", **_SECTION}),
                ("task", {**_TASK_MORE, **_TASK}), ("sub_task", {"list": "show_sub_tasks", **_SUB_TASK}),
                ("label", {"search": "search_labels", **_LABEL}),
                ("comment", {"list": "show_task_comments", **_COMMENT, **_ATTACHMENT})) for a, s in acts.items()})
