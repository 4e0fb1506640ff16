"""The UI documentation the docs tools serve: components, concepts and complete examples (our text).

>>> sorted(CATEGORIES)
['Components', 'Concepts', 'Examples']
>>> item_details("examples", "booking_form")["name"]
'booking_form'
>>> search("date picker")["results"][0]["name"]
'DateTimeInput'
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from typing import Any

from ..tools.errors import NotFound
from .schema import COMPONENT_SCHEMAS, COMPONENT_TYPES, SERVER_TO_CLIENT_SCHEMA


# ---------------------------------------------------------------------------------- builders
def _text(cid: str, text: str, hint: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"text": {"literalString": text}}
    if hint:
        props["usageHint"] = hint
    return {"id": cid, "component": {"Text": props}}


def _bound_text(cid: str, path: str, hint: str | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"text": {"path": path}}
    if hint:
        props["usageHint"] = hint
    return {"id": cid, "component": {"Text": props}}


def _col(cid: str, *children: str, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "component": {"Column": {"children": {"explicitList": list(children)}, **extra}}}


def _row(cid: str, *children: str, **extra: Any) -> dict[str, Any]:
    return {"id": cid, "component": {"Row": {"children": {"explicitList": list(children)}, **extra}}}


def _button(cid: str, label_id: str, action: str, context: dict[str, Any] | None = None, primary: bool = False) -> dict[str, Any]:
    act: dict[str, Any] = {"name": action}
    if context:
        act["context"] = [{"key": k, "value": v} for k, v in context.items()]
    return {"id": cid, "component": {"Button": {"child": label_id, "action": act, "primary": primary}}}


def _entries(values: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for k, v in values.items():
        if isinstance(v, dict):
            out.append({"key": k, "valueMap": _entries(v)})
        elif isinstance(v, bool):
            out.append({"key": k, "valueBoolean": v})
        elif isinstance(v, (int, float)):
            out.append({"key": k, "valueNumber": v})
        else:
            out.append({"key": k, "valueString": str(v)})
    return out


def _screen(surface: str, components: list[dict[str, Any]], data: dict[str, Any] | None = None,
            root: str = "root") -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = [{"surfaceUpdate": {"surfaceId": surface, "components": components}}]
    if data:
        msgs.append({"dataModelUpdate": {"surfaceId": surface, "path": "/", "contents": _entries(data)}})
    msgs.append({"beginRendering": {"surfaceId": surface, "root": root}})
    return msgs


# ---------------------------------------------------------------------------------- examples
EXAMPLES: dict[str, dict[str, Any]] = {
    "choice_list": {
        "summary": "Let the user pick one of several options: a card per option, each with a Select button, "
                   "repeated by a List template over the data model.",
        "messages": _screen("choose_receipt", [
            _col("root", "title", "subtitle", "list"),
            _text("title", "Which receipt should I save?", "h2"),
            _text("subtitle", "Tap Select on the one you want.", "caption"),
            {"id": "list", "component": {"List": {"children": {"template": {"componentId": "card", "dataBinding": "/options"}}}}},
            {"id": "card", "component": {"Card": {"child": "card_row"}}},
            _row("card_row", "card_text", "select", distribution="spaceBetween", alignment="center"),
            _col("card_text", "merchant", "total"),
            _bound_text("merchant", "merchant", "h4"),
            _bound_text("total", "total"),
            _text("select_label", "Select"),
            _button("select", "select_label", "select_receipt",
                    {"receipt": {"path": "merchant"}, "total": {"path": "total"}}, primary=True),
        ], {"options": {
            "0": {"merchant": "Pine Street Books", "total": "$20.51"},
            "1": {"merchant": "Lumen Hardware", "total": "$22.13"},
        }}),
        "notes": "Buttons repeated by a template get instance ids 'select#0', 'select#1'; the user's click arrives "
                 "with the resolved context, e.g. {\"receipt\": \"Lumen Hardware\", \"total\": \"$22.13\"}.",
    },
    "booking_form": {
        "summary": "A form: text field, date and time picker, slider, choice chips and a checkbox, submitted by a "
                   "button whose context reads every field from the data model.",
        "messages": _screen("book_table", [
            _col("root", "title", "form_card", "submit"),
            _text("title", "Book a table", "h2"),
            {"id": "form_card", "component": {"Card": {"child": "form"}}},
            _col("form", "name", "when", "guests", "seating", "reminder"),
            {"id": "name", "component": {"TextField": {"label": {"literalString": "Name on the booking"},
                                                       "text": {"path": "/booking/name"}}}},
            {"id": "when", "component": {"DateTimeInput": {"label": {"literalString": "Date and time"},
                                                           "value": {"path": "/booking/when"},
                                                           "enableDate": True, "enableTime": True}}},
            {"id": "guests", "component": {"Slider": {"label": {"literalString": "Guests"},
                                                      "value": {"path": "/booking/guests"}, "minValue": 1, "maxValue": 10}}},
            {"id": "seating", "component": {"MultipleChoice": {
                "label": {"literalString": "Seating"},
                "selections": {"path": "/booking/seating", "literalArray": ["indoor"]},
                "options": [{"label": {"literalString": "Indoor"}, "value": "indoor"},
                            {"label": {"literalString": "Terrace"}, "value": "terrace"},
                            {"label": {"literalString": "Bar"}, "value": "bar"}],
                "maxAllowedSelections": 1}}},
            {"id": "reminder", "component": {"CheckBox": {"label": {"literalString": "Remind me a day before"},
                                                          "value": {"path": "/booking/reminder"}}}},
            _text("submit_label", "Book table"),
            _button("submit", "submit_label", "book", {
                "name": {"path": "/booking/name"}, "when": {"path": "/booking/when"},
                "guests": {"path": "/booking/guests"}, "seating": {"path": "/booking/seating"},
                "reminder": {"path": "/booking/reminder"}}, primary=True),
        ], {"booking": {"name": "", "when": "2026-04-18T19:30", "guests": 2, "reminder": True}}),
        "notes": "The user fills fields and presses the button in one ui_user_interact call, e.g. "
                 "field_values={\"/booking/name\": \"Ada\", \"/booking/guests\": 4}.",
    },
    "confirmation_dialog": {
        "summary": "Ask the user to confirm (or cancel) an action before doing it.",
        "messages": _screen("confirm_delete", [
            {"id": "root", "component": {"Card": {"child": "body"}}},
            _col("body", "head", "message", "divider", "buttons"),
            _row("head", "icon", "title", alignment="center"),
            {"id": "icon", "component": {"Icon": {"name": {"literalString": "warning"}}}},
            _text("title", "Delete this note?", "h3"),
            _text("message", "\u201cShopping List\u201d will be removed permanently."),
            {"id": "divider", "component": {"Divider": {}}},
            _row("buttons", "cancel", "confirm", distribution="end"),
            _text("cancel_label", "Cancel"),
            _button("cancel", "cancel_label", "cancel"),
            _text("confirm_label", "Delete"),
            _button("confirm", "confirm_label", "confirm", {"note": {"literalString": "Shopping List"}}, primary=True),
        ]),
        "notes": "Give each button its own action name (confirm / cancel) so the reply is unambiguous.",
    },
    "product_comparison": {
        "summary": "Compare products with their photos and prices; each row has an Add to cart button.",
        "image_placeholders": {"IMAGE_URL_1": 0, "IMAGE_URL_2": 1},
        "messages": _screen("compare_cameras", [
            _col("root", "title", "items"),
            _text("title", "Compare cameras", "h2"),
            {"id": "items", "component": {"List": {"children": {"explicitList": ["card_a", "card_b"]}}}},
            {"id": "card_a", "component": {"Card": {"child": "row_a"}}},
            _row("row_a", "img_a", "info_a", "add_a", alignment="center"),
            {"id": "img_a", "component": {"Image": {"url": {"literalString": "IMAGE_URL_1"}, "usageHint": "smallFeature"}}},
            {"id": "info_a", "weight": 1, "component": {"Column": {"children": {"explicitList": ["name_a", "price_a"]}}}},
            _text("name_a", "Fujifilm X100VI", "h4"),
            _text("price_a", "$1,599.00"),
            _text("add_a_label", "Add"),
            _button("add_a", "add_a_label", "add_to_cart", {"product_id": {"literalNumber": 201}}, primary=True),
            {"id": "card_b", "component": {"Card": {"child": "row_b"}}},
            _row("row_b", "img_b", "info_b", "add_b", alignment="center"),
            {"id": "img_b", "component": {"Image": {"url": {"literalString": "IMAGE_URL_2"}, "usageHint": "smallFeature"}}},
            {"id": "info_b", "weight": 1, "component": {"Column": {"children": {"explicitList": ["name_b", "price_b"]}}}},
            _text("name_b", "Leica X2", "h4"),
            _text("price_b", "$1,999.00"),
            _text("add_b_label", "Add"),
            _button("add_b", "add_b_label", "add_to_cart", {"product_id": {"literalNumber": 202}}, primary=True),
        ]),
        "notes": "Images come from the conversation: pass image_placeholders={\"IMAGE_URL_1\": <image id>, ...} "
                 "(or give an Image \"image_id\": N directly).",
    },
    "note_review": {
        "summary": "Show a draft (a note, a message) in editable fields and let the user confirm or edit it before "
                   "you create it.",
        "messages": _screen("review_note", [
            _col("root", "title", "hint", "card", "actions"),
            _text("title", "Review the note", "h2"),
            _text("hint", "Edit anything, then tap Save.", "caption"),
            {"id": "card", "component": {"Card": {"child": "fields"}}},
            _col("fields", "note_title", "note_body"),
            {"id": "note_title", "component": {"TextField": {"label": {"literalString": "Title"},
                                                             "text": {"path": "/note/title"}}}},
            {"id": "note_body", "component": {"TextField": {"label": {"literalString": "Content"},
                                                            "text": {"path": "/note/content"},
                                                            "textFieldType": "longText"}}},
            _row("actions", "discard", "save", distribution="spaceBetween"),
            _text("discard_label", "Discard"),
            _button("discard", "discard_label", "discard"),
            _text("save_label", "Save note"),
            _button("save", "save_label", "save_note",
                    {"title": {"path": "/note/title"}, "content": {"path": "/note/content"}}, primary=True),
        ], {"note": {"title": "Lunch expense", "content": "Blue Door Cafe, total $13.48"}}),
        "notes": "The Save button's context sends the (possibly edited) field values back to you.",
    },
    "settings_panel": {
        "summary": "Toggles and a slider grouped in cards, separated by dividers, with icons.",
        "messages": _screen("settings", [
            _col("root", "title", "card"),
            _text("title", "Quiet hours", "h2"),
            {"id": "card", "component": {"Card": {"child": "body"}}},
            _col("body", "row_dnd", "div1", "mute", "div2", "volume", "apply"),
            _row("row_dnd", "moon", "dnd_text", alignment="center"),
            {"id": "moon", "component": {"Icon": {"name": {"literalString": "notifications"}}}},
            _text("dnd_text", "Silence notifications from 22:00 to 07:00", "h5"),
            {"id": "div1", "component": {"Divider": {}}},
            {"id": "mute", "component": {"CheckBox": {"label": {"literalString": "Allow calls from favourites"},
                                                      "value": {"path": "/quiet/favourites"}}}},
            {"id": "div2", "component": {"Divider": {}}},
            {"id": "volume", "component": {"Slider": {"label": {"literalString": "Alarm volume"},
                                                      "value": {"path": "/quiet/volume"}, "minValue": 0, "maxValue": 10}}},
            _text("apply_label", "Apply"),
            _button("apply", "apply_label", "apply_settings",
                    {"favourites": {"path": "/quiet/favourites"}, "volume": {"path": "/quiet/volume"}}, primary=True),
        ], {"quiet": {"favourites": True, "volume": 6}}),
        "notes": "CheckBox and Slider values live in the data model; the Apply button reports them.",
    },
}


# ---------------------------------------------------------------------------------- components
_BOUND_NOTE = "bound value: {\"literalString\": ...} / {\"path\": \"/...\"} (a plain value is accepted as a literal)"

COMPONENTS: dict[str, dict[str, Any]] = {
    "Text": {
        "summary": "Static text: titles, labels, values.",
        "properties": {"text": f"the text ({_BOUND_NOTE})", "usageHint": "h1, h2, h3, h4, h5, body (default) or caption"},
        "example": _text("title", "Pick a receipt", "h2"),
    },
    "Image": {
        "summary": "A picture from the conversation or a tool (the screen cannot load web URLs).",
        "properties": {"url": "an IMAGE_URL_n placeholder mapped with image_placeholders, or \"image_id:N\"",
                       "image_id": "alternatively the image id directly",
                       "usageHint": "icon, avatar, smallFeature, mediumFeature, largeFeature or header",
                       "fit": "contain (default), cover, fill, none, scale-down", "altText": "a short description"},
        "example": {"id": "photo", "component": {"Image": {"url": {"literalString": "IMAGE_URL_1"}, "usageHint": "mediumFeature"}}},
    },
    "Icon": {
        "summary": "A small symbol, e.g. check, close, add, star, search, shoppingCart, calendarToday, event, "
                   "person, home, mail, phone, info, warning, error, settings, edit, delete, camera, photo, payment, "
                   "locationOn, send, lock, notifications, share.",
        "properties": {"name": "the icon name (bound value)"},
        "example": {"id": "ok_icon", "component": {"Icon": {"name": {"literalString": "check"}}}},
    },
    "Button": {
        "summary": "Something to press. Its action name and context come back to you when the user presses it.",
        "properties": {"child": "id of the label component (usually a Text)",
                       "action": "{\"name\": \"select\", \"context\": [{\"key\": \"id\", \"value\": {\"path\": \"id\"}}]}",
                       "primary": "true for the main (filled) button"},
        "example": _button("buy", "buy_label", "buy", {"product_id": {"literalNumber": 201}}, primary=True),
    },
    "Card": {
        "summary": "A white rounded panel grouping one child (use a Column inside for several).",
        "properties": {"child": "id of the content component"},
        "example": {"id": "card", "component": {"Card": {"child": "card_body"}}},
    },
    "Row": {
        "summary": "Children side by side.",
        "properties": {"children": "{\"explicitList\": [ids]} or {\"template\": {\"componentId\", \"dataBinding\"}}",
                       "distribution": "start, center, end, spaceBetween, spaceAround, spaceEvenly",
                       "alignment": "vertical alignment: start, center (default), end, stretch"},
        "example": _row("buttons", "cancel", "confirm", distribution="spaceBetween"),
    },
    "Column": {
        "summary": "Children stacked vertically (the usual root).",
        "properties": {"children": "{\"explicitList\": [ids]} or a template",
                       "distribution": "vertical distribution when there is spare room",
                       "alignment": "horizontal alignment: start (default), center, end, stretch"},
        "example": _col("root", "title", "list"),
    },
    "List": {
        "summary": "A list of items, usually repeated from data with a template.",
        "properties": {"children": "{\"template\": {\"componentId\": \"item\", \"dataBinding\": \"/items\"}} or an explicitList",
                       "direction": "vertical (default) or horizontal", "alignment": "as for Column"},
        "example": {"id": "list", "component": {"List": {"children": {"template": {"componentId": "item", "dataBinding": "/items"}}}}},
    },
    "Divider": {
        "summary": "A thin separating line.",
        "properties": {"axis": "horizontal (default) or vertical", "color": "#RRGGBB", "thickness": "pixels"},
        "example": {"id": "sep", "component": {"Divider": {}}},
    },
    "TextField": {
        "summary": "A text input the user can fill.",
        "properties": {"label": "the field's label", "text": "the value, usually {\"path\": \"/form/name\"}",
                       "textFieldType": "shortText (default), longText, number, date, obscured",
                       "validationRegexp": "a pattern the value must match"},
        "example": {"id": "name", "component": {"TextField": {"label": {"literalString": "Name"}, "text": {"path": "/form/name"}}}},
    },
    "CheckBox": {
        "summary": "A yes/no toggle with a label.",
        "properties": {"label": "the label", "value": "true/false, usually {\"path\": \"/form/agree\"}"},
        "example": {"id": "agree", "component": {"CheckBox": {"label": {"literalString": "Gift wrap"}, "value": {"path": "/order/gift"}}}},
    },
    "Slider": {
        "summary": "Pick a number in a range.",
        "properties": {"value": "the number (bound)", "minValue": "lowest value (default 0)",
                       "maxValue": "highest value (default 100)", "label": "optional label"},
        "example": {"id": "qty", "component": {"Slider": {"label": {"literalString": "Quantity"}, "value": {"path": "/order/qty"},
                                                          "minValue": 1, "maxValue": 5}}},
    },
    "DateTimeInput": {
        "summary": "A date and/or time picker (date picker, time picker); values are ISO strings like 2026-04-18T19:30.",
        "properties": {"value": "ISO date/time (bound)", "enableDate": "show a date (default true)",
                       "enableTime": "show a time (default false)", "label": "optional label"},
        "example": {"id": "when", "component": {"DateTimeInput": {"label": {"literalString": "Date"}, "value": {"path": "/event/date"},
                                                                  "enableDate": True}}},
    },
    "MultipleChoice": {
        "summary": "Choice chips: pick one or several options.",
        "properties": {"selections": "the chosen option values (bound array: {\"path\": ...} and/or {\"literalArray\": [...]})",
                       "options": "[{\"label\": {\"literalString\": \"Red\"}, \"value\": \"red\"}, ...]",
                       "maxAllowedSelections": "how many may be chosen (default 1)", "label": "optional label"},
        "example": {"id": "size", "component": {"MultipleChoice": {
            "selections": {"path": "/order/size"}, "maxAllowedSelections": 1,
            "options": [{"label": {"literalString": "Small"}, "value": "s"}, {"label": {"literalString": "Large"}, "value": "l"}]}}},
    },
}

CONCEPTS: dict[str, dict[str, Any]] = {
    "messages": {
        "summary": "The four messages that build a screen (a surface) and how to send them.",
        "text": "render_ui_screen takes a list of messages, applied in order. surfaceUpdate adds or replaces components "
                "(by id) on a surface; dataModelUpdate writes data; beginRendering names the root component and "
                "makes the surface drawable; deleteSurface removes it. Send surfaceUpdate + beginRendering together "
                "the first time; later calls can send only what changes. The last surface touched is rendered.",
        "example": {"beginRendering": {"surfaceId": "main", "root": "root", "styles": {"primaryColor": "#1E88E5"}}},
    },
    "components": {
        "summary": "Component instances, ids and the component tree.",
        "text": "Each component is {\"id\": \"...\", \"component\": {\"<Type>\": {properties}}}; containers refer to "
                "children by id (Card/Button 'child', Row/Column/List 'children'). Ids are unique per surface. "
                "An optional 'weight' next to 'component' shares spare width among Row children.",
        "example": _text("greeting", "Hello", "h3"),
    },
    "data_binding": {
        "summary": "Bound values, the data model and dataModelUpdate.",
        "text": "Properties such as Text.text or TextField.text take a bound value: {\"literalString\": \"Hi\"} "
                "(fixed), {\"path\": \"/form/name\"} (read from and written to the data model), or both (the literal "
                "is the initial value). dataModelUpdate merges entries {\"key\", \"valueString\" | \"valueNumber\" | "
                "\"valueBoolean\" | \"valueMap\"} into the object at 'path' (the root by default).",
        "example": {"dataModelUpdate": {"surfaceId": "main", "path": "/form", "contents": [
            {"key": "name", "valueString": "Ada"}, {"key": "guests", "valueNumber": 2}]}},
    },
    "templates": {
        "summary": "Repeat a component for each item of a data collection.",
        "text": "children: {\"template\": {\"componentId\": \"card\", \"dataBinding\": \"/items\"}} draws 'card' once "
                "per entry of /items. Inside the template, paths without a leading slash are relative to the item "
                "(\"name\" means /items/<key>/name). Repeated components get instance ids '<id>#<key>', e.g. "
                "'select#0'; the user acts on those ids.",
        "example": EXAMPLES["choice_list"]["messages"][0]["surfaceUpdate"]["components"][3],
    },
    "actions": {
        "summary": "Buttons, actions and what you receive when the user acts.",
        "text": "A Button's action has a name and a context (key -> bound value). When the user presses it you get a "
                "<ui_state_server> message with the action name, the component id, the values the user entered and "
                "the context resolved against the data model. Put everything you need to continue (ids, names, "
                "amounts) in the context.",
        "example": _button("pick", "pick_label", "select_product", {"product_id": {"path": "id"}}, primary=True),
    },
    "images": {
        "summary": "Showing images from the conversation on a screen.",
        "text": "Screens cannot fetch web URLs. Use an Image whose url is a placeholder such as \"IMAGE_URL_1\" and "
                "pass image_placeholders={\"IMAGE_URL_1\": <image id>} to render_ui_screen, or give the Image an "
                "\"image_id\" property.",
        "example": {"id": "receipt_img", "component": {"Image": {"url": {"literalString": "IMAGE_URL_1"}, "usageHint": "mediumFeature"}}},
    },
    "layout": {
        "summary": "Arranging components: Column, Row, List, Card, distribution, alignment, weight.",
        "text": "Use a Column as the root. Group each option in a Card. In a Row, distribution spaces children "
                "along the row (spaceBetween puts a label left and a button right); weight shares spare width. "
                "The screen is 600 px wide and grows with its content.",
        "example": _row("line", "label", "value", distribution="spaceBetween"),
    },
    "interaction_flow": {
        "summary": "The full loop: render, show, wait for the user, act on the choice.",
        "text": "1) render_ui_screen(ui_json) and check the screenshot and ui_interactive_elements; 2) "
                "show_ui_to_user() sends the screen to the user; 3) send the user a short message and wait; 4) the "
                "user acts (ui_user_interact) and you receive a <ui_state_server> message with the resolved data; "
                "5) do what the user chose and confirm. Offer every option the user needs as an interactive element.",
        "example": {"name": "show_ui_to_user", "arguments": {}},
    },
    "validation_errors": {
        "summary": "How invalid screens are reported.",
        "text": "An invalid ui_json changes nothing. The error lists every problem with the message index, surface id, "
                "component id and type, a JSON path into your ui_json and the reason, e.g. \"message 0 "
                "(surfaceUpdate, surface 'main'), component 'buy' (Button) at $[0].surfaceUpdate.components[3]"
                ".component.Button: 'action' is a required property\".",
        "example": {"schema": "see Concepts/schema"},
    },
    "schema": {
        "summary": "The JSON Schema of one server-to-client message.",
        "text": "Every message must validate against this schema (plain values are accepted where a bound value is "
                "expected, and a list of ids where children are expected).",
        "example": SERVER_TO_CLIENT_SCHEMA,
    },
}

CATEGORIES: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "Components": ("The building blocks of a screen, with their properties.", COMPONENTS),
    "Concepts": ("How screens are built, bound to data, shown and answered.", CONCEPTS),
    "Examples": ("Complete, valid screens to adapt: choices, forms, confirmations, comparisons.", EXAMPLES),
}


# ---------------------------------------------------------------------------------- tool bodies
def _category(name: str) -> tuple[str, dict[str, dict[str, Any]]]:
    key = str(name).strip().lower()
    for cat, (_, items) in CATEGORIES.items():
        if cat.lower() == key or cat.lower().rstrip("s") == key.rstrip("s"):
            return cat, items
    raise NotFound(f"there is no UI docs category {name!r}; categories: {', '.join(CATEGORIES)}")


def explore() -> dict[str, Any]:
    return {
        "categories": [{"name": cat, "description": desc, "items": len(items)} for cat, (desc, items) in CATEGORIES.items()],
        "next": "ui_list_items(category) lists a category; ui_get_item_details(category, item_name) shows one item.",
    }


def list_items(category: str) -> dict[str, Any]:
    cat, items = _category(category)
    return {"category": cat, "items": [{"name": n, "summary": it["summary"]} for n, it in items.items()]}


def item_details(category: str, item_name: str) -> dict[str, Any]:
    cat, items = _category(category)
    name = str(item_name).strip()
    match = next((n for n in items if n.lower() == name.lower() or n.lower() == name.lower().replace(" ", "_")), None)
    if match is None:
        close = difflib.get_close_matches(name, list(items), n=3, cutoff=0.5)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        raise NotFound(f"there is no item {item_name!r} in {cat}.{hint} Items: {', '.join(items)}")
    item = copy.deepcopy(items[match])
    out: dict[str, Any] = {"category": cat, "name": match, **item}
    if cat == "Components":
        out["schema"] = copy.deepcopy(COMPONENT_SCHEMAS[match])
    if cat == "Examples":
        call: dict[str, Any] = {"ui_json": item["messages"]}
        if "image_placeholders" in item:
            call["image_placeholders"] = item["image_placeholders"]
        out["render_ui_screen_arguments"] = call
    return out


def _haystack(name: str, item: dict[str, Any]) -> str:
    parts = [name, item.get("summary", ""), item.get("text", ""), item.get("notes", "")]
    parts += [f"{k} {v}" for k, v in item.get("properties", {}).items()]
    if "messages" in item:
        parts.append(json.dumps(item["messages"]))
    return " ".join(parts).lower()


def search(query: str, limit: int = 10) -> dict[str, Any]:
    """Items ranked by how well their name, summary and text match the query words."""
    words = [w for w in re.findall(r"[a-z0-9_]+", str(query).lower()) if len(w) > 1]
    if not words:
        return {"query": query, "results": [], "hint": "give a few words, e.g. 'checkbox' or 'confirm dialog'"}
    scored = []
    for cat, (_, items) in CATEGORIES.items():
        for name, item in items.items():
            lname, summary, hay = name.lower(), item.get("summary", "").lower(), _haystack(name, item)
            score = 0
            for w in words:
                stem = w.rstrip("s") if len(w) > 3 else w
                if stem in lname:
                    score += 10
                if stem in summary:
                    score += 5
                score += min(5, hay.count(stem))
            if score:
                scored.append((-score, cat, name, item["summary"]))
    scored.sort()
    results = [{"category": c, "name": n, "summary": s, "score": -sc} for sc, c, n, s in scored[:limit]]
    return {"query": query, "results": results}


def quick_start() -> dict[str, Any]:
    example = EXAMPLES["confirmation_dialog"]["messages"]
    return {
        "what": "Build phone screens from A2UI-style JSON messages, show them to the user and receive their choices.",
        "steps": [
            "1. render_ui_screen(ui_json=[surfaceUpdate, dataModelUpdate?, beginRendering]) -> screenshot + interactive elements",
            "2. show_ui_to_user() -> the user sees the screenshot and the element list",
            "3. message the user and wait; their action arrives as a <ui_state_server> message with the resolved data",
            "4. act on the choice (call the app tools) and confirm",
        ],
        "message_format": {
            "surfaceUpdate": {"surfaceId": "main", "components": [{"id": "root", "component": {"Column": {"children": {"explicitList": ["..."]}}}}]},
            "dataModelUpdate": {"surfaceId": "main", "path": "/form", "contents": [{"key": "name", "valueString": "Ada"}]},
            "beginRendering": {"surfaceId": "main", "root": "root"},
            "deleteSurface": {"surfaceId": "main"},
        },
        "example": {"ui_json": example},
        "components": {name: COMPONENTS[name]["summary"] for name in COMPONENT_TYPES},
        "tips": [
            "Bound values: {\"literalString\": \"text\"} or {\"path\": \"/data/path\"}; a plain string also works.",
            "Put what you need back (ids, names, prices) in each Button's action context.",
            "Images: url \"IMAGE_URL_1\" plus image_placeholders={\"IMAGE_URL_1\": <image id>}.",
            "More: ui_list_items(\"Examples\"), ui_get_item_details(\"Examples\", \"booking_form\"), ui_search_docs(\"slider\").",
        ],
    }
