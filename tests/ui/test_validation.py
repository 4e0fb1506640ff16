"""Schema validation of UI messages: shapes, per-component checks, error locations, shorthand."""

from __future__ import annotations

import json

import jsonschema
import pytest

from mmtsb_env.ui import COMPONENT_TYPES, SERVER_TO_CLIENT_SCHEMA, UIValidationError, parse_ui_json, validate_messages
from mmtsb_env.ui.docs import EXAMPLES
from mmtsb_env.ui.validation import validate_user_action

from .conftest import choice_screen, text


def issues_of(messages):
    with pytest.raises(UIValidationError) as info:
        validate_messages(messages)
    return info.value.issues, str(info.value)


def one_component(component, cid="c"):
    return [{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": cid, "component": component}]}}]


def test_examples_and_choice_screen_validate_against_the_standalone_schema():
    validator = jsonschema.Draft202012Validator(SERVER_TO_CLIENT_SCHEMA)
    for example in EXAMPLES.values():
        for msg in validate_messages(example["messages"]):
            assert validator.is_valid(msg), list(validator.iter_errors(msg))[:1]
    assert len(validate_messages(choice_screen())) == 2


def test_standalone_schema_rejects_an_unknown_component_and_a_missing_property():
    validator = jsonschema.Draft202012Validator(SERVER_TO_CLIENT_SCHEMA)
    assert not validator.is_valid(one_component({"Tabs": {}})[0])
    assert not validator.is_valid(one_component({"Button": {"child": "x"}})[0])


def test_missing_required_property_names_surface_component_and_path():
    issues, text_ = issues_of([{"surfaceUpdate": {"surfaceId": "main", "components": [
        text("t", "Hi"),
        {"id": "buy", "component": {"Button": {"child": "t"}}}]}}])
    (issue,) = issues
    assert (issue.message_index, issue.surface_id, issue.component_id, issue.component_type) == (0, "main", "buy", "Button")
    assert issue.path == "$[0].surfaceUpdate.components[1].component.Button"
    assert "'action' is a required property" in issue.reason
    assert "component 'buy' (Button)" in text_ and "nothing was changed" in text_


def test_wrong_enum_and_unknown_property_are_reported_together():
    issues, _ = issues_of(one_component({"Text": {"text": "x", "usageHint": "huge", "colour": "red"}}))
    reasons = sorted(i.reason for i in issues)
    assert any("'huge' is not one of" in r for r in reasons)
    assert any("'colour' was unexpected" in r for r in reasons)
    assert {i.path for i in issues} == {"$[0].surfaceUpdate.components[0].component.Text",
                                        "$[0].surfaceUpdate.components[0].component.Text.usageHint"}


def test_unknown_and_unsupported_component_types_suggest_alternatives():
    issues, _ = issues_of(one_component({"Textfield": {"label": "x"}}))
    assert "did you mean 'TextField'?" in issues[0].reason
    issues, _ = issues_of(one_component({"Modal": {}}))
    assert "'Modal' is not supported" in issues[0].reason and "MultipleChoice" in issues[0].reason


@pytest.mark.parametrize("component, fragment", [
    ({"Image": {"fit": "cover"}}, "needs 'url'"),
    ({"Slider": {"value": 3, "minValue": 5, "maxValue": 1}}, "must be smaller than maxValue"),
    ({"MultipleChoice": {"selections": [], "options": [{"label": "A", "value": "a"}, {"label": "B", "value": "a"}]}},
     "option values must be unique"),
    ({"MultipleChoice": {"selections": {"path": "/x"}, "options": []}}, "should be non-empty"),
    ({"Row": {"children": {"explicitList": ["a"], "template": {"componentId": "a", "dataBinding": "/x"}}}}, "not both"),
    ({"CheckBox": {"label": "Gift", "value": "yes"}}, "expected a boolean"),
    ({"Slider": {"value": {"literalNumber": "3"}}}, "is not of type 'number'"),
    ({"Button": {"child": "l", "action": {"context": []}}}, "'name' is a required property"),
    ({"TextField": {"label": {}}}, "needs a literal"),
    ({"Divider": {"color": "red"}}, "does not match"),
])
def test_component_rules(component, fragment):
    issues, _ = issues_of(one_component(component))
    assert any(fragment in i.reason for i in issues), [i.reason for i in issues]
    assert all(i.component_id == "c" for i in issues)


def test_envelope_errors():
    issues, _ = issues_of([{"surfaceupdate": {"surfaceId": "s"}}])
    assert "did you mean 'surfaceUpdate'?" in issues[0].reason
    issues, _ = issues_of([{"beginRendering": {"surfaceId": "s", "root": "r"}, "deleteSurface": {"surfaceId": "s"}}])
    assert "send them as separate messages" in issues[0].reason
    issues, _ = issues_of([{"beginRendering": {"surfaceId": "s"}}])
    assert issues[0].path == "$[0].beginRendering" and "'root' is a required property" in issues[0].reason
    issues, _ = issues_of([{"dataModelUpdate": {"surfaceId": "s", "contents": [{"key": "a", "valueString": "x", "valueNumber": 1}]}}])
    assert "exactly one of valueString" in issues[0].reason
    issues, _ = issues_of([{"surfaceUpdate": {"surfaceId": "s", "components": [{"id": "x", "Text": {"text": "hi"}}]}}])
    assert any("wrap the properties" in i.reason for i in issues) and all(i.component_id == "x" for i in issues)
    issues, _ = issues_of([{"surfaceUpdate": {"surfaceId": "s", "components": [text("a", "1"), text("a", "2")]}}])
    assert "duplicate component id 'a'" in issues[0].reason


def test_shorthand_values_are_normalised():
    (msg,) = validate_messages(one_component({"Button": {"child": "l", "action": {"name": "go", "context": {"n": 3, "who": "x"}}}}))
    action = msg["surfaceUpdate"]["components"][0]["component"]["Button"]["action"]
    assert action["context"] == [{"key": "n", "value": {"literalNumber": 3}}, {"key": "who", "value": {"literalString": "x"}}]
    (msg,) = validate_messages(one_component({"Column": {"children": ["a", "b"]}}))
    assert msg["surfaceUpdate"]["components"][0]["component"]["Column"]["children"] == {"explicitList": ["a", "b"]}


def test_parse_accepts_text_lists_objects_and_json_lines():
    one = {"deleteSurface": {"surfaceId": "s"}}
    assert parse_ui_json(json.dumps(one)) == [one]
    assert parse_ui_json({"messages": [one]}) == [one]
    assert parse_ui_json(json.dumps(one) + "\n" + json.dumps(one)) == [one, one]
    for bad, fragment in (("{oops", "not valid JSON"), ("", "empty"), ([], "no messages"), (5, "got int")):
        with pytest.raises(UIValidationError, match=fragment):
            parse_ui_json(bad)


def test_every_component_type_has_a_schema_and_doc():
    from mmtsb_env.ui.docs import COMPONENTS

    assert set(COMPONENT_TYPES) == set(COMPONENTS) and len(COMPONENT_TYPES) == 14


def test_user_action_schema():
    good = {"userAction": {"name": "go", "surfaceId": "s", "sourceComponentId": "b",
                           "timestamp": "2026-04-16T09:30:00+00:00", "context": {}}}
    validate_user_action(good)
    bad = {"userAction": {**good["userAction"], "timestamp": "yesterday"}}
    with pytest.raises(UIValidationError, match="does not match"):
        validate_user_action(bad)
