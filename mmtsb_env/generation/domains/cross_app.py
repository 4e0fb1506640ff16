"""Cross-app rounds: read a value in one app, then write it in two others."""

from ..rows import OWNER, Flow, Read, Rows, Write, table

PEOPLE = Rows("phone.contacts", {"user_id": OWNER}, unique="first_name")
TASKS = Rows("todoist.tasks", lambda r, wi: r.get("user_id") == wi.owner_id and not r.get("is_completed") and bool(r.get("due_date")),
             unique="title")
PRODUCTS = Rows("amazon.products", unique="name")
SONGS = Rows("spotify.songs", lambda r, wi: r.get("album_id") is not None, unique="title")
EVENTS = Rows("calendar.events", lambda r, wi: r.get("recurrence_parent_id") is None and not r.get("is_all_day"), unique="title")
ORDERS = Rows("amazon.orders", {"user_id": OWNER})
FIND = {"query": "{first_name} {last_name}"}

ROWS = table(
    "cross_app",
    Flow(Read("contacts_search_contacts", FIND, "0.email", (), "", PEOPLE),
         (Write("gmail_send_email", {"email_addresses": ["{v}"], "subject": "{what}", "body": "I paid ${amt} for {what}; I put it on Splitwise."},
                (), "", ("create", "gmail.emails"), values={"what": ("the cabin deposit", "the concert tickets"), "amt": (84.0, 126.5)}),
          Write("splitwise_record_expense", {"description": "{what}", "paid_amount": "{amt}", "payer_email": "{me_email}",
                                             "debtor_emails": ["{v}"]}, (), "", ("create", "splitwise.expenses"))),
         ("Look up {first_name} {last_name}'s email in my contacts, email them that I paid ${amt} for {what}, and split it with them on Splitwise. Tell me the address you used.",
          "find {first_name} {last_name}'s email, send them a note about the ${amt} for {what} and log it in splitwise - which email was it?"),
         "I emailed {first_name} {last_name} at {v} and split ${amt} for {what} with them on Splitwise."),
    Flow(Read("contacts_search_contacts", FIND, "0.phone_number", (), "", PEOPLE),
         (Write("messages_send_text_message", {"phone_number": "{v}", "message": "{m}"}, (), "", ("create", "phone.global_text_messages"),
                values={"m": ("Can you call me tonight?", "Are you free this weekend?")}),
          Write("add_reminder", {"content": "Call {first_name} {last_name}", "reminder_datetime": "2026-06-04T18:30:00"}, (), "",
                ("create", "reminder.reminders"))),
         ("Get {first_name} {last_name}'s number from my contacts, text them '{m}' and remind me to call them on June 4 at 6:30 pm. What's the number?",
          "text {first_name} {last_name} '{m}' (number's in contacts) and set a reminder to call them 2026-06-04 18:30; tell me the number"),
         "I texted {first_name} {last_name} at {v} and set a reminder to call them."),
    Flow(Read("todoist_show_task", {"task_id": "{id}"}, "due_date", (), "", TASKS),
         (Write("add_reminder", {"content": "{title}", "reminder_datetime": "{v}T09:00:00-07:00"}, (), "", ("create", "reminder.reminders")),
          Write("create_calendar_event", {"calendar_id": "calendar_1", "title": "{title}", "start_datetime": "{v}T09:00:00-07:00",
                                          "end_datetime": "{v}T10:00:00-07:00"}, (), "", ("create", "calendar.events"))),
         ("Check when my Todoist task '{title}' is due, then set a reminder at 9 am that day and block 9-10 am in my personal calendar for it. Which day is it?",
          "'{title}' in todoist - find the due date, add a 9am reminder and a 9-10 calendar slot on that day, and tell me the date"),
         "'{title}' is due {v}; I added a 9 am reminder and a 9-10 am event in your personal calendar."),
    Flow(Read("amazon_show_product", {"product_id": "{id}"}, "price", (), "", PRODUCTS),
         (Write("simple_note_create_note", {"title": "{name}", "content": "Price on Amazon: ${v}"}, (), "", ("create", "simple_note.notes")),
          Write("messages_send_text_message", {"phone_number": "{w_phone_number}", "message": "The {name} costs ${v} on Amazon."}, (), "",
                ("create", "phone.global_text_messages"), Rows("phone.contacts", {"user_id": OWNER}, unique="phone_number"))),
         ("What does the {name} cost on Amazon? Save the price in a note titled with the product name and text it to {first_name} {last_name}.",
          "price check the {name} on amazon, note it down (title = product name) and text {first_name} {last_name} the price"),
         "The {name} costs ${v}; I saved it in a note and texted {first_name} {last_name}."),
    Flow(Read("spotify_show_song", {"song_id": "{id}"}, "album_title", (), "", SONGS),
         (Write("simple_note_create_note", {"title": "Album: {v}", "content": "The album with '{title}' on it."}, (), "",
                ("create", "simple_note.notes")),
          Write("gmail_send_email", {"email_addresses": ["{w_email}"], "subject": "Album tip", "body": "Listen to the album {v} - it has '{title}' on it."},
                (), "", ("create", "gmail.emails"), Rows("phone.contacts", {"user_id": OWNER}, unique="email"))),
         ("Which album is '{title}' from? Note the album down in a note titled 'Album: <name>' and email {first_name} {last_name} the album tip.",
          "find the album of '{title}', put it in a note 'Album: <name>' and send {first_name} {last_name} an email 'Album tip' about it"),
         "'{title}' is on '{v}'; I noted it and emailed {first_name} {last_name}."),
    Flow(Read("search_calendar_events", {"calendar_event_id": "{calendar_event_id}"}, lambda r: r[0]["start_datetime"][11:16] if r else None,
              (), "", EVENTS),
         (Write("alarms_create_alarm", {"time": "{v}", "label": "{title}"}, (), "", ("create", "phone.alarms")),
          Write("todoist_create_task", {"project_id": "{w_id}", "title": "Prepare for {title}"}, (), "", ("create", "todoist.tasks"),
                Rows("todoist.projects", {"user_id": OWNER, "is_inbox": True}))),
         ("What time does '{title}' start? Set an alarm labelled '{title}' for that time and add a Todoist task 'Prepare for {title}' to my Inbox.",
          "check the start time of '{title}' in my calendar, alarm at that time named '{title}', and a todoist inbox task 'Prepare for {title}'"),
         "'{title}' starts at {v}; I set an alarm and added the task to your Inbox."),
    Flow(Read("amazon_show_order", {"order_id": "{id}"}, "total_amount", (), "", ORDERS),
         (Write("splitwise_record_expense", {"description": "Amazon order {id}", "paid_amount": "{v_raw}", "payer_email": "{me_email}",
                                             "debtor_emails": ["{w_email}"]}, (), "", ("create", "splitwise.expenses"),
                Rows("splitwise.users", lambda r, wi: r.get("id") != wi.owner_id and _in_contacts(wi, r.get("email")))),
          Write("file_system_create_file", {"file_path": "{me_home}order_{id}.txt", "content": "Amazon order {id}: ${v}"}, (), "",
                ("create", "file_system.files"))),
         ("How much was my Amazon order {id}? Split the total with {first_name} {last_name} on Splitwise and save it to a file {me_home}order_{id}.txt.",
          "amazon order {id}: get the total, splitwise it with {first_name} {last_name}, and write it to {me_home}order_{id}.txt"),
         "Order {id} came to ${v}; I split it with {first_name} {last_name} and saved the file."),
)


def _in_contacts(wi, email) -> bool:
    return any(c.get("email") == email for c in wi.contacts)
