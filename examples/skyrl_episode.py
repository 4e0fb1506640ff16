"""SkyRL-gym adapter: play a two-round scenario through skyrl_gym.make the way SkyRL's generator does.

The oracle stands in for the model (swap `policy` for your model's chat call); the chat grows by
the env's observations -- tool results, the user's next round and its images.

Run: python examples/skyrl_episode.py
Needs pip install "mmtsb-env[skyrl]".
"""

from __future__ import annotations

import skyrl_gym

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.integrations import skyrl


def main() -> None:
    skyrl.register()
    env = skyrl_gym.make("mmtsb_env", env_config={"image_size": [32, 32], "max_images": 1, "max_turns": 12},
                         extras={"scenario_id": "demo/expenses_late_images"})
    oracle = OracleAgent(mmtsb_env.load_suite("demo"))

    def policy(chat):  # a model would answer `chat`; the oracle reads the env's own info
        return oracle.act({"text": "", "images": None, "image_count": 0}, env.last_info)

    chat, meta = env.init([])
    print(f"init: {[m['role'] for m in chat]}, {len(meta['tools'])} tools offered")
    done, total = False, 0.0
    while not done:
        action = policy(chat)
        chat.append({"role": "assistant", "content": action})
        out = env.step(action)
        chat.extend(out["observations"])
        images = sum(p["type"] == "image" for m in out["observations"] if isinstance(m["content"], list) for p in m["content"])
        total += out["reward"]
        done = out["done"]
        print(f"turn {env.turns}: reward {out['reward']:+.2f}, {len(out['observations'])} observation message(s), {images} image(s)")
    verdict = out["metadata"]["verdict"]
    print(f"done: return {total:.2f}, passed {verdict['pass']}, metrics {env.get_metrics()}")
    env.close()


if __name__ == "__main__":
    main()
