"""Every value a round asks the assistant to write is checked: a written free text is compared by
its list of facts (the ``facts`` measure), and every image value the reference writes into such a
text is on that list -- the start time and hours of a shift, the value read off a chart, not only
the name. (Values stated in replies are checked by the judge's grounding whether listed or not.)"""

from __future__ import annotations

import json
import re

import pytest

import mmtsb_env
from mmtsb_env.evaluation.similarity import canonical_text
from mmtsb_env.tools.catalog import get_tool

def _whole(value: str, text: str) -> bool:
    v = canonical_text(value)
    return bool(v) and re.search(r"(?<![0-9a-z.])" + re.escape(v) + r"(?![0-9a-z]|\.\d)", canonical_text(text)) is not None


def image_values(scenario) -> list[str]:
    """The image values the generator's lists were blind to: counts of one or two characters read
    off an image ("6"), the times and hours of a table's items ("14:00", "5 hours")."""
    meta = scenario.metadata
    out = [str(v) for key in ("image_values", "derived_values") for v in meta.get(key, [])
           if len(canonical_text(str(v))) <= 2]
    for im in scenario.images:
        items = im.facts.get("items")
        for it in items if isinstance(items, list) else []:
            if isinstance(it, dict) and it.get("time"):
                out.append(str(it["time"]))
                if im.facts.get("theme") == "shift_roster" and isinstance(it.get("amount"), float):
                    out.append(str(int(it['amount'])))
    return list(dict.fromkeys(v for v in out if v.strip()))


def unchecked(scenario) -> list[str]:
    """Image values a reference write puts into a text whose facts list leaves them out."""
    lists = [v for c in scenario.expected_changes for col, m in c.measures.items() if m == "facts"
             for v in [(c.row or c.fields or {}).get(col)] if isinstance(v, list) and v]
    values = image_values(scenario)
    # a text an expected change holds as written is compared as a whole (ROUGE-L with its numbers, exact)
    whole = {v for c in scenario.expected_changes for v in (c.row or c.fields or {}).values() if isinstance(v, str)}
    out = []
    for rnd in scenario.rounds:
        for step in rnd.solution:
            if "name" not in step or not get_tool(step["name"]).writes:
                continue
            for text in (v for v in step.get("arguments", {}).values() if isinstance(v, str) and v not in whole):
                mine = [facts for facts in lists if all(_whole(f, text) or canonical_text(f) in canonical_text(text) for f in facts)]
                if not mine:
                    continue
                # the list the text states most of as whole values ("5" inside "15:00" is no match)
                facts = max(mine, key=lambda facts: (sum(_whole(f, text) for f in facts), len(facts)))
                out += [f"{v!r} in {text[:60]!r}" for v in values
                        if _whole(v, text) and not any(_whole(v, f) for f in facts)]
    return list(dict.fromkeys(out))


def test_the_check_finds_a_value_left_off_the_list():
    base = mmtsb_env.load_suite("demo")[0]
    import dataclasses
    from mmtsb_env.scenario.model import ExpectedChange, ImageSpec, Round

    probe = dataclasses.replace(
        base, metadata={"image_values": ["6"], "image_keys": ["Floor 2"]},
        images=(ImageSpec(facts={"items": [{"name": "Floor 2", "amount": 6.0}]}),),
        rounds=(Round(query="q", solution=({"name": "gmail_send_email",
                                            "arguments": {"email_addresses": ["a@b.c"], "subject": "s", "body": "Floor 2 (6)"}},)),),
        expected_changes=(ExpectedChange("create", "gmail.emails", row={"body": ["Floor 2"]}, measures={"body": "facts"}),))
    assert unchecked(probe) == ["'6' in 'Floor 2 (6)'"]
    fixed = dataclasses.replace(probe, expected_changes=(
        ExpectedChange("create", "gmail.emails", row={"body": ["Floor 2", "6"]}, measures={"body": "facts"}),))
    assert unchecked(fixed) == []


@pytest.mark.parametrize("suite", ["demo", "nominal", "ui"])
def test_no_requested_value_is_unchecked_in_the_shipped_suites(suite):
    bad = {s.id: unchecked(s) for s in mmtsb_env.load_suite(suite)}
    bad = {k: v for k, v in bad.items() if v}
    assert not bad, json.dumps(dict(list(bad.items())[:5]), indent=1)


@pytest.mark.parametrize("category, flow", [("table_document", "lookup_chain"), ("table_document", "filter"),
                                            ("chart", "compare"), ("chart", "aggregate")])
def test_the_generator_lists_every_requested_value(category, flow):
    """Freshly generated scenarios (rosters texted with their times and hours, class and shift
    tables filtered with their times, chart values of one or two digits) leave no value unchecked."""
    from mmtsb_env.generation.compose import compose
    from mmtsb_env.generation.errors import GenerationError

    made = []
    for seed in range(6):
        try:
            made.append(compose(seed, flow, category=category))
        except GenerationError:
            continue
    assert made and any(image_values(s) for s in made)
    assert {s.id: unchecked(s) for s in made if unchecked(s)} == {}
