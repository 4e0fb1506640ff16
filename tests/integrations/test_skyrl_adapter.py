"""SkyRL-gym adapter: whole episodes through skyrl_gym.make, images of every round carried."""

from __future__ import annotations

import pytest

skyrl_gym = pytest.importorskip("skyrl_gym")

import mmtsb_env  # noqa: E402
from mmtsb_env.baselines import OracleAgent  # noqa: E402
from mmtsb_env.integrations import skyrl  # noqa: E402

CONFIG = {"image_size": [16, 16], "max_images": 1, "max_turns": 12}


def images_in(messages):
    return sum(1 for m in messages if isinstance(m["content"], list) for p in m["content"] if p["type"] == "image")


def chat_loop(env, policy):
    """What SkyRL's generator does: init, then alternate model turn / env observations until done."""
    chat, meta = env.init([{"role": "user", "content": "ignored: the env writes its own first turn"}])
    total, out = 0.0, None
    while out is None or not out["done"]:
        action = policy(chat)
        chat.append({"role": "assistant", "content": action})
        out = env.step(action)
        chat.extend(out["observations"])
        total += out["reward"]
    return chat, meta, total, out


def test_oracle_plays_a_two_round_scenario_with_late_images_through_skyrl_make():
    skyrl.register()
    skyrl.register()  # idempotent
    env = skyrl_gym.make("mmtsb_env", env_config=CONFIG, extras={"scenario_id": "demo/expenses_late_images"})
    oracle = OracleAgent(mmtsb_env.load_suite("demo"))

    def policy(chat):  # the oracle reads the env's info; a model would read `chat`
        return oracle.act({"text": "", "images": None, "image_count": 0}, env.last_info)

    chat, meta, total, last = chat_loop(env, policy)
    first_turn = chat[:2]
    assert [m["role"] for m in first_turn] == ["system", "user"] and images_in(first_turn) == 0
    assert images_in(chat) == 2  # the receipts of round 2 came back as image parts, data URLs intact
    part = next(p for m in chat if isinstance(m["content"], list) for p in m["content"] if p["type"] == "image")
    assert part["url"].startswith("data:image/png;base64,")
    assert last["metadata"]["verdict"]["pass"] and last["metadata"]["entity_f1"] == 1.0
    assert total == pytest.approx(sum(h["reward"] for h in env.env.unwrapped.episode.reward_history)) and total > 1.0
    assert "<tool_response>" in str(chat) and meta["tools"]
    assert env.get_metrics()["passed"] == 1.0
    env.close()


def test_a_wrong_agent_is_judged_and_the_turn_cap_ends_the_episode():
    env = skyrl.MMToolSandboxTextEnv(env_config={**CONFIG, "max_turns": 2}, extras={"scenario_id": "demo/note_from_receipt"})
    _, _, total, last = chat_loop(env, lambda chat: '{"name": "get_wifi_status", "arguments": {}}')
    assert last["done"] and last["metadata"]["verdict"]["pass"] is False and env.turns == 2
    assert env.get_metrics() == {"passed": 0.0, "entity_f1": env.last_info["entity_f1"], "turns": 2}
    with pytest.raises(ValueError, match="extras must name the scenario"):
        skyrl.MMToolSandboxTextEnv(env_config=CONFIG, extras={})


def test_the_system_prompt_carries_every_tool_schema():
    """SkyRL's generators keep init()'s messages, not its metadata: the schemas must be in the prompt."""
    import json

    env = skyrl.MMToolSandboxTextEnv(env_config=CONFIG, extras={"scenario_id": "demo/compare_receipts"})
    chat, meta = env.init(None)
    system = chat[0]["content"] if isinstance(chat[0]["content"], str) else "".join(p.get("text", "") for p in chat[0]["content"])
    assert len(meta["tools"]) > 10
    for tool in meta["tools"]:
        assert json.dumps(tool, ensure_ascii=False) in system, tool["function"]["name"]
    assert "<tool_call>" in system
    env.close()
