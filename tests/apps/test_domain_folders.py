"""One domain, one folder of the same shape, under one name everywhere.

Every domain of :data:`mmtsb_env.apps.DOMAINS` is a package ``apps/<domain>/`` with the same
files: ``tables.py`` (its tables and base data), ``tools.py`` or ``tools/`` (its tools; every tool
of the domain is registered there, the shared account tools included), ``variants.py`` when it
has consolidated tools of the medium/compact/mini toolboxes, ``data.py`` where it has data pools.
Its tools are registered under the same name (``Tool.app``) and named ``<domain>_...``; its
generation recipes are ``generation/domains/<domain>.py``, its tests ``tests/apps/<domain>/``, and
``docs/tools.md`` names it. Each exception below says why it exists.
"""

from __future__ import annotations

import ast
import csv
from pathlib import Path

import pytest

from mmtsb_env import apps
from mmtsb_env.generation import domains as recipes
from mmtsb_env.tools.catalog import REGISTRY, VARIANT_SOURCES
from mmtsb_env.tools.variants import CONSOLIDATED

APPS = Path(apps.__file__).parent
TESTS = Path(__file__).parent
ROOT = APPS.parent.parent
REFERENCE_TOOLS = ROOT / "tests" / "tools" / "data" / "reference_tools.tsv"

# Domains without a variants.py, each for a reason.
NO_VARIANTS = {
    "phone": "its eight account tools are consolidated with every app's account tools by the cross-app "
             "app_account / manage_account (apps/_accounts_variants.py, app 'system')",
    "web_search": "its one tool is the same in every toolbox",
}
# Domains whose tools keep the reference's API names, which carry no domain prefix (the names a
# model is scored against, so they are not renamed): each such tool must be in the reference's
# catalog under this domain; their consolidated tools are named after the domain (`calendar`,
# `reminder`) or, for the device settings, `device_settings`.
UNPREFIXED = {
    "calendar": "the reference's calendar API (create_calendar_event, search_calendars, ...)",
    "reminder": "the reference's reminder API (add_reminder, search_reminder, ...)",
    "setting": "the reference's device settings API (set_wifi_status, get_current_location, ...)",
}
UNPREFIXED_CONSOLIDATED = {"device_settings": "setting"}

SHAPED = list(apps.DOMAINS)


def _files(domain: str) -> set[str]:
    folder = APPS / domain
    return {p.name for p in folder.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}


def _calls(path: Path) -> set[str]:
    """Names of the functions called anywhere in a module (``tool(...)``, ``define_account_tools(...)``)."""
    tree = ast.parse(path.read_text())
    return {n.func.id if isinstance(n.func, ast.Name) else n.func.attr
            for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))}


def test_apps_holds_the_domains_and_shared_helpers_only():
    packages = {p.name for p in APPS.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in APPS.glob("*.py")} - {"__init__"}
    assert packages == set(apps.DOMAINS)
    assert all(m.startswith("_") for m in modules), modules


@pytest.mark.parametrize("domain", SHAPED)
def test_a_domain_folder_has_the_common_files(domain):
    files = _files(domain)
    assert "tables.py" in files, files
    assert ("tools.py" in files) != ("tools" in files), f"{domain}: tools.py or tools/, one of them"
    assert ("variants.py" in files) != (domain in NO_VARIANTS), files
    assert files <= {"__init__.py", "tables.py", "data.py", "tools.py", "tools", "variants.py"}, files
    if (APPS / domain / "tools").is_dir():  # areas, not a second layer of helpers
        assert all(not p.stem.startswith("_") or p.stem == "__init__" for p in (APPS / domain / "tools").glob("*.py"))


@pytest.mark.parametrize("domain", SHAPED)
def test_a_domain_registers_its_tools_only_from_its_tools(domain):
    """No ``@tool`` and no account tools from tables.py, data.py or variants.py: "where are the
    phone's tools?" has one answer, ``apps/phone/tools.py``."""
    folder = APPS / domain
    for name in ("tables.py", "data.py", "variants.py"):
        if (folder / name).exists():
            calls = _calls(folder / name)
            assert "tool" not in calls and "define_account_tools" not in calls, f"{domain}/{name} registers tools"
    if any(t.app == domain for t in REGISTRY.values() if t.fn.__module__ == "mmtsb_env.apps._accounts"):
        tools = folder / "tools.py" if (folder / "tools.py").exists() else folder / "tools" / "__init__.py"
        assert "define_account_tools" in _calls(tools), tools


@pytest.mark.parametrize("domain", apps.DOMAINS)
def test_a_domain_has_one_name_for_its_recipes_tests_and_tools(domain):
    assert domain in recipes.TABLES and (Path(recipes.__file__).parent / f"{domain}.py").exists()
    assert (TESTS / domain).is_dir() and list((TESTS / domain).glob("test_*.py"))
    own = {t.app for t in REGISTRY.values() if t.fn.__module__.startswith(f"mmtsb_env.apps.{domain}.")}
    assert own <= {domain}
    assert any(t.app == domain for t in REGISTRY.values())
    variants = APPS / domain / "variants.py"
    if variants.exists():  # its consolidated tools are its own app's
        declared = {kw.value.value for node in ast.walk(ast.parse(variants.read_text())) if isinstance(node, ast.Call)
                    for kw in node.keywords if kw.arg == "app" and isinstance(kw.value, ast.Constant)}
        assert declared == {domain}


def test_recipes_and_tests_have_no_folder_for_an_unknown_domain():
    shared = {"cross_app"}  # recipes spanning several apps (no domain of their own)
    assert set(recipes.TABLES) - shared == set(apps.DOMAINS)
    assert {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(apps.DOMAINS)


def test_the_docs_name_every_domain_as_it_is():
    text = (ROOT / "docs" / "tools.md").read_text()
    assert all(f"`{domain}`" in text for domain in apps.DOMAINS)
    for name, why in UNPREFIXED.items():
        assert name in text, name
    assert "reference's API names" in text  # the documented prefix exception


def test_a_tool_is_named_after_its_domain_or_keeps_the_reference_name():
    with REFERENCE_TOOLS.open() as f:
        reference = {(row["domain"], row["tool_name"]) for row in csv.DictReader(f, delimiter="\t")}
    misnamed = []
    for t in REGISTRY.values():
        if t.app not in apps.DOMAINS or t.name == t.app or t.name.startswith(t.app + "_"):
            continue
        if t.app in UNPREFIXED and ((t.app, t.name) in reference or UNPREFIXED_CONSOLIDATED.get(t.name) == t.app):
            continue
        misnamed.append((t.name, t.app))
    assert misnamed == []
    # and the exceptions are still needed
    for domain in UNPREFIXED:
        assert any(t.app == domain and not t.name.startswith(domain) for t in REGISTRY.values()), domain


def test_every_app_tool_is_defined_in_its_domain_folder():
    """A tool of app X (other than the shared account tools and the consolidated ones) lives in apps/X/."""
    misplaced = [(t.name, t.app, t.fn.__module__) for t in REGISTRY.values()
                 if t.app in apps.DOMAINS and t.name not in CONSOLIDATED and t.fn.__module__ != "mmtsb_env.apps._accounts"
                 and not t.fn.__module__.startswith(f"mmtsb_env.apps.{t.app}.")]
    assert misplaced == []


def test_the_catalogue_loads_every_variants_module():
    """A domain's variants.py is registered only if the catalogue imports it (an explicit table)."""
    present = {f"mmtsb_env.apps.{d}.variants" for d in apps.DOMAINS if (APPS / d / "variants.py").exists()}
    assert {m.__name__ for m in VARIANT_SOURCES} == present | {"mmtsb_env.apps._accounts_variants"}
