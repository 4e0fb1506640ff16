"""Phone tools: the phone carrier account, known by its phone number (the reference's eight
``phone_*`` tools; no verification code and no public profile).

The phone app's contact book and messages have tools of their own domains, ``contacts`` and
``messages``, over the tables declared in :mod:`.tables`.
"""

from __future__ import annotations

from .._accounts import define_account_tools
from .tables import APP

PHONE_ACCOUNT_TOOLS = (
    "show_account", "signup", "delete_account", "update_account_name", "login", "logout",
    "send_password_reset_code", "reset_password",
)

define_account_tools(APP, identity="phone_number", include=PHONE_ACCOUNT_TOOLS)
