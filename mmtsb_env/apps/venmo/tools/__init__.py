"""Venmo tools: the account tools (shared by the online apps, :mod:`mmtsb_env.apps._accounts`),
then one module per area (registered in this order)."""

from ..._accounts import ALL_ACCOUNT_TOOLS, define_account_tools
from ..tables import APP

# venmo_show_profile is our own (it adds the friendship status, in .social); the other ten are shared.
define_account_tools(APP, include=tuple(n for n in ALL_ACCOUNT_TOOLS if n != "show_profile"))

from . import account, requests, social  # noqa: E402,F401
