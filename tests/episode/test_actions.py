"""Action grammar: every accepted form, and precise errors for malformed input."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from mmtsb_env.episode.actions import Code, Invalid, Message, ToolCalls, parse_action


@pytest.mark.parametrize("text", [
    '{"name": "get_wifi_status", "arguments": {}}',
    '```json\n{"name": "get_wifi_status", "arguments": {}}\n```',
    '[{"name": "get_wifi_status", "arguments": {}}]',
    '{"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_wifi_status", "arguments": "{}"}}]}',
    '<tool_call>{"name": "get_wifi_status", "arguments": {}}</tool_call>',
    'Let me check.\n<tool_call>\n{"name": "get_wifi_status", "arguments": {}}\n</tool_call>',
    '{"name": "get_wifi_status"}',
])
def test_accepted_call_forms(text):
    parsed = parse_action(text)
    assert isinstance(parsed, ToolCalls) and parsed.calls[0].name == "get_wifi_status" and parsed.calls[0].arguments == {}


def test_multiple_hermes_calls_and_string_arguments():
    text = '<tool_call>{"name": "a", "arguments": "{\\"x\\": 1}"}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>'
    parsed = parse_action(text)
    assert [c.name for c in parsed.calls] == ["a", "b"] and parsed.calls[0].arguments == {"x": 1}


@pytest.mark.parametrize("text, fragment", [
    ("", "empty action"),
    ("   ", "empty action"),
    ('{"name": "a", "arguments": {', "Malformed JSON"),
    ('{"arguments": {}}', 'needs a "name"'),
    ('{"name": "a", "arguments": [1]}', '"arguments" must be a JSON object'),
    ('{"name": "a", "arguments": "{bad"}', "not valid JSON"),
    ('{"name": "a", "args": {}}', "unexpected field"),
    ("<tool_call>{\"name\": \"a\"", "unclosed <tool_call>"),
    ("<tool_call>not json</tool_call>", "Malformed JSON"),
    ("[]", "empty list"),
    ('{"tool_calls": []}', "non-empty list"),
    (json.dumps([{"name": "a"}] * 17), "too many tool calls"),
])
def test_errors_say_what_is_wrong(text, fragment):
    parsed = parse_action(text)
    assert isinstance(parsed, Invalid) and fragment in parsed.error


def test_plain_text_is_a_message_and_non_strings_are_invalid():
    assert parse_action("The total is $12.").text == "The total is $12."
    assert isinstance(parse_action("[image 0] shows a receipt"), Message)
    assert isinstance(parse_action(None), Invalid) and isinstance(parse_action(5), Invalid)


def test_code_mode_takes_first_python_block():
    parsed = parse_action("Plan:\n```python\nx = 1\n```\n```python\ny = 2\n```", mode="code")
    assert isinstance(parsed, Code) and parsed.code == "x = 1\n"
    assert isinstance(parse_action("no code here", mode="code"), Message)
    assert isinstance(parse_action("```python\nx = 1", mode="code"), Invalid)
    assert isinstance(parse_action("```python\nx = 1\n```", mode="tool"), Message)


@settings(max_examples=2000, deadline=None)
@given(st.text(max_size=200))
def test_parser_never_raises(text):
    assert isinstance(parse_action(text), (ToolCalls, Code, Message, Invalid))
    assert isinstance(parse_action(text, mode="code"), (ToolCalls, Code, Message, Invalid))


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                           lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3), max_leaves=8)


@settings(max_examples=1000, deadline=None)
@given(st.dictionaries(st.sampled_from(["name", "arguments", "id", "function", "tool_calls", "x"]), json_values, max_size=4))
def test_near_valid_json_never_raises(obj):
    for text in (json.dumps(obj), f"<tool_call>{json.dumps(obj)}</tool_call>", json.dumps([obj])):
        assert isinstance(parse_action(text), (ToolCalls, Message, Invalid))


HOSTILE_ACTIONS = {
    "huge-int": '{"name": "a", "arguments": {"x": ' + "9" * 5000 + "}}",
    "deep-brackets": "[" * 100_000,
    "deep-objects": '{"a":' * 100_000,
    "deep-in-tag": "<tool_call>" + "[" * 100_000 + "</tool_call>",
    "huge-int-in-tag": '<tool_call>{"name": "a", "arguments": {"x": ' + "1" * 5000 + "}}</tool_call>",
    "deep-in-arguments-string": '{"name": "a", "arguments": "' + "[" * 100_000 + '"}',
    "huge-int-in-arguments-string": '{"name": "a", "arguments": "{\\"x\\": ' + "7" * 5000 + '}"}',
    "many-open-tags": "<tool_call>" * 20_000,
    "many-python-fences": "```python\n" * 20_000,
    "many-tags": "<tool_call>{\"name\": \"a\"}</tool_call>" * 1000,
    "fence-of-deep-json": "```json\n" + "{" * 100_000 + "\n```",
}


@pytest.mark.parametrize("mode", ["tool", "code"])
@pytest.mark.parametrize("name", list(HOSTILE_ACTIONS))
def test_hostile_actions_give_one_clear_error(name, mode):
    parsed = parse_action(HOSTILE_ACTIONS[name], mode)
    assert isinstance(parsed, (Invalid, Message, Code)), parsed
    if isinstance(parsed, Invalid):
        assert parsed.error and "\n" not in parsed.error.split(". ")[0]
    if name.startswith("deep") and isinstance(parsed, Invalid):
        assert "nested more than 64 levels" in parsed.error
    if name.startswith("huge-int"):
        assert isinstance(parsed, Invalid) and "5,000 characters" in parsed.error
    if name == "many-tags":
        assert isinstance(parsed, Invalid) and "too many tool calls" in parsed.error


def test_moderately_nested_arguments_still_parse():
    value = json.dumps({"name": "a", "arguments": {"x": [[[[1]]]], "n": 10**30}})
    parsed = parse_action(value)
    assert parsed.calls[0].arguments == {"x": [[[[1]]]], "n": 10**30}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet='[]{}"\\:,0123456789<>/tool_call`python \n', max_size=400), st.sampled_from(["tool", "code"]))
def test_bracket_soup_never_raises(text, mode):
    parsed = parse_action(text, mode)
    assert isinstance(parsed, (Invalid, Message, Code, ToolCalls))


def test_depth_limit_is_exact_with_and_without_the_bracket_count_shortcut():
    from mmtsb_env.episode.actions import MAX_JSON_DEPTH, _too_deep

    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    over = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    flat_but_many = "[" + ",".join(["[]"] * 200) + "]"  # 201 brackets, depth 2: the full scan says no
    in_strings = '["' + "[" * 500 + '"]'  # brackets inside strings never count
    assert not _too_deep(at_limit) and _too_deep(over)
    assert not _too_deep(flat_but_many) and not _too_deep(in_strings)
