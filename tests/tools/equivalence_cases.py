"""Operations on full-toolbox tools used to check that every variant tool behaves identically.

``data/equivalence_cases.json`` holds one call per full tool whose plain arguments succeed on a
fresh seed-0 world (found by trying argument values from the base world, then reviewed); the
cases below need a set-up call first, ids created during the test, or another argument set.
Argument values may be callables of the world (evaluated after the set-up calls).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ME = "megan.chang@proton.me"
ME_PHONE = "9776301663"
FILE = "/home/megan/documents/personal/notes/reading_list.md"
OTHER = "mark.howell@outlook.com"  # shares splitwise group 1 with the owner


@dataclass(frozen=True)
class Case:
    tool: str
    args: dict[str, Any]
    setup: tuple[tuple[str, dict[str, Any]], ...] = ()
    ok: bool = True


def code(app: str, purpose: str) -> Callable[[Any], str]:
    """The last code an app sent (verification or password reset)."""

    def get(world: Any) -> str:
        rows = [r for r in world.rows("device.verification_codes") if r["app"] == app and r["purpose"] == purpose]
        return rows[-1]["code"]

    return get


def newest(table: str, column: str = "id", **equals: Any) -> Callable[[Any], Any]:
    def get(world: Any) -> Any:
        return max(r[column] for r in world.rows(table) if all(r.get(k) == v for k, v in equals.items()))

    return get


_CARD = {"card_name": "Travel card", "owner_name": "Megan Chang", "card_number": 4111111111111111,
         "expiry_year": 2030, "expiry_month": 5, "cvv_number": 123}

HAND: list[Case] = []
for _app in ("amazon", "file_system", "simple_note", "splitwise", "spotify", "todoist", "venmo"):
    HAND.append(Case(f"{_app}_verify_account", {"email": ME, "verification_code": code(_app, "verification")},
                     setup=((f"{_app}_send_verification_code", {"email": ME}),)))
for _app in ("amazon", "file_system", "gmail", "simple_note", "splitwise", "spotify", "todoist", "venmo"):
    HAND.append(Case(f"{_app}_reset_password", {"email": ME, "password_reset_code": code(_app, "password_reset"),
                                                 "new_password": "N3w!passw0rd"},
                     setup=((f"{_app}_send_password_reset_code", {"email": ME}),)))
HAND += [
    Case("phone_reset_password", {"phone_number": ME_PHONE, "password_reset_code": code("phone", "password_reset"),
                                  "new_password": "N3w!passw0rd"},
         setup=(("phone_send_password_reset_code", {"phone_number": ME_PHONE}),)),
    Case("simple_note_verify_account", {"email": ME, "verification_code": "000000"}, ok=False),
    # amazon
    Case("amazon_show_last_product_purchase", {"product_id": 1212}),
    Case("amazon_remove_product_from_browsing_history", {"product_id": 1294}),
    Case("amazon_remove_promo_code_from_cart", {}, setup=(("amazon_apply_promo_code_to_cart", {"promo_code": "SAVE10"}),)),
    Case("amazon_remove_gift_wrapping_from_product", {"product_id": 1007},
         setup=(("amazon_add_gift_wrapping_to_product", {"product_id": 1007}),)),
    Case("amazon_add_payment_card", dict(_CARD)),
    Case("amazon_initiate_return", {"order_id": 1, "product_id": 1212, "deliverer_id": 1, "quantity": 1}),
    Case("amazon_initiate_return", {"order_id": 1, "product_id": 1001, "deliverer_id": 1, "quantity": 1}, ok=False),
    Case("amazon_update_product_question", {"question_id": newest("amazon.product_questions", user_id=1),
                                            "question": "Is it waterproof?"},
         setup=(("amazon_write_product_question", {"product_id": 1001, "question": "Is it loud?"}),)),
    Case("amazon_delete_product_question", {"question_id": newest("amazon.product_questions", user_id=1)},
         setup=(("amazon_write_product_question", {"product_id": 1001, "question": "Is it loud?"}),)),
    Case("amazon_update_product_question_answer",
         {"question_answer_id": newest("amazon.product_question_answers", user_id=1), "answer": "Yes."},
         setup=(("amazon_write_product_question_answer", {"question_id": 1, "answer": "No idea."}),)),
    Case("amazon_delete_product_question_answer", {"question_answer_id": newest("amazon.product_question_answers", user_id=1)},
         setup=(("amazon_write_product_question_answer", {"question_id": 1, "answer": "No idea."}),)),
    Case("amazon_add_product_to_cart", {"product_id": 1001, "quantity": 2}),
    Case("amazon_add_product_to_cart", {"product_id": 1001, "quantity": 0}, ok=False),
    Case("amazon_delete_product_from_cart", {"product_id": 1001}, ok=False),
    Case("amazon_show_product", {"product_id": 99}, ok=False),
    Case("amazon_update_address", {"address_id": 1, "city": "Springfield", "zip_code": 12345}),
    # gmail
    Case("gmail_remove_attachment_from_draft", {"draft_id": 1, "attachment_id": newest("gmail.attachments")},
         setup=(("gmail_upload_attachments_to_draft", {"draft_id": 1, "attachment_file_paths": [FILE],
                                                        "file_system_access_token": "token"}),)),
    Case("gmail_label_thread", {"email_thread_id": 2, "label": "travel"}),
    Case("gmail_snooze_thread", {"email_thread_id": 2, "snooze_until": "2020-01-01T00:00:00"}, ok=False),
    Case("gmail_show_thread", {"email_thread_id": 999999}, ok=False),
    # spotify
    Case("spotify_unlike_playlist", {"playlist_id": 60}),
    Case("spotify_update_playlist_review", {"review_id": newest("spotify.playlist_reviews", user_id=1), "rating": 2},
         setup=(("spotify_review_playlist", {"playlist_id": 2, "rating": 5}),)),
    Case("spotify_delete_playlist_review", {"review_id": newest("spotify.playlist_reviews", user_id=1)},
         setup=(("spotify_review_playlist", {"playlist_id": 2, "rating": 5}),)),
    Case("spotify_add_payment_card", dict(_CARD)),
    Case("spotify_set_volume", {"volume": 9}),
    Case("spotify_set_volume", {"volume": 99}, ok=False),
    Case("spotify_play_music", {"song_id": 3}),
    Case("spotify_create_playlist", {"title": "Run club", "is_public": False}),
    # splitwise
    Case("splitwise_undelete_group", {"group_id": 1}, setup=(("splitwise_delete_group", {"group_id": 1}),)),
    Case("splitwise_exit_group", {"group_id": newest("splitwise.groups")},
         setup=(("splitwise_create_group", {"name": "Ski trip", "member_emails": [OTHER]}),)),
    Case("splitwise_remove_member_from_group", {"group_id": newest("splitwise.groups"), "user_email": OTHER},
         setup=(("splitwise_create_group", {"name": "Ski trip", "member_emails": [OTHER]}),)),
    Case("splitwise_accept_group_invitation", {"invitation_code": "96d10"}),
    Case("splitwise_undelete_expense", {"expense_id": 1}, setup=(("splitwise_delete_expense", {"expense_id": 1}),)),
    Case("splitwise_undelete_payment", {"payment_id": 1}, setup=(("splitwise_delete_payment", {"payment_id": 1}),)),
    Case("splitwise_delete_expense_receipt_file", {"expense_id": 87}),
    Case("splitwise_download_expense_receipt_file", {"expense_id": 87, "file_system_access_token": "token"}),
    Case("splitwise_delete_payment_receipt_file", {"payment_id": 1},
         setup=(("splitwise_attach_payment_receipt_file", {"payment_id": 1, "receipt_file_path": FILE,
                                                            "file_system_access_token": "token"}),)),
    Case("splitwise_download_payment_receipt_file", {"payment_id": 1, "file_system_access_token": "token"},
         setup=(("splitwise_attach_payment_receipt_file", {"payment_id": 1, "receipt_file_path": FILE,
                                                            "file_system_access_token": "token"}),)),
    Case("splitwise_record_expense", {"description": "Groceries", "paid_amount": 90.0, "payer_email": ME,
                                      "debtor_emails": [OTHER], "group_id": 1}),
    Case("splitwise_post_expense_comment", {"expense_id": 999999, "comment": "hi"}, ok=False),
    # todoist
    Case("todoist_remove_collaborator_from_project", {"project_id": 134, "email": "steven.reed@gmail.com"}),
    Case("todoist_assign_or_unassign_task", {"task_id": 277}),
    Case("todoist_create_task", {"project_id": 1, "title": "Call the bank", "priority": "high", "due_date": "2026-05-02"}),
    Case("todoist_update_task", {"task_id": 1, "is_completed": True}),
    Case("todoist_create_label", {"name": "errands", "color": "blue"}),
    # venmo
    Case("venmo_approve_payment_request", {"payment_request_id": 25}),
    Case("venmo_deny_payment_request", {"payment_request_id": 27}),
    Case("venmo_unlike_transaction", {"transaction_id": 35}),
    Case("venmo_unlike_transaction_comment", {"comment_id": 23}),
    Case("venmo_add_payment_card", dict(_CARD)),
    Case("venmo_add_friend", {"user_email": "matthew.lee@outlook.com"}, ok=False),  # already a friend
    Case("venmo_remove_friend", {"user_email": "whitney.burns@outlook.com"}, ok=False),  # not a friend
    Case("venmo_create_transaction", {"receiver_email": OTHER, "amount": 12.5, "description": "Lunch"}),
    Case("venmo_create_transaction", {"receiver_email": OTHER, "amount": -3.0}, ok=False),
    # device, reminders, calendar, contacts, messages, alarms, notes, files
    Case("set_wifi_status", {"on": False}),
    Case("set_low_battery_mode_status", {"on": True}),
    Case("set_location_service_status", {"on": False}),
    Case("add_reminder", {"content": "Water the plants", "reminder_datetime": "2026-05-03T08:00:00-07:00"}),
    Case("modify_reminder", {"reminder_id": "reminder_1", "content": "Trash day"}),
    Case("create_calendar_event", {"calendar_id": "calendar_1", "title": "Yoga", "start_datetime": "2026-05-04T18:00:00-07:00",
                                   "end_datetime": "2026-05-04T19:00:00-07:00", "recurrence_frequency": "weekly",
                                   "recurrence_interval": 1}),
    Case("modify_calendar", {"calendar_id": "calendar_1", "title": "Home"}),
    Case("contacts_add_contact", {"first_name": "Kate", "last_name": "Chang", "email": "kate.chang@example.com",
                                  "relationships": ["sibling"]}),
    Case("contacts_delete_contact", {"contact_id": 999999}, ok=False),
    Case("messages_send_text_message", {"phone_number": "5550001111", "message": "hi"}, ok=False),
    Case("messages_send_text_message", {"phone_number": "7246977634", "message": "Running late"}),
    Case("messages_send_voice_message", {"phone_number": "7246977634", "message": "hello"}),
    Case("alarms_update_alarm", {"alarm_id": 1, "enabled": False, "label": "Gym"}),
    Case("alarms_create_alarm", {"time": "25:99"}, ok=False),
    Case("simple_note_create_note", {"title": "Groceries", "content": "milk", "tags": ["shopping"], "pinned": True}),
    Case("simple_note_update_note", {"note_id": 1, "pinned": True}),
    Case("simple_note_delete_note", {"note_id": 999999}, ok=False),
    Case("file_system_create_file", {"file_path": "/home/megan/notes.txt", "content": "hello"}),
    Case("file_system_create_directory", {"directory_path": "/home/megan/taxes/"}),
    Case("file_system_copy_file", {"source_file_path": FILE, "destination_file_path": "/home/megan/copy.md"}),
]


def load_cases() -> list[Case]:
    """Every case: the generated ones (plain arguments) and the hand-written ones."""
    plain = json.loads(Path(__file__).with_name("data").joinpath("equivalence_cases.json").read_text())
    return [Case(name, args) for name, args in plain.items()] + HAND
