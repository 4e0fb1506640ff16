"""The full toolbox against the reference catalog (tool names and parameter names, in order).

``data/reference_tools.tsv`` lists the reference's 511 tools (domain, name, parameters) so that
its scenarios can run here; only deliberate differences are allowed, each with its reason.
"""

from __future__ import annotations

import csv
from pathlib import Path

from mmtsb_env.tools.catalog import REGISTRY, tools_in
from mmtsb_env.tools.registry import ASSISTANT, USER

CATALOG = Path(__file__).with_name("data") / "reference_tools.tsv"

# tool name -> why our parameters differ (ours must still start with the reference's, in order)
DELIBERATE_DIFFERENCES = {
    "todoist_update_task": "also takes project_id and section_id (after the reference's parameters) so a task "
                           "can be moved between projects and sections, which the reference cannot do",
}
USER_ONLY = {"end_conversation", "send_message_with_image", "ui_user_interact"}


def _param_names(spec: str) -> list[str]:
    spec = spec.strip()
    if spec in ("", "(none)"):
        return []
    parts, depth, current = [], 0, ""
    for ch in spec:
        depth += ch in "[({"
        depth -= ch in "])}"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return [p.split(":")[0].strip() for p in parts]


def _rows() -> list[dict[str, str]]:
    with CATALOG.open() as f:
        return list(csv.DictReader(f, delimiter="\t"))


def test_catalog_file_is_complete() -> None:
    rows = _rows()
    assert len(rows) == 511 and len({r["tool_name"] for r in rows}) == 511


def test_every_reference_tool_exists_with_the_same_parameters() -> None:
    problems = []
    for row in _rows():
        name = row["tool_name"]
        if name not in REGISTRY:
            problems.append(f"missing {name}")
            continue
        ours = [p.name for p in REGISTRY[name].params]
        theirs = _param_names(row["parameters"])
        if name in DELIBERATE_DIFFERENCES:
            if ours[: len(theirs)] != theirs or ours == theirs:
                problems.append(f"{name}: documented difference no longer holds: {ours} vs {theirs}")
        elif ours != theirs:
            problems.append(f"{name}: {ours} != {theirs}")
    assert problems == []


def test_seats_match_the_reference() -> None:
    for row in _rows():
        tool = REGISTRY[row["tool_name"]]
        if row["tool_name"] in USER_ONLY:
            assert tool.visible_to == frozenset({USER}), row["tool_name"]
        else:
            assert ASSISTANT in tool.visible_to, row["tool_name"]


def test_full_toolbox_size() -> None:
    count = len(tools_in("full", ASSISTANT))
    print(f"agent-visible tools in the full toolbox: {count}")
    assert count >= 500
    reference = {r["tool_name"] for r in _rows()} - USER_ONLY
    ours = {t.name for t in tools_in("full", ASSISTANT)}
    assert reference <= ours
