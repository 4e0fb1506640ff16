"""Every consolidated tool changes the world exactly like the full-toolbox tool it stands for."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest

from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.variants import CONSOLIDATED, VARIANTS, absorbed_in
from mmtsb_env.world import World
from mmtsb_env.world.base import base_world

from .equivalence_cases import Case, load_cases

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc)
CASES = load_cases()


def _world() -> World:
    return World(base_world(0).layer, now=NOW, user_id=1)


def _resolve(args: dict[str, Any], world: World) -> dict[str, Any]:
    return {k: (v(world) if callable(v) else v) for k, v in args.items()}


def _diff(world: World) -> dict[str, Any]:
    return {table: d.to_json() for table, d in world.diff().items()}


def run_both(variant: str, case: Case):
    """Run ``case`` through the full tool on one fresh world and through ``variant``'s tool on another."""
    full_world, variant_world = _world(), _world()
    for name, args in case.setup:
        for w in (full_world, variant_world):
            done = invoke(w, name, _resolve(args, w))
            assert done.ok, f"set-up {name} failed: {done.text}"
    args = _resolve(case.args, full_world)
    full = invoke(full_world, case.tool, args)
    consolidated = absorbed_in(variant)[case.tool]
    spec = CONSOLIDATED[consolidated]
    selected = dict(zip(spec.selectors, spec.key_for(case.tool)))
    via_variant = invoke(variant_world, consolidated, {**selected, **args})
    return full, via_variant, full_world, variant_world


def _pairs() -> list[tuple[str, str]]:
    return [(variant, name) for variant in VARIANTS for name, spec in CONSOLIDATED.items() if variant in spec.toolboxes]


@pytest.mark.parametrize("variant,consolidated", _pairs())
def test_consolidated_tool_matches_full_tools(variant: str, consolidated: str) -> None:
    absorbed = {r.target for r in CONSOLIDATED[consolidated].routes}
    cases = [c for c in CASES if c.tool in absorbed]
    assert len(cases) >= 3, f"{consolidated} has only {len(cases)} equivalence cases"
    for case in cases:
        full, via_variant, full_world, variant_world = run_both(variant, case)
        assert full.ok == case.ok, f"{case.tool}{case.args}: expected ok={case.ok}, got {full.text}"
        assert via_variant.ok == full.ok, f"{consolidated} vs {case.tool}: {via_variant.text} / {full.text}"
        assert via_variant.text == full.text
        assert via_variant.error_kind == full.error_kind
        assert via_variant.result == full.result
        assert _diff(variant_world) == _diff(full_world), f"{consolidated} vs {case.tool}: different world changes"


def test_cases_cover_every_consolidated_tool_with_successful_writes() -> None:
    """A broad sample: >= 3 cases per consolidated tool, and most cases are successful calls."""
    by_tool = {c.tool: c for c in CASES}
    for name, spec in CONSOLIDATED.items():
        targets = [r.target for r in spec.routes]
        successes = [c for c in CASES if c.tool in targets and c.ok]
        assert len(successes) >= 3 or len(successes) == len(set(targets)), f"{name}: {len(successes)} successful cases"
    assert sum(c.ok for c in CASES) >= 0.9 * len(CASES)
    absorbed = set().union(*(absorbed_in(v) for v in VARIANTS))
    assert absorbed <= set(by_tool), f"no case for {sorted(absorbed - set(by_tool))[:5]}"


def test_failed_variant_call_leaves_world_unchanged() -> None:
    case = Case("simple_note_delete_note", {"note_id": 999999}, ok=False)
    full, via_variant, full_world, variant_world = run_both("mini", case)
    assert not via_variant.ok and via_variant.error_kind == "not_found"
    assert "999999" in via_variant.text
    assert variant_world.diff() == {} and full_world.diff() == {}
