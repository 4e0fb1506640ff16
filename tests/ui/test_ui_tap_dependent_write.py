"""The write acting on a UI choice must commit to the tapped option (rt2 red team): a write naming
every offered option, or the tapped option's name with another option's amount, is right whichever
option was tapped, so it does not act on the user's choice. Episodes replay the oracle's work on
shipped ui scenarios (picked by property) with only the first post-tap write that names the tapped
option edited."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.baselines.zoo import _writes
from mmtsb_env.runner import run_episode
from mmtsb_env.ui.evaluation import _image_amounts, _image_dates

_spec = importlib.util.spec_from_file_location(
    "judge_probes", Path(__file__).resolve().parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)
_spec.loader.exec_module(probes)

UI = list(mmtsb_env.load_suite("ui"))


def _names(ui):
    return [e for e in ui.expect if not any(ch.isdigit() for ch in e)]


def _rewrite(scenario, edit, only=None):
    """The oracle's steps with the first post-tap write holding an option's name (in round ``only``,
    or the first UI round with one) edited by ``edit(text, hit, names, ui, scenario) -> new text or
    None``: {round: steps}, or {} when nothing fits."""
    for k, r in enumerate(scenario.rounds):
        if r.ui is None or len(_names(r.ui)) < 2 or only not in (None, k):
            continue
        names, sol, shown = _names(r.ui), copy.deepcopy(list(r.solution)), False
        for st in sol:
            if st.get("name") == "show_ui_to_user":
                shown = True
                continue
            if not shown or not _writes(st):
                continue
            for key, v in (st.get("arguments") or {}).items():
                hit = next((e for e in names if isinstance(v, str) and e in v), None)
                if hit:
                    new = edit(v, hit, names, r.ui, scenario)
                    if new is None or new == v:
                        return {}
                    st["arguments"][key] = new
                    return {k: sol}
    return {}


def _failed(scenario, steps):
    rec = run_episode(scenario, probes.Rewritten(probes.Case("", scenario, {}, False, steps=steps)))
    return rec, {c["criterion"]: c.get("reason", "") for c in rec.verdict["criteria"] if not c["pass"]}


def _every_option(text, hit, names, ui, scenario):
    """Every offered option's name where the tapped one stood (kept within 100 characters, an alarm
    label's limit, so the write is made)."""
    new = text.replace(hit, ", ".join(names[:-1]) + " and " + names[-1])
    return new if len(new) <= 100 else None


def _amount(x):
    return f"{x:.2f}"


def _other_amount(text, hit, names, ui, scenario):
    """The tapped option's amount in the write replaced by another option's amount."""
    own = [a for a in _image_amounts(scenario, hit) if _amount(a) in text]
    rival = next((a for n in names if n != hit for a in _image_amounts(scenario, n)
                  if own and _amount(a) not in text and abs(a - own[0]) > 0.01), None)
    return text.replace(_amount(own[0]), _amount(rival)) if own and rival is not None else None


def _cases(edit, n):
    out = []
    for s in UI:
        steps = _rewrite(s, edit)
        if steps:
            out.append((s, steps))
    return out[:n]


EVERY = _cases(_every_option, 6)
SWAPPED = _cases(_other_amount, 4)


def test_there_are_cases():
    assert len(EVERY) >= 4 and len(SWAPPED) >= 2


@pytest.mark.parametrize("case", EVERY, ids=[s.id for s, _ in EVERY])
def test_a_write_naming_every_offered_option_fails(case):
    scenario, steps = case
    rec, failed = _failed(scenario, steps)
    assert "ui_choice_acted_on" in failed and "also names other option" in failed["ui_choice_acted_on"]
    assert not rec.passed


@pytest.mark.parametrize("case", SWAPPED, ids=[s.id for s, _ in SWAPPED])
def test_the_tapped_option_written_with_another_options_amount_fails(case):
    scenario, steps = case
    rec, failed = _failed(scenario, steps)
    assert "ui_choice_acted_on" in failed
    assert not rec.passed


def test_the_unedited_write_passes():
    scenario, steps = EVERY[0]
    k = next(iter(steps))
    rec, failed = _failed(scenario, {k: list(scenario.rounds[k].solution)})
    assert not failed and rec.passed


def _filter_rounds():
    """(scenario, round, names the oracle's post-tap writes of the round hold = the ticked options,
    an offered option none of them holds) of multi-pick filter rounds."""
    out = []
    for s in UI:
        for k, r in enumerate(s.rounds):
            if r.ui is None or "every" not in (r.ui.pick or {}):
                continue
            shown = next(i for i, st in enumerate(r.solution) if st.get("name") == "show_ui_to_user")
            written = " ".join(str(st.get("arguments")) for st in r.solution[shown:] if _writes(st))
            ticked = [n for n in _names(r.ui) if n in written]
            left = [n for n in _names(r.ui) if n not in written]
            if ticked and left:
                out.append((s, k, ticked, left[0]))
    return out


FILTER = _filter_rounds()[:4]


@pytest.mark.parametrize("case", FILTER, ids=[f"{s.id}-r{k + 1}" for s, k, _, _ in FILTER])
def test_a_filter_round_write_naming_an_unticked_option_fails(case):
    scenario, k, ticked, unticked = case

    def add_unticked(text, hit, names, ui, s):
        return text.replace(hit, f"{hit} and {unticked}", 1) if hit in ticked else None

    steps = _rewrite(scenario, add_unticked, only=k)
    assert steps
    rec, failed = _failed(scenario, steps)
    assert "also names other option" in failed.get("ui_choice_acted_on", "")
    assert not rec.passed


def _app(name):
    return name.split("_")[0] + ("_" + name.split("_")[1] if name.startswith(("simple_note", "file_system")) else "")


def _final_fact_writes():
    """EVERY cases whose edited write is the scenario's last write of its app, into a table whose
    expected text is scored as facts (the written artefact the rubric judge reads)."""
    out = []
    for s, steps in EVERY:
        k = next(iter(steps))
        edited = next(a for a, b in zip(steps[k], s.rounds[k].solution) if a != b)
        app = _app(edited["name"])
        writes = [st for r in s.rounds for st in r.solution if _writes(st) and _app(st["name"]) == app]
        facts = any("facts" in (c.measures or {}).values() and c.table.split(".")[0] == app.split("_")[0]
                    + ("_" + app.split("_")[1] if "_" in app else "") for c in s.expected_changes)
        if writes and writes[-1] == s.rounds[k].solution[steps[k].index(edited)] and facts:
            out.append((s, steps))
    return out


FACT_WRITES = _final_fact_writes()


@pytest.mark.parametrize("case", FACT_WRITES, ids=[s.id for s, _ in FACT_WRITES])
def test_the_rubric_judge_fails_a_facts_scored_text_naming_every_option(case):
    scenario, steps = case
    _, failed = _failed(scenario, steps)
    assert "names other candidates" in failed.get("information_accuracy", "")


def _other_date(text, hit, names, ui, scenario):
    """The tapped option's date (ISO) in the write replaced by another option's date."""
    own = [d for d in _image_dates(scenario, hit) if d in text]
    rival = next((d for n in names if n != hit for d in _image_dates(scenario, n) if own and d not in text), None)
    return text.replace(own[0], rival) if own and rival is not None else None


DATED = _cases(_other_date, 3)


@pytest.mark.parametrize("case", DATED, ids=[s.id for s, _ in DATED])
def test_the_tapped_option_written_with_another_options_date_fails(case):
    scenario, steps = case
    rec, failed = _failed(scenario, steps)
    assert "also names other option" in failed.get("ui_choice_acted_on", "")
    assert not rec.passed
