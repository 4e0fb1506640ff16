"""Both seats driven by policies through the PettingZoo AEC API.

The user seat follows the scenario's script (``info["scripted_action"]``, what the built-in user
would say; swap in a model to train a user simulator); the assistant seat is the oracle.

Run: python examples/both_seats.py
"""

from __future__ import annotations

import mmtsb_env
from mmtsb_env.baselines import OracleAgent


def main() -> None:
    demo = mmtsb_env.load_suite("demo")
    env = mmtsb_env.env(suite="demo", mode="tool", image_size=(64, 64))
    env.reset(seed=0, options={"scenario": "demo/invoice_note_correction"})
    assistant = OracleAgent(demo)
    policies = {
        "user": lambda obs, info: info["scripted_action"],
        "assistant": assistant.act,
    }
    returns = {agent: 0.0 for agent in env.possible_agents}
    turns = 0
    for agent in env.agent_iter(max_iter=200):
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)  # PettingZoo: a finished agent steps with None
            continue
        action = policies[agent](obs, info)
        turns += 1
        print(f"[{turns:2d}] {agent:9s} -> {action[:100]}")
        env.step(action)
    ep = env.episode
    print(f"turns {turns}; rewards {returns}; entity_f1 {ep.f1:.2f}; verdict pass {ep.verdict.passed}")
    env.close()


if __name__ == "__main__":
    main()
