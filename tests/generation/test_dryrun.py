"""Playing solutions and deriving expected changes from the resulting diff."""

from __future__ import annotations

import pytest

from mmtsb_env.generation.dryrun import SolutionError, expected_changes, play, resolve
from mmtsb_env.scenario.model import Round, StateChange

NOW = "2026-04-20T09:00:00+00:00"


def test_resolve_follows_saved_results():
    saved = {"note": {"note_id": 61}, "r": "reminder_3", "lst": {"items": [{"id": 5}]}}
    assert resolve({"note_id": {"$ref": "note.note_id"}}, saved) == {"note_id": 61}
    assert resolve([{"$ref": "r."}], saved) == ["reminder_3"]
    assert resolve({"$ref": "lst.items.0.id"}, saved) == 5
    with pytest.raises(SolutionError, match="before a step saved it"):
        resolve({"$ref": "nope.id"}, saved)


def test_text_message_expectations_cover_the_side_tables():
    rounds = [Round("text Jacqueline", solution=({"name": "messages_send_text_message",
                                                  "arguments": {"phone_number": "2865774606", "message": "Gate code 4821"}},))]
    run = play(rounds, {}, reference_time=NOW, user_id=1)
    exp = expected_changes(run.world)
    tables = sorted((e["operation"], e["table"]) for e in exp)
    assert tables == [("create", "phone.global_text_messages"), ("create", "phone.user_text_messages"),
                      ("create", "phone.user_text_messages")]
    inbox = [e for e in exp if e["table"] == "phone.user_text_messages"]
    assert all(e["measures"]["global_text_message_id"] == "ignore" for e in inbox)  # id of a row made in the episode
    assert {e["row"]["user_id"] for e in inbox} == {1, 97}
    msg = next(e for e in exp if e["table"] == "phone.global_text_messages")
    assert msg["row"]["message"] == "Gate code 4821" and msg["measures"]["message"] == "rouge_l"
    assert "created_at" not in msg["row"]  # app-filled column


def test_bookkeeping_updates_and_notifications_are_not_expected():
    rounds = [Round("file + pay", solution=(
        {"name": "file_system_create_file", "arguments": {"file_path": "/home/megan/documents/x.txt", "content": "abc"}},
        {"name": "venmo_create_transaction", "arguments": {"receiver_email": "sarah.hebert@outlook.com", "amount": 5.0}},
    ))]
    run = play(rounds, {}, reference_time=NOW, user_id=1)
    assert "file_system.directories" in run.world.diff()  # only its updated_at moved
    tables = {e["table"] for e in expected_changes(run.world)}
    assert "file_system.directories" not in tables and "venmo.notifications" not in tables
    assert {"file_system.files", "venmo.transactions", "venmo.users"} <= tables


def test_state_changes_are_baseline_and_failures_name_the_step():
    rounds = [Round("note", state_changes=(StateChange("update", "setting.device", key=1, fields={"wifi": False, "cellular": False}),),
                    solution=({"name": "simple_note_create_note", "arguments": {"title": "t", "content": "c"}},))]
    with pytest.raises(SolutionError, match="round 0 step 0 simple_note_create_note.*no network"):
        play(rounds, {}, reference_time=NOW, user_id=1)
    fixed = [Round("note", state_changes=rounds[0].state_changes, solution=(
        {"name": "set_wifi_status", "arguments": {"on": True}},
        {"name": "simple_note_create_note", "arguments": {"title": "t", "content": "c"}}))]
    exp = expected_changes(play(fixed, {}, reference_time=NOW, user_id=1).world)
    device = next(e for e in exp if e["table"] == "setting.device")
    assert device["fields"] == {"wifi": True}  # cellular stays off: the user's change is the baseline
