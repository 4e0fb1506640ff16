"""Packaging: every package folder is listed in pyproject, docstring examples run, CLI entry point works."""

import doctest
import importlib
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import mmtsb_env

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_folder_is_declared():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    declared = set(config["packages"])
    mapped = config["package-dir"]
    found = {".".join(p.relative_to(ROOT).parts[:-1]) for p in (ROOT / "mmtsb_env").rglob("__init__.py")}
    found |= {name for name in mapped}
    assert found <= declared, f"undeclared packages: {sorted(found - declared)}"


OPTIONAL_IMPORTS = {"verifiers"}  # integrations whose library is an extra, not a dependency


def _modules():
    names = ["mmtsb_env"]
    for info in pkgutil.walk_packages(mmtsb_env.__path__, "mmtsb_env."):
        names.append(info.name)
    return sorted(n for n in names if ".commands." not in n and not n.endswith("__main__"))


@pytest.mark.parametrize("module", _modules())
def test_docstring_examples(module):
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name not in OPTIONAL_IMPORTS:
            raise
        pytest.skip(f"{module} needs the optional package {exc.name!r} (pip install -e '.[all]')")
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest failure(s) in {module}"


def test_console_script_runs_the_main_job():
    out = subprocess.run([sys.executable, "-m", "mmtsb_env.cli", "eval", "--suite", "demo", "--agent", "oracle", "--limit", "2"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert '"agent_sr": 1.0' in out.stdout
