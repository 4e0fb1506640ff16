"""`mmtsb serve`: many concurrent episodes over loopback HTTP, clear errors, crashes contained, idle reaping."""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
import sys

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.remote import EpisodeRegistry, RemoteEnv, RemoteEnvError, serve_in_thread
from mmtsb_env.users.scripted import ScriptedUser

DEMO = mmtsb_env.load_suite("demo")
SMALL = {"suite": "demo", "image_size": (32, 32), "max_images": 1}


def _make():
    return mmtsb_env.make_env(**SMALL)


@pytest.fixture
def server():
    srv = serve_in_thread(_make)
    yield srv
    srv.shutdown()
    srv.server_close()


def _local(seed):
    """The same episode played in-process: (texts, rewards, verdict, messages)."""
    env, agent = _make(), OracleAgent(DEMO)
    obs, info = env.reset(seed=seed)
    texts, rewards, done = [obs["text"]], [], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        texts.append(obs["text"])
        rewards.append(reward)
        done = terminated or truncated
    env.close()
    return texts, rewards, info["verdict"], list(info["messages"])


async def _remote(url, seed):
    agent = OracleAgent(DEMO)
    async with RemoteEnv(url) as env:
        result = await env.reset(seed=seed)
        texts, rewards = [result.observation["text"]], []
        while not result.done:
            result = await env.step(agent.act({"text": result.observation["text"]}, result.info))
            texts.append(result.observation["text"])
            rewards.append(result.reward)
        state = await env.state()
        assert state["done"] and state["verdict"] == result.info["verdict"]
        return texts, rewards, result.info["verdict"], result.info["messages"]


def test_64_concurrent_episodes_match_local_runs(server):
    async def main():
        return await asyncio.gather(*(_remote(server.url, seed) for seed in range(64)))

    remote = asyncio.run(main())
    assert len(server.registry) == 0  # every client closed its episode
    for seed in range(0, 64, 9):  # a sample checked against in-process play
        assert remote[seed] == _local(seed), seed
    assert sum(r[2]["pass"] for r in remote) == 64


def _raw(server, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    conn.request(method, path, body=data, headers={"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    payload = json.loads(response.read())
    conn.close()
    return response.status, payload


def test_bad_requests_get_one_clear_line(server):
    assert _raw(server, "GET", "/nowhere") == (404, {"error": "no route GET /nowhere; routes: POST /reset, POST /step, "
                                                             "GET /state?episode_id=..., POST /close, GET /health"})
    status, payload = _raw(server, "POST", "/reset", b"{not json")
    assert status == 400 and payload["error"].startswith("the body is not JSON")
    status, payload = _raw(server, "POST", "/reset", [1, 2])
    assert (status, payload["error"]) == (400, "the body must be a JSON object, got list")
    status, payload = _raw(server, "POST", "/reset", {"seed": -1})
    assert (status, payload["error"]) == (400, "seed must be a non-negative integer or null, got -1")
    status, payload = _raw(server, "POST", "/reset", {"seed": 0, "options": {"scenario": "demo/nothing"}})
    assert status == 400 and payload["error"].startswith("reset refused: ") and "demo/nothing" in payload["error"]
    assert "\n" not in payload["error"]
    status, payload = _raw(server, "POST", "/step", {"episode_id": "x-1", "action": "hi"})
    assert (status, payload["error"]) == (404, "no episode 'x-1': it was never created here")
    status, payload = _raw(server, "POST", "/step", {"action": "hi"})
    assert (status, payload["error"]) == (400, "episode_id must be a non-empty string (the id /reset returned)")
    status, payload = _raw(server, "POST", "/reset", {"seed": 0})
    episode_id = payload["episode_id"]
    status, payload = _raw(server, "POST", "/step", {"episode_id": episode_id})
    assert status == 400 and payload["error"].startswith("step needs an action")
    status, payload = _raw(server, "POST", "/step", {"episode_id": episode_id, "action": 42})
    assert status == 200 and payload["info"]["action_error"]  # a non-string action is the env's invalid action
    assert _raw(server, "POST", "/close", {"episode_id": episode_id})[0] == 200
    status, payload = _raw(server, "POST", "/step", {"episode_id": episode_id, "action": "hi"})
    assert (status, payload["error"]) == (404, f"no episode '{episode_id}': it was closed")
    assert _raw(server, "GET", "/health") == (200, {"ok": True, "episodes": 0})


class _CrashingUser(ScriptedUser):
    def act(self, episode):
        said = episode.last_message_to(episode.USER)
        if said is not None and "explode" in said.content:
            raise RuntimeError("user policy exploded")
        return super().act(episode)


def test_a_crashed_episode_is_closed_and_the_server_goes_on():
    srv = serve_in_thread(lambda: mmtsb_env.make_env(**SMALL, user=_CrashingUser()))
    try:
        async def main():
            crashing, healthy = RemoteEnv(srv.url), RemoteEnv(srv.url)
            await crashing.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
            await healthy.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
            with pytest.raises(RemoteEnvError, match=r"crashed \(RuntimeError: user policy exploded\) and was closed") as err:
                await crashing.step("Please explode.")  # the user must answer: it raises
            assert err.value.status == 500
            with pytest.raises(RemoteEnvError, match="it crashed"):
                await crashing.step("Hello?")
            result = await healthy.step('{"name": "simple_note_show_profile", "arguments": {}}')  # no user turn
            assert result.info["action_error"] is None
            await crashing.close()  # already gone: closing is quiet
            await healthy.close()

        asyncio.run(main())
        assert len(srv.registry) == 0
    finally:
        srv.shutdown()
        srv.server_close()


def test_idle_episodes_are_reaped():
    now = [0.0]
    registry = EpisodeRegistry(_make, idle_timeout_s=60, clock=lambda: now[0])
    first = registry.reset({"seed": 0})["episode_id"]
    now[0] = 50.0
    second = registry.reset({"seed": 1})["episode_id"]
    registry.step({"episode_id": first, "action": "Hello?"})  # used at 50: not idle
    now[0] = 105.0
    assert registry.reap() == []
    now[0] = 111.0
    assert sorted(registry.reap()) == sorted([first, second]) and len(registry) == 0
    with pytest.raises(Exception, match="it timed out after 60 s idle and was closed"):
        registry.step({"episode_id": first, "action": "Hello?"})


def test_max_episodes_and_restart_by_id():
    registry = EpisodeRegistry(_make, max_episodes=1)
    first = registry.reset({"seed": 0})
    with pytest.raises(Exception, match="maximum of 1 episodes; close some"):
        registry.reset({"seed": 1})
    again = registry.reset({"seed": 0, "episode_id": first["episode_id"]})  # restarts the same episode
    assert again["observation"] == first["observation"] and len(registry) == 1


def test_mmtsb_serve_command_serves_and_refuses_bad_options(tmp_path):
    bad = subprocess.run([sys.executable, "-m", "mmtsb_env.cli", "serve", "--env", "max_images=-1"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "error: max_images=-1 is not valid" in bad.stderr
    proc = subprocess.Popen([sys.executable, "-m", "mmtsb_env.cli", "serve", "--port", "0", "--env", "max_images=1",
                             "--env", "image_size=[32,32]"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("serving demo episodes on http://127.0.0.1:"), line + proc.stderr.read()
        url = line.split(" on ")[1].split(" ")[0]

        async def main():
            async with RemoteEnv(url) as env:
                result = await env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
                return result.observation

        observation = asyncio.run(main())
        assert observation["image_count"] == 1 and observation["images"][0].startswith("data:image/png;base64,")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
