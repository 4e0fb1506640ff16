"""What the built-in nominal suite's challenges and arrival patterns mean, read off rounds and expected changes.

The figures these tests pin are documented in docs/generation.md ("The nominal suite").
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

import mmtsb_env
from mmtsb_env.generation.verify import arrival_of


@pytest.fixture(scope="module")
def suite():
    return mmtsb_env.load_suite("nominal")


def _by(suite, challenge):
    return [s for s in suite if s.metadata["challenge_type"] == challenge]


def mutation_variant(s) -> str:
    """How a state-mutation scenario changes the world under the assistant."""
    from mmtsb_env.generation.measures import mutation_touches_staged

    changes = [c for r in s.rounds for c in r.state_changes]
    if mutation_touches_staged(s):
        return "staged_rows"  # the solution updates or deletes rows staged for the scenario
    if any(c.table == "setting.device" for c in changes):
        return "device"
    if changes:
        return "world_rows"  # the user changed stored rows the task works on
    return "made_rows"  # the user takes back something the assistant created


def correction_variant(s) -> str:
    rounds = [r for r in s.rounds if r.kind == "correction"]
    if "+world_slip:" in s.metadata.get("recipe", ""):
        return "contradicts_world"
    if any(r.image_ids for r in rounds):
        return "contradicts_image"
    return "own_detail"


def test_state_mutation_is_mostly_about_staged_entities(suite):
    sm = _by(suite, "state_mutation")
    variants = Counter(mutation_variant(s) for s in sm)
    assert variants["staged_rows"] >= 0.7 * len(sm), variants
    assert variants["device"] <= 0.2 * len(sm), variants
    for s in sm:
        if mutation_variant(s) == "made_rows":
            r = next(r for r in s.rounds if r.kind == "state_mutation")
            tools = [st["name"] for st in r.solution if "name" in st]
            assert tools and all(any(w in t for w in ("delete", "update", "remove")) for t in tools), (s.id, tools)
            assert not r.image_ids


def _has_value(text: str, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` as a whole value, not inside a longer number or word."""
    return re.search(rf"(?<![\w.]){re.escape(value)}(?![\w]|\.\d)", text) is not None


def test_has_value_needs_whole_values():
    assert _has_value("it was $8.00, right?", "8.00") and _has_value("8.00", "8.00")
    assert not _has_value("it was $18.00", "8.00") and not _has_value("8.005", "8.00") and not _has_value("28.00", "8.00")


def test_error_correction_has_image_contradictions_and_own_corrections(suite):
    ec = _by(suite, "error_correction")
    variants = Counter(correction_variant(s) for s in ec)
    assert variants["contradicts_image"] > 0.5 * len(ec), variants  # most (issue #32)
    for s in ec:
        if correction_variant(s) != "contradicts_image":
            continue
        r = next(r for r in s.rounds if r.kind == "correction")
        right = r.report[0]
        # the user's claim is in the query, the image's value is not (as a whole value: "$8.00" is not in "$18.00");
        # the reply uses the image's value
        assert not _has_value(r.query, right) and right in r.answer, (s.id, right, r.query)
        assert right in s.metadata["derived_values"] + s.metadata["image_values"] or right in s.facts, s.id


def test_goal_change_cleans_up_or_updates(suite):
    """A pivot changes the world again: it rewrites the result, or removes what is no longer wanted."""
    from mmtsb_env.tools.catalog import get_tool

    gc = _by(suite, "goal_change")
    cleanups = 0
    for s in gc:
        r = next(r for r in s.rounds if r.kind == "goal_change")
        writes = [st["name"] for st in r.solution if "name" in st and get_tool(st["name"]).writes]
        assert writes, s.id
        cleanups += any(w in t for t in writes for w in ("delete", "remove"))
    assert cleanups >= 0.4 * len(gc), (cleanups, len(gc))


def positions(s) -> list[float]:
    """Relative position (1-based round / rounds) of every image-delivering round."""
    n = len(s.rounds)
    return [(i + 1) / n for i, r in enumerate(s.rounds) if r.image_ids]


def test_arrival_positions(suite):
    for s in suite:
        arrival = s.metadata["image_arrival"]
        assert arrival_of(s) == arrival, s.id
        pos = positions(s)
        if arrival == "upfront":
            assert pos == [1 / len(s.rounds)]
        elif arrival == "late":
            assert all(p > 2 / 3 for p in pos), (s.id, pos)
        elif arrival == "progressive":
            assert len(pos) >= 2 and pos[0] == 1 / len(s.rounds)
        else:
            assert len(pos) >= 2


def test_late_rounds_before_the_images_are_text_only_questions(suite):
    for s in suite:
        if s.metadata["image_arrival"] != "late":
            continue
        first = next(i for i, r in enumerate(s.rounds) if r.image_ids)
        for r in s.rounds[:first]:
            assert r.solution and not r.image_ids


def test_tool_coverage(suite):
    """Distinct tools the built-in solutions call: every domain, its main writers, readers of many apps."""
    from mmtsb_env.generation.axes import DOMAINS
    from mmtsb_env.tools.catalog import get_tool

    tools = {st["name"] for s in suite for r in s.rounds for st in r.solution if "name" in st}
    apps = Counter(get_tool(t).app for t in tools)
    assert len(tools) >= 85, len(tools)
    assert set(DOMAINS) <= set(apps)
    for t in ("simple_note_create_note", "simple_note_update_note", "simple_note_delete_note", "todoist_create_task",
              "todoist_update_task", "todoist_delete_task", "contacts_add_contact", "contacts_delete_contact",
              "venmo_create_payment_request", "venmo_delete_payment_request", "splitwise_record_expense",
              "splitwise_update_expense", "splitwise_delete_expense", "file_system_create_file", "file_system_update_file",
              "file_system_delete_file", "alarms_create_alarm", "alarms_delete_alarm"):
        assert t in tools, t
    readers = {t for t in tools if not get_tool(t).writes}
    assert len({get_tool(t).app for t in readers}) >= 12
