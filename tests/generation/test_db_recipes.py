"""Every database-backed recipe composes a scenario the oracle solves."""

from __future__ import annotations

import pytest

from mmtsb_env.generation.compose import compose
from mmtsb_env.generation.errors import GenerationError
from mmtsb_env.generation.db_recipes import RECIPES
from mmtsb_env.generation.dryrun import SolutionError
from mmtsb_env.generation.verify import verify

ALL = [(flow, cls) for flow, classes in RECIPES.items() for cls in classes]


def _compose_with(flow, cls, challenge, arrival):
    for seed in range(40):
        try:
            s = compose(seed, flow, challenge, arrival, category=cls.category, prefer=frozenset(cls.domains))
        except (GenerationError, SolutionError):
            continue
        if s.metadata["recipe"].split("/")[0].split("+")[0] == cls.__name__:
            assert cls.domains[0] in s.domains
            return s
    pytest.fail(f"{cls.__name__}: no scenario in 40 seeds")


@pytest.mark.parametrize("flow,cls", ALL, ids=lambda v: getattr(v, "__name__", v))
def test_recipe_solves_with_its_challenge(flow, cls):
    challenge = next(c for c in ("error_correction", "goal_change", "state_mutation", "none") if c in cls.supports)
    s = _compose_with(flow, cls, challenge, "progressive")
    report = verify(s, code=False)
    assert report.ok, report.problems
    assert report.tool_f1 == 1.0


def test_entity_mutation_is_a_user_change_the_solution_respects():
    from mmtsb_env.generation.db_recipes import ContactsValidate

    s = None
    for seed in range(60):
        try:
            cand = compose(seed, "validate", "state_mutation", "progressive", category="business_card",
                           prefer=frozenset(ContactsValidate.domains))
        except GenerationError:
            continue
        if any(c.table == "phone.contacts" for r in cand.rounds for c in r.state_changes):
            s = cand
            break
    assert s is not None
    rnd = next(r for r in s.rounds if r.state_changes)
    change = rnd.state_changes[0]
    # the contact the user fixed is not updated again by the assistant
    updated = {e.key for e in s.expected_changes if e.table == "phone.contacts" and e.operation == "update"}
    assert change.key not in updated
    assert verify(s, code=False).ok


def test_every_recipe_is_described_by_one_about_row():
    from mmtsb_env.generation.db_base import ABOUT, DBRecipe

    classes = {cls.__name__: (flow, cls) for flow, group in RECIPES.items() for cls in group}
    assert set(classes) == set(ABOUT)
    for name, (flow, cls) in classes.items():
        a = ABOUT[name]
        assert cls.flow_name == a.flow == flow and cls.category == a.category and cls.domains == a.domains
        assert "none" in cls.supports and not set(a.without) & set(cls.supports)
        assert len(cls.supports) + len(a.without) == 4  # every other challenge is taken
        assert "{ref}" in cls.again_text
    with pytest.raises(TypeError, match="Unlisted has no row in db_base.ABOUT"):
        type("Unlisted", (DBRecipe,), {})
