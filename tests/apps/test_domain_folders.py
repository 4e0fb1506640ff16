"""One domain, one folder of the same shape, under one name everywhere.

Every domain of :data:`mmtsb_env.apps.DOMAINS` is a package ``apps/<domain>/`` with the same
files (``tables.py``, ``tools.py`` or ``tools/``, ``variants.py``, ``data.py`` where it has data
pools); its tools are registered under the same name (``Tool.app``) from inside its folder; its
generation recipes are ``generation/domains/<domain>.py`` and its tests ``tests/apps/<domain>/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mmtsb_env import apps
from mmtsb_env.generation import domains as recipes
from mmtsb_env.tools import REGISTRY
from mmtsb_env.tools.registry import _load_apps
from mmtsb_env.tools.variants import CONSOLIDATED

APPS = Path(apps.__file__).parent
TESTS = Path(__file__).parent
# the two exceptions to the common shape, each for a reason
NO_TABLES = {"web_search": "no tables: its corpus (data.py) is derived from the other apps' rows"}
NO_VARIANTS = {"phone": "no tools of its own: its account tools are consolidated with every app's (_accounts_variants)",
               "web_search": "kept as it is in every toolbox (KEPT_APPS)"}
_load_apps()


def test_apps_holds_the_domains_and_shared_helpers_only():
    packages = {p.name for p in APPS.iterdir() if (p / "__init__.py").exists()}
    modules = {p.stem for p in APPS.glob("*.py")} - {"__init__"}
    assert packages == set(apps.DOMAINS)
    assert all(m.startswith("_") for m in modules), modules


@pytest.mark.parametrize("domain", apps.DOMAINS)
def test_a_domain_folder_has_the_common_files(domain):
    folder = APPS / domain
    files = {p.name for p in folder.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert ("tables.py" in files) != (domain in NO_TABLES), files
    assert ("variants.py" in files) != (domain in NO_VARIANTS), files
    if domain != "phone":
        assert ("tools.py" in files) != ("tools" in files), f"{domain}: tools.py or tools/, one of them"
    assert files <= {"__init__.py", "tables.py", "data.py", "tools.py", "tools", "variants.py"}, files
    if (folder / "tools").is_dir():  # areas, not a second layer of helpers
        assert all(not p.stem.startswith("_") or p.stem == "__init__" for p in (folder / "tools").glob("*.py"))


@pytest.mark.parametrize("domain", apps.DOMAINS)
def test_a_domain_has_one_name_for_its_recipes_tests_and_tools(domain):
    assert domain in recipes.TABLES and (Path(recipes.__file__).parent / f"{domain}.py").exists()
    assert (TESTS / domain).is_dir() and list((TESTS / domain).glob("test_*.py"))
    own = {t.app for t in REGISTRY.values() if t.fn.__module__.startswith(f"mmtsb_env.apps.{domain}.")}
    assert own == ({domain} if domain != "phone" else set())  # phone's tools are the shared account tools
    variants = APPS / domain / "variants.py"
    if variants.exists():  # its consolidated tools are its own app's
        declared = {kw.value.value for node in ast.walk(ast.parse(variants.read_text())) if isinstance(node, ast.Call)
                    for kw in node.keywords if kw.arg == "app" and isinstance(kw.value, ast.Constant)}
        assert declared == {domain}


def test_every_app_tool_is_defined_in_its_domain_folder():
    """A tool of app X (other than the shared account tools and the consolidated ones) lives in apps/X/."""
    misplaced = [(t.name, t.app, t.fn.__module__) for t in REGISTRY.values()
                 if t.app in apps.DOMAINS and t.name not in CONSOLIDATED and t.fn.__module__ != "mmtsb_env.apps._accounts"
                 and not t.fn.__module__.startswith(f"mmtsb_env.apps.{t.app}.")]
    assert misplaced == []
