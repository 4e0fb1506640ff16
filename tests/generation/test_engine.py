"""The table engine: a row becomes the right call, value and expected change; a bad row is one clear error."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from mmtsb_env.generation import engine
from mmtsb_env.generation.core import Build, Part
from mmtsb_env.generation.domains import MAIN, ROWS, TABLES
from mmtsb_env.generation.dryrun import expected_changes
from mmtsb_env.generation.rows import OWNER, Flow, Read, Rows, TableError, Write, check_row
from mmtsb_env.generation.world_index import world_index
from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.catalog import get_tool, tools_in
from mmtsb_env.world import World, build_layer
from mmtsb_env.world.base import base_world

NOW = datetime(2026, 5, 1, 10, tzinfo=timezone.utc)


def build(seed: int = 0) -> Build:
    return Build(random.Random(seed), world_index(0), NOW)


def play(b: Build, part: Part) -> list[dict]:
    """The part's steps on the starting world; the expected changes they make."""
    base = base_world(0)
    world = World(base.layer, build_layer(b.entities, below=base.layer), now=NOW, user_id=b.wi.owner_id)
    for st in part.steps:
        out = invoke(world, st["name"], st["arguments"])
        assert out.ok, (st, out.text)
    return expected_changes(world)


# ---------------------------------------------------------------------------- rows -> rounds
def test_read_row_reports_the_value_the_world_holds():
    row = Read("alarms_show_alarm", {"alarm_id": "{id}"}, "time", ("When does my '{label}' alarm ring?",),
               "It rings at {v}.", Rows("phone.alarms", {"user_id": OWNER}, unique="label"))
    b = build(3)
    part = engine.realise(b, row)
    step = part.steps[-1]
    assert step["name"] == "alarms_show_alarm"
    alarm = b.wi.tables["phone.alarms"][step["arguments"]["alarm_id"]]
    assert alarm["user_id"] == b.wi.owner_id
    assert part.report == [alarm["time"]] and part.facts == [alarm["time"]]
    assert alarm["label"] in part.request and alarm["time"] in part.answer
    assert play(b, part) == []  # a read changes nothing


def test_write_row_makes_its_declared_change_with_dictated_values():
    row = next(r for r in TABLES["todoist"] if isinstance(r, Write) and r.tool == "todoist_update_task" and "due_date" in r.args)
    b = build(1)
    part = engine.realise(b, row)
    step = part.steps[-1]
    assert step["name"] == "todoist_update_task" and step["arguments"]["due_date"] in row.values["d"]
    assert step["arguments"]["due_date"] in part.request  # the user dictated it: derivable
    task = b.wi.tables["todoist.tasks"][step["arguments"]["task_id"]]
    assert task["user_id"] == b.wi.owner_id and task["title"] in part.request
    changes = play(b, part)
    assert [(c["operation"], c["table"], c.get("key")) for c in changes] == [("update", "todoist.tasks", task["id"])]
    assert changes[0]["fields"]["due_date"] == step["arguments"]["due_date"]
    assert part.is_task and part.report == []


def test_update_value_differs_from_the_current_one():
    row = next(r for r in TABLES["alarms"] if isinstance(r, Write) and "snooze_minutes" in r.args)
    for seed in range(8):
        b = build(seed)
        part = engine.realise(b, row)
        alarm = b.wi.tables["phone.alarms"][part.steps[-1]["arguments"]["alarm_id"]]
        assert part.steps[-1]["arguments"]["snooze_minutes"] != alarm["snooze_minutes"]


def test_flow_reads_in_one_app_and_writes_in_two_others():
    flow = next(r for r in TABLES["cross_app"] if r.read.tool == "contacts_search_contacts" and r.read.pick == "0.email")
    b = build(2)
    part = engine.realise(b, flow)
    names = [st["name"] for st in part.steps]
    assert names == ["contacts_search_contacts", "gmail_send_email", "splitwise_record_expense"]
    email = part.report[0]
    person = next(c for c in b.wi.contacts if c["email"] == email)
    assert person["first_name"] in part.request and email in part.answer
    assert part.steps[1]["arguments"]["email_addresses"] == [email]
    assert part.steps[2]["arguments"]["debtor_emails"] == [email]
    assert isinstance(part.steps[2]["arguments"]["paid_amount"], float)
    made = {(c["operation"], c["table"]) for c in play(b, part)}
    assert {("create", "gmail.emails"), ("create", "splitwise.expenses")} <= made


def test_every_table_row_works_on_the_base_world():
    """Each row realises on some seed and its writes make the change the row declares."""
    dead = []
    for row in ROWS:
        for seed in range(6):
            b = build(seed)
            part = engine.realise(b, row)
            if part is not None:
                made = {(c["operation"], c["table"]) for c in play(b, part)}
                writes = [row] if isinstance(row, Write) else list(row.writes) if isinstance(row, Flow) else []
                assert all(w.change in made for w in writes), (row.tools, made)
                break
        else:
            dead.append(row.tools)
    assert dead == []


def test_tables_cover_every_domain_and_its_main_tools():
    apps = {get_tool(t).app for r in ROWS for t in r.tools}
    assert apps >= {"alarms", "amazon", "calendar", "contacts", "file_system", "gmail", "messages", "phone", "reminder",
                    "setting", "simple_note", "splitwise", "spotify", "todoist", "venmo", "web_search"}
    in_tables = {t for r in ROWS for t in r.tools}
    sinks = {"set_wifi_status", "set_cellular_service_status", "set_low_battery_mode_status"}  # the device mutations make these
    assert {t for tools in MAIN.values() for t in tools} - in_tables <= sinks
    assert len(in_tables) >= 300
    assert set(in_tables) <= {t.name for t in tools_in("full")}


def test_domain_tables_are_named_after_their_apps_and_import_only_the_row_language():
    """The registry lists every domain module by the app's one name (its ``apps/<domain>/`` folder);
    a member imports only ``generation.rows`` from the generator, never the engine or the registry
    (the engine imports the registry: a member importing either back would close a circle)."""
    import ast
    from pathlib import Path

    from mmtsb_env import apps
    from mmtsb_env.generation import domains

    assert set(TABLES) == set(apps.DOMAINS) | {"cross_app"}
    for path in sorted(Path(domains.__file__).parent.glob("*.py")):
        if path.name == "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("mmtsb_env")):
                target = "." * node.level + (node.module or "")
                assert target in ("..rows", "mmtsb_env.generation.rows"), f"{path.name} imports {target}"


# ---------------------------------------------------------------------------- choosing rows
def test_choose_takes_the_least_used_tool_first():
    b = build(0)
    target = next(r for r in TABLES["spotify"] if r.tool == "spotify_show_genres")
    b.tool_use = {t: 5 for r in ROWS for t in r.tools}
    b.tool_use["spotify_show_genres"] = 0
    part = engine.choose(b, ("read",))
    assert [st["name"] for st in part.steps] == ["spotify_show_genres"]
    assert b.tool_use["spotify_show_genres"] == 1  # counted for the rest of the scenario
    assert target is not None


def test_choose_never_repeats_a_row_and_respects_ops_and_apps():
    b = build(4)
    seen = []
    for _ in range(12):
        part = engine.choose(b, ("write",), ops=("create",), avoid_apps={"amazon", "spotify"})
        names = [st["name"] for st in part.steps]
        assert not any(get_tool(n).app in ("amazon", "spotify") for n in names)
        seen.append(tuple(names))
    assert len(set(seen)) == len(seen)
    for tools in seen:
        row = next(r for r in ROWS if r.tools == tools)
        assert row.change[0] == "create"


def test_choose_is_deterministic():
    def run(seed):
        b = build(seed)
        return [engine.choose(b).request for _ in range(5)]
    assert run(7) == run(7)
    assert run(7) != run(8)


# ---------------------------------------------------------------------------- bad rows
@pytest.mark.parametrize("row, message", [
    (Read("no_such_tool", {}, "x", ("q?",), "{v}"), "unknown tool 'no_such_tool'"),
    (Read("spotify_show_song", {"song": 1}, "title", ("q?",), "{v}"), "spotify_show_song has no parameter song (it takes: song_id)"),
    (Read("spotify_show_song", {}, "title", ("q?",), "{v}"), "spotify_show_song needs argument(s) song_id"),
    (Read("spotify_show_volume", {}, "volume", (), "{v}"), "needs at least one phrasing"),
    (Write("spotify_show_volume", {}, ("q",), "a", ("update", "spotify.music_players")), "does not write; use a Read row"),
    (Write("spotify_set_volume", {"volume": 3}, ("q",), "a", ("change", "spotify")), "change must be (op, 'app.table')"),
    (Write("spotify_set_volume", {"volume": "{v}"}, ("q",), "a", ("update", "spotify.music_players"), values={"v": ()}),
     "value 'v' has no options"),
    (Flow(Read("spotify_show_volume", {}, "volume", (), ""),
          (Write("spotify_set_volume", {"volume": 3}, (), "", ("update", "spotify.music_players")),), ("q",), "a"),
     "a flow reads in one app and writes in two others"),
])
def test_bad_row_is_one_clear_error(row, message):
    with pytest.raises(TableError) as err:
        check_row("test", row)
    assert message in str(err.value) and str(err.value).startswith("test table")
    assert "\n" not in str(err.value)


def test_template_field_missing_from_the_world_row_is_a_table_error():
    row = check_row("test", Read("alarms_show_alarm", {"alarm_id": "{id}"}, "time", ("When is '{nickname}'?",), "{v}",
                                 Rows("phone.alarms", {"user_id": OWNER})))
    with pytest.raises(TableError, match="template field 'nickname'"):
        engine.realise(build(0), row)


# ---------------------------------------------------------------------------- helpers
def test_fill_and_pick():
    env = {"id": 7, "name": "Ana", "amt": 35.0}
    assert engine.fill({"a": "{id}", "b": ["{name}"], "c": "x {name} ${amt}"}, env) == {"a": 7, "b": ["Ana"], "c": "x Ana $35.00"}
    result = {"songs": [{"title": "A"}, {"title": "B"}], "n": 0}
    assert engine.pick(result, "songs.#") == 2
    assert engine.pick(result, "songs.-1.title") == "B"
    assert engine.pick(result, "songs.5.title") is None
    assert engine.pick(result, "n") == 0
    assert engine.spoken(True) == "yes" and engine.spoken(4.80) == "4.8" and engine.spoken(12.0) == "12"
    assert engine.spoken(None) is None and engine.spoken([1]) is None and engine.spoken(0) == "0"


def test_vision_steps_only_where_an_image_is_not_legible_as_sent():
    """Legible images (levels below VISION_MIN_DIFFICULTY) are read directly, unless the photo is turned (then only
    turned upright); from that level on, photos are cropped to their document and other images enhanced."""
    import dataclasses

    from mmtsb_env.generation.images import HARD_LEVEL, Drafter
    from mmtsb_env.vision.render import render

    b = build(0)
    kinds = {}
    for seed in range(60):  # one scenario's drafter keeps to its palette of one or two families: a drafter each
        im = Drafter(random.Random(seed), b.wi, NOW).make("receipt")
        for level in sorted({im.difficulty, engine.VISION_MIN_DIFFICULTY}):
            b.imgs.append(dataclasses.replace(im, difficulty=level))
            kinds.setdefault((im.kind, level, bool(render(b.imgs[-1].render_spec()).facts.get("rotation"))), len(b.imgs) - 1)
    for (kind, difficulty, turned), i in kinds.items():
        steps = engine.vision_steps(b, Part("q", image_ids=[i]))
        facts = render(b.imgs[i].render_spec()).facts
        big_turn = turned and abs(facts["rotation"]) % 360 >= engine.UPRIGHT_MIN_ANGLE
        if difficulty == 0:
            assert steps == []
        elif difficulty < engine.VISION_MIN_DIFFICULTY:
            assert steps == ([{"name": "rotate_image", "arguments": {"image_id": i, "angle": -float(facts["rotation"]), "expand": True},
                               "save_as": f"upright{i}"}] if big_turn else []), (kind, difficulty, steps)
        elif kind == "receipt_photo":  # crop_image takes 0-1000 coordinates: the pixel box scaled by the frame
            facts = render(b.imgs[i].render_spec()).facts
            if difficulty >= HARD_LEVEL:  # the top level's crop is read at twice its size
                zoom = steps.pop()
                assert zoom["name"] == "resize_image" and zoom["arguments"]["image_id"] == {"$ref": f"crop{i}.image_id"}
                assert steps[-1]["save_as"] == f"crop{i}"
                box = facts["upright_box"] if facts.get("rotation") else facts["doc_box"]
                assert (zoom["arguments"]["width"], zoom["arguments"]["height"]) == (2 * (box[2] - box[0]), 2 * (box[3] - box[1]))
            crop = dict(steps[-1])
            crop.pop("save_as", None)
            assert crop["name"] == "crop_image"
            if facts.get("rotation"):  # a photo taken sideways: turned back first, the crop is of the upright photo
                assert steps[0] == {"name": "rotate_image", "arguments": {"image_id": i, "angle": -float(facts["rotation"]),
                                                                          "expand": True}, "save_as": f"upright{i}"}
                assert crop["arguments"]["image_id"] == {"$ref": f"upright{i}.image_id"}
                box, (w, h) = facts["upright_box"], (facts["frame"][::-1] if facts["rotation"] % 180 else facts["frame"])
            else:
                assert len(steps) == 1 and crop["arguments"]["image_id"] == i
                box, (w, h) = facts["doc_box"], facts["frame"]
            a = crop["arguments"]
            assert abs(a["left"] - box[0] * 1000 / w) <= 1 and abs(a["right"] - box[2] * 1000 / w) <= 1
            assert abs(a["upper"] - box[1] * 1000 / h) <= 1 and abs(a["lower"] - box[3] * 1000 / h) <= 1
        elif not facts.get("rotation"):
            assert steps == [{"name": "enhance_image", "arguments": {"image_id": i, "factor": engine.ENHANCE_FACTOR}}]
    assert any(k[0] == "receipt_photo" and k[1] == engine.VISION_MIN_DIFFICULTY for k in kinds)
    assert any(k[1] == 1 for k in kinds) and any(k[1] == engine.VISION_MIN_DIFFICULTY and k[0] != "receipt_photo" for k in kinds)
