"""Errors a tool raises on purpose. Each becomes an error observation, never a crash.

Tools raise the most specific class; the message is shown to the agent verbatim, so it should
say what was wrong and, where useful, what to do instead.
"""


class ToolError(Exception):
    """Base class: the call failed for a reason the agent can act on."""

    kind = "tool_error"


class NotFound(ToolError):
    """An id or name that does not exist."""

    kind = "not_found"


class InvalidArgument(ToolError):
    """An argument has the wrong type or an unusable value."""

    kind = "invalid_argument"


class PermissionDenied(ToolError):
    """The device state or the account forbids the call (wifi off, not the owner, ...)."""

    kind = "permission_denied"


class Conflict(ToolError):
    """The call clashes with the current state (already exists, insufficient balance, ...)."""

    kind = "conflict"


class ToolNotAvailable(ToolError):
    """The tool exists but is not in the agent's active set, or not visible to this seat."""

    kind = "tool_not_available"


class UnknownTool(ToolError):
    """No tool has this name."""

    kind = "unknown_tool"
