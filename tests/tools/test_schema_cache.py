"""The on-disk tool-schema cache: served only for built-in registered tools under the key they
were stored with, ignored when unreadable, and keyed by the sources a schema comes from."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys

import pytest

from mmtsb_env.tools import REGISTRY, schema_cache, tool
from mmtsb_env.tools.catalog import get_tool

RESET = ("import mmtsb_env; from mmtsb_env.tools import catalog; "
         "env = mmtsb_env.make_env(suite='nominal'); obs, info = env.reset(seed=0); "
         "print(len(info['tools']), sum('_spec' in vars(catalog.get_tool(t['function']['name'])) for t in info['tools']))")


def _reset_counts(cache_dir) -> tuple[int, int]:
    out = subprocess.run([sys.executable, "-c", RESET], capture_output=True, text=True, check=False, timeout=600,
                         env={**os.environ, "MMTSB_CACHE_DIR": str(cache_dir)})
    assert out.returncode == 0, out.stderr[-2000:]
    offered, parsed = map(int, out.stdout.split()[-2:])
    return offered, parsed


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MMTSB_CACHE_DIR", str(tmp_path))
    schema_cache.reset()
    yield tmp_path
    schema_cache.reset()


def test_a_second_process_reads_the_offered_schemas_instead_of_parsing(tmp_path):
    offered, parsed = _reset_counts(tmp_path)
    assert offered > 40 and parsed == offered  # empty cache: every offered tool is parsed (nominal/0000 offers 54)
    again, parsed_again = _reset_counts(tmp_path)
    assert again == offered and parsed_again == 0


def test_only_an_entry_stored_for_the_same_function_is_served(cache_dir):
    target = get_tool("add_reminder")
    module, qualname = target.fn.__module__, target.fn.__qualname__
    path = schema_cache.cache_path()
    path.write_bytes(pickle.dumps({"add_reminder": (module, qualname, {"marker": 1}),
                                   "contacts_search_contacts": (module, "another_function", {"marker": 2})}))
    assert schema_cache.lookup(target) == {"marker": 1}
    assert schema_cache.lookup(get_tool("contacts_search_contacts")) is None
    assert schema_cache.lookup(get_tool("alarms_create_alarm")) is None


def test_an_unreadable_cache_file_is_ignored(cache_dir):
    schema_cache.cache_path().write_bytes(b"not a pickle")
    assert schema_cache.lookup(get_tool("add_reminder")) is None


def test_disabled_cache_reads_and_writes_nothing(monkeypatch, tmp_path):
    monkeypatch.setenv("MMTSB_CACHE_DIR", "")
    schema_cache.reset()
    assert schema_cache.cache_path() is None and schema_cache.lookup(get_tool("add_reminder")) is None
    schema_cache.remember(get_tool("add_reminder"), {"x": 1})
    schema_cache.save()
    assert not list(tmp_path.iterdir())
    schema_cache.reset()


def test_user_registered_tools_are_parsed_and_never_stored(cache_dir):
    @tool(app="cache_test", toolboxes=("cache_test",))
    def cache_test_echo(world, text: str) -> str:
        """Echo a text.

        Args:
            text: what to echo.
        """
        return text

    try:
        assert REGISTRY["cache_test_echo"].schema["function"]["parameters"]["required"] == ["text"]
        schema_cache.save()
        assert not list(cache_dir.glob("tool_schemas_*.pickle"))
    finally:
        REGISTRY.pop("cache_test_echo", None)


def test_built_schemas_are_merged_into_the_file(cache_dir):
    a, b = get_tool("add_reminder"), get_tool("alarms_create_alarm")
    schema_cache.lookup(a)  # opens the (absent) file
    schema_cache.remember(a, a._build_schema())
    schema_cache.save()
    schema_cache.reset()
    schema_cache.lookup(b)
    schema_cache.remember(b, b._build_schema())
    schema_cache.save()
    schema_cache.reset()
    assert schema_cache.lookup(a) == a._build_schema() and schema_cache.lookup(b) == b._build_schema()


def test_the_key_changes_with_a_schema_source(tmp_path, monkeypatch):
    package = tmp_path / "mmtsb_env"
    for folder in ("apps", "tools", "world"):
        shutil.copytree(schema_cache._PACKAGE / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(schema_cache, "_PACKAGE", package)
    before = schema_cache.fingerprint()
    assert schema_cache.fingerprint() == before  # deterministic
    path = package / "apps" / "reminder" / "tools.py"
    path.write_text(path.read_text(encoding="utf-8").replace('"""', '"""Edited. ', 1), encoding="utf-8")
    assert schema_cache.fingerprint() != before
