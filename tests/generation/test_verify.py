"""verify(): the oracle really solves generated scenarios; broken scenarios are caught with the reason."""

from __future__ import annotations

import dataclasses

import pytest

from mmtsb_env.generation import check_distribution, generate, generate_one, verify
from mmtsb_env.generation.verify import contains, sandbox_status
from mmtsb_env.scenario.model import ExpectedChange


@pytest.fixture(scope="module")
def scenario():
    return generate_one(31, "compare", "none", "upfront", verify="static")


def test_oracle_solves_in_tool_mode_and_code_mode_when_available(scenario):
    report = verify(scenario)
    assert report.ok, report.problems
    assert report.tool_f1 == 1.0 and report.tool_passed
    if sandbox_status() == "ok":
        assert report.code_mode == "ran" and report.code_f1 == 1.0 and report.code_passed
    else:
        assert report.code_mode.startswith("sandbox unavailable")


def test_a_leaked_value_in_a_query_is_reported(scenario):
    value = scenario.metadata["image_values"][0]
    r0 = dataclasses.replace(scenario.rounds[0], query=scenario.rounds[0].query + f" It is {value}.")
    bad = dataclasses.replace(scenario, rounds=(r0,) + scenario.rounds[1:])
    report = verify(bad, oracle=False)
    assert not report.ok
    assert any(f"image value {value!r} is given away in rounds[0].query" in p for p in report.problems)


def test_a_value_in_the_initial_entities_is_reported(scenario):
    value = scenario.metadata["image_values"][0]
    bad = dataclasses.replace(scenario, initial_entities={"simple_note.notes": [{"id": 9999, "user_id": 1, "title": "x", "content": value}]})
    report = verify(bad, oracle=False)
    assert any("already in the initial entities" in p for p in report.problems)


def test_a_value_not_drawn_in_any_image_is_reported(scenario):
    md = dict(scenario.metadata, image_values=list(scenario.metadata["image_values"]) + ["Zebra Crossing Bistro"])
    report = verify(dataclasses.replace(scenario, metadata=md), oracle=False)
    assert "images: value 'Zebra Crossing Bistro' is not drawn in any image" in report.problems


def test_a_wrong_expectation_fails_the_oracle_check(scenario):
    change = scenario.expected_changes[0]
    wrong = ExpectedChange("create", "simple_note.notes", row={"title": "Something else entirely", "content": "no"})
    bad = dataclasses.replace(scenario, expected_changes=(wrong,) + scenario.expected_changes[1:])
    report = verify(bad, code=False)
    assert not report.ok and report.tool_f1 < 1.0
    assert any(p.startswith("oracle (tool mode)") for p in report.problems)
    del change


def test_structure_problems_are_named(scenario):
    md = dict(scenario.metadata, image_arrival="late", num_rounds=9)
    report = verify(dataclasses.replace(scenario, metadata=md), oracle=False)
    assert any("metadata num_images/num_rounds" in p for p in report.problems)
    assert any("rounds deliver images upfront, metadata says late" in p for p in report.problems)


def test_contains_matches_whole_tokens_only():
    assert contains("Paid $12.93 yesterday", "12.93")
    assert not contains("Paid $112.93", "12.93")
    assert contains("Total: 1,200.00", "1200.00")
    assert not contains("Send the receipts", "")


def test_distribution_check_flags_thin_cells():
    batch = generate(8, seed=3, verify="static")
    d = check_distribution(batch, min_per_cell=1)
    assert not d.ok and d.cells_covered == 8
    assert any("design cells have fewer than 1" in p for p in d.problems)
    assert sum(d.counts["flow_type"].values()) == 8


def test_a_solution_that_fits_code_mode_but_not_the_papers_caps_fails_verification(scenario):
    """Under ``--harness paper`` the oracle finds each tool by search first; those calls and their
    results count toward the message cap. A scenario whose cap leaves room for the solution alone
    passes tool and code mode but is reported as failing under the paper's harness."""
    from mmtsb_env.generation.verify import run_oracle

    if sandbox_status() != "ok":
        pytest.skip(sandbox_status())
    from mmtsb_env.envs.gym_env import MMToolSandboxEnv
    from mmtsb_env.baselines import OracleAgent

    def messages_used(s, **kw):
        env = MMToolSandboxEnv(scenarios=[s], max_images=0, message_images="id", **kw)
        agent = OracleAgent([s], mode=env.options.mode)
        obs, info = env.reset(seed=0, options={"scenario": s})
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
            done = terminated or truncated
        used = env.episode.message_count
        env.close()
        return used

    code_used = max(messages_used(scenario, mode="tool"), messages_used(scenario, mode="code"))
    assert messages_used(scenario, harness="paper") > code_used + 1  # the searches take room
    tight = dataclasses.replace(scenario, max_messages=code_used + 1)
    assert run_oracle(tight, "tool")[1] and run_oracle(tight, "code")[1]
    report = verify(tight)
    assert not report.ok and report.paper_passed is False
    assert any("--harness paper" in p and "truncated" in p for p in report.problems), report.problems
    roomy = verify(scenario)
    assert roomy.ok and roomy.paper_f1 == 1.0 and roomy.paper_passed
