"""Toolbox variants: membership, passthrough, and the errors consolidated tools give."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from mmtsb_env.tools.calling import invoke
from mmtsb_env.tools.catalog import REGISTRY, tools_in
from mmtsb_env.tools.registry import ASSISTANT, USER
from mmtsb_env.tools.variants import (
    CONSOLIDATED, KEPT_APPS, PROTECTED_TOOLS, VARIANTS, absorbed_in, sync_toolboxes, tool_apps, toolbox_members,
)
from mmtsb_env.world import World
from mmtsb_env.world.base import base_world

NOW = datetime(2026, 4, 16, 23, 51, 15, tzinfo=timezone.utc)


@pytest.fixture
def world() -> World:
    return World(base_world(0).layer, now=NOW, user_id=1)


def names(variant: str, seat: str | None = ASSISTANT) -> set[str]:
    return {t.name for t in toolbox_members(variant, seat)}


def test_variant_sizes_shrink_and_are_reported() -> None:
    sizes = {v: len(toolbox_members(v)) for v in ("full",) + VARIANTS}
    print("agent-visible tools per toolbox:", sizes)
    assert sizes["full"] > sizes["medium"] > sizes["compact"] > sizes["mini"]
    assert 230 <= sizes["medium"] <= 320
    assert 140 <= sizes["compact"] <= 200
    assert 25 <= sizes["mini"] <= 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_registry_tools_in_agrees_with_membership(variant: str) -> None:
    assert [t.name for t in tools_in(variant)] == [t.name for t in toolbox_members(variant)]
    assert [t.name for t in tools_in(variant, USER)] == [t.name for t in toolbox_members(variant, USER)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_full_tool_stays_reachable(variant: str) -> None:
    """A full tool is either a member of the variant or absorbed by exactly one member."""
    members = names(variant, None)
    absorbed = absorbed_in(variant)
    for t in toolbox_members("full", None):
        assert (t.name in members) != (t.name in absorbed), t.name
        if t.name in absorbed:
            assert absorbed[t.name] in members


@pytest.mark.parametrize("variant", VARIANTS)
def test_protected_and_cross_cutting_tools_are_in_every_variant(variant: str) -> None:
    members = names(variant, None)
    for name in PROTECTED_TOOLS & set(REGISTRY):
        assert name in members, name
    for t in toolbox_members("full", None):
        if t.app in KEPT_APPS:
            assert t.name in members, t.name
    assert {"crop_image", "view_image", "plot", "api_docs_search_api_docs", "web_search_serper"} <= members


def test_passthrough_only_in_medium_and_compact() -> None:
    for variant in ("medium", "compact"):
        absorbed = absorbed_in(variant)
        members = names(variant)
        for t in toolbox_members("full"):
            if t.name not in absorbed:
                assert t.name in members, (variant, t.name)
    mini_singles = [t.name for t in toolbox_members("mini") if not t.absorbs and t.app not in KEPT_APPS]
    assert mini_singles == []
    assert "simple_note_search_notes" in names("medium") and "simple_note_search_notes" not in names("compact")


def test_consolidated_tools_belong_only_to_their_variants() -> None:
    for name, spec in CONSOLIDATED.items():
        tool = REGISTRY[name]
        assert tool.toolboxes == frozenset(spec.toolboxes)
        assert "full" not in tool.toolboxes
        assert tool.writes == any(REGISTRY[r.target].writes for r in spec.routes)
    assert tool_apps(REGISTRY["app_account"]) >= {"amazon", "phone", "venmo"}
    assert tool_apps(REGISTRY["simple_note"]) == {"simple_note"}


def test_sync_is_idempotent() -> None:
    before = {t.name: t.toolboxes for t in REGISTRY.values()}
    sync_toolboxes()
    sync_toolboxes()
    assert {t.name: t.toolboxes for t in REGISTRY.values()} == before


def test_unknown_toolbox_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown toolbox 'tiny'"):
        toolbox_members("tiny")


# ------------------------------------------------------------------ dispatch errors


def test_bad_action_lists_the_allowed_ones(world: World) -> None:
    out = invoke(world, "simple_note_manage_note", {"action": "remove", "note_id": 1})
    assert not out.ok and out.error_kind == "invalid_argument"
    assert "'create', 'show', 'update', 'delete'" in out.text and "'remove'" in out.text


def test_bad_combination_lists_the_actions_of_that_app(world: World) -> None:
    out = invoke(world, "app_account", {"app": "phone", "action": "verify"})
    assert not out.ok and out.error_kind == "invalid_argument"
    assert "app_account has no app='phone', action='verify'" in out.text
    assert "login" in out.text and "send_password_reset_code" in out.text and "verify," not in out.text


def test_bad_selector_value_in_multi_selector_tool(world: World) -> None:
    out = invoke(world, "device_settings", {"action": "toggle", "setting": "wifi"})
    assert not out.ok and "'get', 'set'" in out.text


def test_parameter_of_another_action_is_refused(world: World) -> None:
    out = invoke(world, "simple_note_manage_note", {"action": "show", "note_id": 1, "title": "x"})
    assert not out.ok and out.error_kind == "invalid_argument"
    assert "does not take parameter(s) 'title'" in out.text and "it takes: note_id" in out.text


def test_null_for_a_parameter_of_another_action_is_ignored(world: World) -> None:
    out = invoke(world, "simple_note_manage_note", {"action": "show", "note_id": 1, "title": None, "tags": None})
    assert out.ok and out.result["id"] == 1


def test_missing_parameter_names_the_action(world: World) -> None:
    out = invoke(world, "simple_note_manage_note", {"action": "create", "title": "Groceries"})
    assert not out.ok
    assert out.text == ("Error (invalid_argument): simple_note_manage_note(action='create') is missing required "
                        "parameter(s): content")
    assert world.diff() == {}


def test_wrong_type_is_checked_like_the_full_tool(world: World) -> None:
    out = invoke(world, "simple_note_manage_note", {"action": "show", "note_id": "one"})
    assert not out.ok and "parameter 'note_id' must be an integer" in out.text


def test_device_requirements_apply_through_the_dispatcher(world: World) -> None:
    for name, args in (("set_wifi_status", {"on": False}), ("set_cellular_service_status", {"on": False})):
        assert invoke(world, name, args).ok
    full = invoke(world, "simple_note_show_note", {"note_id": 1})
    mini = invoke(world, "simple_note", {"action": "show", "note_id": 1})
    assert not full.ok and full.error_kind == "permission_denied"
    assert (mini.ok, mini.error_kind, mini.text) == (full.ok, full.error_kind, full.text)


def test_device_settings_reads_and_switches(world: World) -> None:
    assert invoke(world, "device_settings", {"action": "get", "setting": "wifi"}).result == invoke(world, "get_wifi_status", {}).result
    out = invoke(world, "device_settings", {"action": "set", "setting": "wifi", "on": False})
    assert out.ok and world.get("setting.device", 1)["wifi"] is False
    out = invoke(world, "device_settings", {"action": "set", "setting": "current_location", "on": True})
    assert not out.ok and "set/" not in out.text and "current_location" in out.text


def test_descriptions_document_actions_and_parameters() -> None:
    tool = REGISTRY["simple_note_manage_note"]
    assert "- create (title, content, [tags], [pinned]):" in tool.description
    params = {p.name: p for p in tool.params}
    assert params["action"].required and not params["note_id"].required
    assert "(for show, update, delete)" in params["note_id"].description
    schema = tool.schema["function"]["parameters"]
    assert schema["required"] == ["action"]
    assert schema["properties"]["action"]["enum"] == ["create", "show", "update", "delete"]


def test_the_catalogue_is_complete_for_every_thread_that_loads_it_first():
    """Threads importing the catalogue at once all see every tool (Python's import lock makes the
    others wait until the first has imported every tool module): no half-filled registry."""
    import subprocess
    import sys

    code = ("import threading\nseen = []\n"
            "def look():\n    from mmtsb_env.tools.catalog import tools_in\n    seen.append(len(tools_in('full')))\n"
            "threads = [threading.Thread(target=look) for _ in range(8)]\n"
            "[t.start() for t in threads]; [t.join() for t in threads]\nprint(sorted(set(seen)), len(seen))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[-2] == f"[{len(tools_in('full'))}] 8"
