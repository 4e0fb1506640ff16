"""Sinks undo what they create; flows put their facts in the answer; deictic phrases."""

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


@pytest.mark.parametrize("cls", UNDOABLE, ids=lambda c: c.__name__)
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
    old = sink.calendar["calendar_id"]
    m = sink.mistake()
    assert m is not None and sink.calendar["calendar_id"] != old
    run = play(_steps_to_rounds(made, m.fix), {}, reference_time=NOW.isoformat(), user_id=1)
    events = [e for e in expected_changes(run.world) if e["table"] == "calendar.events"]
    assert len(events) == 2 and {e["row"]["calendar_id"] for e in events} == {sink.calendar["calendar_id"]}


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
                         ids=lambda c: c.__name__)
def test_capabilities_a_sink_lacks_are_generation_errors(cls):
    from mmtsb_env.generation.core import GenerationError

    sink = cls(_build(1))
    for flag, attempt in (("undoable", sink.undo), ("revisable", lambda: sink.revise(None)),
                          ("extendable", lambda: sink.extend(None))):
        if not getattr(cls, flag):
            with pytest.raises(GenerationError, match=f"{flag} = False"):
                attempt()


def test_sinks_and_recipes_must_implement_their_hooks():
    from mmtsb_env.generation.db_recipes import DBRecipe

    with pytest.raises(TypeError, match="abstract"):
        S.Sink(_build(0))
    with pytest.raises(TypeError, match="abstract"):
        DBRecipe.__new__(DBRecipe)
