"""gmail: all 48 tools against the gmail tables, with success and error paths."""

from __future__ import annotations

from collections import Counter

import pytest

from mmtsb_env.apps.gmail.tables import (ATTACHMENTS, DRAFTS, EMAIL_STATES, EMAILS, GLOBAL_THREADS, THREAD_STATES, USER_THREADS,
                                         USERS)

DOMAIN = "gmail"
NOW = "2026-04-16T23:51:15"
READERS = {
    "gmail_show_account", "gmail_show_profile", "gmail_search_users", "gmail_search_labels", "gmail_show_inbox_threads",
    "gmail_show_outbox_threads", "gmail_show_snoozed_threads", "gmail_show_starred_threads",
    "gmail_show_archived_threads", "gmail_show_spam_threads", "gmail_show_category_sizes", "gmail_show_thread",
    "gmail_show_email", "gmail_show_drafts", "gmail_show_draft",
}


# ----------------------------------------------------------------------------- helpers
def visible(world, user_id=None):
    """{thread id: [emails oldest first]} of a user's mailbox, computed straight from the tables."""
    uid = world.user_id if user_id is None else user_id
    deleted = {s["email_id"] for s in world.rows(EMAIL_STATES) if s["user_id"] == uid and s["deleted"]}
    out: dict[int, list] = {}
    for e in world.rows(EMAILS):
        if (e["sender_id"] == uid or uid in e["recipient_ids"]) and e["id"] not in deleted:
            out.setdefault(e["email_thread_id"], []).append(e)
    for emails in out.values():
        emails.sort(key=lambda e: (e["created_at"], e["id"]))
    return out


def thread_state(world, thread_id):
    return world.first(THREAD_STATES, user_id=world.user_id, email_thread_id=thread_id) or {}


def all_pages(call, name, **args):
    out, page = [], 0
    while True:
        chunk = call(name, page_limit=20, page_index=page, **args)
        out.extend(chunk)
        if len(chunk) < 20:
            return out
        page += 1


def email_of(world, user_id):
    return world.get(USERS, user_id)["email"]


def received_thread(world, min_emails=2):
    """A plain inbox thread (no flags) where the last email was written by someone else."""
    for tid, emails in sorted(visible(world).items()):
        if len(emails) >= min_emails and emails[-1]["sender_id"] != world.user_id and not thread_state(world, tid):
            return tid, emails
    raise AssertionError("no such thread")


def foreign_thread(world):
    mine = set(visible(world))
    return next(e for e in world.rows(EMAILS) if e["email_thread_id"] not in mine)


def as_user(world, user_id, fn):
    saved = world.user_id
    world.user_id = user_id
    try:
        return fn()
    finally:
        world.user_id = saved


# ----------------------------------------------------------------------------- catalog
def test_catalog_matches_reference(reference):
    ours = reference.assert_matches_catalog(DOMAIN, count=48)
    for name, tool in ours.items():
        assert "network" in tool.requires
        assert tool.writes == (name not in READERS), name
        if name not in {"gmail_signup", "gmail_login", "gmail_send_password_reset_code", "gmail_reset_password"}:
            assert "login:gmail" in tool.requires, name
    defaults = {p.name: p.default for p in ours["gmail_show_inbox_threads"].params}
    assert defaults["archived"] is False and defaults["spam"] is False and defaults["min_created_at"] == "1500-01-01"


def test_base_mailbox(world):
    box = visible(world)
    emails = [e for thread in box.values() for e in thread]
    assert len(emails) >= 300 and len(box) >= 120
    assert sum(1 for e in emails if e["sender_id"] == world.user_id) >= 80
    assert sum(1 for t in box.values() if len({u for e in t for u in [e["sender_id"], *e["recipient_ids"]]}) > 2) >= 10
    subjects = Counter(t[0]["subject"] for t in box.values())
    assert "Team offsite planning - updated agenda" in subjects and "Dinner on Friday" in subjects
    assert any(n >= 2 for n in subjects.values())
    assert sum(1 for e in emails if e["attachment_ids"]) >= 15
    # Replies thread correctly.
    for thread in box.values():
        for prev, nxt in zip(thread, thread[1:]):
            assert nxt["response_to_email_id"] == prev["id"] and nxt["subject"] == "Re: " + thread[0]["subject"]
    states = [s for s in world.rows(THREAD_STATES) if s["user_id"] == world.user_id]
    assert sum(s["spam"] for s in states) >= 3 and sum(s["starred"] for s in states) >= 5
    assert sum(bool(s["snoozed_until"]) for s in states) >= 2 and sum(bool(s["label"]) for s in states) >= 10
    unread = [e for e in emails if world.user_id in e["recipient_ids"]
              and not world.first(EMAIL_STATES, user_id=world.user_id, email_id=e["id"])]
    assert 5 <= len(unread) <= 60
    assert world.count(DRAFTS, user_id=world.user_id) >= 8
    assert any(d["belongs_to_email_thread_id"] for d in world.rows(DRAFTS) if d["user_id"] == world.user_id)
    assert len(visible(world)) < len({e["email_thread_id"] for e in world.rows(EMAILS)})  # others' threads exist


# ----------------------------------------------------------------------------- account tools
def test_account_tools(call, world):
    me = world.get(USERS, world.user_id)
    acct = call("gmail_show_account")
    assert acct["email"] == me["email"] and "password" not in acct
    assert call("gmail_show_profile")["email"] == me["email"]
    assert call("gmail_show_profile", email=email_of(world, 5))["id"] == 5
    assert "no gmail user" in call.fail("gmail_show_profile", email="ghost@nowhere.com")
    call("gmail_update_account_name", last_name="Chang-Lee")
    assert world.get(USERS, world.user_id)["last_name"] == "Chang-Lee"
    new = call("gmail_signup", first_name="Eco", last_name="Research", email="research@ecofriendly.org", password="secret1")
    assert world.get(USERS, new["user_id"])["email"] == "research@ecofriendly.org"
    assert "already exists" in call.fail("gmail_signup", first_name="A", last_name="B", email=me["email"], password="secret1")
    call("gmail_send_password_reset_code", email=me["email"])
    code = next(r for r in world.rows("device.verification_codes") if r["app"] == "gmail")["code"]
    assert "invalid or expired" in call.fail("gmail_reset_password", email=me["email"], password_reset_code="1", new_password="abcdefg")
    call("gmail_reset_password", email=me["email"], password_reset_code=code, new_password="abcdefg")
    call("gmail_logout")
    assert "not logged in" in call.fail("gmail_show_inbox_threads")
    assert "invalid username" in call.fail("gmail_login", username=me["email"], password=me["password"])
    call("gmail_login", username=me["email"], password="abcdefg")
    assert call("gmail_show_inbox_threads", page_limit=1)
    call("gmail_delete_account")
    assert world.get(USERS, world.user_id) is None
    assert "not logged in" in call.fail("gmail_show_account")


def test_needs_network(call):
    call("set_low_battery_mode_status", on=True)
    assert "no network" in call.fail("gmail_show_inbox_threads")
    assert "no network" in call.fail("gmail_send_email", email_addresses=["a@b.c"], subject="s", body="b")


def test_set_status_and_search_users(call, world):
    out = call("gmail_set_status", status="away", status_expiry="2026-04-20|09:00:00")
    row = world.get(USERS, world.user_id)
    assert row["status"] == "away" and row["status_expiry"] == "2026-04-20T09:00:00" and out["status"] == "away"
    call("gmail_set_status", status="active")
    assert world.get(USERS, world.user_id)["status_expiry"] is None
    assert "'status'" in call.fail("gmail_set_status", status="busy")
    assert "future" in call.fail("gmail_set_status", status="away", status_expiry="2020-01-01")
    assert "status_expiry" in call.fail("gmail_set_status", status="away", status_expiry="soon")
    target = world.get(USERS, 9)
    hits = call("gmail_search_users", query=f"{target['first_name']} {target['last_name']}")
    assert hits[0]["id"] == 9 and "password" not in hits[0]
    assert call("gmail_search_users", query=target["email"])[0]["email"] == target["email"]
    assert len(call("gmail_search_users", page_limit=20)) == 20
    assert call("gmail_search_users", query="qqqzzzxx") == []
    assert "page_limit" in call.fail("gmail_search_users", page_limit=50)


# ----------------------------------------------------------------------------- sending
def test_send_email(call, world):
    friend, other = world.get(USERS, 4), world.get(USERS, 5)
    before_threads = {e["email_thread_id"] for e in world.rows(EMAILS)}
    out = call("gmail_send_email", email_addresses=[friend["email"].upper(), other["email"], friend["email"]],
               subject="Study Recommendation", body="Hello team,\nsee below.")
    [email] = world.diff()[EMAILS].created
    assert email == {
        "id": out["email_id"], "sender_id": world.user_id, "recipient_ids": [4, 5], "subject": "Study Recommendation",
        "body": "Hello team,\nsee below.", "attachment_ids": [], "response_to_email_id": None,
        "email_thread_id": out["email_thread_id"], "created_at": NOW,
    }
    assert out["email_thread_id"] not in before_threads
    # no state rows: only the thread's records, one for the thread and one per mailbox holding it
    assert set(world.diff()) == {EMAILS, GLOBAL_THREADS, USER_THREADS}
    [record] = world.diff()[GLOBAL_THREADS].created
    assert record["id"] == out["email_thread_id"] and record["email_ids"] == [out["email_id"]]
    mine = {r["user_id"]: r for r in world.diff()[USER_THREADS].created}
    assert set(mine) == {world.user_id, 4, 5}
    me = world.get(USERS, world.user_id)
    assert {k: mine[world.user_id][k] for k in ("incoming", "outgoing", "read", "label", "sender_names", "recipient_email_addresses")} == {
        "incoming": False, "outgoing": True, "read": True, "label": "SENT", "sender_names": [f"{me['first_name']} {me['last_name']}"],
        "recipient_email_addresses": [friend["email"], other["email"]]}
    assert (mine[4]["incoming"], mine[4]["outgoing"], mine[4]["read"], mine[4]["label"]) == (True, False, False, "INBOX")
    top = call("gmail_show_outbox_threads", page_limit=1)[0]
    assert top["email_thread_id"] == out["email_thread_id"] and top["read"] is True
    # The recipient sees it, unread, in their inbox.
    inbox = as_user(world, 4, lambda: call("gmail_show_inbox_threads", page_limit=1))
    assert inbox[0]["email_thread_id"] == out["email_thread_id"] and inbox[0]["read"] is False


def test_send_email_errors(call, world):
    assert "no gmail user" in call.fail("gmail_send_email", email_addresses=["ghost@nowhere.com"], subject="s", body="b")
    assert "at least one" in call.fail("gmail_send_email", email_addresses=[], subject="s", body="b")
    assert "subject or a body" in call.fail("gmail_send_email", email_addresses=[email_of(world, 4)], subject=" ", body="")
    assert "file_system_access_token" in call.fail(
        "gmail_send_email", email_addresses=[email_of(world, 4)], subject="s", body="b",
        attachment_file_paths=["~/downloads/flight_itinerary.pdf"])
    assert "'email_addresses'" in call.fail("gmail_send_email", email_addresses="a@b.c", subject="s", body="b")


def test_send_to_scenario_user():
    """Like reference scenario 0019: a gmail user added by the scenario, id 200."""
    from datetime import datetime, timezone

    from mmtsb_env.tools.calling import invoke
    from mmtsb_env.world import World, build_layer
    from mmtsb_env.world.base import base_world

    base = base_world(0)
    layer = build_layer({
        USERS: [{"id": 200, "first_name": "Eco", "last_name": "Research", "email": "research@ecofriendly.org",
                 "password": "default_password", "status": "active", "created_at": "2025-01-01T00:00:00",
                 "last_logged_in": "2025-01-01T00:00:00"}],
        DRAFTS: [{"id": 700, "user_id": 1, "recipient_ids": [55], "recipient_email_addresses": ["x@gmail.com"],
                  "recipient_names": ["Glen Moore"], "subject": "Waste Fact of the Day",
                  "body": "Here is the waste fact of the day.", "created_at": "2026-04-16T10:00:00",
                  "updated_at": "2026-04-16T10:00:00"}],
    }, below=base.layer)
    world = World(base.layer, layer, now=datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc), user_id=1)
    assert invoke(world, "gmail_show_draft", {"draft_id": 700}).result["subject"] == "Waste Fact of the Day"
    assert invoke(world, "gmail_update_draft", {"draft_id": 700, "body": "More facts."}).ok
    out = invoke(world, "gmail_send_email", {"email_addresses": ["research@ecofriendly.org"],
                                             "subject": "Study Recommendation: Unilever", "body": "Hello"})
    assert out.ok
    [email] = world.diff()[EMAILS].created
    assert email["sender_id"] == 1 and email["recipient_ids"] == [200] and email["response_to_email_id"] is None
    assert world.diff()[DRAFTS].updated[0][1]["body"] == "More facts."


def test_send_with_attachment_from_file_system(call, world):
    out = call("gmail_send_email", email_addresses=[email_of(world, 4)], subject="Itinerary", body="attached",
               attachment_file_paths=["~/downloads/flight_itinerary.pdf"], file_system_access_token="fs-token")
    email = world.get(EMAILS, out["email_id"])
    [att] = world.diff()[ATTACHMENTS].created
    assert email["attachment_ids"] == [att["id"]] and att["file_name"] == "flight_itinerary.pdf"
    assert "QX7R2P" in att["content"] and att["size"] == len(att["content"].encode())
    shown = call("gmail_show_email", email_id=out["email_id"])
    assert shown["attachments"] == [{"attachment_id": att["id"], "file_name": "flight_itinerary.pdf", "size": att["size"]}]
    assert "does not exist" in call.fail(
        "gmail_send_email", email_addresses=[email_of(world, 4)], subject="s", body="b",
        attachment_file_paths=["~/downloads/nope.txt"], file_system_access_token="t")
    call("file_system_logout")
    assert "file_system" in call.fail(
        "gmail_send_email", email_addresses=[email_of(world, 4)], subject="s", body="b",
        attachment_file_paths=["~/downloads/flight_itinerary.pdf"], file_system_access_token="t")


def test_reply_to_email(call, world):
    tid, emails = received_thread(world)
    last = emails[-1]
    out = call("gmail_reply_to_email", email_thread_id=tid, email_id=last["id"], body="Sounds good!")
    reply = world.get(EMAILS, out["email_id"])
    assert reply["email_thread_id"] == tid and reply["response_to_email_id"] == last["id"]
    assert reply["recipient_ids"] == [last["sender_id"]] and reply["subject"] == "Re: " + emails[0]["subject"]
    assert out["email_thread_id"] == tid
    shown = call("gmail_show_thread", email_thread_id=tid)
    assert [e["email_id"] for e in shown["emails"]][-1] == reply["id"] and shown["email_count"] == len(emails) + 1
    # Replying to one's own email goes to its recipients; explicit addresses override.
    again = call("gmail_reply_to_email", email_thread_id=tid, email_id=reply["id"], body="One more thing.")
    assert world.get(EMAILS, again["email_id"])["recipient_ids"] == [last["sender_id"]]
    third = call("gmail_reply_to_email", email_thread_id=tid, email_id=last["id"], body="FYI",
                 email_addresses=[email_of(world, 6)])
    assert world.get(EMAILS, third["email_id"])["recipient_ids"] == [6]
    assert world.get(EMAILS, third["email_id"])["subject"].count("Re:") == 1


def test_reply_errors(call, world):
    tid, emails = received_thread(world)
    other_tid = next(t for t in visible(world) if t != tid)
    foreign = foreign_thread(world)
    assert "not in email thread" in call.fail("gmail_reply_to_email", email_thread_id=other_tid, email_id=emails[0]["id"], body="x")
    assert "does not exist in your mailbox" in call.fail(
        "gmail_reply_to_email", email_thread_id=foreign["email_thread_id"], email_id=foreign["id"], body="x")
    assert "does not exist in your mailbox" in call.fail("gmail_reply_to_email", email_thread_id=tid, email_id=10**6, body="x")
    assert "body must not be empty" in call.fail("gmail_reply_to_email", email_thread_id=tid, email_id=emails[0]["id"], body=" ")
    assert "no gmail user" in call.fail("gmail_reply_to_email", email_thread_id=tid, email_id=emails[0]["id"], body="x",
                                         email_addresses=["ghost@x.org"])


def test_forward_one_email_and_whole_thread(call, world):
    box = visible(world)
    tid, emails = next((t, e) for t, e in sorted(box.items()) if len(e) >= 2 and e[0]["attachment_ids"])
    out = call("gmail_forward_email_from_thread", email_thread_id=tid, email_id=emails[0]["id"],
               email_addresses=[email_of(world, 7)])
    fwd = world.get(EMAILS, out["email_id"])
    assert fwd["subject"] == "Fwd: " + emails[0]["subject"] and emails[0]["body"] in fwd["body"]
    assert fwd["attachment_ids"] == emails[0]["attachment_ids"] and fwd["email_thread_id"] not in box
    assert fwd["recipient_ids"] == [7] and ATTACHMENTS not in world.diff()
    whole = call("gmail_forward_email_thread", email_thread_id=tid, email_addresses=[email_of(world, 8)])
    body = world.get(EMAILS, whole["email_id"])["body"]
    assert all(e["body"] in body for e in emails) and body.count("Forwarded message") == len(emails)
    drafted = call("gmail_forward_email_thread", email_thread_id=tid, email_addresses=[email_of(world, 8)], draft_not_send=True)
    draft = world.get(DRAFTS, drafted["draft_id"])
    assert draft["user_id"] == world.user_id and draft["recipient_ids"] == [8] and draft["subject"].startswith("Fwd: ")
    assert draft["attachment_ids"] == emails[0]["attachment_ids"]
    one = call("gmail_forward_email_from_thread", email_thread_id=tid, email_id=emails[1]["id"],
               email_addresses=[email_of(world, 9)], draft_not_send=True)
    assert world.get(DRAFTS, one["draft_id"])["body"].count("Forwarded message") == 1
    assert len(world.diff()[EMAILS].created) == 2


def test_forward_errors(call, world):
    tid, emails = received_thread(world)
    foreign = foreign_thread(world)
    assert "no gmail user" in call.fail("gmail_forward_email_thread", email_thread_id=tid, email_addresses=["x@y.zz"])
    assert "at least one" in call.fail("gmail_forward_email_thread", email_thread_id=tid, email_addresses=[])
    assert "does not exist" in call.fail("gmail_forward_email_thread", email_thread_id=foreign["email_thread_id"],
                                         email_addresses=[email_of(world, 3)])
    assert "does not exist" in call.fail("gmail_forward_email_from_thread", email_thread_id=tid, email_id=foreign["id"],
                                         email_addresses=[email_of(world, 3)])


# ----------------------------------------------------------------------------- listing
def test_inbox_and_outbox_lists(call, world):
    box = visible(world)
    uid = world.user_id
    hidden = {tid for tid in box if thread_state(world, tid).get("archived") or thread_state(world, tid).get("spam")
              or (thread_state(world, tid).get("snoozed_until") or "") > NOW}
    inbox = all_pages(call, "gmail_show_inbox_threads")
    expected = {tid for tid, emails in box.items() if any(uid in e["recipient_ids"] for e in emails)} - hidden
    assert {t["email_thread_id"] for t in inbox} == expected
    assert [t["updated_at"] for t in inbox] == sorted((t["updated_at"] for t in inbox), reverse=True)
    outbox = all_pages(call, "gmail_show_outbox_threads")
    assert {t["email_thread_id"] for t in outbox} == {
        tid for tid, emails in box.items() if any(e["sender_id"] == uid for e in emails)} - hidden
    everything = all_pages(call, "gmail_show_inbox_threads", archived=None, spam=None, snoozed=None)
    assert len(everything) > len(inbox) and hidden & {t["email_thread_id"] for t in everything}
    sample = inbox[0]
    assert sample["email_count"] == len(box[sample["email_thread_id"]])
    assert sample["latest_email"]["email_id"] == box[sample["email_thread_id"]][-1]["id"]


def test_list_filters(call, world):
    box = visible(world)
    unread = all_pages(call, "gmail_show_inbox_threads", read=False)
    assert unread and all(not t["read"] for t in unread)
    assert all(t["read"] for t in all_pages(call, "gmail_show_inbox_threads", read=True))
    with_att = all_pages(call, "gmail_show_inbox_threads", attachment=True, archived=None)
    assert with_att and all(any(e["attachment_ids"] for e in box[t["email_thread_id"]]) for t in with_att)
    labelled = all_pages(call, "gmail_show_inbox_threads", label="finance", archived=None)
    assert labelled and all(t["label"] == "Finance" for t in labelled)
    partner = box[with_att[0]["email_thread_id"]][0]["sender_id"]
    partner = partner if partner != world.user_id else box[with_att[0]["email_thread_id"]][0]["recipient_ids"][0]
    frm = all_pages(call, "gmail_show_inbox_threads", from_email=email_of(world, partner).upper(), archived=None, spam=None, snoozed=None)
    assert frm and all(any(e["sender_id"] == partner for e in box[t["email_thread_id"]]) for t in frm)
    to = all_pages(call, "gmail_show_outbox_threads", to_email=email_of(world, partner), archived=None, spam=None, snoozed=None)
    assert all(any(partner in e["recipient_ids"] for e in box[t["email_thread_id"]]) for t in to)
    assert call("gmail_show_inbox_threads", from_email="ghost@nowhere.com") == []
    window = all_pages(call, "gmail_show_inbox_threads", min_created_at="2025-12-01", max_created_at="2025-12-31")
    assert window and all(any("2025-12-01" <= e["created_at"][:10] <= "2025-12-31" for e in box[t["email_thread_id"]])
                          for t in window)
    hits = call("gmail_show_inbox_threads", query="budget review", page_limit=20, archived=None)
    assert hits and all("budget" in " ".join(e["subject"] + e["body"] for e in box[t["email_thread_id"]]).lower()
                        for t in hits[:3])
    by_subject = call("gmail_show_inbox_threads", sort_by="subject", page_limit=10)
    assert [t["subject"] for t in by_subject] == sorted(t["subject"] for t in by_subject)
    oldest = call("gmail_show_inbox_threads", sort_by="created_at", page_limit=3)
    assert oldest[0]["created_at"] <= oldest[1]["created_at"] <= oldest[2]["created_at"]
    assert "sort_by" in call.fail("gmail_show_inbox_threads", sort_by="sender")
    assert "min_created_at" in call.fail("gmail_show_inbox_threads", min_created_at="last week")
    assert "must not be after" in call.fail("gmail_show_outbox_threads", min_created_at="2026-01-02", max_created_at="2026-01-01")
    assert "page_limit" in call.fail("gmail_show_outbox_threads", page_limit=0)
    assert "'starred'" in call.fail("gmail_show_inbox_threads", starred="yes")


def test_category_lists(call, world):
    box = visible(world)
    flagged = {
        "snoozed": lambda state: (state.get("snoozed_until") or "") > NOW,
        "starred": lambda state: state.get("starred"),
        "archived": lambda state: state.get("archived"),
        "spam": lambda state: state.get("spam"),
    }
    for name, test in flagged.items():
        listed = all_pages(call, f"gmail_show_{name}_threads")
        expected = {tid for tid in box if test(thread_state(world, tid))}
        assert listed and {t["email_thread_id"] for t in listed} == expected, name
    starred_unarchived = all_pages(call, "gmail_show_starred_threads", archived=False)
    assert all(not t["archived"] for t in starred_unarchived)
    spam_filter = all_pages(call, "gmail_show_starred_threads", spam=True)
    assert all(t["spam"] and t["starred"] for t in spam_filter)
    snoozed = call("gmail_show_snoozed_threads", page_limit=20)
    assert all(t["snoozed_until"] > NOW for t in snoozed)
    assert "page_index" in call.fail("gmail_show_spam_threads", page_index=-1)
    assert "sort_by" in call.fail("gmail_show_archived_threads", sort_by="nope")
    assert "max_created_at" in call.fail("gmail_show_snoozed_threads", max_created_at="?")
    assert "'read'" in call.fail("gmail_show_starred_threads", read="no")


def test_category_sizes(call, world):
    sizes = call("gmail_show_category_sizes")
    assert sizes["inbox"] == len(all_pages(call, "gmail_show_inbox_threads"))
    assert sizes["outbox"] == len(all_pages(call, "gmail_show_outbox_threads"))
    for name in ("snoozed", "starred", "archived", "spam"):
        assert sizes[name] == len(all_pages(call, f"gmail_show_{name}_threads")), name
    assert sizes["drafts"] == world.count(DRAFTS, user_id=world.user_id)
    unread = call("gmail_show_category_sizes", read=False)
    read = call("gmail_show_category_sizes", read=True)
    assert unread["inbox"] + read["inbox"] == sizes["inbox"] and unread["inbox"] > 0
    assert unread["drafts"] == sizes["drafts"]
    call("gmail_send_email", email_addresses=[email_of(world, 4)], subject="x", body="y")
    assert call("gmail_show_category_sizes")["outbox"] == sizes["outbox"] + 1
    assert "'read'" in call.fail("gmail_show_category_sizes", read="all")


def test_search_labels(call, world):
    labels = call("gmail_search_labels", page_limit=20)
    names = [entry["label"] for entry in labels]
    assert names == sorted(names, key=str.lower) and {"Work", "Finance"} <= set(names)
    work = next(entry for entry in labels if entry["label"] == "Work")
    assert work["thread_count"] == sum(1 for tid in visible(world) if thread_state(world, tid).get("label") == "Work")
    assert [e["label"] for e in call("gmail_search_labels", query="fin")] == ["Finance"]
    assert call("gmail_search_labels", query="zzz") == []
    assert "page_limit" in call.fail("gmail_search_labels", page_limit=99)


# ----------------------------------------------------------------------------- threads and emails
def test_show_thread_and_email(call, world):
    draft = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id and d["belongs_to_email_thread_id"])
    tid = draft["belongs_to_email_thread_id"]
    emails = visible(world)[tid]
    shown = call("gmail_show_thread", email_thread_id=tid)
    assert [e["email_id"] for e in shown["emails"]] == [e["id"] for e in emails]
    assert shown["drafts"][0]["draft_id"] == draft["id"] and shown["subject"] == emails[0]["subject"]
    assert shown["emails"][0]["body"] == emails[0]["body"]
    email = call("gmail_show_email", email_id=emails[0]["id"])
    assert email["sender"]["email"] == email_of(world, emails[0]["sender_id"])
    assert [r["email"] for r in email["recipients"]] == [email_of(world, r) for r in emails[0]["recipient_ids"]]
    foreign = foreign_thread(world)
    assert "does not exist in your mailbox" in call.fail("gmail_show_thread", email_thread_id=foreign["email_thread_id"])
    assert "does not exist in your mailbox" in call.fail("gmail_show_email", email_id=foreign["id"])
    assert "does not exist" in call.fail("gmail_show_email", email_id=10**6)
    assert "'email_thread_id'" in call.fail("gmail_show_thread", email_thread_id="seven")


def test_label_and_unlabel(call, world):
    tid, _ = received_thread(world)
    call("gmail_label_thread", email_thread_id=tid, label="  Tax   2025 ")
    assert thread_state(world, tid)["label"] == "Tax 2025"
    assert [t["email_thread_id"] for t in call("gmail_show_inbox_threads", label="tax 2025")] == [tid]
    assert {"label": "Tax 2025", "thread_count": 1} in call("gmail_search_labels", query="tax")
    call("gmail_unlabel_thread", email_thread_id=tid)
    assert thread_state(world, tid)["label"] is None
    assert "has no label" in call.fail("gmail_unlabel_thread", email_thread_id=tid)
    assert "must not be empty" in call.fail("gmail_label_thread", email_thread_id=tid, label="  ")
    foreign = foreign_thread(world)["email_thread_id"]
    assert "does not exist" in call.fail("gmail_label_thread", email_thread_id=foreign, label="x")
    assert "does not exist" in call.fail("gmail_unlabel_thread", email_thread_id=foreign)


def test_mark_read_and_unread(call, world):
    tid = next(t["email_thread_id"] for t in call("gmail_show_inbox_threads", read=False, page_limit=20)
               if len(visible(world)[t["email_thread_id"]]) >= 1)
    out = call("gmail_mark_thread_read", email_thread_id=tid)
    assert "emails changed" in out["message"]
    assert call("gmail_show_thread", email_thread_id=tid)["read"] is True
    for e in visible(world)[tid]:
        state = world.first(EMAIL_STATES, user_id=world.user_id, email_id=e["id"])
        assert (state and state["read"]) or e["sender_id"] == world.user_id
    assert call("gmail_mark_thread_read", email_thread_id=tid)["message"].endswith("(0 emails changed).")
    call("gmail_mark_thread_unread", email_thread_id=tid)
    shown = call("gmail_show_thread", email_thread_id=tid)
    assert shown["read"] is False and not any(e["read"] for e in shown["emails"])
    # Another participant's read state is untouched.
    other = next(u for e in visible(world)[tid] for u in [e["sender_id"], *e["recipient_ids"]] if u != world.user_id)
    assert all(s["user_id"] == world.user_id for s in world.diff()[EMAIL_STATES].created)
    assert as_user(world, other, lambda: call("gmail_show_thread", email_thread_id=tid))["email_count"] >= 1
    foreign = foreign_thread(world)["email_thread_id"]
    assert "does not exist" in call.fail("gmail_mark_thread_read", email_thread_id=foreign)
    assert "does not exist" in call.fail("gmail_mark_thread_unread", email_thread_id=foreign)


@pytest.mark.parametrize("flag, on, off, listing", [
    ("archived", "gmail_mark_thread_archived", "gmail_mark_thread_unarchived", "gmail_show_archived_threads"),
    ("spam", "gmail_mark_thread_spam", "gmail_mark_thread_not_spam", "gmail_show_spam_threads"),
    ("starred", "gmail_mark_thread_starred", "gmail_mark_thread_unstarred", "gmail_show_starred_threads"),
])
def test_flags(call, world, flag, on, off, listing):
    tid, _ = received_thread(world)
    call(on, email_thread_id=tid)
    assert thread_state(world, tid)[flag] is True
    assert tid in {t["email_thread_id"] for t in all_pages(call, listing)}
    inbox = {t["email_thread_id"] for t in all_pages(call, "gmail_show_inbox_threads")}
    assert (tid in inbox) == (flag == "starred")
    assert "already" in call(on, email_thread_id=tid)["message"]
    call(off, email_thread_id=tid)
    assert thread_state(world, tid)[flag] is False
    assert tid not in {t["email_thread_id"] for t in all_pages(call, listing)}
    assert tid in {t["email_thread_id"] for t in all_pages(call, "gmail_show_inbox_threads")}
    foreign = foreign_thread(world)["email_thread_id"]
    assert "does not exist" in call.fail(on, email_thread_id=foreign)
    assert "does not exist" in call.fail(off, email_thread_id=foreign)


def test_snooze_and_unsnooze(call, world):
    tid, _ = received_thread(world)
    call("gmail_snooze_thread", email_thread_id=tid, snooze_until="2026-04-18|09:00:00")
    assert thread_state(world, tid)["snoozed_until"] == "2026-04-18T09:00:00"
    assert tid in {t["email_thread_id"] for t in call("gmail_show_snoozed_threads", page_limit=20)}
    assert tid not in {t["email_thread_id"] for t in all_pages(call, "gmail_show_inbox_threads")}
    call("gmail_unsnooze_thread", email_thread_id=tid)
    assert thread_state(world, tid)["snoozed_until"] is None
    assert tid in {t["email_thread_id"] for t in all_pages(call, "gmail_show_inbox_threads")}
    assert "not snoozed" in call.fail("gmail_unsnooze_thread", email_thread_id=tid)
    assert "future" in call.fail("gmail_snooze_thread", email_thread_id=tid, snooze_until="2026-04-01|09:00:00")
    assert "snooze_until" in call.fail("gmail_snooze_thread", email_thread_id=tid, snooze_until="next week")
    foreign = foreign_thread(world)["email_thread_id"]
    assert "does not exist" in call.fail("gmail_snooze_thread", email_thread_id=foreign, snooze_until="2027-01-01")
    assert "does not exist" in call.fail("gmail_unsnooze_thread", email_thread_id=foreign)


def test_expired_snooze_returns_to_inbox(call, world):
    tid, _ = received_thread(world)
    world.insert(THREAD_STATES, {"id": 9999, "user_id": world.user_id, "email_thread_id": tid, "snoozed_until": "2026-01-01T00:00:00"})
    assert tid in {t["email_thread_id"] for t in all_pages(call, "gmail_show_inbox_threads")}
    assert "not snoozed" in call.fail("gmail_unsnooze_thread", email_thread_id=tid)


def test_delete_email_in_thread(call, world):
    tid, emails = received_thread(world, min_emails=2)
    victim = emails[0]
    other = victim["sender_id"] if victim["sender_id"] != world.user_id else victim["recipient_ids"][0]
    call("gmail_delete_email_in_thread", email_thread_id=tid, email_id=victim["id"])
    assert world.get(EMAILS, victim["id"]) is not None  # the email itself stays for the others
    shown = call("gmail_show_thread", email_thread_id=tid)
    assert victim["id"] not in [e["email_id"] for e in shown["emails"]] and shown["email_count"] == len(emails) - 1
    assert "does not exist" in call.fail("gmail_show_email", email_id=victim["id"])
    assert as_user(world, other, lambda: call("gmail_show_email", email_id=victim["id"]))["email_id"] == victim["id"]
    assert "does not exist" in call.fail("gmail_delete_email_in_thread", email_thread_id=tid, email_id=victim["id"])
    other_tid = next(t for t in visible(world) if t != tid)
    assert "not in email thread" in call.fail("gmail_delete_email_in_thread", email_thread_id=other_tid, email_id=emails[1]["id"])
    for e in emails[1:]:
        call("gmail_delete_email_in_thread", email_thread_id=tid, email_id=e["id"])
    assert "does not exist" in call.fail("gmail_show_thread", email_thread_id=tid)


def test_delete_thread_removes_its_drafts(call, world):
    draft = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id and d["belongs_to_email_thread_id"])
    tid = draft["belongs_to_email_thread_id"]
    emails = visible(world)[tid]
    other = next(u for e in emails for u in [e["sender_id"], *e["recipient_ids"]] if u != world.user_id)
    call("gmail_label_thread", email_thread_id=tid, label="Doomed")
    call("gmail_delete_thread", email_thread_id=tid)
    assert tid not in visible(world) and world.get(DRAFTS, draft["id"]) is None
    assert not thread_state(world, tid)
    assert "does not exist" in call.fail("gmail_show_thread", email_thread_id=tid)
    assert "does not exist" in call.fail("gmail_delete_thread", email_thread_id=tid)
    assert tid in visible(world, other)
    # A new reply from the other person brings the thread back with just that email.
    owner_email = email_of(world, world.user_id)
    reply = as_user(world, other, lambda: call("gmail_reply_to_email", email_thread_id=tid, email_id=emails[-1]["id"],
                                               body="Did you see this?", email_addresses=[owner_email]))
    shown = call("gmail_show_thread", email_thread_id=tid)
    assert [e["email_id"] for e in shown["emails"]] == [reply["email_id"]] and shown["label"] is None


# ----------------------------------------------------------------------------- drafts
def test_create_show_and_list_drafts(call, world):
    tid, emails = received_thread(world)
    out = call("gmail_create_draft", recipient_email_addresses=[email_of(world, 4)], body="Draft body",
               response_to_email_id=emails[-1]["id"], scheduled_send_at="2026-05-01|08:00:00")
    draft = world.get(DRAFTS, out["draft_id"])
    assert draft["belongs_to_email_thread_id"] == tid and draft["response_to_email_id"] == emails[-1]["id"]
    assert draft["subject"] == "Re: " + emails[0]["subject"] and draft["scheduled_send_at"] == "2026-05-01T08:00:00"
    assert draft["recipient_ids"] == [4] and draft["recipient_names"] == [
        f"{world.get(USERS, 4)['first_name']} {world.get(USERS, 4)['last_name']}"]
    assert draft["created_at"] == draft["updated_at"] == NOW
    shown = call("gmail_show_draft", draft_id=out["draft_id"])
    assert shown["body"] == "Draft body" and shown["recipient_email_addresses"] == [email_of(world, 4)]
    assert call("gmail_show_drafts", page_limit=1)[0]["draft_id"] == out["draft_id"]
    plain = call("gmail_create_draft", recipient_email_addresses=[email_of(world, 5)], body="Hello", subject="Plain")
    assert world.get(DRAFTS, plain["draft_id"])["belongs_to_email_thread_id"] is None
    scheduled = call("gmail_show_drafts", scheduled=True, page_limit=20)
    assert out["draft_id"] in {d["draft_id"] for d in scheduled} and all(d["scheduled_send_at"] for d in scheduled)
    assert plain["draft_id"] in {d["draft_id"] for d in call("gmail_show_drafts", scheduled=False, page_limit=20)}
    assert [d["draft_id"] for d in call("gmail_show_drafts", belongs_to_email_thread_id=tid)] == [out["draft_id"]]
    assert [d["draft_id"] for d in call("gmail_show_drafts", response_to_email_id=emails[-1]["id"])] == [out["draft_id"]]
    assert [d["draft_id"] for d in call("gmail_show_drafts", recipient_email=email_of(world, 5).upper())][0] == plain["draft_id"]
    assert call("gmail_show_drafts", query="Plain")[0]["draft_id"] == plain["draft_id"]
    today = call("gmail_show_drafts", min_created_at="2026-04-16", page_limit=20)
    assert {d["draft_id"] for d in today} == {out["draft_id"], plain["draft_id"]}
    assert all(not d["attachments"] for d in call("gmail_show_drafts", attachment=False, page_limit=20))
    by_subject = call("gmail_show_drafts", sort_by="subject", page_limit=20)
    assert [d["subject"] for d in by_subject] == sorted(d["subject"] for d in by_subject)
    assert "sort_by" in call.fail("gmail_show_drafts", sort_by="body")
    assert "min_created_at" in call.fail("gmail_show_drafts", min_created_at="x")
    other_draft = next(d for d in world.rows(DRAFTS) if d["user_id"] != world.user_id)
    assert "does not exist" in call.fail("gmail_show_draft", draft_id=other_draft["id"])
    assert other_draft["id"] not in {d["draft_id"] for d in all_pages(call, "gmail_show_drafts")}


def test_create_draft_errors(call, world):
    tid, emails = received_thread(world)
    other_tid = next(t for t in visible(world) if t != tid)
    to = [email_of(world, 4)]
    assert "no gmail user" in call.fail("gmail_create_draft", recipient_email_addresses=["nobody@x.io"], body="b")
    assert "at least one" in call.fail("gmail_create_draft", recipient_email_addresses=[], body="b")
    assert "future" in call.fail("gmail_create_draft", recipient_email_addresses=to, body="b", scheduled_send_at="2026-01-01|00:00:00")
    assert "not in thread" in call.fail("gmail_create_draft", recipient_email_addresses=to, body="b",
                                        belongs_to_email_thread_id=other_tid, response_to_email_id=emails[0]["id"])
    foreign = foreign_thread(world)
    assert "does not exist" in call.fail("gmail_create_draft", recipient_email_addresses=to, body="b",
                                         belongs_to_email_thread_id=foreign["email_thread_id"])
    assert "does not exist" in call.fail("gmail_create_draft", recipient_email_addresses=to, body="b",
                                         response_to_email_id=foreign["id"])
    assert "file_system_access_token" in call.fail("gmail_create_draft", recipient_email_addresses=to, body="b",
                                                   attachment_file_paths=["~/downloads/gym_schedule.txt"])


def test_update_draft(call, world):
    draft = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id and not d["belongs_to_email_thread_id"])
    out = call("gmail_update_draft", draft_id=draft["id"], body="New body", subject="New subject",
               email_addresses=[email_of(world, 10), email_of(world, 11)], scheduled_send_at="2026-06-01|10:00:00")
    row = world.get(DRAFTS, draft["id"])
    assert row["body"] == "New body" and row["subject"] == "New subject" and row["recipient_ids"] == [10, 11]
    assert row["recipient_email_addresses"] == [email_of(world, 10), email_of(world, 11)] and row["updated_at"] == NOW
    assert row["scheduled_send_at"] == "2026-06-01T10:00:00" and out["draft"]["subject"] == "New subject"
    call("gmail_update_draft", draft_id=draft["id"], scheduled_send_at="")
    assert world.get(DRAFTS, draft["id"])["scheduled_send_at"] is None
    tid, emails = received_thread(world)
    call("gmail_update_draft", draft_id=draft["id"], response_to_email_id=emails[0]["id"])
    row = world.get(DRAFTS, draft["id"])
    assert row["belongs_to_email_thread_id"] == tid and row["response_to_email_id"] == emails[0]["id"]
    # Moving the draft to another thread drops a reply link that no longer fits.
    other_tid = next(t for t in visible(world) if t != tid)
    call("gmail_update_draft", draft_id=draft["id"], belongs_to_email_thread_id=other_tid)
    row = world.get(DRAFTS, draft["id"])
    assert row["belongs_to_email_thread_id"] == other_tid and row["response_to_email_id"] is None
    assert "nothing to update" in call.fail("gmail_update_draft", draft_id=draft["id"])
    assert "no gmail user" in call.fail("gmail_update_draft", draft_id=draft["id"], email_addresses=["x@none.q"])
    assert "future" in call.fail("gmail_update_draft", draft_id=draft["id"], scheduled_send_at="2020-01-01")
    assert "not in thread" in call.fail("gmail_update_draft", draft_id=draft["id"], belongs_to_email_thread_id=other_tid,
                                        response_to_email_id=emails[0]["id"])
    other_draft = next(d for d in world.rows(DRAFTS) if d["user_id"] != world.user_id)
    assert "does not exist" in call.fail("gmail_update_draft", draft_id=other_draft["id"], body="x")


def test_delete_draft(call, world):
    draft = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id)
    call("gmail_delete_draft", draft_id=draft["id"])
    assert world.get(DRAFTS, draft["id"]) is None
    assert "does not exist" in call.fail("gmail_delete_draft", draft_id=draft["id"])
    other_draft = next(d for d in world.rows(DRAFTS) if d["user_id"] != world.user_id)
    assert "does not exist" in call.fail("gmail_delete_draft", draft_id=other_draft["id"])


def test_send_email_from_draft(call, world):
    draft = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id and d["belongs_to_email_thread_id"])
    out = call("gmail_send_email_from_draft", draft_id=draft["id"])
    email = world.get(EMAILS, out["email_id"])
    assert world.get(DRAFTS, draft["id"]) is None
    assert email["email_thread_id"] == draft["belongs_to_email_thread_id"] == out["email_thread_id"]
    assert email["response_to_email_id"] == draft["response_to_email_id"]
    assert (email["sender_id"], email["recipient_ids"], email["subject"], email["body"]) == (
        world.user_id, draft["recipient_ids"], draft["subject"], draft["body"])
    plain = next(d for d in world.rows(DRAFTS) if d["user_id"] == world.user_id and not d["belongs_to_email_thread_id"]
                 and d["subject"])
    new = call("gmail_send_email_from_draft", draft_id=plain["id"], file_system_access_token="ignored")
    assert new["email_thread_id"] not in {e["email_thread_id"] for e in world.rows(EMAILS) if e["id"] != new["email_id"]}
    assert "does not exist" in call.fail("gmail_send_email_from_draft", draft_id=draft["id"])


def test_send_from_draft_errors(call, world):
    world.insert(DRAFTS, {"id": 9001, "user_id": world.user_id, "subject": "No one", "body": "x"})
    assert "no recipients" in call.fail("gmail_send_email_from_draft", draft_id=9001)
    world.insert(DRAFTS, {"id": 9002, "user_id": world.user_id, "recipient_ids": [4], "subject": " ", "body": ""})
    assert "draft is empty" in call.fail("gmail_send_email_from_draft", draft_id=9002)
    world.insert(DRAFTS, {"id": 9003, "user_id": world.user_id, "recipient_ids": [4444], "subject": "s", "body": "b"})
    assert "no longer have gmail accounts" in call.fail("gmail_send_email_from_draft", draft_id=9003)
    other_draft = next(d for d in world.rows(DRAFTS) if d["user_id"] != world.user_id)
    assert "does not exist" in call.fail("gmail_send_email_from_draft", draft_id=other_draft["id"])


# ----------------------------------------------------------------------------- attachments
def test_upload_and_remove_draft_attachments(call, world):
    draft_id = call("gmail_create_draft", recipient_email_addresses=[email_of(world, 4)], body="files",
                    attachment_file_paths=["~/downloads/gym_schedule.txt"], file_system_access_token="t")["draft_id"]
    [first] = world.get(DRAFTS, draft_id)["attachment_ids"]
    out = call("gmail_upload_attachments_to_draft", draft_id=draft_id, file_system_access_token="t",
               attachment_file_paths=["~/downloads/podcast_list.txt", "~/downloads/invoice_1042.pdf"])
    row = world.get(DRAFTS, draft_id)
    assert row["attachment_ids"] == [first, *out["attachment_ids"]]
    assert [world.get(ATTACHMENTS, a)["file_name"] for a in row["attachment_ids"]] == [
        "gym_schedule.txt", "podcast_list.txt", "invoice_1042.pdf"]
    assert "already has an attachment named" in call.fail(
        "gmail_upload_attachments_to_draft", draft_id=draft_id, file_system_access_token="t",
        attachment_file_paths=["~/downloads/gym_schedule.txt"])
    call("file_system_update_file", file_path="~/downloads/gym_schedule.txt", content="Yoga daily")
    replaced = call("gmail_upload_attachments_to_draft", draft_id=draft_id, file_system_access_token="t",
                    attachment_file_paths=["~/downloads/gym_schedule.txt"], overwrite=True)["attachment_ids"][0]
    assert world.get(ATTACHMENTS, first) is None and world.get(ATTACHMENTS, replaced)["content"] == "Yoga daily"
    assert len(world.get(DRAFTS, draft_id)["attachment_ids"]) == 3
    assert call("gmail_show_drafts", attachment=True)[0]["draft_id"] == draft_id
    call("gmail_remove_attachment_from_draft", draft_id=draft_id, attachment_id=replaced)
    assert replaced not in world.get(DRAFTS, draft_id)["attachment_ids"] and world.get(ATTACHMENTS, replaced) is None
    assert "has no attachment" in call.fail("gmail_remove_attachment_from_draft", draft_id=draft_id, attachment_id=replaced)
    assert "at least one" in call.fail("gmail_upload_attachments_to_draft", draft_id=draft_id, attachment_file_paths=[],
                                       file_system_access_token="t")
    assert "does not exist" in call.fail("gmail_upload_attachments_to_draft", draft_id=draft_id, file_system_access_token="t",
                                         attachment_file_paths=["~/downloads/missing.txt"])
    assert "file_system_access_token" in call.fail("gmail_upload_attachments_to_draft", draft_id=draft_id,
                                                   file_system_access_token=" ", attachment_file_paths=["~/downloads/gym_schedule.txt"])
    other_draft = next(d for d in world.rows(DRAFTS) if d["user_id"] != world.user_id)
    assert "does not exist" in call.fail("gmail_upload_attachments_to_draft", draft_id=other_draft["id"],
                                         file_system_access_token="t", attachment_file_paths=["~/downloads/gym_schedule.txt"])
    assert "does not exist" in call.fail("gmail_remove_attachment_from_draft", draft_id=other_draft["id"], attachment_id=1)
    # Sending carries the attachments over; deleting a draft removes attachments nobody else uses.
    sent = call("gmail_send_email_from_draft", draft_id=draft_id)
    assert world.get(EMAILS, sent["email_id"])["attachment_ids"] == out["attachment_ids"]
    spare = call("gmail_create_draft", recipient_email_addresses=[email_of(world, 4)], body="x",
                 attachment_file_paths=["~/downloads/podcast_list.txt"], file_system_access_token="t")["draft_id"]
    [spare_att] = world.get(DRAFTS, spare)["attachment_ids"]
    call("gmail_delete_draft", draft_id=spare)
    assert world.get(ATTACHMENTS, spare_att) is None


def test_download_attachment(call, world):
    email = next(e for tid, es in sorted(visible(world).items()) for e in es if e["attachment_ids"])
    att = world.get(ATTACHMENTS, email["attachment_ids"][0])
    out = call("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t")
    assert out["file_path"].endswith("/downloads/" + att["file_name"])
    assert world.get(ATTACHMENTS, att["id"])["download_count"] == att["download_count"] + 1
    [created] = world.diff()["file_system.files"].created
    assert created["path"] == out["file_path"] and created["content"] == att["content"]
    assert "already exists" in call.fail("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t")
    call("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t", overwrite=True)
    custom = call("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t",
                  download_to_file_path="~/documents/mail/copy.txt")
    assert custom["file_path"].endswith("/documents/mail/copy.txt")
    into_dir = call("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t",
                    download_to_file_path="~/documents/")
    assert into_dir["file_path"].endswith("/documents/" + att["file_name"])
    mine = set(visible(world))
    foreign = next(e for e in world.rows(EMAILS) if e["attachment_ids"] and e["email_thread_id"] not in mine)
    assert "not in any of your emails" in call.fail("gmail_download_attachment", attachment_id=foreign["attachment_ids"][0],
                                                    file_system_access_token="t")
    assert "not in any of your emails" in call.fail("gmail_download_attachment", attachment_id=10**6, file_system_access_token="t")
    assert "file_system_access_token" in call.fail("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="")
    call("file_system_logout")
    assert "file_system" in call.fail("gmail_download_attachment", attachment_id=att["id"], file_system_access_token="t")


def test_thread_records_follow_every_mailbox_change(call, world):
    """The reference's thread records (global_email_threads, user_email_threads) are derived: the base
    world's are in step (re-deriving them changes nothing), and after each tool they say what the
    emails and mailbox states say."""
    from mmtsb_env.apps.gmail.tables import _sync_thread

    for tid in [r["id"] for r in world.rows(GLOBAL_THREADS)]:
        _sync_thread(world, tid)
    assert not world.diff()
    thread = call("gmail_show_inbox_threads", read=False, page_limit=1)[0]
    tid, last = thread["email_thread_id"], thread["latest_email"]["email_id"]

    def mine() -> dict:
        return world.first(USER_THREADS, user_id=world.user_id, global_email_thread_id=tid)

    assert (mine()["incoming"], mine()["read"]) == (True, False)
    out = call("gmail_reply_to_email", email_thread_id=tid, email_id=last, body="Thanks, sounds good.")
    assert world.get(GLOBAL_THREADS, tid)["email_ids"][-1] == out["email_id"] and mine()["email_ids"][-1] == out["email_id"]
    assert mine()["outgoing"] is True
    call("gmail_mark_thread_read", email_thread_id=tid)
    call("gmail_label_thread", email_thread_id=tid, label="Projects")
    call("gmail_mark_thread_starred", email_thread_id=tid)
    assert (mine()["read"], mine()["label"], mine()["starred"]) == (True, "Projects", True)
    others = [r["user_id"] for r in world.select(USER_THREADS, global_email_thread_id=tid) if r["user_id"] != world.user_id]
    assert others and all(world.first(USER_THREADS, user_id=u, global_email_thread_id=tid)["label"] == "INBOX" for u in others)
    call("gmail_delete_thread", email_thread_id=tid)
    assert mine() is None and world.get(GLOBAL_THREADS, tid) is not None  # the others still hold it


def test_the_thread_records_are_never_expected_changes_of_a_generated_task(call, world):
    """The generator expects what the task does, not the records gmail derives from it (their
    creates, updates and deletes are exempt bookkeeping): sending, then deleting a thread."""
    from mmtsb_env.generation.dryrun import expected_changes

    friend = world.get(USERS, 4)
    out = call("gmail_send_email", email_addresses=[friend["email"]], subject="Plans", body="Dinner on Friday?")
    assert {(e["operation"], e["table"]) for e in expected_changes(world)} == {("create", EMAILS)}
    base_thread = next(r["global_email_thread_id"] for r in world.rows(USER_THREADS)
                       if r["user_id"] == world.user_id and r["global_email_thread_id"] != out["email_thread_id"])
    call("gmail_delete_thread", email_thread_id=base_thread)
    assert USER_THREADS in world.diff() and world.diff()[USER_THREADS].deleted
    assert not any("thread" in e["table"] and e["table"] != THREAD_STATES for e in expected_changes(world))
