"""LLM judges through RecordedBackend: prompt content, images, repair of malformed replies, validation,
retries, BackendError, and the memory/disk verdict cache."""

from __future__ import annotations

import json

import pytest

import mmtsb_env
from mmtsb_env.baselines import OracleAgent
from mmtsb_env.evaluation import CRITERIA, LLMJudge, parse_json_object
from mmtsb_env.evaluation.evidence import evidence_from_record
from mmtsb_env.evaluation.jsonrepair import JSONRepairError
from mmtsb_env.evaluation.llm_judge import example_evidence, verdict_from_reply
from mmtsb_env.llm.base import BackendError, Completion, RecordedBackend
from mmtsb_env.runner import run_episode

SUITE = {s.id: s for s in mmtsb_env.load_suite("demo")}


def reply(fail=(), style="dict"):
    if style == "dict":
        return json.dumps({"criteria": {c: {"pass": c not in fail, "reason": f"{c} checked"} for c in CRITERIA}})
    return json.dumps({"criteria": [{"criterion": c, "pass": c not in fail, "reason": f"{c} checked"} for c in CRITERIA]})


GOOD = reply()


def text_of(messages):
    return "\n".join(p["text"] for p in messages[1]["content"] if p["type"] == "text")


# ---------------------------------------------------------------------------------------------
# JSON repair
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, expected", [
    ('{"a": 1}', {"a": 1}),
    ('```json\n{"a": 1, "b": [1, 2,],}\n```', {"a": 1, "b": [1, 2]}),
    ("Here is my verdict:\n{'pass': True, 'reason': 'the user's note is right'} hope that helps", {"pass": True, "reason": "the user's note is right"}),
    ('{"a": {"b": [1, {"c": null', {"a": {"b": [1, {"c": None}]}}),
    ('{"reason": "he wrote "Expenses" as title", "pass": false}', {"reason": 'he wrote "Expenses" as title', "pass": False}),
    ('{"a": 1\n"b": 2}', {"a": 1, "b": 2}),
    ('{\u201ca\u201d: \u201cx\u201d}', {"a": "x"}),
    ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),
    ('{criteria: {task_completion: {pass: yes}}}', {"criteria": {"task_completion": {"pass": "yes"}}}),
    ('```\n{"a": 1}', {"a": 1}),
    ('{"k":', {"k": None}),
])
def test_json_repair(raw, expected):
    assert parse_json_object(raw) == expected


@pytest.mark.parametrize("raw", ["", "   ", "no json at all", "[1, 2, 3]"])
def test_json_repair_gives_up_clearly(raw):
    with pytest.raises(JSONRepairError):
        parse_json_object(raw)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------

def test_reply_shapes_accepted():
    for style in ("dict", "list"):
        v = verdict_from_reply(json.loads(reply(fail=("no_side_effects",), style=style)), CRITERIA, "llm:x")
        assert not v.passed and [c.name for c in v.criteria if not c.passed] == ["no_side_effects"]
    ref_style = {"criteria_evaluation": [{"criterion": c.replace("_", " ").title(), "analysis": "ok", "pass": "PASS"} for c in CRITERIA],
                 "result": True}
    assert verdict_from_reply(ref_style, CRITERIA, "j").passed


@pytest.mark.parametrize("data, message", [
    ({"criteria": {c: {"pass": True} for c in CRITERIA[:4]}}, "criterion 'information_accuracy' is missing"),
    ({"criteria": {**{c: {"pass": True} for c in CRITERIA}, "task_completion": {"pass": "maybe"}}}, "'pass' must be true or false"),
    ({"criteria": {**{c: {"pass": True} for c in CRITERIA}, "no_side_effects": {"pass": True, "confidence": 3}}},
     r"confidence must be a number in \[0, 1\]"),
    ({"criteria": "all good"}, "'criteria' must be an object or a list"),
    ({"criteria": {**{c: {"pass": True} for c in CRITERIA}, "tool_use_validity": {"reason": "x"}}}, "no 'pass' field"),
])
def test_reply_validation_errors(data, message):
    with pytest.raises(ValueError, match=message):
        verdict_from_reply(data, CRITERIA, "j")


# ---------------------------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------------------------

def test_prompt_shows_updates_deletes_tool_results_and_the_conversation():
    rec = run_episode(SUITE["demo/gift_ideas_update"], OracleAgent(list(SUITE.values())), capture_images=True)
    ev = evidence_from_record(rec, SUITE["demo/gift_ideas_update"])
    ev.diff["phone.alarms"] = {"created": [], "updated": [], "deleted": [{"id": 4, "label": "Gym"}]}
    backend = RecordedBackend([GOOD])
    v = LLMJudge(backend, model="m").evaluate(ev)
    assert v.passed and v.judge == "llm:m" and v.criterion("task_completion").reason == "task_completion checked"
    messages = backend.calls[0]["messages"]
    assert messages[0]["role"] == "system" and "task_completion" in messages[0]["content"]
    text = text_of(messages)
    assert ('UPDATED in simple_note.notes (row 9001): content: "Scarf for Mom" -> "Scarf for Mom\\nCeramic vase $38.00", '
            'pinned: false -> true, updated_at: "2026-03-02T10:00:00" -> "2026-04-16T09:00:00"') in text
    assert "DELETED from phone.alarms: {\"id\": 4, \"label\": \"Gym\"}" in text
    assert "UPDATE in simple_note.notes row 9001" in text                      # expected changes
    assert "RESULT simple_note_search_notes [ok]" in text                      # tool results
    assert "(round 1) USER -> ASSISTANT: Add the item on this receipt" in text  # the conversation
    images = [p for p in messages[1]["content"] if p["type"] == "image_url"]
    assert len(images) == 1 and images[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert backend.calls[0]["sampling"] == {"temperature": 0.0}


def test_images_are_capped_keeping_the_newest():
    ev = example_evidence()
    ev.image_ids = list(range(12))
    ev.image_url = lambda i: f"data:image/png;base64,IMG{i}"
    backend = RecordedBackend([GOOD])
    LLMJudge(backend, max_images=3).evaluate(ev)
    parts = backend.calls[0]["messages"][1]["content"]
    assert [p["image_url"]["url"] for p in parts if p["type"] == "image_url"] == [f"data:image/png;base64,IMG{i}" for i in (9, 10, 11)]
    assert "Attached below: image(s) 9, 10, 11 (9 older image(s) not attached)." in text_of(backend.calls[0]["messages"])


@pytest.mark.parametrize("raw", [
    "```json\n" + GOOD + "\n```",
    GOOD[:-2],                                    # missing closing braces
    GOOD.replace("}}}", "},}}"),                  # trailing comma
    GOOD.replace('"', "'").replace("true", "True"),  # single quotes, Python literal
    "Verdict follows. " + GOOD + " Thanks!",
])
def test_malformed_but_repairable_replies_are_used_first_time(raw):
    backend = RecordedBackend([raw])
    v = LLMJudge(backend).evaluate(example_evidence())
    assert v.passed and len(backend.calls) == 1


def test_unusable_reply_is_retried_with_feedback():
    backend = RecordedBackend(["I think it went well!", '{"criteria": {"task_completion": {"pass": true}}}',
                               reply(fail=("information_accuracy",))])
    judge = LLMJudge(backend, max_attempts=3)
    v = judge.evaluate(example_evidence())
    assert not v.passed and v.criterion("information_accuracy").reason == "information_accuracy checked"
    assert len(backend.calls) == 3 and judge.stats["repairs_failed"] == 2
    last = backend.calls[2]["messages"]
    assert last[-2] == {"role": "assistant", "content": '{"criteria": {"task_completion": {"pass": true}}}'}
    assert "criterion 'instruction_following' is missing" in last[-1]["content"]


def test_backend_error_after_retries():
    backend = RecordedBackend(["nope", "still nope"])
    with pytest.raises(BackendError, match=r"llm:recorded: no usable verdict after 2 attempt\(s\)"):
        LLMJudge(backend, max_attempts=2).evaluate(example_evidence())


def test_backend_failure_propagates():
    with pytest.raises(BackendError, match="no replies left"):
        LLMJudge(RecordedBackend([])).evaluate(example_evidence())


def test_cache_in_memory_and_on_disk(tmp_path):
    backend = RecordedBackend([reply(fail=("no_side_effects",))])
    first = LLMJudge(backend, model="m", cache_dir=tmp_path).evaluate(example_evidence())
    assert len(list(tmp_path.glob("*.json"))) == 1
    again = LLMJudge(RecordedBackend([]), model="m", cache_dir=tmp_path)  # a new process: served from disk
    v = again.evaluate(example_evidence())
    assert v.to_json() == first.to_json() and again.stats == {"calls": 0, "hits": 1, "misses": 0, "repairs_failed": 0}
    stored = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert stored["verdict"]["criteria"][3]["pass"] is False and "no_side_effects" in stored["raw"]


def test_cache_key_depends_on_evidence_model_prompt_and_images():
    judge = LLMJudge(RecordedBackend([]), model="m")
    ev = example_evidence()
    base = judge.cache_key(*judge.render(ev))
    assert judge.cache_key(*judge.render(example_evidence())) == base
    other_model = LLMJudge(RecordedBackend([]), model="n")
    assert other_model.cache_key(*other_model.render(ev)) != base
    ev2 = example_evidence()
    ev2.assistant_messages = ["Saved. The total is $18.53."]
    ev2.conversation = []
    assert judge.cache_key(*judge.render(ev2)) != base
    ev3 = example_evidence()
    ev3.image_ids, ev3.image_url = [0], (lambda i: "data:image/png;base64,AAAA")
    ev4 = example_evidence()
    ev4.image_ids, ev4.image_url = [0], (lambda i: "data:image/png;base64,BBBB")
    assert judge.cache_key(*judge.render(ev3)) != judge.cache_key(*judge.render(ev4))

    class V2(LLMJudge):
        prompt_version = "v2"
    assert V2(RecordedBackend([]), model="m").cache_key(*judge.render(ev)) != base


def test_model_name_comes_from_the_backend():
    b = RecordedBackend([Completion(text=GOOD)])
    b.model = "served-model"
    assert LLMJudge(b).evaluate(example_evidence()).judge == "llm:served-model"


def test_prompt_gives_the_same_per_round_information_as_the_rubric():
    """Both judges answer the same question: what each round asks for (a change, facts to report)
    and which expected values the user stated versus which the assistant had to find."""
    scenario = SUITE["demo/two_events_mixed"]
    rec = run_episode(scenario, OracleAgent(list(SUITE.values())))
    ev = evidence_from_record(rec, scenario)
    assert ev.reports == [[], ["Night Market"]] and ev.action_rounds == [True, True]
    backend = RecordedBackend([GOOD])
    LLMJudge(backend, model="m").evaluate(ev)
    text = text_of(backend.calls[0]["messages"])
    assert "Round 1 asks for a change to the phone's data." in text
    assert "Round 2 asks for a change to the phone's data and a reply stating: Night Market." in text
    assert "Expected values the assistant had to find (images, lookups, computation): simple_note.notes.title, " \
           "simple_note.notes.content, simple_note.notes.user_id." in text
    system = backend.calls[0]["messages"][0]["content"]
    assert "commit to one" in system and "every candidate alike" in system and "to the cent" in system
    assert "never a different value as precise" in system
    gift = SUITE["demo/gift_ideas_update"]
    ev = evidence_from_record(run_episode(gift, OracleAgent([gift])), gift)
    backend = RecordedBackend([GOOD])
    LLMJudge(backend, model="m").evaluate(ev)
    assert "Expected values stated by the user: simple_note.notes.pinned." in text_of(backend.calls[0]["messages"])
