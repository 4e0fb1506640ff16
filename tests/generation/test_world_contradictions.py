"""Error correction against the world: the user states a detail the phone's own data contradicts.

Each variant (a project or playlist name that does not exist, a contact's number, a card's last
digits, a person or event said to be stored that is not, an event said to be missing that is
stored, a card's phone number said to be the one stored; contacts cannot be stored twice, so they have no "missing" claim; a date for a poster's event
that the poster contradicts and the calendar does not hold, for an event to add or to correct) is generated, checked for what the
round means (kind, the user's wrong detail in the query, the stored value in the reply and the
report), and played by agents that are not the oracle: one that believes the user (uses the wrong
detail) must fail, one that asks first and then uses the stored value must pass.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from functools import lru_cache

import pytest

import mmtsb_env
from mmtsb_env.generation.compose import compose
from mmtsb_env.generation.errors import GenerationError
from mmtsb_env.generation.verify import verify
from mmtsb_env.scenario.model import Scenario
from mmtsb_env.tools.catalog import get_tool

from .test_challenge_agents import changed, play

# (recipe, variant) -> (flow, domain to prefer); the generator picks the recipe from these
WHERE = {
    ("SpotifyLookup", "name"): ("lookup_chain", "spotify"),
    ("ErrandsXref", "name"): ("cross_reference", "todoist"),
    ("TodoistReceiptXref", "name"): ("cross_reference", "todoist"),
    ("RosterTextLookup", "number"): ("lookup_chain", "messages"),
    ("InvoicePayLookup", "card"): ("lookup_chain", "venmo"),
    ("ContactsCardXref", "present"): ("cross_reference", "contacts"),
    ("CalendarPosterXref", "present"): ("cross_reference", "calendar"),
    ("CalendarPosterXref", "absent"): ("cross_reference", "calendar"),
    ("CalendarPosterXref", "date"): ("cross_reference", "calendar"),
    ("CalendarValidate", "date"): ("validate", "calendar"),
    ("ContactsValidate", "unchanged"): ("validate", "contacts"),
}


@lru_cache(maxsize=None)
def example(recipe: str, variant: str) -> Scenario:
    """The first generated scenario (by seed) where ``recipe`` realises the world contradiction ``variant``."""
    flow, domain = WHERE[(recipe, variant)]
    for seed in range(600):
        try:
            s = compose(seed, flow, "error_correction", None, prefer=frozenset({domain}))
        except GenerationError:
            continue
        if s.metadata["recipe"].split("/")[0] == f"{recipe}+world_slip:{variant}":
            return s
    raise AssertionError(f"no seed below 600 gives {recipe} / {variant}")


def _round(s: Scenario) -> int:
    return next(i for i, r in enumerate(s.rounds) if r.kind == "correction")


# ---------------------------------------------------------------------------- believers: the user's detail wins
def _believe_name(s: Scenario, data: dict, i: int) -> None:
    """Looks for the name the user gave, finds nothing, makes a container with that name and works in it."""
    r = s.rounds[i]
    wrong = next(q for q in r.query.split("'")[1::2] if q != r.report[0])
    spotify = any(st.get("name", "").startswith("spotify") for st in r.solution)
    create = ({"name": "spotify_create_playlist", "arguments": {"title": wrong}, "save_as": "mine"} if spotify else
              {"name": "todoist_create_project", "arguments": {"name": wrong}, "save_as": "mine"})
    key = "playlist_id" if spotify else "project_id"
    steps = [create]
    for st in data["rounds"][i]["solution"]:
        if "name" in st and get_tool(st["name"]).writes:
            if key not in st["arguments"]:
                continue  # a write on rows of the real container: the believer never found them
            st = {**st, "arguments": {**st["arguments"], key: {"$ref": f"mine.{key}"}}}
        steps.append(st)
    data["rounds"][i]["solution"] = steps


def _believe_number(s: Scenario, data: dict, i: int) -> None:
    """Texts the number the user gave instead of the stored one."""
    r = s.rounds[i]
    wrong = next(w.strip("().,") for w in r.query.split() if w.strip("().,").isdigit() and len(w.strip("().,")) == 10)
    data["rounds"][i]["solution"] = json.loads(json.dumps(data["rounds"][i]["solution"]).replace(r.report[0], wrong))


def _believe_card(s: Scenario, data: dict, i: int) -> None:
    """No card ends in the user's digits, so it pays from another of the owner's cards."""
    world = mmtsb_env.generation.world_index.world_index(s.world_seed)
    steps = data["rounds"][i]["solution"]
    used = next(st["arguments"]["payment_card_id"] for st in steps if st.get("name") == "venmo_create_transaction")
    other = next(c["id"] for c in world.rows("venmo.payment_cards", user_id=s.user_id) if c["id"] != used)
    for st in steps:
        if st.get("name") == "venmo_create_transaction":
            st["arguments"]["payment_card_id"] = other


def _believe_present(s: Scenario, data: dict, i: int) -> None:
    """Skips the item the user says is stored, without checking."""
    name = s.rounds[i].report[0]

    def adds_it(st):
        a = st.get("arguments", {})
        return st.get("name") in ("contacts_add_contact", "create_calendar_event") and (
            a.get("title") == name or f"{a.get('first_name')} {a.get('last_name')}" == name)
    assert any(adds_it(st) for st in data["rounds"][i]["solution"])
    data["rounds"][i]["solution"] = [st for st in data["rounds"][i]["solution"] if not adds_it(st)]


def _believe_absent(s: Scenario, data: dict, i: int) -> None:
    """Adds the item the user says is missing although it is stored: a duplicate."""
    name = s.rounds[i].report[0]
    steps = data["rounds"][i]["solution"]
    for row in s.initial_entities.get("calendar.events", []):
        if row["title"] == name:
            args = {k: row[k] for k in ("calendar_id", "title", "start_datetime", "end_datetime")}
            steps.append({"name": "create_calendar_event", "arguments": args})
    assert steps[-1]["name"] == "create_calendar_event"


def _users_day(s: Scenario, i: int) -> str:
    """The day the user gave ("Monday, May 4") as an ISO date."""
    right = s.rounds[i].report[0]
    m = re.search(r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), ([A-Z][a-z]+) (\d{1,2})", s.rounds[i].query)
    wrong = datetime.strptime(f"{right[:4]} {m.group(1)} {m.group(2)}", "%Y %B %d").date().isoformat()
    assert wrong != right
    return wrong


def _believe_date(s: Scenario, data: dict, i: int) -> None:
    """Adds the event on the day the user gave, not on the poster's day."""
    right, wrong = s.rounds[i].report[0], _users_day(s, i)
    moved = 0
    for st in data["rounds"][i]["solution"]:
        a = st.get("arguments", {})
        if st.get("name") in ("create_calendar_event", "modify_calendar_event") and a.get("start_datetime", "").startswith(right):
            a["start_datetime"] = a["start_datetime"].replace(right, wrong)
            a["end_datetime"] = a["end_datetime"].replace(right, wrong)
            moved += 1
    assert moved == 1


def _believe_unchanged(s: Scenario, data: dict, i: int) -> None:
    """Leaves the phone number of the contact the user vouched for as stored."""
    stored = s.rounds[i].report[0]
    key = next(r["id"] for r in s.initial_entities["phone.contacts"] if r["phone_number"] == stored)
    kept = 0
    for st in data["rounds"][i]["solution"]:
        if st.get("name") == "contacts_update_contact" and st["arguments"]["contact_id"] == key:
            kept += st["arguments"].pop("phone_number", None) is not None
    assert kept == 1


BELIEVE = {"date": _believe_date, "unchanged": _believe_unchanged, "name": _believe_name, "number": _believe_number, "card": _believe_card, "present": _believe_present,
           "absent": _believe_absent}


@pytest.mark.parametrize("recipe,variant", sorted(WHERE))
def test_the_round_means_a_contradiction_with_the_world(recipe, variant):
    s = example(recipe, variant)
    assert verify(s).ok, verify(s).problems
    assert s.metadata["challenge_type"] == "error_correction"
    r = s.rounds[_round(s)]
    right = r.report[0]
    assert r.image_ids and r.solution  # a task round, not a follow-up
    assert right in r.answer  # the reply names the stored value ...
    if variant in ("name", "number", "card", "date"):
        assert right not in r.query  # ... which the user got wrong
        assert any(st.get("arguments", {}).get("query") not in (None, right) for st in r.solution if "name" in st) or variant != "name"
    # the stored value is the phone's: a base-world or scenario row holds it (the images alone do not decide)
    world = mmtsb_env.generation.world_index.world_index(s.world_seed)
    rows = [r for t in s.initial_entities.values() for r in t] + world.rows("venmo.payment_cards", user_id=s.user_id)
    held = {str(v) for r in rows for v in r.values()} | {f"{r.get('first_name')} {r.get('last_name')}" for r in rows}
    held |= {str(r["card_number"])[-4:] for r in rows if "card_number" in r}
    if variant in ("number", "card", "absent", "unchanged"):
        assert right in held or world.mentions(right), right
    if variant == "present":  # the item is not stored; a staged look-alike may share its name, never its date
        added = next(st["arguments"] for st in r.solution if st.get("name") in ("contacts_add_contact", "create_calendar_event")
                     and right in (st["arguments"].get("title"), f"{st['arguments'].get('first_name')} {st['arguments'].get('last_name')}"))
        namesakes = [row for row in rows if right in (row.get("title"), f"{row.get('first_name')} {row.get('last_name')}")]
        staged = {x["key"] for x in s.metadata.get("lookalikes", [])}
        for row in namesakes:
            assert set(map(str, row.values())) & staged, row  # a look-alike the generator staged ...
            assert "start_datetime" in row and row["start_datetime"][:10] != added["start_datetime"][:10], row  # ... on another day
    assert play(s, s) == (1.0, True)


@pytest.mark.parametrize("recipe,variant", sorted(WHERE))
def test_an_agent_that_believes_the_user_fails(recipe, variant):
    s = example(recipe, variant)
    i = _round(s)
    f1, passed = play(s, changed(s, lambda data: BELIEVE[variant](s, data, i)))
    assert f1 < 1.0 and not passed, (s.id, f1, passed)


@pytest.mark.parametrize("recipe,variant", sorted(WHERE))
def test_an_agent_that_asks_and_then_uses_the_stored_value_passes(recipe, variant):
    s = example(recipe, variant)
    i = _round(s)

    def ask_first(data):
        data["rounds"][i]["solution"].insert(0, {"say": "Before I start: which one do you mean, and is that detail right?"})
    assert play(s, changed(s, ask_first)) == (1.0, True)


@pytest.mark.parametrize("recipe", ["CalendarPosterXref", "CalendarValidate"])
def test_a_checker_that_looks_at_the_users_day_in_the_calendar_first_passes(recipe):
    """Correct but not the oracle: it searches the calendar on the day the user gave, finds nothing, goes by the poster."""
    s = example(recipe, "date")
    i = _round(s)
    day = _users_day(s, i)

    def look_first(data):
        data["rounds"][i]["solution"].insert(0, {"name": "search_calendar_events", "arguments": {
            "datetime_range_lowerbound": f"{day}T00:00:00+00:00", "datetime_range_upperbound": f"{day}T23:59:59+00:00"}})
    assert play(s, changed(s, look_first)) == (1.0, True)


def test_the_nominal_suite_has_world_contradictions_in_several_recipes():
    suite = mmtsb_env.load_suite("nominal")
    slips = [s for s in suite if "+world_slip:" in s.metadata["recipe"]]
    recipes = {s.metadata["recipe"].split("+")[0] for s in slips}
    variants = {s.metadata["recipe"].split(":")[-1].split("/")[0] for s in slips}
    assert len(slips) >= 8 and len(recipes) >= 4 and len(variants) >= 3, (len(slips), recipes, variants)
    for s in slips:
        assert all(r.kind != "correction" or r.report for r in s.rounds), s.id


def test_the_extended_suite_has_world_contradictions():
    suite = mmtsb_env.load_suite("extended")
    slips = [s for s in suite if "+world_slip:" in s.metadata["recipe"]]
    variants = {s.metadata["recipe"].split(":")[-1].split("/")[0] for s in slips}
    # most error corrections are now the images contradicting the user (issue #32), so the rarer world slips,
    # the date among them, may miss a suite: `example` above composes each variant, the date ones included
    assert {"name", "number", "card", "present"} <= variants, variants
    dated = [s for s in slips if "+world_slip:date" in s.metadata["recipe"]]
    for s in dated:
        r = next(r for r in s.rounds if r.kind == "correction")
        assert r.report[0] in r.answer and r.report[0] not in r.query, s.id
