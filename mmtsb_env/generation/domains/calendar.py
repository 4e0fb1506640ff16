"""Calendar: read events and calendars, create / update / delete events and calendars."""

from ..rows import Look, Read, Rows, Write, table

EVENTS = Rows("calendar.events", lambda r, wi: r.get("recurrence_parent_id") is None, unique="title")
DESCRIBED = Rows("calendar.events", lambda r, wi: r.get("recurrence_parent_id") is None and bool(r.get("description")), unique="title")
CALS = Rows("calendar.calendars", unique="title")
NEW_CALS = ("Book club", "Garden", "Kids' sports", "Volunteering", "Side project")

ROWS = table(
    "calendar",
    Read("search_calendar_events", {"calendar_event_id": "{calendar_event_id}"}, "0.start_datetime",
         ("When does '{title}' start on my calendar?", "what time is '{title}' in my calendar?"),
         "'{title}' starts at {v}.", EVENTS),
    Read("search_calendar_events", {"calendar_event_id": "{calendar_event_id}"}, "0.description",
         ("What does the description of my '{title}' event say?", "read me the notes on the '{title}' event"),
         "The '{title}' event says: {v}", DESCRIBED),
    Read("search_calendars", {"title": "{title}"}, "0.calendar_id",
         ("What's the id of my '{title}' calendar?", "which calendar id does '{title}' have?"),
         "Your '{title}' calendar has id {v}.", CALS),
    Write("create_calendar", {"title": "{name}"},
          ("Make a new calendar called '{name}'.", "create a calendar named '{name}' for me"),
          "I created the '{name}' calendar.", ("create", "calendar.calendars"), values={"name": NEW_CALS}),
    Write("modify_calendar_event", {"calendar_event_id": "{calendar_event_id}", "title": "{new_title}"},
          ("Rename my '{title}' event to '{new_title}'.", "change the title of '{title}' to '{new_title}'"),
          "The event is now called '{new_title}'.", ("update", "calendar.events"), EVENTS,
          values={"new_title": ("Catch-up (moved)", "Planning session", "Quarterly check-in", "Family call")}),
    Write("remove_calendar_event", {"calendar_event_id": "{calendar_event_id}"},
          ("Cancel '{title}' on my calendar, it's not happening.", "delete the '{title}' event"),
          "I removed '{title}' from your calendar.", ("delete", "calendar.events"), EVENTS),
    Write("create_calendar_event", {"calendar_id": "calendar_1", "title": "{what}", "start_datetime": "{start}",
                                    "end_datetime": "{end}"},
          ("Put '{what}' in my personal calendar on {start} until {end}.", "add '{what}' to my personal calendar, {start} to {end}"),
          "I added '{what}' to your personal calendar.", ("create", "calendar.events"),
          values={"what": ("Dentist check-up", "Pick up dry cleaning", "Parent-teacher meeting", "Car service"),
                  "start": ("2026-06-03T09:00:00-07:00",), "end": ("2026-06-03T10:00:00-07:00",)}),
)


# how staging makes look-alikes of the rows a task touches (generation.staging)
LOOKALIKES = {
    "calendar.events": Look("title", same_label=True, when=("start_datetime", "end_datetime"), text=("description",), strkey="calendar_event", by="date"),
}
