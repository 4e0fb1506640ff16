"""Typed Python stand-ins for the env's tools, for APIs that read schemas off functions (TRL's ``tools=``).

transformers' ``get_json_schema`` needs a type hint on every argument and a Google-style docstring;
the raw tool functions take an untyped ``world`` first, so it rejects them. :func:`tool_functions`
builds, from the OpenAI schemas an env offers, one function per tool with the same name,
parameters (typed, defaults ``None`` for optional ones), description and ``(choices: ...)`` enums;
calling it forwards the arguments to ``call(name, arguments)`` -- e.g. a running env's
:meth:`~mmtsb_env.episode.engine.Episode.act` -- and returns that text.

>>> fns = tool_functions([{"type": "function", "function": {"name": "set_volume", "description": "Set the volume.",
...     "parameters": {"type": "object", "properties": {"level": {"type": "integer", "description": "0-100."}},
...                    "required": ["level"]}}}], lambda name, args: f"{name}{args}")
>>> fns[0](level=3), fns[0].__annotations__["level"]
("set_volume{'level': 3}", <class 'int'>)
"""

from __future__ import annotations

import inspect
import json
import keyword
from typing import Any, Callable, Optional, Sequence

_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}


def _annotation(prop: dict[str, Any]) -> Any:
    kinds = prop.get("type")
    kinds = [k for k in (kinds if isinstance(kinds, list) else [kinds]) if k and k != "null"]
    if len(kinds) == 1 and kinds[0] in _TYPES:
        base = _TYPES[kinds[0]]
        if base is list and isinstance(prop.get("items"), dict) and prop["items"].get("type") in _TYPES:
            return list[_TYPES[prop["items"]["type"]]]
        return base
    if "anyOf" in prop:
        options = [_annotation(p) for p in prop["anyOf"] if p.get("type") != "null"]
        return options[0] if len(options) == 1 else str
    return str  # untyped: the model writes any JSON value; the env checks it


def _arg_doc(name: str, prop: dict[str, Any]) -> str:
    text = " ".join(str(prop.get("description") or name.replace("_", " ")).split())
    choices = [c for c in prop.get("enum") or [] if c is not None]
    if choices:
        text += f" (choices: {json.dumps(choices)})"
    return f"        {name}: {text}"


def tool_function(schema: dict[str, Any], call: Callable[[str, dict[str, Any]], Any]) -> Callable[..., Any]:
    """One typed function for one OpenAI tool schema (see the module docstring)."""
    fn_schema = schema.get("function", schema)
    name = fn_schema["name"]
    params = fn_schema.get("parameters") or {}
    props = params.get("properties") or {}
    required = set(params.get("required") or [])
    bad = [p for p in props if not p.isidentifier() or keyword.iskeyword(p)]
    if bad:
        raise ValueError(f"tool {name}: parameter names {bad} are not Python identifiers")
    ordered = sorted(props, key=lambda p: p not in required)  # required first, as Python demands
    signature, annotations = [], {}
    for pname in ordered:
        hint = _annotation(props[pname])
        if pname not in required:
            hint = Optional[hint]
        annotations[pname] = hint
        default = inspect.Parameter.empty if pname in required else None
        signature.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
    annotations["return"] = str

    def tool(**kwargs: Any) -> str:
        arguments = {k: v for k, v in kwargs.items() if k in required or v is not None}
        result = call(name, arguments)
        return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False)

    description = " ".join(str(fn_schema.get("description") or name).split())
    doc = [description]
    if ordered:
        doc += ["", "    Args:", *(_arg_doc(p, props[p]) for p in ordered)]
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = "\n".join(doc) + "\n"
    tool.__signature__ = inspect.Signature(signature, return_annotation=str)
    tool.__annotations__ = annotations
    return tool


def tool_functions(schemas: Sequence[dict[str, Any]], call: Callable[[str, dict[str, Any]], Any]) -> list[Callable[..., Any]]:
    """Typed functions for ``schemas`` (``info["tools"]`` or :func:`mmtsb_env.list_tools`), all forwarding to ``call``."""
    return [tool_function(s, call) for s in schemas]
