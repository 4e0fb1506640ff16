"""Run one tool call against a world atomically and describe the outcome.

A failed call (bad arguments, precondition, bug) is rolled back and reported; it never raises.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..world.schema import SchemaError
from ..world.store import RowNotFound
from .errors import InvalidArgument, ToolError, ToolNotAvailable
from .registry import ASSISTANT
from .results import Delivery, Discovery, EndConversation, ImageResult, encode_result


@dataclass
class CallOutcome:
    """What happened when a tool was called."""

    name: str
    arguments: Any
    ok: bool
    result: Any = None  # JSON-safe copy of the return value (None on failure)
    text: str = ""  # what the caller sees: JSON of the result, or the error message
    error_kind: str | None = None
    image_ids: list[int] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    discovery: Discovery | None = None
    ended: bool = False
    wrote: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "arguments": self.arguments,
            "ok": self.ok,
            "result": self.result,
            "error": None if self.ok else self.text,
            "error_kind": self.error_kind,
            "image_ids": list(self.image_ids),
        }


_LEAVES = frozenset({str, int, float, bool, type(None), bytes})


def _collect_specials(value: Any, outcome: CallOutcome) -> None:
    """Note the images, deliveries, discovery and end marker anywhere in a result (plain leaves
    are skipped without a call: results are mostly rows of scalars)."""
    kind = type(value)
    if kind in _LEAVES:
        return
    if kind is dict:
        children: Any = value.values()
    elif kind is list or kind is tuple:
        children = value
    elif isinstance(value, ImageResult):
        outcome.image_ids.append(value.image_id)
        return
    elif isinstance(value, Delivery):
        outcome.deliveries.append(value)
        outcome.image_ids.extend(value.image_ids)
        return
    elif isinstance(value, Discovery):
        outcome.discovery = value
        return
    elif isinstance(value, EndConversation):
        outcome.ended = True
        return
    elif isinstance(value, dict):
        children = value.values()
    elif isinstance(value, (list, tuple)):
        children = value
    else:
        return
    for child in children:
        if type(child) not in _LEAVES:
            _collect_specials(child, outcome)


def invoke(
    world: Any,
    name: Any,
    arguments: Any,
    *,
    seat: str = ASSISTANT,
    is_available: Callable[[str], bool] | None = None,
    unavailable_hint: str = "call api_docs_search_api_docs with a query describing what you need to make it available",
) -> CallOutcome:
    """Call tool ``name`` with ``arguments`` for ``seat``; never raises for agent mistakes.

    ``is_available`` decides whether the tool is currently offered to the seat (toolbox and
    active set); a tool that exists but is not offered is refused with advice to search.
    """
    from .catalog import get_tool  # the catalogue loads on the first call, not on import

    outcome = CallOutcome(name=str(name), arguments=arguments, ok=False)
    try:
        if not isinstance(name, str) or not name:
            raise InvalidArgument("a tool call needs a non-empty string 'name'")
        tool = get_tool(name)
        if seat not in tool.visible_to:
            raise ToolNotAvailable(f"{name} cannot be called by the {seat}")
        if is_available is not None and not is_available(name):
            raise ToolNotAvailable(f"{name} is not in your active tool set; {unavailable_hint}")
        before = world.version
        with world.transaction():
            value = tool.call(world, arguments)
        outcome.wrote = world.version != before
        _collect_specials(value, outcome)
        outcome.result, outcome.text = encode_result(value)
        outcome.ok = True
    except ToolError as exc:
        outcome.error_kind = exc.kind
        outcome.text = f"Error ({exc.kind}): {exc}"
    except RowNotFound as exc:
        outcome.error_kind = "not_found"
        outcome.text = f"Error (not_found): {exc}"
    except (SchemaError, ValueError, TypeError, KeyError) as exc:
        outcome.error_kind = "invalid_argument"
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        outcome.text = f"Error (invalid_argument): {message}"
    except RecursionError:
        outcome.error_kind = "internal_error"
        outcome.text = f"Error (internal_error): {name} failed (recursion too deep)"
    except Exception as exc:  # a bug in a tool must not end the episode
        outcome.error_kind = "internal_error"
        outcome.text = f"Error (internal_error): {name} failed: {type(exc).__name__}: {exc}"
    return outcome
