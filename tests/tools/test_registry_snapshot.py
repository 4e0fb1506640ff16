"""What the app domains register is unchanged (see ``registry_snapshot``): every tool's schema
and metadata in every toolbox and seat, in listing order, the table declarations and the base world."""

from __future__ import annotations

import json

from tests.tools.registry_snapshot import SNAPSHOT, snapshot


def test_registry_tables_and_base_world_match_the_stored_snapshot():
    stored = json.loads(SNAPSHOT.read_text())
    current = snapshot()
    changed = sorted(k for k in stored.keys() | current.keys() if stored.get(k) != current.get(k))
    assert not changed, (f"changed: {changed}; if deliberate, rewrite the snapshot with "
                         "`python -m tests.tools.registry_snapshot --write`")
