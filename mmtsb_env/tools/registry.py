"""The tool registry: ``@tool`` turns a plain function ``fn(world, ...)`` into a typed tool.

This module knows no tool module: the modules defining tools import :func:`tool` from here, and
:mod:`~.catalog` imports every built-in one (look tools up there, where the catalogue is complete).

>>> from mmtsb_env.world import World, Layer
>>> @tool(app="doctest", toolboxes=("doctest",))
... def doctest_echo(world, text: str, times: int = 1) -> str:
...     '''Repeat a text.
...
...     Args:
...         text: what to repeat.
...         times: how often.
...     '''
...     return text * times
>>> REGISTRY["doctest_echo"].schema["function"]["parameters"]["required"]
['text']
>>> REGISTRY["doctest_echo"].call(World(Layer()), {"text": "ab", "times": 2})
'abab'
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterable

from .errors import InvalidArgument, PermissionDenied
from .schema import NOT_GIVEN, Param, signature_params

ASSISTANT = "assistant"
USER = "user"

REGISTRY: dict[str, "Tool"] = {}
# name -> check(world) returning None when satisfied or an error message otherwise.
REQUIREMENTS: dict[str, Callable[[Any], str | None]] = {}
# The listing rank of a tool no catalogue source defines (set until the catalogue ranks it).
UNLISTED = 1000


@dataclass
class Tool:
    """A registered tool. Call it with :meth:`call`; the world is always the first argument.

    Its parameters, description and schema are derived from the function's signature and
    docstring on first use (``derive``, by default :func:`~.schema.signature_params`), not when
    it is registered: a process that never looks at a tool never parses it.
    """

    name: str
    app: str
    fn: Callable[..., Any]
    visible_to: frozenset[str] = frozenset({ASSISTANT})
    writes: bool = False
    requires: tuple[str, ...] = ()
    toolboxes: frozenset[str] = frozenset({"full"})
    # Names of full-toolbox tools this (consolidated) tool stands in for.
    absorbs: tuple[str, ...] = ()
    # (rank of its module among the catalogue's sources, registration number): a listing order
    # that does not depend on which module happened to be imported first. The rank is UNLISTED
    # until :mod:`~.catalog` ranks the tool (and stays so for tools it does not list).
    order: tuple[int, int] = (UNLISTED, 0)
    # () -> (params, description); None means signature_params(fn).
    derive: Callable[[], tuple[list[Param], str]] | None = field(default=None, repr=False)

    @cached_property
    def _spec(self) -> tuple[list[Param], str]:
        params, description = self.derive() if self.derive is not None else signature_params(self.fn)
        if not description:
            raise TypeError(f"tool {self.name} needs a docstring")
        return params, description

    @property
    def params(self) -> list[Param]:
        return self._spec[0]

    @property
    def description(self) -> str:
        return self._spec[1]

    @cached_property
    def _by_name(self) -> dict[str, Param]:
        return {p.name: p for p in self.params}

    @cached_property
    def schema(self) -> dict[str, Any]:
        """OpenAI function-calling schema (a built-in tool's from the on-disk cache when it holds
        it, see :mod:`~.schema_cache`; the parameters are then parsed only when the tool is called)."""
        from . import schema_cache

        cacheable = REGISTRY.get(self.name) is self and self.order[0] < UNLISTED
        stored = schema_cache.lookup(self) if cacheable else None
        if stored is not None:
            return stored
        built = self._build_schema()
        if cacheable:
            schema_cache.remember(self, built)
        return built

    def _build_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": {
                    "type": "object",
                    "properties": {p.name: p.json_schema() for p in self.params},
                    "required": [p.name for p in self.params if p.required],
                },
            },
        }

    def bind(self, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Checked keyword arguments for :attr:`fn`, or :class:`InvalidArgument` naming the problem."""
        arguments = arguments or {}
        if not isinstance(arguments, dict):
            raise InvalidArgument(f"arguments of {self.name} must be a JSON object, got {type(arguments).__name__}")
        unknown = [k for k in arguments if k not in self._by_name]
        if unknown:
            known = ", ".join(self._by_name) or "none"
            raise InvalidArgument(f"{self.name} got unknown parameter(s) {', '.join(map(repr, unknown))}; it takes: {known}")
        missing = [p.name for p in self.params if p.required and p.name not in arguments]
        if missing:
            raise InvalidArgument(f"{self.name} is missing required parameter(s): {', '.join(missing)}")
        return {k: self._by_name[k].check(v) for k, v in arguments.items()}

    def check_requirements(self, world: Any) -> None:
        for req in self.requires:
            problem = REQUIREMENTS[req](world)
            if problem:
                raise PermissionDenied(problem)

    def call(self, world: Any, arguments: dict[str, Any] | None = None) -> Any:
        """Validate, check device requirements, run. Raises on failure (see ``calling.invoke``)."""
        kwargs = self.bind(arguments)
        self.check_requirements(world)
        return self.fn(world, **kwargs)

    def doc(self) -> dict[str, Any]:
        """Human/agent-readable documentation of the tool (what tool search returns)."""
        return {
            "app_name": self.app,
            "tool_name": self.name,
            "description": self.description,
            "parameters": [
                {
                    "name": p.name,
                    "type": p.json_schema().get("type", "any"),
                    "required": p.required,
                    "description": p.description,
                    **({} if p.required or p.default is NOT_GIVEN else {"default": p.default}),
                }
                for p in self.params
            ],
        }


def tool(
    *,
    app: str,
    writes: bool = False,
    visible_to: Iterable[str] = (ASSISTANT,),
    requires: Iterable[str] = (),
    toolboxes: Iterable[str] = ("full",),
    name: str | None = None,
    absorbs: Iterable[str] = (),
    derive: Callable[[], tuple[list[Param], str]] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn(world, **params)`` as a tool; the function itself is returned unchanged.

    Args:
        app: the domain the tool belongs to (``"contacts"``, ``"vision"``, ...).
        writes: whether the tool can change the world (read tools never do).
        visible_to: seats that may call it: ``"assistant"`` and/or ``"user"``.
        requires: device conditions checked before the call (see ``REQUIREMENTS``).
        toolboxes: toolbox variants the tool belongs to.
        name: registered name (defaults to the function's name).
        absorbs: full-toolbox tools a consolidated tool replaces.
        derive: builds ``(params, description)`` on first use instead of parsing ``fn``
            (consolidated tools, whose parameters come from the tools they absorb).
    """

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        tool_name = name or fn.__name__
        if derive is None:
            _check_shape(tool_name, fn)
        old = REGISTRY.get(tool_name)
        if old is not None and old.fn.__qualname__ != fn.__qualname__:
            raise KeyError(f"tool {tool_name!r} registered twice")
        entry = Tool(
            name=tool_name,
            app=app,
            fn=fn,
            visible_to=frozenset(visible_to),
            writes=writes,
            requires=tuple(requires),
            toolboxes=frozenset(toolboxes),
            absorbs=tuple(absorbs),
            order=(UNLISTED if old is None else old.order[0], len(REGISTRY)),  # re-registered: same place
            derive=derive,
        )
        REGISTRY[tool_name] = entry
        return fn

    return register


def _check_shape(name: str, fn: Callable[..., Any]) -> None:
    """The checks of a tool's shape that need no parsing: a docstring, no ``*args``/``**kwargs``."""
    if not (fn.__doc__ or "").strip():
        raise TypeError(f"tool {name} needs a docstring")
    code = getattr(fn, "__code__", None)
    if code is not None and getattr(fn, "__signature__", None) is None and code.co_flags & _VARARGS:
        raise TypeError(f"tool {fn.__name__}: *args/**kwargs are not allowed")


_VARARGS = inspect.CO_VARARGS | inspect.CO_VARKEYWORDS


def requirement(name: str) -> Callable[[Callable[[Any], str | None]], Callable[[Any], str | None]]:
    """Register a device condition that tools can list in ``requires``."""

    def register(check: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
        REQUIREMENTS[name] = check
        return check

    return register
