"""The reference oracle reaches the reference's expected worlds through our tools.

The check of record: every official file, imported, played by ``--agent reference-oracle`` in a
real episode (tool calls through ``env.step``, the scripted user answering), scored under the
reference's scope. The files below F1 1.0 are listed with the reason the plan gives, so a new
gap fails and a closed one must be crossed off.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mmtsb_env.baselines import ReferenceOracleAgent, make_agent
from mmtsb_env.baselines.reference_oracle import PRODUCED_BY, RECIPES, plan_reference_calls
from mmtsb_env.cli import app
from mmtsb_env.runner import run_suite
from mmtsb_env.scenario.importer import import_reference, import_reference_dir
from mmtsb_env.scenario.suites import load_suite

OFFICIAL = Path("/work/shared/reference/official_scenarios")
for _candidate in (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "official_scenarios", OFFICIAL):
    if _candidate.exists():
        OFFICIAL = _candidate
        break
pytestmark = pytest.mark.skipif(not OFFICIAL.exists(), reason="the reference's official scenarios are not available here")

# Files the tools cannot bring to F1 1.0, with the reason the plan reports (all outside the planner).
KNOWN_SHORT: dict[str, str] = {}


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    import_reference_dir(OFFICIAL, out)
    return load_suite(out)


def test_the_reference_oracle_reaches_f1_1_through_the_tools_on_all_but_the_listed_files(suite):
    records = run_suite(suite, lambda: make_agent("reference-oracle", scenarios=suite),
                        env_kwargs={"stand_in_images": True})
    assert all(r.error is None for r in records)
    short = {r.scenario_id: r.entity_f1 for r in records if r.entity_f1 < 1.0}
    assert set(short) == set(KNOWN_SHORT), short
    assert len(records) - len(short) == 53  # of 53
    agent = ReferenceOracleAgent(suite)
    for sid, reason in KNOWN_SHORT.items():
        assert any(reason in line for line in agent.unmapped[sid]), agent.unmapped[sid]
    assert not any(agent.unmapped[s.id] for s in suite if s.id not in KNOWN_SHORT)
    # every write went through a tool call the episode logged, none was written straight into the world
    from mmtsb_env.tools.registry import REGISTRY

    calls = [c for r in records for c in r.calls if c.get("seat") == "assistant"]
    assert len(calls) > 200 and all(c["ok"] for c in calls if c["name"] != "api_docs_search_api_docs")
    assert {c["name"] for c in calls} <= set(REGISTRY) and any(REGISTRY[c["name"]].writes for c in calls)


def test_created_rows_are_bound_to_the_ids_the_reference_gave_them():
    """0791: the new playlist is 802 in the reference (800 and 801 are staged); its songs name 802
    and must go to the playlist the oracle creates, while the like names staged 800 as it is."""
    s, _ = import_reference(OFFICIAL / "ui" / "scenario_0791.json")
    steps = plan_reference_calls(s).steps
    create = next(st for st in steps if st["name"] == "spotify_create_playlist")
    adds = [st["arguments"]["playlist_id"] for st in steps if st["name"] == "spotify_add_song_to_playlist"]
    like = next(st["arguments"]["playlist_id"] for st in steps if st["name"] == "spotify_like_playlist")
    assert adds == [{"$ref": f"{create['save_as']}.playlist_id"}] * 3
    assert like == 800


def test_a_tool_that_works_on_the_owners_files_brings_the_file_system_app():
    """0723 attaches a chart to a draft: its expected tools name gmail_upload_attachments_to_draft,
    which reads a file of the owner's, so the file_system app is offered though no row of it is staged."""
    s, report = import_reference(OFFICIAL / "ui" / "scenario_0723.json")
    assert "file_system" in s.domains
    assert any("gmail_upload_attachments_to_draft" in line and "file_system" in line for line in report.converted)


def test_the_gmail_thread_records_are_kept_and_reached(suite):
    """0592 (a new thread) and 0723 (a reply in a staged thread) expect the reference's thread records;
    they are imported, scored in their own groups and met by the records our send/reply tools write."""
    picked = [s for s in suite if any(c.table.startswith("gmail.") and "thread" in c.table for c in s.expected_changes)]
    assert sorted(s.id for s in picked) == ["reference/ui/scenario_0592", "reference/ui/scenario_0723"]
    records = run_suite(picked, lambda: make_agent("reference-oracle", scenarios=picked), env_kwargs={"stand_in_images": True})
    for r in records:
        groups = {(g["table"], g["operation"]): g for g in r.entity["groups"]}
        threads = {k: g for k, g in groups.items() if "thread" in k[0]}
        assert threads and all(g["precision"] == g["recall"] == 1.0 for g in threads.values()), (r.scenario_id, threads)
        assert r.entity_f1 == 1.0


# Per official file with two or more UI rounds: round -> the write calls made after its choice.
# Each follows the choice it carries (the picked person as recipient, the picked options in the
# text, the product a price choice selects); a change no choice decides is made in the first UI round.
ROUTES = {
    # rounds 2 and 4 pick parties, then groups: each text names its pick; the note no choice decides
    "reference/ui/scenario_0090": {1: ["messages_send_text_message"] * 3 + ["simple_note_create_note"],
                                   3: ["messages_send_text_message"] * 2},
    # the cheaper toy to the cart; the pricier gift (a text naming the pencil) to the "most expensive" choice
    "reference/ui/scenario_0094": {0: ["amazon_add_product_to_cart"], 1: ["messages_send_text_message"]},
    # one cart add for two comparisons: the later one replaces the first
    "reference/ui/scenario_0305": {1: ["amazon_add_product_to_cart"]},
    # round 3 names the craft kit the wish list gets; the cart adds go to the comparison that named no product
    "reference/ui/scenario_0475": {0: ["amazon_add_product_to_cart"] * 2, 2: ["amazon_add_product_to_wish_list"]},
    # the email to the Alex picked in round 4; the playlist add round 1 asks for is decided by no choice
    # (round 5's "which track did you add?" names it but approves its removal, which the expected world cannot show)
    "reference/ui/scenario_0769": {3: ["gmail_send_email", "todoist_create_task", "spotify_add_song_to_playlist",
                                       "simple_note_update_note"]},
    "reference/ui/scenario_0936": {0: ["simple_note_create_note", "amazon_add_product_to_cart"], 1: ["amazon_add_product_to_cart"]},
}


def test_in_files_with_several_ui_rounds_each_change_follows_the_choice_it_carries(suite):
    """Every official file with two or more UI rounds: the writes land in the round the data says
    (``ROUTES``), played for real; every choice is acted on except 0769's last, an approval of
    removing a track the episode added, a change the expected world cannot show."""
    two = [s for s in suite if sum(1 for r in s.rounds if r.ui) >= 2]
    assert sorted(s.id for s in two) == sorted(ROUTES)
    records = run_suite(two, lambda: make_agent("reference-oracle", scenarios=two), env_kwargs={"stand_in_images": True})
    for r in records:
        writes: dict[int, list[str]] = {}
        for c in r.calls:
            if c["seat"] == "assistant" and c["wrote"] and c["name"] not in ("render_ui_screen", "show_ui_to_user"):
                writes.setdefault(c["round_index"], []).append(c["name"])
        assert writes == ROUTES[r.scenario_id], r.scenario_id
        assert r.entity_f1 == 1.0
        acted = next(c for c in r.verdict["criteria"] if c["criterion"] == "ui_choice_acted_on")
        if r.scenario_id == "reference/ui/scenario_0769":
            assert not acted["pass"] and acted["reason"] == "round 5: no successful change followed the user's choice"
        else:
            assert acted["pass"], (r.scenario_id, acted)


def test_every_table_operation_pair_of_the_official_files_has_a_recipe_or_a_producer(suite):
    pairs = {(c.table, c.operation) for s in suite for c in s.expected_changes}
    assert len(pairs) == 43
    assert pairs - set(RECIPES) - set(PRODUCED_BY) == set()


def test_eval_runs_the_reference_oracle_by_name(tmp_path, suite):
    folder = tmp_path / "suite"
    folder.mkdir()
    one = next(s for s in suite if s.id == "reference/ui/scenario_0068")  # splitwise group + expense, a note, cart entries
    (folder / "s.json").write_text(json.dumps(one.to_dict()))
    result = CliRunner().invoke(app, ["eval", "--suite", str(folder), "--agent", "reference-oracle", "--stand-in-images",
                                      "--out", str(tmp_path / "run"), "--no-report"])
    assert result.exit_code == 0, result.output
    episode = json.loads((tmp_path / "run" / "episodes.jsonl").read_text().splitlines()[0])
    assert episode["entity_f1"] == 1.0 and episode["agent"] == "reference-oracle"
    names = {c["name"] for c in episode["calls"]}
    assert {"splitwise_create_group", "splitwise_record_expense"} <= names


def test_staged_emails_without_a_thread_get_one_and_a_reply_joins_its_email(tmp_path):
    """A file that stages emails but no thread records (any of the 308 may): each email that answers
    none starts a thread of its own, an answer joins its email's thread, so the mailbox shows them
    and a reply lands in the right thread."""
    data = json.loads((OFFICIAL / "ui" / "scenario_0723.json").read_text())
    ents = data["appworld_entities"]
    ents.pop("gmail.global_email_threads"), ents.pop("gmail.user_email_threads")
    first = ents["gmail.emails"][0]
    ents["gmail.emails"] += [{**first, "id": 5102, "response_to_email_id": 5100, "created_at": "2026-04-16T11:00:00"},
                             {**first, "id": 5103, "subject": "Other", "created_at": "2026-04-16T12:00:00"}]
    data["entity_diff_specs"] = [x for x in data["entity_diff_specs"] if "thread" not in x["table"]]
    path = tmp_path / "scenario_9723.json"
    path.write_text(json.dumps(data))
    s, report = import_reference(path)
    threads = {e["id"]: e["email_thread_id"] for e in s.initial_entities["gmail.emails"]}
    assert threads[5100] == threads[5102] != threads[5103] and None not in threads.values()
    assert any("2 thread(s) started" in line for line in report.converted)


def test_amounts_the_app_computes_when_an_order_is_placed_are_not_the_assistants_statements(suite):
    """0171: the oracle places an order without viewing the cart; the app writes the order's
    subtotal, delivery fee and tax and the card's new balance. No tool result states them, yet they
    are the app's, not claims of the assistant's: information accuracy holds. (A value the
    assistant's own call carries is still checked: tests/evaluation/test_exploits.py.)"""
    s = next(x for x in suite if x.id == "reference/ui/scenario_0171")
    record = run_suite([s], lambda: make_agent("reference-oracle", scenarios=[s]), env_kwargs={"stand_in_images": True})[0]
    order = record.diff["amazon.orders"]["created"][0]
    said = json.dumps([c["arguments"] for c in record.calls if c["seat"] == "assistant"])
    assert isinstance(order["tax"], float) and repr(order["tax"]) not in said
    accuracy = next(c for c in record.verdict["criteria"] if c["criterion"] == "information_accuracy")
    assert accuracy["pass"], accuracy
