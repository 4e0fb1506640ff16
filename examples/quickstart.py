"""Quickstart: make the environment, step it by hand, look at observations and rewards.

Run: python examples/quickstart.py
"""

from __future__ import annotations

import json

import gymnasium

import mmtsb_env  # noqa: F401  (registers "mmtsb_env/MMToolSandbox-v0")


def show(step: int, obs: dict, reward: float, info: dict) -> None:
    print(f"--- step {step}: reward {reward:+.3f}  components {json.dumps(info['reward_components'])}")
    print(f"    text: {obs['text'][:160]!r}")
    print(f"    images in the tensor: {obs['image_count']}  (tensor shape {obs['images'].shape})")
    if info.get("action_error"):
        print(f"    action error: {info['action_error'][:120]}")


def main() -> None:
    env = gymnasium.make("mmtsb_env/MMToolSandbox-v0", suite="demo", mode="tool", image_size=(112, 112))
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    print(f"scenario {info['scenario_id']}: {len(info['tools'])} tools offered, {len(info['messages'])} chat messages so far")
    show(0, obs, 0.0, info)

    # The receipt is image 0. A real agent would read it; here we type the actions ourselves.
    actions = [
        '{"name": "simple_note_create_note", "arguments": {"title": "Lunch expense"}}',  # missing content: an error comes back
        '{"name": "simple_note_create_note", "arguments": {"title": "Lunch expense", "content": "Blue Door Cafe, total $13.48"}}',
        "Done: I saved the note 'Lunch expense' with Blue Door Cafe, total $13.48.",  # plain text = a message to the user
    ]
    total = 0.0
    for step, action in enumerate(actions, start=1):
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        show(step, obs, reward, info)
        if terminated or truncated:
            break
    print(f"episode over: terminated={terminated} truncated={truncated} return={total:.2f} "
          f"entity_f1={info['entity_f1']:.2f} passed={info['verdict']['pass']}")
    env.close()


if __name__ == "__main__":
    main()
