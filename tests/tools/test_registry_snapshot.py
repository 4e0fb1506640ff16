"""What the app domains register is unchanged (see ``registry_snapshot``): every tool's schema
and metadata in every toolbox and seat, in listing order, the table declarations and the base world.

The snapshot is taken in a fresh process, so tables and tools that other tests declare in this
one do not count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.tools.registry_snapshot import SNAPSHOT

ROOT = Path(__file__).resolve().parents[2]


def test_registry_tables_and_base_world_match_the_stored_snapshot():
    stored = json.loads(SNAPSHOT.read_text())
    run = subprocess.run([sys.executable, "-m", "tests.tools.registry_snapshot"], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    current = json.loads(run.stdout)
    changed = sorted(k for k in stored.keys() | current.keys() if stored.get(k) != current.get(k))
    assert not changed, (f"changed: {changed}; if deliberate, rewrite the snapshot with "
                         "`python -m tests.tools.registry_snapshot --write`")
