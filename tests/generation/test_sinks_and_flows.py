"""Sinks (rows of data) undo what they create and repair mistakes; flows put their facts in the answer; deictic phrases."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from mmtsb_env.generation import sinks as S
from mmtsb_env.generation.core import Build, describe_images
from mmtsb_env.generation.dryrun import expected_changes, play
from mmtsb_env.generation.flows import make_flow
from mmtsb_env.generation.world_index import world_index
from mmtsb_env.scenario.model import Round

NOW = datetime(2026, 4, 20, 9, 0, tzinfo=timezone.utc)


def _build(seed: int = 0) -> Build:
    return Build(random.Random(seed), world_index(0), NOW)


def _steps_to_rounds(*groups):
    return [Round(f"r{i}", solution=tuple(g)) for i, g in enumerate(groups)]


UNDOABLE = [c for c in S.ALL_SINKS if c.undoable]


@pytest.mark.parametrize("cls", UNDOABLE, ids=lambda c: c.name)
def test_undo_removes_everything_the_sink_made(cls):
    b = _build(3)
    kinds = {"amount": ("receipt", "compute"), "entries": ("event_poster", "aggregate"), "text": ("receipt", "aggregate")}
    cat, flow_name = kinds[cls.kind]
    if cls is S.ContactsSink:
        cat = "business_card"
    flow = make_flow(b, flow_name, cat)
    ids = flow.draft(b, 3)
    payload = flow.payload(b, ids)
    sink = cls(b)
    assert sink.accepts(payload)
    made = sink.write(payload, additive=flow.additive)
    undone = sink.undo()
    run = play(_steps_to_rounds(made, undone), {}, reference_time=NOW.isoformat(), user_id=1)
    left = [e for e in expected_changes(run.world) if e["operation"] != "update"]
    if cls is S.SplitwiseSink:  # Splitwise deletes softly: the expense stays, marked deleted
        assert [e["row"]["deleted"] for e in left if e["table"] == "splitwise.expenses"] == [True]
        left = [e for e in left if e["table"] not in ("splitwise.expenses", "splitwise.expense_shares")]
    assert left == [], left


def test_mistakes_change_the_written_rows():
    b = _build(5)
    flow = make_flow(b, "aggregate", "event_poster")
    ids = flow.draft(b, 2)
    sink = S.CalendarSink(b)
    made = sink.write(flow.payload(b, ids), additive=True)
    old = sink.v["calendar"]["calendar_id"]
    m = sink.mistake()
    assert m is not None and sink.v["calendar"]["calendar_id"] != old
    run = play(_steps_to_rounds(made, m.fix), {}, reference_time=NOW.isoformat(), user_id=1)
    events = [e for e in expected_changes(run.world) if e["table"] == "calendar.events"]
    assert len(events) == 2 and {e["row"]["calendar_id"] for e in events} == {sink.v["calendar"]["calendar_id"]}


@pytest.mark.parametrize("flow_name,cat", [("aggregate", "receipt"), ("compare", "price_tag"), ("filter", "event_poster"),
                                           ("compute", "invoice"), ("compare", "sign"), ("filter", "table_document")])
def test_every_fact_is_in_the_summary(flow_name, cat):
    b = _build(11)
    flow = make_flow(b, flow_name, cat)
    ids = flow.draft(b, 4)
    p = flow.payload(b, ids)
    text = p.summary.replace(",", "")
    for f in p.facts:
        assert f.replace(",", "") in text, (f, p.summary)


def test_describe_images_is_deictic():
    b = _build(1)
    for _ in range(4):
        b.img("receipt")
    imgs = b.imgs
    assert describe_images(imgs, [0, 1], [0, 1], [0, 1]) == "these receipts"
    assert describe_images(imgs, [2], [2], [0, 1, 2]) == "this receipt"
    assert describe_images(imgs, [1], [0, 1, 2], [0, 1, 2]) == "the second receipt I just sent"
    assert describe_images(imgs, [1, 2], [0, 1, 2], [0, 1, 2]) == "the last 2 receipts I just sent"
    assert describe_images(imgs, [0], [], [0, 1]) == "the first receipt from before"
    assert describe_images(imgs, [0, 1, 2], [2], [0, 1, 2]) == "all 3 receipts so far"
    assert describe_images(imgs, [0, 1, 3], [3], [0, 1, 2, 3]) == "this new receipt together with the 2 receipts from before"


@pytest.mark.parametrize("cls", [c for c in S.ALL_SINKS if not (c.undoable and c.revisable and c.extendable)],
                         ids=lambda c: c.name)
def test_capabilities_a_sink_lacks_are_generation_errors(cls):
    from mmtsb_env.generation.errors import GenerationError

    sink = cls(_build(1))
    for flag, attempt in (("undoable", sink.undo), ("revisable", lambda: sink.revise(None)),
                          ("extendable", lambda: sink.extend(None))):
        if not getattr(cls, flag):
            with pytest.raises(GenerationError, match=f"{flag} = False"):
                attempt()


def test_recipes_must_implement_their_hooks():
    from mmtsb_env.generation.db_base import DBRecipe

    with pytest.raises(TypeError, match="abstract"):
        DBRecipe.__new__(DBRecipe)


def _written(cls, seed=3):
    b = _build(seed)
    kinds = {"amount": ("receipt", "compute"), "entries": ("event_poster", "aggregate"), "text": ("receipt", "aggregate")}
    cat, flow_name = kinds[cls.kind]
    if cls is S.ContactsSink:
        cat = "business_card"
    flow = make_flow(b, flow_name, cat)
    payload = flow.payload(b, flow.draft(b, 3))
    sink = cls(b)
    assert sink.accepts(payload)
    return sink, sink.write(payload, additive=flow.additive)


def _rows(steps):
    run = play(_steps_to_rounds(steps), {}, reference_time=NOW.isoformat(), user_id=1)
    return sorted((e["table"], str(sorted(e["row"].items()))) for e in expected_changes(run.world))


@pytest.mark.parametrize("cls", [c for c in S.ALL_SINKS if c.fix is not None], ids=lambda c: c.name)
def test_every_mistake_repair_changes_what_the_sink_wrote(cls):
    sink, made = _written(cls)
    before = _rows(made)
    wrong = sink.v[cls.fix.field]
    m = sink.mistake()
    assert sink.v[cls.fix.field] != wrong and m.wrong_text != m.right_text
    said = m.correction + " " + m.answer
    assert m.wrong_text.split()[0] in m.correction and m.right_text.split()[0] in said, (m.correction, m.answer)
    after = _rows(made + m.fix)
    assert m.fix and after != before and len(after) >= len(before) - 1  # the rows moved or were renamed, not lost


def test_sinks_without_a_repair_are_the_ones_that_cannot_take_back_what_they_sent():
    assert {c.name for c in S.ALL_SINKS if c.fix is None} == {"EmailSink", "TextSink", "VenmoPaySink"}


def test_a_new_sink_is_a_few_lines_of_data():
    """A row the generator does not ship: an archive file under the owner's documents, with undo and a repair."""
    archive = S.SinkRow(
        "ArchiveSink", "text", "archive file", ("file_system",),
        intent={"": "archive it at {path}"}, done="Archived at {path}.",
        draw=lambda b: {"path": f"{b.wi.home()}documents/archive_{b.rng.randint(100, 999)}.txt"},
        create=(S.op("file_system_create_file", file_path="{path}", content="{text}"),),
        extend=(S.op("file_system_update_file", file_path="{path}", content="{text}"),),
        undo=(S.op("file_system_delete_file", file_path="{path}"),),
        fix=S.Fix("path", lambda s, w: w.replace("archive_", "old_"), "It should be at {right}, not {wrong}.", "Moved it to {right}.",
                  steps=(S.op("file_system_move_file", source_file_path="{wrong}", destination_file_path="{right}"),)))
    b = _build(4)
    sink = archive(b)
    assert sink.intent().startswith("archive it at /") and not archive.revisable and archive.extendable
    from mmtsb_env.generation.core import Payload
    made = sink.write(Payload("x", lines=["a: 1", "b: 2"]), additive=True)
    made += sink.write(Payload("x", lines=["c: 3"]), additive=True)
    assert made[-1]["arguments"]["content"] == "a: 1\nb: 2\nc: 3"
    m = sink.mistake()
    files = [r for t, r in _rows(made + m.fix) if t == "file_system.files"]
    assert len(files) == 1 and "old_" in files[0] and "c: 3" in files[0]
    assert _rows(made + m.fix + sink.undo()) == []
    from mmtsb_env.generation.errors import GenerationError
    with pytest.raises(GenerationError, match="ArchiveSink cannot rewrite what it wrote \\(revisable = False\\)"):
        sink.revise(Payload("x", lines=["d"]))


def test_templates_resolve_references_values_and_omissions():
    v = {"a": {"b": 7}, "n": None, "t": "x"}
    assert S.resolve("@note_id", v, "note3") == {"$ref": "note3.note_id"}
    assert S.resolve("@", v, "r1") == {"$ref": "r1."}
    assert S.resolve("{a[b]}", v, "") == 7  # the value itself, not its text
    assert S.resolve("{n}", v, "") is None
    assert S.resolve("More: {t} {a[b]}", v, "") == "More: x 7"
    assert S.resolve(["{a[b]}", "plain"], v, "") == [7, "plain"]
