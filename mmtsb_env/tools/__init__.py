"""Tool registry, schemas, argument checking and atomic invocation.

This package's namespace holds what a module defining tools needs (the ``@tool`` decorator, the
errors, the result types). The complete catalogue and its lookups are in :mod:`.catalog`
(``get_tool``, ``tools_in``), running a call in :mod:`.calling` (``invoke``): both import every
tool module, which import this package, so it does not import them.
"""

from .errors import (
    Conflict, InvalidArgument, NotFound, PermissionDenied, ToolError, ToolNotAvailable, UnknownTool,
)
from .registry import ASSISTANT, REGISTRY, USER, Tool, requirement, tool
from .results import Delivery, Discovery, EndConversation, ImageResult
from .schema import NOT_GIVEN

__all__ = [
    "ASSISTANT", "Conflict", "Delivery", "Discovery", "EndConversation", "ImageResult",
    "InvalidArgument", "NOT_GIVEN", "NotFound", "PermissionDenied", "REGISTRY", "Tool", "ToolError",
    "ToolNotAvailable", "USER", "UnknownTool", "requirement", "tool",
]
