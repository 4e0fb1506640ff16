"""The round fields the user follows -- ``guidance`` and ``wrong_claim`` -- parse, round-trip,
default to the old behaviour and reject bad input with one clear line."""

from __future__ import annotations

import pytest

import mmtsb_env
from mmtsb_env.scenario.model import Guidance, Scenario, ScenarioError, WrongClaim

BASE = next(s for s in mmtsb_env.load_suite("demo") if s.id == "demo/compare_receipts").to_dict()


def _with(**round_fields):
    data = {**BASE, "id": "test/format", "rounds": [{**BASE["rounds"][0], **round_fields}]}
    return Scenario.from_dict(data)


def test_the_documented_example_parses_and_round_trips():
    s = _with(query="Log the $48 receipt from these two as an expense note.", kind="correction",
              wrong_claim={"text": "$48", "confirm": "Oh, I must have misremembered - use the more expensive one.",
                           "keywords": ["48"]},
              guidance={"ask": "You want the pricier receipt noted.", "expects": ["done"], "hold_images": [1]})
    rnd = s.rounds[0]
    assert rnd.wrong_claim == WrongClaim("$48", "Oh, I must have misremembered - use the more expensive one.", ("48",))
    assert rnd.guidance.expects == ("done",) and rnd.guidance.hold_images == (1,) and rnd.guidance.permission == "grant"
    assert Scenario.from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_shipped_rounds_get_the_defaults():
    for s in mmtsb_env.load_suite("demo"):
        assert all(r.guidance == Guidance() and r.wrong_claim is None for r in s.rounds)


@pytest.mark.parametrize("fields, message", [
    ({"guidance": {"expects": ["money"]}}, "guidance.expects: unknown kind(s) ['money']"),
    ({"guidance": {"permission": "maybe"}}, "guidance.permission: must be one of ('grant', 'refuse')"),
    ({"guidance": {"hold_images": [5]}}, "guidance.hold_images: id(s) [5] are not among the round's image_ids"),
    ({"guidance": {"tone": "curt"}}, "guidance: unknown field(s) ['tone']"),
    ({"wrong_claim": {"text": "$48", "confirm": "ok"}}, "wrong_claim.text: '$48' must occur in the round's query"),
    ({"wrong_claim": {"text": "receipts"}}, "wrong_claim.confirm: must be a non-empty string"),
])
def test_bad_fields_are_named_with_what_is_valid(fields, message):
    with pytest.raises(ScenarioError) as err:
        _with(**fields)
    assert message in str(err.value)
