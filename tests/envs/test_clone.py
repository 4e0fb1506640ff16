"""env.clone() / copy.deepcopy(env) mid-episode: an independent env that continues identically."""

from __future__ import annotations

import copy

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent

DEMO = mmtsb_env.load_suite("demo")


def _play(env, agent, obs, info, steps):
    out = []
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        out.append((obs["text"], reward, terminated, truncated, info.get("verdict")))
        if terminated or truncated:
            break
    return out, info


@pytest.mark.parametrize("scenario", ["demo/compare_receipts", "demo/note_from_receipt"])
def test_tool_mode_clone_continues_identically_and_independently(scenario):
    env = mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1)
    obs, info = env.reset(seed=3, options={"scenario": scenario})
    agent = OracleAgent(DEMO)
    obs, _, _, _, info = env.step(agent.act(obs, info))  # mid-episode: a call made, the user's round begun
    twin, twin_agent = env.clone(), copy.deepcopy(agent)
    assert twin.episode is not env.episode and twin.episode.world is not env.episode.world
    original, info_a = _play(env, agent, obs, info, 30)
    copied, info_b = _play(twin, twin_agent, obs, info, 30)
    assert original == copied and original[-1][2]  # same texts, rewards, ends and verdicts
    assert original[-1][4]["pass"] is True
    assert list(info_a["messages"]) == list(info_b["messages"])
    assert env.episode.world.diff().keys() == twin.episode.world.diff().keys()
    env.close()
    twin.close()


def test_the_copy_is_independent_of_the_original():
    env = mmtsb_env.make_env(suite="demo", image_size=(32, 32), max_images=1)
    obs, info = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    twin = copy.deepcopy(env)
    steps, entries = env.episode.step_count, len(env.episode.log)
    agent = OracleAgent(DEMO)
    _play(env, agent, obs, info, 30)  # the original plays to the end and writes a note
    assert env.episode.done and env.episode.world.diff()
    assert not twin.episode.done and not twin.episode.world.diff()
    assert twin.episode.step_count == steps and len(twin.episode.log) == entries < len(env.episode.log)
    twin.step("Thanks, that is all.")  # the copy still plays its own episode
    assert twin.episode.step_count > steps


CODE_1 = """```python
import random
profile = simple_note_show_profile()
picks = [random.random() for _ in range(3)]
counter = {"n": 1}
print(len(picks))
```"""
CODE_2 = """```python
counter["n"] += 1
print(sorted(profile)[:3], picks, counter, random.random())
```"""


def test_code_mode_clone_keeps_the_sandbox_variables():
    env = mmtsb_env.make_env(suite="demo", mode="code", image_size=(32, 32), max_images=1)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    obs, _, _, _, info = env.step(CODE_1)
    assert info["action_error"] is None, obs["text"]
    calls = len(env.episode.calls)
    twin = env.clone()
    a = env.step(CODE_2)
    b = twin.step(CODE_2)
    assert a[4]["action_error"] is None and "'n': 2" in a[0]["text"], a[0]["text"]
    assert a[0]["text"] == b[0]["text"] and a[1] == b[1]  # variables, random state, tool result: the same
    assert len(twin.episode.calls) == calls  # the replay answered from the record: no second real call
    c = env.step(CODE_2)
    d = twin.step(CODE_2)
    assert "'n': 3" in c[0]["text"] and c[0]["text"] == d[0]["text"]
    env.close()
    twin.close()


def _code_env(**kwargs):
    env = mmtsb_env.make_env(suite="demo", mode="code", image_size=(32, 32), max_images=1, **kwargs)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    return env


def _code(text):
    return f"```python\n{text}\n```"


@pytest.mark.parametrize("tamper, why", [
    (lambda runs: runs[0][1].pop(), "made a different number of tool calls in run 1"),
    (lambda runs: runs.__setitem__(0, (*runs[0][:2], (True, "other output", None))), "gave a different result in run 1"),
])
def test_a_replay_that_diverges_resets_the_copys_sandbox_and_says_so(tamper, why):
    """The copy's first code step replays the original's runs; when one does not give back what was
    recorded (more or fewer tool calls, another result), the copy starts a fresh sandbox and its
    observation says so once, instead of going on with variables that differ from the original's."""
    env = _code_env()
    env.step(_code("kept = simple_note_search_notes('receipt')\nprint(type(kept).__name__)"))
    twin = env.clone()
    tamper(twin.episode._code_runs)
    probe = _code("try:\n    kept\n    print('has kept')\nexcept NameError:\n    print('no kept')")
    a, *_ = env.step(probe)
    b, *_ = twin.step(probe)
    assert "has kept" in a["text"] and "reset" not in a["text"]
    assert f"this copy's sandbox was reset: replaying the episode's 1 earlier code run(s) to rebuild its variables {why}" in b["text"]
    assert "no kept" in b["text"] and "IndexError" not in b["text"]
    c, *_ = twin.step(_code("print(1)"))
    assert "reset" not in c["text"]  # said once
    env.close()
    twin.close()


def test_the_replay_shares_one_step_timeout(monkeypatch):
    """Each replayed run gets what is left of one code step's timeout, not a full timeout of its own:
    runs the original cut off at the limit cannot all be replayed, and the copy is reset."""
    from mmtsb_env.sandbox import Interpreter

    env = _code_env(code_timeout_s=0.5)
    for _ in range(3):
        obs, *_ = env.step(_code("while True:\n    pass"))
        assert "time limit" in obs["text"]
    twin = env.clone()
    given = []
    run = Interpreter.run

    def spy(self, code, timeout_s=None):
        given.append(timeout_s)
        return run(self, code, timeout_s)

    monkeypatch.setattr(Interpreter, "run", spy)
    obs, *_ = twin.step(_code("print(7)"))
    replayed = given[:-1]
    assert 1 <= len(replayed) < 3 and all(t is not None and t <= 0.5 for t in replayed)
    assert "this copy's sandbox was reset" in obs["text"] and obs["text"].rstrip().endswith("7")
    env.close()
    twin.close()


def test_render_mode_is_checked():
    with pytest.raises(ValueError, match=r"render_mode='human' is not valid; valid: \['ansi'\] or None"):
        mmtsb_env.make_env(suite="demo", render_mode="human")


def test_the_pettingzoo_aec_env_deep_copies_mid_episode():
    aec = mmtsb_env.env(suite="demo", image_size=(16, 16), max_images=1)
    aec.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    aec.step("Please note my lunch.")  # mid-episode: the user's first turn played
    twin = copy.deepcopy(aec)
    outputs = []
    for env in (aec, twin):
        lines, seen = iter(["Which receipt?", "The one I sent.", "Done.", "Thanks."] * 3), []
        for agent in env.agent_iter(max_iter=6):
            obs, reward, terminated, truncated, info = env.last()
            seen.append((agent, obs["text"], reward, terminated, truncated))
            env.step(None if terminated or truncated else next(lines))
        outputs.append(seen)
    assert outputs[0] == outputs[1] and len(outputs[0]) > 1
