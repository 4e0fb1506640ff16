"""ChatObservation: chat messages with images, full history or deltas, no leak across resets."""

import copy

import pytest
from gymnasium.utils.env_checker import check_env
from PIL import Image

from mmtsb_env.baselines import OracleAgent
from mmtsb_env.wrappers import ChatMessages, ChatObservation

from .conftest import DEMO, make

pytestmark = pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")


def test_url_format_is_the_environment_transcript():
    env = ChatObservation(make())
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    assert obs == info["messages"] and obs is not info["messages"]
    assert env.observation_space.contains(obs)
    parts = obs[-1]["content"]
    assert [p["type"] for p in parts] == ["text", "text", "image_url", "text", "image_url"]
    assert parts[2]["image_url"]["url"].startswith("data:image/png;base64,")


def test_pil_format_carries_the_native_images():
    env = ChatObservation(make(), image_format="pil")
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    images = [p["image"] for p in obs[-1]["content"] if p["type"] == "image"]
    assert len(images) == 2 and all(isinstance(im, Image.Image) for im in images)
    assert [im.size for im in images] == [info["images"][0].size, info["images"][1].size]
    assert images[0].tobytes() == info["images"][0].tobytes()


def test_returned_messages_are_copies():
    env = ChatObservation(make())
    obs, info = env.reset(seed=0, options={"scenario": "demo/compare_receipts"})
    before = copy.deepcopy(env.unwrapped.episode.transcripts["assistant"].messages)
    obs[-1]["content"][0]["text"] = "tampered"
    obs[0]["content"] = "tampered"
    obs.append({"role": "user", "content": "extra"})
    assert env.unwrapped.episode.transcripts["assistant"].messages == before


def test_deltas_contain_only_what_arrived_since_the_last_action():
    env = ChatObservation(make(), history=False, include_system=False)
    obs, info = env.reset(seed=0, options={"scenario": "demo/invoice_note_correction"})
    assert [m["role"] for m in obs] == ["user"]
    agent = OracleAgent(DEMO)
    obs, _, _, _, info = env.step(agent.act(obs, info))  # a tool call
    assert [m["role"] for m in obs] == ["tool"] and obs[0]["tool_call_id"] == info["messages"][-1]["tool_call_id"]
    obs, _, _, _, info = env.step(agent.act(obs, info))  # a message to the user: the next round comes back
    assert [m["role"] for m in obs] == ["user"] and "assistant" not in [m["role"] for m in obs]
    assert obs[0]["content"] == info["messages"][-1]["content"]


@pytest.mark.parametrize("history", [True, False])
def test_no_history_leaks_across_resets(history):
    """Regression (TextArena's LLMObservationWrapper kept history across resets)."""
    env = ChatObservation(make(), history=history)
    obs, info = env.reset(seed=0, options={"scenario": "demo/invoice_note_correction"})
    agent = OracleAgent(DEMO)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(agent.act(obs, info))
        done = term or trunc
    first_episode_text = str(obs)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert [m["role"] for m in obs] == ["system", "user"]
    assert "Lunch expense" in obs[-1]["content"][0]["text"]
    assert "invoice" not in str(obs).lower() and first_episode_text not in str(obs)
    # abandoning an episode midway: still a clean start
    env.step('{"name": "get_wifi_status", "arguments": {}}')
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert [m["role"] for m in obs] == ["system", "user"]


def test_space_checker_and_errors():
    check_env(ChatObservation(make()), skip_render_check=True)
    check_env(ChatObservation(make(), image_format="pil", history=False), skip_render_check=True)
    space = ChatMessages(seed=1)
    assert space.contains(space.sample()) and not space.contains([{"role": "robot"}]) and not space.contains({})
    with pytest.raises(ValueError, match="image_format must be one of"):
        ChatObservation(make(), image_format="base64")
