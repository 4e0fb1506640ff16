"""areset/astep: the same episodes as reset/step, and an LLM user's model call awaited, not blocking the loop."""

from __future__ import annotations

import asyncio
import threading

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.llm.base import Completion
from mmtsb_env.users.llm_user import LLMUser

DEMO = mmtsb_env.load_suite("demo")


def _env(**kw):
    return mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1, **kw)


def _sync(seed):
    env, agent = _env(), OracleAgent(DEMO)
    obs, info = env.reset(seed=seed)
    out, done = [(obs["text"], info["episode_seed"])], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        out.append((obs["text"], reward, terminated, truncated, info["reward_components"]))
        done = terminated or truncated
    return out, info["verdict"]


async def _async(seed):
    env, agent = _env(), OracleAgent(DEMO)
    obs, info = await env.areset(seed=seed)
    out, done = [(obs["text"], info["episode_seed"])], False
    while not done:
        obs, reward, terminated, truncated, info = await env.astep(agent.act(obs, info))
        out.append((obs["text"], reward, terminated, truncated, info["reward_components"]))
        done = terminated or truncated
    return out, info["verdict"]


def test_async_episodes_equal_sync_ones_even_interleaved():
    async def main():
        return await asyncio.gather(*(_async(seed) for seed in range(6)))

    for seed, result in enumerate(asyncio.run(main())):
        assert result == _sync(seed), seed
        assert result[1]["pass"]


class GatedBackend:
    """An async model server stand-in: each reply waits until the test opens the gate."""

    name = "gated"

    def __init__(self, gate: asyncio.Event) -> None:
        self.gate, self.calls = gate, 0

    async def acomplete(self, messages, tools=None, **sampling):
        self.calls += 1
        await self.gate.wait()
        return Completion(text="Please make a note titled 'Lunch expense' with the merchant and the total.", model="gated")

    def complete(self, messages, tools=None, **sampling):  # pragma: no cover - must not be used by areset
        raise AssertionError("the blocking path was taken")


def test_an_llm_user_call_is_awaited_while_other_episodes_run():
    async def main():
        gate = asyncio.Event()
        backend = GatedBackend(gate)
        waiting = asyncio.create_task(_env(user=LLMUser(backend)).areset(seed=0, options={"scenario": "demo/note_from_receipt"}))
        other = await asyncio.wait_for(_async(1), timeout=120)  # a whole episode plays while the user waits
        assert backend.calls == 1 and not waiting.done()
        gate.set()
        obs, info = await asyncio.wait_for(waiting, timeout=120)
        return other, obs

    other, obs = asyncio.run(main())
    assert other[1]["pass"] and "Lunch expense" in obs["text"]


def test_a_user_without_aact_runs_on_a_thread():
    from mmtsb_env.users.scripted import ScriptedUser

    seen = []

    class User(ScriptedUser):
        def act(self, episode):
            seen.append(threading.current_thread() is threading.main_thread())
            return super().act(episode)

    asyncio.run(_env(user=User()).areset(seed=0))
    assert seen == [False]
