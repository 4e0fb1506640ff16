"""Property-based fuzzing of the whole env: no exception escapes step(), failed calls change nothing."""

import json

from hypothesis import HealthCheck, given, settings, strategies as st

import mmtsb_env

ENV = mmtsb_env.make_env(suite="demo", max_messages=10_000)
TOOLS = [t["function"]["name"] for t in mmtsb_env.list_tools()]
NAMES = st.sampled_from(TOOLS + ["", "nope", "simple_note_create_nte", "end_conversation", "send_message_with_image"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True) | st.text(max_size=30),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=6,
)
ARGS = st.dictionaries(st.sampled_from(["note_id", "title", "content", "query", "on", "image_id", "page_limit", "x", "tags"]), VALUES, max_size=4)


def near_valid_call():
    return st.builds(lambda n, a: json.dumps({"name": n, "arguments": a}, default=str), NAMES, ARGS)


ACTIONS = st.one_of(st.text(max_size=80), near_valid_call(), near_valid_call().map(lambda c: f"<tool_call>{c}</tool_call>"),
                    st.lists(near_valid_call(), max_size=3).map(lambda cs: "[" + ",".join(cs) + "]"))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ACTIONS)
def test_no_exception_escapes_step_and_failures_change_nothing(action):
    if ENV.episode is None or ENV.episode.done:
        ENV.reset(seed=0, options={"scenario": "demo/gift_ideas_update"})
    world = ENV.unwrapped.episode.world
    before = world.diff()
    calls_before = len(ENV.episode.calls)
    obs, reward, terminated, truncated, info = ENV.step(action)
    assert ENV.observation_space.contains(obs)
    assert isinstance(reward, float) and reward == reward
    new_calls = ENV.episode.calls[calls_before:]
    if new_calls and not any(c.outcome.ok for c in new_calls if c.seat == "assistant") and not any(
        c.outcome.ok for c in new_calls if c.seat == "user"
    ):
        assert world.diff() == before


def test_user_seat_garbage_is_an_error_not_a_crash():
    aec = mmtsb_env.env(suite="demo", image_size=(16, 16))
    aec.reset(seed=0)
    for action in ["", "{bad", '{"name": "send_message_with_image", "arguments": {"message": "x", "image_ids": "99"}}',
                   '{"name": "simple_note_create_note", "arguments": {}}']:
        assert aec.agent_selection == "user"
        aec.step(action)
        assert aec.infos["user"]["action_error"]
