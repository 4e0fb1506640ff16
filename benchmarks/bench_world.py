"""Base-world build cost: total and per app populator (figures, not tests).

Run: python benchmarks/bench_world.py
Also times loading the base world from its disk cache (what a later process does), checked to
equal a fresh build.
"""

from __future__ import annotations

import random
import statistics
import time

from faker import Faker

import mmtsb_env.apps  # noqa: F401  (registers tables and populators)
from mmtsb_env.world import base, populators


def build_once(seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    fake = Faker("en_US")
    fake.seed_instance(seed)
    people = populators._make_people(fake, rng)
    builder = populators.BaseBuilder(seed=seed, rng=rng, fake=fake, people=people, supervisor=people[populators.SUPERVISOR_ID - 1])
    costs = {}
    for _, app, fn in sorted(populators._POPULATORS, key=lambda item: (item[0], item[1])):
        start = time.perf_counter()
        fn(builder)
        costs[app] = costs.get(app, 0.0) + time.perf_counter() - start
    costs["rows"] = float(sum(len(rows) for rows in builder.rows.values()))
    return costs


if __name__ == "__main__":
    runs = [build_once(seed) for seed in range(5)]
    per_app = {app: statistics.median(r[app] for r in runs) for app in runs[0] if app != "rows"}
    print(f"base world: {int(runs[0]['rows'])} rows, median build {sum(per_app.values()) * 1e3:.0f} ms (seeds 0-4)")
    for app, cost in sorted(per_app.items(), key=lambda item: -item[1]):
        print(f"  {app:<14} {cost * 1e3:6.1f} ms")
    import tempfile
    from pathlib import Path

    from common import check, load

    with tempfile.TemporaryDirectory() as tmp:
        built = base.build_base_world(0)
        target = Path(tmp) / "base_world.pickle"
        base._save_disk(target, built)
        loads = []
        for _ in range(5):
            start = time.perf_counter()
            loaded = base._load_disk(target)
            loads.append(time.perf_counter() - start)
        check(loaded is not None and loaded.layer.tables == built.layer.tables, "the disk cache did not round-trip")
    print(f"base world from the disk cache: {statistics.median(loads) * 1e3:.0f} ms ({load()})")
