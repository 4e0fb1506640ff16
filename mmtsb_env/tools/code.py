"""``execute_code``: run Python in the episode's sandboxed interpreter from tool-use mode."""

from __future__ import annotations

from typing import Any

from .errors import ToolError
from .registry import tool


@tool(app="system", toolboxes=("full", "medium", "compact", "mini"))
def execute_code(world, code: str) -> dict:
    """Run Python code in a persistent sandboxed interpreter where every tool is a function.

    Variables persist between calls. Printed output and the value of a final bare expression
    are returned; imports are limited to safe standard modules.

    Args:
        code: the Python source to run.
    """
    runner: Any = world.services.get("run_code")
    if runner is None:
        raise ToolError("code execution is not available in this episode")
    return runner(code)
