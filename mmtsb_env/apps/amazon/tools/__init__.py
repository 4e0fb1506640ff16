"""Amazon tools: the account tools (shared by the online apps, :mod:`mmtsb_env.apps._accounts`),
then one module per area (registered in this order)."""

from ..._accounts import define_account_tools
from ..tables import APP

define_account_tools(APP)

from . import catalog, shop, returns, reviews  # noqa: E402,F401
