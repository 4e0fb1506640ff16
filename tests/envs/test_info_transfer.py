"""What ``info`` costs across processes: only this step's messages, image ids instead of drawn images."""

from __future__ import annotations

import copy
import pickle
from functools import partial

import gymnasium as gym
import pytest

import mmtsb_env
from mmtsb_env.envs.observe import MessageHistory, SentImageIds, ToolSchemas, extend_history

SCENARIO = "demo/note_from_receipt"
CHEAP = '{"name": "simple_note_show_profile", "arguments": {}}'


def _make(**kw):
    return mmtsb_env.make_env(suite="demo", image_size=(64, 64), max_images=2, **kw)


def test_pickled_info_carries_only_the_new_messages_and_no_pixels():
    env = _make()
    _, info = env.reset(seed=0, options={"scenario": SCENARIO})
    sent = pickle.loads(pickle.dumps(info))
    assert isinstance(sent["images"], SentImageIds) and list(sent["images"]) == info["new_image_ids"] == [0]
    with pytest.raises(KeyError, match="read obs\\['images'\\], or make the env with info_transfer='full'"):
        sent["images"][0]
    history = extend_history([], sent["messages"])
    assert history == list(info["messages"])
    for _ in range(5):
        _, _, _, _, info = env.step(CHEAP)
        sent = pickle.loads(pickle.dumps(info))
        assert not sent["messages"].complete and len(sent["messages"]) == 2  # the call and its result
        assert sent["messages"][0]["role"] == "assistant" and sent["messages"][1]["role"] == "tool"
        history = extend_history(history, sent["messages"])
        assert history == list(info["messages"])  # rebuilt whole, equal to the in-process list
    assert len(pickle.dumps(info["messages"])) < len(pickle.dumps(list(info["messages"]))) / 5
    # in-process copies stay whole
    assert copy.deepcopy(info)["messages"] == info["messages"] and len(copy.copy(info["messages"])) == len(info["messages"])
    env.close()


def test_pickled_tools_are_one_blob_per_tool_set_and_arrive_whole():
    env = _make()
    _, info = env.reset(seed=0, options={"scenario": SCENARIO})
    tools = info["tools"]
    assert isinstance(tools, ToolSchemas) and len(tools) > 5
    for _ in range(3):
        _, _, _, _, info = env.step(CHEAP)
        assert info["tools"] == tools
        # the same tool set pickles as the same bytes object, made once
        assert info["tools"].__reduce__()[1][0] is tools.__reduce__()[1][0]
        sent = pickle.loads(pickle.dumps(info))
        assert type(sent["tools"]) is list and sent["tools"] == tools
    # each received list is its own (appending to one does not change the next step's)
    assert pickle.loads(pickle.dumps(info))["tools"] is not pickle.loads(pickle.dumps(info))["tools"]
    # a list changed after the env returned it is sent as it now is, never as the cached blob
    edited = info["tools"]
    del edited[0]
    assert pickle.loads(pickle.dumps(edited)) == list(edited) == tools[1:]
    # in-process copies are plain, independent lists
    deep = copy.deepcopy(info)["tools"]
    assert type(deep) is list and deep == tools[1:] and deep[0] is not tools[1]
    env.close()


def test_info_transfer_full_sends_everything():
    env = _make(info_transfer="full")
    _, info = env.reset(seed=0, options={"scenario": SCENARIO})
    _, _, _, _, info = env.step(CHEAP)
    sent = pickle.loads(pickle.dumps(info))
    assert sent["messages"].complete and sent["messages"] == info["messages"]
    with pytest.raises(ValueError, match="info_transfer='some' is not valid"):
        _make(info_transfer="some")
    env.close()


def test_extend_history_refuses_a_gap():
    h = MessageHistory([{"role": "system"}, {"role": "user"}, {"role": "assistant"}], start=2)
    sent = pickle.loads(pickle.dumps(h))
    with pytest.raises(ValueError, match="received messages start at 2 but only 0 are known"):
        extend_history([], sent)


def test_async_vector_env_info_rebuilds_to_the_sync_history():
    fns = [partial(_make) for _ in range(2)]
    sync, vec = gym.vector.SyncVectorEnv(fns), gym.vector.AsyncVectorEnv(fns)
    try:
        _, expected = sync.reset(seed=[0, 1], options={"scenario": SCENARIO})
        _, info = vec.reset(seed=[0, 1], options={"scenario": SCENARIO})
        histories = [extend_history([], m) for m in info["messages"]]
        assert histories == [list(m) for m in expected["messages"]]
        for _ in range(3):
            *_, expected = sync.step((CHEAP, CHEAP))
            *_, info = vec.step((CHEAP, CHEAP))
            assert all(not m.complete for m in info["messages"])
            histories = [extend_history(h, m) for h, m in zip(histories, info["messages"])]
            assert histories == [list(m) for m in expected["messages"]]
            assert list(info["tools"]) == list(expected["tools"]) and len(info["tools"][0]) > 5
    finally:
        vec.close()
        sync.close()
