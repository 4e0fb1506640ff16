"""The device owner's profile, addresses, cards and each app's account/profile readers."""

from ..rows import Read, Write, table

APPS = ("gmail", "spotify", "todoist", "splitwise", "venmo", "simple_note", "file_system", "amazon")
NAMES = {"simple_note": "SimpleNote", "file_system": "file storage"}

ROWS = table(
    "supervisor",
    Read("supervisor_show_profile", {}, "email",
         ("Which email address is on my profile?", "what email do I have on my profile?"), "Your profile email is {v}."),
    Read("supervisor_show_profile", {}, "phone_number",
         ("What phone number is saved on my profile?", "what's the phone number on my profile again?"), "Your profile lists {v}."),
    Read("supervisor_show_addresses", {}, lambda r: next((a["city"] for a in r if a.get("name") == "Work"), None),
         ("Which city is my work address in?", "work address city?"), "Your work address is in {v}."),
    Read("supervisor_show_payment_cards", {}, "#",
         ("How many payment cards are on my profile?", "count my saved cards"), "You have {v} cards on your profile."),
    *[Read(f"{app}_show_profile", {}, "email",
           (f"Which email is my {NAMES.get(app, app.title())} account under?", f"what email did i use for {NAMES.get(app, app)}?"),
           f"Your {NAMES.get(app, app.title())} account uses {{v}}.") for app in APPS],
    *[Read(f"{app}_show_account", {}, "last_logged_in",
           (f"When did I last log in to {NAMES.get(app, app.title())}?", f"last login on {NAMES.get(app, app)}?"),
           f"You last logged in to {NAMES.get(app, app.title())} on {{v}}.") for app in APPS if app != "amazon"],
    *[Write(f"{app}_update_account_name", {"first_name": "{first}"},
            (f"Change the first name on my {NAMES.get(app, app.title())} account to {{first}}.",
             f"{NAMES.get(app, app)} should call me {{first}}"),
            f"Your {NAMES.get(app, app.title())} account now says {{first}}.", ("update", f"{app}.users"),
            values={"first": ("Meg", "Megs")}) for app in APPS],
)
