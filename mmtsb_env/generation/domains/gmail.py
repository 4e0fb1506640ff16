"""Gmail: threads, emails, labels, drafts, categories; thread flags, drafts, labels, sending."""

from typing import Any

from ..rows import OWNER, Look, Read, Rows, Write, table

SENT = Rows("gmail.emails", lambda r, wi: r.get("sender_id") == wi.owner_id and r.get("response_to_email_id") is None, unique="subject")
DRAFTS = Rows("gmail.drafts", {"user_id": OWNER}, unique="subject")
PEOPLE = Rows("phone.contacts", {"user_id": OWNER}, unique="email")
LABELS = ("Receipts", "Family", "Travel", "Work")

ROWS = table(
    "gmail",
    Read("gmail_show_thread", {"email_thread_id": "{email_thread_id}"}, "email_count",
         ("How many emails are in the thread '{subject}'?", "how long is the '{subject}' email thread?"),
         "'{subject}' has {v} emails.", SENT, pre=(("gmail_show_outbox_threads", {"query": "{subject}"}),)),
    Read("gmail_show_email", {"email_id": "{id}"}, "recipients.0.email",
         ("Who did I send the email '{subject}' to?", "recipient of my '{subject}' email?"), "You sent it to {v}.", SENT),
    Read("gmail_show_draft", {"draft_id": "{id}"}, "recipient_email_addresses.0",
         ("Who is my draft '{subject}' addressed to?", "draft '{subject}' - to whom?"), "It's addressed to {v}.", DRAFTS,
         pre=(("gmail_show_drafts", {"query": "{subject}"}),)),
    Read("gmail_search_labels", {}, "0.label",
         ("Which Gmail label comes first in my list?", "first of my gmail labels?"), "The first label is {v}."),
    Read("gmail_show_category_sizes", {}, "starred",
         ("How many starred email threads do I have?", "quick q, how many emails have I starred?"), "You have {v} starred threads."),
    Read("gmail_show_category_sizes", {}, "spam",
         ("How many threads are in my spam folder?", "spam count in gmail?"), "There are {v} threads in spam."),
    Read("gmail_show_inbox_threads", {"page_limit": 1}, "0.subject",
         ("What's the subject of the newest thread in my inbox?", "latest inbox email subject?"), "The newest thread is '{v}'."),
    Read("gmail_show_starred_threads", {"page_limit": 1}, "0.subject",
         ("What's my most recent starred email about?", "newest starred thread subject?"), "It's '{v}'."),
    Read("gmail_show_archived_threads", {"page_limit": 1}, "0.subject",
         ("What's the latest thread I archived?", "most recent archived email?"), "It's '{v}'."),
    Read("gmail_show_snoozed_threads", {}, "#",
         ("How many email threads do I have snoozed?", "snoozed threads count?"), "You have {v} snoozed threads."),
    Read("gmail_show_spam_threads", {"page_limit": 1}, "0.subject",
         ("What's the newest thing in my spam folder?", "latest spam subject?"), "It's '{v}'."),
    Read("gmail_show_drafts", {}, "#", ("How many email drafts do I have?", "number of gmail drafts?"), "You have {v} drafts."),
    Read("gmail_search_users", {"query": "{email}"}, "0.first_name",
         ("Which first name does Gmail show for {email}?", "gmail name for {email}?"), "Gmail shows {v}.", PEOPLE),
    Write("gmail_mark_thread_starred", {"email_thread_id": "{email_thread_id}"},
          ("Star my email thread '{subject}'.", "put a star on the '{subject}' thread"), "'{subject}' is starred.",
          ("update", "gmail.thread_states"), SENT),
    Write("gmail_mark_thread_archived", {"email_thread_id": "{email_thread_id}"},
          ("Archive the thread '{subject}'.", "archive '{subject}' please"), "'{subject}' is archived.",
          ("update", "gmail.thread_states"), SENT),
    Write("gmail_label_thread", {"email_thread_id": "{email_thread_id}", "label": "{l}"},
          ("Label the thread '{subject}' as {l}.", "put the {l} label on '{subject}'"), "'{subject}' is labelled {l}.",
          ("update", "gmail.thread_states"), SENT, values={"l": LABELS}),
    Write("gmail_mark_thread_unread", {"email_thread_id": "{email_thread_id}"},
          ("Mark '{subject}' as unread so I see it again.", "set '{subject}' back to unread"), "'{subject}' is unread.",
          ("update", "gmail.email_states"), SENT),
    Write("gmail_snooze_thread", {"email_thread_id": "{email_thread_id}", "snooze_until": "2026-07-01T09:00:00"},
          ("Snooze '{subject}' until July 1st, 9 am.", "hide '{subject}' till 2026-07-01 09:00"), "'{subject}' is snoozed until July 1.",
          ("update", "gmail.thread_states"), SENT),
    Write("gmail_mark_thread_spam", {"email_thread_id": "{email_thread_id}"},
          ("Report the thread '{subject}' as spam.", "mark '{subject}' spam"), "'{subject}' is in spam.",
          ("update", "gmail.thread_states"), SENT),
    Write("gmail_delete_thread", {"email_thread_id": "{email_thread_id}"},
          ("Delete the email thread '{subject}'.", "bin the '{subject}' thread"), "I deleted '{subject}'.",
          ("update", "gmail.email_states"), SENT),
    Write("gmail_send_email", {"email_addresses": ["{email}"], "subject": "{s}", "body": "{body}"},
          ("Email {first_name} {last_name} with the subject '{s}' saying: {body}", "send {first_name} {last_name} an email '{s}': {body}"),
          "I emailed {first_name} {last_name}.", ("create", "gmail.emails"), PEOPLE,
          values={"s": ("Saturday plans", "Quick question"), "body": ("Are we still on for Saturday?", "Call me when you can.")}),
    Write("gmail_forward_email_thread", {"email_thread_id": "{email_thread_id}", "email_addresses": ["{me_email}"]},
          ("Forward the whole '{subject}' thread to my own address.", "fwd '{subject}' to myself"), "I forwarded '{subject}' to you.",
          ("create", "gmail.emails"), SENT),
    Write("gmail_reply_to_email", {"email_thread_id": "{email_thread_id}", "email_id": "{id}", "body": "{body}"},
          ("Reply on the '{subject}' thread: {body}", "answer '{subject}' with: {body}"), "I replied on '{subject}'.",
          ("create", "gmail.emails"), SENT, values={"body": ("Following up on this.", "Any news here?")}),
    Write("gmail_create_draft", {"recipient_email_addresses": ["{email}"], "subject": "{s}", "body": "{body}"},
          ("Draft an email to {first_name} {last_name}, subject '{s}': {body}", "start a draft for {first_name} {last_name}: '{s}', {body}"),
          "I saved a draft to {first_name} {last_name}.", ("create", "gmail.drafts"), PEOPLE,
          values={"s": ("Next week", "Thank you"), "body": ("Free on Tuesday?", "Thanks for your help!")}),
    Write("gmail_update_draft", {"draft_id": "{id}", "subject": "{s}"},
          ("Change the subject of my draft '{subject}' to '{s}'.", "draft '{subject}' should be titled '{s}'"),
          "The draft is now '{s}'.", ("update", "gmail.drafts"), DRAFTS, values={"s": ("Updated plan", "Re: catching up")}),
    Write("gmail_delete_draft", {"draft_id": "{id}"}, ("Discard my draft '{subject}'.", "throw away the '{subject}' draft"),
          "I discarded '{subject}'.", ("delete", "gmail.drafts"), DRAFTS),
    Write("gmail_send_email_from_draft", {"draft_id": "{id}"}, ("Send my draft '{subject}' now.", "go ahead and send the '{subject}' draft"),
          "I sent '{subject}'.", ("create", "gmail.emails"), DRAFTS),
    Write("gmail_set_status", {"status": "{st}"}, ("Set my Gmail status to {st}.", "gmail status {st} please"),
          "Your status is {st}.", ("update", "gmail.users"), values={"st": ("away", "do_not_disturb")}),
)


def _email_as_draft(b: Any, row: dict[str, Any]) -> dict[str, Any]:
    if row.get("sender_id") != b.wi.owner_id:
        return {}
    return {"user_id": b.wi.owner_id, "recipient_ids": list(row.get("recipient_ids") or []), "subject": row.get("subject"),
            "body": row.get("body")}


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {"gmail.drafts": Look("subject", text=("body",), when=("created_at", "updated_at"), by="name")}
# a sent email's look-alike is an older draft to the same people
LOOKALIKE_TWINS = {"gmail.emails": ("gmail.drafts", _email_as_draft)}
