"""Reminders: read, add, change and remove reminders."""

from ..rows import Look, Read, Rows, Write, table

MINE = Rows("reminder.reminders", unique="content")

ROWS = table(
    "reminder",
    Read("search_reminder", {"content": "{content}"}, "0.reminder_datetime",
         ("When is my reminder to '{content}' set for?", "what time does the '{content}' reminder go off?"),
         "The '{content}' reminder is set for {v}.", MINE),
    Write("add_reminder", {"content": "{what}", "reminder_datetime": "{when}"},
          ("Remind me to {what} at {when}.", "add a reminder: {what}, {when}"),
          "I'll remind you to {what} at {when}.", ("create", "reminder.reminders"),
          values={"what": ("renew the parking permit", "book the vet", "send the rent", "back up the laptop"),
                  "when": ("2026-06-02T18:00:00", "2026-06-05T08:30:00")}),
    Write("modify_reminder", {"reminder_id": "{reminder_id}", "reminder_datetime": "{when}"},
          ("Push my '{content}' reminder to {when}.", "move the '{content}' reminder to {when}"),
          "The '{content}' reminder now goes off at {when}.", ("update", "reminder.reminders"), MINE,
          values={"when": ("2026-06-07T19:00:00", "2026-06-09T07:45:00")}, pre=(("search_reminder", {"content": "{content}"}),)),
    Write("remove_reminder", {"reminder_id": "{reminder_id}"},
          ("Delete my reminder to '{content}'.", "i don't need the '{content}' reminder any more, remove it"),
          "I removed the '{content}' reminder.", ("delete", "reminder.reminders"), MINE,
          pre=(("search_reminder", {"content": "{content}"}),)),
)


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {
    "reminder.reminders": Look("content", same_label=True, when=("reminder_datetime", "creation_datetime"), strkey="reminder", by="date"),
}
