"""Issue #31: forms of naming a rival beside the answer, judged over nominal scenarios a probe of
``benchmarks/judge_probes.py`` fits (chosen by property). Each form has the paper's verdict: a
reply that names two candidates as one answer ("X/Y", "X ou peut-être Y", "X oder Y") commits to
neither (information accuracy fails, hedged); struck-out text says nothing ("~~X~~ Y" answers Y);
a value a parenthesis corrects is the corrected one ("$W (sorry, typo: $X)" answers X); a ranking's
runner-up is context, not a second answer ("X (runner-up: Y)" passes); an amount in a currency no
true text of the episode uses ("31.15 euros" for a $31.15 tag) is a wrong value; a count or date
one off where the round's own reply states it is a wrong answer; a table whose rows give the
answer and a rival each with a bare label ("| A | X |", "| B | Y |") or a likelihood lists two
answers."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import mmtsb_env
from mmtsb_env.evaluation.claims import as_read, claim_status

_spec = importlib.util.spec_from_file_location("judge_probes", Path(__file__).parents[2] / "benchmarks" / "judge_probes.py")
probes = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("judge_probes", probes)
_spec.loader.exec_module(probes)

SCENARIOS = [s for s in mmtsb_env.load_suite("nominal") if not s.ui]
PER_FORM = 8  # cases per form (each plays a whole episode)


def _cases(name):
    cases = []
    for s in SCENARIOS:
        cases += probes.PROBES[name](s)
        if len(cases) >= PER_FORM:
            break
    return cases


@pytest.mark.parametrize("name", ["choice_slash", "choice_spaced_slash", "choice_french_hedge", "choice_german_hedge",
                                  "choice_spanish_hedge", "choice_struck_answer", "choice_runner_up",
                                  "choice_struck_rival", "amount_slash_wrong", "amount_typo_to_wrong",
                                  "amount_typo_to_right", "amount_struck_wrong", "amount_in_euros", "amount_in_dollars",
                                  "choice_two_row_table", "choice_confidence_table"])
def test_each_form_gets_the_papers_verdict(name):
    cases = _cases(name)
    assert len(cases) >= 6
    wrong = {c.scenario.id: said for c in cases for ok, said in [probes.play(c)] if not ok}
    assert wrong == {}


def test_the_forms_as_the_claims_read_them():
    rivals = ["Pine Street Books"]
    assert claim_status("Lumen Hardware", ["Lumen Hardware/Pine Street Books was more expensive."], rivals=rivals) == "hedged"
    assert claim_status("Lumen Hardware", ["Lumen Hardware ou peut-être Pine Street Books."], rivals=rivals) == "hedged"
    assert claim_status("Lumen Hardware", ["Lumen Hardware oder Pine Street Books."], rivals=rivals) == "hedged"
    assert claim_status("Lumen Hardware", ["Lumen Hardware (runner-up: Pine Street Books) cost more."], rivals=rivals) == "stated"
    assert claim_status("22.13", ["The total is $22.13/23.68."]) == "hedged"
    assert claim_status("Lumen Hardware", ["Lumen Hardware cost more; thank you, see you soon."], rivals=rivals) == "stated"
    assert as_read("~~Lumen Hardware~~ Pine Street Books").split() == ["Pine", "Street", "Books"]
    assert as_read("<del>$22.13</del> $23.68 (sorry, typo: $22.31).").split() == ["$22.31."]


def test_a_count_one_off_in_the_rounds_own_reply_fails():
    """A round's own reply saying its reference sentence with another count ("Task 245 has 2
    comments." for 1) is a wrong answer, though a later reply says "one" of something else."""
    cases = [c for s in SCENARIOS for c in probes.count_off_by_one(s)]
    assert len(cases) >= 20
    wrong = {c.scenario.id: said for c in cases for ok, said in [probes.play(c)] if not ok}
    assert wrong == {}


def test_a_date_one_day_off_in_long_form_fails():
    cases = _cases("date_off_by_one")
    assert len(cases) >= 6
    assert {c.scenario.id: said for c in cases for ok, said in [probes.play(c)] if not ok} == {}
