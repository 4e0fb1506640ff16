"""The new challenges measure something: agents that are not the oracle lose on them.

Each test plays a nominal scenario with an agent that replays a *changed* reference solution
(the oracle's moves with one realistic mistake) and checks the episode's entity F1 or verdict
falls short, while the unchanged oracle passes.
"""

from __future__ import annotations

import json
import re

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.envs.gym_env import MMToolSandboxEnv
from mmtsb_env.scenario.model import Scenario
from mmtsb_env.tools.catalog import get_tool

NOMINAL = mmtsb_env.load_suite("nominal")


def play(scenario: Scenario, moves: Scenario) -> tuple[float, bool]:
    """Entity F1 and verdict when an agent replays ``moves``' solutions on ``scenario``."""
    env = MMToolSandboxEnv(scenarios=[scenario], mode="tool", max_images=0, message_images="id")
    agent = OracleAgent([moves], mode="tool")
    try:
        obs, info = env.reset(seed=0, options={"scenario": scenario})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
        ep = env.episode
        return ep.entity_score().f1, bool(ep.verdict and ep.verdict.passed)
    finally:
        env.close()


def changed(s: Scenario, edit) -> Scenario:
    data = s.to_dict()
    edit(data)
    return Scenario.from_dict(data, source="test")


def _first(pred, k=3):
    found = [s for s in NOMINAL if pred(s)][:k]
    assert found
    return found


def _kind_round(s, kind):
    return next(i for i, r in enumerate(s.rounds) if r.kind == kind)


def test_ignoring_a_taken_back_row_fails():
    cases = _first(lambda s: s.metadata["challenge_type"] == "state_mutation"
                   and any(r.kind == "state_mutation" and not r.state_changes for r in s.rounds))
    for s in cases:
        assert play(s, s) == (1.0, True), s.id
        i = _kind_round(s, "state_mutation")

        def skip(data, i=i):
            data["rounds"][i]["solution"] = []
        f1, passed = play(s, changed(s, skip))
        assert f1 < 1.0, s.id


def _clock(hhmm: str) -> str:
    """'10:30' -> '10:30AM', '16:00' -> '4PM' (how signs print a time)."""
    h, m = (int(x) for x in hhmm.split(":"))
    return f"{(h - 1) % 12 + 1}{f':{m:02d}' if m else ''}{'AM' if h < 12 else 'PM'}"


def _clock_pattern(hhmm: str) -> str:
    """Every way a sign may print ``hhmm`` on a 12-hour clock ('10AM', '10 AM', '10:00 AM')."""
    h, m = (int(x) for x in hhmm.split(":"))
    minutes = f"(?::{m:02d})?" if not m else f":{m:02d}"
    return rf"(?<![\d:]){(h - 1) % 12 + 1}{minutes}\s?{'AM' if h < 12 else 'PM'}\b"


def test_believing_the_user_over_the_image_fails():
    cases = _first(lambda s: any(r.kind == "correction" and r.image_ids for r in s.rounds))
    for s in cases:
        i = _kind_round(s, "correction")
        r = s.rounds[i]
        claim = next(c for c in s.metadata["error_claims"] if c["round"] == i)  # the scripted wrong value
        right, wrong = claim["right"], claim["wrong"]
        assert right == r.report[0] and wrong in r.query and right not in r.query, (s.id, r.query)

        def believe(data, right=right, wrong=wrong):
            text = json.dumps(data["rounds"])
            for a, b in ((right, wrong), (right.replace(",", ""), wrong.replace(",", ""))):
                text = text.replace(a, b)
            if re.fullmatch(r"[\d,]+(\.\d+)?", right):  # amounts written as numbers
                text = re.sub(rf"(?<![\d.]){re.escape(str(float(right.replace(',', ''))))}(?![\d])",
                              str(float(wrong.replace(",", ""))), text)
            if re.fullmatch(r"\d{1,2}:\d{2}", right):  # a time a sign prints as "10AM" or "10:00 AM"
                text = re.sub(_clock_pattern(right), _clock(wrong), text)
            data["rounds"] = json.loads(text)
        f1, passed = play(s, changed(s, believe))
        assert f1 < 1.0 or not passed, s.id


def test_a_pivot_without_cleaning_up_fails():
    cases = _first(lambda s: s.metadata["challenge_type"] == "goal_change" and any(
        r.kind == "goal_change" and any("delete" in st.get("name", "") for st in r.solution) for r in s.rounds))
    for s in cases:
        i = _kind_round(s, "goal_change")

        def keep_everything(data, i=i):
            data["rounds"][i]["solution"] = [st for st in data["rounds"][i]["solution"]
                                             if not ("name" in st and "delete" in st["name"] and get_tool(st["name"]).writes)]
        f1, passed = play(s, changed(s, keep_everything))
        assert f1 < 1.0, s.id


def test_not_restoring_the_connection_fails():
    """Device variant: an agent that never turns wifi / mobile data back on cannot finish the round."""
    def device(s):
        return s.metadata["challenge_type"] == "state_mutation" and any(
            c.table == "setting.device" for r in s.rounds for c in r.state_changes)
    for s in _first(device, k=2):
        i = next(i for i, r in enumerate(s.rounds) if r.state_changes)

        def unaware(data, i=i):
            data["rounds"][i]["solution"] = [st for st in data["rounds"][i]["solution"]
                                             if "name" not in st or not st["name"].startswith(("set_", "get_"))]
        f1, passed = play(s, changed(s, unaware))
        assert f1 < 1.0 or not passed, s.id
