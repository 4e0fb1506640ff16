"""Per-round checkpoints: what the world should show once round ``k`` is done.

A scenario states its expected changes only for the whole task; each round carries the oracle's
``solution``. Replaying the solutions of rounds ``0..k`` in a scratch episode (tool mode, on the
host: the sandbox never sees the scenario) gives the world after round ``k``; its diff against
the initial state is *checkpoint k*. The replay is cached per scenario object.

A live round ``k`` is done in the world when

* every change of checkpoint ``k`` that is new or different from checkpoint ``k - 1`` has a
  matching change in the live world's diff (same table and operation; for a create the mean of
  the typed column measures over the compared columns, for an update the same over the columns
  the round changed, for a delete the key; a changed row must be closer to its new values than
  to its values before the round and before the episode than to the new ones) with similarity >= :data:`MATCH` (creates) or
  :data:`UPDATE_MATCH` (updates), and
* every change of checkpoint ``k - 1`` that round ``k`` undid (a goal change: the note is no
  longer wanted) has no such match any more.

Matching uses the entity-diff measures (:func:`~mmtsb_env.evaluation.entity_diff.compare_columns`:
ROUGE-L for text, tolerances for numbers and dates) and never keys of created rows, so an agent
that words a subject differently, works in another order or reads more than the oracle still
completes the round. Whether the values are *right* is the judge's business, not the user's:
the user only checks that the work it asked for is there.

>>> from mmtsb_env.scenario.suites import load_suite
>>> sc = next(s for s in load_suite("demo") if s.id == "demo/note_from_receipt")
>>> [len(c.items) for c in round_checkpoints(sc)]
[1]
>>> round_checkpoints(sc)[0].items[0].table
'simple_note.notes'
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from ..evaluation.entity_diff import DEFAULT_EXEMPTIONS, _assign, compare_columns
from ..evaluation.judge import fact_in_text
from ..episode.engine import Episode, EpisodeConfig, scenario_asset
from ..scenario.model import Scenario
from ..ui.choice import pending_ui_action
from ..world.schema import TABLES
from .script import CONFIRM, round_action, unused_clarification

MATCH = 0.5  # a live create counts as the checkpoint's from this similarity on (content may be misread)
UPDATE_MATCH = 0.75  # an update's columns are what the user asked to change: most must be right
_OPS = {"create": "created", "update": "updated", "delete": "deleted"}


@dataclass(frozen=True)
class Item:
    """One change of a checkpoint: ``columns`` are the ones compared (``()`` for a delete)."""

    op: str  # create | update | delete
    table: str
    key: Any
    row: Mapping[str, Any]  # the replayed row (after the change; the deleted row for a delete)
    columns: tuple[str, ...] = ()
    measures: Mapping[str, str] = field(default_factory=dict)
    previous: Mapping[str, Any] | None = None  # a change of an earlier round's row: its values before
    initial: Mapping[str, Any] | None = None  # an update: the row before the episode changed it

    def values(self) -> dict[str, Any]:
        return {c: self.row.get(c) for c in self.columns}


@dataclass(frozen=True)
class Checkpoint:
    """The world after round ``index``: all its changes, and what the round itself did."""

    index: int
    items: tuple[Item, ...]
    required: tuple[Item, ...]  # new or changed by this round (compared on the changed columns)
    undone: tuple[Item, ...]  # changes of the previous checkpoint this round removed

    @property
    def has_effects(self) -> bool:
        return bool(self.required or self.undone)


# ----------------------------------------------------------------------------------- replay
def resolve_refs(value: Any, saved: Mapping[str, Any]) -> Any:
    """An oracle step's arguments with ``{"$ref": "label.path"}`` replaced by saved results."""
    if isinstance(value, dict):
        if set(value) == {"$ref"}:
            label, _, path = value["$ref"].partition(".")
            out = saved.get(label)
            for part in filter(None, path.split(".")):
                out = out[int(part)] if isinstance(out, list) else out[part]
            return out
        return {k: resolve_refs(v, saved) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_refs(v, saved) for v in value]
    return value


def replay_user_reply(episode: Episode) -> str:
    """The user's answer to an oracle ``say`` step in the replay: the screen, the script, or a yes."""
    ui = pending_ui_action(episode)
    if ui is not None:
        return ui
    clar = unused_clarification(episode)
    return clar[1] if clar is not None else CONFIRM


def _world_diff(episode: Episode) -> dict[str, Any]:
    return {t: d for t, d in episode.world.diff().items()}


def replay(scenario: Scenario) -> list[dict[str, Any]]:
    """World diffs (table -> TableDiff) after each round of the oracle's solution."""
    # only the world's changes matter here: a path image that is not on disk may stand in
    ep = Episode(scenario, EpisodeConfig(mode="tool", max_messages=10**9, stand_in_images=True))
    diffs: list[dict[str, Any]] = []
    saved: dict[str, Any] = {}
    try:
        for k, rnd in enumerate(scenario.rounds):
            if ep.turn != ep.USER:
                ep.act(ep.ASSISTANT, "(replay)")
            ep.act(ep.USER, round_action(ep, k))
            for step in rnd.solution:
                if "say" in step:
                    ep.act(ep.ASSISTANT, step["say"])
                    if not ep.done and ep.turn == ep.USER:
                        ep.act(ep.USER, replay_user_reply(ep))
                    continue
                try:
                    call = {"name": step["name"], "arguments": resolve_refs(step.get("arguments", {}), saved)}
                except (KeyError, IndexError, TypeError, ValueError):  # a broken reference: the step cannot run
                    continue
                ep.act(ep.ASSISTANT, json.dumps(call, ensure_ascii=False))
                if step.get("save_as"):
                    saved[step["save_as"]] = ep.calls[-1].outcome.result
            ep.act(ep.ASSISTANT, rnd.answer or "Done.")
            reply = replay_user_reply(ep)  # a pending screen answer is part of the round
            if reply != CONFIRM and not ep.done:
                ep.act(ep.USER, reply)
            diffs.append(_world_diff(ep))
    finally:
        ep.close()
    return diffs


# ----------------------------------------------------------------------------------- items
def _key_col(table: str) -> str:
    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def _skip_cols(table: str) -> set[str]:
    spec = TABLES.get(table)
    return ({_key_col(table)} | set(spec.auto_columns)) if spec is not None else {"id"}


def _measures(scenario: Scenario, table: str) -> dict[str, str]:
    """The scenario's column measures for ``table``. A checkpoint compares against the replayed
    row's full text, not a list of facts, so a ``facts`` column is compared by ROUGE-L here."""
    out: dict[str, str] = {}
    for change in scenario.expected_changes:
        if change.table == table:
            out.update(change.measures)
    return {c: ("rouge_l" if m == "facts" else m) for c, m in out.items()}


def _create_columns(scenario: Scenario, table: str, row: Mapping[str, Any]) -> tuple[str, ...]:
    """Compare a replayed create on the columns the scenario's closest expected create names,
    else on its content columns (no key, no auto columns, no empty values)."""
    best, best_sim = None, -1.0
    for change in scenario.expected_changes:
        if change.operation == "create" and change.table == table and change.row:
            cols = compare_columns(change.row, row, change.measures, table, skip_empty=True)
            sim = sum(s for s, _ in cols.values()) / len(cols) if cols else 0.0
            if sim > best_sim:
                best, best_sim = change, sim
    if best is not None and best_sim >= MATCH:
        return tuple(c for c in best.row if c in row)
    skip = _skip_cols(table)
    return tuple(c for c, v in row.items() if c not in skip and v not in (None, "", []))


def _exempt(scenario: Scenario, table: str, op: str, changed: Sequence[str] | None) -> bool:
    if any(c.table == table and c.operation == op for c in scenario.expected_changes):
        return False
    return any(e.covers(table, op, changed) for e in DEFAULT_EXEMPTIONS)


def _items(scenario: Scenario, diff: Mapping[str, Any]) -> dict[tuple[str, str, Any], Item]:
    out: dict[tuple[str, str, Any], Item] = {}
    for table, d in diff.items():
        key_col, skip, measures = _key_col(table), _skip_cols(table), _measures(scenario, table)
        for row in d.created:
            if not _exempt(scenario, table, "create", None):
                out[("create", table, row.get(key_col))] = Item("create", table, row.get(key_col), dict(row),
                                                                _create_columns(scenario, table, row), measures)
        for before, after in d.updated:
            changed = tuple(c for c in sorted(set(before) | set(after)) if before.get(c) != after.get(c) and c not in skip)
            if changed and not _exempt(scenario, table, "update", changed):
                out[("update", table, after.get(key_col))] = Item("update", table, after.get(key_col), dict(after), changed,
                                                                  measures, initial=dict(before))
        for row in d.deleted:
            if not _exempt(scenario, table, "delete", None):
                out[("delete", table, row.get(key_col))] = Item("delete", table, row.get(key_col), dict(row))
    return out


def _delta(item: Item, before: Item | None) -> Item | None:
    """What round k asks of ``item`` given its state after round k-1 (None: nothing new)."""
    if before is None:
        return item
    if item.op == "delete":
        return None
    columns = tuple(dict.fromkeys((*item.columns, *before.columns)))  # a column set back counts too
    changed = tuple(c for c in columns if before.row.get(c) != item.row.get(c))
    if not changed:
        return None
    return Item(item.op, item.table, item.key, item.row, changed, item.measures,
                previous={c: before.row.get(c) for c in changed}, initial=item.initial)


def checkpoints_from_diffs(scenario: Scenario, diffs: Sequence[Mapping[str, Any]]) -> tuple[Checkpoint, ...]:
    out, previous = [], {}
    for k, diff in enumerate(diffs):
        items = _items(scenario, diff)
        required = [d for key, it in items.items() if (d := _delta(it, previous.get(key))) is not None]
        undone = [it for key, it in previous.items() if key not in items]
        out.append(Checkpoint(k, tuple(items.values()), tuple(required), tuple(undone)))
        previous = items
    return tuple(out)


def round_checkpoints(scenario: Scenario) -> tuple[Checkpoint, ...]:
    """The scenario's checkpoints (one per round), replayed once per scenario object and cached."""
    return scenario_asset(scenario, "round_checkpoints", lambda: checkpoints_from_diffs(scenario, replay(scenario)))


# ----------------------------------------------------------------------------------- matching
def _similarity(item: Item, actual: Any) -> float:
    if item.op == "delete":
        key = actual.get(_key_col(item.table))
        return 1.0 if key == item.key or str(key) == str(item.key) else 0.0
    row = actual[1] if item.op == "update" else actual
    if item.op == "update":
        key = row.get(_key_col(item.table))
        if not (key == item.key or str(key) == str(item.key)):
            return 0.0
    expected = item.values()
    if not expected:
        return 1.0
    before = item.previous if item.previous is not None else item.initial
    if before is not None and all(not _same(row.get(c), before.get(c)) for c in expected):
        # The user sees the fields it asked about changed. Whether to the right values (an amount
        # read off an image) is the judge's call: a user that only moved on for the right value
        # would tell a policy the answer key by nudging.
        return 1.0
    score = _mean_similarity(expected, row, item)
    for before in (item.previous, item.initial):  # still (closer to) what it was: not changed (or undone)
        if before is not None and _mean_similarity({c: before.get(c) for c in expected}, row, item) > score:
            return 0.0
    return score


def _same(a: Any, b: Any) -> bool:
    return a == b or (a is not None and b is not None and str(a) == str(b))


def _mean_similarity(expected: Mapping[str, Any], row: Mapping[str, Any], item: Item) -> float:
    cols = compare_columns(expected, row, item.measures, item.table, skip_empty=False)
    return sum(s for s, _ in cols.values()) / len(cols) if cols else 1.0


def matched(items: Sequence[Item], diff: Mapping[str, Any]) -> list[bool]:
    """For each item, whether the live ``diff`` has a change matching it (one change per item)."""
    result = [False] * len(items)
    groups: dict[tuple[str, str], list[int]] = {}
    for i, item in enumerate(items):
        groups.setdefault((item.table, item.op), []).append(i)
    for (table, op), idx in groups.items():
        d = diff.get(table)
        actual = list(getattr(d, _OPS[op], []) or []) if d is not None else []
        if not actual:
            continue
        sim = np.array([[_similarity(items[i], a) for a in actual] for i in idx])
        threshold = UPDATE_MATCH if op == "update" else MATCH
        for r, c in _assign(sim):
            if sim[r, c] >= threshold:
                result[idx[r]] = True
    return result


@dataclass(frozen=True)
class Progress:
    """How far the live world is with a round: what is missing, what should be gone."""

    missing: tuple[Item, ...] = ()
    lingering: tuple[Item, ...] = ()  # undone by the round but still in the world

    @property
    def done(self) -> bool:
        return not self.missing and not self.lingering


def progress_in(scenario: Scenario, index: int, diff: Mapping[str, Any]) -> tuple[Checkpoint, Progress]:
    """Checkpoint ``index`` of ``scenario`` and how far a world with ``diff`` is with it."""
    cp = round_checkpoints(scenario)[index]
    if not cp.has_effects:
        return cp, Progress()
    # One assignment for all: a live change that does the round's work, or that is a row the round
    # keeps (the other tasks when one is taken back), is not also the undone one.
    required = {(it.op, it.table, it.key) for it in cp.required}
    undone_kinds = {(it.op, it.table) for it in cp.undone}
    kept = tuple(it for it in cp.items if (it.op, it.table) in undone_kinds and (it.op, it.table, it.key) not in required)
    both = matched((*cp.required, *cp.undone, *kept), diff)
    have, still = both[:len(cp.required)], both[len(cp.required):len(cp.required) + len(cp.undone)]
    return cp, Progress(tuple(it for it, ok in zip(cp.required, have) if not ok),
                        tuple(it for it, ok in zip(cp.undone, still) if ok))


def round_progress(episode: Episode, index: int | None = None) -> tuple[Checkpoint, Progress]:
    """Checkpoint of round ``index`` (default: the current one) and the live world's progress on it."""
    k = episode.round_index if index is None else index
    return progress_in(episode.scenario, k, episode.world.diff())


def missing_facts(facts: Sequence[str], texts: Sequence[str]) -> list[str]:
    """The facts none of ``texts`` states (numbers by value, other facts as text)."""
    said = "\n".join(texts)
    return [f for f in facts if not fact_in_text(f, said)]


def said_in_round(log: Sequence[Mapping[str, Any]], index: int) -> list[str]:
    """What the assistant told the user in round ``index`` (messages and deliveries), from log JSON."""
    return [str(e.get("content", "")) for e in log if e.get("sender") == "assistant"
            and e.get("kind") in ("message", "notice") and e.get("round_index") == index]


def round_done_in(scenario: Scenario, index: int, diff: Mapping[str, Any], log: Sequence[Mapping[str, Any]]) -> bool:
    """Round ``index`` is done: its checkpoint is met by ``diff`` and its report facts were stated."""
    _, progress = progress_in(scenario, index, diff)
    return progress.done and not missing_facts(scenario.rounds[index].report, said_in_round(log, index))
