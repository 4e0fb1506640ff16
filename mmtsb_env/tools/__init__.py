"""Tool registry, schemas, argument checking and atomic invocation."""

from .calling import CallOutcome, invoke
from .errors import (
    Conflict, InvalidArgument, NotFound, PermissionDenied, ToolError, ToolNotAvailable, UnknownTool,
)
from .registry import ASSISTANT, REGISTRY, USER, Tool, get_tool, requirement, tool, tools_in
from .results import Delivery, Discovery, EndConversation, ImageResult
from .schema import NOT_GIVEN

__all__ = [
    "ASSISTANT", "CallOutcome", "Conflict", "Delivery", "Discovery", "EndConversation", "ImageResult",
    "InvalidArgument", "NOT_GIVEN", "NotFound", "PermissionDenied", "REGISTRY", "Tool", "ToolError",
    "ToolNotAvailable", "USER", "UnknownTool", "get_tool", "invoke", "requirement", "tool", "tools_in",
]
