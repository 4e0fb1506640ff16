"""CLI polish through the real `mmtsb` entry point: `play`'s :commands never reach the simulated
user, :tools shows signatures, --help fits 80 columns and names agents, suites and harnesses,
packaging builds its metadata without deprecation warnings."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

MMTSB = str(Path(sys.executable).with_name("mmtsb"))
ROOT = Path(__file__).resolve().parents[2]


def play(stdin: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([MMTSB, "play", "--scenario", "demo/compare_receipts", "--image-dir", str(tmp_path), *args],
                          input=stdin, capture_output=True, text=True, timeout=180)


def test_play_catches_unknown_commands_and_lists_the_known_ones(tmp_path):
    out = play(":help\n:frobnicate\nWhich receipts do you mean?\n:quit\n", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    turns = out.stdout.split("assistant> ")
    assert "commands: :tools" in turns[1] and ":quit (leave)" in turns[1] and "unknown" not in turns[1]
    assert turns[2].startswith("unknown command :frobnicate; commands: :tools")
    assert "User:" not in turns[1] + turns[2]  # the simulated user saw neither
    assert "User:" in turns[3]  # a real reply reaches the user


def test_play_tools_shows_signatures(tmp_path):
    out = play(":tools\n:quit\n", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "  simple_note_create_note(title: string, content: string" in out.stdout
    code = play(":tools\n:quit\n", "--mode", "code", tmp_path=tmp_path)
    assert "  simple_note_create_note(title: string, content: string" in code.stdout


def test_help_fits_80_columns_and_lists_the_choices():
    from mmtsb_env.baselines import AGENTS
    from mmtsb_env.commands.eval import AGENT_NAMES, SUITES
    from mmtsb_env.envs.options import HARNESSES
    from mmtsb_env.scenario.suites import BUILTIN_SUITES

    assert set(AGENT_NAMES) == set(AGENTS) and set(SUITES) == set(BUILTIN_SUITES)
    for command in (["--help"], ["eval", "--help"], ["report", "--help"], ["play", "--help"], ["export", "--help"]):
        out = subprocess.run([MMTSB, *command], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "COLUMNS": "80"})
        assert out.returncode == 0, out.stderr
        assert max(len(line) for line in out.stdout.splitlines()) <= 80, command
        assert "…" not in out.stdout, command
    text = " ".join(subprocess.run([MMTSB, "eval", "--help"], capture_output=True, text=True, timeout=60,
                                   env={**os.environ, "COLUMNS": "80"}).stdout.split())
    for name in (*AGENTS, *BUILTIN_SUITES, *HARNESSES):
        assert name in text, name


def test_package_metadata_has_no_deprecation_warnings_and_declares_the_suite_folders():
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = apply_configuration(Distribution(), ROOT / "pyproject.toml")
    assert not [str(w.message) for w in caught if "license" in str(w.message).lower()]
    assert dist.metadata.license_expression == "Apache-2.0"
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    data_folders = {f"mmtsb_env.suites.{p.name}" for p in (ROOT / "scenarios").iterdir()
                    if p.is_dir() and not p.name.startswith("__")}
    assert data_folders and data_folders <= declared
