"""Web search needs: a task needing an outside fact is solved only by looking it up on the staged pages.

Scenarios are generated here and picked by property (a reference path that searches the web), never
by id. The fact is in no image, query or base row, only on a staged ``web_search.pages`` row beside
look-alike pages; the oracle passes; an agent writing a made-up value or a look-alike page's value
fails; the judge grounds the value on the search results.
"""

from __future__ import annotations

import json
from functools import lru_cache

from mmtsb_env.evaluation.grounding import Grounds, ungrounded
from mmtsb_env.generation import generate
from mmtsb_env.generation.measures import WEB_TOOL, recorded_lookalikes, suite_measures
from mmtsb_env.generation.verify import verify
from mmtsb_env.generation.web import PAGES
from mmtsb_env.scenario.model import Scenario

from .test_challenge_agents import changed, play


def searches(s: Scenario) -> list[dict]:
    return [st for r in s.rounds for st in r.solution if st.get("name") == WEB_TOOL]


@lru_cache(maxsize=1)
def web_scenarios() -> tuple[Scenario, ...]:
    """Generated scenarios whose reference path searches the web, one per image category."""
    found: dict[str, Scenario] = {}
    for s in generate(16, seed=11, flow=["aggregate", "compare", "filter"], verify="tool"):
        cat = s.metadata["image_categories"][0]
        if searches(s) and cat not in found:
            found[cat] = s
    assert len(found) >= 3, sorted(found)
    return tuple(found.values())


def test_the_fact_is_only_on_a_staged_page():
    for s in web_scenarios():
        values = s.metadata["web_values"]
        assert values, s.id
        pages = s.initial_entities[PAGES]
        visible = json.dumps([s.description] + [[r.query, r.instructions, [c.answer for c in r.clarifications]] for r in s.rounds])
        images = json.dumps(s.to_dict()["images"])
        for v in values:
            assert any(v in p["snippet"] for p in pages), (s.id, v)
            assert v not in visible and v not in images, (s.id, v)
        # beside each answering page, look-alikes the metadata records and the measure accepts
        assert any(e["table"] == PAGES for e in recorded_lookalikes(s)), s.id


def test_the_fact_flows_into_the_expected_changes_or_the_report():
    for s in web_scenarios():
        carried = json.dumps([c.row or c.fields for c in s.expected_changes]) + json.dumps([list(r.report) for r in s.rounds])
        for v in s.metadata["web_values"]:
            assert v in carried, (s.id, v)


def test_the_generator_verifies_them_and_the_oracle_passes():
    for s in web_scenarios():
        report = verify(s, code=False)
        assert report.ok, (s.id, report.problems)
        assert play(s, s) == (1.0, True), s.id


MADE_UP = {"PM": "11:47 PM", "$": "$91.37", "kg": "3.71 kg"}


def _made_up(value: str) -> str:
    return next(fake for mark, fake in MADE_UP.items() if mark in value)


def _replace(s: Scenario, old: str, new: str) -> Scenario:
    """``s`` whose solutions and answers say ``new`` where they said ``old`` (an agent's moves)."""
    def edit(data):
        data["rounds"] = json.loads(json.dumps(data["rounds"]).replace(old, new))
    return changed(s, edit)


def test_a_made_up_or_look_alike_fact_fails():
    for s in web_scenarios():
        value = s.metadata["web_values"][0]
        f1, passed = play(s, _replace(s, value, _made_up(value)))
        assert not passed, s.id
        answers = {e["of"] for e in s.metadata["lookalikes"] if e["table"] == PAGES}
        answering = next(p for p in s.initial_entities[PAGES] if value in p["snippet"] and p["id"] in answers)
        rival = next(e["key"] for e in s.metadata["lookalikes"] if e["table"] == PAGES and e["of"] == answering["id"])
        rival_page = next(p for p in s.initial_entities[PAGES] if p["id"] == rival)
        rival_value = next(v for v in [*_values_in(rival_page["snippet"])] if v != value and v not in answering["snippet"])
        f1, passed = play(s, _replace(s, value, rival_value))
        assert not passed, (s.id, rival_value)


def _values_in(text: str) -> list[str]:
    import re

    return re.findall(r"\d{1,2}:\d{2} [AP]M|\$\d+\.\d{2}|\d+\.\d{2} kg", text)


def test_the_judge_grounds_the_fact_on_the_search_results():
    results = [{"title": "Willow Field Coffee House - hours and location", "link": "https://w.example/hours",
                "snippet": "Willow Field Coffee House: open today (Sunday) 8:00 AM - 9:30 PM.", "position": 1}]
    grounds = Grounds.from_texts(json.dumps(r) for r in results)
    assert ungrounded("Willow Field Coffee House closes at 9:30 PM today.", grounds) == []
    assert ungrounded("Willow Field Coffee House closes at 21:30.", grounds) == []
    assert ungrounded("Willow Field Coffee House closes at 10:15 PM today.", grounds) == ["22:15"]


def test_a_batch_searches_the_web_like_the_papers_scenarios():
    """On a generated batch covering every design cell, about a third of the reference paths
    search the web (the reference sample: 35 %); the nominal suite's figure is in docs/generation.md."""
    batch = generate(112, seed=7, verify="static")
    share = suite_measures(batch)["web_search_share"]
    assert 0.25 <= share <= 0.5, share
