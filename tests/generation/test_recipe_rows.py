"""Database recipes written as rows: a new one is a few lines of data the shared interpreters play."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from mmtsb_env.generation import db_recipes as R
from mmtsb_env.generation._recipe_helpers import already_right, calendars, draw_dated, hours_after
from mmtsb_env.generation.compose import compose
from mmtsb_env.generation.errors import GenerationError
from mmtsb_env.generation.db_base import ABOUT, About
from mmtsb_env.generation.db_missing import AddMissing
from mmtsb_env.generation.db_validate import Check, CheckRow, check_recipe
from mmtsb_env.generation.dryrun import SolutionError
from mmtsb_env.generation.sinks import iso, op
from mmtsb_env.generation.verify import verify
from mmtsb_env.generation.world_index import world_index
from mmtsb_env.baselines.zoo import ZOO, ZooAgent
from mmtsb_env.evaluation.taxonomy import classify
from mmtsb_env.runner import run_episode

TBA = "To be announced"


def _seed_venues(b, n):
    """One calendar event per poster; the stale ones have no address yet."""
    ids, _ = draw_dated(b, "event_poster", n)
    t = {}
    for k, i in enumerate(ids):
        im, stale = b.imgs[i], not already_right(b, k)
        start = iso(im.date, im.time)
        row = b.add_row("calendar.events", {"calendar_event_id": f"calendar_event_{b.new_id('calendar.events#')}",
                                            "calendar_id": calendars(b.wi)[0]["calendar_id"], "title": im.label,
                                            "start_datetime": start, "end_datetime": hours_after(start, 2),
                                            "formatted_address": TBA if stale else im.extra["venue"],
                                            "attendee_names": [], "attendee_emails": []}, key="calendar_event_id")
        t[i] = {"key": row["calendar_event_id"], "stale": stale, "label": im.label, "venue": im.extra["venue"]}
    return {}, t


VENUES = CheckRow(
    "VenueValidate", "calendar.events", _seed_venues,
    look=op("search_calendar_events", title="{label}"),
    fix=op("modify_calendar_event", calendar_event_id="{key}", formatted_address="{venue}"),
    remove=op("remove_calendar_event", calendar_event_id="{key}"),
    right={"formatted_address": "{venue}"},
    settled="'{label}' already had its address.", fixed=("Set the address of '{label}' to {venue}.", "{label}: {venue}"),
    removed=("Removed '{label}'.", "{label}: removed"), facts=("{venue}",), only=("{venue}",), keys=("{label}",),
    goal=("Change of plan: remove the events that had no address instead, and any others like them.", "Removed them."),
)


@pytest.fixture
def venue_recipe(monkeypatch):
    """The row above as the only validate recipe (an ``ABOUT`` row says what it is about)."""
    monkeypatch.setitem(ABOUT, "VenueValidate", About(
        "VenueValidate", "validate", "event_poster", ("calendar",), without=("error_correction",), mutable=True,
        ask="These posters are for events in my calendar. Check {ref} and give every event that has no address the poster's venue."))
    cls = check_recipe(VENUES, __name__)
    monkeypatch.setitem(R.RECIPES, "validate", (cls,))
    return cls


def _scenario(challenge):
    for seed in range(40):
        try:
            s = compose(seed, "validate", challenge, "progressive", category="event_poster", prefer=frozenset({"calendar"}))
        except (GenerationError, SolutionError):
            continue
        if any(c.table == "calendar.events" and c.operation == "update" for c in s.expected_changes) or challenge == "goal_change":
            return s
    pytest.fail(f"no {challenge} scenario of the new recipe in 40 seeds")


@pytest.mark.parametrize("challenge", ["none", "state_mutation", "goal_change"])
def test_a_new_validate_recipe_is_a_few_lines_of_data(venue_recipe, challenge):
    assert venue_recipe.supports == ("none", "goal_change", "state_mutation") and not venue_recipe.offers("mistake")
    s = _scenario(challenge)
    assert s.metadata["recipe"].startswith("VenueValidate")
    report = verify(s)  # oracle in tool and (when the sandbox runs) code mode, image necessity, derivability
    assert report.ok, report.problems
    assert report.tool_f1 == 1.0
    fixed = {c.key: c for c in s.expected_changes if c.table == "calendar.events" and c.operation == "update"}
    seeded = {e["calendar_event_id"]: e for e in recipe_rows(s, "calendar.events")}
    for key, change in fixed.items():  # only stale events are fixed, and to a venue a poster shows
        assert seeded[key]["formatted_address"] == TBA
        venue = change.fields["formatted_address"]
        assert venue != TBA and any(venue in json.dumps(im.render) for im in s.images)
    if challenge == "goal_change":
        assert any(c.operation == "delete" for c in s.expected_changes if c.table == "calendar.events")
    if challenge == "state_mutation":
        mutated = {c.key for r in s.rounds for c in r.state_changes}
        assert mutated and not mutated & set(fixed)  # the event the user fixed is not touched again


def test_the_shipped_rows_are_played_by_the_interpreters():
    every = [c for group in R.RECIPES.values() for c in group]
    assert {c.__name__ for c in every if issubclass(c, Check)} == {"ContactsValidate", "CalendarValidate", "SplitwiseValidate",
                                                                  "ReminderValidate", "NotePriceValidate"}
    assert {c.__name__ for c in every if issubclass(c, AddMissing)} == {
        "CalendarPosterXref", "ContactsCardXref", "AmazonLookup", "AmazonLookalike", "InvoicePayLookup", "ChartProjectLookup", "RosterTextLookup",
        "TodoistReceiptXref", "ErrandsXref", "WishlistXref", "SpotifyLookup", "CardLookup"}
    assert R.ErrandsXref.offers("mistake") and R.TodoistReceiptXref.offers("slip")
    assert R.ContactsValidate.offers("mistake") and R.ContactsValidate.offers("slip")
    assert R.CalendarValidate.offers("slip") and not R.SplitwiseValidate.offers("mistake")
    assert R.ReminderValidate.offers("mistake") and not R.ReminderValidate.offers("slip")
    assert R.AmazonLookup.offers("mistake") and not R.AmazonLookup.offers("slip")
    assert R.SpotifyLookup.offers("mistake") and R.SpotifyLookup.offers("slip")
    assert R.CardLookup.offers("mistake") and not R.CardLookup.offers("slip")  # its sink's own correction
    assert not R.WishlistXref.offers("mistake") and not R.InvoicePayLookup.offers("mistake") and R.InvoicePayLookup.offers("slip")
    assert R.ChartProjectLookup.offers("mistake") and not R.ChartProjectLookup.offers("slip")


def _played(monkeypatch, recipe, challenge, want=lambda s: True):
    """The first scenario of ``recipe`` alone taking ``challenge`` for which ``want`` holds, fully verified."""
    cls = getattr(R, recipe)
    monkeypatch.setitem(R.RECIPES, cls.flow_name, (cls,))
    for seed in range(60):
        try:
            s = compose(seed, cls.flow_name, challenge, "progressive")
        except (GenerationError, SolutionError):
            continue
        if want(s):
            report = verify(s)
            assert report.ok, report.problems
            return s
    pytest.fail(f"no such {challenge} scenario of {recipe} in 60 seeds")


def _calls(s, tool):
    return [st for r in s.rounds for st in r.solution if st["name"] == tool]


def test_an_item_the_user_did_leaves_the_other_items_of_its_image_to_do(monkeypatch):
    s = _played(monkeypatch, "ErrandsXref", "state_mutation")
    own = [c.row["title"] for r in s.rounds for c in r.state_changes if c.op == "insert"]
    created = [st["arguments"]["title"] for st in _calls(s, "todoist_create_task")]
    stored = {e["title"] for e in recipe_rows(s, "todoist.tasks")}
    assert len(own) == 1 and own[0] not in created and not stored & set(created)
    assert len(stored) == len(s.images) and len(created) == 2 * len(s.images) - 1  # three errands a list: the other missing one is added


@pytest.mark.parametrize("recipe, switched", [("ErrandsXref", "todoist_update_task"), ("TodoistReceiptXref", "todoist_delete_task")])
def test_a_goal_change_switches_every_addition_made(monkeypatch, recipe, switched):
    s = _played(monkeypatch, recipe, "goal_change")
    at = next(k for k, r in enumerate(s.rounds) if r.kind == "goal_change")
    before = sum(st["name"] in ("todoist_create_task", "todoist_post_task_comment") for r in s.rounds[:at] for st in r.solution)
    assert before and sum(st["name"] == switched for st in s.rounds[at].solution) == before


def test_a_corrected_playlist_moves_every_song_added(monkeypatch):
    def corrected(s):
        return any(r.kind == "correction" and "wrong playlist" in r.query for r in s.rounds)
    s = _played(monkeypatch, "SpotifyLookup", "error_correction", corrected)
    at = next(k for k, r in enumerate(s.rounds) if r.kind == "correction")
    added = [st["arguments"] for r in s.rounds[:at] for st in r.solution if st["name"] == "spotify_add_song_to_playlist"]
    fix = s.rounds[at].solution
    out = [st["arguments"] for st in fix if st["name"] == "spotify_remove_song_from_playlist"]
    into = [st["arguments"] for st in fix if st["name"] == "spotify_add_song_to_playlist"]
    assert fix[0]["name"] == "spotify_show_playlist_library" and added and out == added
    assert [a["song_id"] for a in into] == [a["song_id"] for a in added]
    assert {a["playlist_id"] for a in into}.isdisjoint({a["playlist_id"] for a in added})


def recipe_rows(s, table):
    """The rows the recipe staged in ``table`` (not the staging layer's look-alikes, ``metadata.lookalikes``)."""
    from mmtsb_env.world.schema import table_spec

    key = table_spec(table).key
    fake = {e["key"] for e in s.metadata.get("lookalikes", []) if e["table"] == table}
    return [r for r in s.initial_entities.get(table, []) if r[key] not in fake]


def _due(s):
    """Each invoice's due date by the label its reminder is searched with."""
    return {im.facts["label"]: im.facts["date"] for im in s.images}


def _retimed(s, rounds):
    return {st["arguments"]["reminder_id"] if isinstance(st["arguments"]["reminder_id"], str) else st["arguments"]["reminder_id"]["$ref"]:
            st["arguments"]["reminder_datetime"] for r in rounds for st in r.solution if st["name"] == "modify_reminder"}


def test_a_corrected_hour_retimes_every_reminder_checked_and_every_later_one(monkeypatch):
    def corrected_early(s):
        at = next((k for k, r in enumerate(s.rounds) if r.kind == "correction" and "I meant" in r.query), None)
        return at is not None and any(st.get("name") == "search_reminder" for r in s.rounds[at + 1:] for st in r.solution)
    s = _played(monkeypatch, "ReminderValidate", "error_correction", corrected_early)
    at = next(k for k, r in enumerate(s.rounds) if r.kind == "correction")
    assert "9 AM" in s.rounds[at].query and "10 AM" in s.rounds[at].query
    seeded = {e["reminder_id"]: e["reminder_datetime"] for e in recipe_rows(s, "reminder.reminders")}
    final = {c.key: c.fields["reminder_datetime"] for c in s.expected_changes if c.table == "reminder.reminders"}
    assert set(final) == set(seeded)  # every reminder ends at 10 AM, the ones that were right at 9 AM too
    assert all(when.endswith("T10:00:00+00:00") for when in final.values())
    assert all(seeded[k].endswith("T09:00:00+00:00") for k in seeded)
    due = sorted(_due(s).values())
    assert sorted(when[:10] for when in final.values()) == sorted(due)


def test_a_deleted_reminder_is_added_again_and_the_goal_change_retimes_it(monkeypatch):
    s = _played(monkeypatch, "ReminderValidate", "state_mutation", lambda s: any(c.op == "delete" for r in s.rounds for c in r.state_changes))
    gone = [c.key for r in s.rounds for c in r.state_changes]
    added = [st for r in s.rounds for st in r.solution if st["name"] == "add_reminder"]
    assert len(gone) == 1 and len(added) == 1 and added[0]["save_as"].startswith("r")
    label = added[0]["arguments"]["content"].removeprefix("Pay ").removesuffix(" invoice")
    assert added[0]["arguments"]["reminder_datetime"] == iso(_due(s)[label], "09:00")
    g = _played(monkeypatch, "ReminderValidate", "goal_change", lambda s: any(r.kind == "goal_change" for r in s.rounds))
    at = next(k for k, r in enumerate(g.rounds) if r.kind == "goal_change")
    checked = {e["reminder_id"] for e in recipe_rows(g, "reminder.reminders")}
    moved = _retimed(g, g.rounds[at:at + 1])
    assert moved and set(moved) <= checked
    by_id = {e["reminder_id"]: e for e in recipe_rows(g, "reminder.reminders")}
    due = _due(g)
    for rid, when in moved.items():  # the day before the due date, right or not before
        label = by_id[rid]["content"].removeprefix("Pay ").removesuffix(" invoice")
        assert when == iso((date.fromisoformat(due[label]) - timedelta(days=1)).isoformat(), "09:00")


def test_card_lookup_names_each_receipts_card_and_a_goal_change_moves_every_line(monkeypatch):
    s = _played(monkeypatch, "CardLookup", "goal_change", lambda s: any(r.kind == "goal_change" for r in s.rounds[1:]))
    owner = world_index()
    cards = {str(c["card_number"])[-4:]: c["card_name"] for c in owner.rows("supervisor.payment_cards", user_id=owner.owner_id)}
    lines = [f"{im.facts['label']}: ${im.facts['amount']:.2f} on {cards[im.render['content']['payment'][-4:]]}" for im in s.images]
    at = next(k for k, r in enumerate(s.rounds) if r.kind == "goal_change")
    written = json.dumps([st["arguments"] for r in s.rounds[:at] for st in r.solution if "name" in st])
    checked = [line for line in lines if line.split(":")[0] in written]
    assert checked and all(line in written for line in checked)  # every receipt so far, with the card its digits name
    undo, *_, create = s.rounds[at].solution
    assert undo["name"].endswith(("delete_note", "delete_file", "delete_draft", "delete_task"))
    assert create["name"] in ("simple_note_create_note", "file_system_create_file")
    assert all(line in json.dumps(create["arguments"]) for line in checked)
    assert s.metadata["recipe"].split("/")[1] in ("NoteSink", "FileSink")


def _prices(text):
    return dict(line.split(": ") for line in text.splitlines())


def test_a_price_sheet_is_rewritten_whole_and_a_goal_change_restores_it_and_copies_the_corrected_list(monkeypatch):
    s = _played(monkeypatch, "NotePriceValidate", "goal_change", lambda s: any(r.kind == "goal_change" for r in s.rounds[1:]))
    tags = {im.facts["label"]: f"${im.facts['amount']:.2f}" for im in s.images}
    note, old = recipe_rows(s, "simple_note.notes")
    stored = _prices(note["content"])
    assert set(stored) == set(tags) and stored != tags and old["title"] == note["title"] + " (old)"
    at = next(k for k, r in enumerate(s.rounds) if r.kind == "goal_change")
    restore, copy = s.rounds[at].solution
    assert restore["name"] == "simple_note_update_note" and restore["arguments"]["note_id"] == note["id"]
    assert _prices(restore["arguments"]["content"]) == stored  # back as it was
    fixed = _prices(copy["arguments"]["content"])
    assert copy["name"] == "simple_note_create_note" and copy["save_as"] == "corrected"
    checked = {k for k, v in fixed.items() if v != stored[k]}
    assert checked and all(fixed[k] == tags[k] for k in checked)  # the corrected lines carry the tags' prices
    later = [st for r in s.rounds[at + 1:] for st in r.solution if st["name"] == "simple_note_update_note"]
    assert all(st["arguments"]["note_id"] == {"$ref": "corrected.note_id"} for st in later)
    notes = [c for c in s.expected_changes if c.table == "simple_note.notes"]
    assert [c.operation for c in notes] == ["create"]  # the old note ends as it began; the copy is the one new note
    content = " ".join(notes[0].row["content"])  # compared as the words and numbers it must hold
    assert all(k in content and tags[k].lstrip("$") in content for k in checked)


def test_the_user_setting_one_price_right_leaves_that_line_and_the_round_fixes_the_others(monkeypatch):
    s = _played(monkeypatch, "NotePriceValidate", "state_mutation", lambda s: any(r.state_changes for r in s.rounds))
    tags = {im.facts["label"]: f"${im.facts['amount']:.2f}" for im in s.images}
    note = s.initial_entities["simple_note.notes"][0]
    stored = _prices(note["content"])
    own = next(c for r in s.rounds for c in r.state_changes)
    after = _prices(own.fields["content"])
    (mine,) = [k for k in after if after[k] != stored[k]]  # the user set one line right, to its tag's price
    assert after[mine] == tags[mine]
    words = next(c for c in s.expected_changes if c.key == note["id"]).fields["content"]  # the names and prices it must hold
    end = {name: "$" + price for name, price in zip(words[::2], words[1::2])}
    assert end == {k: tags[k] for k in stored if stored[k] != tags[k] and k != mine}  # the assistant fixes the other stale lines
    assert f"{mine} is now" not in " ".join(r.answer for r in s.rounds)


def test_a_row_without_an_about_row_is_refused():
    with pytest.raises(TypeError, match="VenueValidate has no row in db_base.ABOUT"):
        check_recipe(VENUES, __name__)


class _OldHourRule(ZooAgent):
    """Plays the oracle but, after the user's hour correction, leaves a later round's reminder that was
    right at the old hour as it was (the rule before ReminderValidate became a row): it must fail."""

    def steps(self, scenario, index):
        at = next(k for k, r in enumerate(scenario.rounds) if r.kind == "correction")
        right_before = {e["reminder_id"] for e in recipe_rows(scenario, "reminder.reminders")
                        if e["reminder_datetime"] == iso(_due(scenario)[e["content"][4:-8]], "09:00")}
        steps = list(scenario.rounds[index].solution)
        if index <= at:
            return steps
        return [st for st in steps if not (st.get("name") == "modify_reminder" and st["arguments"]["reminder_id"] in right_before)]



_ZOO_CASES = {  # a converted recipe, its challenge and what the scenario must hold
    "ReminderValidate": ("error_correction", lambda s: any(r.kind == "correction" and "I meant" in r.query for r in s.rounds[:-1])),
    "NotePriceValidate": ("goal_change", lambda s: any(r.kind == "goal_change" for r in s.rounds[1:])),
    "CardLookup": ("goal_change", lambda s: any(r.kind == "goal_change" for r in s.rounds[1:])),
}


@pytest.mark.parametrize("recipe", sorted(_ZOO_CASES))
def test_the_behaviour_zoo_gets_its_verdicts_on_the_rows_made_this_way(monkeypatch, recipe):
    """Correct-but-different agents pass and wrong ones fail, with the taxonomy's class, on a scenario of each row."""
    challenge, want = _ZOO_CASES[recipe]
    s = _played(monkeypatch, recipe, challenge, want)
    played = [(cls, run_episode(s, cls([s]), env_kwargs={"mode": "tool"})) for cls in ZOO if cls.applies(s)]
    assert len(played) >= 8 and sum(cls.should_pass for cls, _ in played) >= 4 and sum(not cls.should_pass for cls, _ in played) >= 4
    wrong = [(cls.name, rec.passed, classify(rec.verdict)[0]) for cls, rec in played
             if rec.passed != cls.should_pass or (not cls.should_pass and classify(rec.verdict)[0] != cls.expected_category(s))]
    assert wrong == [], (recipe, s.id)


def test_an_agent_keeping_the_old_hour_on_later_reminders_fails(monkeypatch):
    s = _played(monkeypatch, "ReminderValidate", "error_correction", _ZOO_CASES["ReminderValidate"][1])
    old = _OldHourRule([s])
    skipped = sum(len(r.solution) - len(old.steps(s, k)) for k, r in enumerate(s.rounds))
    assert skipped >= 1  # the scenario has a later reminder that was right at 9 AM
    oracle = run_episode(s, ZooAgent([s]), env_kwargs={"mode": "tool"})
    rec = run_episode(s, old, env_kwargs={"mode": "tool"})
    assert oracle.passed and oracle.entity_f1 == 1.0
    assert not rec.passed and rec.entity_f1 < 1.0
