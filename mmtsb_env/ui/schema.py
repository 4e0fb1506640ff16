"""JSON Schemas of the declarative UI protocol (A2UI v0.8 message shapes), written for this project.

Four server-to-client messages build and change a *surface* (one screen):

- ``beginRendering``  ``{"surfaceId", "root", "styles"?}``: the surface is ready, start at ``root``;
- ``surfaceUpdate``   ``{"surfaceId", "components": [{"id", "weight"?, "component": {Type: {...}}}]}``;
- ``dataModelUpdate`` ``{"surfaceId", "path"?, "contents": [{"key", "valueString" | "valueNumber" |
  "valueBoolean" | "valueMap"}]}``;
- ``deleteSurface``   ``{"surfaceId"}``.

One client-to-server message reports what the user did: ``userAction`` ``{"name", "surfaceId",
"sourceComponentId", "timestamp", "context"}``.

Validation is split in two layers so errors can name the offending component: the *envelope*
schema (:data:`MESSAGE_SCHEMA`) checks the message shapes, then each component's properties are
checked against :data:`COMPONENT_SCHEMAS` ``[type]``. :data:`SERVER_TO_CLIENT_SCHEMA` combines both
into one standalone schema (what the docs show).

>>> sorted(COMPONENT_SCHEMAS) == sorted(COMPONENT_TYPES)
True
>>> import jsonschema
>>> jsonschema.Draft202012Validator(SERVER_TO_CLIENT_SCHEMA).is_valid(
...     {"surfaceUpdate": {"surfaceId": "s", "components": [
...         {"id": "t", "component": {"Text": {"text": {"literalString": "Hi"}}}}]}})
True
"""

from __future__ import annotations

import copy
from types import MappingProxyType
from typing import Any

MESSAGE_TYPES = ("beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface")

COMPONENT_TYPES = (
    "Text", "Image", "Icon", "Button", "Card", "Row", "Column", "List", "Divider",
    "TextField", "CheckBox", "Slider", "DateTimeInput", "MultipleChoice",
)
# Components a user can act on (they appear in ``ui_interactive_elements``).
INTERACTIVE_TYPES = ("Button", "TextField", "CheckBox", "Slider", "DateTimeInput", "MultipleChoice")
# Documented upstream but not drawn here; named in the error so the agent picks something else.
UNSUPPORTED_TYPES = ("Tabs", "Modal", "Video", "AudioPlayer")

TEXT_HINTS = ("h1", "h2", "h3", "h4", "h5", "body", "caption")
IMAGE_HINTS = ("icon", "avatar", "smallFeature", "mediumFeature", "largeFeature", "header")
IMAGE_FITS = ("contain", "cover", "fill", "none", "scale-down")
DISTRIBUTIONS = ("start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly")
ALIGNMENTS = ("start", "center", "end", "stretch")
TEXT_FIELD_TYPES = ("shortText", "longText", "number", "date", "obscured")

_ID = {"type": "string", "minLength": 1, "maxLength": 200}
_PATH = {"type": "string", "minLength": 1, "maxLength": 500}


def _bound(kind: str, literal_schema: dict[str, Any]) -> dict[str, Any]:
    """A value given literally, read from the data model (``path``), or both (literal = initial value)."""
    return {
        "description": f"a {kind}: {{\"literal{kind.capitalize()}\": ...}}, {{\"path\": \"/data/path\"}} or both",
        "type": "object",
        "properties": {f"literal{kind.capitalize()}": literal_schema, "path": _PATH},
        "additionalProperties": False,
        "minProperties": 1,
    }


BOUND_STRING = _bound("string", {"type": "string"})
BOUND_NUMBER = _bound("number", {"type": "number"})
BOUND_BOOLEAN = _bound("boolean", {"type": "boolean"})
BOUND_ARRAY = _bound("array", {"type": "array", "items": {"type": "string"}})
BOUND_VALUE = {
    "description": "any bound value: literalString / literalNumber / literalBoolean / literalArray and/or path",
    "type": "object",
    "properties": {
        "literalString": {"type": "string"},
        "literalNumber": {"type": "number"},
        "literalBoolean": {"type": "boolean"},
        "literalArray": {"type": "array", "items": {"type": "string"}},
        "path": _PATH,
    },
    "additionalProperties": False,
    "minProperties": 1,
}

CHILDREN = {
    "description": "the children: a fixed list of component ids, or a template repeated for each item of a data-model collection",
    "type": "object",
    "properties": {
        "explicitList": {"type": "array", "items": _ID},
        "template": {
            "type": "object",
            "properties": {"componentId": _ID, "dataBinding": _PATH},
            "required": ["componentId", "dataBinding"],
            "additionalProperties": False,
        },
    },
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
}

ACTION = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 100},
        "context": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"key": {"type": "string", "minLength": 1}, "value": BOUND_VALUE},
                "required": ["key", "value"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["name"],
    "additionalProperties": False,
}


def _component(properties: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": properties, "additionalProperties": False, **extra}
    if required:
        schema["required"] = list(required)
    return schema


_COMPONENTS: dict[str, dict[str, Any]] = {
    "Text": _component(
        {"text": BOUND_STRING, "usageHint": {"enum": list(TEXT_HINTS)}}, ("text",)),
    "Image": _component(
        {
            "url": BOUND_STRING,
            "image_id": {"type": "integer", "minimum": 0, "description": "id of an image in the episode's image store"},
            "fit": {"enum": list(IMAGE_FITS)},
            "usageHint": {"enum": list(IMAGE_HINTS)},
            "altText": BOUND_STRING,
        },
        anyOf=[{"required": ["url"]}, {"required": ["image_id"]}],
    ),
    "Icon": _component({"name": BOUND_STRING}, ("name",)),
    "Button": _component(
        {"child": _ID, "action": ACTION, "primary": {"type": "boolean"}}, ("child", "action")),
    "Card": _component({"child": _ID}, ("child",)),
    "Row": _component(
        {"children": CHILDREN, "distribution": {"enum": list(DISTRIBUTIONS)}, "alignment": {"enum": list(ALIGNMENTS)}},
        ("children",)),
    "Column": _component(
        {"children": CHILDREN, "distribution": {"enum": list(DISTRIBUTIONS)}, "alignment": {"enum": list(ALIGNMENTS)}},
        ("children",)),
    "List": _component(
        {"children": CHILDREN, "direction": {"enum": ["vertical", "horizontal"]}, "alignment": {"enum": list(ALIGNMENTS)}},
        ("children",)),
    "Divider": _component(
        {"axis": {"enum": ["horizontal", "vertical"]}, "color": {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"},
         "thickness": {"type": "number", "minimum": 0.5, "maximum": 8}}),
    "TextField": _component(
        {"label": BOUND_STRING, "text": BOUND_STRING, "textFieldType": {"enum": list(TEXT_FIELD_TYPES)},
         "validationRegexp": {"type": "string"}},
        ("label",)),
    "CheckBox": _component({"label": BOUND_STRING, "value": BOUND_BOOLEAN}, ("label", "value")),
    "Slider": _component(
        {"value": BOUND_NUMBER, "minValue": {"type": "number"}, "maxValue": {"type": "number"}, "label": BOUND_STRING},
        ("value",)),
    "DateTimeInput": _component(
        {"value": BOUND_STRING, "enableDate": {"type": "boolean"}, "enableTime": {"type": "boolean"},
         "outputFormat": {"type": "string"}, "label": BOUND_STRING},
        ("value",)),
    "MultipleChoice": _component(
        {
            "selections": BOUND_ARRAY,
            "options": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {"label": BOUND_STRING, "value": {"type": "string", "minLength": 1}},
                    "required": ["label", "value"],
                    "additionalProperties": False,
                },
            },
            "maxAllowedSelections": {"type": "integer", "minimum": 1},
            "label": BOUND_STRING,
        },
        ("selections", "options"),
    ),
}
COMPONENT_SCHEMAS = MappingProxyType(_COMPONENTS)

_SURFACE_ID = {"type": "string", "minLength": 1, "maxLength": 100}

# A component instance: the envelope only checks there is exactly one type key; the type's own
# schema is applied separately so the error can name the component.
COMPONENT_INSTANCE = {
    "type": "object",
    "properties": {
        "id": _ID,
        "weight": {"type": "number", "exclusiveMinimum": 0},
        "component": {"type": "object", "description": "exactly one key: the component type, e.g. {\"Text\": {...}}"},
    },
    "required": ["id", "component"],
    "additionalProperties": False,
}

DATA_ENTRY = {
    "type": "object",
    "properties": {
        "key": {"type": "string", "minLength": 1},
        "valueString": {"type": "string"},
        "valueNumber": {"type": "number"},
        "valueBoolean": {"type": "boolean"},
        "valueMap": {"type": "array", "items": {"$ref": "#/$defs/dataEntry"}},
    },
    "required": ["key"],
    "additionalProperties": False,
    "minProperties": 2,
    "maxProperties": 2,
}

_MESSAGE_BODIES: dict[str, dict[str, Any]] = {
    "beginRendering": {
        "type": "object",
        "properties": {
            "surfaceId": _SURFACE_ID,
            "root": _ID,
            "styles": {
                "type": "object",
                "properties": {
                    "primaryColor": {"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"},
                    "font": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
        "required": ["surfaceId", "root"],
        "additionalProperties": False,
    },
    "surfaceUpdate": {
        "type": "object",
        "properties": {
            "surfaceId": _SURFACE_ID,
            "components": {"type": "array", "minItems": 1, "items": COMPONENT_INSTANCE},
        },
        "required": ["surfaceId", "components"],
        "additionalProperties": False,
    },
    "dataModelUpdate": {
        "type": "object",
        "properties": {
            "surfaceId": _SURFACE_ID,
            "path": {"type": "string"},
            "contents": {"type": "array", "items": {"$ref": "#/$defs/dataEntry"}},
        },
        "required": ["surfaceId", "contents"],
        "additionalProperties": False,
    },
    "deleteSurface": {
        "type": "object",
        "properties": {"surfaceId": _SURFACE_ID},
        "required": ["surfaceId"],
        "additionalProperties": False,
    },
}

MESSAGE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "UI server-to-client message (envelope)",
    "type": "object",
    "properties": {name: {"$ref": f"#/$defs/{name}"} for name in MESSAGE_TYPES},
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
    "$defs": {**_MESSAGE_BODIES, "dataEntry": DATA_ENTRY},
}


def _full_schema() -> dict[str, Any]:
    """The envelope with every component type's schema folded in (one self-contained schema)."""
    schema = copy.deepcopy(MESSAGE_SCHEMA)
    schema["title"] = "UI server-to-client message"
    defs = schema["$defs"]
    for name, comp in _COMPONENTS.items():
        defs[f"component_{name}"] = copy.deepcopy(comp)
    instance = defs["surfaceUpdate"]["properties"]["components"]["items"]
    instance["properties"]["component"] = {
        "type": "object",
        "properties": {name: {"$ref": f"#/$defs/component_{name}"} for name in _COMPONENTS},
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 1,
    }
    return schema


SERVER_TO_CLIENT_SCHEMA = _full_schema()

CLIENT_TO_SERVER_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "UI client-to-server message",
    "type": "object",
    "properties": {
        "userAction": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1},
                "surfaceId": _SURFACE_ID,
                "sourceComponentId": _ID,
                "timestamp": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}"},
                "context": {"type": "object"},
            },
            "required": ["name", "surfaceId", "sourceComponentId", "timestamp", "context"],
            "additionalProperties": False,
        },
    },
    "required": ["userAction"],
    "additionalProperties": False,
}
