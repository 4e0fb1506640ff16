"""The settings-screenshot flow: agents that are not the oracle get the verdicts they deserve.

A scenario's device row starts differing from the named screenshot in one to three switches; the
oracle flips exactly those. An agent that sets all four switches explicitly (different calls, same
end state) passes; one that flips every switch, one that flips none and one that believes the
user's wrong claim about a switch all fail on the device row.
"""

from __future__ import annotations

import pytest

from mmtsb_env.baselines.zoo import ZooAgent
from mmtsb_env.generation.compose import compose
from mmtsb_env.generation.errors import GenerationError
from mmtsb_env.generation.dryrun import SolutionError
from mmtsb_env.generation.settings_recipe import COLUMNS, GETTER, SETTER, consistent, match_steps
from mmtsb_env.generation.verify import verify
from mmtsb_env.runner import run_episode
from mmtsb_env.vision.render import render
from mmtsb_env.vision.render.settings_screen import REAL

DEFAULT = {"wifi": True, "cellular": True, "location_service": True, "low_battery_mode": False}


def _scenario(challenge: str, arrival: str = "progressive", want_slip: bool = False):
    for seed in range(40):
        try:
            s = compose(seed, "validate", challenge, arrival, category="settings", prefer=frozenset({"setting"}))
        except (GenerationError, SolutionError):
            continue
        if s.metadata["recipe"].startswith("SettingsMatch") and (not want_slip or "world_slip" in s.metadata["recipe"]):
            return s
    pytest.fail("no settings scenario in 40 seeds")


def _apply(state: dict[str, bool], step: dict) -> dict[str, bool]:
    col = next((c for c, t in SETTER.items() if t == step.get("name")), None)
    if col is None:
        return state
    on = step["arguments"]["on"]
    if on and state["low_battery_mode"] and col != "low_battery_mode":
        return state  # the app refuses
    state = {**state, col: on}
    if col == "low_battery_mode" and on:
        state.update(wifi=False, cellular=False, location_service=False)
    return state


def device_before(s, index: int) -> dict[str, bool]:
    """The device row before round ``index`` when the oracle played the earlier rounds."""
    state = {**DEFAULT, **{k: v for k, v in s.initial_entities["setting.device"][0].items() if k in DEFAULT}}
    for r in s.rounds[:index]:
        for st in r.solution:
            state = _apply(state, st)
    return state


def _is_set(step) -> bool:
    return step.get("name") in SETTER.values()


class _Settings(ZooAgent):
    @classmethod
    def applies(cls, scenario) -> bool:
        return True


class SetsAllFour(_Settings):
    """Correct but different: sets every switch to the screenshot's value, matching or not."""

    def steps(self, s, index):
        sol = s.rounds[index].solution
        if not any(_is_set(st) for st in sol):
            return list(sol)
        after = device_before(s, index + 1)
        order = ["low_battery_mode", "wifi", "cellular", "location_service"] if not after["low_battery_mode"] else ["low_battery_mode"]
        return [st for st in sol if not _is_set(st)] + [{"name": SETTER[c], "arguments": {"on": after[c]}} for c in order]


class FlipsAll(_Settings):
    """Wrong: flips all four switches whatever the screenshot shows."""

    def steps(self, s, index):
        sol = s.rounds[index].solution
        if not any(_is_set(st) for st in sol):
            return list(sol)
        before = device_before(s, index)
        return [st for st in sol if not _is_set(st)] + [{"name": SETTER[c], "arguments": {"on": not before[c]}} for c in COLUMNS]


class FlipsNone(_Settings):
    """Wrong: reads the switches and changes nothing."""

    def steps(self, s, index):
        return [st for st in s.rounds[index].solution if not _is_set(st)]


class TrustsClaim(_Settings):
    """Wrong: believes the user that the claimed switch is already right, and leaves it."""

    def steps(self, s, index):
        r = s.rounds[index]
        if r.kind != "correction":
            return list(r.solution)
        claimed = next(c for c, label in REAL.items() if label in r.report)  # the switch the user was wrong about
        return [st for st in r.solution if st.get("name") != SETTER[claimed]]

    def closing(self, s, index):
        r = s.rounds[index]
        if r.kind != "correction":
            return super().closing(s, index)
        changed = [REAL[c] for c, setter in SETTER.items() for st in self.steps(s, index) if st.get("name") == setter]
        return f"Done. I changed {', '.join(changed) or 'nothing'} and left the rest as it was."


def test_match_steps_flip_exactly_what_differs():
    cur = {"wifi": False, "cellular": False, "location_service": False, "low_battery_mode": True}
    tgt = {"wifi": True, "cellular": False, "location_service": True, "low_battery_mode": False}
    steps, changed = match_steps(cur, tgt)
    assert [s["name"] for s in steps] == ["set_low_battery_mode_status", "set_wifi_status", "set_location_service_status"]
    assert changed == ["wifi", "location_service", "low_battery_mode"]
    state = cur
    for st in steps:
        state = _apply(state, st)
    assert state == tgt
    assert match_steps(tgt, tgt) == ([], [])
    assert not consistent({"wifi": True, "cellular": False, "location_service": False, "low_battery_mode": True})


def test_scenario_solves_and_its_screenshots_show_the_states():
    s = _scenario("none")
    assert verify(s, code=False).ok
    start = s.initial_entities["setting.device"][0]
    assert set(DEFAULT) <= set(start) and any(ch.table == "setting.device" for ch in s.expected_changes)
    first = s.rounds[0]
    reads = [st["name"] for st in first.solution if st.get("name", "").startswith("get_")]
    assert reads == [GETTER[c] for c in COLUMNS]
    for spec in s.images:  # every screenshot's drawn switches are the device state the scenario records for it
        facts = render(spec.render).facts
        assert facts["device"] == spec.facts["device"]
        assert facts["device_name"] == spec.facts["label"]
        assert {"Airplane Mode", "Bluetooth", "Do Not Disturb"} <= set(facts["decoys"])


@pytest.mark.parametrize("agent,passes", [(SetsAllFour, True), (FlipsAll, False), (FlipsNone, False)],
                         ids=lambda v: getattr(v, "__name__", str(v)))
def test_agents_that_are_not_the_oracle(agent, passes):
    s = _scenario("none")
    rec = run_episode(s, agent([s]))
    assert rec.passed is passes, rec.verdict
    if not passes:
        assert rec.entity_f1 < 1.0


def test_agent_that_believes_the_wrong_claim_fails_and_the_oracle_passes():
    s = _scenario("error_correction", want_slip=True)
    assert verify(s, code=False).ok
    assert run_episode(s, _Settings([s])).passed
    rec = run_episode(s, TrustsClaim([s]))
    # (its final world may still be right: a later round can set the same switch again; its report is not)
    assert not rec.passed, rec.verdict
