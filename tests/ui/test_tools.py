"""The ui tools through ``invoke``: success and error paths, state left untouched by failures."""

from __future__ import annotations

import json

import pytest

from mmtsb_env.tools.catalog import get_tool
from mmtsb_env.ui import COMPONENT_TYPES
from mmtsb_env.ui.docs import EXAMPLES
from mmtsb_env.ui.state import ui_state

from .conftest import button, choice_screen, screen, text


def render(ui, messages, **kw):
    return ui("render_ui_screen", ui_json=messages, **kw).result


# ---------------------------------------------------------------------------------- render_ui_screen
def test_render_stores_a_screenshot_and_lists_interactive_elements(ui, world):
    out = ui("render_ui_screen", ui_json=choice_screen())
    image_id = out.result["image"]["image_id"]
    assert out.image_ids == [image_id] == [2]
    assert world.services["images"].source(image_id) == "ui"
    assert world.services["images"].get(image_id).width == 600
    els = out.result["ui_interactive_elements"]
    assert [(e["component_id"], e["label"], e["action"], e["context"]) for e in els] == [
        ("pick_a", "Select", "select", {"store": "Pine Street Books"}),
        ("pick_b", "Select", "select", {"store": "Lumen Hardware"})]
    assert els[1]["description"] == "Lumen Hardware | $22.13"
    assert els[0]["box"][2] <= 600 and els[0]["box"][1] < els[1]["box"][1]


def test_render_accepts_json_text_and_placeholders(ui, world):
    msgs = screen("p", [{"id": "root", "component": {"Image": {"url": "IMAGE_URL_1", "altText": "receipt"}}}])
    out = render(ui, json.dumps(msgs), image_placeholders='{"IMAGE_URL_1": 1}')
    assert out["image"]["image_id"] == 2 and "warnings" not in out
    stored = ui_state(world).surfaces["p"].components["root"].props["url"]
    assert stored == {"literalString": "image_id:1"}
    assert out["note"].startswith("this screen has no interactive elements")


def test_template_lists_get_instance_ids_and_resolved_context(ui):
    data = [{"key": "items", "valueMap": [
        {"key": "x1", "valueMap": [{"key": "name", "valueString": "Tea"}, {"key": "price", "valueNumber": 2.5}]},
        {"key": "x2", "valueMap": [{"key": "name", "valueString": "Cake"}, {"key": "price", "valueNumber": 4}]}]}]
    comps = [{"id": "root", "component": {"List": {"children": {"template": {"componentId": "row", "dataBinding": "/items"}}}}},
             {"id": "row", "component": {"Row": {"children": ["name", "buy"]}}},
             text("name", {"path": "name"})] + button("buy", "Buy", "buy", {"name": {"path": "name"}, "price": {"path": "price"}})
    out = render(ui, screen("menu", comps, data=data))
    els = out["ui_interactive_elements"]
    assert [(e["component_id"], e["context"]) for e in els] == [
        ("buy#x1", {"name": "Tea", "price": 2.5}), ("buy#x2", {"name": "Cake", "price": 4})]
    assert els[0]["description"] == "Tea"


def test_incremental_updates_rerender_the_surface(ui, world):
    comps = [{"id": "root", "component": {"Text": {"text": {"path": "/msg"}}}}]
    render(ui, screen("s", comps, data=[{"key": "msg", "valueString": "one"}]))
    out = render(ui, [{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "msg", "valueString": "two"}]}}])
    assert out["surface_id"] == "s" and out["image"]["image_id"] == 3
    assert ui_state(world).surfaces["s"].data == {"msg": "two"}


def test_delete_surface(ui, world):
    render(ui, choice_screen("a"))
    out = render(ui, [{"deleteSurface": {"surfaceId": "a"}}])
    assert out["deleted_surfaces"] == ["a"] and "image" not in out
    assert ui_state(world).surfaces == {}


@pytest.mark.parametrize("messages, fragments", [
    ("{bad json", ["not valid JSON"]),
    (screen("s", [{"id": "root", "component": {"Column": {"children": ["ghost"]}}}]),
     ["component 'root' (Column)", "children.explicitList refers to component 'ghost', which does not exist",
      "$[0].surfaceUpdate.components[0].component.Column.children.explicitList"]),
    (screen("s", [text("t", "x")], root="nope"), ["the root component 'nope' does not exist", "defined ids: t"]),
    ([{"surfaceUpdate": {"surfaceId": "s", "components": [text("t", "x")]}}], ["has no beginRendering yet"]),
    (screen("s", [{"id": "root", "component": {"Column": {"children": ["root"]}}}]), ["cycle: root -> root"]),
    (screen("s", [{"id": "root", "component": {"Image": {"url": "IMAGE_URL_3"}}}]), ["placeholder IMAGE_URL_3 has no image"]),
    (screen("s", [{"id": "root", "component": {"Image": {"image_id": 7}}}]), ["image 7 does not exist", "valid ids are 0-2", "$[0].surfaceUpdate.components[0].component.Image.image_id"]),
    ([{"deleteSurface": {"surfaceId": "ghost"}}], ["there is no surface 'ghost' to delete"]),
    (screen("s", [{"id": "root", "component": {"Text": {"txt": "x"}}}]), ["'text' is a required property", "'txt' was unexpected"]),
])
def test_render_errors_change_nothing(ui, messages, fragments):
    render(ui, choice_screen("keep"))
    error = ui.fail("render_ui_screen", ui_json=messages)
    assert error.startswith("Error (invalid_argument): ui_json is invalid")
    for fragment in fragments:
        assert fragment in error, error


def test_bad_placeholder_arguments(ui):
    msgs = screen("s", [{"id": "root", "component": {"Image": {"url": "IMAGE_URL_1"}}}])
    assert "image 9 does not exist" in ui.fail("render_ui_screen", ui_json=msgs, image_placeholders={"IMAGE_URL_1": 9})
    assert "must be an image id" in ui.fail("render_ui_screen", ui_json=msgs, image_placeholders={"IMAGE_URL_1": "cat"})
    assert "not valid JSON" in ui.fail("render_ui_screen", ui_json=msgs, image_placeholders="{")
    assert "must map placeholder names" in ui.fail("render_ui_screen", ui_json=msgs, image_placeholders=[1])


def test_render_without_an_image_store_is_a_clear_error():
    from mmtsb_env.tools.calling import invoke
    from mmtsb_env.world import Layer, World

    outcome = invoke(World(Layer()), "render_ui_screen", {"ui_json": choice_screen()})
    assert not outcome.ok and "no image store" in outcome.text


# ---------------------------------------------------------------------------------- show_ui_to_user
def test_show_delivers_the_last_screen_to_the_user(ui, world):
    render(ui, choice_screen())
    out = ui("show_ui_to_user")
    (delivery,) = out.deliveries
    assert delivery.to == "user" and delivery.image_ids == (2,)
    assert delivery.text.startswith("<ui_state_server>") and delivery.text.endswith("</ui_state_server>")
    assert 'Button "Select" (component_id=pick_b, action_name=select, context={"store": "Lumen Hardware"})' in delivery.text
    assert ui_state(world).shown[-1].surface_id == "pick"


def test_show_errors(ui):
    assert "call render_ui_screen first" in ui.fail("show_ui_to_user")
    render(ui, choice_screen("gone"))
    render(ui, [{"deleteSurface": {"surfaceId": "gone"}}])
    assert "was deleted after it was rendered" in ui.fail("show_ui_to_user")


# ---------------------------------------------------------------------------------- ui_user_interact
def shown(ui, messages):
    out = render(ui, messages)
    ui("show_ui_to_user")
    return out


def test_button_press_notifies_the_assistant_with_resolved_data(ui, world):
    shown(ui, choice_screen())
    out = ui("ui_user_interact", seat="user", action_name="select", surface_id="pick", component_id="pick_b")
    (delivery,) = out.deliveries
    assert delivery.to == "assistant" and delivery.image_ids == (3,)
    assert 'Resolved action data: {"store": "Lumen Hardware"}' in delivery.text
    record = ui_state(world).interactions[-1]
    assert record.user_action["userAction"] == {"name": "select", "surfaceId": "pick", "sourceComponentId": "pick_b",
                                               "timestamp": "2026-04-16T09:30:00+00:00", "context": {"store": "Lumen Hardware"}}
    assert ui_state(world).renders[-1].kind == "interaction"


def test_form_submission_writes_the_data_model(ui, world):
    ex = EXAMPLES["booking_form"]
    shown(ui, ex["messages"])
    out = ui("ui_user_interact", seat="user", action_name="book", surface_id="book_table", component_id="submit",
             field_values={"name": "Ada", "/booking/guests": 4.0, "seating": "Terrace", "reminder": "false",
                           "when": "2026-04-20T20:00"})
    context = ui_state(world).interactions[-1].user_action["userAction"]["context"]
    assert context == {"name": "Ada", "when": "2026-04-20T20:00", "guests": 4, "seating": ["terrace"], "reminder": False}
    assert '"/booking/name": "Ada"' in out.deliveries[0].text
    assert ui_state(world).surfaces["book_table"].data["booking"]["name"] == "Ada"


def test_checkbox_toggles_without_values_and_template_base_id_needs_an_instance(ui, world):
    comps = [{"id": "root", "component": {"Column": {"children": ["cb"]}}},
             {"id": "cb", "component": {"CheckBox": {"label": "Gift wrap", "value": {"path": "/gift"}}}}]
    shown(ui, screen("opts", comps))
    ui("ui_user_interact", seat="user", action_name="toggle", surface_id="opts", component_id="cb")
    assert ui_state(world).surfaces["opts"].data["gift"] is True
    shown(ui, screen("list", [{"id": "root", "component": {"List": {"children": {"template": {"componentId": "b", "dataBinding": "/xs"}}}}}]
                     + button("b", "Go", "go"), data=[{"key": "xs", "valueMap": [{"key": "0", "valueString": "a"}, {"key": "1", "valueString": "b"}]}]))
    error = ui.fail("ui_user_interact", seat="user", action_name="go", surface_id="list", component_id="b")
    assert "repeated by a template; use one of: b#0, b#1" in error


@pytest.mark.parametrize("args, fragment", [
    (dict(action_name="select", surface_id="nope", component_id="pick_a"), "there is no surface 'nope'"),
    (dict(action_name="select", surface_id="pick", component_id="ghost"), "no component 'ghost' on this screen; interactive components: pick_a, pick_b"),
    (dict(action_name="select", surface_id="pick", component_id="title"), "is a Text, which cannot be interacted with"),
    (dict(action_name="buy", surface_id="pick", component_id="pick_a"), "triggers action 'select', not 'buy'"),
    (dict(action_name="select", surface_id="pick", component_id="pick_a", field_values={"/x": 1}), "is not a field of this screen"),
    (dict(action_name="select", surface_id="pick", component_id="pick_a", field_values="[1"), "field_values is not valid JSON"),
    (dict(action_name=" ", surface_id="pick", component_id="pick_a"), "action_name must be a non-empty string"),
])
def test_interaction_errors(ui, args, fragment):
    shown(ui, choice_screen())
    assert fragment in ui.fail("ui_user_interact", seat="user", **args)


@pytest.mark.parametrize("values, fragment", [
    ({"name": ["x"]}, "takes text"),
    ({"/booking/guests": 11}, "ranges from 1 to 10"),
    ({"/booking/guests": "many"}, "takes a number"),
    ({"seating": ["indoor", "bar"]}, "at most 1 selection"),
    ({"seating": "roof"}, "has no option \"roof\""),
    ({"reminder": 1}, "takes true or false"),
    ({"when": "soon"}, "is not an ISO date/time"),
])
def test_field_value_errors(ui, values, fragment):
    shown(ui, EXAMPLES["booking_form"]["messages"])
    assert fragment in ui.fail("ui_user_interact", seat="user", action_name="book", surface_id="book_table",
                               component_id="submit", field_values=values)


def test_text_field_pattern_and_number_type(ui):
    comps = [{"id": "root", "component": {"Column": {"children": ["zip", "qty"]}}},
             {"id": "zip", "component": {"TextField": {"label": "ZIP", "text": {"path": "/zip"}, "validationRegexp": "[0-9]{5}"}}},
             {"id": "qty", "component": {"TextField": {"label": "Qty", "text": {"path": "/qty"}, "textFieldType": "number"}}}]
    shown(ui, screen("f", comps))
    assert "does not match the field's pattern" in ui.fail("ui_user_interact", seat="user", action_name="change",
                                                           surface_id="f", component_id="zip", field_values={"zip": "12a"})
    assert "is a number field" in ui.fail("ui_user_interact", seat="user", action_name="change", surface_id="f",
                                          component_id="qty", field_values={"qty": "two"})
    assert "needs its new value" in ui.fail("ui_user_interact", seat="user", action_name="change", surface_id="f",
                                            component_id="zip")
    ui("ui_user_interact", seat="user", action_name="change", surface_id="f", component_id="zip", field_values={"zip": 94110})


def test_interaction_requires_a_shown_screen(ui):
    render(ui, choice_screen())
    error = ui.fail("ui_user_interact", seat="user", action_name="select", surface_id="pick", component_id="pick_a")
    assert "no screen has been shown to you yet" in error
    render(ui, choice_screen("other"))
    ui("show_ui_to_user")
    error = ui.fail("ui_user_interact", seat="user", action_name="select", surface_id="pick", component_id="pick_a")
    assert "has not been shown to you" in error


def test_seats_see_only_their_tools(ui):
    assert get_tool("ui_user_interact").visible_to == frozenset({"user"})
    assert "cannot be called by the assistant" in ui.fail("ui_user_interact", action_name="a", surface_id="s", component_id="c")
    assert "cannot be called by the user" in ui.fail("render_ui_screen", seat="user", ui_json=choice_screen())


# ---------------------------------------------------------------------------------- docs tools
def test_docs_tools(ui):
    cats = ui("ui_explore_capabilities").result["categories"]
    assert [c["name"] for c in cats] == ["Components", "Concepts", "Examples"]
    items = ui("ui_list_items", category="examples").result["items"]
    assert {"choice_list", "booking_form", "confirmation_dialog"} <= {i["name"] for i in items}
    details = ui("ui_get_item_details", category="Components", item_name="button").result
    assert details["name"] == "Button" and details["schema"]["required"] == ["child", "action"]
    example = ui("ui_get_item_details", category="Examples", item_name="booking form").result
    # an example's arguments render as they are
    out = ui("render_ui_screen", **example["render_ui_screen_arguments"]).result
    assert len(out["ui_interactive_elements"]) == 6
    hits = ui("ui_search_docs", query="confirm dialog").result["results"]
    assert hits[0]["name"] == "confirmation_dialog"
    quick = ui("ui_get_quick_start").result
    assert list(quick["components"]) == list(COMPONENT_TYPES)
    assert quick["example"]["ui_json"] == EXAMPLES["confirmation_dialog"]["messages"]


def test_docs_errors(ui):
    assert "no UI docs category 'Widgets'" in ui.fail("ui_list_items", category="Widgets")
    error = ui.fail("ui_get_item_details", category="Components", item_name="Buton")
    assert "Did you mean: Button?" in error
    assert ui("ui_search_docs", query="?").result["results"] == []
