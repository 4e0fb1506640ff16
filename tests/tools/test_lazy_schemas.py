"""Tools are parsed on first use: the lazily derived schemas equal the eagerly derived ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mmtsb_env.tools import REGISTRY, InvalidArgument, tool

# Dumps every registered tool (schema, documentation, toolboxes, order) and every toolbox's
# listing. With EAGER, each Tool parses its function the moment it is constructed, before any
# other tool is registered (what registration did before parsing was deferred).
DUMP = r"""
import json, sys
from mmtsb_env.tools import registry
if sys.argv[1] == "eager":
    construct = registry.Tool.__init__
    def eager_init(self, *args, **kwargs):
        construct(self, *args, **kwargs)
        self._spec
    registry.Tool.__init__ = eager_init
import mmtsb_env
from mmtsb_env.tools.variants import TOOLBOXES
listings = {box: mmtsb_env.list_tools(box) for box in TOOLBOXES}
tools = {name: [t.schema, t.doc(), sorted(t.toolboxes), list(t.order), t.writes, list(t.absorbs)]
         for name, t in registry.REGISTRY.items()}
print(json.dumps({"listings": listings, "tools": tools}, sort_keys=True, default=repr))
"""


def _dump(how: str, cache_dir: str = "") -> dict:
    env = {**os.environ, "MMTSB_CACHE_DIR": cache_dir}  # "": the on-disk schema cache is off
    out = subprocess.run([sys.executable, "-c", DUMP, how], capture_output=True, text=True, check=False, timeout=600,
                         env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_lazy_schemas_equal_eager_ones() -> None:
    lazy, eager = _dump("lazy"), _dump("eager")
    assert len(lazy["listings"]["full"]) == 508
    assert lazy["tools"].keys() == eager["tools"].keys()
    for name in eager["tools"]:
        assert lazy["tools"][name] == eager["tools"][name], name
    assert lazy["listings"] == eager["listings"]
    # the consolidated tools' parameters really come from the tools they absorb
    note = lazy["tools"]["simple_note_manage_note"][0]["function"]["parameters"]["properties"]
    assert note["action"]["enum"][:2] == ["create", "show"] and "title" in note


def test_schemas_from_the_disk_cache_equal_parsed_ones(tmp_path) -> None:
    eager = _dump("eager")
    written = _dump("lazy", str(tmp_path))  # builds every schema and stores them at exit
    assert list(tmp_path.glob("tool_schemas_*.pickle"))
    cached = _dump("lazy", str(tmp_path))  # reads them
    assert written == eager and cached == eager


def test_registration_parses_nothing_until_a_tool_is_used() -> None:
    code = ("import mmtsb_env; from mmtsb_env.tools import catalog, registry; "
            "env = mmtsb_env.make_env(suite='demo'); "
            "print(len(registry.REGISTRY), sum('_spec' in vars(t) for t in registry.REGISTRY.values())); "
            "env.reset(seed=0, options={'scenario': 'demo/note_from_receipt'}); "
            "print(sum('_spec' in vars(t) for t in registry.REGISTRY.values()), len(env.unwrapped.episode.active.offered()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=600,
                         env={**os.environ, "MMTSB_CACHE_DIR": ""})  # schemas parsed, not read from the disk cache
    assert out.returncode == 0, out.stderr[-2000:]
    (registered, parsed_before), (parsed_after, offered) = (map(int, line.split()) for line in out.stdout.splitlines()[-2:])
    assert registered > 508 and parsed_before == 0
    # the offered tools' schemas (and the user seat's) are built; not the other ~500
    assert offered <= parsed_after < 100


def test_a_tool_without_docstring_or_with_star_args_is_refused_when_registered() -> None:
    with pytest.raises(TypeError, match="needs a docstring"):
        @tool(app="lazy_test", toolboxes=("lazy_test",))
        def lazy_test_undocumented(world, x: int) -> int:
            return x
    with pytest.raises(TypeError, match=r"\*args/\*\*kwargs are not allowed"):
        @tool(app="lazy_test", toolboxes=("lazy_test",))
        def lazy_test_star(world, *values: int) -> int:
            """Sum values."""
            return sum(values)
    assert "lazy_test_undocumented" not in REGISTRY and "lazy_test_star" not in REGISTRY


def test_a_lazily_parsed_tool_checks_arguments_like_before() -> None:
    @tool(app="lazy_test", toolboxes=("lazy_test",))
    def lazy_test_repeat(world, text: str, times: int = 2) -> str:
        """Repeat a text.

        Args:
            text: what to repeat.
            times: how often.
        """
        return text * times

    entry = REGISTRY.pop("lazy_test_repeat")
    assert "_spec" not in vars(entry)
    with pytest.raises(InvalidArgument, match="parameter 'times' must be an integer, got str 'x'"):
        entry.call(None, {"text": "a", "times": "x"})
    assert entry.call(None, {"text": "ab"}) == "abab"
    assert entry.schema["function"]["parameters"]["required"] == ["text"]
    assert entry.schema["function"]["parameters"]["properties"]["times"] == {"type": "integer", "description": "how often."}
