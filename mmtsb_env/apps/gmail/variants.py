"""Gmail: drafts and thread state (medium and compact), folders (compact), one tool (mini)."""

from __future__ import annotations

from ...tools.consolidate import actions, consolidate

P = "gmail_"

_FLAGS = dict(label="label_thread", unlabel="unlabel_thread", mark_read="mark_thread_read",
              mark_unread="mark_thread_unread", archive="mark_thread_archived", unarchive="mark_thread_unarchived",
              mark_spam="mark_thread_spam", mark_not_spam="mark_thread_not_spam", star="mark_thread_starred",
              unstar="mark_thread_unstarred", snooze="snooze_thread", unsnooze="unsnooze_thread")
_DRAFT_CRUD = dict(create="create_draft", show="show_draft", update="update_draft", delete="delete_draft",
                   send="send_email_from_draft")
_DRAFT_MORE = dict(list="show_drafts", upload_attachments="upload_attachments_to_draft",
                   remove_attachment="remove_attachment_from_draft")
_LISTS = dict(list_inbox="show_inbox_threads", list_outbox="show_outbox_threads", list_snoozed="show_snoozed_threads",
              list_starred="show_starred_threads", list_archived="show_archived_threads", list_spam="show_spam_threads")
_THREAD_MORE = dict(show="show_thread", delete="delete_thread", show_email="show_email",
                    delete_email="delete_email_in_thread", category_sizes="show_category_sizes",
                    labels="search_labels")
_SEND = dict(send="send_email", reply="reply_to_email", forward_email="forward_email_from_thread",
             forward_thread="forward_email_thread")

consolidate(
    "gmail_manage_draft", app="gmail", toolboxes=("medium", "compact"),
    summary="Create, show, update, delete or send one of your email drafts.",
    routes=actions(P, **_DRAFT_CRUD),
)
consolidate(
    "gmail_update_thread", app="gmail", toolboxes=("medium", "compact"),
    summary="Change the state of an email thread: label/unlabel, read/unread, archive/unarchive, spam/not spam, "
            "star/unstar, snooze/unsnooze.",
    routes=actions(P, **_FLAGS),
)
consolidate(
    "gmail_list_threads", app="gmail", toolboxes=("compact",), selectors=("folder",),
    selector_docs={"folder": "which mailbox folder"},
    summary="List or search your email threads in one folder: inbox, outbox, snoozed, starred, archived or spam.",
    routes=actions(P, **{k.replace("list_", ""): v for k, v in _LISTS.items()}),
)
consolidate(
    "gmail", app="gmail", toolboxes=("mini",),
    summary="Everything in Gmail: list threads per folder, show threads and emails, change thread state "
            "(labels, read, archive, spam, star, snooze), delete, send, reply, forward, drafts and their "
            "attachments, download an attachment, set your status.",
    routes=actions(P, **_LISTS, **{f"{k}_thread" if k in ("show", "delete") else k: v for k, v in _THREAD_MORE.items()},
                   **_FLAGS, download_attachment="download_attachment", **_SEND,
                   **{f"draft_{k}": v for k, v in {**_DRAFT_MORE, **_DRAFT_CRUD}.items()}, set_status="set_status"),
)
