"""The reference's conditional user hints become guidance the scripted user gives.

"If the assistant asks which Charlie, remind it you mean Charlie Davis" is prose in the reference's
user script; imported, it is a clarification (answer + the words the question must contain), a
round's ``guidance.on_question`` or its permission answer, and the scripted user says it when the
assistant asks. What stays prose is listed in the import report with the reason.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mmtsb_env.envs import MMToolSandboxEnv
from mmtsb_env.scenario.importer import conditional_hints, import_reference

OFFICIAL = Path("/work/shared/reference/official_scenarios")
for _candidate in (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "official_scenarios", OFFICIAL):
    if _candidate.exists():
        OFFICIAL = _candidate
        break
pytestmark = pytest.mark.skipif(not OFFICIAL.exists(), reason="the reference's official scenarios are not available here")


def _last_user_text(info) -> str:
    content = info["messages"][-1]["content"]
    return content if isinstance(content, str) else content[0]["text"]


def test_conditional_hints_of_the_official_files_converted_and_left_as_prose():
    converted, prose = Counter(), Counter()
    for path in sorted(OFFICIAL.rglob("*.json")):
        _, report = import_reference(path)
        for line in report.converted:
            if "conditional hint -> " in line:
                converted[line.split("-> ")[1].split(":")[0].split(" (")[0].split("=")[0]] += 1
        for issue in report.issues:
            if "conditional hint kept as prose" in issue.detail:
                prose[issue.detail.split("(", 1)[1].split(":")[0]] += 1
    assert converted == {"clarification": 69, "guidance.permission": 20, "guidance.on_question": 7,
                         "ui.pick": 48, "the confirmation screen after the round's choice": 3}
    cannot = "a UI choice the user cannot make by its own words "
    assert prose == {"a hint for when the assistant errs or acts (the user has no structured way to tell)": 67,
                     "a fallback when the assistant shows no UI": 46,
                     cannot + "(a UI action the importer cannot turn into a pick)": 9,
                     cannot + "(a choice of several options at once by what the images show that no word or number of an "
                              "option states (which the user, who does not see the images, could read off the screen))": 1,
                     cannot + "(a choice by what the images or data show, which the user cannot see)": 8,
                     cannot + "(no option the user can name in its own words)": 1,
                     "a second UI choice in one round (one UI decision per round)": 3}


def test_each_hint_form_becomes_its_structure():
    h = conditional_hints("If the assistant asks which Charlie, remind it you mean Charlie Davis. "
                          "If the assistant asks for more details, direct it to search using the visual descriptions you provided. "
                          "If the assistant drafts the message and asks for approval, tell it to send it. "
                          "If it misreads the URL, point it back to the purple poster.")
    assert h.clarifications == [{"answer": "I mean Charlie Davis.", "keywords": ["charlie"]}]
    assert h.guidance == {"on_question": "Please search using the visual descriptions I provided.", "permission": "grant",
                          "permission_reply": "Yes. Please send it."}
    assert len(h.prose) == 1 and "misreads the URL" in h.prose[0]
    assert conditional_hints("If the assistant asks for formatting preferences, say a simple list is fine.").clarifications == [
        {"answer": "A simple list is fine.", "keywords": ["format", "prefer"]}]
    assert conditional_hints("If it asks for confirmation, decline.").guidance == {"permission": "refuse"}


def test_the_scripted_user_answers_the_clarification_the_reference_hints():
    """0006 round 1: "If the assistant asks for help identifying the tasks, tell it to use the
    visual details to find the best matches." -- asked, the user says so; a question about
    something else gets the default reply, not the hint."""
    s, _ = import_reference(OFFICIAL / "nominal" / "scenario_0006.json")
    env = MMToolSandboxEnv(scenarios=[s], stand_in_images=True)
    env.reset(seed=0)
    *_, info = env.step("What is your favourite colour?")
    assert _last_user_text(info) != "Please use the visual details to find the best matches."
    *_, info = env.step("Should I help with identifying the tasks? Which of them match?")
    assert _last_user_text(info) == "Please use the visual details to find the best matches."


def test_the_scripted_user_gives_the_hinted_reply_to_any_question_when_the_hint_names_none():
    s, _ = import_reference(OFFICIAL / "ui" / "scenario_0064.json")
    env = MMToolSandboxEnv(scenarios=[s], stand_in_images=True)
    env.reset(seed=0)
    *_, info = env.step("Could you tell me more about what you need?")
    assert _last_user_text(info) == "Please search using the visual descriptions I provided."
