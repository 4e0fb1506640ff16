"""Env options: checked when the env is built (one clear line), harness presets, caps and limits."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.envs.options import HARNESSES, EnvOptions
from mmtsb_env.episode import engine


@pytest.mark.parametrize("kwargs, message", [
    ({"toolbox": "huge"}, "toolbox='huge' is not valid; choose one of: full, medium, compact, mini"),
    ({"max_messages": 0}, "max_messages=0 is not valid; it must be an integer >= 1 (or None)"),
    ({"judge_weight": "x"}, "judge_weight='x' is not valid; it must be a number >= 0"),
    ({"judge_weight": float("nan")}, "judge_weight=nan is not valid"),
    ({"mode": "python"}, "mode='python' is not valid; choose one of: tool, code"),
    ({"harness": "papr"}, "harness='papr' is not valid; choose one of: tool, search, search_code, code, paper"),
    ({"tool_universe": "all"}, "tool_universe='all' is not valid; choose one of: scenario, toolbox"),
    ({"tool_ranker": "tfidf"}, "tool_ranker='tfidf' is not valid; choose one of: bm25, keyword, hybrid"),
    ({"working_set": 0}, "working_set=0 is not valid; it must be an integer >= 3"),
    ({"max_images": -1}, "max_images=-1 is not valid"),
    ({"image_size": (224,)}, "image_size=(224,) is not valid"),
    ({"image_size": "224"}, "image_size='224' is not valid"),
    ({"message_images": "png"}, "message_images='png' is not valid; choose one of: url, id"),
    ({"max_steps": 0}, "max_steps=0 is not valid"),
    ({"time_limit_s": -5}, "time_limit_s=-5 is not valid; it must be a number > 0 (or None)"),
    ({"code_timeout_s": 0}, "code_timeout_s=0 is not valid"),
    ({"code_memory_mb": 1}, "code_memory_mb=1 is not valid"),
    ({"code_jail": "maybe"}, "code_jail='maybe' is not valid; choose one of: required, off"),
    ({"tool_search": "yes"}, "tool_search='yes' is not valid; it must be True or False"),
    ({"judge": "rubric"}, "judge='rubric' is not valid; it must have an evaluate(evidence) method"),
])
def test_bad_values_fail_when_the_env_is_built(kwargs, message):
    with pytest.raises(ValueError) as info:
        mmtsb_env.make_env("demo", **kwargs)
    text = str(info.value)
    assert message in text and "\n" not in text


def test_unknown_option_names_the_valid_ones():
    with pytest.raises(TypeError, match=r"unknown env option\(s\) \['toolbx'\]; valid options: \[.*'toolbox'"):
        mmtsb_env.make_env("demo", toolbx="full")


def test_pettingzoo_env_checks_the_same_way():
    with pytest.raises(ValueError, match="toolbox='huge' is not valid"):
        mmtsb_env.env(toolbox="huge")


def test_image_size_as_one_int_is_a_square():
    env = mmtsb_env.make_env("demo", image_size=224)
    assert env.options.image_size == (224, 224)
    obs, _ = env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    assert obs["images"].shape[1:3] == (224, 224)


def test_tool_universe_default_follows_tool_search():
    assert EnvOptions(tool_search=True).tool_universe == "toolbox"
    assert EnvOptions(tool_search=False).tool_universe == "scenario"
    assert EnvOptions(tool_search=True, tool_universe="scenario").tool_universe == "scenario"


def test_paper_harness_sets_the_papers_setting_and_explicit_options_win():
    env = mmtsb_env.make_env("demo", harness="paper")
    o = env.options
    assert (o.mode, o.tool_search, o.tool_universe, o.working_set, o.max_steps, o.tool_ranker) == \
        ("code", True, "toolbox", 100, 100, "keyword")
    assert o.time_limit_s and o.time_limit_s > 0
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    ep = env.episode
    assert ep.active.offered() == ["api_docs_search_api_docs"]
    assert len(ep.active.universe) > 400  # the whole toolbox, not the scenario's domains
    assert "amazon_show_wish_list" in ep.active.universe
    tuned = mmtsb_env.make_env("demo", harness="paper", mode="tool", time_limit_s=None, working_set=10)
    assert (tuned.options.mode, tuned.options.time_limit_s, tuned.options.working_set) == ("tool", None, 10)


@pytest.mark.parametrize("name", sorted(HARNESSES))
def test_every_harness_builds_and_the_search_code_one_pins_execute_code(name):
    env = mmtsb_env.make_env("demo", harness=name)
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    offered = env.episode.active.offered()
    if name == "search_code":
        assert offered[:2] == ["api_docs_search_api_docs", "execute_code"]
    elif HARNESSES[name]["tool_search"]:
        assert offered == ["api_docs_search_api_docs"]
    else:
        assert "simple_note_create_note" in offered and not any(n.startswith("amazon_") for n in offered)


def test_max_steps_counts_both_seats_and_the_truncated_episode_is_judged():
    env = mmtsb_env.make_env("demo", max_steps=4, max_images=0, message_images="id")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    ep = env.episode
    start = ep.step_count  # the user's opening message is a step too
    truncated = False
    for _ in range(10):
        _, reward, terminated, truncated, info = env.step(
            json.dumps({"name": "simple_note_search_notes", "arguments": {"query": "receipt"}}))
        if terminated or truncated:
            break
    assert truncated and not ep.terminated and ep.step_count == 4 and start >= 1
    assert ep.verdict is not None and ep.verdict.passed is False
    assert info["reward_components"]["judge"] == ep.verdict.score


def test_time_limit_truncates_with_a_verdict(monkeypatch):
    clock = {"now": 1000.0}

    class FakeTime:
        @staticmethod
        def monotonic() -> float:
            return clock["now"]

    monkeypatch.setattr(engine, "time", FakeTime)
    env = mmtsb_env.make_env("demo", time_limit_s=30, max_images=0, message_images="id")
    env.reset(seed=0, options={"scenario": "demo/note_from_receipt"})
    _, _, terminated, truncated, _ = env.step(json.dumps({"name": "simple_note_search_notes", "arguments": {"query": "x"}}))
    assert not (terminated or truncated)
    clock["now"] += 31
    _, _, terminated, truncated, info = env.step(json.dumps({"name": "simple_note_search_notes", "arguments": {"query": "y"}}))
    assert truncated and not terminated
    assert env.episode.verdict is not None and "judge" in info["reward_components"]


@pytest.mark.parametrize("harness", ["paper", "search", "search_code"])
def test_the_oracle_tells_from_info_that_it_must_search(harness):
    """No hint from the runner: the oracle sees the search tool offered (tool mode) or the prompt's
    search note (code mode), finds each tool by name and solves the scenario."""
    from mmtsb_env.baselines import OracleAgent
    from mmtsb_env.runner import run_episode

    suite = mmtsb_env.load_suite("nominal")[:3]
    for scenario in suite:
        agent = OracleAgent(suite, mode=HARNESSES[harness]["mode"])
        record = run_episode(scenario, agent, env_kwargs={"harness": harness})
        assert record.passed and record.entity_f1 == 1.0, (scenario.id, record.error)
        names = [c["name"] for c in record.calls if c["seat"] == "assistant"]
        assert names.count("api_docs_search_api_docs") == agent.search_calls >= 1
        assert all(c["ok"] for c in record.calls if c["seat"] == "assistant")


def test_the_oracle_does_not_search_when_tools_are_offered():
    from mmtsb_env.baselines import OracleAgent
    from mmtsb_env.runner import run_episode

    suite = mmtsb_env.load_suite("demo")
    for harness in ("tool", "code"):
        agent = OracleAgent(suite, mode=HARNESSES[harness]["mode"])
        record = run_episode(suite[0], agent, env_kwargs={"harness": harness})
        assert record.passed and agent.search_calls == 0
