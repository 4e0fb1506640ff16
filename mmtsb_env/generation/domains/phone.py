"""Phone account: read the owner's account; rename it."""

from ..rows import Read, Write, table

ROWS = table(
    "phone",
    Read("phone_show_account", {}, "phone_number",
         ("What phone number is my phone account registered with?", "number on my phone account?"), "It's {v}."),
    Read("phone_show_account", {}, "created_at",
         ("When was my phone account created?", "phone account creation date?"), "It was created {v}."),
    Write("phone_update_account_name", {"last_name": "{last}"},
          ("Change the last name on my phone account to {last}.", "phone account surname should be {last}"),
          "Your phone account now says {last}.", ("update", "phone.users"), values={"last": ("Chang-Rivera", "Rivera")}),
)
