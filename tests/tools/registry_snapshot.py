"""Digests of everything the app domains register: tool schemas and metadata per toolbox and
seat (in listing order), table declarations and the seed-0 base world.

``python -m tests.tools.registry_snapshot`` prints them as JSON; ``--write`` stores them in
``data/registry_snapshot.json``, which ``test_registry_snapshot.py`` compares against. A pure
move of app code must leave every digest as it was; a deliberate change to a tool, a table or
the base world rewrites the file in the same commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("data") / "registry_snapshot.json"


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, default=repr).encode()).hexdigest()


def snapshot() -> dict[str, str]:
    """``{part: sha256}`` of the tool registry, the table declarations and the base world."""
    from mmtsb_env.tools.catalog import tools_in
    from mmtsb_env.tools.registry import ASSISTANT, USER
    from mmtsb_env.tools.variants import TOOLBOXES
    from mmtsb_env.world.base import build_base_world
    from mmtsb_env.world.schema import TABLES

    out: dict[str, str] = {}
    for box in TOOLBOXES:
        for seat in (ASSISTANT, USER):
            tools = tools_in(box, seat)
            out[f"schemas/{box}/{seat}"] = _digest([t.schema for t in tools])
            out[f"tools/{box}/{seat}"] = _digest([
                [t.name, t.app, t.writes, list(t.requires), sorted(t.visible_to), sorted(t.toolboxes), list(t.absorbs)]
                for t in tools])
    out["tables"] = _digest([[s.name, s.key, list(s.columns.items()), sorted(s.auto_columns), [c for c, _ in s.derived]]
                             for s in TABLES.values()])
    world = build_base_world(0)
    out["base_world"] = _digest({t: sorted(rows.items(), key=repr) for t, rows in sorted(world.layer.tables.items())})
    out["base_world_shared"] = _digest(sorted(world.shared.items(), key=repr))
    return out


if __name__ == "__main__":
    current = snapshot()
    if "--write" in sys.argv:
        SNAPSHOT.write_text(json.dumps(current, indent=1) + "\n")
    print(json.dumps(current, indent=1))
