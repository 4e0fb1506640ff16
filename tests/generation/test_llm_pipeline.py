"""The LLM generation pipeline, driven by recorded stage answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mmtsb_env.generation.llm_pipeline import STAGES, LLMGenerationError, LLMPipeline, image_from_spec
from mmtsb_env.llm.base import RecordedBackend

DATA = json.loads((Path(__file__).parent / "data" / "llm_compare_receipts.json").read_text())


def _images():
    return [image_from_spec(x) for x in DATA["images"]]


def test_recorded_answers_make_a_verified_scenario():
    backend = RecordedBackend(list(DATA["replies"]))
    s, trace = LLMPipeline(backend, verify="tool").run(_images(), seed=3, challenge="none")
    assert [t.stage for t in trace] == list(STAGES)
    assert s.metadata["flow_type"] == "compare" and s.metadata["image_arrival"] == "upfront"  # the best viability scores
    assert [list(r.image_ids) for r in s.rounds] == [[0, 1, 2], []]
    # the $entity label became the id assigned to the generated note
    note = s.initial_entities["simple_note.notes"][0]
    step = s.rounds[1].solution[1]
    assert step["arguments"]["note_id"] == note["id"] >= 9001
    updated = [c for c in s.expected_changes if c.operation == "update"]
    assert updated and updated[0].key == note["id"]
    assert s.metadata["image_values"] == ["Quokka Quill Stationers", "47.13"]
    # the prompts carried the picture facts and the tool list
    assert "Quokka Quill Stationers" in trace[0].messages[1]["content"]
    assert "simple_note_create_note" in trace[4].messages[1]["content"]
    assert len(backend.calls) == len(STAGES)


def test_a_bad_stage_answer_names_the_stage():
    replies = list(DATA["replies"])
    replies[1] = json.dumps({"groups": [[0, 1]]})  # picture 2 missing
    with pytest.raises(LLMGenerationError, match="group: groups must use every picture exactly once") as err:
        LLMPipeline(RecordedBackend(replies), verify=False).run(_images(), seed=3)
    assert err.value.stage == "group"


def test_the_critique_can_reject():
    replies = list(DATA["replies"])
    replies[-1] = json.dumps({"ok": False, "problems": ["round 2 does not need the pictures"]})
    with pytest.raises(LLMGenerationError, match="critique: rejected: round 2 does not need the pictures"):
        LLMPipeline(RecordedBackend(replies), verify=False).run(_images(), seed=3)


def test_a_solution_that_fails_is_reported_at_expand():
    replies = list(DATA["replies"])
    expand = json.loads(replies[4].strip("`").removeprefix("json"))
    expand["rounds"][0]["solution"][0]["arguments"] = {"title": "x"}  # content missing
    replies[4] = json.dumps(expand)
    with pytest.raises(LLMGenerationError, match="expand: .*simple_note_create_note"):
        LLMPipeline(RecordedBackend(replies), verify=False).run(_images(), seed=3)


def test_verification_catches_a_leak():
    replies = list(DATA["replies"])
    expand = json.loads(replies[4].strip("`").removeprefix("json"))
    expand["rounds"][0]["query"] += " (It's the Quokka Quill Stationers one.)"
    replies[4] = json.dumps(expand)
    with pytest.raises(LLMGenerationError, match="verify: necessity: image value 'Quokka Quill Stationers' is given away"):
        LLMPipeline(RecordedBackend(replies), verify="static").run(_images(), seed=3, challenge="none")
