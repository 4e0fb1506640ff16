"""The reference's own scenarios score here as in the reference: scope, schema, measure defaults, images.

The check of record: every official file, imported, with its expected rows written straight into
the world (``write_expected_changes``), scores entity F1 1.0 under the reference's scope. What the
importer still drops is listed exactly, so a new gap fails and a closed one must be crossed off.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from mmtsb_env.cli import app
from mmtsb_env.episode.engine import Episode, EpisodeConfig
from mmtsb_env.episode.images import load_scenario_images, missing_image_files
from mmtsb_env.evaluation.entity_diff import ScoringConfig, resolve_scope, score_changes
from mmtsb_env.scenario.importer import import_reference, import_reference_dir, write_expected_changes
from mmtsb_env.scenario.suites import load_suite

OFFICIAL = next((p for p in (Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "official_scenarios",
                              Path("/work/shared/reference/official_scenarios")) if p.exists()),
                Path("/work/shared/reference/official_scenarios"))
pytestmark = pytest.mark.skipif(not OFFICIAL.exists(), reason="the reference's official scenarios are not available here")
# Specs the importer cannot carry, by file (none: every table the official files name exists here).
KNOWN_DROPPED: dict[str, list[str]] = {}
runner = CliRunner()


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("reference")
    reports = import_reference_dir(OFFICIAL, out)
    return load_suite(out), reports


def test_a_perfect_world_scores_f1_1_on_every_official_file_under_reference_scope(imported):
    suite, _ = imported
    below = {}
    for scenario in suite:
        ep = Episode(scenario, EpisodeConfig(entity_scope="auto", stand_in_images=True))
        assert ep.entity_scope == "reference"
        assert write_expected_changes(ep.world, scenario.expected_changes) == []
        f1 = ep.entity_score().f1
        if f1 < 1.0:
            below[scenario.id] = f1
    assert below == {}


def test_what_the_importer_drops_and_what_can_never_match_is_exactly_the_known_gap(imported):
    _, reports = imported
    dropped = {Path(r.source).name: [i.detail for i in r.issues if i.field.startswith("entity_diff_specs") and i.severity == "dropped"]
               for r in reports}
    assert {k: v for k, v in dropped.items() if v} == KNOWN_DROPPED
    never = [f"{Path(r.source).name}: {i.detail}" for r in reports for i in r.issues if "can never match" in i.detail]
    assert never == []


def test_reference_scope_scores_only_the_tables_the_expectations_name():
    expected = [{"operation": "create", "table": "todoist.projects", "row": {"name": "Trip"}}]
    diff = {"todoist.projects": {"created": [{"id": 9, "name": "Trip"}], "updated": [], "deleted": []},
            "todoist.project_collaborator_links": {"created": [{"id": 3, "project_id": 9, "user_id": 1}], "updated": [], "deleted": []}}
    assert score_changes(expected, diff).f1 < 1.0  # ours: the side row costs precision
    assert score_changes(expected, diff, config=ScoringConfig(scope="reference")).f1 == 1.0
    # an update of a staged row in a table where only creates are expected: the reference never looks
    diff["todoist.projects"]["updated"] = [{"key": 4, "before": {"id": 4, "name": "Old"}, "after": {"id": 4, "name": "Older"}}]
    assert score_changes(expected, diff, config=ScoringConfig(scope="reference")).f1 == 1.0
    assert score_changes(expected, diff).f1 < 1.0
    with pytest.raises(ValueError, match="scope='everything' is not valid; choose one of: all, reference"):
        ScoringConfig(scope="everything")


def test_comments_on_the_tasks_of_a_project_the_file_deletes_count_as_made_under_reference_scope():
    """0006 expects comments on two tasks of project 400 and the project deleted; our delete takes
    the tasks' comments along (a consistent world). Under the reference's scope a comment the
    episode posted and the cascade carried off counts as made; a comment never posted, or deleted
    by the agent itself, does not; our own scope scores the final world only."""
    from mmtsb_env.tools.calling import invoke

    s, _ = import_reference(OFFICIAL / "nominal" / "scenario_0006.json")
    wanted = [c.row for c in s.expected_changes if (c.table, c.operation) == ("todoist.task_comments", "create")]
    assert len(wanted) == 2

    def play(comments, undo_one=False):
        ep = Episode(s, EpisodeConfig(entity_scope="reference", stand_in_images=True))
        for row in comments:
            out = invoke(ep.world, "todoist_post_task_comment", {"task_id": row["task_id"], "content": row["content"]})
            assert out.ok, out.text
        if undo_one:
            assert invoke(ep.world, "todoist_delete_task_comment", {"task_comment_id": out.result["task_comment_id"]}).ok
        assert invoke(ep.world, "todoist_delete_project", {"project_id": 400}).ok
        return ep

    def group(score):
        return next(g for g in score.groups if (g.table, g.operation) == ("todoist.task_comments", "create"))

    ep = play(wanted)
    assert (group(ep.entity_score()).precision, group(ep.entity_score()).recall) == (1.0, 1.0)
    diff_json = {t: d.to_json() for t, d in ep.world.diff().items()}  # what a run record keeps
    reference = ScoringConfig(scope="reference")
    assert group(score_changes(s.expected_changes, diff_json, config=reference)).recall == 1.0
    assert "todoist.task_comments" not in {g.table for g in score_changes(s.expected_changes, diff_json).groups
                                           if g.n_actual}  # our scope: the final world holds no new comment
    assert group(play([]).entity_score()).recall == 0.0
    assert group(play(wanted, undo_one=True).entity_score()).recall == 0.5


def test_auto_scope_is_the_reference_for_imported_scenarios_only():
    ours = load_suite("demo")[0]
    theirs, _ = import_reference(OFFICIAL / "nominal" / "scenario_0017.json")
    assert (resolve_scope("auto", ours), resolve_scope("auto", theirs)) == ("all", "reference")
    assert resolve_scope("all", theirs) == "all" and resolve_scope("reference", ours) == "reference"


def test_measure_defaults_follow_the_reference(tmp_path):
    """A note update that lists ``tags: []`` without a measure: the reference ignores it (empty value, and tags)."""
    s, _ = import_reference(OFFICIAL / "ui" / "scenario_0356.json")
    update = next(c for c in s.expected_changes if c.operation == "update" and c.table == "simple_note.notes")
    assert update.fields["tags"] == [] and update.measures["tags"] == "ignore"


def test_no_op_updates_are_reported_not_scored():
    s, report = import_reference(OFFICIAL / "ui" / "scenario_0540.json")
    notes = [i.detail for i in report.issues if "asks for the values the row already has" in i.detail]
    assert len(notes) == 2 and not any(c.operation == "update" and c.table == "phone.contacts" for c in s.expected_changes)


def test_staged_rows_in_the_references_column_names_land_in_ours():
    s, _ = import_reference(OFFICIAL / "ui" / "scenario_0948.json")
    ep = Episode(s, EpisodeConfig(stand_in_images=True))
    members = [r for r in ep.world.rows("splitwise.group_members") if r["group_id"] == 400]
    assert {(r["user_id"], r["joined_at"]) for r in members} >= {(105, "2026-01-10T10:00:00"), (70, "2026-01-10T10:05:00")}
    assert all(r["joined_at"] == r["created_at"] for r in members)


# ----------------------------------------------------------------------------------------- images
def _tiny_suite(tmp_path: Path) -> Path:
    s, _ = import_reference(OFFICIAL / "nominal" / "scenario_0017.json")
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "s.json").write_text(json.dumps(s.to_dict()))
    return folder


def test_missing_images_are_counted_per_dataset_and_stand_ins_are_labelled(tmp_path):
    suite = load_suite(_tiny_suite(tmp_path))
    paths = [im.path for im in suite[0].images]
    assert missing_image_files(suite, tmp_path) == {"worldvqa": (len(set(paths)), len(set(paths)))}
    present = tmp_path / paths[0]
    present.parent.mkdir(parents=True)
    Image.new("RGB", (40, 30), (1, 2, 3)).save(present)
    assert missing_image_files(suite, tmp_path) == {"worldvqa": (len(set(paths)) - 1, len(set(paths)))}
    images, sources, _ = load_scenario_images(suite[0], tmp_path, stand_in=True)
    assert sources[0] == f"file:{paths[0]}" and images[0].size == (40, 30)
    assert sources[1] == f"stand-in:{paths[1]}" and images[1].size == (1024, 768)


def test_eval_refuses_missing_datasets_in_one_line_and_runs_with_stand_ins(tmp_path):
    folder = _tiny_suite(tmp_path)
    result = runner.invoke(app, ["eval", "--suite", str(folder), "--agent", "random", "--images-dir", str(tmp_path)])
    assert result.exit_code == 2
    *table, line = result.output.strip().splitlines()  # the datasets table, then the refusal in one line
    assert table[0].startswith("image datasets under") and "worldvqa 6 of 6 missing" in line and "--stand-in-images" in line
    out = tmp_path / "run"
    result = runner.invoke(app, ["eval", "--suite", str(folder), "--agent", "random", "--images-dir", str(tmp_path),
                                 "--stand-in-images", "--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    episode = json.loads((out / "episodes.jsonl").read_text().splitlines()[0])
    assert episode["metadata"]["stand_in_images"] == 6 and episode["metadata"]["entity_scope"] == "reference"


def test_import_reference_names_each_missing_dataset(tmp_path):
    (tmp_path / "datasets" / "docvqa").mkdir(parents=True)
    result = runner.invoke(app, ["import-reference", str(OFFICIAL / "nominal"), "--out", str(tmp_path / "out"),
                                 "--images", str(tmp_path / "datasets")])
    assert result.exit_code == 0, result.output
    assert '"worldvqa": {' in result.output and "image files not found under" in result.output


def test_the_owner_is_read_from_the_scenario_and_one_email_is_one_owner(imported):
    _, reports = imported
    owners: dict[str, set[int]] = {}
    for r in reports:
        for line in r.converted:
            if line.startswith("device_state_id"):
                owners.setdefault(line.split("'")[1], set()).add(int(line.split("user id ")[1].split()[0]))
    assert all(len(ids) == 1 for ids in owners.values()), owners
    # staged rows of other people (reviews, someone's playlists) do not outvote the owner's own expected writes
    assert owners["mar_blac@gmail.com"] == {42} and owners["de_ritt@gmail.com"] == {97}


def test_staged_rows_never_overwrite_base_rows_and_references_follow_them():
    from mmtsb_env.world.base import base_world

    s, report = import_reference(OFFICIAL / "ui" / "scenario_0791.json")
    base_song = base_world(0).layer.tables["spotify.songs"][200]
    staged = {r["id"]: r for r in s.initial_entities["spotify.songs"]}
    assert 200 not in staged and any("spotify.songs: staged id(s) [200," in c for c in report.converted)
    ep = Episode(s, EpisodeConfig(stand_in_images=True))
    assert ep.world.get("spotify.songs", 200) == base_song  # someone else's song is untouched
    wanted = {c.row["song_id"] for c in s.expected_changes if c.table == "spotify.playlist_songs"}
    assert wanted and wanted <= set(staged)  # the expected playlist songs are the staged songs, renumbered


def test_the_owner_can_do_what_the_task_needs_order_with_a_card_and_an_address():
    """0960 orders toys on Amazon: the owner (29) has no card or address in our base world, so the
    import gives them the reference owner's essentials; the order then goes through the tools."""
    from mmtsb_env.tools.registry import REGISTRY

    s, report = import_reference(OFFICIAL / "ui" / "scenario_0960.json")
    assert any("given what the reference's device owner has: an Amazon payment card, an Amazon address" in c
               for c in report.converted)
    ep = Episode(s, EpisodeConfig(stand_in_images=True))
    world = ep.world
    product = next(c.row["product_id"] for c in s.expected_changes if c.table == "amazon.order_items")
    REGISTRY["amazon_add_product_to_cart"].call(world, {"product_id": product})
    [card] = REGISTRY["amazon_show_payment_cards"].call(world, {})
    [address] = REGISTRY["amazon_show_addresses"].call(world, {})
    REGISTRY["amazon_place_order"].call(world, {"payment_card_id": card["payment_card_id"], "address_id": address["address_id"]})
    [item] = world.diff()["amazon.order_items"].created
    assert item["product_id"] == product and item["ordered_quantity"] == 1 and item["returned_quantity"] == 0


def test_the_owner_may_change_what_is_inside_a_top_level_folder_they_own():
    """0356 stages the owner's games on an ``/E/`` drive and expects an archive folder there."""
    from mmtsb_env.tools.registry import REGISTRY

    s, _ = import_reference(OFFICIAL / "ui" / "scenario_0356.json")
    ep = Episode(s, EpisodeConfig(stand_in_images=True))
    create = REGISTRY["file_system_create_directory"]
    create.call(ep.world, {"directory_path": "/E/Game_Archive/annotations", "recursive": True})
    created = {r["path"] for r in ep.world.diff()["file_system.directories"].created}
    assert created == {"/E/Game_Archive/", "/E/Game_Archive/annotations/"}
    with pytest.raises(Exception, match="only entries inside your home directory"):
        create.call(ep.world, {"directory_path": "/F/new"})  # a top-level folder the owner does not own
    with pytest.raises(Exception, match="only entries inside your home directory"):
        REGISTRY["file_system_delete_directory"].call(ep.world, {"directory_path": "/E/"})  # nor the drive itself


def test_tool_names_the_reference_metadata_uses_resolve_to_ours(imported):
    from mmtsb_env.scenario.importer import resolve_tool_name
    from mmtsb_env.tools.registry import REGISTRY

    suite, _ = imported
    names = {n for s in suite for n in s.metadata["expected_tools"]}
    assert {"simple_note_create_note", "contacts_add_contact"} <= names
    unresolved = sorted(n for n in names if REGISTRY.get(n) is None and not n.startswith("ui_")
                        and n not in ("render_ui_screen", "show_ui_to_user"))
    assert unresolved == []
    assert resolve_tool_name("create_note") == "simple_note_create_note" and resolve_tool_name("add") is None  # ambiguous


def test_eval_with_a_datasets_folder_reports_the_eight_datasets_in_one_table(tmp_path):
    """The one-command path: ``mmtsb eval --images-dir DIR`` prints one table of the paper's eight
    datasets (files the suite uses, found, status) before it refuses or runs."""
    from mmtsb_env.scenario.importer import PAPER_DATASETS, dataset_table

    folder = _tiny_suite(tmp_path)  # 0017: six worldvqa images
    suite = load_suite(folder)
    paths = sorted({im.path for im in suite[0].images})
    datasets = tmp_path / "datasets"
    for p in paths[:2]:
        (datasets / p).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (8, 8)).save(datasets / p)
    (datasets / "docvqa").mkdir()
    table = dataset_table(suite, datasets)
    rows = {line.split()[0]: line for line in table.splitlines()[2:]}
    assert set(rows) == set(PAPER_DATASETS) and len(PAPER_DATASETS) == 8
    assert rows["worldvqa"].split()[1:4] == ["6", "2", "partly"] and "missing (4)" in rows["worldvqa"]
    assert rows["docvqa"].endswith("not used by this suite (folder present)")
    assert rows["chartqapro"].endswith("not used by this suite")
    result = runner.invoke(app, ["eval", "--suite", str(folder), "--agent", "random", "--images-dir", str(datasets)])
    assert result.exit_code == 2 and table in result.output and "worldvqa 4 of 6 missing" in result.output
    for p in paths[2:]:
        Image.new("RGB", (8, 8)).save(datasets / p)
    result = runner.invoke(app, ["eval", "--suite", str(folder), "--agent", "random", "--images-dir", str(datasets),
                                 "--out", str(tmp_path / "run"), "--no-report"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in dataset_table(suite, datasets).splitlines()[2:]}
    assert rows["worldvqa"].split()[1:] == ["6", "6", "present"] and rows["worldvqa"] in result.output
