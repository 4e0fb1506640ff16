"""Images cost nothing until something looks at them: drawn on demand, data URLs made on demand."""

import pytest

import mmtsb_env
import numpy as np
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.episode.log import ChatTranscript, Entry
from mmtsb_env.generation import generate_one
from mmtsb_env.runner import run_episode
from mmtsb_env.scenario.model import Scenario
from mmtsb_env.tools.catalog import get_tool
from mmtsb_env.wrappers import ChatObservation


@pytest.fixture
def scenario():
    # drawings and their products are shared process-wide by content: start from empty caches
    from mmtsb_env.vision import assets

    assets.clear()
    # every generated scenario has an image only the visual tools make legible; drawn plain and read
    # without the tools, nothing in the episode needs pixels
    s = generate_one(14, "compare", "none", "progressive", verify=False).to_dict()
    for im in s["images"]:
        im["render"]["difficulty"] = 0
    for r in s["rounds"]:
        r["solution"] = [st for st in r["solution"] if "name" not in st or get_tool(st["name"]).app != "vision"]
    return Scenario.from_dict(s, source="test")


def made(env):
    ep = env.unwrapped.episode
    return [ep.images.is_made(i) for i in range(len(ep.scenario.images))]


def image_parts(messages):
    return [p for m in messages if isinstance(m.get("content"), list) for p in m["content"] if p.get("type") != "text"]


def test_an_episode_nobody_looks_at_draws_no_image(scenario):
    env = mmtsb_env.make_env(scenarios=[scenario], max_images=0, message_images="id")
    agent = OracleAgent([scenario])
    obs, info = env.reset(seed=0)
    assert obs["images"].shape[0] == 0 and info["new_image_ids"]
    done = False
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        done = terminated or truncated
    assert info["verdict"]["pass"] and info["entity_f1"] == 1.0
    assert not any(made(env))
    parts = image_parts(info["messages"])
    assert parts and all(set(p) == {"type", "image_id"} and p["type"] == "image" for p in parts)
    assert sorted({p["image_id"] for p in parts}) == list(range(len(scenario.images)))


def test_info_images_draws_only_the_image_looked_up(scenario):
    env = mmtsb_env.make_env(scenarios=[scenario], max_images=0, message_images="id")
    _, info = env.reset(seed=0)
    first, *rest = info["new_image_ids"]
    assert rest and list(info["images"]) == info["new_image_ids"] and not any(made(env))
    assert info["images"][first].mode == "RGB"
    assert made(env)[first] and not any(made(env)[i] for i in rest)
    with pytest.raises(KeyError):
        info["images"][len(scenario.images) + 5]


def test_observation_tensors_draw_the_delivered_images_only(scenario):
    env = mmtsb_env.make_env(scenarios=[scenario], max_images=len(scenario.images))
    obs, info = env.reset(seed=0)
    delivered = set(info["new_image_ids"])
    assert obs["image_count"] == len(delivered) and obs["images"][0].any()
    assert {i for i, m in enumerate(made(env)) if m} == delivered < set(range(len(scenario.images)))


def test_transcript_makes_each_data_url_once_and_only_when_read():
    calls = []

    def url(image_id):
        calls.append(image_id)
        return f"data:image/png;base64,{image_id}"

    t = ChatTranscript("assistant", "sys", url)
    t.add(Entry(index=0, sender="user", recipient="assistant", kind="message", content="look", image_ids=(0, 1)))
    t.add(Entry(index=1, sender="environment", recipient="assistant", kind="tool_result", content="{}", tool_call_id="c1",
                tool_name="crop_image", image_ids=(2,)))
    assert calls == []
    with_ids = t.messages_with_image_ids()
    assert [p["image_id"] for p in image_parts(with_ids)] == [0, 1, 2] and calls == []
    urls = [p["image_url"]["url"] for p in image_parts(t.messages)]
    assert urls == ["data:image/png;base64,0", "data:image/png;base64,1", "data:image/png;base64,2"] and calls == [0, 1, 2]
    t.messages
    t.add(Entry(index=2, sender="user", recipient="assistant", kind="message", content="and this", image_ids=(1,)))
    assert [p["image_url"]["url"] for p in image_parts(t.messages)][-1] == "data:image/png;base64,1" and calls == [0, 1, 2, 1]
    with_ids[1]["content"][0]["text"] = "edited"  # a copy: the transcript is unchanged
    assert t.messages[1]["content"][0]["text"] == "look"


def test_episode_records_keep_image_ids_without_encoding(scenario):
    rec = run_episode(scenario, OracleAgent([scenario]), env_kwargs={"max_images": 0, "message_images": "id"})
    assert rec.passed and rec.images == []
    assert {p["image_id"] for p in image_parts(rec.messages)} == set(range(len(scenario.images)))
    assert all("image_url" not in p for p in image_parts(rec.messages + rec.user_messages))


@pytest.mark.parametrize("image_format", ["url", "pil"])
def test_chat_observation_turns_image_ids_into_its_format(scenario, image_format):
    env = ChatObservation(mmtsb_env.make_env(scenarios=[scenario], max_images=0, message_images="id"), image_format=image_format)
    messages, info = env.reset(seed=0)
    parts = image_parts(messages)
    assert len(parts) == len(info["new_image_ids"])
    if image_format == "url":
        assert all(p["image_url"]["url"].startswith("data:image/png;base64,") for p in parts)
    else:
        assert [p["image"].size for p in parts] == [info["images"][i].size for i in info["new_image_ids"]]


def test_unknown_message_images_option_is_refused():
    with pytest.raises(ValueError, match="message_images='png' is not valid; choose one of: url, id"):
        mmtsb_env.make_env(suite="demo", message_images="png")


def test_info_images_pickle_as_a_plain_dict_with_info_transfer_full(scenario):
    import pickle

    env = mmtsb_env.make_env(scenarios=[scenario], max_images=0, message_images="id", info_transfer="full")
    _, info = env.reset(seed=0)
    copy = pickle.loads(pickle.dumps(info["images"]))
    assert type(copy) is dict and list(copy) == info["new_image_ids"] and copy == info["images"]


def test_data_urls_are_at_the_model_resolution(scenario):
    from mmtsb_env.vision import from_data_url

    env = mmtsb_env.make_env(scenarios=[scenario], image_size=(64, 48))
    _, info = env.reset(seed=0)
    urls = [p["image_url"]["url"] for p in image_parts(info["messages"])]
    sizes = [from_data_url(u).size for u in urls]
    assert urls and all(w <= 48 and h <= 64 and (w == 48 or h == 64) for w, h in sizes)


def test_a_second_scenario_showing_the_same_image_reuses_its_products(scenario):
    """Products are keyed by the render spec, not the scenario object: a copy draws nothing."""
    from mmtsb_env.scenario.model import Scenario
    from mmtsb_env.vision import assets

    first = mmtsb_env.make_env(scenarios=[scenario])
    obs1, info1 = first.reset(seed=0)
    drawn = len(assets.PIXELS)
    assert drawn == len(info1["new_image_ids"])
    twin = Scenario.from_dict(scenario.to_dict())
    second = mmtsb_env.make_env(scenarios=[twin])
    obs2, info2 = second.reset(seed=0)
    assert len(assets.PIXELS) == drawn and not any(made(second))  # nothing drawn again
    assert (obs2["images"] == obs1["images"]).all() and obs2["images"][0].any()
    assert info2["messages"][1]["content"] == info1["messages"][1]["content"]


def test_observations_without_images_never_share_their_zero_tensor(scenario):
    env = mmtsb_env.make_env(scenarios=[scenario])
    env.reset(seed=0)
    a, *_ = env.step('{"name": "simple_note_show_profile", "arguments": {}}')
    b, *_ = env.step('{"name": "simple_note_show_profile", "arguments": {}}')
    assert a["image_count"] == b["image_count"] == 0 and not np.shares_memory(a["images"], b["images"])
    assert not a["images"].any() and not b["images"].any()
    with pytest.raises(ValueError, match="read-only"):  # nobody can corrupt a stored observation
        a["images"][0, 0, 0, 0] = 7
    own = a["images"].copy()  # a copy is an ordinary writable array of the full size
    own[0, 0, 0, 0] = 7
    assert own.flags.writeable and own.nbytes == a["images"].size and not b["images"].any()
    assert env.observation_space.contains(a) and env.observation_space.contains(b)


def test_observations_with_images_are_read_only_and_never_shared(scenario):
    """Stored transitions stay as returned: the tensor of an observation is read-only and its own."""
    env = mmtsb_env.make_env(scenarios=[scenario])
    obs0, _ = env.reset(seed=0)
    kept = obs0["images"].copy()
    assert obs0["image_count"] >= 1 and obs0["images"][0].any() and not obs0["images"].flags.writeable
    obs1, *_ = env.step('{"name": "simple_note_show_profile", "arguments": {}}')
    obs2, _ = env.reset(seed=0)
    assert not np.shares_memory(obs0["images"], obs2["images"]) and not np.shares_memory(obs0["images"], obs1["images"])
    with pytest.raises(ValueError, match="read-only"):
        obs0["images"][0] = 0
    assert (obs0["images"] == kept).all() and (obs2["images"] == kept).all()
