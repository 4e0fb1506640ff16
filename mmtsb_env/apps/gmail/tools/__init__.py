"""Gmail tools, one module per area (registered in this order)."""

from ..._accounts import define_account_tools
from ..tables import APP, GMAIL_ACCOUNT_TOOLS

define_account_tools(APP, include=GMAIL_ACCOUNT_TOOLS)

from . import compose, threads  # noqa: E402,F401
