"""todoist: every tool, success and error paths, sharing and cascades, against real world state."""

import json

import pytest

from mmtsb_env.apps.todoist.tables import (
    ATTACHMENTS, COMMENTS, INVITES, LABELS, LINKS, NOTIFICATIONS, PROJECTS, SECTIONS, SUB_TASKS, TASK_LABELS, TASKS,
    USERS,
)
from mmtsb_env.world import World, build_layer
from mmtsb_env.world.base import base_world

SCENARIO = ("official_scenarios", "nominal", "scenario_0006.json")
# Deliberate differences from tools.tsv: name -> parameters we add at the end, and why.
EXTRA_PARAMS = {
    "todoist_update_task": (["project_id", "section_id"], "lets a task move to another project or section"),
}


def _project(world, name):
    """The device owner's (visible) project with this name."""
    me = world.user_id
    linked = {l["project_id"] for l in world.rows(LINKS) if l["user_id"] == me}
    return next(p for p in world.rows(PROJECTS) if p["name"] == name and (p["user_id"] == me or p["id"] in linked))


def _tasks(world, project_name, **equals):
    pid = _project(world, project_name)["id"]
    return sorted(world.select(TASKS, project_id=pid, **equals), key=lambda t: t["id"])


def _user(world, user_id):
    return world.get(USERS, user_id)


def _members(world, project):
    return [l["user_id"] for l in sorted(world.select(LINKS, project_id=project["id"]), key=lambda l: l["id"])]


def _foreign_task(world):
    """A task in a project the device owner cannot see."""
    me = world.user_id
    return next(t for t in sorted(world.rows(TASKS), key=lambda t: t["id"])
                if world.get(PROJECTS, t["project_id"])["user_id"] != me
                and world.first(LINKS, project_id=t["project_id"], user_id=me) is None)


def _others_comment(world):
    """A comment written by another member on a task of a project shared with the owner."""
    club = _project(world, "Book Club")
    task = min(world.select(TASKS, project_id=club["id"]), key=lambda t: t["id"])
    world.insert(COMMENTS, {"id": 99999, "task_id": task["id"], "user_id": club["user_id"], "content": "Chapter 3?"})
    return world.get(COMMENTS, 99999)


def _all_view_tasks(view):
    return view["no_section_tasks"] + [t for s in view["sections"] for t in s["tasks"]]


# ====================================================================== catalog and base data
def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog("todoist", EXTRA_PARAMS, count=56)
    for name, (extra, _why) in EXTRA_PARAMS.items():
        assert [p.name for p in ours[name].params] == [p.name for p in reference.tools("todoist")[name]] + extra, name
    for name, tool in ours.items():
        assert "network" in tool.requires, name


def test_base_data(world, reference):
    me = world.user_id
    linked = {l["project_id"] for l in world.rows(LINKS) if l["user_id"] == me}
    owned = [p for p in world.rows(PROJECTS) if p["user_id"] == me]
    assert len(owned) >= 13 and sum(p["is_inbox"] for p in owned) == 1
    shared_in = [p for p in world.rows(PROJECTS) if p["id"] in linked and p["user_id"] != me]
    assert len(shared_in) >= 2
    visible = {p["id"] for p in owned} | linked
    tasks = [t for t in world.rows(TASKS) if t["project_id"] in visible]
    assert len(tasks) >= 300
    titles = {t["title"] for t in tasks}
    assert {"Call plumber about the leak", "Call plumber about the kitchen leak"} <= titles
    assert any(t["assignee_id"] not in (None, me) for t in tasks) and any(t["assignee_id"] == me for t in tasks)
    assert any(t["due_date"] for t in tasks) and any(t["is_completed"] for t in tasks)
    # other people have private projects with the same names as the owner's
    assert any(p["name"] == "Groceries" and p["user_id"] != me for p in world.rows(PROJECTS))
    assert world.count(INVITES, invitee_id=me) >= 1 and world.count(NOTIFICATIONS, user_id=me) >= 2
    # the columns named by the reference scenario
    spec = json.loads(reference.path(*SCENARIO).read_text())["appworld_entities"]
    for table in ("todoist.projects", "todoist.tasks", "todoist.project_collaborator_links"):
        assert set(spec[table][0]) <= set(next(iter(world.rows(table))))


def test_scenario_0006_rows_fit_and_flow(call, reference):
    """Rows of the reference scenario load as-is; completing, commenting and deleting give the expected diff."""
    base = base_world(0)
    spec = json.loads(reference.path(*SCENARIO).read_text())
    rows = {t: r for t, r in spec["appworld_entities"].items() if t.startswith("todoist.")}
    world = World(base.layer, build_layer(rows, below=base.layer), now=call.world.now, user_id=50)
    run = type(call)(world)
    view = run("todoist_show_tasks", project_id=400)
    assert [t["title"] for t in view["no_section_tasks"]][:2] == ["Find Pfizer event questionnaire", "Locate FASEB receipt"]
    run("todoist_update_task", task_id=6500, is_completed=True)
    run("todoist_post_task_comment", task_id=6500, content="5/20/98, HEATHMAN LODGE")
    run("todoist_delete_project", project_id=400)
    diff = world.diff()
    assert [r["id"] for r in diff[PROJECTS].deleted] == [400]
    assert world.count(TASKS, project_id=400) == 0 and world.count(LINKS, project_id=400) == 0
    assert world.count(COMMENTS, task_id=6500) == 0  # the comment went away with its task (cascade) ...
    assert not diff[COMMENTS]  # ... so the final world has no new comment,
    # but the diff remembers the comment the episode posted and the cascade removed
    assert [r["content"] for r in diff[COMMENTS].carried_off] == ["5/20/98, HEATHMAN LODGE"]
    assert {r["id"] for r in diff[TASKS].deleted} == set(range(6500, 6506))
    assert not diff[TASKS].carried_off  # staged tasks are deletions, never carried off


def test_only_rows_removed_with_their_parent_are_carried_off(call, world):
    """A comment the agent deletes itself is gone; one its task's deletion takes along is carried off."""
    tid = call("todoist_create_task", project_id=0, title="Pack")["task_id"]
    kept = call("todoist_post_task_comment", task_id=tid, content="tent")["task_comment_id"]
    dropped = call("todoist_post_task_comment", task_id=tid, content="stove")["task_comment_id"]
    call("todoist_delete_task_comment", task_comment_id=dropped)
    call("todoist_delete_task", task_id=tid)
    diff = world.diff()
    assert [r["id"] for r in diff[COMMENTS].carried_off] == [kept]
    assert TASKS not in diff  # the task was deleted by its own call, not along with a parent: nothing to remember


# ====================================================================== users and projects
def test_search_users(call, world):
    someone = _user(world, 7)
    hits = call("todoist_search_users", query=f"{someone['first_name']} {someone['last_name']}")
    assert hits[0]["email"] == someone["email"] and "password" not in hits[0]
    assert len(call("todoist_search_users", page_limit=20)) == 20
    page1 = call("todoist_search_users", page_index=1, page_limit=3)
    assert [u["id"] for u in page1] == [4, 5, 6]
    assert "page_limit" in call.fail("todoist_search_users", page_limit=0)


def test_create_and_show_projects(call, world):
    pid = call("todoist_create_project", name="Moving Abroad", color="green", description="Visa and shipping",
               is_favorite=True)["project_id"]
    row = world.get(PROJECTS, pid)
    assert (row["user_id"], row["name"], row["color"], row["is_inbox"], row["created_at"]) == (
        world.user_id, "Moving Abroad", "green", False, "2026-04-16T23:51:15")
    link = world.first(LINKS, project_id=pid)
    assert link["user_id"] == world.user_id and link["is_favorite"] is True
    newest = call("todoist_show_projects", page_limit=1)
    assert newest[0]["project_id"] == pid and newest[0]["is_favorite"] is True
    shown = call("todoist_show_project", project_id=pid)
    assert shown["owner"]["id"] == world.user_id and shown["num_tasks"] == 0
    assert call("todoist_show_project", project_id=0)["is_inbox"] is True
    found = call("todoist_show_projects", query="visa shipping")
    assert found[0]["project_id"] == pid
    greens = call("todoist_show_projects", color="green", page_limit=20)
    assert greens and all(p["color"] == "green" for p in greens)
    favs = call("todoist_show_projects", is_favorite=True, page_limit=20)
    assert {p["name"] for p in favs} >= {"Moving Abroad", "Work", "Groceries"}
    by_name = call("todoist_show_projects", sort_by="+name", page_limit=3)
    assert [p["name"] for p in by_name] == sorted(p["name"] for p in by_name)
    everything = call("todoist_show_projects", page_limit=20) + call("todoist_show_projects", page_limit=20, page_index=1)
    assert "Book Club" in {p["name"] for p in everything}  # shared with the owner
    assert sum(1 for p in everything if p["name"] == "Groceries") == 1  # others' Groceries stay hidden


def test_project_errors(call, world):
    other = next(p for p in world.rows(PROJECTS) if p["user_id"] != world.user_id and not p["is_inbox"]
                 and world.first(LINKS, project_id=p["id"], user_id=world.user_id) is None)
    assert "does not exist" in call.fail("todoist_show_project", project_id=other["id"])
    assert "does not exist" in call.fail("todoist_update_project", project_id=other["id"], name="Mine now")
    assert "does not exist" in call.fail("todoist_delete_project", project_id=999999)
    assert "name must not be empty" in call.fail("todoist_create_project", name="  ")
    assert "'color'" in call.fail("todoist_create_project", name="X", color="purple")
    assert "sort_by" in call.fail("todoist_show_projects", sort_by="-color")
    assert "nothing to update" in call.fail("todoist_update_project", project_id=0)
    assert "cannot be renamed" in call.fail("todoist_update_project", project_id=0, name="Stuff")
    assert "cannot be deleted" in call.fail("todoist_delete_project", project_id=0)
    book_club = _project(world, "Book Club")
    assert "only the project owner" in call.fail("todoist_delete_project", project_id=book_club["id"])


def test_update_project(call, world):
    work = _project(world, "Work")
    call("todoist_update_project", project_id=work["id"], name="Day Job", color="red", description="Acme Inc.")
    row = world.get(PROJECTS, work["id"])
    assert (row["name"], row["color"], row["description"]) == ("Day Job", "red", "Acme Inc.")
    call("todoist_update_project", project_id=work["id"], is_archived=True, is_favorite=False)
    link = world.first(LINKS, project_id=work["id"], user_id=world.user_id)
    assert link["is_archived"] is True and link["is_favorite"] is False
    archived = call("todoist_show_projects", is_archived=True)
    assert [p["name"] for p in archived] == ["Day Job"]
    # a collaborator's flags are their own: the owner's link of a shared project is untouched
    club = _project(world, "Book Club")
    call("todoist_update_project", project_id=club["id"], is_favorite=True)
    assert world.first(LINKS, project_id=club["id"], user_id=world.user_id)["is_favorite"] is True
    assert world.first(LINKS, project_id=club["id"], user_id=club["user_id"])["is_favorite"] is False


def test_delete_project_cascades(call, world):
    trip = _project(world, "Trip to Lisbon")
    task_ids = {t["id"] for t in world.select(TASKS, project_id=trip["id"])}
    assert world.count(SECTIONS, project_id=trip["id"]) == 3
    tid = min(task_ids)
    call("todoist_create_sub_task", task_id=tid, title="Compare airlines")
    cid = call("todoist_post_task_comment", task_id=tid, content="Prices drop on Tuesdays")["task_comment_id"]
    call("todoist_add_label_to_task", task_id=tid, label_id=world.first(LABELS, user_id=world.user_id, name="urgent")["id"])
    world.insert(ATTACHMENTS, {"id": world.new_id(ATTACHMENTS), "task_comment_id": cid, "file_name": "f.txt"})
    call("todoist_delete_project", project_id=trip["id"])
    assert world.get(PROJECTS, trip["id"]) is None
    for table, col in ((TASKS, "project_id"), (SECTIONS, "project_id"), (LINKS, "project_id")):
        assert world.count(table, **{col: trip["id"]}) == 0
    for table in (SUB_TASKS, COMMENTS, TASK_LABELS):
        assert not any(r["task_id"] in task_ids for r in world.rows(table))
    assert world.count(ATTACHMENTS, task_comment_id=cid) == 0
    assert "does not exist" in call.fail("todoist_show_project", project_id=trip["id"])


# ====================================================================== sections
def test_sections(call, world):
    work = _project(world, "Work")
    before = call("todoist_show_sections", project_id=work["id"])
    assert [s["name"] for s in before] == ["This week", "Backlog", "Waiting on others"]
    assert sum(s["num_tasks"] for s in before) == world.count(TASKS, project_id=work["id"]) - len(
        world.select(TASKS, project_id=work["id"], section_id=None))
    top = call("todoist_create_section", project_id=work["id"], name="Today", order_index=0)["section_id"]
    last = call("todoist_create_section", project_id=work["id"], name="Someday")["section_id"]
    mid = call("todoist_create_section", project_id=work["id"], name="Next week", order_index=-2)["section_id"]
    names = [s["name"] for s in call("todoist_show_sections", project_id=work["id"])]
    assert names == ["Today", "This week", "Backlog", "Waiting on others", "Next week", "Someday"]
    call("todoist_update_section", section_id=last, name="Maybe later", order_index=1)
    names = [s["name"] for s in call("todoist_show_sections", project_id=work["id"])]
    assert names == ["Today", "Maybe later", "This week", "Backlog", "Waiting on others", "Next week"]
    inbox_section = call("todoist_create_section", project_id=0, name="Errands")["section_id"]
    assert world.get(SECTIONS, inbox_section)["project_id"] == _project(world, "Inbox")["id"]
    backlog = next(s for s in before if s["name"] == "Backlog")
    doomed = {t["id"] for t in world.select(TASKS, section_id=backlog["section_id"])}
    call("todoist_delete_section", section_id=backlog["section_id"])
    assert world.get(SECTIONS, backlog["section_id"]) is None
    assert doomed and not any(world.get(TASKS, t) for t in doomed)
    assert {top, mid} <= {s["id"] for s in world.select(SECTIONS, project_id=work["id"])}


def test_section_errors(call, world):
    world.insert(SECTIONS, {"id": 99999, "project_id": _foreign_task(world)["project_id"], "name": "Hidden"})
    sid = world.first(SECTIONS, name="Backlog")["id"]
    assert "name must not be empty" in call.fail("todoist_create_section", project_id=0, name=" ")
    assert "does not exist" in call.fail("todoist_create_section", project_id=999999, name="X")
    assert "does not exist" in call.fail("todoist_update_section", section_id=999999, name="X")
    assert "nothing to update" in call.fail("todoist_update_section", section_id=sid)
    assert "name must not be empty" in call.fail("todoist_update_section", section_id=sid, name="")
    assert "does not exist" in call.fail("todoist_delete_section", section_id=999999)
    assert "does not exist" in call.fail("todoist_show_sections", project_id=999999)
    assert "does not exist" in call.fail("todoist_delete_section", section_id=99999)
    assert "does not exist" in call.fail("todoist_update_section", section_id=99999, name="Mine")
    assert "does not exist" in call.fail("todoist_create_task", project_id=0, title="x", section_id=99999)


# ====================================================================== collaboration
def test_invite_and_accept(call, world):
    owner = world.user_id
    health = _project(world, "Health")
    guest = _user(world, 12)
    out = call("todoist_send_project_invite", project_id=health["id"], email=guest["email"])
    invite = world.first(INVITES, invite_code=out["invite_code"])
    assert (invite["project_id"], invite["inviter_id"], invite["invitee_id"]) == (health["id"], owner, guest["id"])
    note = world.first(NOTIFICATIONS, user_id=guest["id"], type="project_invite")
    assert note["data"]["invite_code"] == out["invite_code"]
    assert "already has a pending invite" in call.fail("todoist_send_project_invite", project_id=health["id"],
                                                       email=guest["email"])
    # the guest accepts (same device, now acting as the guest)
    world.user_id = guest["id"]
    assert "does not exist" in call.fail("todoist_show_project", project_id=health["id"])
    joined = call("todoist_accept_project_invite", invite_code=out["invite_code"])
    assert joined["project_id"] == health["id"] and world.get(INVITES, invite["id"]) is None
    assert call("todoist_show_project", project_id=health["id"])["name"] == "Health"
    assert world.first(NOTIFICATIONS, user_id=owner, type="project_invite_accepted") is not None
    world.user_id = owner
    assert _members(world, health) == [owner, guest["id"]]
    assert "already a collaborator" in call.fail("todoist_send_project_invite", project_id=health["id"],
                                                 email=guest["email"])


def test_accept_base_invite_and_errors(call, world):
    invite = world.first(INVITES, invitee_id=world.user_id)
    assert "no pending invite" in call.fail("todoist_accept_project_invite", invite_code="NOPE")
    sent = world.first(INVITES, inviter_id=world.user_id)
    assert "no pending invite" in call.fail("todoist_accept_project_invite", invite_code=sent["invite_code"])
    call("todoist_accept_project_invite", invite_code=invite["invite_code"])
    project = world.get(PROJECTS, invite["project_id"])
    assert world.user_id in _members(world, project)
    assert call("todoist_show_project", project_id=project["id"])["num_tasks"] > 0
    assert "no pending invite" in call.fail("todoist_accept_project_invite", invite_code=invite["invite_code"])


def test_send_invite_errors(call, world):
    health = _project(world, "Health")
    assert "there is no todoist user" in call.fail("todoist_send_project_invite", project_id=health["id"],
                                                   email="nobody@nowhere.example")
    assert "cannot be shared" in call.fail("todoist_send_project_invite", project_id=0, email=_user(world, 5)["email"])
    assert "does not exist" in call.fail("todoist_send_project_invite", project_id=999999, email=_user(world, 5)["email"])


def test_delete_invites(call, world):
    received = world.first(INVITES, invitee_id=world.user_id)
    sent = world.first(INVITES, inviter_id=world.user_id)
    call("todoist_delete_project_invite", invite_code=received["invite_code"])
    call("todoist_delete_project_invite", invite_code=sent["invite_code"])
    assert world.get(INVITES, received["id"]) is None and world.get(INVITES, sent["id"]) is None
    assert "no pending invite" in call.fail("todoist_delete_project_invite", invite_code=sent["invite_code"])
    world.insert(INVITES, {"id": 999, "project_id": 1, "inviter_id": 5, "invitee_id": 6, "invite_code": "OTHERS"})
    assert "no pending invite" in call.fail("todoist_delete_project_invite", invite_code="OTHERS")


def test_remove_collaborators(call, world):
    launch = _project(world, "Q2 Marketing Launch")
    members = _members(world, launch)
    victim = members[1]
    first = min(t["id"] for t in world.select(TASKS, project_id=launch["id"]))
    world.update(TASKS, first, assignee_id=victim, assigner_id=world.user_id)
    assigned = world.select(TASKS, project_id=launch["id"], assignee_id=victim)
    call("todoist_remove_collaborator_from_project", project_id=launch["id"], email=_user(world, victim)["email"])
    assert victim not in _members(world, launch)
    assert all(world.get(TASKS, t["id"])["assignee_id"] is None for t in assigned)
    assert "is not a collaborator" in call.fail("todoist_remove_collaborator_from_project", project_id=launch["id"],
                                                email=_user(world, victim)["email"])
    assert "owner cannot be removed" in call.fail("todoist_remove_collaborator_from_project", project_id=launch["id"],
                                                  email=_user(world, world.user_id)["email"])
    club = _project(world, "Book Club")
    other_member = [m for m in _members(world, club) if m not in (club["user_id"], world.user_id)][0]
    assert "only the project owner" in call.fail("todoist_remove_collaborator_from_project", project_id=club["id"],
                                                 email=_user(world, other_member)["email"])
    assert "owner cannot be removed" in call.fail("todoist_remove_collaborator_from_project", project_id=club["id"],
                                                  email=_user(world, club["user_id"])["email"])
    call("todoist_remove_collaborator_from_project", project_id=club["id"], email=_user(world, world.user_id)["email"])
    assert "does not exist" in call.fail("todoist_show_project", project_id=club["id"])


# ====================================================================== tasks
def test_create_task_and_order(call, world):
    work = _project(world, "Work")
    week = world.first(SECTIONS, project_id=work["id"], name="This week")["id"]
    first = call("todoist_create_task", project_id=work["id"], title="Prepare demo", section_id=week, order_index=0,
                 due_date="2026-04-20", priority="high", duration=30, duration_unit="minutes")["task_id"]
    row = world.get(TASKS, first)
    assert (row["project_id"], row["section_id"], row["user_id"], row["due_date"], row["priority"], row["duration"],
            row["duration_unit"], row["is_completed"], row["description"]) == (
        work["id"], week, world.user_id, "2026-04-20", "high", 30.0, "minutes", False, "")
    second = call("todoist_create_task", project_id=work["id"], title="Book room", section_id=week, order_index=1)["task_id"]
    view = call("todoist_show_tasks", project_id=work["id"], section_id=week)
    titles = [t["title"] for t in view["sections"][0]["tasks"]]
    assert titles[:2] == ["Prepare demo", "Book room"] and world.get(TASKS, second)["priority"] == "medium"
    inbox_task = call("todoist_create_task", project_id=0, title="Buy stamps", due_date="2026-04-18T10:00:00Z")["task_id"]
    row = world.get(TASKS, inbox_task)
    assert row["project_id"] == _project(world, "Inbox")["id"] and row["due_date"] == "2026-04-18"
    assert call("todoist_show_tasks", project_id=0)["no_section_tasks"][-1]["title"] == "Buy stamps"


@pytest.mark.parametrize("kwargs, message", [
    (dict(title=" "), "title must not be empty"),
    (dict(priority="urgent"), "'priority'"),
    (dict(due_date="next friday"), "YYYY-MM-DD"),
    (dict(duration=30.0), "duration_unit"),
    (dict(duration_unit="hours"), "needs a duration"),
    (dict(duration=-1.0, duration_unit="hours"), "0 or more"),
    (dict(duration_unit="weeks", duration=1.0), "'duration_unit'"),
    (dict(project_id=999999), "does not exist"),
    (dict(section_id=999999), "does not exist"),
])
def test_create_task_errors(call, kwargs, message):
    args = dict(project_id=0, title="Something")
    args.update(kwargs)
    assert message in call.fail("todoist_create_task", **args)


def test_create_task_in_other_projects_section(call, world):
    garden = world.first(SECTIONS, name="Maintenance")
    assert "belongs to another project" in call.fail("todoist_create_task", project_id=0, title="x",
                                                     section_id=garden["id"])


def test_show_tasks_filters(call, world):
    groceries = _project(world, "Groceries")
    pid = groceries["id"]
    today = call("todoist_create_task", project_id=pid, title="Buy flowers", due_date="2026-04-16")["task_id"]
    late = call("todoist_create_task", project_id=pid, title="Buy candles", due_date="2026-04-01", priority="low")["task_id"]
    view = call("todoist_show_tasks", project_id=pid)
    tasks = view["no_section_tasks"]
    assert view["project_name"] == "Groceries" and len(tasks) == world.count(TASKS, project_id=pid)
    assert [t["order_index"] for t in tasks] == sorted(t["order_index"] for t in tasks)
    assert [t["task_id"] for t in call("todoist_show_tasks", project_id=pid, due_today=True)["no_section_tasks"]] == [today]
    overdue = call("todoist_show_tasks", project_id=pid, overdue=True)["no_section_tasks"]
    assert late in [t["task_id"] for t in overdue]
    assert all(t["due_date"] < "2026-04-16" and not t["is_completed"] for t in overdue)
    window = call("todoist_show_tasks", project_id=pid, min_due_date="2026-04-01", max_due_date="2026-04-30")
    assert all("2026-04-01" <= t["due_date"] <= "2026-04-30" for t in window["no_section_tasks"])
    assert {today, late} <= {t["task_id"] for t in window["no_section_tasks"]}
    done = call("todoist_show_tasks", project_id=pid, is_completed=True)["no_section_tasks"]
    assert len(done) == world.count(TASKS, project_id=pid, is_completed=True)
    lows = call("todoist_show_tasks", project_id=pid, priority="low")["no_section_tasks"]
    assert lows and all(t["priority"] == "low" for t in lows)
    by_priority = call("todoist_show_tasks", project_id=pid, sort_by="-priority")["no_section_tasks"]
    ranks = {"low": 1, "medium": 2, "high": 3}
    assert [ranks[t["priority"]] for t in by_priority] == sorted((ranks[t["priority"]] for t in by_priority), reverse=True)
    by_due = call("todoist_show_tasks", project_id=pid, sort_by="+due_date")["no_section_tasks"]
    dated = [t["due_date"] for t in by_due if t["due_date"]]
    assert dated == sorted(dated) and all(t["due_date"] is None for t in by_due[len(dated):])
    label = world.first(LABELS, user_id=world.user_id, name="errand")
    call("todoist_add_label_to_task", task_id=today, label_id=label["id"])
    tagged = call("todoist_show_tasks", project_id=pid, label_id=label["id"])["no_section_tasks"]
    assert today in [t["task_id"] for t in tagged] and all(
        "errand" in [l["name"] for l in t["labels"]] for t in tagged)


def test_show_tasks_sections_and_people(call, world):
    launch = _project(world, "Q2 Marketing Launch")
    view = call("todoist_show_tasks", project_id=launch["id"])
    assert [s["name"] for s in view["sections"]] == ["Content", "Campaign", "Analytics"]
    assert len(_all_view_tasks(view)) == world.count(TASKS, project_id=launch["id"])
    unsectioned = call("todoist_show_tasks", project_id=launch["id"], section_id=0)
    assert unsectioned["sections"] == [] and all(t["section_id"] is None for t in unsectioned["no_section_tasks"])
    assigned = next(t for t in world.select(TASKS, project_id=launch["id"]) if t["assignee_id"])
    email = _user(world, assigned["assignee_id"])["email"]
    mine = _all_view_tasks(call("todoist_show_tasks", project_id=launch["id"], assignee_email=email))
    assert assigned["id"] in [t["task_id"] for t in mine] and all(t["assignee"]["email"] == email for t in mine)
    by = _user(world, assigned["assigner_id"])["email"]
    assert all(t["assigner"]["email"] == by for t in _all_view_tasks(
        call("todoist_show_tasks", project_id=launch["id"], assigner_email=by)))


def test_show_tasks_errors(call, world):
    pid = _project(world, "Groceries")["id"]
    assert "sort_by" in call.fail("todoist_show_tasks", project_id=pid, sort_by="title")
    assert "YYYY-MM-DD" in call.fail("todoist_show_tasks", project_id=pid, min_due_date="soon")
    assert "must not be after" in call.fail("todoist_show_tasks", project_id=pid, min_due_date="2026-05-01",
                                            max_due_date="2026-04-01")
    assert "is not a section" in call.fail("todoist_show_tasks", project_id=pid,
                                           section_id=world.first(SECTIONS, name="Backlog")["id"])
    assert "no todoist user" in call.fail("todoist_show_tasks", project_id=pid, assignee_email="ghost@x.org")
    assert "does not exist" in call.fail("todoist_show_tasks", project_id=999999)


def test_show_task(call, world):
    owned = {p["id"] for p in world.rows(PROJECTS) if p["user_id"] == world.user_id}
    task = next(t for t in world.rows(TASKS) if t["project_id"] in owned and world.count(SUB_TASKS, task_id=t["id"]) >= 2)
    shown = call("todoist_show_task", task_id=task["id"])
    assert shown["title"] == task["title"] and len(shown["sub_tasks"]) == world.count(SUB_TASKS, task_id=task["id"])
    assert [s["order_index"] for s in shown["sub_tasks"]] == sorted(s["order_index"] for s in shown["sub_tasks"])
    assert shown["creator"]["id"] == task["user_id"] and shown["project_id"] == task["project_id"]
    foreign = _foreign_task(world)
    assert "does not exist" in call.fail("todoist_show_task", task_id=foreign["id"])
    for name in ("todoist_delete_task", "todoist_show_sub_tasks", "todoist_show_task_comments"):
        assert "does not exist" in call.fail(name, task_id=foreign["id"])
    assert "does not exist" in call.fail("todoist_update_task", task_id=foreign["id"], title="mine")
    assert "does not exist" in call.fail("todoist_post_task_comment", task_id=foreign["id"], content="hi")
    assert "does not exist" in call.fail("todoist_show_task", task_id=999999)


def test_assign_and_unassign(call, world):
    launch = _project(world, "Q2 Marketing Launch")
    task = min(world.select(TASKS, project_id=launch["id"]), key=lambda t: t["id"])
    world.update(TASKS, task["id"], assignee_id=None, assigner_id=None)
    mate = _user(world, _members(world, launch)[2])
    call("todoist_assign_or_unassign_task", task_id=task["id"], assignee_email=mate["email"])
    row = world.get(TASKS, task["id"])
    assert (row["assignee_id"], row["assigner_id"]) == (mate["id"], world.user_id)
    note = [n for n in world.diff()[NOTIFICATIONS].created if n["user_id"] == mate["id"]]
    assert note and note[0]["type"] == "task_assigned" and note[0]["data"]["task_id"] == task["id"]
    call("todoist_assign_or_unassign_task", task_id=task["id"])
    row = world.get(TASKS, task["id"])
    assert row["assignee_id"] is None and row["assigner_id"] is None
    assert "not assigned" in call.fail("todoist_assign_or_unassign_task", task_id=task["id"])
    stranger = next(u for u in world.rows(USERS) if u["id"] not in _members(world, launch))
    assert "not a member" in call.fail("todoist_assign_or_unassign_task", task_id=task["id"], assignee_email=stranger["email"])
    assert "no todoist user" in call.fail("todoist_assign_or_unassign_task", task_id=task["id"], assignee_email="x@y.z")
    assert "does not exist" in call.fail("todoist_assign_or_unassign_task", task_id=999999)


def test_update_task_fields_and_completion(call, world):
    launch = _project(world, "Q2 Marketing Launch")
    task = min(world.select(TASKS, project_id=launch["id"]), key=lambda t: t["id"])
    mate = _user(world, _members(world, launch)[1])
    world.update(TASKS, task["id"], assignee_id=world.user_id, assigner_id=mate["id"], is_completed=False)
    sub = call("todoist_create_sub_task", task_id=task["id"], title="Draft outline")["sub_task_id"]
    call("todoist_update_task", task_id=task["id"], title="Write launch blog post v2", description="1200 words",
         due_date="2026-04-30", duration=2, duration_unit="hours", priority="high", is_completed=True)
    row = world.get(TASKS, task["id"])
    assert (row["title"], row["description"], row["due_date"], row["duration"], row["duration_unit"], row["priority"],
            row["is_completed"]) == ("Write launch blog post v2", "1200 words", "2026-04-30", 2.0, "hours", "high", True)
    assert world.get(SUB_TASKS, sub)["is_completed"] is True  # completing a task completes its sub-tasks
    done = [n for n in world.diff()[NOTIFICATIONS].created if n["type"] == "task_completed"]
    assert [n["user_id"] for n in done] == [mate["id"]]
    call("todoist_update_task", task_id=task["id"], due_date="None", duration=0, is_completed=False)
    row = world.get(TASKS, task["id"])
    assert (row["due_date"], row["duration"], row["duration_unit"], row["is_completed"]) == (None, None, None, False)
    call("todoist_update_task", task_id=task["id"], duration=45, duration_unit="minutes")
    call("todoist_update_task", task_id=task["id"], duration=50)
    assert (world.get(TASKS, task["id"])["duration"], world.get(TASKS, task["id"])["duration_unit"]) == (50.0, "minutes")


def test_update_task_order_and_move(call, world):
    groceries = _project(world, "Groceries")
    ordered = [t["task_id"] for t in call("todoist_show_tasks", project_id=groceries["id"])["no_section_tasks"]]
    last = ordered[-1]
    call("todoist_update_task", task_id=last, order_index=0)
    now = [t["task_id"] for t in call("todoist_show_tasks", project_id=groceries["id"])["no_section_tasks"]]
    assert now == [last] + ordered[:-1]
    call("todoist_update_task", task_id=last, order_index=2)
    now = [t["task_id"] for t in call("todoist_show_tasks", project_id=groceries["id"])["no_section_tasks"]]
    assert now[2] == last and len(now) == len(ordered)
    changed = [u for u in world.diff().get(TASKS).updated]
    assert {after["id"] for _, after in changed} == {last}  # siblings keep their order_index
    # move to another project's section, then out of the section
    reno = _project(world, "Home Renovation")
    kitchen = world.first(SECTIONS, project_id=reno["id"], name="Kitchen")
    call("todoist_update_task", task_id=last, project_id=reno["id"], section_id=kitchen["id"])
    row = world.get(TASKS, last)
    assert (row["project_id"], row["section_id"]) == (reno["id"], kitchen["id"])
    kitchen_tasks = call("todoist_show_tasks", project_id=reno["id"], section_id=kitchen["id"])["sections"][0]["tasks"]
    assert kitchen_tasks[-1]["task_id"] == last
    call("todoist_update_task", task_id=last, section_id=0)
    assert world.get(TASKS, last)["section_id"] is None
    call("todoist_update_task", task_id=last, project_id=0)
    assert world.get(TASKS, last)["project_id"] == _project(world, "Inbox")["id"]


def test_moving_shared_task_drops_outside_assignee(call, world):
    launch = _project(world, "Q2 Marketing Launch")
    task = min(world.select(TASKS, project_id=launch["id"]), key=lambda t: t["id"])
    world.update(TASKS, task["id"], assignee_id=_members(world, launch)[1], assigner_id=world.user_id)
    call("todoist_update_task", task_id=task["id"], project_id=0)
    assert world.get(TASKS, task["id"])["assignee_id"] is None


def test_update_task_errors(call, world):
    task = _tasks(world, "Groceries")[0]
    assert "nothing to update" in call.fail("todoist_update_task", task_id=task["id"])
    assert "title must not be empty" in call.fail("todoist_update_task", task_id=task["id"], title="")
    assert "'priority'" in call.fail("todoist_update_task", task_id=task["id"], priority="p1")
    assert "YYYY-MM-DD" in call.fail("todoist_update_task", task_id=task["id"], due_date="someday")
    assert "0 or more" in call.fail("todoist_update_task", task_id=task["id"], duration=-5)
    assert "does not exist" in call.fail("todoist_update_task", task_id=999999, title="x")
    kitchen = world.first(SECTIONS, name="Kitchen")
    assert "is not a section" in call.fail("todoist_update_task", task_id=task["id"], section_id=kitchen["id"])
    assert "does not exist" in call.fail("todoist_update_task", task_id=task["id"], project_id=999999)
    no_duration = next(t for t in _tasks(world, "Groceries") if t["duration"] is None)
    assert "has no duration" in call.fail("todoist_update_task", task_id=no_duration["id"], duration_unit="hours")


def test_delete_task_cascades(call, world):
    task = _tasks(world, "Groceries")[0]
    sub = call("todoist_create_sub_task", task_id=task["id"], title="Check the fridge")["sub_task_id"]
    comment = call("todoist_post_task_comment", task_id=task["id"], content="Only organic")["task_comment_id"]
    label = world.first(LABELS, user_id=world.user_id, name="weekend")
    if world.first(TASK_LABELS, task_id=task["id"], label_id=label["id"]) is None:
        call("todoist_add_label_to_task", task_id=task["id"], label_id=label["id"])
    call("todoist_delete_task", task_id=task["id"])
    assert world.get(TASKS, task["id"]) is None and world.get(SUB_TASKS, sub) is None
    assert world.get(COMMENTS, comment) is None and world.count(TASK_LABELS, task_id=task["id"]) == 0
    assert "does not exist" in call.fail("todoist_delete_task", task_id=task["id"])


# ====================================================================== sub-tasks
def test_sub_tasks(call, world):
    task = _tasks(world, "Health")[0]
    before = world.count(SUB_TASKS, task_id=task["id"])
    a = call("todoist_create_sub_task", task_id=task["id"], title="Find insurance card", due_date="2026-04-20",
             priority="high", duration=10, duration_unit="minutes")["sub_task_id"]
    b = call("todoist_create_sub_task", task_id=task["id"], title="Call the clinic", order_index=0)["sub_task_id"]
    row = world.get(SUB_TASKS, a)
    assert (row["task_id"], row["due_date"], row["priority"], row["duration"], row["is_completed"]) == (
        task["id"], "2026-04-20", "high", 10.0, False)
    listed = call("todoist_show_sub_tasks", task_id=task["id"])
    assert len(listed) == before + 2 and listed[0]["sub_task_id"] == b and listed[-1]["sub_task_id"] == a
    call("todoist_update_sub_task", sub_task_id=a, title="Find the insurance card", is_completed=True, order_index=0,
         due_date="None", duration=0)
    row = world.get(SUB_TASKS, a)
    assert (row["title"], row["is_completed"], row["due_date"], row["duration"]) == ("Find the insurance card", True, None, None)
    assert call("todoist_show_sub_tasks", task_id=task["id"])[0]["sub_task_id"] == a
    call("todoist_update_sub_task", sub_task_id=b, description="ask for Dr. Lee", priority="low")
    assert world.get(SUB_TASKS, b)["priority"] == "low"
    call("todoist_delete_sub_task", sub_task_id=b)
    assert world.get(SUB_TASKS, b) is None


def test_sub_task_errors(call, world):
    task = _tasks(world, "Health")[0]
    sub = call("todoist_create_sub_task", task_id=task["id"], title="x")["sub_task_id"]
    assert "title must not be empty" in call.fail("todoist_create_sub_task", task_id=task["id"], title=" ")
    assert "does not exist" in call.fail("todoist_create_sub_task", task_id=999999, title="x")
    assert "'priority'" in call.fail("todoist_create_sub_task", task_id=task["id"], title="x", priority="asap")
    assert "duration_unit" in call.fail("todoist_create_sub_task", task_id=task["id"], title="x", duration=5)
    assert "nothing to update" in call.fail("todoist_update_sub_task", sub_task_id=sub)
    assert "does not exist" in call.fail("todoist_update_sub_task", sub_task_id=999999, title="y")
    assert "does not exist" in call.fail("todoist_delete_sub_task", sub_task_id=999999)
    assert "does not exist" in call.fail("todoist_show_sub_tasks", task_id=999999)
    foreign_task = _foreign_task(world)
    world.insert(SUB_TASKS, {"id": 99999, "task_id": foreign_task["id"], "title": "hidden"})
    assert "does not exist" in call.fail("todoist_update_sub_task", sub_task_id=99999, title="mine")
    assert "does not exist" in call.fail("todoist_delete_sub_task", sub_task_id=99999)
    assert "does not exist" in call.fail("todoist_show_sub_tasks", task_id=foreign_task["id"])


# ====================================================================== labels
def test_labels(call, world):
    lid = call("todoist_create_label", name="Errand run", color="green")["label_id"]
    assert world.get(LABELS, lid)["user_id"] == world.user_id
    found = call("todoist_search_labels", query="errand")
    assert {l["name"] for l in found} == {"errand", "Errand run"}
    greens = call("todoist_search_labels", color="green", page_limit=20)
    assert greens and all(l["color"] == "green" for l in greens)
    mine = call("todoist_search_labels", page_limit=20)
    assert len(mine) == world.count(LABELS, user_id=world.user_id)
    task = _tasks(world, "Car Maintenance")[0]
    call("todoist_add_label_to_task", task_id=task["id"], label_id=lid)
    on_task = call("todoist_search_labels", task_id=task["id"], page_limit=20)
    assert lid in [l["label_id"] for l in on_task]
    off_task = call("todoist_search_labels", task_id=task["id"], task_attached=False, page_limit=20)
    assert lid not in [l["label_id"] for l in off_task]
    assert len(on_task) + len(off_task) == world.count(LABELS, user_id=world.user_id)
    assert call("todoist_show_label", label_id=lid) == {"label_id": lid, "name": "Errand run", "color": "green",
                                                        "creator": call("todoist_show_label", label_id=lid)["creator"]}
    call("todoist_update_label", label_id=lid, name="Errands", color="yellow")
    assert (world.get(LABELS, lid)["name"], world.get(LABELS, lid)["color"]) == ("Errands", "yellow")
    call("todoist_remove_label_from_task", task_id=task["id"], label_id=lid)
    assert world.first(TASK_LABELS, task_id=task["id"], label_id=lid) is None
    call("todoist_add_label_to_task", task_id=task["id"], label_id=lid)
    call("todoist_delete_label", label_id=lid)
    assert world.get(LABELS, lid) is None and world.count(TASK_LABELS, label_id=lid) == 0


def test_label_errors(call, world):
    mine = world.first(LABELS, user_id=world.user_id, name="urgent")
    other = next(l for l in world.rows(LABELS) if l["user_id"] != world.user_id)
    task = _tasks(world, "Car Maintenance")[0]
    assert "already have a label" in call.fail("todoist_create_label", name="URGENT")
    assert "name must not be empty" in call.fail("todoist_create_label", name="")
    assert "'color'" in call.fail("todoist_create_label", name="x", color="pink")
    assert "already have a label" in call.fail("todoist_update_label", label_id=mine["id"], name="home")
    assert "nothing to update" in call.fail("todoist_update_label", label_id=mine["id"])
    assert "does not exist" in call.fail("todoist_update_label", label_id=other["id"], name="mine")
    assert "does not exist" in call.fail("todoist_delete_label", label_id=other["id"])
    assert "does not exist" in call.fail("todoist_add_label_to_task", task_id=task["id"], label_id=other["id"])
    assert "does not exist" in call.fail("todoist_show_label", label_id=999999)
    if world.first(TASK_LABELS, task_id=task["id"], label_id=mine["id"]) is None:
        call("todoist_add_label_to_task", task_id=task["id"], label_id=mine["id"])
    assert "already has this label" in call.fail("todoist_add_label_to_task", task_id=task["id"], label_id=mine["id"])
    call("todoist_remove_label_from_task", task_id=task["id"], label_id=mine["id"])
    assert "does not have label" in call.fail("todoist_remove_label_from_task", task_id=task["id"], label_id=mine["id"])
    assert "does not exist" in call.fail("todoist_search_labels", task_id=999999)
    # another user's label is public when shown by id
    assert call("todoist_show_label", label_id=other["id"])["creator"]["id"] == other["user_id"]


# ====================================================================== comments and attachments
def test_comments(call, world):
    task = _tasks(world, "Finances")[0]
    before = world.count(COMMENTS, task_id=task["id"])
    cid = call("todoist_post_task_comment", task_id=task["id"], content="Sent to the accountant")["task_comment_id"]
    row = world.get(COMMENTS, cid)
    assert (row["task_id"], row["user_id"], row["content"], row["created_at"]) == (
        task["id"], world.user_id, "Sent to the accountant", "2026-04-16T23:51:15")
    listed = call("todoist_show_task_comments", task_id=task["id"], page_limit=20)
    assert len(listed) == before + 1 and listed[-1]["task_comment_id"] == cid
    shown = call("todoist_show_task_comment", task_comment_id=cid)
    assert shown["user"]["id"] == world.user_id and shown["attachment_file_names"] == []
    call("todoist_update_task_comment", task_comment_id=cid, content="Sent to the accountant on Monday")
    assert world.get(COMMENTS, cid)["content"] == "Sent to the accountant on Monday"
    call("todoist_delete_task_comment", task_comment_id=cid)
    assert world.get(COMMENTS, cid) is None


def test_comment_errors(call, world):
    task = _tasks(world, "Finances")[0]
    assert "content must not be empty" in call.fail("todoist_post_task_comment", task_id=task["id"], content=" ")
    assert "does not exist" in call.fail("todoist_post_task_comment", task_id=999999, content="x")
    others = _others_comment(world)
    assert call("todoist_show_task_comment", task_comment_id=others["id"])["content"] == "Chapter 3?"  # shared task
    assert "only edit your own" in call.fail("todoist_update_task_comment", task_comment_id=others["id"], content="x")
    assert "only delete your own" in call.fail("todoist_delete_task_comment", task_comment_id=others["id"])
    mine = call("todoist_post_task_comment", task_id=task["id"], content="draft")["task_comment_id"]
    assert "non-empty content" in call.fail("todoist_update_task_comment", task_comment_id=mine)
    assert "does not exist" in call.fail("todoist_show_task_comment", task_comment_id=999999)
    assert "does not exist" in call.fail("todoist_show_task_comments", task_id=999999)
    assert "page_limit" in call.fail("todoist_show_task_comments", task_id=task["id"], page_limit=50)
    assert "file_system_access_token" in call.fail("todoist_post_task_comment", task_id=task["id"], content="x",
                                                   attachment_file_paths=["~/quote.txt"])


def test_attachments_round_trip_with_file_system(call, world):
    task = _tasks(world, "Home Renovation")[0]
    call("file_system_create_file", file_path="~/quote.txt", content="Cabinets: $4,200")
    cid = call("todoist_post_task_comment", task_id=task["id"], content="Quote attached",
               attachment_file_paths=["~/quote.txt"], file_system_access_token="fs-token")["task_comment_id"]
    assert call("todoist_show_task_comment", task_comment_id=cid)["attachment_file_names"] == ["quote.txt"]
    assert world.first(ATTACHMENTS, task_comment_id=cid)["content"] == "Cabinets: $4,200"
    call("file_system_create_file", file_path="~/floor.txt", content="Oak, 40 m2")
    out = call("todoist_upload_attachment", task_comment_id=cid, upload_from_file_path="~/floor.txt",
               file_system_access_token="fs-token")
    assert out["attachment_file_name"] == "floor.txt"
    assert "already has an attachment" in call.fail("todoist_upload_attachment", task_comment_id=cid,
                                                    upload_from_file_path="~/floor.txt", file_system_access_token="t")
    call("file_system_update_file", file_path="~/floor.txt", content="Walnut, 40 m2")
    call("todoist_upload_attachment", task_comment_id=cid, upload_from_file_path="~/floor.txt",
         file_system_access_token="t", overwrite=True)
    assert world.first(ATTACHMENTS, task_comment_id=cid, file_name="floor.txt")["content"] == "Walnut, 40 m2"
    saved = call("todoist_download_attachment", task_comment_id=cid, attachment_file_name="quote.txt",
                 file_system_access_token="t")
    assert saved["file_path"].endswith("/downloads/quote.txt")
    assert call("file_system_show_file", file_path=saved["file_path"])["content"] == "Cabinets: $4,200"
    assert "already exists" in call.fail("todoist_download_attachment", task_comment_id=cid,
                                         attachment_file_name="quote.txt", file_system_access_token="t")
    again = call("todoist_download_attachment", task_comment_id=cid, attachment_file_name="floor.txt",
                 file_system_access_token="t", download_to_file_path="~/renovation_floor.txt")
    assert again["file_path"].endswith("/renovation_floor.txt")
    call("todoist_delete_attachment", task_comment_id=cid, attachment_file_name="quote.txt")
    assert call("todoist_show_task_comment", task_comment_id=cid)["attachment_file_names"] == ["floor.txt"]
    call("todoist_delete_task_comment", task_comment_id=cid)
    assert world.count(ATTACHMENTS, task_comment_id=cid) == 0


def test_attachment_errors(call, world):
    task = _tasks(world, "Home Renovation")[0]
    cid = call("todoist_post_task_comment", task_id=task["id"], content="note")["task_comment_id"]
    others = _others_comment(world)
    assert "not" in call.fail("todoist_upload_attachment", task_comment_id=cid, upload_from_file_path="~/missing.txt",
                              file_system_access_token="t").lower()
    assert "file_system_access_token" in call.fail("todoist_upload_attachment", task_comment_id=cid,
                                                   upload_from_file_path="~/x.txt", file_system_access_token=" ")
    assert "own comments" in call.fail("todoist_upload_attachment", task_comment_id=others["id"],
                                       upload_from_file_path="~/x.txt", file_system_access_token="t")
    assert "no attachment named" in call.fail("todoist_download_attachment", task_comment_id=cid,
                                              attachment_file_name="nope.pdf", file_system_access_token="t")
    assert "no attachment named" in call.fail("todoist_delete_attachment", task_comment_id=cid,
                                              attachment_file_name="nope.pdf")
    assert "own comments" in call.fail("todoist_delete_attachment", task_comment_id=others["id"],
                                       attachment_file_name="x")
    assert "does not exist" in call.fail("todoist_download_attachment", task_comment_id=999999,
                                         attachment_file_name="x", file_system_access_token="t")
    call("file_system_logout")
    world.insert(ATTACHMENTS, {"id": world.new_id(ATTACHMENTS), "task_comment_id": cid, "file_name": "a.txt",
                               "content": "A"})
    assert "not logged in to file_system" in call.fail("todoist_download_attachment", task_comment_id=cid,
                                                       attachment_file_name="a.txt", file_system_access_token="t")


# ====================================================================== notifications
def test_notifications(call, world):
    mine = world.select(NOTIFICATIONS, user_id=world.user_id)
    others_before = world.count(NOTIFICATIONS) - len(mine)
    unread = [n for n in mine if not n["read"]]
    assert call("todoist_show_notifications_count") == {"notifications_count": len(mine)}
    assert call("todoist_show_notifications_count", read=False) == {"notifications_count": len(unread)}
    page = call("todoist_show_notifications", page_limit=20)
    assert len(page) == len(mine) and [n["created_at"] for n in page] == sorted((n["created_at"] for n in page), reverse=True)
    assert all(not n["read"] for n in call("todoist_show_notifications", read=False, page_limit=20))
    first = unread[0]["id"]
    call("todoist_mark_notification", notification_id=first, read=True)
    assert world.get(NOTIFICATIONS, first)["read"] is True
    call("todoist_mark_notification", notification_id=first, read=True)  # idempotent
    call("todoist_mark_notifications", read=True)
    assert call("todoist_show_notifications_count", read=False) == {"notifications_count": 0}
    call("todoist_mark_notifications", read=False)
    assert call("todoist_show_notifications_count", read=True) == {"notifications_count": 0}
    call("todoist_delete_notification", notification_id=first)
    assert world.get(NOTIFICATIONS, first) is None
    call("todoist_delete_notifications")
    assert world.count(NOTIFICATIONS, user_id=world.user_id) == 0 and world.count(NOTIFICATIONS) == others_before


def test_notification_errors(call, world):
    other = next(n for n in world.rows(NOTIFICATIONS) if n["user_id"] != world.user_id) \
        if any(n["user_id"] != world.user_id for n in world.rows(NOTIFICATIONS)) else None
    if other is None:
        world.insert(NOTIFICATIONS, {"id": 5000, "user_id": 9, "type": "x"})
        other = world.get(NOTIFICATIONS, 5000)
    assert "does not exist" in call.fail("todoist_delete_notification", notification_id=other["id"])
    assert "does not exist" in call.fail("todoist_mark_notification", notification_id=other["id"], read=True)
    assert "does not exist" in call.fail("todoist_mark_notification", notification_id=999999, read=False)
    assert "'read'" in call.fail("todoist_mark_notifications", read="yes")
    assert "page_index" in call.fail("todoist_show_notifications", page_index=-1)


# ====================================================================== account and device requirements
def test_account_tools_and_requirements(call, world):
    me = _user(world, world.user_id)
    assert call("todoist_show_account")["email"] == me["email"]
    assert call("todoist_show_profile", email=_user(world, 3)["email"])["id"] == 3
    call("todoist_update_account_name", first_name="Meg")
    assert world.get(USERS, world.user_id)["first_name"] == "Meg"
    call("todoist_logout")
    assert "not logged in" in call.fail("todoist_show_projects")
    assert "not logged in" in call.fail("todoist_create_task", project_id=0, title="x")
    assert "invalid username or password" in call.fail("todoist_login", username=me["email"], password="wrong")
    call("todoist_login", username=me["email"], password=me["password"])
    assert call("todoist_show_projects")
    call.go_offline()
    assert "no network" in call.fail("todoist_show_projects")
    assert "no network" in call.fail("todoist_show_label", label_id=1)


def test_account_signup_and_verification(call, world):
    call("todoist_signup", first_name="New", last_name="Person", email="new.person@example.com", password="secret1")
    user = world.first(USERS, email="new.person@example.com")
    assert user["verified"] is False
    assert "already exists" in call.fail("todoist_signup", first_name="A", last_name="B",
                                         email="new.person@example.com", password="secret1")
    call("todoist_send_verification_code", email="new.person@example.com")
    code = world.first("device.verification_codes", app="todoist", identity="new.person@example.com")["code"]
    assert "invalid" in call.fail("todoist_verify_account", email="new.person@example.com", verification_code="000")
    call("todoist_verify_account", email="new.person@example.com", verification_code=code)
    assert world.get(USERS, user["id"])["verified"] is True
    call("todoist_send_password_reset_code", email="new.person@example.com")
    reset = [c for c in world.select("device.verification_codes", app="todoist", purpose="password_reset")][0]["code"]
    call("todoist_reset_password", email="new.person@example.com", password_reset_code=reset, new_password="better1")
    assert world.get(USERS, user["id"])["password"] == "better1"
    call("todoist_login", username="new.person@example.com", password="better1")
    world.user_id = user["id"]
    assert call("todoist_show_projects") == []  # a brand-new account has no projects
    call("todoist_delete_account")
    assert world.get(USERS, user["id"]) is None
